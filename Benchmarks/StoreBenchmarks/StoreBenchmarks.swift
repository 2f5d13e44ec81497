import AppletState
import BenchSupport
import Benchmark
import Foundation
import Observation
import Synchronization

// The store's costs, as an app pays them: this module depends on the `AppletState` product and
// declares its keys in an `extension Application`, as users do, so every call below crosses the
// module boundary the way theirs does. Each figure is printed beside an uncontended `Mutex<Int>`
// timed in the same process (see Comparison): a read (`withLock { $0 }`) beside the gets, a write
// (`withLock { $0 = i }`) beside the sets, so that a reader can tell a regression from a slower
// machine.
//
// Budgets (issue 10): through `Application.state(\.key).value`, a get <= 2.5x the mutex read and
// a set <= 8x the mutex write; a get stays within the same budget with 1,000 and 10,000 keys in
// the store (the lookup does not grow with the store). The other figures are shown beside the
// same references without a budget.
//
// Measured (Linux x86_64, 2 cores, Swift 6.3.1, release build, load 1 to 2, mutex read 22-24 ns,
// write 19-20 ns; two runs): before the fast paths, a get 3.4-4.8x (64-95 ns) and a set 14.5-14.9x
// (215-264 ns); then a get 2.0-2.2x (47-52 ns), 2.2-2.3x with 1,000 keys, 2.3-2.8x with 10,000,
// and a set 9.3-9.5x (182-185 ns); now (four runs) a get 2.1-2.7x, 2.3x with 1,000 keys,
// 2.0-2.9x with 10,000 (the same code moves by +-15% between runs: one run in two prints a get
// over), and a set 4.3-4.5x. The fast paths: `Application.state` and `State.value` are inlined
// into the client and specialized (the cache lookup is one non-generic call returning the box
// retained), an `Int`-sized plain value is read from an atomic word without the lock, and a set
// tells Observation's registrar only when someone observes the value (`ObservedKeyPath`: the
// registrar's willSet and didSet, a lock each, were half of a set). What is left of a get: the
// key path literal (the runtime hands it out retained: ~20 ns with its release), the lookup, the
// box's retain and release, Observation's check for a tracking scope. Of a set: the same key
// path and lookup, the value's lock, the change count, and a look at the key path's reference
// count.

extension Application {
    var benchCounter: State<Int> { state(initial: 0, feature: "Bench", id: "counter") }
    /// Read once by a tracking scope (as a view reads what it shows): its changes tell Observation.
    var benchObserved: State<Int> { state(initial: 0, feature: "Bench", id: "observed") }
    /// Many distinct keys, each with its own key path object (subscript key paths are not uniqued).
    subscript(benchKey index: Int) -> State<Int> { state(initial: index, feature: "Bench", id: "key\(index)") }
}

extension Application {
    var benchStored: StoredState<Int> { storedState(initial: 0, feature: "Bench", id: "stored") }
}

struct WrapperHolder {
    @AppState(\.benchCounter) var counter
}

/// `count` distinct keys, declared and read once per process (the first time a benchmark asks), so
/// that the store and its key path cache hold them. Once, not once per sample: subscript key paths
/// are not uniqued, and the cache takes at most 8 key path objects per box, so a fresh set per
/// sample would leave later samples uncached (as an app that built a key path per access would).
func populate(_ count: Int) -> [KeyPath<Application, Application.State<Int>>] {
    populations.withLock { populations in
        if let made = populations[count] { return made.keyPaths }
        let keyPaths = (0..<count).map { \Application.[benchKey: $0] }
        for keyPath in keyPaths { blackHole(Application.state(keyPath).value) }
        populations[count] = Population(keyPaths: keyPaths)
        return keyPaths
    }
}

/// Key paths to subscripts with captured `Int`s: immutable once made.
struct Population: @unchecked Sendable {
    let keyPaths: [KeyPath<Application, Application.State<Int>>]
}

let populations = Mutex<[Int: Population]>([:])

// MARK: - The references

/// The reference every figure is shown beside: an uncontended `Mutex<Int>`, as a program that
/// keeps one value behind a lock would.
let referenceMutex = Mutex<Int>(0)

enum MutexReference {
    /// `withLock { $0 }`, beside the gets.
    case read
    /// `withLock { $0 = i }`, beside the sets.
    case write

    var name: String {
        switch self {
        case .read: "Mutex<Int> read (withLock { $0 })"
        case .write: "Mutex<Int> write (withLock { $0 = i })"
        }
    }

    /// Times `operations` reads or writes of the reference mutex.
    func measure(_ operations: Int) -> Duration {
        switch self {
        case .read: time { for _ in 0..<operations { blackHole(referenceMutex.withLock { $0 }) } }
        case .write: time { for i in 0..<operations { referenceMutex.withLock { $0 = i } } }
        }
    }
}

/// A store benchmark whose figure is printed beside a mutex read or write (`reference`) timed in
/// the same sample, with `budget` on the ratio if given.
///
/// `subject` sets up, then times its loop of `benchmark.scaledIterations` operations between
/// `startMeasurement()` and `stopMeasurement()` and returns that time (nil after
/// `benchmark.error`). The reference runs `referenceScale` times as many operations, so that both
/// sides of a sample take about as long (see Comparison.record).
func storeBenchmark(_ name: String, against reference: MutexReference, budget: Double?, referenceScale: Int,
                    configuration: Benchmark.Configuration = Benchmark.defaultConfiguration,
                    warmup: Int, subject: @escaping @Sendable (Benchmark) -> Duration?) {
    let comparison = Comparison(subject: name, references: [.init(name: reference.name, budget: budget)],
                                unit: .nanoseconds, warmup: warmup)
    Benchmark(name, configuration: configuration) { benchmark in
        let runs = benchmark.scaledIterations.count, referenceRuns = runs * referenceScale
        let referenceTime = reference.measure(referenceRuns)
        guard let subjectTime = subject(benchmark) else { return }
        comparison.record(iteration: benchmark.currentIteration, subject: (subjectTime, runs),
                          references: [(referenceTime, referenceRuns)])
    } teardown: {
        try comparison.report()
    }
}

/// Times `body` as the harness's measurement and as the subject's time.
@inline(__always)
func measured(_ benchmark: Benchmark, _ body: () -> Void) -> Duration {
    benchmark.startMeasurement()
    let elapsed = time(body)
    benchmark.stopMeasurement()
    return elapsed
}

let benchmarks: @Sendable () -> Void = {
    let warmup = 3
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: warmup,
        scalingFactor: .mega,
        maxDuration: .seconds(3),
        maxIterations: 30
    )

    // MARK: Through Application.state(\.key).value, as the docs show it

    storeBenchmark("State get via Application.state(\\.key).value", against: .read, budget: 2.5,
                   referenceScale: 2, warmup: warmup) { benchmark in
        measured(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(Application.state(\.benchCounter).value) }
        }
    }
    storeBenchmark("State set via Application.state(\\.key).value", against: .write, budget: 8.0,
                   referenceScale: 4, warmup: warmup) { benchmark in
        let elapsed = measured(benchmark) {
            for i in benchmark.scaledIterations { Application.state(\.benchCounter).value = i }
        }
        let last = benchmark.scaledIterations.last ?? 0
        guard Application.state(\.benchCounter).value == last else {
            benchmark.error("the set did not stick: \(Application.state(\.benchCounter).value), expected \(last)")
            return nil
        }
        return elapsed
    }
    storeBenchmark("State set via Application.state(\\.key).value, of state a view has read", against: .write,
                   budget: nil, referenceScale: 6, warmup: warmup) { benchmark in
        // A view that read it once registered with its registrar and is told of the first set;
        // from then on nobody observes it, and a set skips the registrar (`ObservedKeyPath`).
        withObservationTracking { blackHole(Application.state(\.benchObserved).value) } onChange: {}
        return measured(benchmark) {
            for i in benchmark.scaledIterations { Application.state(\.benchObserved).value = i }
        }
    }
    for count in [1_000, 10_000] {
        storeBenchmark("State get with \(count) keys in the store", against: .read, budget: 2.5,
                       referenceScale: 2, warmup: warmup) { benchmark in
            let keyPaths = populate(count)   // outside the measurement
            defer { blackHole(keyPaths) }
            return measured(benchmark) {
                for _ in benchmark.scaledIterations { blackHole(Application.state(\.benchCounter).value) }
            }
        }
        storeBenchmark("State get of a random one of \(count) keys", against: .read, budget: nil,
                       referenceScale: 4, warmup: warmup) { benchmark in
            let keyPaths = populate(count)
            var index = 0
            return measured(benchmark) {
                for _ in benchmark.scaledIterations {
                    index = (index &* 1_103_515_245 &+ 12_345) & 0x7FFF_FFFF
                    blackHole(Application.state(keyPaths[index % count]).value)
                }
            }
        }
    }

    // MARK: Other ways in

    storeBenchmark("State get via @AppState", against: .read, budget: nil, referenceScale: 2, warmup: warmup) { benchmark in
        let holder = WrapperHolder()
        return measured(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(holder.counter) }
        }
    }
    storeBenchmark("State set via @AppState", against: .write, budget: nil, referenceScale: 4, warmup: warmup) { benchmark in
        let holder = WrapperHolder()
        return measured(benchmark) {
            for i in benchmark.scaledIterations { holder.counter = i }
        }
    }
    storeBenchmark("State get on a held handle", against: .read, budget: nil, referenceScale: 1, warmup: warmup) { benchmark in
        let handle = Application.state(\.benchCounter)
        return measured(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(handle.value) }
        }
    }
    storeBenchmark("StoredState set via Application.state(\\.key).value, amortised with its writes",
                   against: .write, budget: nil, referenceScale: 8, warmup: warmup) { benchmark in
        // Sets are coalesced into one atomic file write ~100 ms later; the flush at the end makes
        // sure the run pays for every write it caused.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let app = Application()
        app.storage = StorageConfiguration(appID: "bench", directory: folder)
        return Application.withCurrent(app) {
            _ = Application.state(\.benchStored).value
            return measured(benchmark) {
                for i in benchmark.scaledIterations { Application.state(\.benchStored).value = i }
                app.flush()
            }
        }
    }

    // MARK: With listeners

    storeBenchmark("State set with 1,000 change subscribers", against: .write, budget: nil, referenceScale: 4_000,
                   configuration: .init(scalingFactor: .kilo), warmup: warmup) { benchmark in
        let handle = Application.state(\.benchCounter)
        let streams = (0..<1_000).map { _ in handle.changes }
        defer { blackHole(streams) }
        return measured(benchmark) {
            for i in benchmark.scaledIterations { handle.value = i }
        }
    }
    storeBenchmark("State set notifying 1,000 observing views (with their re-registration)", against: .write,
                   budget: nil, referenceScale: 20_000, configuration: .init(scalingFactor: .one), warmup: warmup) { benchmark in
        // What a host pays per change when 1,000 views read the value: each set fires every
        // view's observation once, and each view registers again when it redraws.
        let app = Application()
        let handle = app.benchCounter
        return measured(benchmark) {
            for i in benchmark.scaledIterations {
                for _ in 0..<1_000 { withObservationTracking { blackHole(handle.value) } onChange: {} }
                handle.value = i
            }
        }
    }
}
