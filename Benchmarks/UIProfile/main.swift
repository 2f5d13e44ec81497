import AppletKit
import Foundation
import UIScreens

// A plain timing loop over the same screens as UIBenchmarks (no harness), for profiling with
// `perf record` and to cross-check the harness's figures: swift run -c release UIProfile [full|cell|scroll] [iterations]

/// Times `body` and `reference` alternately, `iterations` times each, and prints both medians and
/// the median of the per-pair ratios (a pair is timed back to back, so a busy machine slows both).
@MainActor
func measure(_ name: String, iterations: Int, reference: (name: String, body: () -> Void), _ body: () -> Void) {
    for _ in 0..<min(50, iterations) { body(); reference.body() }
    let clock = ContinuousClock()
    var subject: [Double] = [], base: [Double] = [], ratios: [Double] = []
    func us(_ d: Duration) -> Double { Double(d.components.attoseconds) / 1e12 + Double(d.components.seconds) * 1e6 }
    for _ in 0..<iterations {
        var start = clock.now
        reference.body()
        let r = us(clock.now - start)
        start = clock.now
        body()
        let s = us(clock.now - start)
        subject.append(s)
        base.append(r)
        if r > 0 { ratios.append(s / r) }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    func fixed(_ value: Double) -> String { String(format: "%.1f", value) }
    print("\(name): p50 \(fixed(median(subject))) us, p90 \(fixed(subject.sorted()[subject.count * 9 / 10])) us, n=\(iterations)")
    print("  reference: \(reference.name): p50 \(fixed(median(base))) us   ratio \(fixed(median(ratios)))x")
}

@MainActor
func run() {
    let args = CommandLine.arguments
    let which = args.count > 1 ? args[1] : "all"
    let iterations = args.count > 2 ? Int(args[2]) ?? 2000 : 2000
    if which == "all" || which == "full" {
        let screen = Screen()
        let reference = CanvasReference(size: Size(width: 200, height: 60))
        measure("full frame 200x60, 4 panes", iterations: iterations,
                reference: ("200x60 Canvas written row by row and diffed", { _ = reference.fullFrame() })) { screen.fullFrame() }
    }
    if which == "all" || which == "cell" {
        let screen = Screen()
        var n = 0
        var bytes = 0
        let reference = CanvasReference(size: Size(width: 200, height: 60))
        measure("one-cell change", iterations: iterations,
                reference: ("one cell put in a 200x60 Canvas and diffed", { _ = reference.oneCell() })) {
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
        let reference = CanvasReference(size: size)
        measure("scroll 1,000,000-row list by one row", iterations: iterations,
                reference: ("100x50 Canvas rewritten one row further and diffed", { _ = reference.scrolled() })) {
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
