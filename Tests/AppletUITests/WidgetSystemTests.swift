import Foundation
import Observation
import Synchronization
import Testing
@testable import AppletUI

/// A widget written outside the library, with its own event type: proves the event API is open.
struct Knob: View {
    typealias Body = Never
    enum Event: Sendable, Equatable { case turned(Int) }
    let title: String
    func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(KnobNode(id: context.id, title: title, emit: context.emitter(Event.self), position: context.stateBox(0)))
    }
}

final class KnobNode: Node, FocusableNode {
    let focusID: ViewID
    let title: String
    let emit: EventEmitter<Knob.Event>
    let position: WidgetStateBox<Int>
    var isFocused = false
    init(id: ViewID, title: String, emit: EventEmitter<Knob.Event>, position: WidgetStateBox<Int>) {
        focusID = id; self.title = title; self.emit = emit; self.position = position
    }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size { Size(width: min(title.count + 4, proposal.width ?? 99), height: min(1, proposal.height ?? 1)) }
    override func draw(in canvas: inout Canvas, clip: Rect) {
        canvas.write("\(title) \(position.value)", at: frame.origin, style: isFocused ? Style(attributes: .reverse) : .plain, clip: clip.intersection(frame))
    }
    func handleKey(_ key: KeyEvent) -> Bool {
        guard key.code == .right else { return false }
        position.value += 1
        emit(.turned(position.value))
        return true
    }
    func handleMouse(_ mouse: MouseEvent) -> Bool {
        guard case .press(.left) = mouse.kind else { return false }
        position.value += 1
        emit(.turned(position.value))
        return true
    }
}

/// Runs `body` with a store of its own, so parallel tests do not share widget states.
@MainActor
func withStore<R>(_ body: () throws -> R) rethrows -> R {
    try Application.withCurrent(Application()) { try body() }
}

@Suite("Widget system: ids, states, events, transitions")
@MainActor
struct WidgetSystemTests {
    let manager = WidgetManager("test", widgets: ["b": .visible, "list": .visible])

    @Test func managerChangesStatesAndRejectsUnknownIDs() throws {
        try withStore {
            #expect(manager.ids == ["b", "list"])
            #expect(try manager.state(of: "b") == .visible)
            try manager.hide("b")
            #expect(try manager.state(of: "b") == .hidden)
            try manager.toggle("b")
            #expect(try manager.state(of: "b") == .visible)
            try manager.disable("b")
            #expect(try manager.state(of: "b") == .disabled)
            try manager.toggleEnabled("b")
            #expect(try manager.state(of: "b") == .visible)
            try manager.hide("b")
            try manager.enable("b")                    // enabling does not show a hidden widget
            #expect(try manager.state(of: "b") == .hidden)
            #expect(throws: WidgetError.widgetNotFound("nope")) { try manager.state(of: "nope") }
            #expect(throws: WidgetError.widgetNotFound("nope")) { try manager.show("nope") }
            #expect(throws: WidgetError.widgetNotFound("nope")) { try manager.toggle("nope") }
            #expect(WidgetError.widgetNotFound("nope").description.contains("\"nope\""))
            manager.add("late", .disabled)
            manager.add("late", .visible)              // already there: unchanged
            #expect(try manager.state(of: "late") == .disabled)
            try manager.remove("late")
            #expect(throws: WidgetError.widgetNotFound("late")) { try manager.state(of: "late") }
        }
    }

    @Test func writesThatChangeNothingDoNotTellObservers() throws {
        try withStore {
            _ = manager.ids
            // Factories add their ids while a view is evaluated, on every frame: if that told
            // observers, the view would be evaluated again, forever.
            func notifies(_ change: () throws -> Void) rethrows -> Bool {
                let told = Ref(false)
                withObservationTracking { _ = manager.states.value } onChange: { told.set(true) }
                try change()
                return told.value
            }
            let addKnown = notifies { manager.add("b", .disabled) }
            let showShown = try notifies { try manager.show("b") }
            let enableEnabled = try notifies { try manager.enable("b") }
            let hide = try notifies { try manager.hide("b") }
            let addNew = notifies { manager.add("new") }
            #expect(!addKnown && !showShown && !enableEnabled)
            #expect(hide && addNew)
            #expect(throws: WidgetError.widgetNotFound("nope")) { try manager.show("nope") }
        }
    }

    @Test func statesLiveInTheStoreSoAnyCodeCanChangeThem() throws {
        try withStore {
            // Another applet declares the same manager (by scope) without listing the widgets;
            // the store is what is shared. Before the owner declared "b", nobody knows it.
            let elsewhere = WidgetManager("test")
            #expect(throws: WidgetError.widgetNotFound("b")) { try elsewhere.hide("b") }
            _ = manager.ids                             // the owning applet runs
            try elsewhere.hide("b")
            #expect(try manager.state(of: "b") == .hidden)
            #expect(manager.states.value["b"] == .hidden)
        }
    }

    @Test func hiddenWidgetTakesNoSpaceAndComesBack() throws {
        try withStore {
            let view = VStack { Text("a"); Text("b").widget("b", in: manager); Text("c") }
            #expect(render(view, width: 5, height: 3).lines == ["a", "b", "c"])
            try manager.hide("b")
            #expect(render(view, width: 5, height: 3).lines == ["a", "c", ""])
            try manager.show("b")
            #expect(render(view, width: 5, height: 3).lines == ["a", "b", "c"])
        }
    }

    @Test func hiddenWidgetKeepsItsOwnData() throws {
        try withStore {
            let tree = ViewTree()
            let selection = SelectionBox()
            let view = List(count: 100, selection: selection.binding) { Text("row \($0)") }.widget("list", in: manager)
            _ = render(view, width: 10, height: 5, tree: tree)
            for _ in 0..<7 { tree.handleKey(KeyEvent(.down)) }
            #expect(render(view, width: 10, height: 5, tree: tree).line(0) == "row 3")
            try manager.hide("list")
            #expect(render(view, width: 10, height: 5, tree: tree).lines.allSatisfy { $0.isEmpty })
            try manager.show("list")
            selection.value.withLock { $0 = 5 }
            // The list's own scroll position survived: row 5 is inside the 3...7 window it kept.
            #expect(render(view, width: 10, height: 5, tree: tree).line(0) == "row 3")
        }
    }

    @Test func disabledWidgetIsDimmedSkippedByFocusAndIgnoresInput() throws {
        try withStore {
            let presses = Mutex<[String]>([])
            let tree = ViewTree()
            let view = HStack(spacing: 1) {
                Button("A") { presses.withLock { $0.append("A") } }
                Button("B") { presses.withLock { $0.append("B") } }.widget("b", in: manager)
                Button("C") { presses.withLock { $0.append("C") } }
            }
            try manager.disable("b")
            let canvas = render(view, width: 30, height: 1, tree: tree)
            #expect(canvas.line(0) == "[ A ] [ B ] [ C ]")
            let b = Point(x: 8, y: 0)
            #expect(canvas[b.x, 0].style.attributes.contains(.dim))
            #expect(!canvas[0, 0].style.attributes.contains(.dim))
            // Focus goes A → C → A: B is skipped.
            tree.moveFocus()
            tree.handleKey(KeyEvent(.enter))
            tree.moveFocus()
            tree.handleKey(KeyEvent(.enter))
            #expect(presses.withLock { $0 } == ["C", "A"])
            // A click on B does nothing.
            #expect(!tree.handleMouse(MouseEvent(kind: .press(.left), position: b)))
            #expect(presses.withLock { $0 } == ["C", "A"])
            // Enabled again, it works.
            try manager.enable("b")
            _ = render(view, width: 30, height: 1, tree: tree)
            #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: b)))
            #expect(presses.withLock { $0 } == ["C", "A", "B"])
        }
    }

    @Test func disabledModifierWorksWithoutAManager() {
        let tree = ViewTree()
        let view = VStack { Knob(title: "k").disabled(); Knob(title: "m") }
        let canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(canvas[0, 0].style.attributes.contains(.dim))
        // The only focusable widget is the enabled one.
        #expect(tree.handleKey(KeyEvent(.right)))
        #expect(render(view, width: 10, height: 2, tree: tree).lines == ["k 0", "m 1"])
    }

    @Test func typedEventsReachOnEventHandlersAndSubscribers() async {
        let app = Application()
        let local = Mutex<[Knob.Event]>([])
        let callback = Mutex<[Knob.Event]>([])
        let stream: AsyncStream<Knob.Event> = Application.withCurrent(app) {
            let tree = ViewTree()
            let knobs = WidgetManager("knobs", widgets: ["volume": .visible])
            let stream = knobs.events(of: "volume", as: Knob.Event.self)
            let subscription = knobs.subscribe(to: "volume", as: Knob.Event.self) { event in callback.withLock { $0.append(event) } }
            let view = Knob(title: "vol").widget("volume", in: knobs).onEvent { (event: Knob.Event) in local.withLock { $0.append(event) } }
            _ = render(view, width: 10, height: 1, tree: tree)
            tree.handleKey(KeyEvent(.right))
            tree.handleKey(KeyEvent(.right))
            _ = render(view, width: 10, height: 1, tree: tree)
            tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0)))
            subscription.cancel()
            _ = render(view, width: 10, height: 1, tree: tree)
            tree.handleKey(KeyEvent(.right))            // after cancel: the callback hears nothing more
            #expect(render(view, width: 10, height: 1, tree: tree).line(0) == "vol 4")
            // An unknown id throws nothing here: events simply have no subscriber.
            #expect(throws: WidgetError.widgetNotFound("volume2")) { try knobs.state(of: "volume2") }
            return stream
        }
        #expect(local.withLock { $0 } == [.turned(1), .turned(2), .turned(3), .turned(4)])
        #expect(callback.withLock { $0 } == [.turned(1), .turned(2), .turned(3)])
        var received: [Knob.Event] = []
        for await event in stream {
            received.append(event)
            if received.count == 4 { break }
        }
        #expect(received == [.turned(1), .turned(2), .turned(3), .turned(4)])
    }

    @Test func nestedOnEventHandlersBothHear() {
        let log = Mutex<[String]>([])
        let tree = ViewTree()
        let view = VStack {
            Knob(title: "k").onEvent { (_: Knob.Event) in log.withLock { $0.append("inner") } }
        }.onEvent { (_: Knob.Event) in log.withLock { $0.append("outer") } }
        _ = render(view, width: 10, height: 1, tree: tree)
        tree.handleKey(KeyEvent(.right))
        #expect(log.withLock { $0 } == ["inner", "outer"])
    }

    @Test func eventChannelStreamsEndWhenConsumersStop() async {
        let channel = EventChannel<Int>()
        let task = Task { var n = 0; for await _ in channel.stream() { n += 1 }; return n }
        while channel.subscriberCount == 0 { await Task.yield() }
        await MainActor.run { channel.send(1) }
        task.cancel()
        _ = await task.value
        #expect(channel.subscriberCount == 0)
    }

    // MARK: Transitions

    @Test func hidingAndShowingAnimateOnTheFrameClockWhenEnabled() throws {
        try withStore {
            let tree = ViewTree()
            tree.animationsEnabled = true
            var now = ContinuousClock.now
            tree.clock = { now }
            let view = VStack {
                Text("top")
                VStack { Text("1"); Text("2"); Text("3"); Text("4") }.widget("b", in: manager, transition: .reveal(.milliseconds(100)))
                Text("end")
            }
            #expect(render(view, width: 5, height: 6, tree: tree).lines == ["top", "1", "2", "3", "4", "end"])
            #expect(!tree.needsAnimationFrame)
            try manager.hide("b")
            // Hiding starts: still all there, dimmed, and the tree asks for more frames.
            var canvas = render(view, width: 5, height: 6, tree: tree)
            #expect(canvas.lines == ["top", "1", "2", "3", "4", "end"])
            #expect(canvas[0, 1].style.attributes.contains(.dim))
            #expect(tree.needsAnimationFrame)
            now += .milliseconds(50)
            canvas = render(view, width: 5, height: 6, tree: tree)
            #expect(canvas.lines == ["top", "1", "2", "end", "", ""])
            now += .milliseconds(60)
            canvas = render(view, width: 5, height: 6, tree: tree)
            #expect(canvas.lines == ["top", "end", "", "", "", ""])
            #expect(!tree.needsAnimationFrame)
            // Showing reveals top down, then ends undimmed.
            try manager.show("b")
            canvas = render(view, width: 5, height: 6, tree: tree)
            #expect(tree.needsAnimationFrame)
            now += .milliseconds(50)
            canvas = render(view, width: 5, height: 6, tree: tree)
            #expect(canvas.lines == ["top", "1", "2", "end", "", ""])
            #expect(canvas[0, 1].style.attributes.contains(.dim))
            now += .milliseconds(60)
            canvas = render(view, width: 5, height: 6, tree: tree)
            #expect(canvas.lines == ["top", "1", "2", "3", "4", "end"])
            #expect(!canvas[0, 1].style.attributes.contains(.dim))
        }
    }

    @Test func transitionsAreOffByDefault() throws {
        try withStore {
            let tree = ViewTree()
            let view = VStack { Text("a"); Text("b").widget("b", in: manager, transition: .fade); Text("c") }
            _ = render(view, width: 5, height: 3, tree: tree)
            try manager.hide("b")
            #expect(render(view, width: 5, height: 3, tree: tree).lines == ["a", "c", ""])
            #expect(!tree.needsAnimationFrame)
        }
    }

    @Test func fadeKeepsTheSizeAndDims() throws {
        try withStore {
            let tree = ViewTree()
            tree.animationsEnabled = true
            var now = ContinuousClock.now
            tree.clock = { now }
            let view = VStack { Text("a"); Button("B") {}.widget("b", in: manager, transition: .fade(.milliseconds(100))); Text("c") }
            _ = render(view, width: 9, height: 3, tree: tree)
            try manager.hide("b")
            var canvas = render(view, width: 9, height: 3, tree: tree)
            now += .milliseconds(70)
            canvas = render(view, width: 9, height: 3, tree: tree)
            #expect(canvas.lines == ["a", "[ B ]", "c"])
            #expect(canvas[2, 1].style.attributes.contains(.dim))
            #expect(!tree.hasFocusableWidgets)        // no input while it fades
            now += .milliseconds(40)
            #expect(render(view, width: 9, height: 3, tree: tree).lines == ["a", "c", ""])
        }
    }
}

@Suite("Themes")
@MainActor
struct ThemeTests {
    @Test func rolesResolvePerColourSupport() {
        let truecolor = Theme.dark.resolved(for: .truecolor)
        #expect(truecolor[.error].foreground == .rgb(255, 85, 85))
        #expect(truecolor[.error].attributes.contains(.bold))
        #expect(Theme.dark.resolved(for: .palette256)[.accent].foreground == .rgb(95, 215, 255))
        #expect(Theme.dark.resolved(for: .basic16)[.error].foreground == .ansi(.brightRed))
        #expect(Theme.dark.resolved(for: .basic8)[.selection].background == .blue)
        // At 8 colours a role has its own look where the 16-colour one would not read.
        #expect(Theme.dark.resolved(for: .basic8)[.error] == Style(foreground: .white, background: .red, attributes: .bold))
        #expect(Theme.dark.resolved(for: .basic8)[.muted] == Style(foreground: .white, attributes: .dim))
        // Monochrome (or NO_COLOR): no colours at all, attributes carry the meaning.
        let mono = Theme.dark.resolved(for: .none)
        for role in Theme.Role.allCases {
            #expect(mono[role].foreground == .default && mono[role].background == .default)
        }
        #expect(mono[.selection].attributes.contains(.reverse))
        #expect(mono[.focus].attributes.contains(.reverse))
        #expect(mono[.error].attributes.contains(.underline))
        #expect(mono[.muted].attributes.contains(.dim))
    }

    @Test func lightAndDarkDiffer() {
        let dark = Theme.dark.resolved(for: .truecolor), light = Theme.light.resolved(for: .truecolor)
        #expect(dark[.accent] != light[.accent])
        #expect(dark[.selection] != light[.selection])
        #expect(Theme.builtIn.keys.sorted() == ["dark", "light"])
    }

    @Test func themedViewsDrawWithTheTreesTheme() {
        let tree = ViewTree()
        tree.theme = Theme.light.resolved(for: .palette256)
        let canvas = render(VStack { Text("oops").themed(.error); Text("fine") }, width: 6, height: 2, tree: tree)
        #expect(canvas[0, 0].style.foreground == .rgb(200, 0, 0))
        #expect(canvas[0, 0].style.attributes.contains(.bold))
        #expect(canvas[0, 1].style == .plain)
        tree.theme = Theme.light.resolved(for: .none)
        let mono = render(Text("oops").themed(.error), width: 6, height: 1, tree: tree)
        #expect(mono[0, 0].style == Style(attributes: [.bold, .underline]))
    }

    @Test func truecolorNumbersForADirectColourTerminal() {
        #expect(ColorMapping.number(for: .rgb(255, 85, 85), support: .truecolor) == 0xFF5555)
        #expect(ColorMapping.number(for: .red, support: .truecolor) == 1)
        #expect(ColorMapping.number(for: .gray, support: .truecolor) == 0x7F7F7F)
        #expect(ColorMapping.number(for: .indexed(196), support: .truecolor) == 0xFF0000)
        #expect(ColorMapping.number(for: .rgb(0, 0, 3), support: .truecolor) == 8)   // not basic blue
        #expect(ColorMapping.number(for: .default, support: .truecolor) == -1)
    }
}

@Suite("Mouse routing in a tree")
@MainActor
struct MouseRoutingTests {
    @Test func dragsGoToTheWidgetTheButtonWentDownOn() {
        let tree = ViewTree()
        let ratio = Mutex(0.5)
        let binding = Binding<Double>(get: { ratio.withLock { $0 } }, set: { v in ratio.withLock { $0 = v } })
        let split = SplitView(ratio: binding) { Button("A") {} } second: { Button("B") {} }
        var canvas = render(split, width: 21, height: 2, tree: tree)
        let divider = canvas.lines[0].firstIndex(of: "│").map { canvas.lines[0].distance(from: canvas.lines[0].startIndex, to: $0) }!
        #expect(divider == 10)
        // Press on the divider, then drag over the second pane's button: the divider follows.
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 10, y: 1))))
        #expect(tree.handleMouse(MouseEvent(kind: .drag(.left), position: Point(x: 15, y: 0))))
        tree.handleMouse(MouseEvent(kind: .release(.left), position: Point(x: 15, y: 0)))
        canvas = render(split, width: 21, height: 2, tree: tree)
        #expect(canvas.lines[0].firstIndex(of: "│").map { canvas.lines[0].distance(from: canvas.lines[0].startIndex, to: $0) } == 15)
        #expect(ratio.withLock { $0 } > 0.5)
    }

    @Test func wheelOverAButtonScrollsTheScrollViewAroundIt() {
        let tree = ViewTree()
        let view = ScrollView { ForEach(0..<20) { i in Button("item \(i)") {} } }
        var canvas = render(view, width: 20, height: 4, tree: tree)
        #expect(canvas.line(0).hasPrefix("[ item 0 ]"))
        #expect(tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 2, y: 1))))
        canvas = render(view, width: 20, height: 4, tree: tree)
        #expect(canvas.line(0).hasPrefix("[ item 3 ]"))
    }
}

@Suite("Widget factory")
@MainActor
struct WidgetFactoryTests {
    let json = """
    [
      {"id": "name", "label": "Name", "kind": "text", "placeholder": "your name"},
      {"id": "password", "label": "Password", "kind": "secure"},
      {"id": "wrap", "label": "Wrap", "kind": "toggle", "placeholder": "wrap long lines"},
      {"id": "size", "label": "Size", "kind": "choice", "options": ["S", "M", "L"], "state": "disabled"}
    ]
    """

    @Test func buildsAManagedFormFromJSON() throws {
        try withStore {
            let fields = try JSONDecoder().decode([FormField].self, from: Data(json.utf8))
            let manager = WidgetManager("form")
            let values = Application.current.state(initial: [String: FormValue](), feature: "FormTest", id: "values")
            let tree = ViewTree()
            let form = try FormFactory(values: values).makeWidgets(from: fields, in: manager)
            #expect(manager.ids == ["name", "password", "size", "wrap"])
            #expect(try manager.state(of: "size") == .disabled)
            var canvas = render(form, width: 40, height: 4, tree: tree)
            #expect(canvas.lines[0].hasPrefix("Name      your name"))
            #expect(canvas.lines[2].contains("wrap long lines"))
            #expect(canvas.lines[3].contains("(•) S"))
            // Typing goes to the first field and into the store.
            for ch in "Ada" { tree.handleKey(KeyEvent(.char(ch))) }
            #expect(values.value["name"] == .text("Ada"))
            // Tab order skips the disabled choice: name → password → wrap → name.
            tree.moveFocus(); tree.moveFocus()
            tree.handleKey(KeyEvent(.char(" ")))
            #expect(values.value["wrap"] == .flag(true))
            tree.moveFocus()
            canvas = render(form, width: 40, height: 4, tree: tree)
            tree.handleKey(KeyEvent(.char("!")))
            #expect(values.value["name"] == .text("Ada!"))
            // Hidden through the manager, the field's row goes away.
            try manager.hide("password")
            canvas = render(form, width: 40, height: 4, tree: tree)
            #expect(canvas.lines[1].hasPrefix("Wrap"))
        }
    }

    @Test func rejectsBadConfiguration() {
        withStore {
            let values = Application.current.state(initial: [String: FormValue](), feature: "FormTest", id: "bad")
            let twice = [FormField(id: "a", label: "A", kind: .text), FormField(id: "a", label: "B", kind: .toggle)]
            #expect(throws: FormFactoryError.duplicateID("a")) { try FormFactory(values: values).makeWidgets(from: twice, in: WidgetManager("bad")) }
            let empty = [FormField(id: "c", label: "C", kind: .choice, options: [])]
            #expect(throws: FormFactoryError.emptyChoice("c")) { try FormFactory(values: values).makeWidgets(from: empty, in: WidgetManager("bad")) }
        }
    }
}
