import Testing
@testable import Terminal
@testable import TerminalCore

@Suite("Terminal text width")
struct TextWidthTests {

    // MARK: - Single grapheme clusters

    @Test("ASCII printable characters are 1 column", arguments: Array(0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) })
    func asciiPrintable(_ character: Character) {
        #expect(character.terminalWidth == 1)
    }

    @Test("Control characters are 0 columns", arguments: [
        "\0", "\u{07}", "\t", "\n", "\r", "\r\n", "\u{1B}", "\u{1F}", "\u{7F}",
        "\u{80}", "\u{85}", "\u{9B}", "\u{9F}",
    ] as [Character])
    func controls(_ character: Character) {
        #expect(character.terminalWidth == 0)
    }

    @Test("Wide and fullwidth characters are 2 columns", arguments: [
        "中", "文", "日", "本", "語",           // CJK ideographs
        "한", "국", "어",                        // Hangul syllables
        "あ", "ア", "ー",                        // kana, prolonged sound mark
        "Ａ", "！", "￥",                        // fullwidth forms (F)
        "\u{3000}",                              // ideographic space (F)
        "。", "「",                              // CJK punctuation
        "\u{3400}", "\u{20000}", "\u{2A6DF}", "\u{30000}", // CJK extensions
        "\u{F900}",                              // CJK compatibility ideograph
        "\u{1100}",                              // Hangul choseong
        "〈",                                    // U+2329
        "㍿",                                    // CJK compatibility square
        "\u{4DC0}", "\u{2630}",                  // Yijing symbols (W since Unicode 16)
    ] as [Character])
    func wide(_ character: Character) {
        #expect(character.terminalWidth == 2)
    }

    @Test("Narrow, halfwidth and ambiguous characters are 1 column", arguments: [
        "ｱ", "ﾝ", "ﾟ",                         // halfwidth katakana (H)
        "ﾡ",                                     // halfwidth Hangul
        "é", "ß", "Ω", "Ж", "א", "ع",            // precomposed / other scripts
        "…", "°", "±", "α", "─", "│", "█", "①", // East Asian Ambiguous
        "\u{E000}",                              // private use (Ambiguous)
        "☺", "❤", "☀", "✔", "©", "™",            // text-default pictographs
        "\u{00A0}",                              // no-break space
        "\u{0E01}",                              // Thai consonant
        "\u{2615}\u{FE0E}",                      // ☕︎ emoji-default + VS15
        "\u{263A}\u{FE0E}",                      // ☺︎ text-default + VS15
    ] as [Character])
    func narrow(_ character: Character) {
        #expect(character.terminalWidth == 1)
    }

    @Test("Emoji clusters are 2 columns", arguments: [
        "😀", "🚀", "🎉", "🤖", "🫠", "⌚", "⭐", "✅", "☕",  // emoji presentation
        "\u{1FAE9}",                                           // face with bags under eyes (Unicode 16)
        "❤️", "☺️", "✔️", "©️", "☀️",                            // text default + VS16
        "1️⃣", "#️⃣", "*️⃣",                                        // keycaps
        "👍🏽", "👋🏿", "☝🏻",                                      // skin-tone modifiers
        "👩‍💻", "👨‍👩‍👧", "👨‍👩‍👧‍👦", "🧑‍🤝‍🧑", "❤️‍🔥", "🏳️‍🌈",        // ZWJ sequences
        "🇯🇵", "🇺🇸", "🇪🇺",                                      // regional-indicator flags
        "🏴󠁧󠁢󠁳󠁣󠁴󠁿",                                                   // tag sequence (Scotland)
        "\u{1F3FD}",                                           // lone skin-tone modifier
        "\u{1F1EF}",                                           // lone regional indicator
    ] as [Character])
    func emoji(_ character: Character) {
        #expect(character.terminalWidth == 2)
    }

    @Test("Base plus combining marks is as wide as the base", arguments: [
        ("e\u{301}", 1),                 // decomposed é
        ("a\u{300}\u{316}\u{35C}", 1),   // several marks
        ("\u{1112}\u{1161}\u{11AB}", 2), // decomposed 한 (L V T jamo)
        ("中\u{301}", 2),
        ("a\u{20DD}", 1),                // enclosing circle (Me)
        ("a\u{FE0F}", 1),                // VS16 after a non-emoji changes nothing
        ("中\u{FE0E}", 2),               // VS15 after a non-emoji changes nothing
        ("1\u{20E3}", 1),                // keycap without VS16 stays text
        ("कि", 1),                       // Devanagari consonant + spacing vowel sign
        ("क्षि", 1),                     // Devanagari conjunct cluster
        ("ที่", 1),                        // Thai consonant + two nonspacing marks
        ("กำ", 1),                       // Thai SARA AM (spacing) joins the cluster
    ] as [(String, Int)])
    func combining(_ cluster: String, _ width: Int) throws {
        // Strings, not Character literals: the compiler's literal checker may predate
        // the Unicode 15.1 Indic conjunct rule the runtime uses for "क्षि".
        try #require(cluster.count == 1)
        #expect(cluster.first!.terminalWidth == width)
        #expect(cluster.terminalWidth == width)
    }

    @Test("Zero-width characters are 0 columns", arguments: [
        "\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{200F}", "\u{2060}", "\u{FEFF}",
        "\u{2028}", "\u{2029}",
        "\u{FE0F}", "\u{FE0E}", "\u{E0100}", // variation selectors alone
        "\u{301}",                           // lone combining mark
        "\u{E0041}",                         // tag character
        "\u{1160}",                          // Hangul jungseong (medial vowel) alone
    ] as [Character])
    func zeroWidth(_ character: Character) {
        #expect(character.terminalWidth == 0)
    }

    @Test("Soft hyphen is 1 column, as terminals advance the cursor for it")
    func softHyphen() {
        #expect(Character("\u{00AD}").terminalWidth == 1)
        #expect(Unicode.Scalar(0x00AD)!.terminalWidth == 1)
        #expect("co\u{00AD}op".terminalWidth == 5)
    }

    // MARK: - Scalars

    @Test("Lone scalars", arguments: [
        (0x41, 1), (0x00, 0), (0x1B, 0), (0x7F, 0), (0x9F, 0), (0xA0, 1), (0xE9, 1),
        (0x0301, 0), (0x20DD, 0), (0x200B, 0), (0x200D, 0), (0xFE0F, 0),
        (0x0600, 1),               // prepended concatenation mark is visible
        (0x4E2D, 2), (0xAC00, 2), (0xD7A3, 2), (0xD7A4, 1), (0xFF21, 2), (0xFF71, 1),
        (0x302A, 0),               // ideographic tone mark: Mn though in a wide block
        (0x302E, 2),               // Hangul single dot tone mark: Mc, wide
        (0x3099, 0),               // combining kana voiced sound mark
        (0x1F600, 2), (0x1F1E6, 2), (0x2764, 1), (0x263A, 1), (0x2026, 1),
        (0x1F336, 1), (0x1F441, 1), // text-default pictographs inside emoji blocks
        (0x3FFFD, 2), (0x3FFFE, 1), (0x10FFFD, 1),
    ] as [(UInt32, Int)])
    func scalars(_ value: UInt32, _ width: Int) {
        #expect(Unicode.Scalar(value)!.terminalWidth == width)
    }

    @Test("Every Emoji_Presentation scalar is 2 columns")
    func allEmojiPresentation() {
        var failures: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isEmojiPresentation else { continue }
            if scalar.terminalWidth != 2 { failures.append(String(value, radix: 16)) }
        }
        #expect(failures.isEmpty, "not 2 columns: \(failures)")
    }

    @Test("Every mark and control scalar is 0 columns; every scalar is 0, 1 or 2")
    func allScalarsInRange() {
        var failures: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let width = scalar.terminalWidth
            if !(0...2).contains(width) { failures.append(String(value, radix: 16)) }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .control:
                if width != 0 { failures.append(String(value, radix: 16)) }
            default:
                break
            }
        }
        #expect(failures.isEmpty, "unexpected widths: \(failures)")
    }

    @Test("Single-scalar Character width agrees with the scalar's width")
    func characterMatchesScalar() {
        var failures: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if Character(scalar).terminalWidth != scalar.terminalWidth {
                failures.append(String(value, radix: 16))
            }
        }
        #expect(failures.isEmpty, "mismatch: \(failures)")
    }

    // MARK: - Strings

    @Test("String widths", arguments: [
        ("", 0),
        ("hello", 5),
        ("Hello, world!", 13),
        ("中文", 4),
        ("日本語", 6),
        ("한국어", 6),
        ("ＡＢＣ", 6),
        ("ｱｲｳ", 3),
        ("café", 4),
        ("cafe\u{301}", 4),
        ("a\tb", 2),
        ("line\r\n", 4),
        ("\u{1B}[31m", 4),         // ESC itself is 0; "[31m" is 4
        ("ok 👍🏽", 5),
        ("I ❤ NY", 6),
        ("I ❤️ NY", 7),
        ("ab中cd", 6),
        ("日本🇯🇵", 6),
        ("👨‍👩‍👧 family", 9),
        ("1️⃣2️⃣3️⃣", 6),
        ("zero\u{200B}width", 9),
        ("नमस्ते", 3),                // Unicode 15.1 conjunct: न + म + स्ते
        ("สวัสดี", 4),                // Thai: ส วั ส ดี
        ("Ｈｅｌｌｏ，世界！", 18),
        ("──┤ box ├──", 11),       // box drawing is ambiguous → 1
    ] as [(String, Int)])
    func strings(_ string: String, _ width: Int) {
        #expect(string.terminalWidth == width)
    }

    @Test("String width is the sum of its clusters' widths", arguments: [
        "hello", "中文 mixed ｱ text", "👩‍💻 at work 🇯🇵", "e\u{301}\u{302}x", "नमस्ते दुनिया", "a\u{0}b\u{7F}c",
    ])
    func stringIsSumOfCharacters(_ string: String) {
        #expect(string.terminalWidth == string.reduce(0) { $0 + $1.terminalWidth })
    }

    @Test("Substrings and other StringProtocol values")
    func substrings() {
        let string = "ab中文cd"
        #expect(string.dropFirst(2).terminalWidth == 6)
        #expect(string.prefix(3).terminalWidth == 4)
        #expect(string[string.startIndex..<string.startIndex].terminalWidth == 0)
        #expect("plain ascii".dropLast(6).terminalWidth == 5)
    }

    // MARK: - Truncation

    @Test("Truncation without ellipsis", arguments: [
        ("hello", 10, "hello"),
        ("hello", 5, "hello"),
        ("hello", 3, "hel"),
        ("hello", 1, "h"),
        ("hello", 0, ""),
        ("hello", -3, ""),
        ("", 4, ""),
        ("ab中", 4, "ab中"),
        ("ab中", 3, "ab"),        // never cut a wide character in half
        ("ab中", 2, "ab"),
        ("中文", 3, "中"),
        ("中文", 1, ""),
        ("中文字", 5, "中文"),
        ("👩‍💻👩‍💻", 3, "👩‍💻"),       // whole ZWJ sequence or nothing
        ("🇯🇵🇺🇸", 2, "🇯🇵"),       // never split a flag pair
        ("cafe\u{301}!", 4, "cafe\u{301}"), // the mark stays with its base
        ("ab\u{200B}cd", 2, "ab\u{200B}"),  // zero-width cluster before the cut is kept
    ] as [(String, Int, String)])
    func truncation(_ string: String, _ columns: Int, _ expected: String) {
        let result = string.truncated(toColumns: columns)
        #expect(result == expected)
        #expect(result.terminalWidth <= max(columns, 0))
        #expect(string.hasPrefix(result))
    }

    @Test("Truncation with ellipsis", arguments: [
        ("hello", 10, "hello"),
        ("hello", 5, "hello"),    // fits: no ellipsis
        ("hello!", 5, "hell…"),
        ("hello", 3, "he…"),
        ("hello", 2, "h…"),
        ("hello", 1, "…"),
        ("hello", 0, ""),
        ("", 3, ""),
        ("ab中", 4, "ab中"),
        ("ab中", 3, "ab…"),
        ("ab中d", 4, "ab…"),      // "ab中" + "…" would be 5; the wide char is dropped
        ("中文字", 4, "中…"),
        ("中文字", 5, "中文…"),
        ("中文", 1, "…"),
        ("👍🏽👍🏽", 3, "👍🏽…"),
        ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
    ] as [(String, Int, String)])
    func truncationWithEllipsis(_ string: String, _ columns: Int, _ expected: String) {
        let result = string.truncated(toColumns: columns, ellipsis: true)
        #expect(result == expected)
        #expect(result.terminalWidth <= max(columns, 0))
    }

    @Test("Truncated output always fits and is a cluster-aligned prefix", arguments: [
        "The quick brown fox", "日本語のテキスト", "mixed 中文 and ｶﾀｶﾅ", "👨‍👩‍👧‍👦🇯🇵1️⃣❤️x", "e\u{301}\u{302}ab\u{200B}",
    ])
    func truncationInvariants(_ string: String) {
        for columns in 0...(string.terminalWidth + 2) {
            let plain = string.truncated(toColumns: columns)
            #expect(plain.terminalWidth <= columns)
            #expect(string.hasPrefix(plain))        // Character-wise prefix: no split cluster
            // Longest: adding the next cluster would overflow.
            if plain.count < string.count {
                let next = string[string.index(string.startIndex, offsetBy: plain.count)]
                #expect(plain.terminalWidth + next.terminalWidth > columns)
            } else {
                #expect(string.terminalWidth <= columns)
            }

            let dotted = string.truncated(toColumns: columns, ellipsis: true)
            #expect(dotted.terminalWidth <= columns)
            if string.terminalWidth <= columns {
                #expect(dotted == string)
            } else if columns >= 1 {
                #expect(dotted.hasSuffix("…"))
                #expect(string.hasPrefix(String(dotted.dropLast())))
            } else {
                #expect(dotted.isEmpty)
            }
        }
    }

    @Test("Truncating a Substring-derived String")
    func truncationOfSlice() {
        let line = "»» 中文テキスト ««"
        let slice = String(line.dropFirst(3))
        #expect(slice.truncated(toColumns: 5) == "中文")
        #expect(slice.truncated(toColumns: 5, ellipsis: true) == "中文…")
    }

    // MARK: - Text of single-column clusters (the fast path for `·`, `é`, `→`, `─`)

    @Test("Every single-column scalar is one cluster one column wide, alone and beside the others")
    func singleColumnScalarsAgreeWithGraphemeBreaking() {
        let scalars = (UInt32(0)...0x2FFF).compactMap(Unicode.Scalar.init).filter(\.isSingleColumnCluster)
        #expect(scalars.count == 95 + 0x260 + 0x18 + 0x70 + 0xFD)
        for scalar in scalars {
            #expect(Character(scalar).terminalWidth == 1, "U+\(String(scalar.value, radix: 16))")
        }
        // Side by side (each with its neighbours in the list): still one cluster per scalar.
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        let string = String(text)
        #expect(string.count == scalars.count)
        #expect(string.singleColumnScalarCount == scalars.count)
        #expect(string.reduce(0) { $0 + $1.terminalWidth } == string.terminalWidth)
    }

    @Test("Text with anything else is left to grapheme breaking", arguments: [
        "cafe\u{301}", "日本", "a\u{200D}b", "x\u{FE0F}", "👍", "a\nb", "a\u{2028}b", "\u{85}", "tab\t", "\u{7F}",
    ])
    func otherTextIsNotSingleColumn(_ text: String) {
        #expect(text.singleColumnScalarCount == nil)
    }

    @Test("Widths through the fast path", arguments: [
        ("tab 2 · count 5 · row 3", 23), ("café", 4), ("→ ← ↑", 5), ("┌──┐", 4), ("naïve – “quoted” …", 18),
    ])
    func fastPathWidths(_ text: String, _ width: Int) {
        #expect(text.singleColumnScalarCount == width)
        #expect(text.terminalWidth == width)
    }
}

