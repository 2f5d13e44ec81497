import Synchronization
import Testing
@testable import AppletKit
@testable import AppletState

extension Application {
    var splitLeft: State<Int> { state(initial: 0, feature: "SplitTest", id: "left") }
    var splitRight: State<Int> { state(initial: 0, feature: "SplitTest", id: "right") }
}

final class EvaluationCount: Sendable {
    let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
}

/// A pane that shows one value and counts its evaluations.
struct ValuePane: Applet {
    let id: String
    var title: String { id }
    let key: KeyPath<Application, Application.State<Int>>
    let evaluations: EvaluationCount
    var body: some View {
        evaluations.value.withLock { $0 += 1 }
        return VStack {
            Text("\(id): \(Application.state(key).value)")
            ForEach(0..<20) { i in Text("filler line \(i)") }
        }
    }
}

@Suite("Host: per-pane frames")
@MainActor
struct IncrementalHostTests {
    @Test func aChangeInOnePaneEvaluatesThatPaneAndWritesOneCell() throws {
        let app = Application()
        let left = EvaluationCount(), right = EvaluationCount()
        let terminal = HeadlessTerminal(width: 100, height: 30)
        let host = try AppletHost(tabs: [
            Tab("Split", split: .horizontal, [
                ValuePane(id: "left", key: \.splitLeft, evaluations: left),
                ValuePane(id: "right", key: \.splitRight, evaluations: right),
            ]),
        ], application: app, terminal: terminal)
        try host.start()
        #expect(terminal.lines[1].hasPrefix("left: 0"))
        #expect(left.count == 1 && right.count == 1)
        app.splitRight.value = 5
        host.setNeedsDisplay()
        host.renderIfNeeded()
        #expect(terminal.lastWriteCount == 1)
        #expect(terminal.lines[1].contains("right: 5"))
        #expect(left.count == 1 && right.count == 2)
        // The footer and tab bar do not change; nothing was evaluated for a frame with no change.
        host.setNeedsDisplay()
        host.renderIfNeeded()
        #expect(terminal.lastWriteCount == 0)
        #expect(left.count == 1 && right.count == 2)
        // Chrome changes (the help overlay) redraw every pane underneath when it closes.
        terminal.send(.key(KeyEvent(.char("?"))))
        host.renderIfNeeded()
        #expect(terminal.text.contains("Keys: Split"))
        terminal.send(.key(KeyEvent(.escape)))
        host.renderIfNeeded()
        #expect(!terminal.text.contains("Keys: Split"))
        #expect(terminal.lines[1].hasPrefix("left: 0"))
        #expect(terminal.lines[5].contains("filler line 3"))
    }
}
