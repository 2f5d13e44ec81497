import AppletNavigation
import Terminal
import Testing

@Suite("Typed query")
struct TypedQueryTests {
    @Test func keysEditTheTextAndOthersAreLeftToTheCaller() {
        var query = TypedQuery()
        var taken = query.handle(KeyEvent(.char("a")))
        #expect(taken)
        taken = query.handle(KeyEvent(.char("B"), modifiers: .shift))
        #expect(taken && query.text == "aB")
        taken = query.handle(KeyEvent(.backspace))
        #expect(taken && query.text == "a")
        taken = query.handle(KeyEvent(.char("u"), modifiers: .ctrl))
        #expect(taken && query.text == "")
        taken = query.handle(KeyEvent(.backspace))
        #expect(!taken, "nothing to take off")
        taken = query.handle(KeyEvent(.char("x"), modifiers: .ctrl)) || query.handle(KeyEvent(.up))
        #expect(!taken && query.text == "")
        query.paste("two\nlines")
        #expect(query.text == "twolines")
    }
}
