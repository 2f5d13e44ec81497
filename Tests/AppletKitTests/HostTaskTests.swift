import AppletKit
import AppletTesting
import Testing

/// What the tasks of the test applets did, by name, in order.
@MainActor
final class TaskLog {
    static let shared = TaskLog()
    private(set) var started: [String] = []
    private(set) var cancelled: [String] = []

    func reset() {
        started = []
        cancelled = []
    }

    /// A task body: records its start, waits until it is cancelled, records that.
    func run(_ name: String) async {
        started.append(name)
        // Sleeps until cancelled (a long sleep, never timed: cancellation ends it at once).
        try? await Task.sleep(for: .seconds(3_600))
        cancelled.append(name)
    }
}

enum TaskRoute: Hashable, Codable, Sendable { case page(Int) }

extension Application {
    var taskPath: State<RouterPath<TaskRoute, NoSheet>> { state(initial: RouterPath(), feature: "HostTests", id: "taskPath") }
}

/// A root with a task, and pages that each run a task keyed by their number.
struct TaskApplet: NavigationApplet {
    let id = "tasks"
    let title = "Tasks"
    @AppState(\.taskPath) private var path
    var navigation: Binding<RouterPath<TaskRoute, NoSheet>> { $path }

    var body: some View {
        Text("Root").task { await TaskLog.shared.run("root") }
    }

    func destination(for route: TaskRoute) -> some View {
        switch route {
        case .page(let n): Text("Page \(n)").task(id: n) { await TaskLog.shared.run("page \(n)") }
        }
    }

    var commands: [Command] {
        let path = $path
        return [
            Command("p", "Push") { path.wrappedValue.push(.page(path.wrappedValue.depth + 1)) },
            Command("r", "Replace") {
                if case .page(let n) = path.wrappedValue.top { path.wrappedValue.path[path.wrappedValue.depth - 1] = .page(n + 10) }
            },
        ]
    }
}

@Suite("Tasks in the host", .serialized)
@MainActor
struct HostTaskTests {
    /// Lets started tasks run until `condition` holds, for up to 10 s: a cancelled task wakes on
    /// the cooperative pool, which other tests (and builds) may keep busy for a while, so a
    /// number of main-actor turns is no bound.
    func until(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(), ContinuousClock.now < deadline {
            await Task.yield()
            if !condition() { try? await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(condition(), sourceLocation: sourceLocation)
    }

    @Test func aTaskStopsWhenItsTabIsHiddenAndStartsAgainWhenItComesBack() async throws {
        let log = TaskLog.shared
        log.reset()
        let h = try AppletTestHost(tabs: [Tab(TaskApplet()), Tab(TallyApplet())], initialTab: 0, width: 60, height: 10)
        await until { log.started == ["root"] }
        h.press("2")
        await until { log.cancelled == ["root"] }
        h.press("+")                                   // the other tab works on; nothing starts
        await until { log.started == ["root"] }
        h.press("1")
        await until { log.started == ["root", "root"] }
        #expect(log.cancelled == ["root"])
        // Quit and wait for the task to end, so that its cancellation cannot land in the next
        // test's log (it did, on a loaded machine, when the host was only dropped).
        h.host.quit()
        await until { log.cancelled == ["root", "root"] }
    }

    @Test func pushingAndPoppingStartAndCancelEachScreensTask() async throws {
        let log = TaskLog.shared
        log.reset()
        let h = try AppletTestHost(tabs: [Tab(TaskApplet())], initialTab: 0, width: 60, height: 10)
        await until { log.started == ["root"] }
        h.press("p")                                   // the root goes, page 1 comes
        await until { log.started == ["root", "page 1"] && log.cancelled == ["root"] }
        h.press("r")                                   // the same screen with another id: restarted
        await until { log.started == ["root", "page 1", "page 11"] && log.cancelled == ["root", "page 1"] }
        h.press("esc")                                 // back to the root
        await until { log.cancelled == ["root", "page 1", "page 11"] && log.started.last == "root" }
        #expect(log.started.count == 4)
        h.host.quit()                                  // quitting ends every task
        await until { log.cancelled.count == 4 }
    }
}

/// What a `.task` sees as the store and scope, written where the test reads it.
@MainActor private var seenInTask: (store: ObjectIdentifier?, scope: Scope?)?

private struct StoreReadingApplet: Applet {
    let id = "reader"
    let title = "Reader"
    var body: some View {
        Text("reader").task {
            try? await Task.sleep(for: .milliseconds(20))     // long after the frame's withCurrent ended
            seenInTask = (ObjectIdentifier(Application.current), Scope.current)
        }
    }
}

@Suite("A view's task runs in its pane's store and scope")
@MainActor
struct TaskStoreTests {
    @Test func aTaskSeesTheHostsStoreAndThePanesScopeAfterTheFrame() async throws {
        seenInTask = nil
        let h = try AppletTestHost(StoreReadingApplet())
        #expect(h.application !== Application.shared)
        for _ in 0..<200 where seenInTask == nil { try await Task.sleep(for: .milliseconds(5)) }
        let seen = try #require(seenInTask)
        #expect(seen.store == ObjectIdentifier(h.application), "not the shared store")
        #expect(seen.scope?.name == "reader")
    }
}
