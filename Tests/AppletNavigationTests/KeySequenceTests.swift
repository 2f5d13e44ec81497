import AppletNavigation
import Terminal
import Testing

@Suite("KeySequence")
struct KeySequenceTests {
    @Test("Specs separated by spaces make a chord; labels read as the user writes them")
    func parsing() throws {
        let chord = try #require(KeySequence("ctrl-x ctrl-s"))
        #expect(chord.keys == [KeyEvent(.char("x"), modifiers: .ctrl), KeyEvent(.char("s"), modifiers: .ctrl)])
        #expect(chord.isChord && chord.label == "Ctrl-X Ctrl-S")
        #expect(KeySequence("g  g")?.keys.count == 2, "repeated spaces are one separator")
        #expect(KeySequence("q")?.isChord == false)
        #expect(KeySequence("q")?.label == "q")
    }

    @Test("Alt with a letter reads as keyboards write it: Alt-C, and Alt-Shift-C for the capital")
    func altLetters() {
        #expect(KeySequence("alt-c")?.label == "Alt-C")
        #expect(KeySequence("alt-C")?.label == "Alt-Shift-C")
        #expect(KeySequence("alt-shift-c")?.label == "Alt-Shift-C")
        #expect(KeySequence("alt-1")?.label == "Alt-1")
        #expect(KeySequence("ctrl-alt-x")?.label == "Ctrl-Alt-X")
        #expect(KeySequence("G")?.label == "G")
    }

    @Test("Empty text, a bad key anywhere, or no keys is no sequence", arguments: ["", "   ", "ctrl-", "g nope", "hyper-x"])
    func rejects(_ spec: String) {
        #expect(KeySequence(spec) == nil)
    }

    @Test func emptyKeysIsNil() {
        #expect(KeySequence([KeyEvent]()) == nil)
    }

    @Test("A prefix is strictly shorter; starts(with:) includes equality")
    func prefixes() throws {
        let g = try #require(KeySequence("g")), gg = try #require(KeySequence("g g")), gx = try #require(KeySequence("g x"))
        #expect(g.isPrefix(of: gg) && g.isPrefix(of: gx))
        #expect(!gg.isPrefix(of: gg) && !gg.isPrefix(of: g) && !gx.isPrefix(of: gg))
        #expect(gg.starts(with: gg.keys) && gg.starts(with: g.keys) && !g.starts(with: gg.keys))
        #expect(KeySequence(KeyEvent(.char("g"))) == g)
    }
}
