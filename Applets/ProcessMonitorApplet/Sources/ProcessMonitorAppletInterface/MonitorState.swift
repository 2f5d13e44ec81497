import AppletKit
import Foundation

/// A column of the process table; the ones with keys (`p`, `n`, `m`, `c`) and the others (`<`/`>`
/// on the table) can all sort it.
public enum MonitorColumn: String, Codable, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case pid, name, state, memory, cpu, command

    /// `pid`, `memory`…: how events and requests name it in the action log.
    public var description: String { rawValue }

    /// The table header.
    public var title: String {
        switch self {
        case .pid: "PID"
        case .name: "NAME"
        case .state: "STATE"
        case .memory: "RSS"
        case .cpu: "CPU%"
        case .command: "COMMAND"
        }
    }

    /// The direction a first press sorts in: the biggest first for numbers people look for the
    /// top of (memory, CPU), A to Z or low to high for the rest.
    public var sortsAscendingFirst: Bool { self != .memory && self != .cpu }
}

/// How the process table is sorted: a column and a direction.
public struct MonitorSort: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The column the rows are ordered by (ties: by pid).
    public var column: MonitorColumn
    /// Smallest first (A to Z, low to high) when true.
    public var ascending: Bool

    public init(column: MonitorColumn, ascending: Bool) {
        self.column = column
        self.ascending = ascending
    }

    /// What a monitor starts with: the busiest process first.
    public static let standard = MonitorSort(column: .cpu, ascending: false)

    /// What pressing `column`'s sort key does: on the sorted column the direction flips, another
    /// column starts in its own first direction.
    public func pressing(_ column: MonitorColumn) -> MonitorSort {
        column == self.column ? MonitorSort(column: column, ascending: !ascending)
                              : MonitorSort(column: column, ascending: column.sortsAscendingFirst)
    }

    /// `CPU% ▼`, as the table's header marks it.
    public var description: String { "\(column.title) \(ascending ? "▲" : "▼")" }
}

/// One process as the monitor shows it: what `/proc` said, plus its share of a CPU since the
/// refresh before (nil on the first refresh that saw it).
public struct MonitorProcess: Codable, Hashable, Sendable, Identifiable {
    /// The process id.
    public var pid: Int32
    /// The program's name as the kernel keeps it (at most 15 characters).
    public var name: String
    /// `R` running, `S` sleeping, `D` waiting on a disk, `Z` zombie, `T` stopped, `I` idle.
    public var state: String
    /// Resident memory in KiB.
    public var residentKiB: Int
    /// CPU time used since the process started, in clock ticks.
    public var cpuTicks: Int
    /// Percent of one CPU used since the previous refresh.
    public var cpuPercent: Double?
    /// The command line; empty for kernel threads.
    public var command: String

    /// Its pid.
    public var id: Int32 { pid }

    public init(pid: Int32, name: String, state: String = "S", residentKiB: Int = 0, cpuTicks: Int = 0,
                cpuPercent: Double? = nil, command: String = "") {
        self.pid = pid
        self.name = name
        self.state = state
        self.residentKiB = residentKiB
        self.cpuTicks = cpuTicks
        self.cpuPercent = cpuPercent
        self.command = command
    }

    /// The rows for a new reading of `/proc`: each process's CPU share is the ticks it used since
    /// the `previous` reading, `elapsed` seconds ago, over the ticks a CPU has in that time.
    public static func rows(from snapshots: [ProcessSnapshot], previous: [MonitorProcess], elapsed: TimeInterval?,
                            ticksPerSecond: Int = MonitorProcess.ticksPerSecond) -> [MonitorProcess] {
        let before = Dictionary(previous.map { ($0.pid, $0.cpuTicks) }, uniquingKeysWith: { first, _ in first })
        return snapshots.map { snapshot in
            var percent: Double?
            if let elapsed, elapsed > 0, let ticks = before[snapshot.pid], ticks <= snapshot.cpuTicks {
                percent = Double(snapshot.cpuTicks - ticks) / (elapsed * Double(ticksPerSecond)) * 100
            }
            return MonitorProcess(pid: snapshot.pid, name: snapshot.name, state: snapshot.state,
                                  residentKiB: snapshot.residentKiB, cpuTicks: snapshot.cpuTicks,
                                  cpuPercent: percent, command: snapshot.command)
        }
    }

    /// Clock ticks per second (`/proc` counts CPU time in them).
    public static let ticksPerSecond = max(1, Int(sysconf(Int32(_SC_CLK_TCK))))

    /// Whether the filter `text` finds it: in its name or command line (ignoring case), or as the
    /// start of its pid. Empty text finds every process.
    public func matches(_ text: String) -> Bool {
        let needle = text.trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return true }
        return name.localizedCaseInsensitiveContains(needle) || command.localizedCaseInsensitiveContains(needle)
            || String(pid).hasPrefix(needle)
    }

    /// Whether it comes before `other` when sorted by `column`, ascending (ties: by pid).
    func precedes(_ other: MonitorProcess, by column: MonitorColumn) -> Bool? {
        switch column {
        case .pid: return nil
        case .name: return ordered(name.lowercased(), other.name.lowercased())
        case .state: return ordered(state, other.state)
        case .memory: return ordered(residentKiB, other.residentKiB)
        case .cpu:
            let mine = cpuPercent ?? -1, theirs = other.cpuPercent ?? -1
            return mine != theirs ? mine < theirs : ordered(cpuTicks, other.cpuTicks)
        case .command: return ordered(command.lowercased(), other.command.lowercased())
        }
    }

    private func ordered<T: Comparable>(_ a: T, _ b: T) -> Bool? { a == b ? nil : a < b }
}

/// What the process monitor shows: the last reading of `/proc`, the filter, the selected process,
/// and when it last refreshed or why it could not.
///
/// Everything here changes through the monitor's requests (`MonitorRequest`), which its logic
/// sends; other applets read it through this target.
public struct MonitorState: Codable, Equatable, Sendable {
    /// Every process of the last reading, in `/proc`'s order (by pid).
    public var processes: [MonitorProcess]
    /// Only processes that match it are shown (see `MonitorProcess.matches(_:)`).
    public var filter: String
    /// The selected process; when it is not shown, the first shown row is selected.
    public var selectedPID: Int32?
    /// When `/proc` was last read.
    public var lastRefresh: Date?
    /// Why the last refresh or signal failed, until the next refresh works.
    public var problem: String?

    public init(processes: [MonitorProcess] = [], filter: String = "", selectedPID: Int32? = nil,
                lastRefresh: Date? = nil, problem: String? = nil) {
        self.processes = processes
        self.filter = filter
        self.selectedPID = selectedPID
        self.lastRefresh = lastRefresh
        self.problem = problem
    }

    /// The rows of the table: the processes that match the filter, in `sort`'s order.
    public func visibleProcesses(sortedBy sort: MonitorSort) -> [MonitorProcess] {
        let shown = filter.isEmpty ? processes : processes.filter { $0.matches(filter) }
        return shown.sorted { a, b in
            if let before = a.precedes(b, by: sort.column) { return sort.ascending ? before : !before }
            return sort.column == .pid && !sort.ascending ? a.pid > b.pid : a.pid < b.pid
        }
    }

    /// The selected row of `rows` (from `visibleProcesses`): the selected pid's, else the first;
    /// nil when there are no rows.
    public func selectedIndex(in rows: [MonitorProcess]) -> Int? {
        guard !rows.isEmpty else { return nil }
        return selectedPID.flatMap { pid in rows.firstIndex { $0.pid == pid } } ?? 0
    }

    /// The process a signal would go to: the selected row's.
    public func selectedProcess(sortedBy sort: MonitorSort) -> MonitorProcess? {
        let rows = visibleProcesses(sortedBy: sort)
        return selectedIndex(in: rows).map { rows[$0] }
    }

    /// The process to select once `processes` replace the current ones: the selected one (the
    /// first row's when none was chosen) if it is still there, else the one that takes its row, so
    /// the highlight stays on a process as the list re-sorts, and does not jump to the top when
    /// that process ends.
    public func selection(after processes: [MonitorProcess], sortedBy sort: MonitorSort) -> Int32? {
        let oldRows = visibleProcesses(sortedBy: sort)
        var next = self
        next.processes = processes
        let newRows = next.visibleProcesses(sortedBy: sort)
        guard let row = selectedIndex(in: oldRows), !newRows.isEmpty else { return newRows.first?.pid }
        let pid = oldRows[row].pid
        if processes.contains(where: { $0.pid == pid }) { return pid }
        return newRows[min(row, newRows.count - 1)].pid
    }
}

extension Application {
    /// The process monitor's processes, filter, selection and refresh status (in memory: a new
    /// start reads `/proc` again).
    public var processMonitor: State<MonitorState> {
        state(initial: MonitorState(), feature: "ProcessMonitor", id: "state")
    }

    /// How the process table is sorted, kept across restarts.
    public var processMonitorSort: StoredState<MonitorSort> {
        storedState(initial: MonitorSort.standard, feature: "ProcessMonitor", id: "sort")
    }
}
