// TextWidth.swift
//
// How many terminal columns text occupies, measured by grapheme cluster, the
// way current terminal emulators lay it out.
//
// Rules (Unicode 16):
//
// * A grapheme cluster (`Character`) is 0, 1 or 2 columns wide.
// * East Asian Wide (W) and Fullwidth (F) characters are 2 columns
//   (`wideRanges` below, searched by binary search).
// * Emoji with default emoji presentation (`isEmojiPresentation`) are 2,
//   including lone regional indicators (East Asian Width N).
// * A text-default emoji followed by VS16 (U+FE0F) is 2 ("❤️", "1️⃣"); an emoji
//   followed directly by VS15 (U+FE0E) is 1 ("☺︎", "⌚︎"), as the variation
//   selector asks for text presentation.
// * Emoji ZWJ sequences, skin-tone modifiers, keycaps, tag sequences and
//   regional-indicator flag pairs are one cluster of width 2.
// * Nonspacing (Mn) and enclosing (Me) marks, format characters (Cf: ZWJ,
//   ZWNJ, U+200B, U+2060, U+FEFF, bidi controls, tags, ...), line/paragraph
//   separators, conjoining Hangul medial vowels and final consonants, and
//   variation selectors on their own are 0. A cluster's extra scalars never
//   add columns: "e\u{301}" is 1, a decomposed Hangul syllable is 2.
// * Exceptions among the format characters: SOFT HYPHEN (U+00AD) is 1, because
//   the wcwidth tables terminals use give it 1 and they advance the cursor for
//   it; measuring it as 0 would let the screen and our model drift apart.
//   Prepended concatenation marks (U+0600..U+0605 and friends) are visible
//   glyphs and count as 1.
// * Control characters (C0, DEL, C1) are 0. They are not drawable: callers
//   must filter or replace them before putting text into cells, because a
//   terminal would act on them (move the cursor, ring the bell, ...).
// * East Asian Ambiguous characters ("…", "°", "α", box drawing, ...) are 1,
//   the default of every mainstream terminal.
// * Everything else, unassigned code points and private use included, is 1.

extension Character {
    /// Columns this grapheme cluster takes in a terminal: 0, 1 or 2.
    ///
    /// ```swift
    /// Character("a").terminalWidth          // 1
    /// Character("中").terminalWidth         // 2
    /// Character("e\u{301}").terminalWidth   // 1 (decomposed "é")
    /// Character("👩‍💻").terminalWidth        // 2 (ZWJ sequence)
    /// Character("\u{200B}").terminalWidth   // 0
    /// Character("\t").terminalWidth         // 0 (controls are not drawable)
    /// ```
    public var terminalWidth: Int {
        // Fast path: a single-byte (hence single-scalar, ASCII) cluster.
        let utf8 = self.utf8
        if utf8.count == 1, let byte = utf8.first {
            return byte >= 0x20 && byte < 0x7F ? 1 : 0
        }
        // Fast path for the symbols user interfaces draw most, one scalar each and all 1 column:
        // dashes, quotes, bullets and "…" (U+2010–2027), arrows (U+2190–21FF), box drawing, block
        // elements and geometric shapes (U+2500–25FC; U+25FD–25FE are emoji, wide).
        if utf8.count == 3, let scalar = unicodeScalars.first {
            switch scalar.value {
            case 0x2010...0x2027, 0x2190...0x21FF, 0x2500...0x25FC: return 1
            default: break
            }
        }
        return _clusterWidth(self.unicodeScalars)
    }
}

extension StringProtocol {
    /// Columns the whole string takes (sum of its grapheme clusters' widths).
    ///
    /// ```swift
    /// "hello".terminalWidth        // 5
    /// "日本語".terminalWidth        // 6
    /// "ok 👍🏽".terminalWidth       // 5
    /// "cafe\u{301}".terminalWidth  // 4
    /// ```
    public var terminalWidth: Int {
        // Fast path: pure ASCII is one column per printable byte. ("\r\n" is a
        // single cluster, but both of its bytes are controls, so it still adds 0.)
        let ascii: Int? = utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var width = 0
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte >= 0x20 && byte != 0x7F { width &+= 1 }
            }
            return width
        } ?? nil
        if let ascii { return ascii }
        if let simple = singleColumnScalarCount { return simple }

        var width = 0
        for character in self {
            width += character.terminalWidth
        }
        return width
    }
}

extension StringProtocol {
    /// For text made only of scalars that are each a grapheme cluster of their own one column
    /// wide (`Unicode.Scalar.isSingleColumnCluster`), the number of scalars: its width, and the
    /// number of cells it fills. Nil for any other text (which needs grapheme breaking).
    ///
    /// ```swift
    /// "tab 2 · row 3".singleColumnScalarCount   // 13
    /// "café".singleColumnScalarCount            // 4 (é as one scalar)
    /// "cafe\u{301}".singleColumnScalarCount     // nil (a combining mark)
    /// "日本".singleColumnScalarCount             // nil (wide)
    /// ```
    public var singleColumnScalarCount: Int? {
        var count = 0
        for scalar in unicodeScalars {
            guard scalar.isSingleColumnCluster else { return nil }
            count &+= 1
        }
        return count
    }
}

extension Unicode.Scalar {
    /// Whether the scalar, among others of its kind, is a grapheme cluster of its own and takes
    /// one column: printable ASCII; U+00A0–U+02FF (Latin-1 to the spacing modifier letters, just
    /// before the combining marks); the dashes, quotes, bullets and "…" of U+2010–U+2027; arrows
    /// (U+2190–U+21FF); box drawing, blocks and shapes (U+2500–U+25FC). None of them joins a
    /// neighbour into a cluster (no mark, joiner, selector or separator is among them), so text
    /// of these alone is drawn scalar by scalar, one cell each, with no grapheme breaking.
    public var isSingleColumnCluster: Bool {
        switch value {
        case 0x20...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2190...0x21FF, 0x2500...0x25FC: return true
        default: return false
        }
    }

    /// Columns of a lone scalar: 0, 1 or 2 (used when a cluster has to be measured scalar by scalar).
    ///
    /// ```swift
    /// Unicode.Scalar("A").terminalWidth        // 1
    /// Unicode.Scalar(0x4E2D)!.terminalWidth    // 2 ("中")
    /// Unicode.Scalar(0x0301)!.terminalWidth    // 0 (combining acute accent)
    /// Unicode.Scalar(0x1F600)!.terminalWidth   // 2 ("😀")
    /// Unicode.Scalar(0x00AD)!.terminalWidth    // 1 (soft hyphen)
    /// ```
    public var terminalWidth: Int {
        let v = value
        if v < 0x7F { return v >= 0x20 ? 1 : 0 }   // ASCII: C0 controls are 0
        if v < 0xA0 { return 0 }                   // DEL and C1 controls
        if v == 0xAD { return 1 }                  // SOFT HYPHEN (see file header)
        if v < 0x300 { return 1 }                  // Latin-1 .. Spacing Modifiers: no marks
        // Common wide blocks without any marks or format characters.
        if (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v) { return 2 }

        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .control, .lineSeparator, .paragraphSeparator:
            return 0
        case .format:
            return _isPrependedConcatenationMark(v) ? 1 : 0
        default:
            break
        }
        // Conjoining Hangul medial vowels and final consonants render inside the
        // preceding initial consonant's two cells.
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
        if _isWide(v) { return 2 }
        // Emoji_Presentation characters outside the W table (regional indicators).
        if properties.isEmojiPresentation { return 2 }
        return 1
    }
}

extension String {
    /// The longest prefix that fits in `columns`, never splitting a grapheme cluster or a wide character;
    /// with `ellipsis: true` and truncation needed, the result ends in "…" and still fits (for columns >= 1).
    ///
    /// The string is returned unchanged when it already fits. When it does not,
    /// the prefix keeps every cluster up to the first one that would overflow
    /// (zero-width clusters right before that point are kept); with `ellipsis`
    /// the prefix is measured against `columns - 1` and "…" (1 column) is
    /// appended, so `columns == 1` yields just "…". A wide character that would
    /// straddle the limit is dropped, leaving the result one column short.
    /// `columns <= 0` yields "".
    ///
    /// ```swift
    /// "hello".truncated(toColumns: 3)                  // "hel"
    /// "hello".truncated(toColumns: 3, ellipsis: true)  // "he…"
    /// "ab中".truncated(toColumns: 3)                   // "ab"
    /// "ab中".truncated(toColumns: 3, ellipsis: true)   // "ab…"
    /// "中文".truncated(toColumns: 3)                   // "中"
    /// "hi".truncated(toColumns: 5, ellipsis: true)     // "hi"
    /// ```
    public func truncated(toColumns columns: Int, ellipsis: Bool = false) -> String {
        guard columns > 0 else { return "" }
        let budget = ellipsis ? columns - 1 : columns
        var used = 0
        var offset = 0                  // UTF-8 offset of the current cluster
        var cut: Int? = nil             // UTF-8 offset where `budget` was first exceeded
        for character in self {
            used += character.terminalWidth
            if cut == nil && used > budget { cut = offset }
            if used > columns {
                let end = utf8.index(utf8.startIndex, offsetBy: cut ?? offset)
                let prefix = String(self[..<end])
                return ellipsis ? prefix + "…" : prefix
            }
            offset += character.utf8.count
        }
        return self
    }
}

// MARK: - Implementation

/// Width of a grapheme cluster given its scalars (the first is the base).
private func _clusterWidth(_ scalars: Character.UnicodeScalarView) -> Int {
    var iterator = scalars.makeIterator()
    guard let first = iterator.next() else { return 0 }
    let v = first.value
    // A cluster led by a control ("\r\n", or a control followed by marks) is not drawable.
    if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }

    var width = first.terminalWidth
    var previous = first
    var isFirstFollower = true
    while let scalar = iterator.next() {
        switch scalar.value {
        case 0xFE0F:
            // VS16: emoji presentation ("❤️", "1️⃣", "🏳️‍🌈").
            if previous.properties.isEmoji { width = 2 }
        case 0xFE0E:
            // VS15 right after an emoji base: text presentation ("☺︎", "⌚︎").
            if isFirstFollower && first.properties.isEmoji { width = 1 }
        default:
            // Everything else (marks, ZWJ, modifiers, joined emoji, Hangul jamo,
            // spacing marks) can only widen the cluster, never beyond 2.
            let w = scalar.terminalWidth
            if w > width { width = w }
        }
        previous = scalar
        isFirstFollower = false
    }
    return width
}

/// Prepended_Concatenation_Mark: format characters drawn as visible glyphs.
private func _isPrependedConcatenationMark(_ v: UInt32) -> Bool {
    switch v {
    case 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x110BD, 0x110CD:
        return true
    default:
        return false
    }
}

/// Whether `v` is East Asian Wide (W) or Fullwidth (F), by binary search.
private func _isWide(_ v: UInt32) -> Bool {
    guard v >= 0x1100, v <= 0x3FFFD else { return false }
    let table = _wideRanges
    var low = 0
    var high = table.count - 1
    while low <= high {
        let mid = (low &+ high) >> 1
        let range = table[mid]
        if v < range.lower {
            high = mid - 1
        } else if v > range.upper {
            low = mid + 1
        } else {
            return true
        }
    }
    return false
}

/// East Asian Width W and F ranges (Unicode 16.0), sorted and non-overlapping,
/// inclusive bounds. Unassigned code points in the CJK ideograph planes are W,
/// as EastAsianWidth.txt specifies; other unassigned code points are not listed.
private let _wideRanges: [(lower: UInt32, upper: UInt32)] = [
    (0x1100, 0x115F),   // Hangul Jamo initial consonants
    (0x231A, 0x231B),   // ⌚ ⌛
    (0x2329, 0x232A),   // 〈 〉
    (0x23E9, 0x23EC),   // ⏩ ⏪ ⏫ ⏬
    (0x23F0, 0x23F0),   // ⏰
    (0x23F3, 0x23F3),   // ⏳
    (0x25FD, 0x25FE),   // ◽ ◾
    (0x2614, 0x2615),   // ☔ ☕
    (0x2630, 0x2637),   // ☰..☷ trigrams (W since Unicode 16)
    (0x2648, 0x2653),   // ♈..♓ zodiac
    (0x267F, 0x267F),   // ♿
    (0x268A, 0x268F),   // ⚊..⚏ monograms, digrams (W since Unicode 16)
    (0x2693, 0x2693),   // ⚓
    (0x26A1, 0x26A1),   // ⚡
    (0x26AA, 0x26AB),   // ⚪ ⚫
    (0x26BD, 0x26BE),   // ⚽ ⚾
    (0x26C4, 0x26C5),   // ⛄ ⛅
    (0x26CE, 0x26CE),   // ⛎
    (0x26D4, 0x26D4),   // ⛔
    (0x26EA, 0x26EA),   // ⛪
    (0x26F2, 0x26F3),   // ⛲ ⛳
    (0x26F5, 0x26F5),   // ⛵
    (0x26FA, 0x26FA),   // ⛺
    (0x26FD, 0x26FD),   // ⛽
    (0x2705, 0x2705),   // ✅
    (0x270A, 0x270B),   // ✊ ✋
    (0x2728, 0x2728),   // ✨
    (0x274C, 0x274C),   // ❌
    (0x274E, 0x274E),   // ❎
    (0x2753, 0x2755),   // ❓ ❔ ❕
    (0x2757, 0x2757),   // ❗
    (0x2795, 0x2797),   // ➕ ➖ ➗
    (0x27B0, 0x27B0),   // ➰
    (0x27BF, 0x27BF),   // ➿
    (0x2B1B, 0x2B1C),   // ⬛ ⬜
    (0x2B50, 0x2B50),   // ⭐
    (0x2B55, 0x2B55),   // ⭕
    (0x2E80, 0x2E99),   // CJK Radicals Supplement
    (0x2E9B, 0x2EF3),
    (0x2F00, 0x2FD5),   // Kangxi Radicals
    (0x2FF0, 0x2FFF),   // Ideographic Description Characters
    (0x3000, 0x3000),   // IDEOGRAPHIC SPACE (F)
    (0x3001, 0x303E),   // CJK Symbols and Punctuation
    (0x3041, 0x3096),   // Hiragana
    (0x3099, 0x30FF),   // Hiragana (marks, iteration) and Katakana
    (0x3105, 0x312F),   // Bopomofo
    (0x3131, 0x318E),   // Hangul Compatibility Jamo
    (0x3190, 0x31E5),   // Kanbun, Bopomofo Extended, CJK Strokes
    (0x31EF, 0x321E),   // IDC subtraction, Katakana Phonetic Extensions, Enclosed CJK
    (0x3220, 0x3247),
    (0x3250, 0xA48C),   // Enclosed CJK .. CJK Compatibility, Ext A, Yijing (W since 16), URO, Yi
    (0xA490, 0xA4C6),   // Yi Radicals
    (0xA960, 0xA97C),   // Hangul Jamo Extended-A
    (0xAC00, 0xD7A3),   // Hangul Syllables
    (0xF900, 0xFAFF),   // CJK Compatibility Ideographs
    (0xFE10, 0xFE19),   // Vertical Forms
    (0xFE30, 0xFE52),   // CJK Compatibility Forms, Small Form Variants
    (0xFE54, 0xFE66),
    (0xFE68, 0xFE6B),
    (0xFF01, 0xFF60),   // Fullwidth Forms (F)
    (0xFFE0, 0xFFE6),   // Fullwidth signs (F)
    (0x16FE0, 0x16FE4), // Ideographic Symbols and Punctuation
    (0x16FF0, 0x16FF1),
    (0x17000, 0x187F7), // Tangut
    (0x18800, 0x18CD5), // Tangut Components, Khitan Small Script
    (0x18CFF, 0x18D08), // Khitan, Tangut Supplement
    (0x1AFF0, 0x1AFF3), // Kana Extended-B
    (0x1AFF5, 0x1AFFB),
    (0x1AFFD, 0x1AFFE),
    (0x1B000, 0x1B122), // Kana Supplement, Kana Extended-A
    (0x1B132, 0x1B132),
    (0x1B150, 0x1B152), // Small Kana Extension
    (0x1B155, 0x1B155),
    (0x1B164, 0x1B167),
    (0x1B170, 0x1B2FB), // Nushu
    (0x1D300, 0x1D356), // Tai Xuan Jing Symbols (W since Unicode 16)
    (0x1D360, 0x1D376), // Counting Rod Numerals (W since Unicode 16)
    (0x1F004, 0x1F004), // 🀄
    (0x1F0CF, 0x1F0CF), // 🃏
    (0x1F18E, 0x1F18E), // 🆎
    (0x1F191, 0x1F19A), // 🆑..🆚
    (0x1F200, 0x1F202), // Enclosed Ideographic Supplement
    (0x1F210, 0x1F23B),
    (0x1F240, 0x1F248),
    (0x1F250, 0x1F251),
    (0x1F260, 0x1F265),
    (0x1F300, 0x1F320), // Miscellaneous Symbols and Pictographs ...
    (0x1F32D, 0x1F335),
    (0x1F337, 0x1F37C),
    (0x1F37E, 0x1F393),
    (0x1F3A0, 0x1F3CA),
    (0x1F3CF, 0x1F3D3),
    (0x1F3E0, 0x1F3F0),
    (0x1F3F4, 0x1F3F4),
    (0x1F3F8, 0x1F43E),
    (0x1F440, 0x1F440),
    (0x1F442, 0x1F4FC),
    (0x1F4FF, 0x1F53D),
    (0x1F54B, 0x1F54E),
    (0x1F550, 0x1F567),
    (0x1F57A, 0x1F57A),
    (0x1F595, 0x1F596),
    (0x1F5A4, 0x1F5A4),
    (0x1F5FB, 0x1F64F), // ... and Emoticons
    (0x1F680, 0x1F6C5), // Transport and Map Symbols
    (0x1F6CC, 0x1F6CC),
    (0x1F6D0, 0x1F6D2),
    (0x1F6D5, 0x1F6D7),
    (0x1F6DC, 0x1F6DF),
    (0x1F6EB, 0x1F6EC),
    (0x1F6F4, 0x1F6FC),
    (0x1F7E0, 0x1F7EB), // Geometric Shapes Extended
    (0x1F7F0, 0x1F7F0),
    (0x1F90C, 0x1F93A), // Supplemental Symbols and Pictographs
    (0x1F93C, 0x1F945),
    (0x1F947, 0x1F9FF),
    (0x1FA70, 0x1FA7C), // Symbols and Pictographs Extended-A
    (0x1FA80, 0x1FA89),
    (0x1FA8F, 0x1FAC6),
    (0x1FACE, 0x1FADC),
    (0x1FADF, 0x1FAE9),
    (0x1FAF0, 0x1FAF8),
    (0x20000, 0x2FFFD), // CJK Unified Ideographs Extensions B.., Compatibility Supplement
    (0x30000, 0x3FFFD), // CJK Unified Ideographs Extensions G..
]
