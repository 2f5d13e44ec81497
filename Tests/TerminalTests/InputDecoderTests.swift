import Testing
@testable import Terminal
@testable import TerminalCore

// MARK: - Helpers

private let esc = "\u{1B}"

private func key(_ code: KeyCode, _ modifiers: KeyModifiers = []) -> Event {
    .key(KeyEvent(code, modifiers: modifiers))
}

private func char(_ c: Character, _ modifiers: KeyModifiers = []) -> Event {
    .key(KeyEvent(.char(c), modifiers: modifiers))
}

private func chars(_ s: String) -> [Event] {
    s.map { char($0) }
}

private func mouse(_ kind: MouseEvent.Kind, _ x: Int, _ y: Int, _ modifiers: KeyModifiers = []) -> Event {
    .mouse(MouseEvent(kind: kind, position: Point(x: x, y: y), modifiers: modifiers))
}

/// Decodes `input` fed in the given chunks, then flushes if asked.
private func decode(_ chunks: [ArraySlice<UInt8>], flush: Bool) -> (events: [Event], pendingAfter: Bool) {
    var decoder = InputDecoder()
    var events: [Event] = []
    for chunk in chunks { events += decoder.feed(chunk) }
    if flush { events += decoder.flush() }
    return (events, decoder.hasPending)
}

/// Every way of cutting `input` the helper tries: all at once, fixed chunks of 1…6 bytes, and
/// two pieces split at every position.
private func chunkings(of input: [UInt8]) -> [(label: String, chunks: [ArraySlice<UInt8>])] {
    var result: [(String, [ArraySlice<UInt8>])] = [("all at once", [input[...]])]
    for size in 1...6 {
        let chunks = stride(from: 0, to: input.count, by: size).map {
            input[$0..<min($0 + size, input.count)]
        }
        result.append(("chunks of \(size)", chunks))
    }
    for cut in 1..<max(1, input.count) {
        result.append(("split at \(cut)", [input[..<cut], input[cut...]]))
    }
    return result
}

/// Feeds `input` every way `chunkings(of:)` knows and expects `expected` each time, with nothing
/// left pending. Calls `flush()` at the end only when `flush` is true.
private func expectDecodes(
    _ input: [UInt8], _ expected: [Event], flush: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (label, chunks) in chunkings(of: input) {
        let (events, pending) = decode(chunks, flush: flush)
        #expect(events == expected, "\(label)", sourceLocation: sourceLocation)
        #expect(!pending, "still pending, \(label)", sourceLocation: sourceLocation)
    }
}

private func expectDecodes(
    _ input: String, _ expected: [Event], flush: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectDecodes(Array(input.utf8), expected, flush: flush, sourceLocation: sourceLocation)
}

// MARK: - Text

@Test func printableASCII() {
    let all = String((0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) })
    expectDecodes(all, chars(all))
}

@Test(arguments: ["é", "ß", "€", "你", "😀", "𝄞", "\u{10FFFF}"])
func multiByteCharacterSplitAnywhere(_ s: String) {
    // Surrounded by ASCII so every split lands somewhere inside or around the character.
    expectDecodes("a\(s)z", [char("a"), char(Character(s)), char("z")])
}

@Test func cjkAndEmoji() {
    expectDecodes("日本語テキスト", chars("日本語テキスト"))
    expectDecodes("🎉🚀✨", chars("🎉🚀✨"))
    expectDecodes("한국어 ok", chars("한국어 ok"))
}

@Test func partialCharacterIsPendingUntilComplete() {
    var decoder = InputDecoder()
    #expect(decoder.feed([0xF0, 0x9F]) == [])
    #expect(decoder.hasPending)
    #expect(decoder.feed([0x98]) == [])
    #expect(decoder.hasPending)
    #expect(decoder.feed([0x80]) == [char("😀")])
    #expect(!decoder.hasPending)
}

@Test func combiningSequenceInOneChunkIsOneCharacter() {
    var decoder = InputDecoder()
    #expect(decoder.feed(Array("e\u{301}x".utf8)) == [char("e\u{301}"), char("x")])
    #expect(decoder.feed(Array("👍🏽🇯🇵🇫🇷".utf8)) == [char("👍🏽"), char("🇯🇵"), char("🇫🇷")])
    #expect(decoder.feed(Array("👨‍👩‍👧".utf8)) == [char("👨‍👩‍👧")])
    #expect(!decoder.hasPending)
}

@Test func combiningMarkInLaterChunkIsSeparateAndNotHeldBack() {
    var decoder = InputDecoder()
    #expect(decoder.feed(Array("e".utf8)) == [char("e")])   // not held back waiting for a mark
    #expect(!decoder.hasPending)
    #expect(decoder.feed(Array("\u{301}".utf8)) == [char("\u{301}")])
}

@Test func textDoesNotJoinOntoModifiedKeys() {
    // Alt-e followed by a combining mark, and a control key before one: no merging.
    expectDecodes("\(esc)e\u{301}", [char("e", .alt), char("\u{301}")])
    expectDecodes("\u{03}\u{301}", [char("c", .ctrl), char("\u{301}")])
}

// MARK: - Invalid UTF-8

/// Policy: one U+FFFD per maximal invalid subpart, then decoding resumes with the byte that
/// showed the error.
@Test(arguments: [
    ([0x80, 0x61], 1),                    // stray continuation
    ([0xBF, 0x80, 0x61], 2),              // two stray continuations
    ([0xC0, 0xAF, 0x61], 2),              // overlong "/" (C0 is never valid)
    ([0xC1, 0xBF, 0x61], 2),              // overlong DEL
    ([0xE0, 0x80, 0xAF, 0x61], 3),        // overlong 3-byte
    ([0xF0, 0x80, 0x80, 0xAF, 0x61], 4),  // overlong 4-byte
    ([0xED, 0xA0, 0x80, 0x61], 3),        // UTF-16 surrogate
    ([0xF4, 0x90, 0x80, 0x80, 0x61], 4),  // above U+10FFFF
    ([0xF5, 0x61], 1), ([0xFE, 0x61], 1), ([0xFF, 0xFE, 0x61], 2),
    ([0xC3, 0x61], 1),                    // truncated 2-byte, then ASCII
    ([0xE2, 0x82, 0x61], 1),              // truncated 3-byte
    ([0xF0, 0x9F, 0x98, 0x61], 1),        // truncated 4-byte
] as [([UInt8], Int)])
func invalidUTF8BecomesReplacementCharacters(bytes: [UInt8], replacements: Int) {
    let input = bytes + Array("ok€".utf8)
    let expected = Array(repeating: char("\u{FFFD}"), count: replacements) + chars("aok€")
    expectDecodes(input, expected)
    // Same policy as the standard library's decoder.
    let reference = String(decoding: input, as: UTF8.self)
    #expect(expected == reference.unicodeScalars.map { char(Character($0)) })
}

@Test func truncatedCharacterBeforeControlOrEscapeKeepsTheKey() {
    expectDecodes([0xC3, 0x0D], [char("\u{FFFD}"), key(.enter)])
    expectDecodes([0xE2, 0x82] + Array("\(esc)[A".utf8), [char("\u{FFFD}"), key(.up)])
    expectDecodes([0xE2, 0x1B], [char("\u{FFFD}"), key(.escape)], flush: true)
}

@Test func invalidByteAfterEscIsEscThenReplacement() {
    expectDecodes([0x1B, 0x80, 0x61], [key(.escape), char("\u{FFFD}"), char("a")])
}

// MARK: - Control bytes

@Test(arguments: [
    (0x00, KeyEvent(.char(" "), modifiers: .ctrl)),
    (0x01, KeyEvent(.char("a"), modifiers: .ctrl)),
    (0x02, KeyEvent(.char("b"), modifiers: .ctrl)),
    (0x03, KeyEvent(.char("c"), modifiers: .ctrl)),
    (0x04, KeyEvent(.char("d"), modifiers: .ctrl)),
    (0x05, KeyEvent(.char("e"), modifiers: .ctrl)),
    (0x06, KeyEvent(.char("f"), modifiers: .ctrl)),
    (0x07, KeyEvent(.char("g"), modifiers: .ctrl)),
    (0x08, KeyEvent(.backspace)),
    (0x09, KeyEvent(.tab)),
    (0x0A, KeyEvent(.enter)),
    (0x0B, KeyEvent(.char("k"), modifiers: .ctrl)),
    (0x0C, KeyEvent(.char("l"), modifiers: .ctrl)),
    (0x0D, KeyEvent(.enter)),
    (0x0E, KeyEvent(.char("n"), modifiers: .ctrl)),
    (0x0F, KeyEvent(.char("o"), modifiers: .ctrl)),
    (0x10, KeyEvent(.char("p"), modifiers: .ctrl)),
    (0x11, KeyEvent(.char("q"), modifiers: .ctrl)),
    (0x12, KeyEvent(.char("r"), modifiers: .ctrl)),
    (0x13, KeyEvent(.char("s"), modifiers: .ctrl)),
    (0x14, KeyEvent(.char("t"), modifiers: .ctrl)),
    (0x15, KeyEvent(.char("u"), modifiers: .ctrl)),
    (0x16, KeyEvent(.char("v"), modifiers: .ctrl)),
    (0x17, KeyEvent(.char("w"), modifiers: .ctrl)),
    (0x18, KeyEvent(.char("x"), modifiers: .ctrl)),
    (0x19, KeyEvent(.char("y"), modifiers: .ctrl)),
    (0x1A, KeyEvent(.char("z"), modifiers: .ctrl)),
    (0x1C, KeyEvent(.char("\\"), modifiers: .ctrl)),
    (0x1D, KeyEvent(.char("]"), modifiers: .ctrl)),
    (0x1E, KeyEvent(.char("^"), modifiers: .ctrl)),
    (0x1F, KeyEvent(.char("_"), modifiers: .ctrl)),
    (0x7F, KeyEvent(.backspace)),
] as [(UInt8, KeyEvent)])
func controlByte(byte: UInt8, expected: KeyEvent) {
    expectDecodes([byte], [.key(expected)])
    // With ESC first, the same key gains Alt.
    var alt = expected
    alt.modifiers.insert(.alt)
    expectDecodes([0x1B, byte], [.key(alt)])
}

@Test func ctrlCAndCtrlZBetweenText() {
    expectDecodes("a\u{03}b\u{1A}c", [char("a"), char("c", .ctrl), char("b"), char("z", .ctrl), char("c")])
}

// MARK: - Escape and Alt

@Test(arguments: ["a", "z", "A", "1", " ", "~", "é", "你"] as [Character])
func altPrintable(_ c: Character) {
    expectDecodes("\(esc)\(c)", [char(c, .alt)])
}

@Test func altKeysInARow() {
    expectDecodes("\(esc)x\(esc)Xq", [char("x", .alt), char("X", .alt), char("q")])
}

@Test func loneEscIsHeldUntilFlush() {
    var decoder = InputDecoder()
    #expect(decoder.feed([0x1B]) == [])
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [key(.escape)])
    #expect(!decoder.hasPending)
    #expect(decoder.flush() == [])
    #expect(decoder.feed(Array("a".utf8)) == [char("a")])   // back to normal
}

@Test func escEsc() {
    expectDecodes("\(esc)\(esc)", [key(.escape), key(.escape)], flush: true)
    expectDecodes("\(esc)\(esc)[A", [key(.escape), key(.up)])
    expectDecodes("\(esc)\(esc)a", [key(.escape), char("a", .alt)])
    expectDecodes("\(esc)\(esc)\(esc)", [key(.escape), key(.escape), key(.escape)], flush: true)
}

@Test(arguments: [
    ("\(esc)", [key(.escape)]),
    ("\(esc)[", [char("[", .alt)]),
    ("\(esc)O", [char("O", .alt)]),
    ("\(esc)]", [char("]", .alt)]),
    ("\(esc)P", [char("P", .alt)]),
    ("\(esc)_", [char("_", .alt)]),
    ("\(esc)[1;", []),                 // a sequence cut short is dropped, not typed
    ("\(esc)[<0;3", []),
    ("\(esc)[M ", []),
    ("\(esc)[[", []),
    ("\(esc)]0;title", []),
    ("\(esc)]0;title\(esc)", [key(.escape)]),
    ("x\u{C3}", [char("x"), char("\u{FFFD}")]),
] as [(String, [Event])])
func flushResolvesWhatIsPending(input: String, expected: [Event]) {
    // Feed as Latin-1 so "\u{C3}" is the single byte 0xC3.
    let bytes = input.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    var decoder = InputDecoder()
    var events = decoder.feed(bytes)
    #expect(decoder.hasPending == !bytes.isEmpty)
    events += decoder.flush()
    #expect(events == expected)
    #expect(!decoder.hasPending)
    #expect(decoder.feed(Array("q".utf8)) == [char("q")])
}

@Test func partialCharacterAfterEscFlushesAsEscAndReplacement() {
    expectDecodes([0x1B, 0xE2, 0x82], [key(.escape), char("\u{FFFD}")], flush: true)
    expectDecodes([0x1B, 0xC3, 0xA9], [char("é", .alt)])
}

// MARK: - Cursor and editing keys

@Test(arguments: [
    ("[A", KeyCode.up), ("[B", .down), ("[C", .right), ("[D", .left), ("[H", .home), ("[F", .end),
    ("OA", .up), ("OB", .down), ("OC", .right), ("OD", .left), ("OH", .home), ("OF", .end),
] as [(String, KeyCode)])
func arrowsAndHomeEnd(suffix: String, expected: KeyCode) {
    expectDecodes("\(esc)\(suffix)", [key(expected)])
    expectDecodes("a\(esc)\(suffix)b", [char("a"), key(expected), char("b")])
}

@Test(arguments: [
    (2, [.shift]), (3, [.alt]), (4, [.shift, .alt]), (5, [.ctrl]), (6, [.shift, .ctrl]),
    (7, [.alt, .ctrl]), (8, [.shift, .alt, .ctrl]), (9, [.alt]), (10, [.shift, .alt]),
    (1, []),
] as [(Int, KeyModifiers)])
func modifiedKeys(parameter: Int, modifiers: KeyModifiers) {
    expectDecodes("\(esc)[1;\(parameter)A", [key(.up, modifiers)])
    expectDecodes("\(esc)[1;\(parameter)D", [key(.left, modifiers)])
    expectDecodes("\(esc)[1;\(parameter)H", [key(.home, modifiers)])
    expectDecodes("\(esc)[3;\(parameter)~", [key(.delete, modifiers)])
    expectDecodes("\(esc)[1;\(parameter)P", [key(.function(1), modifiers)])
    expectDecodes("\(esc)[15;\(parameter)~", [key(.function(5), modifiers)])
    expectDecodes("\(esc)O\(parameter)B", [key(.down, modifiers)])   // old xterm SS3 form
}

@Test func commonModifiedArrows() {
    expectDecodes("\(esc)[1;5A\(esc)[1;2B\(esc)[1;3C", [key(.up, .ctrl), key(.down, .shift), key(.right, .alt)])
}

@Test(arguments: [
    (1, KeyCode.home), (7, .home), (2, .insert), (3, .delete), (4, .end), (8, .end),
    (5, .pageUp), (6, .pageDown),
    (11, .function(1)), (12, .function(2)), (13, .function(3)), (14, .function(4)), (15, .function(5)),
    (17, .function(6)), (18, .function(7)), (19, .function(8)), (20, .function(9)), (21, .function(10)),
    (23, .function(11)), (24, .function(12)), (25, .function(13)), (26, .function(14)),
    (28, .function(15)), (29, .function(16)), (31, .function(17)), (34, .function(20)),
] as [(Int, KeyCode)])
func tildeKeys(number: Int, expected: KeyCode) {
    expectDecodes("\(esc)[\(number)~", [key(expected)])
}

@Test func functionKeysF1toF4() {
    expectDecodes("\(esc)OP\(esc)OQ\(esc)OR\(esc)OS", (1...4).map { key(.function($0)) })
    expectDecodes("\(esc)[P\(esc)[Q\(esc)[R\(esc)[S", (1...4).map { key(.function($0)) })
    expectDecodes("\(esc)[1;2P\(esc)[1;5Q\(esc)[1;3R\(esc)[1;6S",
                  [key(.function(1), .shift), key(.function(2), .ctrl),
                   key(.function(3), .alt), key(.function(4), [.shift, .ctrl])])
}

@Test func linuxConsoleFunctionKeys() {
    expectDecodes("\(esc)[[A\(esc)[[B\(esc)[[C\(esc)[[D\(esc)[[E", (1...5).map { key(.function($0)) })
    expectDecodes("\(esc)[[Zx", [char("x")])   // unknown: swallowed
}

@Test func shiftTab() {
    expectDecodes("\(esc)[Z", [key(.tab, .shift)])
    expectDecodes("\(esc)[1;5Z", [key(.tab, [.shift, .ctrl])])
}

@Test func keypadApplicationMode() {
    expectDecodes("\(esc)OM", [key(.enter)])
    expectDecodes("\(esc)Oj\(esc)Ok\(esc)Ol\(esc)Om\(esc)On\(esc)Oo", chars("*+,-./"))
    let digits = "pqrstuvwxy".map { "\(esc)O\($0)" }.joined()
    expectDecodes(digits, chars("0123456789"))
    expectDecodes("\(esc)OX", [char("=")])
}

@Test func extendedKeyReports() {
    // CSI u (kitty / fixterms) and xterm modifyOtherKeys.
    expectDecodes("\(esc)[97;5u", [char("a", .ctrl)])
    expectDecodes("\(esc)[13;2u", [key(.enter, .shift)])
    expectDecodes("\(esc)[27;5;105~", [char("i", .ctrl)])
    expectDecodes("\(esc)[27;2;13~", [key(.enter, .shift)])
    expectDecodes("\(esc)[57399uq", [char("q")])   // kitty private-use functional key: dropped
}

@Test func cursorPositionReportIsNotF3() {
    expectDecodes("\(esc)[12;40R\(esc)[1;1Rx\(esc)[1;40R", [char("x")])
}

// MARK: - Interrupted sequences

@Test func controlByteInsideCSIAbandonsItAndKeepsTheKey() {
    expectDecodes("\(esc)[1;\u{03}x", [char("c", .ctrl), char("x")])
    expectDecodes("\(esc)[\u{03}", [char("[", .alt), char("c", .ctrl)])
    expectDecodes("\(esc)[1\(esc)[B", [key(.down)])
    expectDecodes("\(esc)O\u{0D}", [char("O", .alt), key(.enter)])
}

@Test func overLongCSIIsAbandoned() {
    let long = "\(esc)[" + String(repeating: "1;", count: 200) + "m"
    expectDecodes(long + "ok", chars("ok"))
    var decoder = InputDecoder()
    #expect(decoder.feed(Array(("\(esc)[" + String(repeating: "9", count: 10_000)).utf8)) == [])
    #expect(decoder.hasPending)
    #expect(decoder.feed(Array("~ab".utf8)) == chars("ab"))
}

// MARK: - Unknown sequences

@Test(arguments: [
    "\(esc)[I", "\(esc)[O",                           // focus in / out
    "\(esc)[12;40R",                                 // cursor position report
    "\(esc)[?62;22c", "\(esc)[>41;367;0c",           // device attributes
    "\(esc)[?2004;1$y",                              // DECRQM reply
    "\(esc)[?1u",                                    // kitty keyboard flags
    "\(esc)[1;5E", "\(esc)[99~", "\(esc)[201~", "\(esc)[~", "\(esc)[=5x", "\(esc)[1<2A",
    "\(esc)OZ", "\(esc)O1;5z",
    "\(esc)]11;rgb:0000/0000/0000\u{07}",            // OSC ended by BEL
    "\(esc)]10;rgb:ffff/ffff/ffff\(esc)\\",          // OSC ended by ST
    "\(esc)]52;c;aGVsbG8=\u{07}",
    "\(esc)P>|xterm(367)\(esc)\\",                   // DCS (XTVERSION)
    "\(esc)P1+r544e=787465726d\(esc)\\",
    "\(esc)_Gi=1;OK\(esc)\\",                        // APC (kitty graphics reply)
    "\(esc)[>0;1;1M",                                // mouse-like report with the wrong prefix
])
func unknownSequencesAreSwallowed(_ sequence: String) {
    expectDecodes(sequence + "k\(esc)[A", [char("k"), key(.up)])
    expectDecodes("j" + sequence, [char("j")])
}

@Test func escInsideStringStartsANewSequence() {
    expectDecodes("\(esc)]0;title\(esc)[Ax", [key(.up), char("x")])
}

// MARK: - Mouse

/// X10 / normal encoding: ESC [ M, then button, x, y, each + 32, coordinates 1-based.
private func x10(_ button: Int, _ x: Int, _ y: Int) -> [UInt8] {
    [0x1B, 0x5B, 0x4D, UInt8(button + 32), UInt8(x + 33), UInt8(y + 33)]
}

@Test func x10Mouse() {
    expectDecodes(x10(0, 0, 0), [mouse(.press(.left), 0, 0)])
    expectDecodes(x10(1, 9, 4), [mouse(.press(.middle), 9, 4)])
    expectDecodes(x10(2, 79, 23), [mouse(.press(.right), 79, 23)])
    expectDecodes(x10(3, 5, 6), [mouse(.release(nil), 5, 6)])
    expectDecodes(x10(32, 7, 8), [mouse(.drag(.left), 7, 8)])
    expectDecodes(x10(34, 7, 8), [mouse(.drag(.right), 7, 8)])
    expectDecodes(x10(35, 7, 8), [mouse(.move, 7, 8)])
    expectDecodes(x10(64, 1, 2), [mouse(.scrollUp, 1, 2)])
    expectDecodes(x10(65, 1, 2), [mouse(.scrollDown, 1, 2)])
    expectDecodes(x10(66, 1, 2) + Array("a".utf8), [char("a")])   // horizontal wheel: ignored
    expectDecodes(x10(4 | 8 | 16, 3, 3), [mouse(.press(.left), 3, 3, [.shift, .alt, .ctrl])])
    expectDecodes(x10(16 | 64, 3, 3), [mouse(.scrollUp, 3, 3, .ctrl)])
}

@Test func x10MouseWithHighBytesDoesNotCrash() {
    // Coordinates past column 95 use bytes >= 0x80; taken as single byte values.
    expectDecodes([0x1B, 0x5B, 0x4D, 0x20, 0xC8, 0xFF] + Array("a".utf8),
                  [mouse(.press(.left), 0xC8 - 33, 0xFF - 33), char("a")])
    expectDecodes([0x1B, 0x5B, 0x4D, 0x20, 0x00, 0x00], [mouse(.press(.left), 0, 0)])
}

@Test func sgrMouse() {
    expectDecodes("\(esc)[<0;1;1M", [mouse(.press(.left), 0, 0)])
    expectDecodes("\(esc)[<0;10;5m", [mouse(.release(.left), 9, 4)])
    expectDecodes("\(esc)[<1;300;200M", [mouse(.press(.middle), 299, 199)])
    expectDecodes("\(esc)[<2;3;4m", [mouse(.release(.right), 2, 3)])
    expectDecodes("\(esc)[<32;12;7M", [mouse(.drag(.left), 11, 6)])
    expectDecodes("\(esc)[<35;12;7M", [mouse(.move, 11, 6)])
    expectDecodes("\(esc)[<64;5;5M\(esc)[<65;5;5M", [mouse(.scrollUp, 4, 4), mouse(.scrollDown, 4, 4)])
    expectDecodes("\(esc)[<66;5;5M\(esc)[<67;5;5Mx", [char("x")])
    expectDecodes("\(esc)[<4;2;2M", [mouse(.press(.left), 1, 1, .shift)])
    expectDecodes("\(esc)[<8;2;2M", [mouse(.press(.left), 1, 1, .alt)])
    expectDecodes("\(esc)[<16;2;2M", [mouse(.press(.left), 1, 1, .ctrl)])
    expectDecodes("\(esc)[<48;2;2M", [mouse(.drag(.left), 1, 1, .ctrl)])
    expectDecodes("\(esc)[<81;2;2M", [mouse(.scrollDown, 1, 1, .ctrl)])
    expectDecodes("\(esc)[<0;1Mx\(esc)[<0;1;2;3Mx", chars("xx"))   // malformed: swallowed
}

@Test func urxvtMouse() {
    expectDecodes("\(esc)[32;10;5M", [mouse(.press(.left), 9, 4)])
    expectDecodes("\(esc)[35;10;5M", [mouse(.release(nil), 9, 4)])
    expectDecodes("\(esc)[96;1;1M", [mouse(.scrollUp, 0, 0)])
}

// MARK: - Bracketed paste

private func pasted(_ body: String) -> String { "\(esc)[200~\(body)\(esc)[201~" }

@Test func pasteIsOneEvent() {
    expectDecodes(pasted("hello world"), [.paste("hello world")])
    expectDecodes(pasted(""), [.paste("")])
}

@Test func pasteKeepsKeysAsText() {
    let body = "q\u{03}\u{1A}\t\u{7F}\(esc)[A\(esc)OP\(esc)\(esc)x\(esc)[20\(esc)[201x日本🎉"
    expectDecodes(pasted(body), [.paste(body)])
}

@Test func pasteNormalisesLineEndings() {
    expectDecodes(pasted("a\r\nb\rc\nd\r\r\ne\r"), [.paste("a\nb\nc\nd\n\ne\n")])
}

@Test func pasteReplacesInvalidUTF8() {
    let input = Array("\(esc)[200~a".utf8) + [0xFF, 0xE2, 0x82] + Array("b\(esc)[201~".utf8)
    expectDecodes(input, [.paste("a\u{FFFD}\u{FFFD}b")])
}

@Test func pasteFollowedByKeys() {
    expectDecodes("x" + pasted("hi") + "q\(esc)[B\u{03}",
                  [char("x"), .paste("hi"), char("q"), key(.down), char("c", .ctrl)])
    expectDecodes(pasted("one") + pasted("two"), [.paste("one"), .paste("two")])
}

@Test func pasteEndMarkerSplitAcrossChunks() {
    var decoder = InputDecoder()
    #expect(decoder.feed(Array("\(esc)[200~abc\(esc)[20".utf8)) == [])
    #expect(decoder.hasPending)
    #expect(decoder.feed(Array("1".utf8)) == [])
    #expect(decoder.feed(Array("~z".utf8)) == [.paste("abc"), char("z")])
    #expect(!decoder.hasPending)
}

@Test func flushDoesNotEndAPaste() {
    var decoder = InputDecoder()
    #expect(decoder.feed(Array("\(esc)[200~slow \(esc)".utf8)) == [])
    #expect(decoder.flush() == [])
    #expect(decoder.hasPending)
    #expect(decoder.feed(Array("[20".utf8)) == [])
    #expect(decoder.flush() == [])
    #expect(decoder.feed(Array("1~".utf8)) == [.paste("slow ")])
    #expect(!decoder.hasPending)
}

// MARK: - hasPending

@Test(arguments: [
    "\(esc)", "\(esc)[", "\(esc)[1;5", "\(esc)[?62;", "\(esc)O", "\(esc)O5", "\(esc)[[",
    "\(esc)[M", "\(esc)[M !", "\(esc)[<0;1;", "\(esc)]0;ti", "\(esc)]0;ti\(esc)", "\(esc)P>|",
    "\(esc)[200~", "\(esc)[200~text\(esc)[201",
])
func partialSequencesArePending(_ prefix: String) {
    var decoder = InputDecoder()
    #expect(decoder.feed(Array(prefix.utf8)) == [])
    #expect(decoder.hasPending)
}

@Test func partialUTF8IsPending() {
    for bytes in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x1B, 0xC3]] as [[UInt8]] {
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes) == [])
        #expect(decoder.hasPending)
    }
}

@Test func completedInputIsNotPending() {
    var decoder = InputDecoder()
    #expect(!decoder.hasPending)
    for chunk in ["a", "\(esc)[A", "\(esc)OP", "€", "\(esc)[<0;1;1M", pasted("p"), "\(esc)]0;t\u{07}", "\(esc)x"] {
        _ = decoder.feed(Array(chunk.utf8))
        #expect(!decoder.hasPending, "after \(chunk.debugDescription)")
    }
}

// MARK: - Robustness

/// Plain text split into one event per scalar, so grapheme joining (which depends on chunk
/// boundaries) does not hide real differences.
private func scalarwise(_ events: [Event]) -> [Event] {
    events.flatMap { event -> [Event] in
        guard case .key(let key) = event, key.modifiers.isEmpty, case .char(let c) = key.code else { return [event] }
        return c.unicodeScalars.map { char(Character($0)) }
    }
}

@Test(arguments: 0..<20)
func randomBytesDecodeTheSameWhateverTheChunking(seed: Int) {
    // Deterministic LCG; bytes biased towards ESC and sequence characters so sequences happen.
    var state = UInt64(seed) &* 6364136223846793005 &+ 1442695040888963407
    func next() -> UInt8 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
    let alphabet = Array("\u{1B}\u{1B}\u{1B}[[O<;;0125M~m]P\\\u{07}aé".utf8)
    let input = (0..<300).map { _ in next() % 3 == 0 ? next() : alphabet[Int(next()) % alphabet.count] }
    let reference = scalarwise(decode([input[...]], flush: true).events)
    for (label, chunks) in chunkings(of: input) {
        let (events, pending) = decode(chunks, flush: true)
        #expect(scalarwise(events) == reference, "\(label)")
        // Only an unfinished paste may survive a flush.
        let pasteStart = Array("\(esc)[200~".utf8)
        let hasPasteStart = input.indices.contains { input[$0...].starts(with: pasteStart) }
        #expect(!pending || hasPasteStart, "\(label)")
    }
}
