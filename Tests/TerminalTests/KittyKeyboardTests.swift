import Testing
@testable import Terminal
@testable import TerminalCore

// The kitty keyboard protocol: deciding whether to push it (`KittyKeyboard.Detection`), the
// terminal's answers among the input (`InputDecoder.takeReplies()`), and its `CSI code ; mods u`
// keys. The pseudo-terminal side (the bytes NcursesTerminal writes) is in AppletKitTests'
// KittyKeyboardPtyTests.

private let esc = "\u{1B}"

private func key(_ code: KeyCode, _ modifiers: KeyModifiers = []) -> Event {
    .key(KeyEvent(code, modifiers: modifiers))
}

private func char(_ c: Character, _ modifiers: KeyModifiers = []) -> Event {
    .key(KeyEvent(.char(c), modifiers: modifiers))
}

/// Every way of cutting `input`: all at once, one byte at a time, and two pieces split at every
/// byte boundary.
private func chunkings(of input: [UInt8]) -> [(label: String, chunks: [ArraySlice<UInt8>])] {
    var result: [(String, [ArraySlice<UInt8>])] = [("all at once", [input[...]])]
    result.append(("byte by byte", input.indices.map { input[$0...$0] }))
    for cut in 1..<max(1, input.count) {
        result.append(("split at \(cut)", [input[..<cut], input[cut...]]))
    }
    return result
}

/// What one decoder made of `chunks`: its events and the replies it kept.
private func decode(_ chunks: [ArraySlice<UInt8>], kittyActive: Bool) -> (events: [Event], replies: [TerminalReply], pending: Bool) {
    var decoder = InputDecoder()
    decoder.isKittyKeyboardActive = kittyActive
    var events: [Event] = []
    for chunk in chunks { events += decoder.feed(chunk) }
    return (events, decoder.takeReplies(), decoder.hasPending)
}

/// Feeds `input` every way `chunkings(of:)` knows, without ever calling `flush()`: each way must
/// give `expected` (and `replies`), with nothing left pending.
private func expectDecodes(
    _ input: String, _ expected: [Event], replies: [TerminalReply] = [], kittyActive: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (label, chunks) in chunkings(of: Array(input.utf8)) {
        let result = decode(chunks, kittyActive: kittyActive)
        #expect(result.events == expected, "\(label)", sourceLocation: sourceLocation)
        #expect(result.replies == replies, "replies, \(label)", sourceLocation: sourceLocation)
        #expect(!result.pending, "still pending, \(label)", sourceLocation: sourceLocation)
    }
}

// MARK: - Detection

/// `detection.receive(reply)`, outside `#expect` (which cannot call a mutating method).
private func receive(_ reply: TerminalReply, into detection: inout KittyKeyboard.Detection) -> Bool {
    detection.receive(reply)
}

@Suite("KittyKeyboard.Detection")
struct KittyKeyboardDetectionTests {
    @Test func flagsBeforeDA1MeanSupportedAndPushOnce() {
        var detection = KittyKeyboard.Detection()
        detection.queried()
        #expect(detection.state == .awaitingReply)
        #expect(receive(.kittyKeyboardFlags([]), into: &detection) == true)
        #expect(detection.state == .supported([]))
        #expect(detection.isSupported)
        // The DA1 answer that follows, and any further flags answer, push nothing more.
        #expect(receive(.primaryDeviceAttributes([62, 22]), into: &detection) == false)
        #expect(receive(.kittyKeyboardFlags(.disambiguateEscapeCodes), into: &detection) == false)
        #expect(detection.state == .supported([]))
    }

    @Test func theFlagsInEffectBeforeThePushAreKept() {
        var detection = KittyKeyboard.Detection()
        detection.queried()
        #expect(receive(.kittyKeyboardFlags([.disambiguateEscapeCodes, .reportEventTypes]), into: &detection) == true)
        #expect(detection.state == .supported(KittyKeyboard.Flags(rawValue: 3)))
    }

    @Test func da1FirstMeansUnsupportedForGood() {
        var detection = KittyKeyboard.Detection()
        detection.queried()
        #expect(receive(.primaryDeviceAttributes([62, 22]), into: &detection) == false)
        #expect(detection.state == .unsupported)
        // A flags answer after DA1 is late (or not ours): ignored.
        #expect(receive(.kittyKeyboardFlags([]), into: &detection) == false)
        #expect(receive(.primaryDeviceAttributes([1]), into: &detection) == false)
        #expect(detection.state == .unsupported)
        #expect(!detection.isSupported)
    }

    @Test func repliesBeforeTheQueryAreNotOurs() {
        var detection = KittyKeyboard.Detection()
        #expect(detection.state == .notQueried)
        #expect(receive(.kittyKeyboardFlags([]), into: &detection) == false)
        #expect(receive(.primaryDeviceAttributes([62]), into: &detection) == false)
        #expect(detection.state == .notQueried)
        // Once the query is out, answers count; the DA1 that came before did not make it unsupported.
        detection.queried()
        #expect(receive(.kittyKeyboardFlags([]), into: &detection) == true)
        #expect(detection.isSupported)
    }

    @Test func noAnswerAtAllPushesNothing() {
        var detection = KittyKeyboard.Detection()
        detection.queried()
        #expect(detection.state == .awaitingReply)
        #expect(!detection.isSupported)
    }

    /// What NcursesTerminal does with each read: the decoder's replies go to the detection, and
    /// each `true` is one push. A kitty terminal's answers, split across reads among typed keys,
    /// push exactly once.
    @Test func decoderRepliesDriveTheDetection() {
        var decoder = InputDecoder()
        var detection = KittyKeyboard.Detection()
        detection.queried()
        var pushes = 0
        var events: [Event] = []
        for read in ["a\(esc)[?", "0u", "b\(esc)[?62;", "22c", "\(esc)[?1u", "c"] {
            events += decoder.feed(Array(read.utf8))
            for reply in decoder.takeReplies() where detection.receive(reply) {
                pushes += 1
                decoder.isKittyKeyboardActive = true
            }
        }
        #expect(pushes == 1)
        #expect(detection.state == .supported([]))
        #expect(decoder.isKittyKeyboardActive)
        #expect(events == [char("a"), char("b"), char("c")])
    }
}

// MARK: - Replies in the input

@Suite("InputDecoder: terminal replies")
struct TerminalReplyDecodingTests {
    @Test func flagsAndDA1AmongKeysSplitAtEveryByte() {
        expectDecodes("x\(esc)[?1uy\(esc)[?62;22cz", [char("x"), char("y"), char("z")],
                      replies: [.kittyKeyboardFlags(.disambiguateEscapeCodes), .primaryDeviceAttributes([62, 22])])
        expectDecodes("\(esc)[?0u\(esc)[?62;22c", [], replies: [.kittyKeyboardFlags([]), .primaryDeviceAttributes([62, 22])])
        // Between keys that are escape sequences themselves.
        expectDecodes("\(esc)[A\(esc)[?62;22c\(esc)[13;5u", [key(.up), key(.enter, .ctrl)],
                      replies: [.primaryDeviceAttributes([62, 22])])
    }

    @Test func takeRepliesEmptiesTheList() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\(esc)[?1u".utf8)) == [])
        #expect(decoder.takeReplies() == [.kittyKeyboardFlags(.disambiguateEscapeCodes)])
        #expect(decoder.takeReplies() == [])
        #expect(decoder.feed(Array("\(esc)[?6c".utf8)) == [])
        #expect(decoder.takeReplies() == [.primaryDeviceAttributes([6])])
    }

    @Test func otherReportsAreNotReplies() {
        // A DA2 answer, a cursor position report, an OSC the probe never asks: consumed, never
        // kept, never keys.
        expectDecodes("\(esc)[>41;367;0c\(esc)[12;40R\(esc)]4;1;rgb:cd/00/00\(esc)\\q", [char("q")])
    }

    @Test func probeAnswersAmongKeysSplitAtEveryByte() {
        // DECRPM, OSC 10 and 11 (ST and BEL ended), XTGETTCAP yes and no, XTVERSION.
        let input = "a\(esc)[?2026;2$yb\(esc)]11;rgb:ffff/ffff/dddd\(esc)\\\(esc)]10;rgb:00/00/00\u{07}c"
            + "\(esc)P1+r524742=382F382F38\(esc)\\\(esc)P0+r5463\(esc)\\\(esc)P1+r5463\(esc)\\\(esc)P>|XTerm(390)\(esc)\\d"
        expectDecodes(input, [char("a"), char("b"), char("c"), char("d")], replies: [
            .modeReport(mode: 2026, status: 2),
            .backgroundColor(TerminalColor(red: 255, green: 255, blue: 221)),
            .foregroundColor(TerminalColor(red: 0, green: 0, blue: 0)),
            .capability(name: "RGB", value: "8/8/8"),
            .capability(name: "Tc", value: nil),
            .capability(name: "Tc", value: ""),   // a boolean one, as kitty answers Tc
            .terminalVersion("XTerm(390)"),
        ])
    }

    @Test func malformedAnswersAreDropped() {
        // A colour that is not rgb:, one with 5 digits, a capability whose name is not hex, a
        // string longer than the decoder keeps: consumed, not kept, the keys after still arrive.
        let long = String(repeating: "f", count: InputDecoder.maxStringLength + 10)
        expectDecodes("\(esc)]11;#ffffff\(esc)\\\(esc)]11;rgb:fffff/0/0\(esc)\\\(esc)P1+rZZ=00\(esc)\\"
                      + "\(esc)]11;rgb:\(long)/0/0\(esc)\\x", [char("x")])
    }

    @Test func onlyTheLatestRepliesAreKept() {
        var decoder = InputDecoder()
        let input = (1...(InputDecoder.maxReplies + 4)).map { "\(esc)[?\($0)c" }.joined()
        #expect(decoder.feed(Array(input.utf8)) == [])
        let replies = decoder.takeReplies()
        #expect(replies.count == InputDecoder.maxReplies)
        #expect(replies.first == .primaryDeviceAttributes([5]))
        #expect(replies.last == .primaryDeviceAttributes([InputDecoder.maxReplies + 4]))
    }

    @Test func repliesNeverBecomeKeys() {
        // Without the `?` marker these are keys (or nothing), never replies.
        expectDecodes("\(esc)[1u", [])   // code 1: a C0 control, dropped
        expectDecodes("\(esc)[c", [])
    }
}

// MARK: - Kitty keys

@Suite("InputDecoder: kitty keyboard keys")
struct KittyKeyDecodingTests {
    @Test func enterWithModifiers() {
        for active in [false, true] {
            expectDecodes("\(esc)[13;5u", [key(.enter, .ctrl)], kittyActive: active)
            expectDecodes("\(esc)[13;2u", [key(.enter, .shift)], kittyActive: active)
            expectDecodes("\(esc)[13;3u", [key(.enter, .alt)], kittyActive: active)
            expectDecodes("\r", [key(.enter)], kittyActive: active)
        }
    }

    @Test func ctrlIIsNotTab() {
        expectDecodes("\(esc)[105;5u", [char("i", .ctrl)], kittyActive: true)
        expectDecodes("\t", [key(.tab)], kittyActive: true)
        // The legacy bytes cannot tell them apart: Ctrl-I is byte 9, Tab.
        expectDecodes("\u{09}", [key(.tab)])
        #expect(char("i", .ctrl) != key(.tab))
        // Ctrl-M and Enter, Ctrl-H and Backspace likewise.
        expectDecodes("\(esc)[109;5u\(esc)[104;5u", [char("m", .ctrl), char("h", .ctrl)], kittyActive: true)
    }

    @Test func escIsAtOnceWithoutTheEscapeDelay() {
        var decoder = InputDecoder()
        decoder.isKittyKeyboardActive = true
        #expect(decoder.feed(Array("\(esc)[27u".utf8)) == [key(.escape)])
        #expect(!decoder.hasPending)   // no escape timer needed
        #expect(decoder.flush() == [])
        // The legacy lone ESC waits for flush().
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPending)
        #expect(decoder.flush() == [key(.escape)])
        expectDecodes("\(esc)[27u", [key(.escape)], kittyActive: true)
        expectDecodes("\(esc)[27;3u", [key(.escape, .alt)], kittyActive: true)
    }

    @Test func altLetters() {
        expectDecodes("\(esc)[97;3u", [char("a", .alt)], kittyActive: true)
        // Alt-Shift-a is the capital with Alt, as the legacy `ESC A`.
        expectDecodes("\(esc)[97;4u", [char("A", .alt)], kittyActive: true)
        expectDecodes("\(esc)A", [char("A", .alt)])
        // With Ctrl the letter stays small and Shift stays a modifier.
        expectDecodes("\(esc)[97;6u", [char("a", [.ctrl, .shift])], kittyActive: true)
        expectDecodes("\(esc)[91;3u", [char("[", .alt)], kittyActive: true)
    }

    @Test func releaseEventsAreDropped() {
        expectDecodes("\(esc)[97;1:3u", [], kittyActive: true)
        expectDecodes("\(esc)[97;5:3uq", [char("q")], kittyActive: true)
        expectDecodes("\(esc)[1;5:3A", [], kittyActive: true)
        // Presses (1) and repeats (2) count.
        expectDecodes("\(esc)[97;5:1u\(esc)[97;5:2u", [char("a", .ctrl), char("a", .ctrl)], kittyActive: true)
    }

    @Test func superHyperAndMetaKeysAreDropped() {
        // Super 8, Hyper 16, Meta 32 (+1): nothing KeyModifiers can say; the key after survives.
        for modifiers in [9, 13, 17, 33, 41] {
            expectDecodes("\(esc)[97;\(modifiers)ux", [char("x")], kittyActive: true)
            expectDecodes("\(esc)[97;\(modifiers)ux", [char("x")])
        }
    }

    @Test func capsLockAndNumLockAreIgnored() {
        // Ctrl 4 + Caps Lock 64, + Num Lock 128, + both.
        expectDecodes("\(esc)[97;69u\(esc)[97;133u\(esc)[97;197u",
                      [char("a", .ctrl), char("a", .ctrl), char("a", .ctrl)], kittyActive: true)
        expectDecodes("\(esc)[13;65u", [key(.enter)], kittyActive: true)
        expectDecodes("\(esc)[1;69A", [key(.up, .ctrl)], kittyActive: true)
        expectDecodes("\(esc)[1;69R", [key(.function(3), .ctrl)], kittyActive: true)
    }

    @Test func keypadAndF13ToF24OnlyWhileActive() {
        expectDecodes("\(esc)[57414u", [key(.enter)], kittyActive: true)
        expectDecodes("\(esc)[57414;5u", [key(.enter, .ctrl)], kittyActive: true)
        expectDecodes("\(esc)[57399u\(esc)[57408u\(esc)[57413u", [char("0"), char("9"), char("+")], kittyActive: true)
        expectDecodes("\(esc)[57376u\(esc)[57387;2u", [key(.function(13)), key(.function(24), .shift)], kittyActive: true)
        expectDecodes("\(esc)[57419u\(esc)[57426u", [key(.up), key(.delete)], kittyActive: true)
        // Not in kitty mode: private-use codes are nobody's keys.
        expectDecodes("\(esc)[57414uq", [char("q")])
        expectDecodes("\(esc)[57376u", [])
        // Unmapped kitty codes (keypad Begin, media and modifier keys) are dropped either way.
        expectDecodes("\(esc)[57427u\(esc)[57441uz", [char("z")], kittyActive: true)
    }

    @Test func modifiedArrowsInAndOutOfKittyMode() {
        for active in [false, true] {
            expectDecodes("\(esc)[1;5A", [key(.up, .ctrl)], kittyActive: active)
            expectDecodes("\(esc)[1;2B\(esc)[1;3C\(esc)[1;8D",
                          [key(.down, .shift), key(.right, .alt), key(.left, [.shift, .alt, .ctrl])], kittyActive: active)
            expectDecodes("\(esc)[A", [key(.up)], kittyActive: active)
        }
        // Bit 8 is xterm's Meta (Alt) outside kitty mode, kitty's Super (dropped) in it.
        expectDecodes("\(esc)[1;9A", [key(.up, .alt)])
        expectDecodes("\(esc)[1;9Ax", [char("x")], kittyActive: true)
        expectDecodes("\(esc)[3;9~", [key(.delete, .alt)])
        expectDecodes("\(esc)[3;9~", [], kittyActive: true)
    }

    @Test func mouseReportsAreNotReadAsModifiedKeys() {
        // urxvt mouse: the second parameter is a column (10 would be Super as a kitty modifier).
        for active in [false, true] {
            expectDecodes("\(esc)[32;10;5M", [.mouse(MouseEvent(kind: .press(.left), position: Point(x: 9, y: 4)))],
                          kittyActive: active)
            expectDecodes("\(esc)[<0;41;3M", [.mouse(MouseEvent(kind: .press(.left), position: Point(x: 40, y: 2)))],
                          kittyActive: active)
        }
    }
}
