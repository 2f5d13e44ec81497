import AppletKit
import Foundation
import ProcessMonitorAppletInterface

/// Processes: the running processes from `/proc`, refreshed every two seconds while the applet is
/// shown. `p` `n` `m` `c` sort by pid, name, memory or CPU (again: the other way round), `/` or
/// `f` filters, `j`/`k` or the arrows move, `K` or `x` sends the selected process SIGTERM after
/// asking, `Ctrl-R` refreshes now.
///
/// Built on the logic layer: every key sends a `MonitorLogic` event to the store's logic module
/// (`Application.logic`), which applies `MonitorRequest`s, reads `/proc` through its coeffects and
/// signals through `SignalProcess`; the view only reads the store.
public struct ProcessMonitorApplet: Applet {
    public let id = "processes"
    public let title = "Processes"
    @AppState(\.processMonitor) private var state
    @StoredState(\.processMonitorSort) private var sort
    @AppDependency(\.logic) private var logic
    @FocusState private var focus: MonitorFocus?

    /// The monitor's focusable widgets.
    enum MonitorFocus: Hashable { case filter, table }

    public init() {}

    /// The table's columns, in `MonitorColumn` order.
    static let columns: [TableColumn] = MonitorColumn.allCases.map { column in
        switch column {
        case .pid: TableColumn(column.title, width: .fixed(7), alignment: .trailing)
        case .name: TableColumn(column.title, width: .fixed(15))
        case .state: TableColumn(column.title, width: .fixed(5))
        case .memory: TableColumn(column.title, width: .fixed(7), alignment: .trailing)
        case .cpu: TableColumn(column.title, width: .fixed(6), alignment: .trailing)
        case .command: TableColumn(column.title, width: .flexible(1))
        }
    }

    public var body: some View {
        let rows = state.visibleProcesses(sortedBy: sort)
        // The bindings read the store when asked, not the values of this frame: several keys can
        // arrive before the next frame, each building on what the one before changed.
        let store = Application.current
        let send: @Sendable (MonitorLogic.Event) -> Void = { event in
            // Widgets write bindings on the main actor.
            MainActor.assumeIsolated { _ = store.logic.value.send(event, to: MonitorLogic()) }
        }
        let filter = Binding(get: { store.processMonitor.value.filter }, set: { send(.filter($0)) })
        let selection = Binding(
            get: { store.processMonitor.value.selectedIndex(in: rows) ?? 0 },
            set: { row in if rows.indices.contains(row) { send(.select(pid: rows[row].pid)) } })
        let tableSort = Binding(
            get: {
                let sort = store.processMonitorSort.value
                return TableSort(column: MonitorColumn.allCases.firstIndex(of: sort.column), ascending: sort.ascending)
            },
            set: { new in
                guard let column = new.column, MonitorColumn.allCases.indices.contains(column) else { return }
                send(.setSort(MonitorSort(column: MonitorColumn.allCases[column], ascending: new.ascending)))
            })
        let focus = $focus
        return VStack {
            MonitorHeader(shown: rows.count, total: state.processes.count, isFiltered: !state.filter.isEmpty,
                          sort: sort, refreshed: state.lastRefresh.map(MonitorFormat.time))
            if let problem = state.problem {
                Text("✗ \(problem)").themed(.error)
            }
            HStack(spacing: 1) {
                Text("Filter").themed(.muted)
                TextField("/ filters by name, command or pid", text: filter)
                    .focused(focus, equals: .filter)
                    .onSubmit { focus.wrappedValue = .table }
            }
            Table(columns: Self.columns, count: rows.count, selection: selection, sort: tableSort) { row, column in
                MonitorFormat.cell(rows[row], MonitorColumn.allCases[column])
            }
            .focused(focus, equals: .table)
        }
        .defaultFocus(focus, .table)
        .padding(.horizontal, 1)
        .task {
            // The timer runs while the monitor is on screen: started here, stopped when the view
            // goes (another tab, quitting), which cancels this task. (`store` is the pane's store,
            // read while the frame was drawn.)
            store.logic.value.send(.start, to: MonitorLogic())
            await waitUntilCancelled()
            store.logic.value.send(.stop, to: MonitorLogic())
        }
    }

    // MARK: Keys

    /// The monitor's keys, by id (`keys.toml` rebinds them): sorting, the filter, moving, the
    /// signal and a refresh. The table takes `j`/`k`, the arrows, `<`/`>` and `r` itself while it
    /// has focus; the commands move the selection when the filter field has it.
    public var commands: [Command] {
        let logic = self.logic
        let send: @MainActor @Sendable (MonitorLogic.Event) -> Void = { logic.send($0, to: MonitorLogic()) }
        let focus = $focus
        let hasSelection = state.selectedProcess(sortedBy: sort) != nil
        return [
            Command(id: "monitor.filter", "Filter", keys: ["/", "f"]) { focus.wrappedValue = .filter },
            Command(id: "monitor.signal", "SIGTERM", keys: ["K", "x"], isEnabled: hasSelection) {
                send(.askToSignal(signal: SIGTERM))
            },
            // Short titles: at 80 columns the footer shows all four.
            Command(id: "monitor.sort.pid", "by PID", keys: ["p"]) { send(.sort(.pid)) },
            Command(id: "monitor.sort.name", "by name", keys: ["n"]) { send(.sort(.name)) },
            Command(id: "monitor.sort.memory", "by memory", keys: ["m"]) { send(.sort(.memory)) },
            Command(id: "monitor.sort.cpu", "by CPU", keys: ["c"]) { send(.sort(.cpu)) },
            Command(id: "monitor.refresh", "Refresh", keys: ["ctrl-r", "f5"], showsInFooter: false) { send(.refresh) },
            Command(id: "monitor.next", "Next process", keys: ["j", "down"], showsInFooter: false) { send(.move(by: 1)) },
            Command(id: "monitor.previous", "Previous process", keys: ["k", "up"], showsInFooter: false) { send(.move(by: -1)) },
        ]
    }
}

/// The monitor's top line: how many processes, the sort with its mark, and when `/proc` was
/// read. It stays on one line at every width (it once wrapped, pushing the table down): as the
/// pane narrows it drops the time's label, then the time, then says `by` for `sorted by`, and
/// at last cuts the count, never the sort and its mark.
struct MonitorHeader: View {
    let shown: Int
    let total: Int
    let isFiltered: Bool
    let sort: MonitorSort
    /// The time of the last read (`14:05:09`), nil before the first.
    let refreshed: String?

    var body: some View {
        let count = isFiltered ? "\(shown) of \(total) processes" : "\(total) processes"
        let mark = "\(sort.column.title) \(sort.ascending ? "▲" : "▼")"
        let summary = "\(count) · sorted by \(mark)"
        let short = " · by \(mark)"
        return ViewThatFits {
            HStack {
                Text(summary).bold()
                Spacer(minLength: 1)
                Text(refreshed.map { "refreshed \($0)" } ?? "reading /proc…").themed(.muted)
            }
            HStack {
                Text(summary).bold()
                Spacer(minLength: 1)
                Text(refreshed ?? "reading…").themed(.muted)
            }
            Text(summary).bold()
            Text(count + short).bold()
            // The last resort: the sort keeps its width, the count is cut (`12 of 3…`).
            HStack {
                Text(isFiltered ? "\(shown)/\(total)" : "\(total)").lineLimit(1).bold()
                Text(short).bold().frame(width: short.terminalWidth)
            }
        }
    }
}

/// How the monitor writes numbers and times.
enum MonitorFormat {
    /// A cell of the table.
    static func cell(_ process: MonitorProcess, _ column: MonitorColumn) -> String {
        switch column {
        case .pid: String(process.pid)
        case .name: process.name
        case .state: process.state
        case .memory: memory(kib: process.residentKiB)
        case .cpu: process.cpuPercent.map { percent($0) } ?? "-"
        case .command: process.command.isEmpty ? "[\(process.name)]" : process.command
        }
    }

    /// `812K`, `45.3M`, `2.1G`: at most six characters.
    static func memory(kib: Int) -> String {
        if kib < 1024 { return "\(kib)K" }
        let mib = Double(kib) / 1024
        if mib < 1024 { return "\(oneDecimal(mib))M" }
        return "\(oneDecimal(mib / 1024))G"
    }

    /// `0.0`, `12.5`, `250.0` (a process with several threads uses more than one CPU).
    static func percent(_ value: Double) -> String { oneDecimal(value) }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `14:05:09`, local time.
    static func time(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { let n = n ?? 0; return n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}
