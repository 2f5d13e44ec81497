import Synchronization
import Testing
@testable import AppletUI

private typealias Held<T: Sendable> = Ref<T>

@Suite("Toggle and Checkbox")
@MainActor
struct ToggleTests {
    @Test func toggleDrawsItsStateAndFlipsWithSpaceAndEnter() {
        let tree = ViewTree()
        let on = Held(false)
        var events: [ToggleEvent] = []
        let view = Toggle("Wrap", isOn: on.binding).onEvent { (e: ToggleEvent) in events.append(e) }
        var canvas = render(view, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "◯━━ Wrap")
        #expect(tree.handleKey(KeyEvent(.char(" "))))
        #expect(on.value == true)
        canvas = render(view, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "━━◉ Wrap")
        #expect(tree.handleKey(KeyEvent(.enter)))
        #expect(on.value == false)
        #expect(events == [.changed(true), .changed(false)])
    }

    @Test func checkboxDrawsItsStateAndFlips() {
        let tree = ViewTree()
        let on = Held(false)
        var events: [ToggleEvent] = []
        let view = Checkbox("Hidden files", isOn: on.binding).onEvent { (e: ToggleEvent) in events.append(e) }
        var canvas = render(view, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "[ ] Hidden files")
        tree.handleKey(KeyEvent(.char(" ")))
        canvas = render(view, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "[x] Hidden files")
        #expect(events == [.changed(true)])
    }

    @Test func otherKeysPassThrough() {
        let tree = ViewTree()
        let on = Held(false)
        _ = render(Toggle("Wrap", isOn: on.binding), width: 20, height: 1, tree: tree)
        for key in [KeyEvent(.tab), KeyEvent(.tab, modifiers: .shift), KeyEvent(.escape), KeyEvent(.char("c"), modifiers: .ctrl),
                    KeyEvent(.char("x")), KeyEvent(.char(" "), modifiers: .ctrl), KeyEvent(.down)] {
            #expect(!tree.handleKey(key))
        }
        #expect(on.value == false)
    }

    @Test func clickFlips() {
        let tree = ViewTree()
        let on = Held(false)
        var events: [ToggleEvent] = []
        let view = VStack {
            Text("header")
            Checkbox("Beep", isOn: on.binding)
        }.onEvent { (e: ToggleEvent) in events.append(e) }
        _ = render(view, width: 20, height: 3, tree: tree)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 6, y: 1))))
        #expect(on.value == true)
        #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 6, y: 2))))   // below it
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 1))))
        #expect(on.value == false)
        #expect(events == [.changed(true), .changed(false)])
    }

    @Test func focusedMarkerUsesTheFocusStyle() {
        let tree = ViewTree()
        let view = VStack {
            Toggle("A", isOn: .constant(true))
            Checkbox("B", isOn: .constant(false))
        }
        var canvas = render(view, width: 10, height: 2, tree: tree)
        let focus = ResolvedTheme.standard[.focus]
        #expect(canvas[0, 0].style == focus)
        #expect(canvas[4, 0].style == .plain)             // the title keeps the text style
        #expect(canvas[0, 1].style == .plain)             // not focused: calm
        tree.moveFocus()
        canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(canvas[0, 1].style == focus)
        #expect(canvas[0, 0].style == ResolvedTheme.standard[.accent])   // an unfocused switch that is on
        // An inactive pane shows no focus.
        var inactive = Canvas(size: Size(width: 10, height: 2))
        tree.render(view, in: inactive.bounds, on: &inactive, isActive: false)
        #expect(inactive[0, 1].style == .plain)
    }

    @Test func monochromeStatesDifferInText() {
        let tree = ViewTree()
        tree.theme = Theme.dark.resolved(for: .none)
        let offSwitch = render(Toggle("Wrap", isOn: .constant(false)), width: 10, height: 1, tree: tree)
        let onSwitch = render(Toggle("Wrap", isOn: .constant(true)), width: 10, height: 1, tree: tree)
        #expect(offSwitch.line(0) != onSwitch.line(0))
        #expect(offSwitch.line(0).contains("◯") && onSwitch.line(0).contains("◉"))
        let unchecked = render(Checkbox("X", isOn: .constant(false)), width: 10, height: 1, tree: tree)
        let checked = render(Checkbox("X", isOn: .constant(true)), width: 10, height: 1, tree: tree)
        #expect(unchecked.line(0) != checked.line(0))
        // Focus shows without colour too.
        #expect(checked[0, 0].style.attributes.contains(.reverse))
    }

    @Test func disabledTakesNoFocusAndNoKeys() {
        let tree = ViewTree()
        let on = Held(false)
        let canvas = render(VStack {
            Toggle("Wrap", isOn: on.binding).disabled()
            Checkbox("Beep", isOn: on.binding).disabled()
        }, width: 20, height: 2, tree: tree)
        #expect(!tree.hasFocusableWidgets)
        #expect(!tree.handleKey(KeyEvent(.char(" "))))
        #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0))))
        #expect(on.value == false)
        #expect(canvas.line(0) == "◯━━ Wrap")
        #expect(canvas[0, 0].style.attributes.contains(.dim))
    }

    @Test func titlesAreCutToTheWidth() {
        #expect(render(Checkbox("Show hidden files", isOn: .constant(true)), width: 10, height: 1).line(0) == "[x] Show …")
        #expect(render(Toggle("日本語", isOn: .constant(true)), width: 8, height: 1).line(0) == "━━◉ 日…")
        #expect(render(Toggle("", isOn: .constant(true)), width: 8, height: 1).line(0) == "━━◉")
        withNode(Toggle("Wrap", isOn: .constant(true))) { node in
            #expect(node.measure(.ideal) == Size(width: 8, height: 1))
            #expect(node.measure(ProposedSize(width: 3, height: 5)) == Size(width: 3, height: 1))
        }
    }

    @Test func tinySizes() {
        let tree = ViewTree()
        let on = Held(true)
        #expect(render(Toggle("Wrap", isOn: on.binding), width: 0, height: 0, tree: tree).lines == [])
        #expect(render(Toggle("Wrap", isOn: on.binding), width: 1, height: 1, tree: tree).lines == ["━"])
        #expect(render(Checkbox("Beep", isOn: on.binding), width: 1, height: 1).lines == ["["])
        #expect(render(Checkbox("Beep", isOn: on.binding), width: 4, height: 1).lines == ["[x]"])
    }
}
