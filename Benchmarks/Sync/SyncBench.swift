// `make bench-sync`: how long a SyncState change takes to reach another instance through
// PostgreSQL, beside the server's own round trips measured in the same run. See README.md here.
import AppletState
import AppletSync
import AppletSyncTesting
import Foundation
import Logging
import PostgresNIO
import Synchronization

extension Application {
    var benchValue: SyncState<Int> { syncState(initial: 0, feature: "Bench", id: "value") }
}

let changes = Int(ProcessInfo.processInfo.environment["SYNC_CHANGES"] ?? "") ?? 200
/// The budgets: propagation's p50 and p99 over the server's NOTIFY round trip's.
let budgetP50 = 20.0
let budgetP99 = 25.0

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func format(_ ms: Double) -> String { String(format: "%8.3f ms", ms) }

/// Waits until `condition` holds (polling every 50 µs: the measured side does not poll).
func waitUntil(timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        usleep(50)
    }
    return true
}

@main
struct SyncBench {
    static func main() async throws {
        print("sync-bench: starting a throwaway PostgreSQL (fsync on, as a server users run) ...")
        let cluster = try await PostgresTestCluster.start(fsync: true)
        defer { cluster.remove() }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("sync-bench-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: base) }

        // Two instances, as on two machines: a store each, a folder each, one database.
        func instance(_ name: String) throws -> Application {
            let application = Application()
            application.storage = StorageConfiguration(appID: "sync-bench", directory: "\(base)/\(name)")
            var quiet = Logger(label: "AppletSync")
            quiet.logLevel = .warning
            application.syncRemote = try PostgresSyncRemote(url: cluster.url, appID: "sync-bench", logger: quiet)
            return application
        }
        let a = try instance("a"), b = try instance("b")
        _ = a.benchValue.value
        let received = b.benchValue
        guard waitUntil({ a.syncStatus.value.label == "synced" && b.syncStatus.value.label == "synced" }) else {
            print("sync-bench: BENCHMARK FAILED: the instances did not connect (\(a.syncStatus.value), \(b.syncStatus.value))")
            exit(1)
        }
        // B hears each value through `changes`, as a view or a task would. Off the main actor,
        // which this loop keeps busy.
        let arrivals = Mutex<[Int: ContinuousClock.Instant]>([:])
        let stream = received.changes
        let heard = Task.detached {
            for await value in stream {
                let now = ContinuousClock.now
                arrivals.withLock { $0[value] = now }
            }
        }

        // The server's own round trips, on connections of the benchmark's own, taken in turn with
        // the changes so that both see the same machine: SELECT 1; a NOTIFY one connection sends
        // and another hears; a write through the same function the instances use (its commit
        // waits for the disk, as theirs do).
        let logger = Logger(label: "sync-bench")
        let configuration = PostgresConnection.Configuration(unixSocketPath: cluster.socketDirectory + "/.s.PGSQL.\(cluster.port)",
                                                             username: cluster.user, password: nil, database: cluster.database)
        let listener = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        let sender = try await PostgresConnection.connect(configuration: configuration, id: 2, logger: logger)
        var select: [Double] = [], notify: [Double] = [], write: [Double] = []
        var propagation: [Double] = [], sets: [Double] = []
        try await listener.listen(on: "bench_rtt") { notifications in
            var iterator = notifications.makeAsyncIterator()
            for i in 1...(changes + 10) {
                let warm = i > 10
                var start = ContinuousClock.now
                for try await _ in try await sender.query("SELECT 1", logger: logger).decode(Int.self) {}
                if warm { select.append(milliseconds(start.duration(to: .now))) }

                start = ContinuousClock.now
                try await sender.query("SELECT pg_notify('bench_rtt', 'x')", logger: logger)
                _ = try await iterator.next()
                if warm { notify.append(milliseconds(start.duration(to: .now))) }

                start = ContinuousClock.now
                try await sender.query("SELECT * FROM appletkit_sync_put('sync-bench-reference', 'Bench', 'value', \(String(i))::json, \(Int64(i - 1)), 'reference', 'bench')", logger: logger)
                if warm { write.append(milliseconds(start.duration(to: .now))) }

                start = ContinuousClock.now
                a.benchValue.value = i
                let set = ContinuousClock.now
                guard waitUntil({ arrivals.withLock { $0[i] != nil } }) else {
                    print("sync-bench: BENCHMARK FAILED: change \(i) never reached the other instance")
                    exit(1)
                }
                let arrived = arrivals.withLock { $0[i]! }
                if warm {
                    propagation.append(milliseconds(start.duration(to: arrived)))
                    sets.append(milliseconds(start.duration(to: set)))
                }
            }
        }
        heard.cancel()
        try await listener.close()
        try await sender.close()

        let p50 = percentile(propagation, 0.5), p99 = percentile(propagation, 0.99)
        let n50 = percentile(notify, 0.5), n99 = percentile(notify, 0.99)
        let over50 = p50 / n50 > budgetP50, over99 = p99 / n99 > budgetP99
        func row(_ name: String, _ values: [Double], _ note: String = "") -> String {
            name.padding(toLength: 44, withPad: " ", startingAt: 0) + format(percentile(values, 0.5)) + "  " + format(percentile(values, 0.99)) + note
        }
        func ratio(_ x: Double) -> String { String(format: "%.1fx", x) }
        print("""

            SyncState across machines: \(changes) changes, one instance to another through PostgreSQL \(try await cluster.sql("SHOW server_version"))
            (Unix socket, fsync on; each change waits for the last to arrive; references taken in turn with them)

            figure                                         p50          p99
            \(row("server: SELECT 1 round trip", select, "   (reference)"))
            \(row("server: NOTIFY round trip", notify, "   (reference)"))
            \(row("server: a write (appletkit_sync_put)", write, "   (reference)"))
            \(row("set on A (local copy written, returns)", sets))
            \(row("change: set on A → B's value has it", propagation))

            change / NOTIFY round trip   p50 \(ratio(p50 / n50)) (budget ≤ \(ratio(budgetP50))) \(over50 ? "OVER BUDGET" : "ok")   p99 \(ratio(p99 / n99)) (budget ≤ \(ratio(budgetP99))) \(over99 ? "OVER BUDGET" : "ok")
            change / SELECT 1            p50 \(ratio(p50 / percentile(select, 0.5)))   p99 \(ratio(p99 / percentile(select, 0.99)))
            change / a write             p50 \(ratio(p50 / percentile(write, 0.5)))   p99 \(ratio(p99 / percentile(write, 0.99)))
            """)
    }
}
