import Synchronization
import Testing
@testable import AppletUI

private typealias Held<T: Sendable> = Ref<T>

@Suite("RadioGroup")
@MainActor
struct RadioGroupTests {
    @Test func verticalArrowsMoveAndSelect() {
        let tree = ViewTree()
        let selection = Held(0)
        var events: [RadioGroupEvent] = []
        let view = RadioGroup(["One", "Two", "Three"], selection: selection.binding)
            .onEvent { (e: RadioGroupEvent) in events.append(e) }
        var canvas = render(view, width: 12, height: 3, tree: tree)
        #expect(canvas.lines == ["(•) One", "( ) Two", "( ) Three"])
        #expect(tree.handleKey(KeyEvent(.down)))
        #expect(selection.value == 1)
        #expect(tree.handleKey(KeyEvent(.char("j"))))
        #expect(selection.value == 2)
        canvas = render(view, width: 12, height: 3, tree: tree)
        #expect(canvas.lines == ["( ) One", "( ) Two", "(•) Three"])
        #expect(tree.handleKey(KeyEvent(.down)))            // stops at the end, no event
        #expect(tree.handleKey(KeyEvent(.char("k"))))
        #expect(tree.handleKey(KeyEvent(.up)))
        #expect(selection.value == 0)
        #expect(tree.handleKey(KeyEvent(.end)))
        #expect(tree.handleKey(KeyEvent(.home)))
        #expect(events == [.selected(1), .selected(2), .selected(1), .selected(0), .selected(2), .selected(0)])
        // The other axis and unknown keys pass through.
        for key in [KeyEvent(.left), KeyEvent(.right), KeyEvent(.char("h")), KeyEvent(.char("l")), KeyEvent(.tab),
                    KeyEvent(.escape), KeyEvent(.char("1")), KeyEvent(.down, modifiers: .ctrl)] {
            #expect(!tree.handleKey(key))
        }
    }

    @Test func horizontalUsesLeftAndRight() {
        let tree = ViewTree()
        let selection = Held(0)
        let view = RadioGroup(["Low", "Mid", "High"], selection: selection.binding, axis: .horizontal)
        var canvas = render(view, width: 30, height: 1, tree: tree)
        #expect(canvas.line(0) == "(•) Low  ( ) Mid  ( ) High")
        #expect(tree.handleKey(KeyEvent(.right)))
        #expect(tree.handleKey(KeyEvent(.char("l"))))
        canvas = render(view, width: 30, height: 1, tree: tree)
        #expect(canvas.line(0) == "( ) Low  ( ) Mid  (•) High")
        #expect(tree.handleKey(KeyEvent(.char("h"))))
        #expect(tree.handleKey(KeyEvent(.left)))
        #expect(selection.value == 0)
        #expect(!tree.handleKey(KeyEvent(.down)))
        #expect(!tree.handleKey(KeyEvent(.char("j"))))
    }

    @Test func spaceSelectsTheHighlightedOptionWhenNoneIsSelected() {
        let tree = ViewTree()
        let selection = Held(-1)
        var events: [RadioGroupEvent] = []
        let view = RadioGroup(["A", "B"], selection: selection.binding).onEvent { (e: RadioGroupEvent) in events.append(e) }
        var canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(canvas.lines == ["( ) A", "( ) B"])
        #expect(canvas[0, 0].style == ResolvedTheme.standard[.focus])     // where the highlight is
        #expect(tree.handleKey(KeyEvent(.char(" "))))
        #expect(selection.value == 0)
        canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(canvas.lines == ["(•) A", "( ) B"])
        #expect(tree.handleKey(KeyEvent(.enter)))                       // already selected: no event
        #expect(events == [.selected(0)])
    }

    @Test func clicksSelect() {
        let tree = ViewTree()
        let selection = Held(0)
        var events: [RadioGroupEvent] = []
        let vertical = RadioGroup(["One", "Two", "Three"], selection: selection.binding)
            .onEvent { (e: RadioGroupEvent) in events.append(e) }
        _ = render(vertical, width: 12, height: 3, tree: tree)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 5, y: 2))))
        #expect(selection.value == 2)
        let horizontalTree = ViewTree()
        let horizontal = RadioGroup(["Low", "Mid", "High"], selection: selection.binding, axis: .horizontal)
            .onEvent { (e: RadioGroupEvent) in events.append(e) }
        _ = render(horizontal, width: 30, height: 1, tree: horizontalTree)
        #expect(horizontalTree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 10, y: 0))))
        #expect(selection.value == 1)
        #expect(!horizontalTree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 7, y: 0))))   // the gap
        #expect(events == [.selected(2), .selected(1)])
    }

    @Test func focusAndMonochrome() {
        let tree = ViewTree()
        tree.theme = Theme.dark.resolved(for: .none)
        let selection = Held(1)
        let view = RadioGroup(["A", "B"], selection: selection.binding)
        let canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(canvas.lines == ["( ) A", "(•) B"])        // the choice reads without colour
        #expect(canvas[0, 1].style.attributes.contains(.reverse))
        #expect(!canvas[0, 0].style.attributes.contains(.reverse))
        var inactive = Canvas(size: Size(width: 10, height: 2))
        tree.render(view, in: inactive.bounds, on: &inactive, isActive: false)
        #expect(inactive[0, 1].style == .plain)
    }

    @Test func shortGroupScrollsToTheHighlight() {
        let tree = ViewTree()
        let selection = Held(0)
        let view = RadioGroup(["A", "B", "C", "D"], selection: selection.binding)
        _ = render(view, width: 10, height: 2, tree: tree)
        tree.handleKey(KeyEvent(.end))
        var canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(canvas.lines == ["( ) C", "(•) D"])
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0)))
        #expect(selection.value == 2)
        tree.handleKey(KeyEvent(.home))
        canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(canvas.lines == ["(•) A", "( ) B"])
    }

    @Test func narrowHorizontalGroupKeepsTheSelectionVisible() {
        let tree = ViewTree()
        let selection = Held(0)
        let view = RadioGroup(["Alpha", "Beta", "Gamma"], selection: selection.binding, axis: .horizontal)
        var canvas = render(view, width: 16, height: 1, tree: tree)
        #expect(canvas.line(0) == "(•) Alpha  ( ) …")
        tree.handleKey(KeyEvent(.end))
        canvas = render(view, width: 16, height: 1, tree: tree)
        #expect(canvas.line(0).hasSuffix("(•) Gamma"))
        #expect(canvas.line(0).hasPrefix("…"))
        #expect(canvas.line(0).terminalWidth <= 16)
    }

    @Test func disabledTakesNoFocusAndNoKeys() {
        let tree = ViewTree()
        let selection = Held(0)
        let canvas = render(RadioGroup(["A", "B"], selection: selection.binding).disabled(), width: 10, height: 2, tree: tree)
        #expect(!tree.hasFocusableWidgets)
        #expect(!tree.handleKey(KeyEvent(.down)))
        #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 1))))
        #expect(selection.value == 0)
        #expect(canvas.lines == ["(•) A", "( ) B"])
        #expect(canvas[0, 0].style.attributes.contains(.dim))
    }

    @Test func tinySizesAndNoOptions() {
        let selection = Held(0)
        for axis in [Axis.vertical, .horizontal] {
            let view = RadioGroup(["One", "二つ"], selection: selection.binding, axis: axis)
            #expect(render(view, width: 0, height: 0).lines == [])
            #expect(render(view, width: 1, height: 1).lines == ["("])
            #expect(render(view, width: 5, height: 1).lines[0].terminalWidth <= 5)
        }
        #expect(render(RadioGroup(["二つ"], selection: selection.binding), width: 6, height: 1).line(0) == "(•) …")
        let tree = ViewTree()
        #expect(render(RadioGroup([], selection: selection.binding), width: 10, height: 2, tree: tree).lines == ["", ""])
        #expect(!tree.hasFocusableWidgets)
        #expect(!tree.handleKey(KeyEvent(.down)))
        #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0))))
    }
}
