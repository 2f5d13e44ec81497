import Synchronization
import Testing
@testable import AppletUI

private typealias RatioBox = Ref<Double>

@Suite("SplitView")
@MainActor
struct SplitViewTests {
    private func columnOfDivider(_ canvas: Canvas, row: Int = 0) -> Int? {
        (0..<canvas.size.width).first { canvas[$0, row].grapheme == "│" }
    }

    @Test func horizontalSplitSharesByRatio() {
        let ratio = RatioBox(0.5)
        let split = SplitView(ratio: ratio.binding) { Text("left") } second: { Text("right") }
        let canvas = render(split, width: 11, height: 2)
        #expect(canvas.lines == ["left │right", "     │"])
        // 0.3 of the 10 cells beside the divider.
        let third = render(SplitView(ratio: RatioBox(0.3).binding) { Text("a") } second: { Text("b") }, width: 11, height: 1)
        #expect(third.line(0) == "a  │b")
    }

    @Test func verticalSplit() {
        let split = SplitView(.vertical, ratio: RatioBox(0.25).binding) { Text("top") } second: { Text("bottom") }
        let canvas = render(split, width: 6, height: 9)
        #expect(canvas.lines == ["top", "", "──────", "bottom", "", "", "", "", ""])
    }

    @Test func panesContentIsCutToThePane() {
        let split = SplitView(ratio: RatioBox(0.5).binding) { Text("abcdefgh").lineLimit(1) } second: { Text("xyz") }
        #expect(render(split, width: 9, height: 1).line(0) == "abc…│xyz")
    }

    @Test func minimumsAndOddRatios() {
        func firstLength(_ ratio: Double, width: Int, minimum: Int = 1) -> Int? {
            let split = SplitView(ratio: RatioBox(ratio).binding, minimum: minimum) { Text("") } second: { Text("") }
            return columnOfDivider(render(split, width: width, height: 1))
        }
        #expect(firstLength(0, width: 11) == 1)
        #expect(firstLength(1, width: 11) == 9)
        #expect(firstLength(0, width: 11, minimum: 0) == 0)
        #expect(firstLength(1, width: 11, minimum: 0) == 10)
        #expect(firstLength(.nan, width: 11) == 5)
        #expect(firstLength(-3, width: 11) == 1)
        #expect(firstLength(7, width: 11) == 9)
        #expect(firstLength(.infinity, width: 11) == 9)
        #expect(firstLength(0.1, width: 11, minimum: 3) == 3)
        #expect(firstLength(0.9, width: 11, minimum: 3) == 7)
        // No room for both minimums: the first keeps its minimum, the second gets the rest.
        #expect(firstLength(0.5, width: 5, minimum: 3) == 3)
        #expect(firstLength(0.5, width: 2, minimum: 3) == 1)
        #expect(firstLength(0.5, width: 1, minimum: 3) == 0)
    }

    @Test func keysMoveTheDividerOneCellAndUpdateTheBinding() {
        let tree = ViewTree()
        let ratio = RatioBox(0.5)
        var events: [SplitViewEvent] = []
        let split = SplitView(ratio: ratio.binding) { Text("left") } second: { Text("right") }
            .onEvent { (event: SplitViewEvent) in events.append(event) }
        var canvas = render(split, width: 11, height: 1, tree: tree)
        #expect(canvas[5, 0].style == ResolvedTheme.standard[.focus])     // the divider has focus
        #expect(tree.handleKey(KeyEvent(.left)))
        #expect(ratio.current == 0.4)
        canvas = render(split, width: 11, height: 1, tree: tree)
        #expect(canvas.line(0) == "left│right")
        #expect(tree.handleKey(KeyEvent(.char("l"))))
        #expect(tree.handleKey(KeyEvent(.right)))
        canvas = render(split, width: 11, height: 1, tree: tree)
        #expect(ratio.current == 0.6)
        #expect(columnOfDivider(canvas) == 6)
        #expect(tree.handleKey(KeyEvent(.char("h"))))
        #expect(tree.handleKey(KeyEvent(.char("h"))))
        #expect(tree.handleKey(KeyEvent(.char("="))))
        #expect(ratio.current == 0.5)
        #expect(tree.handleKey(KeyEvent(.char("="))))             // already there: no event
        #expect(events == [.resized(0.4), .resized(0.5), .resized(0.6), .resized(0.5), .resized(0.4), .resized(0.5)])
        // Keys it does not know pass on; so do up and down in a side-by-side split.
        #expect(!tree.handleKey(KeyEvent(.tab)))
        #expect(!tree.handleKey(KeyEvent(.up)))
        #expect(!tree.handleKey(KeyEvent(.char("x"))))
        #expect(!tree.handleKey(KeyEvent(.left, modifiers: .ctrl)))
    }

    @Test func keysStopAtTheMinimum() {
        let tree = ViewTree()
        let ratio = RatioBox(0.5)
        var events: [SplitViewEvent] = []
        let split = SplitView(.vertical, ratio: ratio.binding, minimum: 2) { Text("a") } second: { Text("b") }
            .onEvent { (event: SplitViewEvent) in events.append(event) }
        _ = render(split, width: 4, height: 7, tree: tree)      // 6 rows to share: 3 and 3
        for _ in 0..<5 { #expect(tree.handleKey(KeyEvent(.char("k")))) }
        let canvas = render(split, width: 4, height: 7, tree: tree)
        #expect(canvas.lines == ["a", "", "────", "b", "", "", ""])
        #expect(events == [.resized(2.0 / 6.0)])
        tree.handleKey(KeyEvent(.down))
        tree.handleKey(KeyEvent(.char("j")))
        #expect(ratio.current == 4.0 / 6.0)
        #expect(!tree.handleKey(KeyEvent(.left)))
    }

    @Test func focusOrderAndClicks() {
        let tree = ViewTree()
        var pressed: [String] = []
        let split = SplitView(ratio: RatioBox(0.5).binding) {
            Button("A") { pressed.append("A") }
        } second: {
            Button("B") { pressed.append("B") }
        }
        var canvas = render(split, width: 13, height: 2, tree: tree)
        #expect(canvas.lines == ["[ A ] │[ B ]", "      │"])
        #expect(canvas[6, 0].style == ResolvedTheme.standard[.border])    // A has focus, not the divider
        tree.moveFocus()
        canvas = render(split, width: 13, height: 2, tree: tree)
        #expect(canvas[6, 0].style == ResolvedTheme.standard[.focus])
        tree.moveFocus()
        tree.handleKey(KeyEvent(.enter))
        #expect(pressed == ["B"])
        // A click on the divider focuses it.
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 6, y: 1))))
        canvas = render(split, width: 13, height: 2, tree: tree)
        #expect(canvas[6, 1].style == ResolvedTheme.standard[.focus])
        #expect(tree.handleKey(KeyEvent(.right)))
    }

    @Test func dragMovesTheDividerToThePointer() throws {
        let tree = ViewTree()
        let ratio = RatioBox(0.5)
        var events: [SplitViewEvent] = []
        let split = SplitView(ratio: ratio.binding) { Text("a") } second: { Text("b") }
            .onEvent { (event: SplitViewEvent) in events.append(event) }
        try withNode(split, tree: tree) { node in
            node.place(in: Rect(x: 3, y: 0, width: 11, height: 2))
            let divider = try #require(node.children.compactMap { $0 as? SplitDividerNode }.first)
            #expect(divider.frame == Rect(x: 8, y: 0, width: 1, height: 2))
            #expect(divider.handleMouse(MouseEvent(kind: .drag(.left), position: Point(x: 5, y: 1))))
            #expect(ratio.current == 0.2)
            #expect(divider.handleMouse(MouseEvent(kind: .drag(.left), position: Point(x: 40, y: 1))))
            #expect(ratio.current == 0.9)            // clamped: the second pane keeps one cell
            #expect(events == [.resized(0.2), .resized(0.9)])
            #expect(!divider.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 8, y: 0))))
        }
    }

    @Test func disabledSplitTakesNoFocusOrKeys() {
        let tree = ViewTree()
        let ratio = RatioBox(0.5)
        let split = SplitView(ratio: ratio.binding) { Text("a") } second: { Text("b") }.disabled()
        _ = render(split, width: 11, height: 1, tree: tree)
        #expect(!tree.hasFocusableWidgets)
        #expect(!tree.handleKey(KeyEvent(.left)))
        #expect(ratio.current == 0.5)
    }

    @Test(arguments: [(0, 0), (1, 1), (2, 1), (1, 3), (3, 3)])
    func tinySizesNeverCrash(width: Int, height: Int) {
        let values: [Double] = [0, 1, 0.5, .nan, -.infinity, .infinity]
        for value in values {
            for axis in [Axis.horizontal, .vertical] {
                let tree = ViewTree()
                let ratio = RatioBox(value)
                let split = SplitView(axis, ratio: ratio.binding, minimum: 2) {
                    Text("中文 😀 text")
                } second: {
                    List(count: 100, selection: .constant(3)) { Text("row \($0)") }
                }
                #expect(render(split, width: width, height: height, tree: tree).size == Size(width: width, height: height))
                tree.focusEdge(first: true)        // the divider
                for key in [KeyCode.left, .right, .up, .down, .char("=")] { tree.handleKey(KeyEvent(key)) }
                #expect(render(split, width: width, height: height, tree: tree).size == Size(width: width, height: height))
                #expect(ratio.current == 0.5)      // `=` came last
            }
        }
    }

    @Test func aPaneOfOnlyHiddenWidgetsTakesNoSpace() throws {
        // A hidden pane left an empty half behind its divider: hidden means it takes no space.
        try Application.withCurrent(Application()) {
            let manager = WidgetManager("split-panes", widgets: ["tree": .visible])
            let ratio = RatioBox(0.5)
            let tree = ViewTree()
            let split = SplitView(ratio: ratio.binding) {
                Text("left")
            } second: {
                VStack { Text("Heading"); Text("tree") }.widget("tree", in: manager)
            }
            #expect(render(split, width: 21, height: 2, tree: tree).lines == ["left      │Heading", "          │tree"])
            try manager.hide("tree")
            let alone = render(split, width: 21, height: 2, tree: tree)
            #expect(alone.lines == ["left", ""])
            #expect(columnOfDivider(alone) == nil)
            #expect(!tree.focusables.contains { $0 is SplitDividerNode }, "the divider of a collapsed split takes no focus")
            // The ratio is kept for when the pane comes back.
            try manager.show("tree")
            #expect(render(split, width: 21, height: 2, tree: tree).line(0) == "left      │Heading")
            #expect(ratio.value == 0.5)
        }
    }
}
