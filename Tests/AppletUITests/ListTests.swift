import Synchronization
import Testing
@testable import AppletUI

/// A selection held outside the list, as the store would hold it.
final class SelectionBox: Sendable {
    let value = Mutex(0)
    var binding: Binding<Int> { Binding(get: { self.value.withLock { $0 } }, set: { v in self.value.withLock { $0 = v } }) }
}

@Suite("List")
@MainActor
struct ListTests {
    @Test func selectionStaysVisibleWhileScrolling() {
        let tree = ViewTree()
        let selection = SelectionBox()
        let list = List(count: 1_000_000, selection: selection.binding) { Text("row \($0)") }
        var canvas = render(list, width: 12, height: 5, tree: tree)
        #expect(canvas.lines == ["row 0", "row 1", "row 2", "row 3", "row 4"])
        for _ in 0..<7 { #expect(tree.handleKey(KeyEvent(.char("j")))) }
        canvas = render(list, width: 12, height: 5, tree: tree)
        #expect(selection.value.withLock { $0 } == 7)
        #expect(canvas.lines == ["row 3", "row 4", "row 5", "row 6", "row 7"])
        #expect(canvas[0, 4].style.attributes.contains(.reverse))
        #expect(canvas[11, 4].style.attributes.contains(.reverse))     // across the full width
        // Moving back up inside the window does not scroll.
        tree.handleKey(KeyEvent(.up))
        tree.handleKey(KeyEvent(.char("k")))
        canvas = render(list, width: 12, height: 5, tree: tree)
        #expect(canvas.line(0) == "row 3")
        #expect(canvas[0, 2].style.attributes.contains(.reverse))
        // Above the window: scrolls so the selection is the top row.
        for _ in 0..<3 { tree.handleKey(KeyEvent(.up)) }
        canvas = render(list, width: 12, height: 5, tree: tree)
        #expect(canvas.line(0) == "row 2")
    }

    @Test func pagesAndEnds() {
        let tree = ViewTree()
        let selection = SelectionBox()
        let list = List(count: 1_000_000, selection: selection.binding) { Text("row \($0)") }
        _ = render(list, width: 14, height: 4, tree: tree)
        tree.handleKey(KeyEvent(.pageDown))
        #expect(selection.value.withLock { $0 } == 4)
        tree.handleKey(KeyEvent(.end))
        let canvas = render(list, width: 14, height: 4, tree: tree)
        #expect(selection.value.withLock { $0 } == 999_999)
        #expect(canvas.lines.last == "row 999999")
        tree.handleKey(KeyEvent(.down))                              // clamped at the end
        #expect(selection.value.withLock { $0 } == 999_999)
        tree.handleKey(KeyEvent(.char("g")))
        #expect(selection.value.withLock { $0 } == 0)
        #expect(!tree.handleKey(KeyEvent(.char("x"))))
    }

    @Test func onlyVisibleRowsAreBuilt() {
        let tree = ViewTree()
        let selection = SelectionBox()
        selection.value.withLock { $0 = 500_000 }
        var built: [Int] = []
        let list = List(count: 1_000_000, selection: selection.binding) { row in
            built.append(row)
            return Text("row \(row)")
        }
        let canvas = render(list, width: 20, height: 10, tree: tree)
        #expect(built.count == 10)
        #expect(built.contains(500_000))
        #expect(canvas.lines.last == "row 500000")
    }

    @Test func wheelAndClickMoveTheSelection() {
        let tree = ViewTree()
        let selection = SelectionBox()
        let list = List(count: 100, selection: selection.binding) { Text("row \($0)") }
        _ = render(list, width: 10, height: 5, tree: tree)
        tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 1, y: 1)))
        #expect(selection.value.withLock { $0 } == 3)
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 1, y: 1)))
        #expect(selection.value.withLock { $0 } == 1)
    }

    @Test func emptyListDrawsNothingAndTakesNoKeys() {
        let tree = ViewTree()
        let canvas = render(List(count: 0, selection: .constant(0)) { Text("row \($0)") }, width: 10, height: 3, tree: tree)
        #expect(canvas.lines == ["", "", ""])
        #expect(!tree.handleKey(KeyEvent(.down)))
    }
}
