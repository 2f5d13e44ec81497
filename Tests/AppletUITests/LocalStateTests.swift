import Testing
@testable import AppletUI

/// A label and a button that flips the view's own `@State`.
private struct Switch: View {
    var label = "light"
    @State private var isOn = false

    var body: some View {
        HStack(spacing: 1) {
            Text("\(label): \(isOn ? "on" : "off")")
            Button("flip \(label)") { isOn.toggle() }
        }
    }
}

/// A `Switch` that an `if` adds and removes (`Optional`), or swaps for text (`if`/`else`).
private struct Room: View {
    var lit: Bool
    var withElse = false

    var body: some View {
        VStack {
            Text("room")
            if withElse {
                if lit { Switch() } else { Text("dark") }
            } else if lit {
                Switch()
            }
        }
    }
}

/// A text field bound to the view's own text, and a line that shows it.
private struct Greeter: View {
    @State private var name = ""

    var body: some View {
        VStack {
            TextField("name", text: $name)
            Text("hello \(name)")
        }
    }
}

/// Hands its state's binding to the test (as a task or a child view would use it).
private struct Exposed: View {
    @State private var count = 0
    let expose: (Binding<Int>) -> Void

    var body: some View {
        let _ = expose($count)
        Text("count \(count)")
    }
}

/// The other initializers: an optional starting at `nil` and a value chosen in `init`.
private struct Picker: View {
    @State private var picked: Int?
    @State private var start: Int

    init(start: Int) { _start = State(initialValue: start) }

    var body: some View {
        HStack(spacing: 1) {
            Text("picked \(picked.map(String.init) ?? "none") from \(start)")
            Button("pick") { picked = start; start += 1 }
        }
    }
}

@MainActor
private func draw<V: View>(_ view: V, _ tree: ViewTree, width: Int = 40, height: Int = 6) -> Canvas {
    var canvas = Canvas(size: Size(width: width, height: height))
    tree.render(view, in: canvas.bounds, on: &canvas)
    return canvas
}

/// Clicks the button titled `title` on the screen (the first one, from the top).
@MainActor
@discardableResult
private func press(_ title: String, on canvas: Canvas, in tree: ViewTree) -> Bool {
    for y in 0..<canvas.size.height {
        let line = canvas.line(y)
        guard let range = line.range(of: "[ \(title) ]") else { continue }
        let x = line.distance(from: line.startIndex, to: range.lowerBound) + 2
        return tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: x, y: y)))
    }
    Issue.record("no button \(title) on screen:\n\(canvas.lines.joined(separator: "\n"))")
    return false
}

@Suite("Local state (@State)")
@MainActor
struct LocalStateTests {
    @Test func aButtonSetsTheViewsStateAndTheScreenFollows() {
        let tree = ViewTree()
        var canvas = draw(Switch(), tree)
        #expect(canvas.line(0) == "light: off [ flip light ]")
        #expect(press("flip light", on: canvas, in: tree))
        canvas = draw(Switch(), tree)
        #expect(canvas.line(0) == "light: on [ flip light ]")
        #expect(tree.handleKey(KeyEvent(.enter)))          // the focused button, by key
        canvas = draw(Switch(), tree)
        #expect(canvas.line(0) == "light: off [ flip light ]")
    }

    @Test func redrawsKeepTheValueWhetherTheViewIsMadeAgainOrKept() {
        let tree = ViewTree()
        let kept = Switch()
        var canvas = draw(kept, tree)
        press("flip light", on: canvas, in: tree)
        for _ in 0..<3 {
            canvas = draw(kept, tree)
            #expect(canvas.line(0) == "light: on [ flip light ]")
            canvas = draw(Switch(), tree)
            #expect(canvas.line(0) == "light: on [ flip light ]")
        }
        #expect(tree.viewStateCount == 1)
    }

    @Test func aViewRemovedByAnIfStartsFromItsInitialValueWhenAddedAgain() {
        for withElse in [false, true] {
            let tree = ViewTree()
            var canvas = draw(Room(lit: true, withElse: withElse), tree)
            press("flip light", on: canvas, in: tree)
            canvas = draw(Room(lit: true, withElse: withElse), tree)
            #expect(canvas.line(1) == "light: on [ flip light ]")
            canvas = draw(Room(lit: false, withElse: withElse), tree)
            #expect(canvas.line(1) == (withElse ? "dark" : ""))
            #expect(tree.viewStateCount == 0)
            canvas = draw(Room(lit: true, withElse: withElse), tree)
            #expect(canvas.line(1) == "light: off [ flip light ]")
        }
    }

    @Test func removingAnOuterIfDropsTheStateOfViewsNestedInsideIt() {
        struct Outer: View {
            var shown: Bool
            var body: some View {
                if shown { Room(lit: true) }
            }
        }
        let tree = ViewTree()
        var canvas = draw(Outer(shown: true), tree)
        press("flip light", on: canvas, in: tree)
        canvas = draw(Outer(shown: false), tree)
        #expect(tree.viewStateCount == 0)
        canvas = draw(Outer(shown: true), tree)
        #expect(canvas.line(1) == "light: off [ flip light ]")
    }

    @Test func twoInstancesOfOneViewHaveTheirOwnState() {
        let tree = ViewTree()
        let view = VStack {
            Switch(label: "a")
            Switch(label: "b")
        }
        var canvas = draw(view, tree)
        press("flip b", on: canvas, in: tree)
        canvas = draw(view, tree)
        #expect(canvas.lines.prefix(2) == ["a: off [ flip a ]", "b: on [ flip b ]"])
        press("flip a", on: canvas, in: tree)
        press("flip b", on: canvas, in: tree)
        canvas = draw(view, tree)
        #expect(canvas.lines.prefix(2) == ["a: on [ flip a ]", "b: off [ flip b ]"])
    }

    @Test func forEachRowsKeepTheirStateByIDWhereverTheyMove() {
        let tree = ViewTree()
        func rows(_ names: [String]) -> some View {
            VStack { ForEach(names, id: \.self) { Switch(label: $0) } }
        }
        var canvas = draw(rows(["a", "b", "c"]), tree)
        press("flip b", on: canvas, in: tree)
        // A row inserted before it and the order changed: "b" keeps its value.
        canvas = draw(rows(["x", "c", "b", "a"]), tree)
        #expect(canvas.lines.prefix(4) == ["x: off [ flip x ]", "c: off [ flip c ]", "b: on [ flip b ]", "a: off [ flip a ]"])
        #expect(tree.viewStateCount == 4)
        // "b" gone: its state with it; back again: from the start.
        canvas = draw(rows(["x", "c", "a"]), tree)
        #expect(tree.viewStateCount == 3)
        canvas = draw(rows(["b"]), tree)
        #expect(canvas.line(0) == "b: off [ flip b ]")
        #expect(tree.viewStateCount == 1)
        canvas = draw(rows([]), tree)
        #expect(tree.viewStateCount == 0)
    }

    @Test func aBindingToTheStateLetsATextFieldEditIt() {
        let tree = ViewTree()
        var canvas = draw(Greeter(), tree)
        for c in "Ada" { tree.handleKey(KeyEvent(.char(c))) }
        canvas = draw(Greeter(), tree)
        #expect(canvas.line(1) == "hello Ada")
        tree.handleKey(KeyEvent(.backspace))
        canvas = draw(Greeter(), tree)
        #expect(canvas.line(1) == "hello Ad")
    }

    @Test func settingTheStateRedrawsAViewThatReadIt() {
        let tree = ViewTree()
        var binding: Binding<Int>?
        let view = Exposed { binding = $0 }
        var canvas = Canvas(size: Size(width: 20, height: 1))
        #expect(tree.renderIfNeeded(view, in: canvas.bounds, on: &canvas))
        #expect(!tree.renderIfNeeded(view, in: canvas.bounds, on: &canvas))
        // Not through a widget (as a task on the main actor would): Observation marks the tree.
        binding?.wrappedValue = 5
        #expect(tree.renderIfNeeded(view, in: canvas.bounds, on: &canvas))
        #expect(canvas.line(0) == "count 5")
        #expect(!tree.renderIfNeeded(view, in: canvas.bounds, on: &canvas))
    }

    @Test func settingAStateTheBodyDoesNotReadRedrawsNothing() {
        /// Only its action reads the state.
        struct Clicker: View {
            @State private var clicks = 0
            let expose: (Binding<Int>) -> Void
            var body: some View {
                let _ = expose($clicks)
                Button("click") { clicks += 1 }
            }
        }
        let tree = ViewTree()
        var binding: Binding<Int>?
        let view = Clicker { binding = $0 }
        var canvas = Canvas(size: Size(width: 20, height: 1))
        #expect(tree.renderIfNeeded(view, in: canvas.bounds, on: &canvas))
        #expect(tree.renderIfNeeded(view, in: canvas.bounds, on: &canvas) == false)
        binding?.wrappedValue = 3
        #expect(tree.renderIfNeeded(view, in: canvas.bounds, on: &canvas) == false)
        press("click", on: canvas, in: tree)
        #expect(binding?.wrappedValue == 4)
    }

    @Test func theOtherInitializers() {
        let tree = ViewTree()
        var canvas = draw(Picker(start: 3), tree)
        #expect(canvas.line(0) == "picked none from 3 [ pick ]")
        press("pick", on: canvas, in: tree)
        // The initial value given to a view made again is only used the first time.
        canvas = draw(Picker(start: 3), tree)
        #expect(canvas.line(0) == "picked 3 from 4 [ pick ]")
    }

    @Test func storageIsFreedWithTheViewAndWithTheTree() {
        let before = LocalStateStorage<Bool>.liveCount
        weak var weakTree: ViewTree?
        do {
            let tree = ViewTree()
            weakTree = tree
            var canvas = draw(VStack { Room(lit: true); Switch(label: "kept") }, tree)
            press("flip light", on: canvas, in: tree)
            canvas = draw(VStack { Room(lit: true); Switch(label: "kept") }, tree)
            #expect(LocalStateStorage<Bool>.liveCount == before + 2)
            canvas = draw(VStack { Room(lit: false); Switch(label: "kept") }, tree)
            #expect(LocalStateStorage<Bool>.liveCount == before + 1)
            #expect(tree.viewStateCount == 1)
        }
        #expect(weakTree == nil)
        #expect(LocalStateStorage<Bool>.liveCount == before)
    }

    @Test func aTreeNotDrawnForAWhileKeepsItsViewsState() {
        // A pane of a tab that is not shown: its tree draws nothing, other trees go on drawing.
        let hiddenTab = ViewTree(), shownTab = ViewTree()
        var canvas = draw(Switch(), hiddenTab)
        press("flip light", on: canvas, in: hiddenTab)
        for _ in 0..<5 { _ = draw(Room(lit: true), shownTab) }
        _ = draw(Room(lit: false), shownTab)
        canvas = draw(Switch(), hiddenTab)
        #expect(canvas.line(0) == "light: on [ flip light ]")
    }

    @Test func aTabSwitchedAwayAndBackKeepsItsViewsState() {
        // As SwiftUI keeps a TabView page's @State: `disappear()` cancels tasks, not state.
        let tree = ViewTree()
        var canvas = Canvas(size: Size(width: 40, height: 2))
        tree.renderIfNeeded(Switch(), in: canvas.bounds, on: &canvas)
        press("flip light", on: canvas, in: tree)
        tree.renderIfNeeded(Switch(), in: canvas.bounds, on: &canvas)
        tree.disappear()
        // A tree with no tasks is shown again as it was; evaluated again, it keeps the state too.
        #expect(!tree.renderIfNeeded(Switch(), in: canvas.bounds, on: &canvas))
        tree.invalidate()
        #expect(tree.renderIfNeeded(Switch(), in: canvas.bounds, on: &canvas))
        #expect(canvas.line(0) == "light: on [ flip light ]")
    }

    @Test func aHiddenWidgetKeepsTheStateOfTheViewsInside() throws {
        try withStore {
            let manager = WidgetManager("local-state", widgets: ["switch": .visible])
            let tree = ViewTree()
            let view = VStack {
                Text("top")
                Switch().widget("switch", in: manager)
            }
            var canvas = draw(view, tree)
            press("flip light", on: canvas, in: tree)
            try manager.hide("switch")
            canvas = draw(view, tree)
            #expect(canvas.line(1) == "")
            try manager.show("switch")
            canvas = draw(view, tree)
            #expect(canvas.line(1) == "light: on [ flip light ]")
        }
    }

    @Test func aPageOfTabsNotSelectedKeepsItsViewsState() {
        let tree = ViewTree()
        let page = Ref(0)
        let view = Tabs(["One", "Two"], selection: page.binding) { index in
            if index == 0 { Switch() } else { Text("page two") }
        }
        var canvas = draw(view, tree)
        press("flip light", on: canvas, in: tree)
        page.value = 1
        canvas = draw(view, tree)
        #expect(canvas.line(1) == "page two")
        page.value = 0
        canvas = draw(view, tree)
        #expect(canvas.line(1) == "light: on [ flip light ]")
    }

    @Test func anotherRootViewOrAnyViewOfAnotherTypeDropsTheState() {
        let tree = ViewTree()
        var canvas = draw(Switch(), tree)
        press("flip light", on: canvas, in: tree)
        _ = draw(Text("something else"), tree)
        #expect(tree.viewStateCount == 0)
        canvas = draw(Switch(), tree)
        #expect(canvas.line(0) == "light: off [ flip light ]")

        func erased(_ switched: Bool) -> AnyView { switched ? AnyView(Switch()) : AnyView(Text("text")) }
        canvas = draw(VStack { erased(true) }, tree)
        press("flip light", on: canvas, in: tree)
        canvas = draw(VStack { erased(true) }, tree)
        #expect(canvas.line(0) == "light: on [ flip light ]")
        _ = draw(VStack { erased(false) }, tree)
        canvas = draw(VStack { erased(true) }, tree)
        #expect(canvas.line(0) == "light: off [ flip light ]")
    }

    @Test func aViewWithItsOwnMakeNodesKeepsItsStateThroughMakeBodyNodes() {
        /// As `Applet` does: something of its own around its body.
        struct Framed: View {
            @State private var isOn = false
            var body: some View { Button(isOn ? "on" : "off") { isOn.toggle() } }
            func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
                Text("framed")._makeNodes(context.child(0), into: &nodes)
                _makeBodyNodes(context, into: &nodes)
            }
        }
        let tree = ViewTree()
        var canvas = draw(VStack { Framed() }, tree)
        #expect(canvas.lines.prefix(2) == ["framed", "[ off ]"])
        press("off", on: canvas, in: tree)
        canvas = draw(VStack { Framed() }, tree)
        #expect(canvas.line(1) == "[ on ]")
    }

    @Test func aViewNotDrawnYetKeepsWhatIsWrittenToIt() {
        struct Plain: View {
            @State var count = 0
            var body: some View { Text("count \(count)") }
        }
        let view = Plain()
        view.count = 7
        #expect(view.count == 7)
        let tree = ViewTree()
        var canvas = draw(view, tree)
        #expect(canvas.line(0) == "count 7")
        view.count += 1                      // now the tree's value
        canvas = draw(view, tree)
        #expect(canvas.line(0) == "count 8")
        #expect(tree.viewStateCount == 1)
    }
}
