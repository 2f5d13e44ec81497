import Synchronization
import Testing
@testable import AppletUI

private typealias TextStore = Ref<String>

@MainActor
private func type(_ text: String, into tree: ViewTree) {
    for c in text { #expect(tree.handleKey(c == "\n" ? KeyEvent(.enter) : KeyEvent(.char(c)))) }
}

@MainActor
private func press(_ code: KeyCode, _ modifiers: KeyModifiers = [], times: Int = 1, in tree: ViewTree) {
    for _ in 0..<times { #expect(tree.handleKey(KeyEvent(code, modifiers: modifiers))) }
}

private let cursorLook = Style.plain.merged(with: ResolvedTheme.standard[.focus])

/// Where the cursor is drawn: the cells in the cursor's style.
private func cursorCells(_ canvas: Canvas) -> [Point] {
    var found: [Point] = []
    for y in 0..<canvas.size.height {
        for x in 0..<canvas.size.width where canvas[x, y].style == cursorLook { found.append(Point(x: x, y: y)) }
    }
    return found
}

private func numberedLines(_ count: Int) -> String {
    (0..<count).map { "line \($0)" }.joined(separator: "\n")
}

@Suite("TextArea")
@MainActor
struct TextAreaTests {
    @Test func typingAndNewLines() {
        let tree = ViewTree()
        let store = TextStore()
        let area = TextArea(text: store.binding)
        _ = render(area, width: 20, height: 4, tree: tree)
        #expect(tree.focusedWidgetTakesText)
        type("ab\ncd\n\n日本", into: tree)
        #expect(store.text == "ab\ncd\n\n日本")
        let canvas = render(area, width: 20, height: 4, tree: tree)
        #expect(canvas.lines == ["ab", "cd", "", "日本"])
        #expect(cursorCells(canvas) == [Point(x: 4, y: 3)])
        // Enter in the middle of a line splits it.
        press(.up, times: 3, in: tree)
        press(.left, in: tree)
        press(.enter, in: tree)
        #expect(store.text == "a\nb\ncd\n\n日本")
        #expect(cursorCells(render(area, width: 20, height: 5, tree: tree)) == [Point(x: 0, y: 1)])
    }

    @Test func joiningLines() {
        let tree = ViewTree()
        let store = TextStore("ab\ncd\nef")
        let area = TextArea(text: store.binding)
        _ = render(area, width: 20, height: 4, tree: tree)
        press(.down, in: tree)                                // the cursor starts at the top
        press(.backspace, in: tree)                           // at a line's start: joins it to the one above
        #expect(store.text == "abcd\nef")
        type("|", into: tree)
        #expect(store.text == "ab|cd\nef")
        press(.end, in: tree)
        press(.delete, in: tree)                              // at a line's end: joins the next line
        #expect(store.text == "ab|cdef")
        press(.home, .ctrl, in: tree)
        press(.backspace, in: tree)                           // nothing before the start
        press(.end, .ctrl, in: tree)
        press(.delete, in: tree)                              // nothing after the end
        #expect(store.text == "ab|cdef")
        // Ctrl-K at a line's end and Ctrl-W at its start join lines too.
        store.text = "one\ntwo"
        press(.home, .ctrl, in: tree)
        press(.end, in: tree)
        press(.char("k"), .ctrl, in: tree)
        #expect(store.text == "onetwo")
        store.text = "one\ntwo words"
        press(.down, in: tree)
        press(.home, in: tree)
        press(.char("w"), .ctrl, in: tree)
        #expect(store.text == "onetwo words")
        press(.end, in: tree)
        press(.char("w"), .ctrl, in: tree)
        #expect(store.text == "onetwo ")
        press(.char("u"), .ctrl, in: tree)
        #expect(store.text == "")
    }

    @Test func upAndDownKeepTheGoalColumn() {
        let tree = ViewTree()
        let store = TextStore("abcdefgh\nab\nabcdefgh\n日本語x")
        let area = TextArea(text: store.binding)
        _ = render(area, width: 20, height: 5, tree: tree)
        press(.end, in: tree)
        press(.down, in: tree)                                // a short line: its end
        type("1", into: tree)
        #expect(store.text == "abcdefgh\nab1\nabcdefgh\n日本語x")
        press(.left, in: tree)                                // a horizontal move sets a new goal (2)
        press(.up, in: tree)
        type("2", into: tree)
        #expect(store.text.hasPrefix("ab2cdefgh\n"))
        press(.end, in: tree)                                 // goal 9
        press(.down, in: tree)
        press(.down, in: tree)                                // back to column 9 after the short line
        type("3", into: tree)
        #expect(store.text == "ab2cdefgh\nab1\nabcdefgh3\n日本語x")
        // The goal is in cells: column 5 is the right half of 語, so the cursor goes before it.
        press(.left, times: 4, in: tree)
        press(.down, in: tree)
        type("4", into: tree)
        #expect(store.text.hasSuffix("\n日本4語x"))
        // Up on the first line goes to its start, Down on the last to its end.
        press(.down, in: tree)
        type("5", into: tree)
        #expect(store.text.hasSuffix("\n日本4語x5"))
        press(.home, .ctrl, in: tree)
        press(.right, in: tree)
        press(.up, in: tree)
        type("6", into: tree)
        #expect(store.text.hasPrefix("6ab2"))
    }

    @Test func wordJumpsCrossLines() {
        let tree = ViewTree()
        let store = TextStore("one two\nthree")
        _ = render(TextArea(text: store.binding), width: 20, height: 3, tree: tree)
        press(.right, .ctrl, in: tree)
        type("1", into: tree)
        press(.char("f"), .alt, in: tree)
        press(.char("f"), .alt, in: tree)                     // the end of the line, then the next line's start
        type("2", into: tree)
        #expect(store.text == "one1 two\n2three")
        press(.left, .ctrl, in: tree)
        press(.left, .ctrl, in: tree)                         // from a line's start: the previous line's end
        type("3", into: tree)
        #expect(store.text == "one1 two3\n2three")
        press(.char("b"), .alt, in: tree)
        type("4", into: tree)
        #expect(store.text == "one1 4two3\n2three")
        press(.char("b"), .alt, times: 2, in: tree)
        type("5", into: tree)
        #expect(store.text == "5one1 4two3\n2three")
    }

    @Test func pageDownScrollsByTheVisibleHeight() {
        let tree = ViewTree()
        let store = TextStore(numberedLines(100))
        let area = TextArea(text: store.binding)
        var canvas = render(area, width: 12, height: 5, tree: tree)
        #expect(canvas.lines == ["line 0", "line 1", "line 2", "line 3", "line 4"])
        press(.right, times: 2, in: tree)
        press(.pageDown, in: tree)
        canvas = render(area, width: 12, height: 5, tree: tree)
        #expect(canvas.lines == ["line 5", "line 6", "line 7", "line 8", "line 9"])
        #expect(cursorCells(canvas) == [Point(x: 2, y: 0)])
        press(.down, times: 2, in: tree)
        press(.pageDown, times: 2, in: tree)
        canvas = render(area, width: 12, height: 5, tree: tree)
        #expect(canvas.lines == ["line 15", "line 16", "line 17", "line 18", "line 19"])
        #expect(cursorCells(canvas) == [Point(x: 2, y: 2)])
        press(.pageUp, in: tree)
        canvas = render(area, width: 12, height: 5, tree: tree)
        #expect(canvas.line(0) == "line 10")
        #expect(cursorCells(canvas) == [Point(x: 2, y: 2)])
        press(.end, .ctrl, in: tree)
        canvas = render(area, width: 12, height: 5, tree: tree)
        #expect(canvas.lines == ["line 95", "line 96", "line 97", "line 98", "line 99"])
        #expect(cursorCells(canvas) == [Point(x: 7, y: 4)])
        press(.pageDown, in: tree)                            // on the last line: stays
        press(.pageUp, times: 30, in: tree)
        canvas = render(area, width: 12, height: 5, tree: tree)
        #expect(canvas.line(0) == "line 0")
        #expect(cursorCells(canvas) == [Point(x: 0, y: 0)])
        // Moving down past the bottom scrolls one line at a time.
        press(.down, times: 5, in: tree)
        canvas = render(area, width: 12, height: 5, tree: tree)
        #expect(canvas.line(0) == "line 1")
        #expect(cursorCells(canvas) == [Point(x: 0, y: 4)])
    }

    @Test func onlyVisibleLinesAreDrawnInsideTheFrame() {
        let tree = ViewTree()
        let store = TextStore(numberedLines(100_000))
        let view = VStack { TextArea(text: store.binding); Text("status") }
        var canvas = render(view, width: 12, height: 4, tree: tree)
        #expect(canvas.lines == ["line 0", "line 1", "line 2", "status"])
        press(.end, .ctrl, in: tree)
        canvas = render(view, width: 12, height: 4, tree: tree)
        #expect(canvas.lines == ["line 99997", "line 99998", "line 99999", "status"])
        type("!", into: tree)
        #expect(store.text.hasSuffix("line 99998\nline 99999!"))
        // Drawn directly: a frame of 3 rows draws 3 lines, wherever the text is scrolled.
        withNode(TextArea(text: store.binding), tree: tree) { node in
            var direct = Canvas(size: Size(width: 12, height: 3))
            node.place(in: direct.bounds)
            node.draw(in: &direct, clip: direct.bounds)
            #expect((node as? TextAreaNode)?.drawnLines == 0..<3)
        }
        // Long lines are cut at the frame's edge.
        let wide = render(HStack { TextArea(text: .constant("abcdefghijkl\n日本語")); Text("|") }, width: 6, height: 2)
        #expect(wide.lines == ["abcde|", "日本"])            // 語 would cross the edge
    }

    @Test func scrollsSidewaysToTheCursor() {
        let tree = ViewTree()
        let store = TextStore("abcdefghij\nxy\n日本語テキスト")
        let area = TextArea(text: store.binding)
        _ = render(area, width: 5, height: 3, tree: tree)
        press(.end, in: tree)
        var canvas = render(area, width: 5, height: 3, tree: tree)
        #expect(canvas.lines == ["ghij", "", "テキ"])         // ス would be cut: left out
        #expect(cursorCells(canvas) == [Point(x: 4, y: 0)])
        press(.down, in: tree)                                // a short line: back to the start
        canvas = render(area, width: 5, height: 3, tree: tree)
        #expect(canvas.lines == ["abcde", "xy", "日本"])
        press(.down, in: tree)
        press(.end, in: tree)
        canvas = render(area, width: 5, height: 3, tree: tree)
        #expect(canvas.line(2) == "スト")
        #expect(cursorCells(canvas) == [Point(x: 4, y: 2)])
    }

    @Test func wheelScrollsTheViewNotTheCursor() {
        let tree = ViewTree()
        let store = TextStore(numberedLines(20))
        let area = TextArea(text: store.binding)
        _ = render(area, width: 10, height: 5, tree: tree)
        #expect(tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 1, y: 1))))
        var canvas = render(area, width: 10, height: 5, tree: tree)
        #expect(canvas.line(0) == "line 3")
        #expect(cursorCells(canvas) == [])                    // the cursor (line 0) is above the view
        for _ in 0..<10 { tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 1, y: 1))) }
        canvas = render(area, width: 10, height: 5, tree: tree)
        #expect(canvas.line(0) == "line 15")                  // clamped: the last line at the bottom
        #expect(canvas.line(4) == "line 19")
        tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 1, y: 1)))
        canvas = render(area, width: 10, height: 5, tree: tree)
        #expect(canvas.line(0) == "line 12")
        for _ in 0..<10 { tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 1, y: 1))) }
        canvas = render(area, width: 10, height: 5, tree: tree)
        #expect(canvas.line(0) == "line 0")
        // Typing brings the cursor back into view.
        for _ in 0..<3 { tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 1, y: 1))) }
        type("!", into: tree)
        canvas = render(area, width: 10, height: 5, tree: tree)
        #expect(canvas.line(0) == "!line 0")
        #expect(cursorCells(canvas) == [Point(x: 1, y: 0)])
    }

    @Test func clickPlacesTheCursor() {
        let tree = ViewTree()
        let store = TextStore("abc\n日本x\nlast")
        let area = TextArea(text: store.binding)
        _ = render(area, width: 10, height: 5, tree: tree)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 1, y: 0))))
        type("<", into: tree)
        #expect(store.text == "a<bc\n日本x\nlast")
        _ = render(area, width: 10, height: 5, tree: tree)
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 3, y: 1)))     // right half of 本
        type(">", into: tree)
        #expect(store.text == "a<bc\n日>本x\nlast")
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 8, y: 0)))     // past the line's end
        type(".", into: tree)
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 4)))     // below the last line
        type("$", into: tree)
        #expect(store.text == "a<bc.\n日>本x\nlast$")
        // Below other views: rows count from the editor's top.
        let offsetTree = ViewTree()
        let other = TextStore("first\nsecond")
        let view = VStack { Text("title"); HStack { Text("> "); TextArea(text: other.binding) } }
        _ = render(view, width: 12, height: 4, tree: offsetTree)
        offsetTree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 4, y: 2)))
        type("|", into: offsetTree)
        #expect(other.text == "first\nse|cond")
    }

    @Test func pasteKeepsLines() {
        let tree = ViewTree()
        let store = TextStore("ab")
        var events: [TextAreaEvent] = []
        let area = TextArea(text: store.binding).onEvent { (e: TextAreaEvent) in events.append(e) }
        _ = render(area, width: 20, height: 5, tree: tree)
        press(.right, in: tree)
        #expect(tree.handlePaste("1\r\n2\n\t3\r"))
        #expect(store.text == "a1\n2\n    3\nb")
        type("!", into: tree)
        #expect(store.text == "a1\n2\n    3\n!b")
        #expect(events == [.changed("a1\n2\n    3\nb"), .changed("a1\n2\n    3\n!b")])
        let canvas = render(area, width: 20, height: 5, tree: tree)
        #expect(canvas.lines == ["a1", "2", "    3", "!b", ""])
    }

    @Test func eventsOnlyForEdits() {
        let tree = ViewTree()
        let store = TextStore()
        var events: [TextAreaEvent] = []
        let area = TextArea(text: store.binding).onEvent { (e: TextAreaEvent) in events.append(e) }
        _ = render(area, width: 20, height: 5, tree: tree)
        type("a\nb", into: tree)
        press(.up, in: tree)
        press(.left, in: tree)
        press(.backspace, in: tree)                           // nothing before the start: no event
        press(.delete, in: tree)
        #expect(events == [.changed("a"), .changed("a\n"), .changed("a\nb"), .changed("\nb")])
    }

    @Test func tabPassesOnAndEscapeLeaves() {
        let tree = ViewTree()
        let store = TextStore("x")
        _ = render(TextArea(text: store.binding), width: 10, height: 3, tree: tree)
        for key in [KeyEvent(.tab), KeyEvent(.tab, modifiers: .shift),
                    KeyEvent(.char("c"), modifiers: .ctrl), KeyEvent(.function(2))] {
            #expect(!tree.handleKey(key), "\(key)")
        }
        #expect(tree.handleKey(KeyEvent(.up)))
        #expect(tree.handleKey(KeyEvent(.enter)))
        #expect(store.text == "\nx")
        // Esc leaves the text area (taken: focus goes to the pane).
        #expect(tree.handleKey(KeyEvent(.escape)))
        #expect(tree.focusedID == nil)
    }

    @Test func placeholderIsMutedAndCarriageReturnsAreLineEnds() {
        let tree = ViewTree()
        let store = TextStore()
        let area = TextArea(text: store.binding, placeholder: "Notes\nmore")
        var canvas = render(area, width: 10, height: 3, tree: tree)
        #expect(canvas.lines == ["Notes", "more", ""])
        #expect(canvas[0, 0].style == cursorLook)
        #expect(canvas[1, 0].style == Style.plain.merged(with: ResolvedTheme.standard[.muted]))
        #expect(canvas[0, 1].style == Style.plain.merged(with: ResolvedTheme.standard[.muted]))
        store.text = "one\r\ntwo"
        canvas = render(area, width: 10, height: 3, tree: tree)
        #expect(canvas.lines == ["one", "two", ""])
        press(.end, in: tree)
        type("!", into: tree)
        #expect(store.text == "one!\ntwo")
    }

    @Test func disabledEditorTakesNoFocusOrKeys() {
        let tree = ViewTree()
        let store = TextStore("text")
        let canvas = render(TextArea(text: store.binding).disabled(), width: 10, height: 3, tree: tree)
        #expect(tree.focusedID == nil)
        #expect(!tree.handleKey(KeyEvent(.char("x"))))
        #expect(!tree.handlePaste("x"))
        #expect(store.text == "text")
        #expect(cursorCells(canvas) == [])
        #expect(canvas[0, 0].style.attributes.contains(.dim))
    }

    @Test func sizesAndTinyFrames() {
        withNode(TextArea(text: .constant(""))) { node in
            #expect(node.measure(ProposedSize(width: nil, height: nil)) == Size(width: 40, height: 5))
            #expect(node.measure(ProposedSize(width: 70, height: 20)) == Size(width: 70, height: 20))
        }
        for text in ["", "abc\ndef", "日本語\n👩‍💻", numberedLines(50)] {
            for w in 0...3 {
                for h in 0...3 {
                    let tree = ViewTree()
                    let store = TextStore(text)
                    let area = TextArea(text: store.binding, placeholder: "日本")
                    _ = render(area, width: w, height: h, tree: tree)
                    type("日\n", into: tree)
                    press(.pageDown, in: tree)
                    press(.end, .ctrl, in: tree)
                    tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 0, y: 0)))
                    tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0)))
                    _ = render(area, width: w, height: h, tree: tree)
                }
            }
        }
        let canvas = render(VStack { HStack { TextArea(text: .constant(numberedLines(9))); Text("|") }; Text("z") }, width: 4, height: 3)
        #expect(canvas.lines == ["lin|", "lin", "z"])
    }
}
