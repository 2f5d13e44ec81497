#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a `PseudoTerminal` could not do what was asked. The description says it in a sentence, with
/// the screen as it was for a wait that failed.
///
/// ```swift
/// do {
///     try await terminal.waitFor(text: "Ready", timeout: .seconds(2))
/// } catch let error as PseudoTerminalError {
///     print(error)   // "Timed out after 2 seconds waiting for the screen, which shows: ..."
/// }
/// ```
public enum PseudoTerminalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No executable file of that name on the PATH.
    case executableNotFound(String)
    /// The program could not be started; `step` says where ("execve", "chdir", ...).
    case startFailed(executable: String, step: String, errno: Int32)
    /// A wait ran out of time; `screen` is what the screen showed then.
    case timedOut(after: Duration, screen: String)
    /// The program closed the terminal (it and everything it started ended) before the screen
    /// showed what was waited for; `screen` is what it showed last.
    case outputEnded(screen: String)
    /// The program has ended, so it cannot be signalled.
    case notRunning
    /// `close()` was called (or the terminal went away) before or during the call.
    case closed
    /// Writing to the program did not finish in time (it does not read its input).
    case writeTimedOut
    /// `press` was given something that is not a key spec.
    case invalidKeySpec(String)
    /// A system call failed.
    case systemCall(String, errno: Int32)

    public var description: String {
        switch self {
        case .executableNotFound(let name):
            return "There is no executable '\(name)' on the PATH."
        case .startFailed(let executable, let step, let code):
            return "Could not start \(executable): \(step) failed: \(Self.message(for: code))."
        case .timedOut(let duration, let screen):
            return "Timed out after \(duration) waiting for the screen, which shows:\n\(screen)"
        case .outputEnded(let screen):
            return "The program closed the terminal before the screen showed what was waited for; it shows:\n\(screen)"
        case .notRunning:
            return "The program has ended."
        case .closed:
            return "The pseudo-terminal is closed."
        case .writeTimedOut:
            return "Timed out writing to the program (it does not read its input)."
        case .invalidKeySpec(let spec):
            return "'\(spec)' is not a key spec; write e.g. \"q\", \"enter\", \"ctrl-c\", \"up\", \"f5\" (send(_:) types text)."
        case .systemCall(let name, let code):
            return "\(name) failed: \(Self.message(for: code))."
        }
    }

    static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text) + " (errno \(code))"
    }
}
