import AppletKit
import UIScreens

// A plain timing loop over the same screens as UIBenchmarks (no harness), for profiling with
// `perf record` and to cross-check the harness's figures: swift run -c release UIProfile [full|cell|scroll] [iterations]

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
