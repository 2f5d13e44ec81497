import AppletState
import Foundation
import Benchmark
import Observation

// Store costs, per operation (each sample runs a million operations; figures are per operation).
// Budgets (issue 3): get <= 50 ns and set <= 200 ns through the key path with no observers,
// flat from 1 to 10,000 keys.

extension Application {
    var benchCounter: State<Int> { state(initial: 0, feature: "Bench", id: "counter") }
    /// Many distinct keys, each with its own key path object (subscript key paths are not uniqued).
    subscript(benchKey index: Int) -> State<Int> { state(initial: index, feature: "Bench", id: "key\(index)") }
}

extension Application {
    var benchStored: StoredState<Int> { storedState(initial: 0, feature: "Bench", id: "stored") }
}

struct WrapperHolder {
    @AppState(\.benchCounter) var counter
}

/// Declares `count` distinct keys and reads each once, so the store and its key path cache hold them.
func populate(_ count: Int) -> [KeyPath<Application, Application.State<Int>>] {
    let keyPaths = (0..<count).map { \Application.[benchKey: $0] }
    for keyPath in keyPaths { blackHole(Application.state(keyPath).value) }
    return keyPaths
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .mega,
        maxDuration: .seconds(2),
        maxIterations: 20
    )

    Benchmark("State get via Application.state(\\.key).value") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Application.state(\.benchCounter).value) }
    }
    Benchmark("State set via Application.state(\\.key).value") { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations { i &+= 1; Application.state(\.benchCounter).value = i }
    }
    Benchmark("State get via @AppState") { benchmark in
        let holder = WrapperHolder()
        for _ in benchmark.scaledIterations { blackHole(holder.counter) }
    }
    Benchmark("State set via @AppState") { benchmark in
        let holder = WrapperHolder()
        var i = 0
        for _ in benchmark.scaledIterations { i &+= 1; holder.counter = i }
    }
    Benchmark("StoredState set via Application.state(\\.key).value, amortised with its writes") { benchmark in
        // Sets are coalesced into one atomic file write ~100 ms later; the flush at the end makes
        // sure the run pays for every write it caused.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)").path
        let app = Application()
        app.storage = StorageConfiguration(appID: "bench", directory: folder)
        var i = 0
        Application.withCurrent(app) {
            _ = Application.state(\.benchStored).value
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { i &+= 1; Application.state(\.benchStored).value = i }
            app.flush()
            benchmark.stopMeasurement()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
    Benchmark("State get on a held handle") { benchmark in
        let handle = Application.state(\.benchCounter)
        for _ in benchmark.scaledIterations { blackHole(handle.value) }
    }
    Benchmark("State set with 1,000 change subscribers", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let handle = Application.state(\.benchCounter)
        let streams = (0..<1_000).map { _ in handle.changes }
        var i = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { i &+= 1; handle.value = i }
        blackHole(streams)
    }
    Benchmark("State set notifying 1,000 observing views (with their re-registration)", configuration: .init(scalingFactor: .one)) { benchmark in
        // What a host pays per change when 1,000 views read the value: each set fires every
        // view's observation once, and each view registers again when it redraws.
        let app = Application()
        let handle = app.benchCounter
        var i = 0
        for _ in benchmark.scaledIterations {
            for _ in 0..<1_000 { withObservationTracking { blackHole(handle.value) } onChange: {} }
            i &+= 1
            handle.value = i
        }
    }
    for count in [1_000, 10_000] {
        Benchmark("State get with \(count) keys in the store") { benchmark in
            let keyPaths = populate(count)
            benchmark.startMeasurement()   // the setup above is not part of the figure
            for _ in benchmark.scaledIterations { blackHole(Application.state(\.benchCounter).value) }
            blackHole(keyPaths)
        }
        Benchmark("State get of a random one of \(count) keys") { benchmark in
            let keyPaths = populate(count)
            var index = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                index = (index &* 1_103_515_245 &+ 12_345) & 0x7FFF_FFFF
                blackHole(Application.state(keyPaths[index % count]).value)
            }
        }
    }
}
