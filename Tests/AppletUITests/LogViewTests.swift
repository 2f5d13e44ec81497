import Synchronization
import Testing
@testable import AppletUI

private typealias LogValue<T: Sendable> = Ref<T>

private func logLines(_ count: Int) -> [String] { (0..<count).map { "line \($0)" } }

/// The canvas's lines without the focus bar a focused log draws in its right column (the bar
/// has its own test).
private func text(_ canvas: Canvas) -> [String] {
    canvas.lines.map { line in
        guard let last = line.last, last == "│" || last == "┃" else { return line }
        var rest = Substring(line.dropLast())
        while rest.last == " " { rest = rest.dropLast() }
        return String(rest)
    }
}

@Suite("LogView")
@MainActor
struct LogViewTests {
    @Test func followsTheTail() {
        let tree = ViewTree()
        var canvas = render(LogView(lines: logLines(20)), width: 20, height: 5, tree: tree)
        #expect(text(canvas) == ["line 15", "line 16", "line 17", "line 18", "line 19"])
        canvas = render(LogView(lines: logLines(25)), width: 20, height: 5, tree: tree)
        #expect(text(canvas) == ["line 20", "line 21", "line 22", "line 23", "line 24"])
        // Fewer lines than rows: from the top.
        #expect(text(render(LogView(lines: logLines(2)), width: 20, height: 4)) == ["line 0", "line 1", "", ""])
    }

    @Test func scrollingUpStopsFollowingAndCountsNewLines() {
        let tree = ViewTree()
        var events: [LogViewEvent] = []
        func view(_ count: Int) -> some View {
            LogView(lines: logLines(count)).onEvent { (event: LogViewEvent) in events.append(event) }
        }
        _ = render(view(20), width: 36, height: 5, tree: tree)
        #expect(tree.handleKey(KeyEvent(.up)))
        #expect(events == [.followChanged(false)])
        var canvas = render(view(20), width: 36, height: 5, tree: tree)
        #expect(text(canvas) == ["line 14", "line 15", "line 16", "line 17", "↓ paused (End to follow)"])
        let accent = ResolvedTheme.standard[.accent]
        #expect(canvas[0, 4].style == accent)
        #expect(canvas[35, 4].style == accent)
        // More lines arrive: the view stays on the same lines.
        canvas = render(view(23), width: 36, height: 5, tree: tree)
        #expect(text(canvas) == ["line 14", "line 15", "line 16", "line 17", "↓ 3 new lines (End to follow)"])
        canvas = render(view(21), width: 36, height: 5, tree: tree)
        #expect(text(canvas)[4] == "↓ 1 new line (End to follow)")
        // End follows again.
        #expect(tree.handleKey(KeyEvent(.end)))
        canvas = render(view(24), width: 36, height: 5, tree: tree)
        #expect(text(canvas) == ["line 19", "line 20", "line 21", "line 22", "line 23"])
        #expect(events == [.followChanged(false), .followChanged(true)])
        // Following, End does nothing.
        tree.handleKey(KeyEvent(.char("G")))
        #expect(events.count == 2)
    }

    @Test func scrollingBackToTheBottomFollowsAgain() {
        let tree = ViewTree()
        var events: [LogViewEvent] = []
        let view = LogView(lines: logLines(23)).onEvent { (event: LogViewEvent) in events.append(event) }
        _ = render(view, width: 36, height: 5, tree: tree)
        tree.handleKey(KeyEvent(.char("k")))                       // top 17, showing 17...20
        tree.handleKey(KeyEvent(.pageUp))                          // a page of 4: top 13
        var canvas = render(view, width: 36, height: 5, tree: tree)
        #expect(text(canvas).prefix(4) == ["line 13", "line 14", "line 15", "line 16"])
        tree.handleKey(KeyEvent(.char("j")))
        canvas = render(view, width: 36, height: 5, tree: tree)
        #expect(text(canvas)[0] == "line 14")
        #expect(events == [.followChanged(false)])
        tree.handleKey(KeyEvent(.pageDown))                        // top 18: showing 18...21
        #expect(events == [.followChanged(false)])
        tree.handleKey(KeyEvent(.down))                            // top 19 would show the last line
        #expect(events == [.followChanged(false), .followChanged(true)])
        canvas = render(view, width: 36, height: 5, tree: tree)
        #expect(text(canvas) == ["line 18", "line 19", "line 20", "line 21", "line 22"])
    }

    @Test func homeAndWheel() {
        let tree = ViewTree()
        let view = LogView(lines: logLines(100))
        _ = render(view, width: 36, height: 5, tree: tree)
        tree.handleKey(KeyEvent(.char("g")))
        var canvas = render(view, width: 36, height: 5, tree: tree)
        #expect(text(canvas) == ["line 0", "line 1", "line 2", "line 3", "↓ paused (End to follow)"])
        tree.handleKey(KeyEvent(.pageUp))                          // already at the top
        tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 0, y: 0)))
        canvas = render(view, width: 36, height: 5, tree: tree)
        #expect(text(canvas)[0] == "line 3")
        tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 0, y: 0)))
        tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 0, y: 0)))
        canvas = render(view, width: 36, height: 5, tree: tree)
        #expect(text(canvas)[0] == "line 0")
        tree.handleKey(KeyEvent(.home))
        #expect(!tree.handleKey(KeyEvent(.char("x"))))
        #expect(!tree.handleKey(KeyEvent(.tab)))
        #expect(!tree.handleKey(KeyEvent(.escape)))
        #expect(!tree.handleKey(KeyEvent(.char("c"), modifiers: .ctrl)))
    }

    @Test func followBinding() {
        let follow = LogValue(true)
        let tree = ViewTree()
        func view(_ count: Int) -> LogView { LogView(lines: logLines(count), follow: follow.binding) }
        _ = render(view(20), width: 36, height: 4, tree: tree)
        tree.handleKey(KeyEvent(.up))
        #expect(follow.value == false)
        tree.handleKey(KeyEvent(.end))
        #expect(follow.value == true)
        // The applet pauses it: the view stays where it was.
        _ = render(view(20), width: 36, height: 4, tree: tree)
        follow.set(false)
        var canvas = render(view(30), width: 36, height: 4, tree: tree)
        #expect(text(canvas) == ["line 16", "line 17", "line 18", "↓ 10 new lines (End to follow)"])
        follow.set(true)
        canvas = render(view(30), width: 36, height: 4, tree: tree)
        #expect(text(canvas) == ["line 26", "line 27", "line 28", "line 29"])
    }

    @Test func nothingToScrollKeepsFollowing() {
        let tree = ViewTree()
        var events: [LogViewEvent] = []
        let view = LogView(lines: logLines(3)).onEvent { (event: LogViewEvent) in events.append(event) }
        _ = render(view, width: 20, height: 5, tree: tree)
        tree.handleKey(KeyEvent(.up))
        tree.handleKey(KeyEvent(.home))
        tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 0, y: 0)))
        #expect(events.isEmpty)
        #expect(text(render(view, width: 20, height: 5, tree: tree)) == ["line 0", "line 1", "line 2", "", ""])
    }

    @Test func onlyVisibleLinesAreRead() {
        var asked: [Int] = []
        let tree = ViewTree()
        let view = LogView(count: 1_000_000) { index in
            asked.append(index)
            return "entry \(index)"
        }
        var canvas = render(view, width: 20, height: 6, tree: tree)
        #expect(asked == Array(999_994..<1_000_000))
        #expect(text(canvas)[5] == "entry 999999")
        asked = []
        tree.handleKey(KeyEvent(.home))
        canvas = render(view, width: 20, height: 6, tree: tree)
        #expect(asked == Array(0..<5))
        // An array of a million lines draws just as well.
        let big = (0..<1_000_000).map { "l\($0)" }
        #expect(text(render(LogView(lines: big), width: 10, height: 2)) == ["l999998", "l999999"])
    }

    @Test func focusShowsAScrollBarInTheFocusStyle() {
        let tree = ViewTree()
        let theme = ResolvedTheme.standard
        let view = LogView(lines: logLines(20))
        // Following: 5 of 20 lines on screen, the thumb (one cell) at the bottom.
        var canvas = render(view, width: 12, height: 5, tree: tree)
        #expect(canvas.lines.map { String($0.last!) } == ["│", "│", "│", "│", "┃"])
        #expect(canvas[11, 4].style == theme[.focus])
        #expect(canvas[11, 0].style == theme[.border])
        // Home: the thumb moves to the top; the indicator row has no bar.
        tree.handleKey(KeyEvent(.home))
        canvas = render(view, width: 12, height: 5, tree: tree)
        #expect(canvas.lines.prefix(4).map { String($0.last!) } == ["┃", "│", "│", "│"])
        #expect(canvas.line(4) == "↓ paused (E…")
        // A log that fits: the whole track is thumb.
        #expect(render(LogView(lines: logLines(2)), width: 10, height: 3).lines.map { String($0.last!) } == ["┃", "┃", "┃"])
        // Without focus (another widget has it, or the pane is not active): no bar, full width.
        let other = VStack { Button("OK") {}; LogView(lines: ["0123456789"]) }
        #expect(render(other, width: 10, height: 2).lines == ["[ OK ]", "0123456789"])
        var inactive = Canvas(size: Size(width: 10, height: 1))
        ViewTree().render(LogView(lines: ["0123456789"]), in: inactive.bounds, on: &inactive, isActive: false)
        #expect(inactive.lines == ["0123456789"])
    }

    @Test func longLinesAreCutNotWrapped() {
        let lines = ["short", "a very long line that does not fit", "日本語のログメッセージ"]
        #expect(text(render(LogView(lines: lines), width: 10, height: 3)) == ["short", "a very l…", "日本語の…"])
    }

    @Test func disabledLogTakesNoFocusOrKeys() {
        let tree = ViewTree()
        let follow = LogValue(true)
        _ = render(LogView(lines: logLines(50), follow: follow.binding).disabled(), width: 20, height: 5, tree: tree)
        #expect(!tree.hasFocusableWidgets)
        #expect(!tree.handleKey(KeyEvent(.up)))
        #expect(follow.value == true)
    }

    @Test func tinySizes() {
        let tree = ViewTree()
        let view = LogView(lines: logLines(30))
        #expect(text(render(view, width: 0, height: 0, tree: tree)) == [])
        #expect(text(render(view, width: 1, height: 1, tree: tree)) == ["…"])
        tree.handleKey(KeyEvent(.up))                               // one row: no room for the indicator
        #expect(text(render(view, width: 1, height: 1, tree: tree)) == ["…"])
        #expect(text(render(view, width: 3, height: 2, tree: tree)) == ["l…", "↓ …"])
        #expect(text(render(LogView(lines: []), width: 5, height: 2)) == ["", ""])
    }

    @Test func inABoxTheFocusBarLiesOnTheBorder() {
        // Beside the box's border the focus bar read as a double border (`││`).
        let tree = ViewTree()
        let view = Box { LogView(lines: logLines(12)) }
        let canvas = render(view, width: 12, height: 5, tree: tree)
        #expect(tree.focusedID != nil)
        #expect(canvas.lines == ["┌──────────┐", "│line 9    │", "│line 10   │", "│line 11   ┃", "└──────────┘"])
        #expect(canvas[11, 3].style == ResolvedTheme.standard[.focus])
        #expect(canvas[11, 1].style == ResolvedTheme.standard[.border])
        // Lines keep every column inside the box, and the indicator stays off the border.
        let long = Box { LogView(lines: ["0123456789abc"]) }
        #expect(render(long, width: 12, height: 3).line(1) == "│012345678…┃")
        tree.handleKey(KeyEvent(.up))
        let paused = render(view, width: 12, height: 5, tree: tree)
        #expect(paused.line(3).hasPrefix("│↓ paused"))
        #expect(paused[11, 3].grapheme == "│" && paused[11, 3].style == ResolvedTheme.standard[.border])
    }
}
