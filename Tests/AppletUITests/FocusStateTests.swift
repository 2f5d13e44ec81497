import Testing
@testable import AppletUI

/// A form with two fields and buttons that move focus through its `@FocusState`.
private struct LoginForm: View {
    enum Field: Hashable { case name, password }
    @FocusState var field: Field?
    let name: Ref<String>
    let password: Ref<String>
    var initial: Field? = nil

    var body: some View {
        VStack {
            TextField("name", text: name.binding).focused($field, equals: .name)
            TextField("password", text: password.binding).focused($field, equals: .password)
            Button("To password") { field = .password }
            Button("Done") { field = nil }
        }
        .defaultFocus($field, initial ?? .name)
    }
}

/// One field bound to a `Bool` focus state, and a button that asks for it.
private struct SearchBar: View {
    @FocusState var isSearching: Bool
    let query: Ref<String>

    var body: some View {
        HStack {
            Button("Find") { isSearching = true }
            TextField("query", text: query.binding).focused($isSearching)
        }
    }
}

/// A child view bound to its parent's focus state.
private struct QueryRow: View {
    @FocusState.Binding var isEditing: Bool
    let query: Ref<String>
    var body: some View { TextField("query", text: query.binding).focused($isEditing) }
}

private struct Parent: View {
    @FocusState var isEditing: Bool
    let query: Ref<String>
    var body: some View {
        VStack {
            Button("first") {}
            QueryRow(isEditing: $isEditing, query: query)
        }
    }
}

@MainActor
private func draw<V: View>(_ view: V, _ tree: ViewTree, width: Int = 30, height: Int = 6) -> Canvas {
    var canvas = Canvas(size: Size(width: width, height: height))
    tree.render(view, in: canvas.bounds, on: &canvas)
    return canvas
}

@MainActor
private func type(_ text: String, into tree: ViewTree) {
    for c in text { tree.handleKey(KeyEvent(.char(c))) }
}

@Suite("Focus state")
@MainActor
struct FocusStateTests {
    // MARK: .focusable(false)

    @Test func tabSkipsAWidgetTakenOutOfTheFocusChainButAClickStillPressesIt() {
        let tree = ViewTree()
        var pressed: [String] = []
        let view = HStack(spacing: 1) {
            Button("A") { pressed.append("A") }
            Button("B") { pressed.append("B") }.focusable(false)
            Button("C") { pressed.append("C") }
        }
        let canvas = draw(view, tree)
        #expect(canvas.line(0) == "[ A ] [ B ] [ C ]")
        #expect(tree.focusableCount == 2)
        let a = tree.focusedID
        tree.moveFocus()
        _ = draw(view, tree)
        tree.handleKey(KeyEvent(.enter))
        #expect(pressed == ["C"])
        tree.moveFocus()
        #expect(tree.focusedID == a)
        tree.moveFocus(forward: false)
        tree.moveFocus(forward: false)
        #expect(tree.focusedID == a)          // backwards too: C, then A
        // A click on B runs its action and leaves focus where it was.
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 8, y: 0))))
        #expect(pressed == ["C", "B"])
        #expect(tree.focusedID == a)
    }

    @Test func focusableFalseOnAContainerTakesOutEveryWidgetInsideAndTrueChangesNothing() {
        let tree = ViewTree()
        let text = Ref("")
        let view = VStack {
            VStack { Button("one") {}; TextField("two", text: text.binding) }.focusable(false)
            Button("three") {}.focusable(true)
        }
        _ = draw(view, tree)
        #expect(tree.focusableCount == 1)
        #expect(!tree.focusedWidgetTakesText)
        // The field still takes a click (its cursor moves) but not focus: typed keys go nowhere.
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 1, y: 1)))
        type("x", into: tree)
        #expect(text.value == "")
    }

    @Test func theFirstFocusableWidgetIsFocusedWhenTheOnesBeforeItAreNotFocusable() {
        let tree = ViewTree()
        let name = Ref("")
        let view = VStack {
            Button("skip") {}.focusable(false)
            TextField("name", text: name.binding)
        }
        _ = draw(view, tree)
        #expect(tree.focusedWidgetTakesText)
        type("hi", into: tree)
        #expect(name.value == "hi")
    }

    // MARK: .defaultFocus

    @Test func defaultFocusPicksTheSecondFieldAtTheFirstRender() {
        let tree = ViewTree()
        let name = Ref(""), password = Ref("")
        let form = LoginForm(name: name, password: password, initial: .password)
        _ = draw(form, tree)
        #expect(form.field == .password)
        type("pw", into: tree)
        #expect(password.value == "pw")
        #expect(name.value == "")
    }

    @Test func defaultFocusOnlyChoosesWhenTheTreeDoes() {
        let tree = ViewTree()
        let form = LoginForm(name: Ref(""), password: Ref(""), initial: .password)
        _ = draw(form, tree)
        tree.moveFocus()                   // to "To password"
        _ = draw(form, tree)
        #expect(form.field == nil)
        #expect(!tree.focusedWidgetTakesText)
        // Esc left focus on nothing: the default does not take it back.
        tree.resignFocus()
        _ = draw(form, tree)
        #expect(tree.focusedID == nil)
        #expect(form.field == nil)
    }

    @Test func aDefaultFocusNamingNoWidgetFallsBackToTheFirst() {
        let tree = ViewTree()
        let name = Ref("")
        let view = SearchBar(query: name).defaultFocus(FocusState<Bool>().projectedValue, true)
        _ = draw(view, tree)
        tree.handleKey(KeyEvent(.enter))   // the first widget, "Find", has focus
        _ = draw(view, tree)
        type("q", into: tree)
        #expect(name.value == "q")
    }

    // MARK: Setting the state moves focus

    @Test func settingTheStateFromAButtonMovesFocusToTheNamedFieldAfterTheNextRender() {
        let tree = ViewTree()
        let name = Ref(""), password = Ref("")
        // The view is made again for every frame, as a parent's body would; each new value
        // reads the state the tree keeps for it.
        var form = LoginForm(name: name, password: password)
        func redraw() {
            form = LoginForm(name: name, password: password)
            _ = draw(form, tree)
        }
        redraw()
        #expect(form.field == .name)
        type("ann", into: tree)
        // Click "To password" (row 2): the click focuses the button, its action asks for the field.
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 2)))
        #expect(form.field == .password)   // asked for; focus moves with the next frame
        #expect(!tree.focusedWidgetTakesText)
        redraw()
        #expect(form.field == .password)
        #expect(tree.focusedWidgetTakesText)
        type("secret", into: tree)
        #expect(name.value == "ann")
        #expect(password.value == "secret")
        // "Done" sets nil: the click gave the button focus, so the state was nil already.
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 3)))
        redraw()
        #expect(form.field == nil)
        #expect(!tree.focusedWidgetTakesText)
    }

    @Test func settingTheStateToNilTakesFocusAwayFromTheBoundField() {
        let tree = ViewTree()
        let name = Ref(""), password = Ref("")
        let form = LoginForm(name: name, password: password)
        _ = draw(form, tree)
        #expect(form.field == .name)
        form.field = nil
        _ = draw(form, tree)
        #expect(tree.focusedID == nil)
        #expect(form.field == nil)
        type("x", into: tree)
        #expect(name.value == "")
        // Setting it again focuses the field again.
        form.field = .name
        _ = draw(form, tree)
        type("y", into: tree)
        #expect(name.value == "y")
    }

    @Test func theBoolFormFocusesItsFieldWhenSetAndTurnsFalseWhenFocusLeaves() {
        let tree = ViewTree()
        let query = Ref("")
        let bar = SearchBar(query: query)
        _ = draw(bar, tree)
        #expect(bar.isSearching == false)
        tree.handleKey(KeyEvent(.enter))    // "Find"
        _ = draw(bar, tree)
        #expect(bar.isSearching)
        type("swift", into: tree)
        #expect(query.value == "swift")
        // Esc leaves the field: the state turns false at once.
        tree.handleKey(KeyEvent(.escape))
        #expect(bar.isSearching == false)
        #expect(!tree.focusedWidgetTakesText)
    }

    @Test func aStateNamingAWidgetThatCannotTakeFocusLeavesFocusWhereItWas() {
        let tree = ViewTree()
        let a = Ref(""), b = Ref("")
        struct Form: View {
            @FocusState var field: Int?
            let a: Ref<String>, b: Ref<String>
            var body: some View {
                VStack {
                    TextField("a", text: a.binding).focused($field, equals: 1)
                    TextField("b", text: b.binding).focused($field, equals: 2).focusable(false)
                    TextField("c", text: b.binding).focused($field, equals: 3).disabled()
                }
            }
        }
        let form = Form(a: a, b: b)
        _ = draw(form, tree)
        #expect(form.field == 1)
        for unreachable in [2, 3, 99] {
            form.field = unreachable
            _ = draw(form, tree)
            #expect(form.field == 1)        // written back: field 1 still has focus
            type("x", into: tree)
        }
        #expect(a.value == "xxx")
        #expect(b.value == "")
    }

    @Test func aStateSetBeforeTheFirstRenderIsApplied() {
        let tree = ViewTree()
        let name = Ref(""), password = Ref("")
        let form = LoginForm(name: name, password: password)
        form.field = .password              // not drawn yet: kept until it is
        #expect(form.field == .password)
        _ = draw(form, tree)
        type("p", into: tree)
        #expect(password.value == "p")
        #expect(form.field == .password)
    }

    @Test func settingTheStateAsksForAFrame() {
        let tree = ViewTree()
        let form = LoginForm(name: Ref(""), password: Ref(""))
        var canvas = Canvas(size: Size(width: 30, height: 6))
        var invalidations = 0
        tree.onInvalidate = { invalidations += 1 }
        tree.renderIfNeeded(form, in: canvas.bounds, on: &canvas)
        form.field = .name                 // already so: nothing to do
        #expect(invalidations == 0)
        form.field = .password
        #expect(invalidations == 1)
        #expect(tree.renderIfNeeded(form, in: canvas.bounds, on: &canvas))
        #expect(form.field == .password)
    }

    @Test func aScrollViewScrollsToTheWidgetItsStateFocuses() {
        struct Settings: View {
            @FocusState var row: Int?
            let names: [Ref<String>]
            var body: some View {
                ScrollView {
                    ForEach(0..<names.count) { i in TextField("field \(i)", text: names[i].binding).focused($row, equals: i) }
                }
            }
        }
        let tree = ViewTree()
        let settings = Settings(names: (0..<10).map { _ in Ref("") })
        var canvas = draw(settings, tree, width: 12, height: 3)
        #expect(canvas.line(0).hasPrefix("field 0"))
        settings.row = 9
        canvas = draw(settings, tree, width: 12, height: 3)
        #expect(canvas.line(2).hasPrefix("field 9"))     // in the same frame as the focus moved
        type("z", into: tree)
        #expect(settings.names[9].value == "z")
    }

    // MARK: Moving focus updates the state

    @Test func tabAndClicksUpdateTheBoundState() {
        let tree = ViewTree()
        let name = Ref(""), password = Ref("")
        let form = LoginForm(name: name, password: password)
        _ = draw(form, tree)
        #expect(form.field == .name)
        tree.moveFocus()
        #expect(form.field == .password)    // at once, before the next frame
        _ = draw(form, tree)
        #expect(form.field == .password)
        tree.moveFocus()
        #expect(form.field == nil)          // a button has focus
        tree.focusEdge(first: true)
        #expect(form.field == .name)
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 3, y: 1)))
        #expect(form.field == .password)
        tree.resignFocus()
        #expect(form.field == nil)
    }

    @Test func eachInstanceOfAViewHasItsOwnState() {
        let tree = ViewTree()
        let forms = (0..<2).map { _ in LoginForm(name: Ref(""), password: Ref("")) }
        let view = VStack { ForEach(0..<2) { i in forms[i] } }
        _ = draw(view, tree, height: 8)
        // Both name their name field as the default: the first in reading order wins.
        #expect(forms[0].field == .name)
        #expect(forms[1].field == nil)
        forms[1].field = .password
        _ = draw(view, tree, height: 8)
        #expect(forms[0].field == nil)
        #expect(forms[1].field == .password)
        type("second", into: tree)
        #expect(forms[1].password.value == "second")
        #expect(forms[0].password.value == "")
        // New values of the views, at the same places, read the same states.
        let again = forms.map { LoginForm(name: $0.name, password: $0.password) }
        _ = draw(VStack { ForEach(0..<2) { i in again[i] } }, tree, height: 8)
        #expect(again.map(\.field) == [nil, .password])
    }

    @Test func aChildViewBindsItsWidgetToItsParentsState() {
        let tree = ViewTree()
        let query = Ref("")
        let parent = Parent(query: query)
        _ = draw(parent, tree)
        #expect(parent.isEditing == false)
        tree.moveFocus()
        #expect(parent.isEditing)
        parent.isEditing = false
        _ = draw(parent, tree)
        #expect(tree.focusedID == nil)
        parent.isEditing = true
        _ = draw(parent, tree)
        type("q", into: tree)
        #expect(query.value == "q")
    }
}
