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

    @Test("A row lays out as HStack { row } would: several views side by side, one at its own width")
    func rowsLayOutLikeAnHStack() {
        let selection = SelectionBox()
        let several = List(count: 3, selection: selection.binding) { row in
            Text("#\(row)")
            Spacer()
            Text("end")
        }
        let single = List(count: 3, selection: selection.binding) { Text("r\($0)").padding(.leading, 2) }
        #expect(render(several, width: 12, height: 3, tree: ViewTree()).lines == ["#0       end", "#1       end", "#2       end"])
        #expect(render(single, width: 12, height: 3, tree: ViewTree()).lines == ["  r0", "  r1", "  r2"])
        // The selected row is reversed across the whole line either way.
        let canvas = render(several, width: 12, height: 3, tree: ViewTree())
        #expect(canvas[11, 0].style.attributes.contains(.reverse) && canvas[5, 0].style.attributes.contains(.reverse))
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

    // MARK: Events

    @Test func eventsForMovesAndEnter() {
        let tree = ViewTree()
        let selection = SelectionBox()
        var events: [ListEvent] = []
        let list = List(count: 100, selection: selection.binding) { Text("row \($0)") }
            .onEvent { (e: ListEvent) in events.append(e) }
        _ = render(list, width: 10, height: 5, tree: tree)
        tree.handleKey(KeyEvent(.down))
        tree.handleKey(KeyEvent(.up))
        tree.handleKey(KeyEvent(.up))                                // already at the top: no event
        #expect(tree.handleKey(KeyEvent(.enter)))
        tree.handleKey(KeyEvent(.end))
        tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 0, y: 0)))
        _ = render(list, width: 10, height: 5, tree: tree)
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0)))
        #expect(events == [.selected(1), .selected(0), .activated(0), .selected(99), .selected(96), .selected(92)])
        // Without multi-selection or search, Space, `/` and `n` are not the list's.
        #expect(!tree.handleKey(KeyEvent(.char(" "))))
        #expect(!tree.handleKey(KeyEvent(.char("/"))))
        #expect(!tree.handleKey(KeyEvent(.char("n"))))
        #expect(!tree.focusedWidgetTakesText)
    }

    @Test func disabledListTakesNoKeys() {
        let tree = ViewTree()
        let selection = SelectionBox()
        let canvas = render(List(count: 10, selection: selection.binding) { Text("row \($0)") }.disabled(), width: 10, height: 3, tree: tree)
        #expect(!tree.hasFocusableWidgets)
        #expect(!tree.handleKey(KeyEvent(.down)))
        #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 2))))
        #expect(selection.value.withLock { $0 } == 0)
        #expect(canvas.line(0) == "row 0")
        #expect(!canvas[0, 0].style.attributes.contains(.reverse))   // disabled: dim, not reversed
    }

    // MARK: Multi-selection

    @Test func spaceMarksRowsAndShiftArrowsExtend() {
        let tree = ViewTree()
        let selection = SelectionBox()
        let marked = MarkedRows()
        var events: [ListEvent] = []
        let list = List(count: 1_000_000, selection: selection.binding) { Text("row \($0)") }
            .multiSelection(marked.binding)
            .onEvent { (e: ListEvent) in events.append(e) }
        var canvas = render(list, width: 12, height: 5, tree: tree)
        #expect(canvas.lines == ["  row 0", "  row 1", "  row 2", "  row 3", "  row 4"])
        #expect(tree.handleKey(KeyEvent(.char(" "))))
        #expect(marked.rows == [0])
        tree.handleKey(KeyEvent(.down))
        tree.handleKey(KeyEvent(.down, modifiers: .shift))
        tree.handleKey(KeyEvent(.down, modifiers: .shift))
        #expect(marked.rows == [0, 1, 2, 3])
        #expect(selection.value.withLock { $0 } == 3)
        canvas = render(list, width: 12, height: 5, tree: tree)
        #expect(canvas.lines == ["✓ row 0", "✓ row 1", "✓ row 2", "✓ row 3", "  row 4"])
        #expect(events == [.toggled(0, true), .selected(1), .toggled(1, true), .toggled(2, true), .selected(2),
                           .toggled(3, true), .selected(3)])
        // The cursor row is reversed; the other marked rows have the selection colours, not reverse.
        #expect(canvas[0, 3].style.attributes.contains(.reverse))
        #expect(!canvas[0, 1].style.attributes.contains(.reverse))
        #expect(canvas[5, 1].style.background == ResolvedTheme.standard[.selection].background)
        #expect(canvas[5, 4].style == .plain)
        // Space again unmarks; shift-↑ marks going up.
        events.removeAll()
        tree.handleKey(KeyEvent(.char(" ")))
        #expect(marked.rows == [0, 1, 2])
        tree.handleKey(KeyEvent(.up, modifiers: .shift))
        #expect(events == [.toggled(3, false), .toggled(3, true), .selected(2)])
        #expect(marked.rows == [0, 1, 2, 3])
    }

    @Test func clickInTheMarkColumnMarks() {
        let tree = ViewTree()
        let selection = SelectionBox()
        let marked = MarkedRows()
        var events: [ListEvent] = []
        let list = List(count: 10, selection: selection.binding) { Text("row \($0)") }
            .multiSelection(marked.binding)
            .onEvent { (e: ListEvent) in events.append(e) }
        _ = render(list, width: 12, height: 5, tree: tree)
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 2)))
        #expect(marked.rows == [2])
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 5, y: 3)))   // on the text: moves only
        #expect(marked.rows == [2])
        #expect(selection.value.withLock { $0 } == 3)
        #expect(events == [.toggled(2, true), .selected(2), .selected(3)])
    }

    @Test func aMarkedRowUnderTheCursorLooksSelectedWithItsMark() {
        // Reversed over the marked colours, the cursor row was a bright white bar (white text
        // background, blue text): the loudest thing on screen. It looks as the cursor does on
        // any row, with its ✓.
        let tree = ViewTree()
        let selection = SelectionBox()
        let marked = MarkedRows()
        marked.storage.withLock { $0 = [0, 2] }
        let list = List(count: 4, selection: selection.binding) { Text("row \($0)") }.multiSelection(marked.binding)
        _ = render(list, width: 12, height: 4, tree: tree)
        #expect(tree.handleKey(KeyEvent(.down)))           // the list has focus; the cursor on row 1
        let unmarkedCursor = render(list, width: 12, height: 4, tree: tree)[5, 1].style
        tree.handleKey(KeyEvent(.down))                   // onto the marked row 2
        let canvas = render(list, width: 12, height: 4, tree: tree)
        #expect(canvas.lines == ["✓ row 0", "  row 1", "✓ row 2", "  row 3"])
        for x in [0, 2, 5, 11] {
            #expect(canvas[x, 2].style == unmarkedCursor, "column \(x) of the marked cursor row")
        }
        #expect(canvas[5, 2].style.attributes.contains(.reverse))
        #expect(canvas[5, 2].style.background != ResolvedTheme.standard[.selection].background)
        // The other marked row keeps the selection colours, not reversed.
        #expect(canvas[5, 0].style.background == ResolvedTheme.standard[.selection].background)
        #expect(!canvas[5, 0].style.attributes.contains(.reverse))
        // Without focus the cursor row is dimmed, marked or not.
        tree.resignFocus()
        let unfocused = render(list, width: 12, height: 4, tree: tree)
        #expect(unfocused[5, 2].style.attributes.isSuperset(of: [.reverse, .dim]))
        #expect(unfocused[5, 2].style.background != ResolvedTheme.standard[.selection].background)
    }

    @Test func markedRowsReadInMonochrome() {
        let tree = ViewTree()
        tree.theme = Theme.dark.resolved(for: .none)
        let selection = SelectionBox()
        selection.value.withLock { $0 = 1 }
        let marked = MarkedRows()
        marked.storage.withLock { $0 = [0, 1] }
        let canvas = render(List(count: 3, selection: selection.binding) { Text("row \($0)") }.multiSelection(marked.binding),
                            width: 10, height: 3, tree: tree)
        #expect(canvas.lines == ["✓ row 0", "✓ row 1", "  row 2"])
        #expect(canvas[3, 0].style == .plain)                           // marked: the ✓ says so
        #expect(canvas[3, 1].style.attributes.contains(.reverse))        // the cursor: reversed
    }

    // MARK: Search

    @Test func typeToSearch() {
        let tree = ViewTree()
        let selection = SelectionBox()
        let names = ["apple", "banana", "cherry", "Nectarine", "banana split", "fig"]
        var events: [ListEvent] = []
        let list = List(count: names.count, selection: selection.binding) { Text(names[$0]) }
            .searchable { names[$0] }
            .onEvent { (e: ListEvent) in events.append(e) }
        _ = render(list, width: 20, height: 4, tree: tree)
        #expect(tree.handleKey(KeyEvent(.char("/"))))
        #expect(tree.focusedWidgetTakesText)
        var canvas = render(list, width: 20, height: 4, tree: tree)
        #expect(canvas.lines == ["apple", "banana", "cherry", "/"])
        #expect(tree.handleKey(KeyEvent(.char("n"))))                  // text while searching
        #expect(selection.value.withLock { $0 } == 1)                  // "banana" has an n
        #expect(tree.handleKey(KeyEvent(.char("E"), modifiers: .shift)))
        #expect(selection.value.withLock { $0 } == 3)                  // "Nectarine": case ignored
        canvas = render(list, width: 20, height: 4, tree: tree)
        #expect(canvas.lines == ["banana", "cherry", "Nectarine", "/nE"])
        #expect(canvas[0, 3].style == ResolvedTheme.standard[.accent])
        #expect(canvas[0, 2].style.attributes.contains(.reverse))      // the match is the cursor row
        // Backspace edits; a query without a match stays put and shows in the error style.
        tree.handleKey(KeyEvent(.backspace))
        tree.handleKey(KeyEvent(.char("z")))
        #expect(selection.value.withLock { $0 } == 3)
        canvas = render(list, width: 20, height: 4, tree: tree)
        #expect(canvas.line(3) == "/nz")
        #expect(canvas[1, 3].style == ResolvedTheme.standard[.error])
        tree.handleKey(KeyEvent(.backspace))
        tree.handleKey(KeyEvent(.backspace))
        tree.handleKey(KeyEvent(.char("b")))
        #expect(selection.value.withLock { $0 } == 4)                  // from the selection on: "banana split"
        #expect(tree.handleKey(KeyEvent(.enter)))                      // ends the search, does not activate
        #expect(!tree.focusedWidgetTakesText)
        canvas = render(list, width: 20, height: 4, tree: tree)
        #expect(!canvas.lines.contains { $0.hasPrefix("/") })
        // n and N repeat the last query, wrapping around.
        #expect(tree.handleKey(KeyEvent(.char("n"))))
        #expect(selection.value.withLock { $0 } == 1)
        #expect(tree.handleKey(KeyEvent(.char("N"))))
        #expect(selection.value.withLock { $0 } == 4)
        #expect(events == [.selected(1), .selected(3), .selected(4), .selected(1), .selected(4)])
        #expect(!events.contains(.activated(4)))
    }

    @Test func searchKeysWhileSearching() {
        let tree = ViewTree()
        let selection = SelectionBox()
        let list = List(count: 50, selection: selection.binding) { Text("row \($0)") }.searchable { "row \($0)" }
        _ = render(list, width: 20, height: 5, tree: tree)
        tree.handleKey(KeyEvent(.char("/")))
        #expect(!tree.handleKey(KeyEvent(.tab)))                       // focus keys still pass
        #expect(!tree.handleKey(KeyEvent(.char("c"), modifiers: .ctrl)))
        #expect(tree.handleKey(KeyEvent(.down)))                       // arrows still move
        #expect(selection.value.withLock { $0 } == 1)
        #expect(tree.handleKey(KeyEvent(.char("j"))))                  // but j is text
        #expect(selection.value.withLock { $0 } == 1)
        #expect(tree.handlePaste("4\n5"))                              // first line of a paste
        #expect(selection.value.withLock { $0 } == 1)                  // no row contains "j4"
        var canvas = render(list, width: 20, height: 5, tree: tree)
        #expect(canvas.line(4) == "/j4")
        #expect(tree.handleKey(KeyEvent(.escape)))                     // ends, keeps the selection
        #expect(!tree.handleKey(KeyEvent(.escape)))                    // then Esc is the host's again
        #expect(!tree.handlePaste("x"))
        // Backspace on an empty query ends the search too.
        tree.handleKey(KeyEvent(.char("/")))
        tree.handleKey(KeyEvent(.backspace))
        #expect(!tree.focusedWidgetTakesText)
        // Selecting a visible row keeps the scroll; the query row hides no selected row.
        tree.handleKey(KeyEvent(.char("/")))
        for c in "row 4" { tree.handleKey(KeyEvent(.char(c))) }
        #expect(selection.value.withLock { $0 } == 4)
        canvas = render(list, width: 20, height: 5, tree: tree)
        #expect(canvas.lines == ["row 1", "row 2", "row 3", "row 4", "/row 4"])
        // A long query shows its end.
        for c in "9 and more text" { tree.handleKey(KeyEvent(.char(c))) }
        canvas = render(list, width: 8, height: 5, tree: tree)
        #expect(canvas.line(4) == "…re text")
    }

    @Test func searchEndsWhenFocusMovesAway() {
        let tree = ViewTree()
        let selection = SelectionBox()
        let view = VStack {
            List(count: 10, selection: selection.binding) { Text("row \($0)") }.searchable { "row \($0)" }
            Button("ok") {}
        }
        _ = render(view, width: 20, height: 6, tree: tree)
        tree.handleKey(KeyEvent(.char("/")))
        tree.handleKey(KeyEvent(.char("3")))
        tree.moveFocus()
        var canvas = render(view, width: 20, height: 6, tree: tree)
        #expect(!canvas.lines.contains("/3"))
        tree.moveFocus()
        canvas = render(view, width: 20, height: 6, tree: tree)
        #expect(!tree.focusedWidgetTakesText)
        tree.handleKey(KeyEvent(.char("g")))
        tree.handleKey(KeyEvent(.char("n")))                          // the ended search's query
        #expect(selection.value.withLock { $0 } == 3)
    }

    @Test func searchingAMillionRowsStopsAtTheFirstMatch() {
        let tree = ViewTree()
        let selection = SelectionBox()
        var asked = 0
        let list = List(count: 1_000_000, selection: selection.binding) { Text("row \($0)") }
            .searchable { row in
                asked += 1
                return "row \(row)"
            }
        _ = render(list, width: 20, height: 10, tree: tree)
        tree.handleKey(KeyEvent(.char("/")))
        for c in "w 12" { tree.handleKey(KeyEvent(.char(c))) }
        #expect(selection.value.withLock { $0 } == 12)
        #expect(asked < 40)
        tree.handleKey(KeyEvent(.enter))
        asked = 0
        tree.handleKey(KeyEvent(.char("n")))                           // the next: row 120
        #expect(selection.value.withLock { $0 } == 120)
        #expect(asked == 108)
        tree.handleKey(KeyEvent(.char("N")))
        #expect(selection.value.withLock { $0 } == 12)
        // Wrapping backwards from the top finds the last rows quickly.
        tree.handleKey(KeyEvent(.char("/")))
        tree.handleKey(KeyEvent(.char("9")))
        tree.handleKey(KeyEvent(.char("9")))
        tree.handleKey(KeyEvent(.enter))
        tree.handleKey(KeyEvent(.home))
        asked = 0
        tree.handleKey(KeyEvent(.char("N")))
        #expect(selection.value.withLock { $0 } == 999_999)
        #expect(asked == 1)
        let canvas = render(list, width: 20, height: 10, tree: tree)
        #expect(canvas.lines.last == "row 999999")
    }

    @Test func tinyListsWithMarksAndSearch() {
        let selection = SelectionBox()
        let marked = MarkedRows()
        marked.storage.withLock { $0 = [0] }
        let tree = ViewTree()
        let list = List(count: 1_000_000, selection: selection.binding) { Text("row \($0)") }
            .multiSelection(marked.binding).searchable { "row \($0)" }
        #expect(render(list, width: 0, height: 0, tree: tree).lines == [])
        #expect(render(list, width: 1, height: 1, tree: tree).lines == ["✓"])
        tree.handleKey(KeyEvent(.char("/")))
        tree.handleKey(KeyEvent(.char("7")))
        #expect(render(list, width: 1, height: 1, tree: tree).lines == ["…"])
        #expect(render(list, width: 3, height: 1, tree: tree).lines == ["/7"])
        #expect(render(list, width: 0, height: 0, tree: tree).lines == [])
        #expect(selection.value.withLock { $0 } == 7)
    }
}

private typealias MarkedRows = Ref<Set<Int>>
