import AppletKit

// The screens the UI benchmarks and UIProfile measure (issue 4 budgets): a 200x60 screen with
// 4 panes of mixed widgets in the real host, and lists and tables of 1,000 or 1,000,000 rows.

extension Application {
    public var uiCounter: State<Int> { state(initial: 0, feature: "UIBench", id: "counter") }
    public var uiSelection: State<Int> { state(initial: 500_000, feature: "UIBench", id: "selection") }
    public var uiSort: State<TableSort> { state(initial: TableSort(), feature: "UIBench", id: "sort") }
}

public struct StatusPane: View {
    public init() {}
    @AppState(\.uiCounter) var counter
    public var body: some View {
        VStack(spacing: 1) {
            Text("Status").bold()
            HStack(spacing: 2) { Text("Count:"); Text("\(counter)").foregroundColor(.green) }
            HStack(spacing: 2) { Button("Decrement") {}; Button("Increment") {}; Button("Reset") {} }
            Divider()
            ForEach(0..<12) { i in HStack { Text("metric \(i)"); Spacer(); Text("\(i * 37 % 101)%").dim() } }
        }
        .padding(1)
    }
}

public struct ListPane: View {
    public let rows: Int
    public init(rows: Int) { self.rows = rows }
    @AppState(\.uiSelection) var selection
    public var body: some View {
        VStack {
            HStack { Text("Rows").bold(); Spacer(); Text("\(selection + 1) of \(rows)").dim() }
            Divider()
            List(count: rows, selection: $selection) { row in
                HStack { Text("#\(row)"); Spacer(); Text(row % 7 == 0 ? "東京 🚀" : "item \(row)") }
            }
        }
        .padding(.horizontal, 1)
    }
}

public struct TextPane: View {
    public init() {}
    public var body: some View {
        VStack {
            Text("Notes").bold().underline()
            ForEach(0..<40) { i in Text("line \(i): the quick brown fox jumps over the lazy dog 中文 \(i)") }
        }
    }
}

/// Four panes side by side on a 200x60 headless screen, in the real host (tab bar, footer,
/// per-pane observation, the terminal's diff).
@MainActor
public final class Screen {
    public let terminal = HeadlessTerminal(width: 200, height: 60)
    public let host: AppletHost

    public init() {
        host = try! AppletHost(tabs: [
            Tab("Bench", split: .horizontal, [
                PaneApplet(id: "status", StatusPane()), PaneApplet(id: "big", ListPane(rows: 1_000_000)),
                PaneApplet(id: "text", TextPane()), PaneApplet(id: "small", ListPane(rows: 1_000)),
            ]),
        ], terminal: terminal)
        try! host.start()
    }

    /// Evaluates, lays out and draws every pane again, and diffs the frame.
    public func fullFrame() {
        host.redrawAll()
        host.renderIfNeeded()
    }
}

/// Any view as a pane.
struct PaneApplet<Content: View>: Applet {
    let id: String
    var title: String { id }
    let content: Content
    init(id: String, _ content: Content) { self.id = id; self.content = content }
    public var body: some View { content }
}

/// A table of `rows` rows (the provider form: only visible rows are asked for).
public struct TablePane: View {
    public let rows: Int
    public init(rows: Int) { self.rows = rows }
    @AppState(\.uiSelection) var selection
    @AppState(\.uiSort) var sort
    public var body: some View {
        Table(columns: [TableColumn("#", width: .fixed(8), alignment: .trailing), TableColumn("Name"), TableColumn("Size", width: .fixed(8))],
              count: rows, selection: $selection, sort: $sort) { row, column in
            column == 0 ? "\(row)" : column == 1 ? (row % 7 == 0 ? "東京 🚀 \(row)" : "item \(row)") : "\(row % 4096) KB"
        }
    }
}

