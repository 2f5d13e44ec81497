import Synchronization
import Testing
@testable import AppletUI

private typealias Held<T: Sendable> = Ref<T>

@Suite("Tabs")
@MainActor
struct TabsTests {
    @Test func stripThenTheSelectedPage() {
        let tree = ViewTree()
        let page = Held(0)
        var events: [TabsEvent] = []
        let view = Tabs(["One", "Two", "Three"], selection: page.binding) { index in
            Text("page \(index)")
        }.onEvent { (e: TabsEvent) in events.append(e) }
        var canvas = render(view, width: 24, height: 3, tree: tree)
        #expect(canvas.lines == [" One │ Two │ Three", "page 0", ""])
        #expect(tree.handleKey(KeyEvent(.right)))
        canvas = render(view, width: 24, height: 3, tree: tree)
        #expect(canvas.lines == [" One │ Two │ Three", "page 1", ""])
        #expect(tree.handleKey(KeyEvent(.char("l"))))
        #expect(tree.handleKey(KeyEvent(.right)))            // the last page: stays, no event
        #expect(page.value == 2)
        #expect(tree.handleKey(KeyEvent(.char("h"))))
        #expect(tree.handleKey(KeyEvent(.home)))
        #expect(tree.handleKey(KeyEvent(.end)))
        #expect(tree.handleKey(KeyEvent(.left)))
        #expect(page.value == 1)
        #expect(events == [.selected(1), .selected(2), .selected(1), .selected(0), .selected(2), .selected(1)])
        // The digits belong to the host's tabs; Tab, Esc and the rest pass through too.
        for key in [KeyEvent(.char("1")), KeyEvent(.char("2")), KeyEvent(.char("9")), KeyEvent(.tab), KeyEvent(.escape),
                    KeyEvent(.down), KeyEvent(.char("]")), KeyEvent(.right, modifiers: .ctrl)] {
            #expect(!tree.handleKey(key))
        }
        #expect(page.value == 1)
    }

    @Test func onlyTheSelectedPageIsBuilt() {
        var built: [Int] = []
        let page = Held(2)
        let view = Tabs(["A", "B", "C", "D"], selection: page.binding) { index in
            built.append(index)
            return Text("page \(index)")
        }
        let canvas = render(view, width: 20, height: 2)
        #expect(built == [2])
        #expect(canvas.line(1) == "page 2")
    }

    @Test func clickingATitleSelectsIt() {
        let tree = ViewTree()
        let page = Held(0)
        var events: [TabsEvent] = []
        let view = VStack {
            Text("header")
            Tabs(["One", "Two", "Three"], selection: page.binding) { Text("page \($0)") }
        }.onEvent { (e: TabsEvent) in events.append(e) }
        _ = render(view, width: 24, height: 4, tree: tree)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 14, y: 1))))
        #expect(page.value == 2)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 7, y: 1))))
        #expect(page.value == 1)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 7, y: 1))))   // already: no event
        #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 7, y: 2))))  // the page's text
        let canvas = render(view, width: 24, height: 4, tree: tree)
        #expect(canvas.line(2) == "page 1")
        #expect(events == [.selected(2), .selected(1)])
    }

    @Test func widgetsInThePageTakeFocusAfterTheStrip() {
        let tree = ViewTree()
        let page = Held(0)
        var pressed: [String] = []
        let view = Tabs(["Buttons", "Other"], selection: page.binding) { index in
            if index == 0 {
                HStack(spacing: 1) {
                    Button("A") { pressed.append("A") }
                    Button("B") { pressed.append("B") }
                }
            } else {
                Text("nothing here")
            }
        }
        var canvas = render(view, width: 30, height: 3, tree: tree)
        #expect(canvas.lines == [" Buttons │ Other", "[ A ] [ B ]", ""])
        let focus = ResolvedTheme.standard[.focus]
        #expect(canvas[1, 0].style == focus)               // the strip has focus first
        #expect(tree.moveFocus())
        #expect(tree.handleKey(KeyEvent(.enter)))
        #expect(tree.moveFocus())
        #expect(tree.handleKey(KeyEvent(.enter)))
        #expect(pressed == ["A", "B"])
        #expect(!tree.handleKey(KeyEvent(.right)))          // a button does not switch pages
        canvas = render(view, width: 30, height: 3, tree: tree)
        // Without focus the selected title is calmer: the accent, underlined.
        var calm = ResolvedTheme.standard[.accent]
        calm.attributes.insert(.underline)
        #expect(canvas[1, 0].style == calm)
        #expect(canvas[12, 0].style == .plain)
        #expect(canvas[6, 1].style.attributes.contains(.reverse))   // button B has focus
        #expect(!canvas[0, 1].style.attributes.contains(.reverse))
        #expect(tree.moveFocus())                                   // wraps around to the strip
        #expect(tree.handleKey(KeyEvent(.right)))
        canvas = render(view, width: 30, height: 3, tree: tree)
        #expect(canvas.line(1) == "nothing here")
        #expect(!tree.moveFocus())                                  // only the strip is left
    }

    @Test func narrowStripKeepsTheSelectedTitleVisible() {
        let tree = ViewTree()
        let page = Held(0)
        let view = Tabs(["One", "Two", "Three"], selection: page.binding) { Text("page \($0)") }
        var canvas = render(view, width: 12, height: 2, tree: tree)
        #expect(canvas.line(0) == " One │ Two …")
        tree.handleKey(KeyEvent(.end))
        canvas = render(view, width: 12, height: 2, tree: tree)
        #expect(canvas.line(0) == "…│ Three")
        #expect(canvas.line(1) == "page 2")
        // The `…` markers step one page on or back when clicked.
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0)))
        #expect(page.value == 1)
        tree.handleKey(KeyEvent(.home))
        _ = render(view, width: 12, height: 2, tree: tree)
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 11, y: 0)))
        #expect(page.value == 2)
        // A title wider than the strip is cut.
        canvas = render(Tabs(["A very long title"], selection: page.binding) { _ in EmptyView() }, width: 8, height: 1)
        #expect(canvas.line(0) == " A very…")
        canvas = render(Tabs(["日本語", "中文"], selection: .constant(1)) { _ in EmptyView() }, width: 6, height: 1)
        #expect(canvas.line(0).terminalWidth <= 6)
        #expect(canvas.line(0).contains("中"))
    }

    @Test func monochromeShowsTheSelectedTitle() {
        let tree = ViewTree()
        tree.theme = Theme.dark.resolved(for: .none)
        let view = Tabs(["One", "Two"], selection: .constant(1)) { _ in Button("ok") {} }
        _ = render(view, width: 20, height: 2, tree: tree)
        tree.moveFocus()
        let canvas = render(view, width: 20, height: 2, tree: tree)
        #expect(canvas[7, 0].style.attributes.isSuperset(of: [.bold, .underline]))
        #expect(canvas[1, 0].style.attributes.isEmpty)
    }

    @Test func disabledTabsTakeNoFocusNorKeys() {
        let tree = ViewTree()
        let page = Held(0)
        let canvas = render(Tabs(["One", "Two"], selection: page.binding) { _ in Button("ok") {} }.disabled(),
                            width: 20, height: 2, tree: tree)
        #expect(!tree.hasFocusableWidgets)
        #expect(!tree.handleKey(KeyEvent(.right)))
        #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 7, y: 0))))
        #expect(page.value == 0)
        #expect(canvas.lines == [" One │ Two", "[ ok ]"])
        #expect(canvas[1, 0].style.attributes.contains(.dim))
    }

    @Test func sizesAndTinyFrames() {
        let page = Held(5)   // out of range: the last page shows
        let view = Tabs(["One", "Two"], selection: page.binding) { Text("page \($0)") }
        #expect(render(view, width: 0, height: 0).lines == [])
        #expect(render(view, width: 1, height: 1).lines == ["…"])
        #expect(render(view, width: 3, height: 1).lines == [" T…"])
        #expect(render(view, width: 3, height: 0).lines == [])
        #expect(render(view, width: 20, height: 3).lines == [" One │ Two", "page 1", ""])
        // Ideal size: the strip over the page; offered sizes are taken whole.
        withNode(view) { node in
            #expect(node.measure(.ideal) == Size(width: 11, height: 2))
            #expect(node.measure(ProposedSize(width: 30, height: 9)) == Size(width: 30, height: 9))
        }
        // No titles: nothing to draw or focus.
        let tree = ViewTree()
        #expect(render(Tabs([], selection: page.binding) { Text("page \($0)") }, width: 10, height: 2, tree: tree).lines == ["", ""])
        #expect(!tree.hasFocusableWidgets)
    }

    @Test func eachPageKeepsItsOwnWidgetState() {
        let tree = ViewTree()
        let page = Held(0)
        let rows = [Held(0), Held(0)]
        let view = Tabs(["A", "B"], selection: page.binding) { index in
            List(count: 100, selection: rows[index].binding) { Text("\(index):\($0)") }
        }
        _ = render(view, width: 10, height: 4, tree: tree)
        tree.moveFocus()
        for _ in 0..<10 { tree.handleKey(KeyEvent(.down)) }
        _ = render(view, width: 10, height: 4, tree: tree)
        for _ in 0..<2 { tree.handleKey(KeyEvent(.up)) }      // back inside the window: no scrolling
        var canvas = render(view, width: 10, height: 4, tree: tree)
        #expect(canvas.lines.dropFirst() == ["0:8", "0:9", "0:10"])
        tree.moveFocus()
        tree.handleKey(KeyEvent(.right))
        canvas = render(view, width: 10, height: 4, tree: tree)
        #expect(canvas.lines.dropFirst() == ["1:0", "1:1", "1:2"])
        tree.handleKey(KeyEvent(.left))
        canvas = render(view, width: 10, height: 4, tree: tree)
        #expect(canvas.lines.dropFirst() == ["0:8", "0:9", "0:10"])
    }
}
