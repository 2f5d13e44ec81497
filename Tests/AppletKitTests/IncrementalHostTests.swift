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

extension IncrementalHostTests {
    private func twoTabs(_ app: Application, _ one: EvaluationCount, _ two: EvaluationCount,
                         _ terminal: HeadlessTerminal) throws -> AppletHost {
        try AppletHost(tabs: [
            Tab("One", [ValuePane(id: "one", key: \.splitLeft, evaluations: one)]),
            Tab("Two", [ValuePane(id: "two", key: \.splitRight, evaluations: two)]),
        ], application: app, terminal: terminal)
    }

    private func press(_ character: Character, on terminal: HeadlessTerminal, _ host: AppletHost) {
        terminal.send(.key(KeyEvent(.char(character))))
        host.renderIfNeeded()
    }

    @Test func aTabShownAgainPutsBackWhatItDrewWithoutEvaluatingItsPanes() throws {
        let app = Application()
        let one = EvaluationCount(), two = EvaluationCount()
        let terminal = HeadlessTerminal(width: 100, height: 30)
        let host = try twoTabs(app, one, two, terminal)
        try host.start()
        let firstScreen = terminal.text
        #expect(terminal.lines[1].hasPrefix("one: 0"))
        press("2", on: terminal, host)
        #expect(terminal.lines[1].hasPrefix("two: 0"))
        #expect(terminal.lines[5].contains("filler line 3"))
        press("1", on: terminal, host)
        #expect(terminal.text == firstScreen)
        press("2", on: terminal, host)
        #expect(terminal.lines[1].hasPrefix("two: 0"))
        #expect(terminal.lines[21].contains("filler line 19"))
        // Each pane was evaluated once, when first shown; coming back put its cells back.
        #expect(one.count == 1 && two.count == 1)
    }

    @Test func aTabWhoseStateChangedWhileHiddenIsEvaluatedWhenShownAgain() throws {
        let app = Application()
        let one = EvaluationCount(), two = EvaluationCount()
        let terminal = HeadlessTerminal(width: 100, height: 30)
        let host = try twoTabs(app, one, two, terminal)
        try host.start()
        press("2", on: terminal, host)
        app.splitLeft.value = 7
        host.renderIfNeeded()
        #expect(terminal.lines[1].hasPrefix("two: 0"))
        press("1", on: terminal, host)
        #expect(terminal.lines[1].hasPrefix("one: 7"))
        #expect(terminal.lines[5].contains("filler line 3"))
        #expect(one.count == 2 && two.count == 1)
        // Kept cells are dropped once stale: back and forth again shows 7, not the 0 kept before.
        press("2", on: terminal, host)
        press("1", on: terminal, host)
        #expect(terminal.lines[1].hasPrefix("one: 7"))
        #expect(one.count == 2)
    }

    @Test func aTabLeftWithAnOverlayOpenIsDrawnAgainNotPutBackWithTheOverlay() throws {
        let app = Application()
        let one = EvaluationCount(), two = EvaluationCount()
        let terminal = HeadlessTerminal(width: 100, height: 30)
        let host = try twoTabs(app, one, two, terminal)
        try host.start()
        // A toast sits over the panes: what tab 1 shows then is not what its pane drew.
        app.toast("saved", style: .info)
        host.setNeedsDisplay()
        host.renderIfNeeded()
        #expect(terminal.text.contains("saved"))
        press("2", on: terminal, host)
        app.toasts.modify { $0.removeAll() }
        host.renderIfNeeded()
        press("1", on: terminal, host)
        #expect(!terminal.text.contains("saved"))
        #expect(terminal.lines[1].hasPrefix("one: 0"))
        #expect(terminal.lines[20].contains("filler line 18"))
    }
}

extension Application {
    var cachedArchiveEnabled: State<Bool> { state(initial: false, feature: "RegistryCacheTest", id: "archive") }
    var cachedTally: State<Int> { state(initial: 0, feature: "RegistryCacheTest", id: "tally") }
}

/// An applet whose command list reads state (`a` exists only while archiving is on) and counts
/// how often it is made.
struct CountingCommandsApplet: Applet {
    let id = "counting"
    let title = "Counting"
    let made: EvaluationCount
    var body: some View { Text("tally \(Application.state(\.cachedTally).value)") }
    var commands: [Command] {
        made.value.withLock { $0 += 1 }
        var list = [Command("+", "Add") { Application.state(\.cachedTally).value += 1 }]
        if Application.state(\.cachedArchiveEnabled).value {
            list.append(Command("a", "Archive") { Application.state(\.cachedTally).value = 0 })
        }
        return list
    }
}

@Suite("Host: the registry and chrome between frames")
@MainActor
struct RegistryCacheHostTests {
    @Test func commandsAreMadeAgainOnlyWhenWhatTheyReadChanges() throws {
        let app = Application()
        let made = EvaluationCount()
        let terminal = HeadlessTerminal(width: 80, height: 12)
        let host = try AppletHost(tabs: [Tab(CountingCommandsApplet(made: made))], application: app, terminal: terminal)
        try host.start()
        let afterStart = made.count
        #expect(terminal.lines.last?.contains("+ Add") == true)
        #expect(terminal.lines.last?.contains("Archive") == false)
        // Keys that change state the commands do not read: routed and drawn from the same list.
        for _ in 0..<5 {
            terminal.send(.key(KeyEvent(.char("+"))))
            host.renderIfNeeded()
        }
        #expect(terminal.lines[1].contains("tally 5"))
        #expect(made.count == afterStart)
        // State the command list read changes, from outside any key: the footer shows the new
        // command and its key works.
        app.cachedArchiveEnabled.value = true
        host.setNeedsDisplay()   // what the change's observer asks for on the next turn of the main queue
        host.renderIfNeeded()
        #expect(made.count == afterStart + 1)
        #expect(terminal.lines.last?.contains("a Archive") == true)
        terminal.send(.key(KeyEvent(.char("a"))))
        host.renderIfNeeded()
        #expect(terminal.lines[1].contains("tally 0"))
        app.cachedArchiveEnabled.value = false
        host.setNeedsDisplay()
        host.renderIfNeeded()
        #expect(terminal.lines.last?.contains("Archive") == false)
        terminal.send(.key(KeyEvent(.char("a"))))
        terminal.send(.key(KeyEvent(.char("+"))))
        host.renderIfNeeded()
        #expect(terminal.lines[1].contains("tally 1"))
    }

    @Test func switchingBackToATabFindsItsCommandsMade() throws {
        let app = Application()
        let made = EvaluationCount()
        let terminal = HeadlessTerminal(width: 80, height: 12)
        let host = try AppletHost(tabs: [Tab(CountingCommandsApplet(made: made)), Tab("Other", view: Text("other"))],
                                  application: app, terminal: terminal)
        try host.start()
        terminal.send(.key(KeyEvent(.char("2"))))
        host.renderIfNeeded()
        terminal.send(.key(KeyEvent(.char("1"))))
        host.renderIfNeeded()
        let afterOneRound = made.count
        for _ in 0..<5 {
            terminal.send(.key(KeyEvent(.char("2"))))
            host.renderIfNeeded()
            #expect(terminal.text.contains("other"))
            terminal.send(.key(KeyEvent(.char("1"))))
            host.renderIfNeeded()
            terminal.send(.key(KeyEvent(.char("+"))))
            host.renderIfNeeded()
        }
        #expect(terminal.lines[1].contains("tally 5"))
        #expect(made.count == afterOneRound, "made \(made.count - afterOneRound) more times")
    }

    @Test func aChromeLinePutsBackWhatWasDrawnOverIt() {
        let tree = ViewTree()
        var line = ChromeLine<TabBarView>()
        var canvas = Canvas(size: Size(width: 30, height: 3))
        let row = Rect(x: 0, y: 0, width: 30, height: 1)
        line.draw(TabBarView(titles: ["One", "Two"], selected: 0), in: row, on: &canvas, tree: tree)
        let drawn = canvas
        #expect(drawn.line(0) == " 1 One │ 2 Two")
        // Something else drew over the row; the same view puts the row back exactly, styles too.
        canvas.write("scribbled over", at: Point(x: 0, y: 0), style: Style(attributes: .bold))
        line.draw(TabBarView(titles: ["One", "Two"], selected: 0), in: row, on: &canvas, tree: tree)
        #expect(canvas == drawn)
        // Another view is drawn afresh.
        line.draw(TabBarView(titles: ["One", "Two"], selected: 1), in: row, on: &canvas, tree: tree)
        var expected = Canvas(size: Size(width: 30, height: 3))
        ViewTree().render(TabBarView(titles: ["One", "Two"], selected: 1), in: row, on: &expected)
        #expect(canvas == expected)
        #expect(canvas != drawn)
    }

    @Test("A chrome line goes back to a view it drew lately from its saved cells, never a stale one")
    func aChromeLineRemembersItsLastFewViews() {
        let tree = ViewTree()
        var line = ChromeLine<TabBarView>()
        var canvas = Canvas(size: Size(width: 30, height: 1))
        let row = Rect(x: 0, y: 0, width: 30, height: 1)
        func fresh(_ view: TabBarView, theme: ResolvedTheme = .standard) -> Canvas {
            var expected = Canvas(size: Size(width: 30, height: 1))
            let other = ViewTree()
            other.theme = theme
            other.render(view, in: row, on: &expected)
            return expected
        }
        // Back and forth between three tabs: every frame is exactly a fresh render of its view.
        for selected in [0, 1, 2, 0, 2, 1, 0] {
            let view = TabBarView(titles: ["One", "Two", "Three"], selected: selected)
            line.draw(view, in: row, on: &canvas, tree: tree)
            #expect(canvas == fresh(view), "tab \(selected)")
        }
        #expect(line.keptCount == 3)
        // Another theme, the view last drawn: drawn afresh with the theme, not put back from the
        // old theme's cells.
        tree.theme = Theme.light.resolved(for: .palette256)
        let view = TabBarView(titles: ["One", "Two", "Three"], selected: 0)
        line.draw(view, in: row, on: &canvas, tree: tree)
        #expect(canvas == fresh(view, theme: tree.theme))
        // Never more than its capacity.
        for n in 0..<20 { line.draw(TabBarView(titles: ["T\(n)"], selected: 0), in: row, on: &canvas, tree: tree) }
        #expect(line.keptCount == ChromeLine<TabBarView>.capacity)
    }
}
