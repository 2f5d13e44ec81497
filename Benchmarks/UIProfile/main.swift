import AppletKit
import AppletState
import AppletUI
import Terminal

// A plain timing loop over the same screens as UIBenchmarks (no harness), for profiling with
// `perf record` and to cross-check the harness's figures: swift run -c release UIProfile [full|cell|scroll] [iterations]

extension Application {
    var uiCounter: State<Int> { state(initial: 0, feature: "UIBench", id: "counter") }
    var uiSelection: State<Int> { state(initial: 500_000, feature: "UIBench", id: "selection") }
}

struct StatusPane: View {
    @AppState(\.uiCounter) var counter
    var body: some View {
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

struct ListPane: View {
    let rows: Int
    @AppState(\.uiSelection) var selection
    var body: some View {
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

struct TextPane: View {
    var body: some View {
        VStack {
            Text("Notes").bold().underline()
            ForEach(0..<40) { i in Text("line \(i): the quick brown fox jumps over the lazy dog 中文 \(i)") }
        }
    }
}

/// Four panes side by side on a 200x60 headless screen, in the real host (tab bar, footer,
/// per-pane observation, the terminal's diff).
@MainActor
final class Screen {
    let terminal = HeadlessTerminal(width: 200, height: 60)
    let host: AppletHost

    init() {
        host = try! AppletHost(tabs: [
            Tab("Bench", split: .horizontal, [
                PaneApplet(id: "status", StatusPane()), PaneApplet(id: "big", ListPane(rows: 1_000_000)),
                PaneApplet(id: "text", TextPane()), PaneApplet(id: "small", ListPane(rows: 1_000)),
            ]),
        ], terminal: terminal)
        try! host.start()
    }

    /// Evaluates, lays out and draws every pane again, and diffs the frame.
    func fullFrame() {
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
    var body: some View { content }
}


@MainActor
func measure(_ name: String, iterations: Int, _ body: () -> Void) {
    for _ in 0..<min(50, iterations) { body() }
    let clock = ContinuousClock()
    var samples: [Duration] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = clock.now
        body()
        samples.append(clock.now - start)
    }
    samples.sort()
    func us(_ d: Duration) -> String { String(format: "%.1f", Double(d.components.attoseconds) / 1e12 + Double(d.components.seconds) * 1e6) }
    print("\(name): p50 \(us(samples[samples.count / 2])) us, p90 \(us(samples[samples.count * 9 / 10])) us, n=\(iterations)")
}

@MainActor
func run() {
    let args = CommandLine.arguments
    let which = args.count > 1 ? args[1] : "all"
    let iterations = args.count > 2 ? Int(args[2]) ?? 2000 : 2000
    if which == "all" || which == "full" {
        let screen = Screen()
        measure("full frame 200x60, 4 panes", iterations: iterations) { screen.fullFrame() }
    }
    if which == "all" || which == "cell" {
        let screen = Screen()
        var n = 0
        var bytes = 0
        measure("one-cell change", iterations: iterations) {
            n = (n + 1) % 9
            Application.state(\.uiCounter).value = n
            screen.host.setNeedsDisplay()
            screen.host.renderIfNeeded()
            bytes = max(bytes, screen.terminal.lastWriteCount)
        }
        print("  cells written per change (max): \(bytes)")
    }
    if which == "all" || which == "scroll" {
        let tree = ViewTree()
        let size = Size(width: 100, height: 50)
        var previous = Canvas(size: size)
        var row = 0
        measure("scroll 1,000,000-row list by one row", iterations: iterations) {
            row = (row + 1) % 999_999
            Application.state(\.uiSelection).value = row
            var canvas = Canvas(size: size)
            tree.render(ListPane(rows: 1_000_000), in: canvas.bounds, on: &canvas)
            _ = canvas.changes(since: previous)
            previous = canvas
        }
    }
}

MainActor.assumeIsolated { run() }
