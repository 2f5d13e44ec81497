import AppletNavigation
import AppletTesting
import Testing

@Suite("FuzzyMatcher")
struct FuzzyMatcherTests {
    @Test("Characters in order, any case, spaces in the query ignored; positions point at them")
    func matches() throws {
        let match = try #require(FuzzyMatcher.match("nt", in: "Next tab"))
        #expect(match.positions == [0, 5])
        #expect(FuzzyMatcher.match("NEXT", in: "next tab")?.positions == [0, 1, 2, 3])
        #expect(FuzzyMatcher.match("next tab", in: "Next tab")?.positions == [0, 1, 2, 3, 5, 6, 7])
        #expect(FuzzyMatcher.match("tn", in: "Next tab") == nil, "order matters")
        #expect(FuzzyMatcher.match("xyz", in: "Next tab") == nil)
        #expect(FuzzyMatcher.match("too long a query", in: "short") == nil)
    }

    @Test("An empty query matches everything with score 0")
    func empty() {
        #expect(FuzzyMatcher.match("", in: "anything") == FuzzyMatch(score: 0, positions: []))
        #expect(FuzzyMatcher.match("  ", in: "") == FuzzyMatch(score: 0, positions: []))
    }

    @Test("Word starts and runs beat scattered letters; the match is placed where it scores best")
    func ranking() throws {
        let ranked = FuzzyMatcher.rank(["Delete note", "Sort notes by date", "New note", "Nothing"], query: "nn", text: { $0 })
        #expect(ranked.first?.item == "New note", "\(ranked.map(\.item))")
        // "no" finds the word "note", not the N of "New" and a distant o.
        let newNote = try #require(FuzzyMatcher.match("no", in: "New note"))
        #expect(newNote.positions == [4, 5])
        // A run at a word start outranks the same letters spread out.
        #expect(FuzzyMatcher.match("quit", in: "Quit")!.score > FuzzyMatcher.match("quit", in: "Queue it")!.score)
        #expect(FuzzyMatcher.match("nt", in: "Next tab")!.score > FuzzyMatcher.match("nt", in: "Sentinel")!.score)
        // camelCase humps are word starts.
        #expect(FuzzyMatcher.match("fs", in: "focusSearch")?.positions == [0, 5])
    }

    @Test("rank keeps equal scores in their original order and drops what does not match")
    func stableRank() {
        let ranked = FuzzyMatcher.rank(["b one", "a one", "none", "c one"], query: "one", text: { $0 })
        #expect(ranked.map(\.item).prefix(3) == ["b one", "a one", "c one"])
        #expect(ranked.count == 4)
        #expect(FuzzyMatcher.rank(["x", "y"], query: "", text: { $0 }).map(\.item) == ["x", "y"])
        #expect(FuzzyMatcher.rank(["x", "y"], query: "z", text: { $0 }).isEmpty)
    }

    @Test("Text that lower-cases to more than one character still matches")
    func unicode() {
        #expect(FuzzyMatcher.match("st", in: "İstanbul")?.positions == [1, 2])
        #expect(FuzzyMatcher.match("ß", in: "Straße")?.positions == [4])
        #expect(FuzzyMatcher.match("é", in: "Café")?.positions == [3])
    }

    @Test("Ten thousand titles: every match is a real subsequence and the best is first")
    func manyItems() {
        var random = SeededRandom(seed: 42)
        let words = ["open", "close", "note", "tab", "next", "delete", "sort", "filter", "theme", "quit", "help", "sync"]
        let items = (0..<10_000).map { _ in (0..<3).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ") }
        let ranked = FuzzyMatcher.rank(items, query: "dlt nt", text: { $0 })
        #expect(!ranked.isEmpty)
        for (item, match) in ranked {
            let characters = Array(item.lowercased())
            #expect(String(match.positions.map { characters[$0] }) == "dltnt")
            #expect(match.positions == match.positions.sorted() && Set(match.positions).count == match.positions.count)
        }
        #expect(zip(ranked, ranked.dropFirst()).allSatisfy { $0.match.score >= $1.match.score })
    }
}

