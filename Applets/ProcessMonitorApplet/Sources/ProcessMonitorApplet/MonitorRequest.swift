import AppletKit
import Foundation
import ProcessMonitorAppletInterface

/// Every change the process monitor makes to the store, as a value: `MonitorLogic` turns events
/// into these, the logic module applies them (and logs and records them), and a test compares
/// them.
///
/// ```swift
/// logic.send(.request(MonitorRequest.setFilter("ssh")))
/// ```
public enum MonitorRequest: Request, Codable, Equatable, CustomStringConvertible {
    /// A new reading of `/proc`, taken at `at`; `select` is the process to select after it.
    case setProcesses([MonitorProcess], at: Date, select: Int32?)
    /// Shows why something failed (nil: nothing did).
    case setProblem(String?)
    /// Sorts the table.
    case sort(MonitorSort)
    /// Shows only the processes that match.
    case setFilter(String)
    /// Selects a process.
    case select(Int32?)
    /// Asks the user whether to send `signal` to the process; a yes sends
    /// `MonitorLogic.Event.signal(pid:signal:)` to the store's logic module.
    case askToSignal(pid: Int32, name: String, signal: Int32)
    /// Says that the signal went.
    case signalSent(pid: Int32, name: String, signal: Int32)
    /// Says why the signal did not go.
    case signalFailed(SignalError)

    /// Changes the monitor's state (and the confirmations and toasts) in `store`.
    @MainActor
    public func apply(to store: Application) {
        switch self {
        case .setProcesses(let processes, let date, let selection):
            store.processMonitor.modify { state in
                state.processes = processes
                state.lastRefresh = date
                state.selectedPID = selection
                state.problem = nil
            }
        case .setProblem(let problem):
            store.processMonitor.modify { $0.problem = problem }
        case .sort(let sort):
            store.processMonitorSort.value = sort
        case .setFilter(let text):
            store.processMonitor.modify { $0.filter = text }
        case .select(let pid):
            store.processMonitor.modify { $0.selectedPID = pid }
        case .askToSignal(let pid, let name, let signal):
            // The confirmation is state too; its answer is an event, so a replay of the keys that
            // answered it does the same.
            store.confirm("Send \(SignalProcess.name(of: signal)) to \(pid) (\(name))?", confirmTitle: "Send",
                          destructive: true) {
                store.logic.value.send(.signal(pid: pid, signal: signal), to: MonitorLogic())
            }
        case .signalSent(let pid, let name, let signal):
            store.toast("Sent \(SignalProcess.name(of: signal)) to \(pid) (\(name))", style: .success)
        case .signalFailed(let error):
            store.processMonitor.modify { $0.problem = error.description }
            store.toast(error.description, style: .error)
        }
    }

    /// Short, so the action log stays readable (a reading of `/proc` is hundreds of processes).
    public var description: String {
        switch self {
        case .setProcesses(let processes, let date, let selection):
            "setProcesses(\(processes.count) processes at \(MonitorFormat.time(date)), select: \(selection.map(String.init) ?? "nil"))"
        case .setProblem(let problem): "setProblem(\(problem.map { "\"\($0)\"" } ?? "nil"))"
        case .sort(let sort): "sort(\(sort.column), ascending: \(sort.ascending))"
        case .setFilter(let text): "setFilter(\"\(text)\")"
        case .select(let pid): "select(\(pid.map(String.init) ?? "nil"))"
        case .askToSignal(let pid, let name, let signal): "askToSignal(\(SignalProcess.name(of: signal)) → \(pid) \(name))"
        case .signalSent(let pid, _, let signal): "signalSent(\(SignalProcess.name(of: signal)) → \(pid))"
        case .signalFailed(let error): "signalFailed(\(error))"
        }
    }
}
