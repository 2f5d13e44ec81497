import AppletKit
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends a signal to a process, as a side effect: `kill(pid, signal)`. The monitor sends it only
/// after the user confirmed; a test registers a fake performer for it
/// (`logic.perform(SignalProcess.self) { effect, _ in … }`) and a replay gives back the recorded
/// result without signalling anything.
///
/// ```swift
/// .effect(SignalProcess(pid: 1234, signal: SIGTERM), then: { _ in .send(.refresh, to: MonitorLogic()) },
///         onError: { error in .request(MonitorRequest.signalFailed(error)) })
/// ```
///
/// A pid of 0 or less (a process group, or every process) is refused with `EINVAL`: the monitor
/// only ever signals one process.
public struct SignalProcess: LiveSideEffect, Codable, Equatable, CustomStringConvertible {
    public typealias Failure = SignalError

    /// The process to signal.
    public var pid: Int32
    /// The signal (`SIGTERM`, `SIGKILL`…).
    public var signal: Int32

    public init(pid: Int32, signal: Int32) {
        self.pid = pid
        self.signal = signal
    }

    /// Calls `kill`; throws its `errno`, with the system's text for it.
    public func perform(with coeffects: Coeffects) async throws(SignalError) {
        guard pid > 0 else { throw SignalError(pid: pid, signal: signal, code: EINVAL) }
        if kill(pid, signal) != 0 { throw SignalError(pid: pid, signal: signal, code: errno) }
    }

    /// `SignalProcess(SIGTERM → 1234)`, as the action log shows it.
    public var description: String { "SignalProcess(\(SignalProcess.name(of: signal)) → \(pid))" }

    /// A signal's name: `SIGTERM`, `SIGKILL`…, or `signal 42` for one without a common name.
    public static func name(of signal: Int32) -> String {
        switch signal {
        case SIGHUP: "SIGHUP"
        case SIGINT: "SIGINT"
        case SIGQUIT: "SIGQUIT"
        case SIGKILL: "SIGKILL"
        case SIGUSR1: "SIGUSR1"
        case SIGUSR2: "SIGUSR2"
        case SIGTERM: "SIGTERM"
        case SIGCONT: "SIGCONT"
        case SIGSTOP: "SIGSTOP"
        default: "signal \(signal)"
        }
    }
}

/// Why a signal could not be sent: `kill`'s `errno` and the system's text for it
/// (`ESRCH` "No such process", `EPERM` "Operation not permitted").
public struct SignalError: Error, Codable, Equatable, CustomStringConvertible {
    /// The process it was for.
    public var pid: Int32
    /// The signal that did not go.
    public var signal: Int32
    /// The `errno` value.
    public var code: Int32
    /// What the system says about `code`.
    public var reason: String

    public init(pid: Int32, signal: Int32, code: Int32) {
        self.pid = pid
        self.signal = signal
        self.code = code
        self.reason = String(cString: strerror(code))
    }

    /// `Cannot send SIGTERM to 1234: No such process`, as the toast says it.
    public var description: String { "Cannot send \(SignalProcess.name(of: signal)) to \(pid): \(reason)" }
}
