import Testing
@testable import AppletUI

@Suite("Button")
@MainActor
struct ButtonTests {
    @Test func activationRunsTheActionThenSendsPressed() {
        let tree = ViewTree()
        var log: [String] = []
        let view = Button("Go") { log.append("action") }
            .onEvent { (e: ButtonEvent) in log.append("event \(e)") }
        let canvas = render(view, width: 10, height: 1, tree: tree)
        #expect(canvas.line(0) == "[ Go ]")
        #expect(tree.handleKey(KeyEvent(.enter)))
        #expect(tree.handleKey(KeyEvent(.char(" "))))
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 0))))
        #expect(log == ["action", "event pressed", "action", "event pressed", "action", "event pressed"])
        #expect(!tree.handleKey(KeyEvent(.char("x"))))
        #expect(!tree.handleKey(KeyEvent(.tab)))
        #expect(log.count == 6)
    }

    @Test func disabledButtonSendsNothing() {
        let tree = ViewTree()
        var events: [ButtonEvent] = []
        let view = Button("Go") {}.disabled().onEvent { (e: ButtonEvent) in events.append(e) }
        _ = render(view, width: 10, height: 1, tree: tree)
        #expect(!tree.handleKey(KeyEvent(.enter)))
        #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 0))))
        #expect(events.isEmpty)
    }
}
