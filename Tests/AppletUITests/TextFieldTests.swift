import Synchronization
import Testing
@testable import AppletUI

private typealias TextStore = Ref<String>

@MainActor
private func type(_ text: String, into tree: ViewTree) {
    for c in text { #expect(tree.handleKey(KeyEvent(.char(c)))) }
}

@MainActor
private func press(_ code: KeyCode, _ modifiers: KeyModifiers = [], in tree: ViewTree) {
    #expect(tree.handleKey(KeyEvent(code, modifiers: modifiers)))
}

private let cursorLook = Style.plain.merged(with: ResolvedTheme.standard[.focus])
private let mutedLook = Style.plain.merged(with: ResolvedTheme.standard[.muted])

/// The columns of row `y` drawn in the cursor's style.
private func cursorColumns(_ canvas: Canvas, row y: Int = 0) -> [Int] {
    (0..<canvas.size.width).filter { canvas[$0, y].style == cursorLook }
}

@Suite("TextField")
@MainActor
struct TextFieldTests {
    @Test func typingShowsTheTextAndWritesTheBinding() {
        let tree = ViewTree()
        let store = TextStore()
        let field = TextField("Name", text: store.binding)
        _ = render(field, width: 20, height: 1, tree: tree)
        #expect(tree.focusedWidgetTakesText)
        type("héllo 日本", into: tree)
        #expect(store.text == "héllo 日本")
        let canvas = render(field, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "héllo 日本")
        // The cursor sits after the text: 6 + 2 + 2 cells in.
        #expect(cursorColumns(canvas) == [10])
        #expect(canvas[9, 0].style == .plain)
        // Moving left onto a wide character covers both of its cells.
        press(.left, in: tree)
        #expect(cursorColumns(render(field, width: 20, height: 1, tree: tree)) == [8, 9])
    }

    @Test func noCursorWithoutFocus() {
        let tree = ViewTree()
        let first = TextStore("one"), second = TextStore("two")
        let view = VStack { TextField("", text: first.binding); TextField("", text: second.binding) }
        var canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(canvas.lines == ["one", "two"])
        #expect(cursorColumns(canvas, row: 0) == [3])
        #expect(cursorColumns(canvas, row: 1) == [])
        tree.moveFocus()
        canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(cursorColumns(canvas, row: 0) == [])
        #expect(cursorColumns(canvas, row: 1) == [3])
        // A pane without the keyboard shows no cursor at all.
        var inactive = Canvas(size: Size(width: 10, height: 2))
        tree.render(view, in: inactive.bounds, on: &inactive, isActive: false)
        #expect(cursorColumns(inactive, row: 0) + cursorColumns(inactive, row: 1) == [])
    }

    @Test func deletingAndMoving() {
        let tree = ViewTree()
        let store = TextStore("hello world")
        let field = TextField("", text: store.binding)
        _ = render(field, width: 20, height: 1, tree: tree)
        press(.backspace, in: tree)
        #expect(store.text == "hello worl")
        press(.home, in: tree)
        press(.delete, in: tree)
        #expect(store.text == "ello worl")
        press(.end, in: tree)
        type("d", into: tree)
        #expect(store.text == "ello world")
        press(.char("a"), .ctrl, in: tree)
        type("H", into: tree)
        #expect(store.text == "Hello world")
        press(.char("e"), .ctrl, in: tree)
        type("!", into: tree)
        #expect(store.text == "Hello world!")
        press(.right, in: tree)                               // at the end: stays
        press(.left, in: tree)
        press(.left, in: tree)
        type("-", into: tree)
        #expect(store.text == "Hello worl-d!")
        // Backspace at the start and Delete at the end change nothing.
        press(.home, in: tree)
        press(.backspace, in: tree)
        press(.end, in: tree)
        press(.delete, in: tree)
        #expect(store.text == "Hello worl-d!")
    }

    @Test func wordJumps() {
        let tree = ViewTree()
        let store = TextStore("one two -three")
        let field = TextField("", text: store.binding)
        _ = render(field, width: 30, height: 1, tree: tree)
        press(.left, .ctrl, in: tree)                         // before "three"
        type("_", into: tree)
        #expect(store.text == "one two -_three")
        press(.char("b"), .alt, in: tree)                     // "_three" is one word: its start
        press(.char("b"), .alt, in: tree)                     // skips " -", to the start of "two"
        type("X", into: tree)
        #expect(store.text == "one Xtwo -_three")
        press(.char("f"), .alt, in: tree)                     // the end of "Xtwo"
        type("Y", into: tree)
        #expect(store.text == "one XtwoY -_three")
        press(.right, .ctrl, in: tree)                        // the end of "_three"
        type("!", into: tree)
        #expect(store.text == "one XtwoY -_three!")
        press(.left, .alt, in: tree)
        press(.left, .alt, in: tree)
        press(.left, .alt, in: tree)
        press(.left, .alt, in: tree)                          // past the first word: the start
        type("^", into: tree)
        #expect(store.text == "^one XtwoY -_three!")
    }

    @Test func killKeys() {
        let tree = ViewTree()
        let store = TextStore("hello big world")
        let field = TextField("", text: store.binding)
        _ = render(field, width: 30, height: 1, tree: tree)
        press(.char("w"), .ctrl, in: tree)
        #expect(store.text == "hello big ")
        press(.char("w"), .ctrl, in: tree)                    // the space before, then the word
        #expect(store.text == "hello ")
        press(.backspace, .alt, in: tree)
        #expect(store.text == "")
        store.text = "abc def"                                // the cursor stays at 0
        press(.end, in: tree)
        for _ in 0..<3 { press(.left, in: tree) }
        press(.char("u"), .ctrl, in: tree)
        #expect(store.text == "def")
        press(.right, in: tree)
        press(.char("k"), .ctrl, in: tree)
        #expect(store.text == "d")
        store.text = "one two"
        press(.home, in: tree)
        press(.char("d"), .alt, in: tree)
        #expect(store.text == " two")
    }

    @Test func eventsInOrder() {
        let tree = ViewTree()
        let store = TextStore()
        var events: [TextFieldEvent] = []
        let field = TextField("", text: store.binding).onEvent { (e: TextFieldEvent) in events.append(e) }
        _ = render(field, width: 20, height: 1, tree: tree)
        type("ab", into: tree)
        press(.left, in: tree)                                // moves send nothing
        press(.backspace, in: tree)
        press(.home, in: tree)
        press(.backspace, in: tree)                           // nothing to delete: nothing sent
        #expect(tree.handlePaste("x\ny"))
        press(.enter, in: tree)
        #expect(events == [.changed("a"), .changed("ab"), .changed("b"), .changed("x yb"), .submitted("x yb")])
        #expect(store.text == "x yb")
    }

    @Test func keysItDoesNotUsePassOn() {
        let tree = ViewTree()
        let store = TextStore("abc")
        _ = render(TextField("", text: store.binding), width: 20, height: 1, tree: tree)
        let passed = [KeyEvent(.tab), KeyEvent(.tab, modifiers: .shift), KeyEvent(.up),
                      KeyEvent(.down), KeyEvent(.pageDown), KeyEvent(.char("c"), modifiers: .ctrl),
                      KeyEvent(.char("x"), modifiers: .alt), KeyEvent(.function(1)), KeyEvent(.char(" "), modifiers: .ctrl)]
        for key in passed { #expect(!tree.handleKey(key), "\(key)") }
        #expect(store.text == "abc")
        // Shifted characters are text.
        #expect(tree.handleKey(KeyEvent(.char("D"), modifiers: .shift)))
        #expect(store.text == "abcD")
    }

    @Test("Esc leaves the field: no widget has focus, typed keys pass on, and Tab comes back")
    func escapeLeavesTheField() {
        let tree = ViewTree()
        let store = TextStore("abc")
        _ = render(TextField("", text: store.binding), width: 20, height: 1, tree: tree)
        #expect(tree.focusedWidgetTakesText)
        #expect(tree.handleKey(KeyEvent(.escape)))
        #expect(tree.focusedID == nil && !tree.focusedWidgetTakesText)
        _ = render(TextField("", text: store.binding), width: 20, height: 1, tree: tree)
        #expect(tree.focusedID == nil, "a new frame does not focus the field again")
        #expect(!tree.handleKey(KeyEvent(.char("q"))))
        #expect(!tree.handleKey(KeyEvent(.escape)), "Esc with nothing focused is not the tree's")
        #expect(store.text == "abc")
        #expect(tree.moveFocus(forward: true))
        #expect(tree.handleKey(KeyEvent(.char("q"))))
        #expect(store.text == "abcq")
    }

    @Test func scrollsToKeepTheCursorVisible() {
        let tree = ViewTree()
        let store = TextStore()
        let field = TextField("", text: store.binding)
        _ = render(field, width: 5, height: 1, tree: tree)
        type("abcdefghij", into: tree)
        var canvas = render(field, width: 5, height: 1, tree: tree)
        #expect(canvas.line(0) == "ghij")
        #expect(cursorColumns(canvas) == [4])
        press(.home, in: tree)
        canvas = render(field, width: 5, height: 1, tree: tree)
        #expect(canvas.line(0) == "abcde")
        #expect(cursorColumns(canvas) == [0])
        // The scroll is kept between frames: moving inside the window does not scroll.
        press(.end, in: tree)
        _ = render(field, width: 5, height: 1, tree: tree)
        for _ in 0..<3 { press(.left, in: tree) }
        canvas = render(field, width: 5, height: 1, tree: tree)
        #expect(canvas.line(0) == "ghij")
        #expect(cursorColumns(canvas) == [1])
        // Past the left edge it scrolls back.
        for _ in 0..<3 { press(.left, in: tree) }
        canvas = render(field, width: 5, height: 1, tree: tree)
        #expect(cursorColumns(canvas).count == 1)
        #expect(canvas.line(0) == "cdefg")
        #expect(cursorColumns(canvas) == [2])
    }

    @Test func scrollsWideCharactersWithoutSplittingThem() {
        let tree = ViewTree()
        let store = TextStore("日本語テキスト")            // 14 cells
        let field = TextField("", text: store.binding)
        var canvas = render(field, width: 5, height: 1, tree: tree)
        #expect(canvas.line(0) == "スト")
        #expect(cursorColumns(canvas) == [4])
        press(.left, in: tree)
        canvas = render(field, width: 5, height: 1, tree: tree)
        #expect(cursorColumns(canvas) == [2, 3])
        press(.home, in: tree)
        canvas = render(field, width: 5, height: 1, tree: tree)
        #expect(canvas.line(0) == "日本")                     // 語 would not fit whole
        #expect(!canvas[4, 0].isContinuation && canvas[4, 0].grapheme == " ")
        #expect(cursorColumns(canvas) == [0, 1])
        // An odd width: the scroll that would cut 本 in half moves on to 語.
        let short = TextStore("日本語")
        let narrow = render(TextField("", text: short.binding), width: 4, height: 1)
        #expect(narrow.line(0) == "語")
        #expect(cursorColumns(narrow) == [2])
    }

    @Test func placeholderIsMuted() {
        let tree = ViewTree()
        let store = TextStore()
        let field = TextField("Your name", text: store.binding)
        var canvas = render(field, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "Your name")
        #expect(canvas[0, 0].style == cursorLook)            // the cursor on its first cell
        #expect(canvas[1, 0].style == mutedLook)
        #expect(canvas[8, 0].style == mutedLook)
        var inactive = Canvas(size: Size(width: 20, height: 1))
        tree.render(field, in: inactive.bounds, on: &inactive, isActive: false)
        #expect(inactive[0, 0].style == mutedLook)
        type("A", into: tree)
        canvas = render(field, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "A")
        #expect(canvas[0, 0].style == .plain)
    }

    @Test func secureShowsBulletsOnly() {
        let tree = ViewTree()
        let store = TextStore("top secret")
        var events: [TextFieldEvent] = []
        let field = TextField("Password", text: store.binding).secure().onEvent { (e: TextFieldEvent) in events.append(e) }
        var canvas = render(field, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == String(repeating: "•", count: 10))
        #expect(cursorColumns(canvas) == [10])
        type("日", into: tree)                                // one bullet per grapheme, even a wide one
        canvas = render(field, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == String(repeating: "•", count: 11))
        #expect(store.text == "top secret日")
        for letter in "topsecr日" { #expect(!canvas.text.contains(letter)) }
        // Word keys treat the whole text as one word (spaces stay hidden).
        press(.left, .ctrl, in: tree)
        type("<", into: tree)
        #expect(store.text == "<top secret日")
        press(.char("w"), .ctrl, in: tree)
        #expect(store.text == "top secret日")
        press(.char("k"), .ctrl, in: tree)
        #expect(store.text == "")
        canvas = render(field, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "Password")
        #expect(events.allSatisfy { if case .changed = $0 { true } else { false } })
        // Scrolled: still bullets.
        store.text = String(repeating: "x", count: 30)
        canvas = render(field, width: 8, height: 1, tree: tree)
        #expect(canvas.line(0) == String(repeating: "•", count: 8))
        #expect(!TextField("", text: .constant("a")).secure(false).isSecure)
    }

    @Test func pasteFlattensLines() {
        let tree = ViewTree()
        let store = TextStore("ab")
        _ = render(TextField("", text: store.binding), width: 20, height: 1, tree: tree)
        #expect(tree.handlePaste("1\n2\t3\r\n4\u{7}5"))
        #expect(store.text == "ab1 2 3 45")
        press(.home, in: tree)
        #expect(tree.handlePaste("<"))
        #expect(store.text == "<ab1 2 3 45")
    }

    @Test func clickPlacesTheCursor() {
        let tree = ViewTree()
        let store = TextStore("X日本abc")
        let field = TextField("", text: store.binding)
        _ = render(field, width: 12, height: 1, tree: tree)
        #expect(tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 0))))   // right half of 日
        type("<", into: tree)
        #expect(store.text == "X<日本abc")
        _ = render(field, width: 12, height: 1, tree: tree)
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 6, y: 0)))             // on "a"
        type(">", into: tree)
        #expect(store.text == "X<日本>abc")
        tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 11, y: 0)))            // past the end
        type(".", into: tree)
        #expect(store.text == "X<日本>abc.")
        #expect(!tree.handleMouse(MouseEvent(kind: .scrollDown, position: Point(x: 0, y: 0))))
        // With the text scrolled, the click counts from the scrolled-off part.
        let scrolledTree = ViewTree()
        let long = TextStore("abcdefghij")
        let canvas = render(TextField("", text: long.binding), width: 5, height: 1, tree: scrolledTree)
        #expect(canvas.line(0) == "ghij")
        scrolledTree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0)))
        type("-", into: scrolledTree)
        #expect(long.text == "abcdef-ghij")
    }

    @Test func followsTheBindingWhenChangedOutside() {
        let tree = ViewTree()
        let store = TextStore()
        let field = TextField("Message", text: store.binding)
        _ = render(field, width: 20, height: 1, tree: tree)
        type("hello", into: tree)
        store.text = ""                                       // cleared after a submit
        var canvas = render(field, width: 20, height: 1, tree: tree)
        #expect(canvas.line(0) == "Message")
        #expect(cursorColumns(canvas) == [0])
        type("a", into: tree)
        #expect(store.text == "a")
        store.text = "xy"                                     // the cursor (at 1) still fits
        type("z", into: tree)
        #expect(store.text == "xzy")
        // A binding that ignores writes wins over what was typed.
        let fixed = TextField("", text: .constant("fixed"))
        let fixedTree = ViewTree()
        _ = render(fixed, width: 20, height: 1, tree: fixedTree)
        type("!", into: fixedTree)
        canvas = render(fixed, width: 20, height: 1, tree: fixedTree)
        #expect(canvas.line(0) == "fixed")
    }

    @Test func disabledFieldTakesNoFocusOrKeys() {
        let tree = ViewTree()
        let off = TextStore("off"), on = TextStore("on")
        let view = VStack {
            TextField("", text: off.binding).disabled()
            TextField("", text: on.binding)
        }
        var canvas = render(view, width: 10, height: 2, tree: tree)
        type("!", into: tree)
        canvas = render(view, width: 10, height: 2, tree: tree)
        #expect(off.text == "off")
        #expect(on.text == "on!")
        #expect(cursorColumns(canvas, row: 0) == [])
        #expect(canvas[0, 0].style.attributes.contains(.dim))
        let alone = ViewTree()
        canvas = render(TextField("", text: off.binding).disabled(), width: 10, height: 1, tree: alone)
        #expect(alone.focusedID == nil)
        #expect(!alone.handleKey(KeyEvent(.char("x"))))
        #expect(!alone.handlePaste("x"))
        #expect(!alone.focusedWidgetTakesText)
        #expect(off.text == "off")
        #expect(cursorColumns(canvas) == [])
    }

    @Test func sizes() {
        let measure = { (field: TextField, width: Int?) in
            withNode(field) { $0.measure(ProposedSize(width: width, height: nil)) }
        }
        #expect(measure(TextField("Name", text: .constant("")), nil) == Size(width: 10, height: 1))
        #expect(measure(TextField("Name", text: .constant("fifteen chars..")), nil) == Size(width: 16, height: 1))
        #expect(measure(TextField("A long placeholder", text: .constant("")), nil) == Size(width: 18, height: 1))
        #expect(measure(TextField("Name", text: .constant("")), 37) == Size(width: 37, height: 1))
        // In a row it takes what is left.
        let canvas = render(HStack(spacing: 1) { Text("Name:"); TextField("", text: .constant("Ann")); Text("|") }, width: 20, height: 1)
        #expect(canvas.line(0) == "Name: Ann          |")
    }

    @Test func tinySizesDoNotCrashOrSpill() {
        for text in ["", "abc", "日本語", "👩‍💻x"] {
            for w in 0...3 {
                for h in 0...2 {
                    let tree = ViewTree()
                    let store = TextStore(text)
                    let field = TextField("Placeholder", text: store.binding)
                    _ = render(field, width: w, height: h, tree: tree)
                    type("日", into: tree)
                    press(.home, in: tree)
                    tree.handleMouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0)))
                    _ = render(field, width: w, height: h, tree: tree)
                }
            }
        }
        // Nothing is drawn outside the field's row or width.
        let canvas = render(VStack { HStack { TextField("Placeholder", text: .constant("")); Text("|") }; Text("z") }, width: 5, height: 2)
        #expect(canvas.lines == ["Plac|", "z"])
        let wide = render(HStack { TextField("", text: .constant("日本語")); Text("|") }, width: 2, height: 1)
        #expect(wide.line(0) == " |")
    }
}
