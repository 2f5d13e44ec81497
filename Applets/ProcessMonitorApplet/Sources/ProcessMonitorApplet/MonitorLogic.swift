import AppletKit
import Foundation
import ProcessMonitorAppletInterface

/// The process monitor's logic: what each event (a key's meaning, the table's own keys, the
/// timer's tick, a confirmed signal) makes happen, as an `Executable`. It reads the store and the
/// coeffects (the time, the processes) and changes nothing itself.
///
/// ```swift
/// logic.send(.start, to: MonitorLogic())           // read /proc now and every 2 s
/// logic.send(.sort(.memory), to: MonitorLogic())   // again: the other direction
/// logic.send(.stop, to: MonitorLogic())            // the timer stops
/// ```
///
/// The timer is a `.repeating` effect with one id, `monitor.refresh`: each tick reads `/proc`, so
/// `.start` twice still leaves one timer, `.stop` cancels it, and a recorded session replays the
/// ticks where they happened.
public struct MonitorLogic: EventLogic {
    /// What happens to the monitor: its keys, its widgets, its timer and the user's answers.
    public enum Event: Codable, Sendable, Equatable {
        /// Reads `/proc` now and starts the timer (the applet sends it when it appears).
        case start
        /// Stops the timer (the applet sends it when it goes).
        case stop
        /// The timer fired: read `/proc`.
        case tick
        /// Reads `/proc` now, leaving the timer alone.
        case refresh
        /// A sort key: sorts by the column, or flips the direction if it is sorted already.
        case sort(MonitorColumn)
        /// The table's own sort keys (`<`, `>`, `r`, a header click).
        case setSort(MonitorSort)
        /// The filter field changed.
        case filter(String)
        /// A row was selected.
        case select(pid: Int32)
        /// Moves the selection by some rows (negative: up).
        case move(by: Int)
        /// Asks whether to send `signal` to the selected process.
        case askToSignal(signal: Int32)
        /// Sends `signal` (the user said yes).
        case signal(pid: Int32, signal: Int32)
    }

    /// The id of the timer's sleep.
    public static let timerID: EffectID = "monitor.refresh"
    /// How often the list refreshes.
    public static let interval = Duration.seconds(2)

    public init() {}

    /// What `event` makes happen, given the store and the coeffects of this moment.
    public func executable(for event: Event, in context: LogicContext) -> Executable {
        let state = context.store.processMonitor.value
        let sort = context.store.processMonitorSort.value
        switch event {
        case .start:
            return .sequence(
                refresh(context),
                .repeating(every: Self.interval, id: Self.timerID) { .send(.tick, to: self) })
        case .tick:
            return refresh(context)
        case .stop:
            return .cancel(Self.timerID)
        case .refresh:
            return refresh(context)
        case .sort(let column):
            return .request(MonitorRequest.sort(sort.pressing(column)))
        case .setSort(let new):
            return new == sort ? .none : .request(MonitorRequest.sort(new))
        case .filter(let text):
            return text == state.filter ? .none : .request(MonitorRequest.setFilter(text))
        case .select(let pid):
            return pid == state.selectedPID ? .none : .request(MonitorRequest.select(pid))
        case .move(let delta):
            let rows = state.visibleProcesses(sortedBy: sort)
            guard let index = state.selectedIndex(in: rows) else { return .none }
            let target = rows[max(0, min(rows.count - 1, index + delta))].pid
            return target == state.selectedPID ? .none : .request(MonitorRequest.select(target))
        case .askToSignal(let signal):
            guard let process = state.selectedProcess(sortedBy: sort) else { return .none }
            return .request(MonitorRequest.askToSignal(pid: process.pid, name: process.name, signal: signal))
        case .signal(let pid, let signal):
            let name = state.processes.first { $0.pid == pid }?.name ?? "gone"
            return .effect(SignalProcess(pid: pid, signal: signal),
                           then: { _ in
                               .sequence(.request(MonitorRequest.signalSent(pid: pid, name: name, signal: signal)),
                                         .send(.refresh, to: self))
                           },
                           onError: { error in .request(MonitorRequest.signalFailed(error)) })
        }
    }

    /// Reads the processes (a coeffect) and the time, and works out each one's CPU share since the
    /// last reading.
    @MainActor private func refresh(_ context: LogicContext) -> Executable {
        let state = context.store.processMonitor.value
        let sort = context.store.processMonitorSort.value
        let now = context.coeffects.now()
        do {
            let snapshots = try context.coeffects.processes()
            let rows = MonitorProcess.rows(from: snapshots, previous: state.processes,
                                           elapsed: state.lastRefresh.map { now.timeIntervalSince($0) })
            return .request(MonitorRequest.setProcesses(rows, at: now, select: state.selection(after: rows, sortedBy: sort)))
        } catch {
            return .request(MonitorRequest.setProblem("Cannot read the processes: \(error.localizedDescription)"))
        }
    }
}
