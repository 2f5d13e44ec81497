import AppletKit
import UIScreens
import Benchmark

// Frame costs (issue 4 budgets): a full frame of a 200x60 screen with 4 panes of mixed widgets
// (evaluate + layout + draw + diff) <= 1 ms; a one-cell change <= 50 us; scrolling a
// 1,000,000-row List by one row independent of the row count.

/// Moves a list's or table's selection one row per iteration on a 100x50 screen, diffing each
/// frame against the last: the cost must not depend on the row count.
@MainActor
func scroll<V: View>(_ benchmark: Benchmark, rows: Int, _ view: () -> V) {
    let tree = ViewTree()
    let size = Size(width: 100, height: 50)
    var previous = Canvas(size: size)
    var row = 0
    Application.state(\.uiSelection).value = 0
    tree.render(view(), in: previous.bounds, on: &previous)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        row = (row + 1) % (rows - 1)
        Application.state(\.uiSelection).value = row
        var canvas = Canvas(size: size)
        tree.render(view(), in: canvas.bounds, on: &canvas)
        blackHole(canvas.changes(since: previous))
        previous = canvas
    }
}

let benchmarks: @Sendable () -> Void = {
    // Each sample runs 1,000 frames (`scalingFactor: .kilo`) and the figures are per frame: the
    // loops hop onto the main actor once per sample, and that hop (tens of microseconds) must not
    // be counted as part of a frame. Malloc counting is off: its interposer slows every frame.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(8),
        maxIterations: 200
    )

    Benchmark("Full frame 200x60, 4 panes in the host (evaluate + layout + draw + diff)") { benchmark async in
        // Benchmarks run on a worker thread; views are main-actor isolated, so the loop hops there.
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            let screen = Screen()
            // The harness runs this closure once per sample: setting up the host is not the frame.
            benchmark.startMeasurement()
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
            benchmark.startMeasurement()
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
            tree.render(StatusPane(), in: canvas.bounds, on: &canvas)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                tree.render(StatusPane(), in: canvas.bounds, on: &canvas)
                blackHole(canvas)
            }
        }
    }

    for rows in [1_000, 1_000_000] {
        Benchmark("Scroll a \(rows)-row List by one row") { benchmark async in
            nonisolated(unsafe) let benchmark = benchmark
            await MainActor.run { scroll(benchmark, rows: rows) { ListPane(rows: rows) } }
        }
        Benchmark("Scroll a \(rows)-row Table by one row") { benchmark async in
            nonisolated(unsafe) let benchmark = benchmark
            await MainActor.run { scroll(benchmark, rows: rows) { TablePane(rows: rows) } }
        }
    }
}
