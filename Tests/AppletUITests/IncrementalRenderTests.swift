import Foundation
import Synchronization
import Testing
@testable import AppletUI

extension Application {
    var paneA: State<Int> { state(initial: 0, feature: "Incremental", id: "a") }
    var paneB: State<Int> { state(initial: 0, feature: "Incremental", id: "b") }
}

final class Counter: Sendable {
    let value = Mutex(0)
    func withLock(_ body: (inout Int) -> Void) { value.withLock { body(&$0) } }
    var count: Int { value.withLock { $0 } }
}

/// Counts how often its body is evaluated.
struct CountingPane: View {
    let key: KeyPath<Application, Application.State<Int>>
    let evaluations: Counter
    var body: some View {
        evaluations.withLock { $0 += 1 }
        return VStack { Text("value \(Application.state(key).value)"); Button("press") {} }
    }
}

@Suite("Incremental rendering: only panes whose state changed are evaluated")
@MainActor
struct IncrementalRenderTests {
    @Test func unchangedPaneIsNotEvaluatedAgain() {
        withStore {
            let a = Counter(), b = Counter()
            let treeA = ViewTree(), treeB = ViewTree()
            var canvas = Canvas(size: Size(width: 20, height: 4))
            let rectA = Rect(x: 0, y: 0, width: 20, height: 2), rectB = Rect(x: 0, y: 2, width: 20, height: 2)
            let paneA = CountingPane(key: \.paneA, evaluations: a), paneB = CountingPane(key: \.paneB, evaluations: b)
            #expect(treeA.renderIfNeeded(paneA, in: rectA, on: &canvas))
            #expect(treeB.renderIfNeeded(paneB, in: rectB, on: &canvas))
            #expect(!treeA.renderIfNeeded(paneA, in: rectA, on: &canvas))
            #expect(!treeB.renderIfNeeded(paneB, in: rectB, on: &canvas))
            // A change to what pane A read: only pane A is evaluated, pane B's cells stay.
            Application.state(\.paneA).value = 7
            #expect(treeA.renderIfNeeded(paneA, in: rectA, on: &canvas))
            #expect(!treeB.renderIfNeeded(paneB, in: rectB, on: &canvas))
            #expect(canvas.lines == ["value 7", "[ press ]", "value 0", "[ press ]"])
            #expect(a.count == 2 && b.count == 1)
            // The same for a change made on another thread.
            let done = Atomic(false)
            let stateB = Application.state(\.paneB)
            Thread.detachNewThread { stateB.value = 3; done.store(true, ordering: .releasing) }
            while !done.load(ordering: .acquiring) {}
            #expect(!treeA.renderIfNeeded(paneA, in: rectA, on: &canvas))
            #expect(treeB.renderIfNeeded(paneB, in: rectB, on: &canvas))
            #expect(canvas.line(2) == "value 3")
        }
    }

    @Test func keptCellsArePutBackOnlyWhileNothingTheTreeDrewFromChanged() {
        withStore {
            let a = Counter()
            let tree = ViewTree()
            var canvas = Canvas(size: Size(width: 20, height: 2))
            let pane = CountingPane(key: \.paneA, evaluations: a)
            tree.renderIfNeeded(pane, in: canvas.bounds, on: &canvas)
            // Something else is drawn over its place (another tab), then it is shown again.
            tree.keepDrawnCells(from: canvas)
            canvas.fill(canvas.bounds)
            canvas.write("other tab", at: .zero)
            tree.restoreKeptCells()
            #expect(!tree.renderIfNeeded(pane, in: canvas.bounds, on: &canvas))
            #expect(canvas.lines == ["value 0", "[ press ]"])
            #expect(a.count == 1)
            // What it read changed while hidden: evaluated again, not the old cells.
            tree.keepDrawnCells(from: canvas)
            canvas.fill(canvas.bounds)
            Application.state(\.paneA).value = 4
            tree.restoreKeptCells()
            #expect(tree.renderIfNeeded(pane, in: canvas.bounds, on: &canvas))
            #expect(canvas.lines == ["value 4", "[ press ]"])
            #expect(a.count == 2)
            // Nothing kept (never asked to keep): asked to restore, it renders.
            canvas.fill(canvas.bounds)
            tree.restoreKeptCells()
            #expect(tree.renderIfNeeded(pane, in: canvas.bounds, on: &canvas))
            #expect(canvas.lines == ["value 4", "[ press ]"])
            // Kept for one rectangle, shown in another: rendered there.
            tree.keepDrawnCells(from: canvas)
            canvas.fill(canvas.bounds)
            tree.restoreKeptCells()
            let lower = Rect(x: 0, y: 0, width: 10, height: 2)
            #expect(tree.renderIfNeeded(pane, in: lower, on: &canvas))
            #expect(canvas.line(0) == "value 4")
        }
    }

    @Test func inputPlaceActivityAndThemeRedraw() {
        withStore {
            let count = Counter()
            let tree = ViewTree()
            let pane = CountingPane(key: \.paneA, evaluations: count)
            var canvas = Canvas(size: Size(width: 20, height: 4))
            let rect = Rect(x: 0, y: 0, width: 20, height: 2)
            tree.renderIfNeeded(pane, in: rect, on: &canvas)
            // A key the focused widget took (its own state may have changed).
            #expect(tree.handleKey(KeyEvent(.enter)))
            #expect(tree.renderIfNeeded(pane, in: rect, on: &canvas))
            // A key nobody took changes nothing.
            #expect(!tree.handleKey(KeyEvent(.char("x"))))
            #expect(!tree.renderIfNeeded(pane, in: rect, on: &canvas))
            // Focus shown or not, a new place, a new theme.
            #expect(tree.renderIfNeeded(pane, in: rect, on: &canvas, isActive: false))
            #expect(tree.renderIfNeeded(pane, in: Rect(x: 0, y: 1, width: 20, height: 2), on: &canvas, isActive: false))
            #expect(canvas.lines.suffix(3) == ["value 0", "[ press ]", ""])
            tree.theme = Theme.light.resolved(for: .basic16)
            #expect(tree.renderIfNeeded(pane, in: Rect(x: 0, y: 1, width: 20, height: 2), on: &canvas, isActive: false))
            #expect(count.count == 5)
        }
    }

    @Test func invalidationCallsBackOnce() {
        let tree = ViewTree()
        let calls = Mutex(0)
        tree.onInvalidate = { calls.withLock { $0 += 1 } }
        var canvas = Canvas(size: Size(width: 10, height: 1))
        tree.renderIfNeeded(Text("x"), in: canvas.bounds, on: &canvas)
        tree.invalidate()
        tree.invalidate()
        #expect(calls.withLock { $0 } == 1)
        #expect(tree.renderIfNeeded(Text("x"), in: canvas.bounds, on: &canvas))
    }
}
