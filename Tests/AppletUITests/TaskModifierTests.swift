import Synchronization
import Testing
@testable import AppletUI

/// Opens once, from any thread; a task waiting on it resumes then (or at once if already open).
private final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isOpen = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}

/// Counts what the tasks of a view did: each task records its start, waits until it is
/// cancelled (no timer: a gate its cancellation handler opens), then records that it saw the
/// cancellation. Tasks run concurrently, so the order of one task's records against another's
/// is not asserted, only each list's own order.
@MainActor
private final class TaskProbe {
    /// Names of the tasks that started, in order.
    private(set) var started: [String] = []
    /// Names of the tasks that saw their cancellation, in order.
    private(set) var cancelled: [String] = []
    /// How many cancellation handlers had run when each task started.
    private(set) var handlerRunsAtStart: [String: Int] = [:]
    /// Cancellation handlers that ran (they run on the cancelling thread).
    let handlerRuns = Ref(0)

    var starts: Int { started.count }
    var cancels: Int { cancelled.count }

    func run(_ name: String) async {
        MainActor.assertIsolated()
        started.append(name)
        handlerRunsAtStart[name] = handlerRuns.value
        let gate = Gate()
        await withTaskCancellationHandler {
            await gate.wait()
        } onCancel: { [handlerRuns] in
            handlerRuns.storage.withLock { $0 += 1 }
            gate.open()
        }
        if Task.isCancelled { cancelled.append(name) }
    }

    /// A task that finishes on its own.
    private(set) var finished: [String] = []
    func runOnce(_ name: String) async {
        started.append(name)
        finished.append(name)
    }
}

/// Lets the main actor run what is queued on it until `condition` holds; false if it still does
/// not after `limit` turns. Never waits for a time.
@MainActor
private func eventually(_ limit: Int = 10_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<limit {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Lets queued work on the main actor run (to show that nothing more happens).
@MainActor
private func settle(_ turns: Int = 100) async {
    for _ in 0..<turns { await Task.yield() }
}

@MainActor
private func draw<V: View>(_ view: V, _ tree: ViewTree, width: Int = 20, height: Int = 6) {
    var canvas = Canvas(size: Size(width: width, height: height))
    tree.render(view, in: canvas.bounds, on: &canvas)
}

@Suite("Task modifier")
@MainActor
struct TaskModifierTests {
    @Test func startsAfterTheFirstRenderAndNotAgainForTheSameID() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        let view = Text("hello").task(id: 1) { await probe.run("1") }
        #expect(probe.starts == 0)
        draw(view, tree)
        #expect(await eventually { probe.starts == 1 })
        #expect(tree.taskCount == 1)
        // Frames with the same id leave the running task alone.
        draw(view, tree)
        draw(Text("changed text").task(id: 1) { await probe.run("other closure") }, tree)
        await settle()
        #expect(probe.started == ["1"] && probe.cancelled.isEmpty)
        #expect(probe.handlerRuns.value == 0)
    }

    @Test func aTaskWithoutAnIDStartsOnce() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        for _ in 0..<3 { draw(Text("x").task { await probe.run("plain") }, tree) }
        #expect(await eventually { probe.starts == 1 })
        await settle()
        #expect(probe.started == ["plain"])
    }

    @Test func changingTheIDCancelsTheTaskAndStartsANewOne() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        func view(_ id: Int) -> some View { Text("item").task(id: id) { await probe.run("\(id)") } }
        draw(view(1), tree)
        #expect(await eventually { probe.starts == 1 })
        draw(view(2), tree)
        #expect(await eventually { probe.cancels == 1 && probe.starts == 2 })
        #expect(probe.started == ["1", "2"])
        #expect(probe.cancelled == ["1"])
        #expect(probe.handlerRunsAtStart["2"] == 1)     // cancelled before the new one started
        #expect(probe.handlerRuns.value == 1)
        #expect(tree.taskCount == 1)
        // Back to an id seen before: still a change.
        draw(view(1), tree)
        #expect(await eventually { probe.cancels == 2 && probe.starts == 3 })
        #expect(probe.started == ["1", "2", "1"])
        #expect(probe.cancelled == ["1", "2"])
    }

    @Test func aViewRemovedByAConditionHasItsTaskCancelled() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        func view(_ show: Bool) -> some View {
            VStack {
                Text("title")
                if show { Text("detail").task { await probe.run("detail") } }
            }
        }
        draw(view(true), tree)
        #expect(await eventually { probe.starts == 1 })
        draw(view(false), tree)
        #expect(await eventually { probe.cancels == 1 })
        #expect(tree.taskCount == 0)
        draw(view(false), tree)
        await settle()
        #expect(probe.started == ["detail"] && probe.cancelled == ["detail"])
        // Shown again: a new task.
        draw(view(true), tree)
        #expect(await eventually { probe.starts == 2 })
        #expect(probe.cancels == 1)
    }

    @Test func anotherScreenInThePlaceOfTheFirstCancelsItsTask() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        func view(_ first: Bool) -> some View {
            VStack {
                if first {
                    Text("first screen").task { await probe.run("first") }
                } else {
                    Text("second screen").task { await probe.run("second") }
                }
            }
        }
        draw(view(true), tree)
        #expect(await eventually { probe.starts == 1 })
        draw(view(false), tree)
        #expect(await eventually { probe.started == ["first", "second"] && probe.cancelled == ["first"] })
        #expect(probe.handlerRunsAtStart["second"] == 1)
    }

    @Test func aForEachRowThatWentAwayHasItsTaskCancelled() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        func view(_ rows: [String]) -> some View {
            VStack { ForEach(rows, id: \.self) { row in Text(row).task { await probe.run(row) } } }
        }
        draw(view(["a", "b", "c"]), tree)
        #expect(await eventually { probe.starts == 3 })
        draw(view(["a", "c"]), tree)
        #expect(await eventually { probe.cancels == 1 })
        await settle()
        #expect(probe.started == ["a", "b", "c"])
        #expect(probe.cancelled == ["b"])
        // Reordering keeps the tasks: rows are known by their ids.
        draw(view(["c", "a"]), tree)
        await settle()
        #expect(probe.starts == 3 && probe.cancels == 1)
    }

    @Test func listRowsScrolledOutOfSightHaveTheirTasksCancelled() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        let selection = Ref(0)
        let list = List(count: 10, selection: selection.binding) { row in
            Text("row \(row)").task { await probe.run("\(row)") }
        }
        draw(list, tree, height: 3)
        #expect(await eventually { probe.starts == 3 })
        selection.value = 5          // rows 3 to 5 on screen now
        draw(list, tree, height: 3)
        #expect(await eventually { probe.cancels == 3 && probe.starts == 6 })
        #expect(Set(probe.cancelled) == ["0", "1", "2"])
        #expect(probe.started == ["0", "1", "2", "3", "4", "5"])
    }

    @Test func disappearCancelsEveryTaskAndTheNextRenderStartsThemAgain() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        let view = VStack {
            Text("a").task { await probe.run("a") }
            Text("b").task(id: "b") { await probe.run("b") }
        }
        draw(view, tree)
        #expect(await eventually { probe.starts == 2 })
        tree.disappear()
        #expect(tree.taskCount == 0)
        #expect(await eventually { probe.cancels == 2 })
        #expect(probe.handlerRuns.value == 2)
        // Shown again: `renderIfNeeded` evaluates the view although nothing it read changed.
        var canvas = Canvas(size: Size(width: 20, height: 4))
        #expect(tree.renderIfNeeded(view, in: canvas.bounds, on: &canvas))
        #expect(await eventually { probe.starts == 4 })
        #expect(probe.cancels == 2)
        #expect(!tree.renderIfNeeded(view, in: canvas.bounds, on: &canvas))
        await settle()
        #expect(probe.starts == 4)
    }

    @Test func twoTaskViewsInOneTreeAndTwoTasksOnOneViewRunSeparately() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        func view(_ id: Int) -> some View {
            VStack {
                Text("one").task(id: id) { await probe.run("one \(id)") }
                Text("two")
                    .task { await probe.run("two inner") }
                    .task(id: "fixed") { await probe.run("two outer") }
            }
        }
        draw(view(1), tree)
        #expect(await eventually { probe.starts == 3 })
        #expect(Set(probe.started) == ["one 1", "two inner", "two outer"])
        #expect(tree.taskCount == 3)
        // Only the task whose id changed restarts.
        draw(view(2), tree)
        #expect(await eventually { probe.starts == 4 })
        await settle()
        #expect(probe.started.last == "one 2")
        #expect(probe.cancelled == ["one 1"])
        #expect(probe.cancels == 1)
    }

    @Test func aFinishedTaskIsNotStartedAgainWhileItsViewStays() async {
        let probe = TaskProbe()
        let tree = ViewTree()
        let view = Text("x").task(id: 7) { await probe.runOnce("7") }
        draw(view, tree)
        #expect(await eventually { probe.finished == ["7"] })
        draw(view, tree)
        await settle()
        #expect(probe.started == ["7"])
    }

    @Test func freeingTheTreeCancelsItsTasks() async {
        let probe = TaskProbe()
        weak var weakTree: ViewTree?
        do {
            let tree = ViewTree()
            weakTree = tree
            draw(VStack { Text("a").task { await probe.run("a") }; Text("b").task { await probe.run("b") } }, tree)
            #expect(await eventually { probe.starts == 2 })
        }
        #expect(await eventually { weakTree == nil })
        #expect(await eventually { probe.cancels == 2 })
    }

    @Test func aTaskInsideADisabledViewStillRunsAndOneInAHiddenWidgetDoesNot() async throws {
        let probe = TaskProbe()
        let tree = ViewTree()
        let manager = WidgetManager("tasks", widgets: ["panel": .hidden])
        let view = VStack {
            Text("dim").task { await probe.run("disabled") }.disabled()
            Text("panel").task { await probe.run("hidden") }.widget("panel", in: manager)
        }
        draw(view, tree)
        #expect(await eventually { probe.starts == 1 })
        await settle()
        #expect(probe.started == ["disabled"])
        try manager.show("panel")
        draw(view, tree)
        #expect(await eventually { probe.starts == 2 })
        #expect(probe.started == ["disabled", "hidden"])
    }

    @Test func onlyTasksStillRunningAreActive() async throws {
        let probe = TaskProbe()
        let tree = ViewTree()
        let manager = WidgetManager("active", widgets: ["spinner": .visible])
        let view = VStack {
            Text("once").task { await probe.runOnce("once") }
            Text("spinner").task { await probe.run("loop") }.widget("spinner", in: manager)
        }
        draw(view, tree)
        #expect(await eventually { probe.finished == ["once"] && probe.starts == 2 })
        await settle()
        // The finished task is still the view's (it does not start again) but does not run.
        #expect(tree.taskCount == 2)
        #expect(tree.activeTaskCount == 1)
        // Hiding the widget stops what it ran: the screen is at rest.
        try manager.hide("spinner")
        draw(view, tree)
        #expect(await eventually { probe.cancelled == ["loop"] })
        #expect(tree.activeTaskCount == 0)
        // Shown again, it runs again; a tree no longer shown runs nothing.
        try manager.show("spinner")
        draw(view, tree)
        #expect(await eventually { probe.starts == 3 })
        #expect(tree.activeTaskCount == 1)
        tree.disappear()
        #expect(tree.activeTaskCount == 0)
    }
}
