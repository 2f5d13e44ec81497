import AppletKit
import Dispatch

// A small app for the reliability suite (Demo/Tests/EndToEndTests): things the demo should not
// offer a user, such as a key that crashes, next to a counter kept across restarts.

struct FixtureState: Codable, Equatable, Sendable {
    var count = 0
    /// Filled by `b`: a burst of saves, for the kill -9 check.
    var burst: [Int] = []
}

extension Application {
    var fixture: StoredState<FixtureState> { storedState(initial: FixtureState(), feature: "Fixture", id: "state") }
    var fixtureEscapes: State<Int> { state(initial: 0, feature: "Fixture", id: "escapes") }
    var fixtureWork: State<String> { state(initial: "idle", feature: "Fixture", id: "work") }
}

struct FixtureApplet: Applet {
    let id = "fixture"
    let title = "Fixture"
    @StoredState(\.fixture) private var state
    @AppState(\.fixtureEscapes) private var escapes
    @AppState(\.fixtureWork) private var work

    var body: some View {
        VStack(spacing: 1) {
            Text("Count: \(state.count)")
            Text("Escapes: \(escapes)")
            Text("Burst: \(state.burst.count)")
            Text("Work: \(work)")
            Text("+ counts, Esc counts escapes, b saves a burst, w works off the main actor, ! crashes").dim()
        }
        .padding(1)
        .onKeyPress("esc") { escapes += 1; return .handled }
    }

    var commands: [Command] {
        let state = $state
        return [
            Command("+", "Count") { state.wrappedValue.count += 1 },
            Command("b", "Burst") {
                // 2,000 saves in a row, each written to disk at once (not coalesced), so that a
                // kill -9 lands in the middle of writing.
                for i in 0..<2_000 {
                    state.wrappedValue.burst.append(i)
                    Application.current.flush()
                }
            },
            Command("w", "Work") {
                Application.state(\.fixtureWork).value = "running"
                Task.detached { await Self.workOffTheMainActor() }
            },
            Command("!", "Crash") {
                let empty: [Int] = []
                _ = empty[empty.count + 1]   // a Swift runtime trap: index out of range
            },
        ]
    }
}

extension FixtureApplet {
    /// Work of the kinds the global executor runs, for the pool's end-to-end test: jobs that
    /// block until a later job releases them (more than the pool's core threads, so it must grow),
    /// a task group of a thousand children, and a sleep. Reports the sum, the pool's jobs, and its
    /// threads while the blocked jobs waited.
    nonisolated static func workOffTheMainActor() async {
        let blocked = GlobalExecutorPool.defaultCore + 2
        let release = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        for _ in 0..<blocked {
            Task.detached {
                release.wait()
                released.signal()
            }
        }
        // Runs only on a thread beyond the blocked ones: how many there are then.
        let releaser = Task.detached {
            let threads = GlobalExecutorPool.threads
            for _ in 0..<blocked { release.signal() }
            return threads
        }
        for _ in 0..<blocked { released.wait() }
        let threadsWhileBlocked = await releaser.value
        let sum = await withTaskGroup(of: Int.self) { group in
            for i in 1...1_000 { group.addTask { i } }
            return await group.reduce(0, +)
        }
        try? await MainQueueClock().sleep(for: .milliseconds(20))
        let report = "done sum=\(sum) jobs=\(GlobalExecutorPool.jobsRun) threads=\(threadsWhileBlocked)"
        await MainActor.run { Application.state(\.fixtureWork).value = report }
    }
}

@main
struct ReliabilityFixture: AppletApp {
    static let id = "appletkit-fixture"
    static let version = AppletKitVersion.current
    static let abstract = "A test fixture for AppletKit's reliability suite (a counter, and a key that crashes)."
    var tabs: [Tab] { [Tab(FixtureApplet())] }
}
