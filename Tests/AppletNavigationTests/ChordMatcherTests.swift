import AppletNavigation
import Terminal
import Testing

@Suite("ChordMatcher")
struct ChordMatcherTests {
    static func k(_ spec: String) -> KeyEvent { KeySpec.parse(spec)! }
    static func s(_ spec: String) -> KeySequence { KeySequence(spec)! }
    static let bound = [s("g g"), s("g t"), s("ctrl-x ctrl-s"), s("ctrl-x r t"), s("q")]

    @Test("A single bound key matches at once; an unbound one is unbound and leaves nothing pending")
    func singleKeys() {
        var chords = ChordMatcher()
        #expect(chords.feed(Self.k("q"), bound: Self.bound) == .matched(Self.s("q")))
        #expect(chords.feed(Self.k("z"), bound: Self.bound) == .unbound)
        #expect(chords.pending.isEmpty && chords.pendingLabel == nil)
    }

    @Test("The first key of a chord waits; the second runs it; the label shows the prefix")
    func twoKeys() {
        var chords = ChordMatcher()
        #expect(chords.feed(Self.k("g"), bound: Self.bound) == .pending(Self.s("g")))
        #expect(chords.pendingLabel == "g")
        #expect(chords.feed(Self.k("t"), bound: Self.bound) == .matched(Self.s("g t")))
        #expect(chords.pending.isEmpty)
    }

    @Test("Three-key chords wait twice; a wrong key at any point cancels and is swallowed")
    func threeKeys() {
        var chords = ChordMatcher()
        #expect(chords.feed(Self.k("ctrl-x"), bound: Self.bound) == .pending(Self.s("ctrl-x")))
        #expect(chords.feed(Self.k("r"), bound: Self.bound) == .pending(Self.s("ctrl-x r")))
        #expect(chords.pendingLabel == "Ctrl-X r")
        #expect(chords.feed(Self.k("q"), bound: Self.bound) == .cancelled(Self.s("ctrl-x r")), "q is bound alone but cancels")
        #expect(chords.pending.isEmpty)
        #expect(chords.feed(Self.k("ctrl-x"), bound: Self.bound) == .pending(Self.s("ctrl-x")))
        #expect(chords.feed(Self.k("ctrl-s"), bound: Self.bound) == .matched(Self.s("ctrl-x ctrl-s")))
    }

    @Test("A key bound alone and as a chord's start waits for the chord")
    func prefixWins() {
        var chords = ChordMatcher()
        let bound = [Self.s("g"), Self.s("g g")]
        #expect(chords.feed(Self.k("g"), bound: bound) == .pending(Self.s("g")))
        #expect(chords.feed(Self.k("g"), bound: bound) == .matched(Self.s("g g")))
    }

    @Test("expire() drops the prefix and says which; reset() forgets it silently")
    func expiry() {
        var chords = ChordMatcher(timeout: .milliseconds(300))
        #expect(chords.timeout == .milliseconds(300))
        #expect(ChordMatcher().timeout == .seconds(1))
        #expect(chords.expire() == nil)
        _ = chords.feed(Self.k("g"), bound: Self.bound)
        #expect(chords.expire() == Self.s("g"))
        #expect(chords.pending.isEmpty)
        _ = chords.feed(Self.k("g"), bound: Self.bound)
        chords.reset()
        #expect(chords.pending.isEmpty)
        #expect(chords.feed(Self.k("t"), bound: Self.bound) == .unbound, "after a reset t alone is not g t")
    }

    @Test("When the bindings change under a pending chord, a key that no longer continues it cancels")
    func bindingsChange() {
        var chords = ChordMatcher()
        _ = chords.feed(Self.k("g"), bound: Self.bound)
        #expect(chords.feed(Self.k("g"), bound: [Self.s("q")]) == .cancelled(Self.s("g")))
    }
}
