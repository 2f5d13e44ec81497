import Testing
@testable import AppletUI

@Suite("onKeyPress, onSubmit and List over a collection")
@MainActor
struct KeyPressTests {
    @Test func aHandlerGetsKeysTheFocusedWidgetDidNotTake() {
        let tree = ViewTree()
        let log = Ref<[String]>([])
        let selection = Ref(0)
        let view = VStack {
            List(count: 10, selection: selection.binding) { Text("row \($0)") }
                .onKeyPress("d") { log.value.append("inner d"); return .handled }
            Text("footer")
        }
        .onKeyPress("d") { log.value.append("outer d"); return .handled }
        .onKeyPress { key in
            log.value.append("any \(KeySpec.label(for: key))")
            return key == KeyEvent(.char("x")) ? .handled : .ignored
        }
        _ = render(view, width: 20, height: 5, tree: tree)
        #expect(tree.handleKey(KeyEvent(.char("j"))))       // the list takes j itself
        #expect(selection.value == 1)
        #expect(log.value.isEmpty)
        #expect(tree.handleKey(KeyEvent(.char("d"))))       // the innermost handler wins
        #expect(log.value == ["inner d"])
        #expect(tree.handleKey(KeyEvent(.char("x"))))
        #expect(!tree.handleKey(KeyEvent(.char("z"))))      // ignored by all: goes on to commands
        #expect(log.value == ["inner d", "any x", "any z"])
    }

    @Test func aHandlerAroundAnotherWidgetDoesNotSeeTheKey() {
        let tree = ViewTree()
        let pressed = Ref(0)
        let view = VStack {
            Button("Focused") {}
            Text("beside").onKeyPress("p") { pressed.value += 1; return .handled }
        }
        _ = render(view, width: 20, height: 2, tree: tree)
        #expect(!tree.handleKey(KeyEvent(.char("p"))))
        #expect(pressed.value == 0)
        // With nothing focusable, every handler in the pane is asked.
        let plain = ViewTree()
        _ = render(Text("beside").onKeyPress("p") { pressed.value += 1; return .handled }, width: 20, height: 1, tree: plain)
        #expect(plain.handleKey(KeyEvent(.char("p"))))
        #expect(pressed.value == 1)
    }

    @Test func aTextFieldKeepsItsPrintableKeys() {
        let tree = ViewTree()
        let text = Ref(""), submitted = Ref<[String]>([])
        let view = TextField("note", text: text.binding)
            .onSubmit { submitted.value.append(text.value) }
            .onKeyPress("a") { Issue.record("a is text in a field"); return .handled }
        _ = render(view, width: 20, height: 1, tree: tree)
        for c in "abc" { #expect(tree.handleKey(KeyEvent(.char(c)))) }
        #expect(text.value == "abc")
        #expect(tree.handleKey(KeyEvent(.enter)))
        #expect(submitted.value == ["abc"])
    }

    @Test func aListOverACollectionShowsItsElements() {
        let tree = ViewTree()
        let selection = Ref(0)
        let notes = ["milk", "東京 trip", "call Ada"]
        let view = List(notes, selection: selection.binding) { note in Text("• \(note)") }
        let canvas = render(view, width: 16, height: 4, tree: tree)
        #expect(canvas.lines == ["• milk", "• 東京 trip", "• call Ada", ""])
        #expect(tree.handleKey(KeyEvent(.char("G"))))
        #expect(selection.value == 2)
        // Any random-access collection: a slice keeps its own indexes.
        let slice = notes[1...]
        #expect(render(List(slice, selection: Ref(0).binding) { Text($0) }, width: 16, height: 2, tree: ViewTree()).lines == ["東京 trip", "call Ada"])
    }
}
