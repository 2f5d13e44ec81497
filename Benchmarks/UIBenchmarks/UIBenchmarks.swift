import AppletKit
import AppletState
import AppletUI
import Benchmark
import Terminal

// Frame costs (issue 4 budgets): a full frame of a 200x60 screen with 4 panes of mixed widgets
// (evaluate + layout + draw + diff) <= 1 ms; a one-cell change <= 50 us; scrolling a
// 1,000,000-row List by one row independent of the row count.

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

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock],
        timeUnits: .microseconds,
        warmupIterations: 5,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )

    Benchmark("Full frame 200x60, 4 panes in the host (evaluate + layout + draw + diff)") { benchmark async in
        // Benchmarks run on a worker thread; views are main-actor isolated, so the loop hops there.
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            let screen = Screen()
            for _ in benchmark.scaledIterations {
                screen.fullFrame()
            }
            blackHole(screen.terminal.frameCount)
        }
    }

    Benchmark("One-cell change (the counter): its pane evaluated, the frame diffed") { benchmark async in
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            let screen = Screen()
            var wrong: [Int] = []
            // The harness may run this closure more than once: continue from the stored value.
            var n = Application.state(\.uiCounter).value
            for _ in benchmark.scaledIterations {
                n = (n + 1) % 9                  // one digit: one cell
                Application.state(\.uiCounter).value = n
                // The store's observer hops to the main queue to ask for a frame; this loop holds the
                // main actor, so it asks directly. What the frame then does is the host's own work.
                screen.host.setNeedsDisplay()
                screen.host.renderIfNeeded()
                if screen.terminal.lastWriteCount != 1 { wrong.append(screen.terminal.lastWriteCount) }
            }
            if !wrong.isEmpty { benchmark.error("expected one changed cell per frame; frames wrote \(wrong.prefix(10))") }
        }
    }

    Benchmark("Status pane alone (evaluate + layout + draw)") { benchmark async in
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            let tree = ViewTree()
            var canvas = Canvas(size: Size(width: 50, height: 60))
            for _ in benchmark.scaledIterations {
                tree.render(StatusPane(), in: canvas.bounds, on: &canvas)
                blackHole(canvas)
            }
        }
    }

    for rows in [1_000, 1_000_000] {
        Benchmark("Scroll a \(rows)-row List by one row") { benchmark async in
            nonisolated(unsafe) let benchmark = benchmark
            await MainActor.run {
                let tree = ViewTree()
                let size = Size(width: 100, height: 50)
                var previous = Canvas(size: size)
                var row = 0
                for _ in benchmark.scaledIterations {
                    row = (row + 1) % (rows - 1)
                    Application.state(\.uiSelection).value = row
                    var canvas = Canvas(size: size)
                    tree.render(ListPane(rows: rows), in: canvas.bounds, on: &canvas)
                    blackHole(canvas.changes(since: previous))
                    previous = canvas
                }
            }
        }
    }
}
