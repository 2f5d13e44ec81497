import Testing
@testable import AppletUI

/// Which rows of a `Counted` content were drawn.
@MainActor
private final class DrawLog {
    var drawn: [Int] = []
}

/// A one-row view that notes when it is drawn.
private struct Counted: View {
    typealias Body = Never
    let index: Int
    let log: DrawLog

    func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(CountedNode(index: index, log: log))
    }
}

private final class CountedNode: Node {
    let index: Int
    let log: DrawLog
    init(index: Int, log: DrawLog) { self.index = index; self.log = log }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size { Size(width: min(5, proposal.width ?? 5), height: 1) }
    override func draw(in canvas: inout Canvas, clip: Rect) {
        #expect(!clip.intersection(frame).isEmpty)
        log.drawn.append(index)
        canvas.write("n\(index)", at: frame.origin, clip: clip.intersection(frame))
    }
}

@Suite("ScrollView")
@MainActor
struct ScrollViewTests {
    private func lines(_ count: Int) -> some View {
        ScrollView { ForEach(0..<count) { Text("line \($0)") } }
    }

    /// The text of a canvas without its last column (where the scroll bar is).
    private func content(_ canvas: Canvas) -> [String] {
        canvas.lines.map { line in
            var s = String(line.prefix(canvas.size.width - 1))
            while s.last == " " { s.removeLast() }
            return s
        }
    }

    @Test func keysScrollAndTheOffsetIsKept() {
        let tree = ViewTree()
        var events: [ScrollViewEvent] = []
        let view = lines(20).onEvent { (event: ScrollViewEvent) in events.append(event) }
        var canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(content(canvas) == ["line 0", "line 1", "line 2", "line 3", "line 4"])
        #expect(tree.handleKey(KeyEvent(.char("j"))))
        #expect(tree.handleKey(KeyEvent(.down)))
        canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(content(canvas) == ["line 2", "line 3", "line 4", "line 5", "line 6"])
        tree.handleKey(KeyEvent(.up))
        tree.handleKey(KeyEvent(.pageDown))
        canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(content(canvas).first == "line 6")
        tree.handleKey(KeyEvent(.end))
        canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(content(canvas) == ["line 15", "line 16", "line 17", "line 18", "line 19"])
        tree.handleKey(KeyEvent(.char("j")))                          // clamped at the end
        tree.handleKey(KeyEvent(.pageUp))
        canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(content(canvas).first == "line 10")
        tree.handleKey(KeyEvent(.char("g")))
        tree.handleKey(KeyEvent(.char("k")))                          // clamped at the top
        tree.handleKey(KeyEvent(.char("G")))
        tree.handleKey(KeyEvent(.home))
        #expect(events == [.scrolled(1), .scrolled(2), .scrolled(1), .scrolled(6), .scrolled(15), .scrolled(10),
                           .scrolled(0), .scrolled(15), .scrolled(0)])
        #expect(!tree.handleKey(KeyEvent(.tab)))
        #expect(!tree.handleKey(KeyEvent(.left)))
        #expect(!tree.handleKey(KeyEvent(.char("x"))))
        #expect(!tree.handleKey(KeyEvent(.down, modifiers: .ctrl)))
    }

    @Test func scrollBarShowsWhereTheWindowIs() {
        let tree = ViewTree()
        let view = lines(20)
        var canvas = render(view, width: 10, height: 5, tree: tree)
        // 5 of 20 rows: a one-cell thumb at the top of a five-cell track.
        #expect((0..<5).map { canvas[9, $0].grapheme } == ["┃", "│", "│", "│", "│"])
        #expect(canvas[9, 0].style == ResolvedTheme.standard[.focus])          // focused: thumb in the focus style
        #expect(canvas[9, 1].style == ResolvedTheme.standard[.border])
        tree.handleKey(KeyEvent(.end))
        canvas = Canvas(size: Size(width: 10, height: 5))
        tree.render(view, in: canvas.bounds, on: &canvas, isActive: false)
        #expect((0..<5).map { canvas[9, $0].grapheme } == ["│", "│", "│", "│", "┃"])
        #expect(canvas[9, 4].style == ResolvedTheme.standard[.border])         // no focus: calmer
        // Half the content: a thumb half the track.
        canvas = render(lines(10), width: 10, height: 5)
        #expect((0..<5).map { canvas[9, $0].grapheme } == ["┃", "┃", "│", "│", "│"])
        // Content that fits: no bar, the full width for the content.
        canvas = render(ScrollView { Text("0123456789"); Text("b") }, width: 10, height: 5)
        #expect(canvas.lines == ["0123456789", "b", "", "", ""])
        // Without indicators, no bar either.
        canvas = render(ScrollView(showsIndicators: false) { ForEach(0..<20) { Text("line \($0)") } }, width: 10, height: 5)
        #expect(canvas.lines == ["line 0", "line 1", "line 2", "line 3", "line 4"])
    }

    @Test func contentThatFitsTakesNoFocus() {
        let tree = ViewTree()
        var pressed: [String] = []
        // A fitting scroll view is no Tab stop (it would show nothing and do nothing); its
        // widgets still are.
        let fitting = VStack {
            Button("A") { pressed.append("A") }
            ScrollView { Button("B") { pressed.append("B") } }
        }
        _ = render(fitting, width: 10, height: 5, tree: tree)
        #expect(tree.moveFocus())
        tree.handleKey(KeyEvent(.enter))
        #expect(pressed == ["B"])
        #expect(tree.moveFocus())                                          // wraps to A
        tree.handleKey(KeyEvent(.enter))
        #expect(pressed == ["B", "A"])
        // Once it overflows, it is a stop again, between A and B.
        let tall = VStack {
            Button("A") { pressed.append("A") }
            ScrollView { Button("B") { pressed.append("B") }; ForEach(0..<10) { Text("line \($0)") } }
        }
        let tallTree = ViewTree()
        let canvas = render(tall, width: 10, height: 4, tree: tallTree)
        #expect(canvas[9, 1].style == ResolvedTheme.standard[.border])
        #expect(tallTree.moveFocus())
        let focused = render(tall, width: 10, height: 4, tree: tallTree)
        #expect(focused[9, 1].style == ResolvedTheme.standard[.focus])    // the scroll view's thumb
        #expect(tallTree.moveFocus())
        tallTree.handleKey(KeyEvent(.enter))
        #expect(pressed == ["B", "A", "B"])
    }

    @Test func contentIsLaidOutBesideTheBar() {
        // With a bar, text wraps at the width left beside it.
        let canvas = render(ScrollView { Text("aaaa bbbb"); Text("c"); Text("d"); Text("e") }, width: 5, height: 3)
        #expect(canvas.lines == ["aaaa┃", "bbbb│", "c   │"])
    }

    @Test func wheelScrollsWhetherOrNotFocused() {
        let tree = ViewTree()
        var pressed = 0
        let view = VStack {
            Button("Top") { pressed += 1 }
            ScrollView { ForEach(0..<20) { Text("line \($0)") } }
        }
        var canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(canvas.line(0) == "[ Top ]")                               // the button has focus
        #expect(tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 2, y: 2))))
        canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(canvas.line(1).hasPrefix("line 3"))
        tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 2, y: 2)))
        tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 2, y: 2)))
        canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(canvas.line(1).hasPrefix("line 3"))
        tree.handleKey(KeyEvent(.enter))                                   // the wheel did not take focus
        #expect(pressed == 1)
        // Content that fits leaves the wheel alone.
        _ = render(ScrollView { Text("short") }, width: 10, height: 5, tree: tree)
        #expect(!tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 1, y: 0))))
    }

    @Test func clickAndDragOnTheBar() {
        let tree = ViewTree()
        let view = lines(20)        // 15 rows of offset over a 5-cell track
        _ = render(view, width: 10, height: 5, tree: tree)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 9, y: 4))))
        var canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(content(canvas).last == "line 19")
        #expect(tree.handleMouse(MouseEvent(kind: .drag(.left), position: Point(x: 9, y: 2))))
        canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(content(canvas).first == "line 8")
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 9, y: 0))))
        canvas = render(view, width: 10, height: 5, tree: tree)
        #expect(content(canvas).first == "line 0")
        // A click on the content only focuses.
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 3, y: 3))))
        #expect(content(render(view, width: 10, height: 5, tree: tree)).first == "line 0")
    }

    @Test func focusMovingInsideScrollsToTheWidget() {
        let tree = ViewTree()
        let view = ScrollView { ForEach(0..<10) { i in Button("b\(i)") {} } }
        var canvas = render(view, width: 12, height: 3, tree: tree)
        #expect(content(canvas) == ["[ b0 ]", "[ b1 ]", "[ b2 ]"])
        for _ in 0..<6 { tree.moveFocus() }                              // the scroll view, then b0 … b5
        canvas = render(view, width: 12, height: 3, tree: tree)
        #expect(content(canvas) == ["[ b3 ]", "[ b4 ]", "[ b5 ]"])
        #expect(canvas[0, 2].style.attributes.contains(.reverse))           // b5 has focus
        tree.moveFocus(forward: false)                                      // b4: already visible
        canvas = render(view, width: 12, height: 3, tree: tree)
        #expect(content(canvas) == ["[ b3 ]", "[ b4 ]", "[ b5 ]"])
        // Scrolling away from the focused widget is allowed: the view follows only when focus moves.
        tree.handleMouse(MouseEvent(kind: .scrollUp, position: Point(x: 9, y: 1)))
        canvas = render(view, width: 12, height: 3, tree: tree)
        #expect(content(canvas) == ["[ b0 ]", "[ b1 ]", "[ b2 ]"])
        canvas = render(view, width: 12, height: 3, tree: tree)
        #expect(content(canvas) == ["[ b0 ]", "[ b1 ]", "[ b2 ]"])
        tree.focusEdge(first: false)                                        // b9
        canvas = render(view, width: 12, height: 3, tree: tree)
        #expect(content(canvas) == ["[ b7 ]", "[ b8 ]", "[ b9 ]"])
        tree.moveFocus()                                                    // wraps to the scroll view
        tree.moveFocus()                                                    // b0
        canvas = render(view, width: 12, height: 3, tree: tree)
        #expect(content(canvas) == ["[ b0 ]", "[ b1 ]", "[ b2 ]"])
    }

    @Test func widgetsScrolledOutOfSightTakeNoClicks() {
        let tree = ViewTree()
        var pressed: [String] = []
        let view = VStack {
            Button("Top") { pressed.append("top") }
            ScrollView { ForEach(0..<10) { i in Button("b\(i)") { pressed.append("b\(i)") } } }
        }
        _ = render(view, width: 12, height: 4, tree: tree)
        tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 10, y: 2)))
        tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 10, y: 2)))
        let canvas = render(view, width: 12, height: 4, tree: tree)
        #expect(canvas.lines.map { String($0.prefix(6)) } == ["[ Top ", "[ b6 ]", "[ b7 ]", "[ b8 ]"])
        // b5 lies under the top button now, out of sight: the click is the top button's.
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 1, y: 0)))
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 1, y: 2)))
        #expect(pressed == ["top", "b7"])
    }

    @Test func onlyVisibleChildrenAreDrawn() {
        let tree = ViewTree()
        let log = DrawLog()
        let view = ScrollView { ForEach(0..<1000) { Counted(index: $0, log: log) } }
        _ = render(view, width: 10, height: 4, tree: tree)
        #expect(log.drawn == [0, 1, 2, 3])
        tree.handleKey(KeyEvent(.pageDown))
        tree.handleKey(KeyEvent(.char("j")))
        log.drawn = []
        let canvas = render(view, width: 10, height: 4, tree: tree)
        #expect(log.drawn == [5, 6, 7, 8])
        #expect(content(canvas) == ["n5", "n6", "n7", "n8"])
        tree.handleKey(KeyEvent(.end))
        log.drawn = []
        _ = render(view, width: 10, height: 4, tree: tree)
        #expect(log.drawn == [996, 997, 998, 999])
    }

    @Test func horizontalScrolling() {
        let tree = ViewTree()
        let view = ScrollView(.horizontal) { Text("abcdefghij"); Text("klmnop") }
        var canvas = render(view, width: 6, height: 2, tree: tree)
        #expect(canvas.lines == ["abcdef", "━━────"])
        #expect(tree.handleKey(KeyEvent(.char("l"))))
        #expect(tree.handleKey(KeyEvent(.right)))
        canvas = render(view, width: 6, height: 2, tree: tree)
        #expect(canvas.line(0) == "cdefgh")
        tree.handleKey(KeyEvent(.end))
        canvas = render(view, width: 6, height: 2, tree: tree)
        #expect(canvas.lines == ["klmnop", "────━━"])
        #expect(tree.handleKey(KeyEvent(.char("h"))))
        #expect(!tree.handleKey(KeyEvent(.down)))
    }

    @Test func spacingAndGreedyLayout() {
        let canvas = render(VStack {
            ScrollView(spacing: 1) { Text("a"); Text("b") }
            Text("footer")
        }, width: 8, height: 5)
        #expect(canvas.lines == ["a", "", "b", "", "footer"])
        withNode(ScrollView { Text("abc"); Text("12345") }) { node in
            #expect(node.measure(.ideal) == Size(width: 5, height: 2))
            #expect(node.measure(ProposedSize(width: 30, height: 9)) == Size(width: 30, height: 9))
        }
    }

    @Test func disabledScrollViewIgnoresKeys() {
        let tree = ViewTree()
        let view = lines(20).disabled()
        _ = render(view, width: 10, height: 5, tree: tree)
        #expect(!tree.hasFocusableWidgets)
        #expect(!tree.handleKey(KeyEvent(.down)))
        #expect(!tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 1, y: 1))))
    }

    @Test(arguments: [(0, 0), (1, 1), (2, 1), (1, 3), (3, 2)])
    func tinySizesNeverCrash(width: Int, height: Int) {
        for axis in [Axis.vertical, .horizontal] {
            let tree = ViewTree()
            let view = ScrollView(axis) {
                Text("中文 emoji 😀 and more")
                Button("OK") {}
                ForEach(0..<50) { Text("row \($0)") }
                List(count: 100, selection: .constant(3)) { Text("row \($0)") }
            }
            #expect(render(view, width: width, height: height, tree: tree).size == Size(width: width, height: height))
            for key in [KeyCode.down, .pageDown, .end, .right, .up, .home] {
                tree.handleKey(KeyEvent(key))
                tree.moveFocus()
                #expect(render(view, width: width, height: height, tree: tree).size == Size(width: width, height: height))
            }
            tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 0, y: 0)))
            #expect(render(view, width: width, height: height, tree: tree).size == Size(width: width, height: height))
        }
    }

    // MARK: In a box

    @Test func inABoxTheBarLiesOnTheBorderNotBesideIt() {
        // Beside the border the bar read as a double border (`┃│`, `││`). On it, the border is the
        // track, the thumb is drawn over it, and the content keeps every column inside the box.
        let tree = ViewTree()
        let view = Box { lines(20) }
        var canvas = render(view, width: 12, height: 6, tree: tree)
        #expect(canvas.lines == [
            "┌──────────┐",
            "│line 0    ┃",
            "│line 1    │",
            "│line 2    │",
            "│line 3    │",
            "└──────────┘",
        ])
        // The track is the box's border, in its style; the thumb is in the focus style while the
        // scroll view has focus (it takes focus: its content overflows).
        let theme = ResolvedTheme.standard
        #expect(canvas[11, 2].style == theme[.border])
        #expect(canvas[11, 1].style == theme[.focus])
        tree.handleKey(KeyEvent(.end))
        canvas = render(view, width: 12, height: 6, tree: tree)
        #expect(canvas.lines[1...4] == ["│line 16   │", "│line 17   │", "│line 18   │", "│line 19   ┃"])
        // A click on the border's track scrolls there, as on a bar.
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 11, y: 1)))
        canvas = render(view, width: 12, height: 6, tree: tree)
        #expect(canvas.line(1) == "│line 0    ┃")
        // Content that fits: no thumb, the border as it always is, and nothing drawn on it.
        let short = render(Box { lines(2) }, width: 12, height: 6)
        #expect(short.lines == ["┌──────────┐", "│line 0    │", "│line 1    │", "│          │", "│          │", "└──────────┘"])
        #expect(short[11, 1].style == theme[.border])
    }

    @Test func aBoxedHorizontalScrollViewPutsItsBarOnTheBottomBorder() {
        let view = Box { ScrollView(.horizontal) { ForEach(0..<10) { Text("ab\($0) ") } } }
        let canvas = render(view, width: 12, height: 3)
        #expect(canvas.lines == ["┌──────────┐", "│ab0 ab1 ab│", "└━━────────┘"])
    }
}
