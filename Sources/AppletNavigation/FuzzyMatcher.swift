/// How well a query matched a text: a higher score is a better match; `positions` are the
/// offsets (in characters) of the text's characters that matched, for highlighting.
public struct FuzzyMatch: Equatable, Sendable {
    public var score: Int
    public var positions: [Int]

    public init(score: Int, positions: [Int]) {
        self.score = score
        self.positions = positions
    }
}

/// Fuzzy matching for the command palette, in the manner of fzf and VS Code's palette: every
/// query character must appear in the text in order, ignoring case and spaces in the query;
/// matches at the start of a word and runs of consecutive characters score higher, gaps lower.
///
/// Invariants: an empty query matches everything with score 0; a text without the query's
/// characters in order never matches; `rank` keeps equal scores in their original order.
///
/// ```swift
/// FuzzyMatcher.match("nt", in: "Next tab")?.positions   // [0, 5]
/// FuzzyMatcher.rank(commands, query: "quit", text: \.title).first?.item
/// ```
public enum FuzzyMatcher {
    private static let matchScore = 16
    private static let wordStartBonus = 8
    private static let firstCharacterBonus = 4
    private static let consecutiveBonus = 6
    private static let gapStartPenalty = 3
    private static let gapExtensionPenalty = 1

    /// The best match of `query` in `text`, or nil when the text does not hold the query's
    /// characters in order.
    ///
    /// Scored by dynamic programming over (query character, text position), as fzf does: each
    /// matched character earns points, more at a word start and right after the previous match;
    /// a gap costs a little to open and less to extend. O(query × text), fine for titles.
    public static func match(_ query: String, in text: String) -> FuzzyMatch? {
        match(FuzzyText.needle(query), in: FuzzyText(text))
    }

    /// `match(_:in:)` for a text prepared once (the palette prepares every entry when it opens,
    /// so a keystroke costs only the matching) and a needle from `FuzzyText.needle(_:)`.
    public static func match(_ needle: [UInt32], in text: FuzzyText) -> FuzzyMatch? {
        if needle.isEmpty { return FuzzyMatch(score: 0, positions: []) }
        let haystack = text.folded
        let m = needle.count, n = haystack.count
        guard m <= n else { return nil }

        // Fail fast, before allocating anything: the characters must appear in order at all.
        var probe = 0
        for character in haystack where character == needle[probe] {
            probe += 1
            if probe == m { break }
        }
        guard probe == m else { return nil }

        let none = Int.min / 4
        // score[i*n + j]: best score with needle[i] matched at text position j; from[i*n + j]:
        // where needle[i-1] was matched on that best path.
        var score = [Int](repeating: none, count: m * n)
        var from = [Int](repeating: -1, count: m * n)
        let bonus = text.bonus
        for j in 0..<n where haystack[j] == needle[0] { score[j] = bonus[j] }
        if m > 1 {
            for i in 1..<m {
                let row = i * n, previous = (i - 1) * n
                let wanted = needle[i]
                var carry = none, carryFrom = -1   // best previous match at least two positions back, gap-penalised
                for j in i..<n {
                    if j >= 2, score[previous + j - 2] > none {
                        let opened = score[previous + j - 2] - gapStartPenalty
                        if opened >= carry - gapExtensionPenalty {
                            carry = opened
                            carryFrom = j - 2
                        } else {
                            carry -= gapExtensionPenalty
                        }
                    } else if carry > none {
                        carry -= gapExtensionPenalty
                    }
                    guard haystack[j] == wanted else { continue }
                    let diagonal = score[previous + j - 1]
                    var best = none, bestFrom = -1
                    if diagonal > none { best = diagonal + consecutiveBonus; bestFrom = j - 1 }
                    if carry > none, carry > best { best = carry; bestFrom = carryFrom }
                    if best > none {
                        score[row + j] = best + bonus[j]
                        from[row + j] = bestFrom
                    }
                }
            }
        }
        let last = (m - 1) * n
        var end = -1, best = none
        for j in 0..<n where score[last + j] > best { best = score[last + j]; end = j }
        guard end >= 0 else { return nil }
        var positions = [Int](repeating: 0, count: m)
        var j = end
        for i in stride(from: m - 1, through: 0, by: -1) {
            positions[i] = j
            j = from[i * n + j]
        }
        // Shorter texts rank above longer ones with the same match.
        return FuzzyMatch(score: best - min(n - m, 24) / 4, positions: positions)
    }

    fileprivate static func bonus(at index: Int, _ text: [Character]) -> Int {
        matchScore + (isWordStart(index, text) ? wordStartBonus : 0) + (index == 0 ? firstCharacterBonus : 0)
    }

    private static func isWordStart(_ index: Int, _ text: [Character]) -> Bool {
        if index == 0 { return true }
        let before = text[index - 1]
        let here = text[index]
        if let b = before.asciiValue, let h = here.asciiValue {
            let bAlnum = isASCIIAlphanumeric(b), hAlnum = isASCIIAlphanumeric(h)
            if !bAlnum { return hAlnum }
            return (b >= 97 && b <= 122) && (h >= 65 && h <= 90)
        }
        if !(before.isLetter || before.isNumber) { return here.isLetter || here.isNumber }
        return before.isLowercase && here.isUppercase
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }

    /// The items whose prepared text matches `query`, best first; equal scores keep their order.
    public static func rank<Item>(_ items: [(item: Item, text: FuzzyText)], query: String) -> [(item: Item, match: FuzzyMatch)] {
        let needle = FuzzyText.needle(query)
        var found: [(offset: Int, item: Item, match: FuzzyMatch)] = []
        for (offset, entry) in items.enumerated() {
            if let match = match(needle, in: entry.text) { found.append((offset, entry.item, match)) }
        }
        found.sort { $0.match.score != $1.match.score ? $0.match.score > $1.match.score : $0.offset < $1.offset }
        return found.map { ($0.item, $0.match) }
    }

    /// The items whose text matches `query`, best first; equal scores keep their order.
    public static func rank<Item>(_ items: [Item], query: String, text: (Item) -> String) -> [(item: Item, match: FuzzyMatch)] {
        rank(items.map { (item: $0, text: FuzzyText(text($0))) }, query: query)
    }
}

/// A text made ready for `FuzzyMatcher`: each character folded to lower case (as one code point)
/// and its score bonus (word start, first character) worked out once. A palette prepares its
/// entries when it opens; each keystroke then only matches.
///
/// ```swift
/// let text = FuzzyText("Next tab")
/// FuzzyMatcher.match(FuzzyText.needle("nt"), in: text)?.positions   // [0, 5]
/// ```
public struct FuzzyText: Sendable {
    /// One folded code point per character of the text.
    let folded: [UInt32]
    /// The points a match at each position earns.
    let bonus: [Int]

    public init(_ text: String) {
        let characters = Array(text)
        folded = characters.map(Self.fold)
        bonus = characters.indices.map { FuzzyMatcher.bonus(at: $0, characters) }
    }

    /// A query as `FuzzyMatcher` compares it: folded, spaces left out.
    public static func needle(_ query: String) -> [UInt32] {
        query.compactMap { $0 == " " ? nil : fold($0) }
    }

    /// A character in lower case, as one code point (the first, for a cluster of several).
    static func fold(_ character: Character) -> UInt32 {
        if let ascii = character.asciiValue {
            return UInt32(ascii >= 65 && ascii <= 90 ? ascii + 32 : ascii)
        }
        let lower = character.lowercased()
        return (lower.unicodeScalars.count == 1 ? lower.unicodeScalars.first : character.unicodeScalars.first)?.value ?? 0
    }
}
