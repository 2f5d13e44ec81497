import TerminalCore
/// Turns raw bytes read from a terminal's stdin into `Event`s.
///
/// Understands what xterm-compatible terminals and tmux send in raw mode: UTF-8 text, control
/// bytes, Alt (ESC-prefixed) keys, CSI and SS3 key sequences with xterm modifiers, the kitty
/// keyboard protocol's `CSI code ; modifiers u` keys, X10, urxvt and SGR mouse reports, and
/// bracketed paste. Focus reports, terminal responses and any other unknown CSI, SS3, OSC, DCS or
/// APC sequence are consumed without producing events; the answers to the kitty keyboard query
/// (`CSI ? flags u`) and to DA1 (`CSI ? … c`) are kept for `takeReplies()`.
///
/// Bytes may arrive split at any boundary: whatever cannot be decoded yet is held back
/// (`hasPending`) until the next `feed(_:)`. A lone ESC is ambiguous (the Esc key, or the start of
/// a sequence whose rest is still in flight), so the caller calls `flush()` when no more bytes
/// arrived within its escape timeout.
///
/// ```swift
/// var decoder = InputDecoder()
/// decoder.feed([0x1B, 0x5B])            // []: ESC [ held back
/// decoder.feed([0x41, 0x03])            // [.key(KeyEvent(.up)), .key(KeyEvent(.char("c"), modifiers: .ctrl))]
/// decoder.feed([0x1B])                  // []: Esc key, or the start of a sequence?
/// if decoder.hasPending {
///     // ... no more input within ~25 ms:
///     decoder.flush()                   // [.key(KeyEvent(.escape))]
/// }
/// ```
///
/// Policies:
/// - Invalid UTF-8 becomes one `.char("\u{FFFD}")` per maximal invalid subpart (the Unicode
///   "substitution of maximal subparts" practice, the same as `String(decoding:as:)`), and the
///   byte that revealed the error is decoded afresh, so following valid text is never lost.
/// - Scalars that arrive in the same `feed(_:)` call are joined into grapheme clusters
///   (`e` + U+0301 is one `.char("é")`); a cluster split across calls arrives as several events.
/// - Printable characters are reported as the terminal sends them: in the classic encoding
///   Shift-a is `.char("A")` without `.shift`; CSI u / modifyOtherKeys reports keep their modifiers.
/// - Within a bracketed paste nothing is a key: the whole paste is one `.paste`, with CR LF and
///   CR turned into LF and invalid UTF-8 replaced by U+FFFD. `flush()` never ends a paste, and
///   `hasPending` stays true until its end marker arrives. A paste over 4 MiB arrives as several
///   `.paste` events, so memory stays bounded even if the end marker never comes.
/// - Kitty keys (`CSI code ; modifiers u`): modifiers are 1 + Shift 1, Alt 2, Ctrl 4; a key held
///   with Super, Hyper or Meta (8, 16, 32) is dropped (no `KeyModifiers` says it, and it is not
///   the key without them); Caps Lock and Num Lock (64, 128) are ignored. Release events
///   (`modifiers:3`) are dropped, repeats count as presses. Alt-Shift-letter becomes the capital
///   with Alt, as the classic `ESC A` does. Codes of other C0 controls and unknown private-use
///   codes are dropped without touching what follows; kitty's keypad and F13–F24 codes decode only
///   while `isKittyKeyboardActive` (the terminal sends them only then).
public struct InputDecoder: Sendable {
    /// Sequences (CSI/SS3 parameters, X10 mouse bytes) longer than this are abandoned.
    static let maxSequenceLength = 64
    /// A bracketed paste longer than this arrives as several `.paste` events of about this size,
    /// so a paste whose end marker never comes cannot grow memory without bound.
    static let maxPasteLength = 1 << 22
    /// Terminal replies kept for `takeReplies()`; past this many the oldest are dropped.
    static let maxReplies = 16
    /// The longest OSC or DCS string kept to be read as an answer.
    static let maxStringLength = 512

    private enum State: Sendable {
        case ground
        /// After ESC.
        case escape
        /// Inside a multi-byte UTF-8 character.
        case utf8
        /// After `ESC [`: parameter and intermediate bytes collect in `buffer`.
        case csi
        /// An over-long CSI: swallowed up to its final byte without buffering.
        case csiIgnore
        /// After `ESC O`: parameter bytes collect in `buffer`.
        case ss3
        /// After `ESC [ [` (linux console F1–F5).
        case linuxFunction
        /// After `ESC [ M`: the three raw X10 mouse bytes collect in `buffer`.
        case x10Mouse
        /// Inside an OSC, DCS or APC string; `stringIntroducer` says which.
        case string
        /// ESC seen inside a string: `\` ends it (ST), anything else starts a new escape.
        case stringEscape
    }

    private var state: State = .ground
    private var buffer: [UInt8] = []

    // Partial UTF-8 character: bits so far, bytes still to come, the range the next byte must be
    // in (narrower than 0x80...0xBF after E0/ED/F0/F4, which rules out overlongs, surrogates and
    // values above U+10FFFF), and whether an ESC came first (Alt).
    private var utf8Scalar: UInt32 = 0
    private var utf8Remaining = 0
    private var utf8Lower: UInt8 = 0x80
    private var utf8Upper: UInt8 = 0xBF
    private var utf8Alt = false

    private var stringIntroducer: UInt8 = 0
    private var stringHasBody = false
    /// The string's bytes, for the answers that come as strings (OSC 11's colour, XTVERSION,
    /// XTGETTCAP); at most `maxStringLength`, a longer string is skipped whole.
    private var stringBody: [UInt8] = []
    private var stringTooLong = false

    // Bracketed paste: raw bytes, and how much of the end marker `ESC [ 201 ~` has matched.
    private var inPaste = false
    private var pasteBytes: [UInt8] = []
    private var pasteMatched = 0

    /// Set while the terminal is in the kitty keyboard protocol's disambiguate mode (the program
    /// pushed `CSI > 1 u`): kitty's private-use key codes (keypad keys, F13–F24) decode to their
    /// keys, and in every modified key sequence bit 8 is kitty's Super (the key is dropped) rather
    /// than xterm's Meta (reported as Alt).
    ///
    /// ```swift
    /// var decoder = InputDecoder()
    /// decoder.isKittyKeyboardActive = true
    /// decoder.feed(Array("\u{1B}[57414u".utf8))   // [.key(KeyEvent(.enter))]: keypad Enter
    /// ```
    public var isKittyKeyboardActive = false

    private var replies: [TerminalReply] = []

    /// A decoder in its initial state, with nothing pending.
    ///
    /// ```swift
    /// var decoder = InputDecoder()
    /// ```
    public init() {}

    /// True when bytes are held back waiting for the rest of a sequence: a lone ESC, a partial
    /// CSI, SS3 or string, a partial UTF-8 character, or an unfinished bracketed paste.
    ///
    /// ```swift
    /// var decoder = InputDecoder()
    /// _ = decoder.feed([0xE2, 0x82])   // first two bytes of "€"
    /// decoder.hasPending               // true
    /// _ = decoder.feed([0xAC])         // [.key(KeyEvent(.char("€")))]
    /// decoder.hasPending               // false
    /// ```
    public var hasPending: Bool {
        if inPaste { return true }
        if case .ground = state { return false }
        return true
    }

    /// Feeds the next chunk of bytes; returns the events completed by it, in order.
    ///
    /// ```swift
    /// var decoder = InputDecoder()
    /// decoder.feed(Array("q".utf8))                // [.key(KeyEvent(.char("q")))]
    /// decoder.feed([0x1B, 0x5B, 0x31, 0x3B, 0x35]) // []: the start of Ctrl-Up
    /// decoder.feed([0x41])                         // [.key(KeyEvent(.up, modifiers: .ctrl))]
    /// ```
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Event] where Bytes.Element == UInt8 {
        var out = Output()
        for byte in bytes { step(byte, &out) }
        return out.events
    }

    /// The terminal replies decoded since the last call (the kitty keyboard flags, DA1), in the
    /// order they arrived; at most `maxReplies`, the latest. They never arrive as events.
    ///
    /// ```swift
    /// var decoder = InputDecoder()
    /// decoder.feed(Array("\u{1B}[?1ux\u{1B}[?62c".utf8))   // [.key(KeyEvent(.char("x")))]
    /// decoder.takeReplies()   // [.kittyKeyboardFlags(.disambiguateEscapeCodes), .primaryDeviceAttributes([62])]
    /// decoder.takeReplies()   // []
    /// ```
    public mutating func takeReplies() -> [TerminalReply] {
        defer { replies.removeAll() }
        return replies
    }

    /// Resolves whatever is pending; the caller invokes it when no more bytes arrived within its
    /// escape timeout (~25–50 ms).
    ///
    /// A lone ESC becomes the Esc key; `ESC [`, `ESC O`, `ESC ]`, `ESC P` and `ESC _` with nothing
    /// after them become Alt-`[`, Alt-`O`, Alt-`]`, Alt-`P` and Alt-`_`; a partial UTF-8 character
    /// becomes U+FFFD; a sequence that had already started its body is discarded. An unfinished
    /// bracketed paste is left alone (pastes can be slow): only its end marker completes it.
    ///
    /// ```swift
    /// var decoder = InputDecoder()
    /// _ = decoder.feed([0x1B])   // []
    /// decoder.flush()            // [.key(KeyEvent(.escape))]
    /// ```
    public mutating func flush() -> [Event] {
        if inPaste { return [] }
        var out = Output()
        switch state {
        case .ground:
            return []
        case .escape, .stringEscape:
            out.append(.key(KeyEvent(.escape)))
        case .utf8:
            emitInvalid(alt: utf8Alt, &out)
        case .csi:
            if buffer.isEmpty { out.append(Self.altKey(UInt8(ascii: "["))) }
        case .ss3:
            if buffer.isEmpty { out.append(Self.altKey(UInt8(ascii: "O"))) }
        case .string:
            if !stringHasBody { out.append(Self.altKey(stringIntroducer)) }
        case .csiIgnore, .linuxFunction, .x10Mouse:
            break
        }
        state = .ground
        buffer.removeAll(keepingCapacity: true)
        return out.events
    }

    // MARK: - State machine

    private mutating func step(_ byte: UInt8, _ out: inout Output) {
        if inPaste {
            pasteStep(byte, &out)
            return
        }
        switch state {
        case .ground: ground(byte, &out)
        case .escape: escape(byte, &out)
        case .utf8: utf8Continue(byte, &out)
        case .csi: csi(byte, &out)
        case .csiIgnore: csiIgnore(byte, &out)
        case .ss3: ss3(byte, &out)
        case .linuxFunction: linuxFunction(byte, &out)
        case .x10Mouse: x10Mouse(byte, &out)
        case .string: string(byte)
        case .stringEscape: stringEscape(byte, &out)
        }
    }

    private mutating func ground(_ byte: UInt8, _ out: inout Output) {
        switch byte {
        case 0x1B: state = .escape
        case 0x20..<0x7F: out.appendText(Unicode.Scalar(byte))
        case 0x80...: beginUTF8(byte, alt: false, &out)
        default: out.append(.key(Self.controlKey(byte)))
        }
    }

    private mutating func escape(_ byte: UInt8, _ out: inout Output) {
        switch byte {
        case 0x1B:
            // ESC ESC: the first is the Esc key; the second may start a sequence.
            out.append(.key(KeyEvent(.escape)))
        case UInt8(ascii: "["):
            state = .csi
            buffer.removeAll(keepingCapacity: true)
        case UInt8(ascii: "O"):
            state = .ss3
            buffer.removeAll(keepingCapacity: true)
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"):
            state = .string
            stringIntroducer = byte
            stringHasBody = false
            stringBody.removeAll(keepingCapacity: true)
            stringTooLong = false
        case 0x20..<0x7F:
            state = .ground
            out.append(Self.altKey(byte))
        case 0x80...:
            state = .ground
            beginUTF8(byte, alt: true, &out)
        default:
            state = .ground
            var key = Self.controlKey(byte)
            key.modifiers.insert(.alt)
            out.append(.key(key))
        }
    }

    // MARK: UTF-8

    private mutating func beginUTF8(_ byte: UInt8, alt: Bool, _ out: inout Output) {
        switch byte {
        case 0xC2...0xDF: startUTF8(UInt32(byte & 0x1F), remaining: 1, 0x80, 0xBF)
        case 0xE0: startUTF8(0, remaining: 2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: startUTF8(UInt32(byte & 0x0F), remaining: 2, 0x80, 0xBF)
        case 0xED: startUTF8(0x0D, remaining: 2, 0x80, 0x9F)
        case 0xF0: startUTF8(0, remaining: 3, 0x90, 0xBF)
        case 0xF1...0xF3: startUTF8(UInt32(byte & 0x07), remaining: 3, 0x80, 0xBF)
        case 0xF4: startUTF8(4, remaining: 3, 0x80, 0x8F)
        default:
            // Stray continuation byte, C0/C1 (overlong leads), F5–FF.
            emitInvalid(alt: alt, &out)
            return
        }
        utf8Alt = alt
        state = .utf8
    }

    private mutating func startUTF8(_ bits: UInt32, remaining: Int, _ lower: UInt8, _ upper: UInt8) {
        utf8Scalar = bits
        utf8Remaining = remaining
        utf8Lower = lower
        utf8Upper = upper
    }

    private mutating func utf8Continue(_ byte: UInt8, _ out: inout Output) {
        guard byte >= utf8Lower && byte <= utf8Upper else {
            // The character so far is a maximal invalid subpart; `byte` starts something new.
            state = .ground
            emitInvalid(alt: utf8Alt, &out)
            step(byte, &out)
            return
        }
        utf8Scalar = utf8Scalar << 6 | UInt32(byte & 0x3F)
        utf8Remaining -= 1
        utf8Lower = 0x80
        utf8Upper = 0xBF
        guard utf8Remaining == 0 else { return }
        state = .ground
        let scalar = Unicode.Scalar(utf8Scalar) ?? "\u{FFFD}"
        if utf8Alt {
            out.append(.key(KeyEvent(.char(Character(scalar)), modifiers: .alt)))
        } else {
            out.appendText(scalar)
        }
    }

    /// One replacement character for an invalid sequence. After ESC the Esc key comes first:
    /// Alt-U+FFFD would be a key nobody binds, and the Esc press is the part worth keeping.
    private func emitInvalid(alt: Bool, _ out: inout Output) {
        if alt { out.append(.key(KeyEvent(.escape))) }
        out.append(.key(KeyEvent(.char("\u{FFFD}"))))
    }

    // MARK: CSI

    /// Keeps a parameter byte of a CSI/SS3 sequence; one that grows past the limit is abandoned
    /// (skipped up to its final byte) so that memory stays bounded.
    private mutating func collectParameter(_ byte: UInt8) {
        if buffer.count >= Self.maxSequenceLength {
            state = .csiIgnore
            buffer.removeAll(keepingCapacity: true)
        } else {
            buffer.append(byte)
        }
    }

    private mutating func csi(_ byte: UInt8, _ out: inout Output) {
        switch byte {
        case 0x20...0x3F:
            collectParameter(byte)
        case 0x40...0x7E:
            if buffer.isEmpty && byte == UInt8(ascii: "M") {
                state = .x10Mouse
            } else if buffer.isEmpty && byte == UInt8(ascii: "[") {
                state = .linuxFunction
            } else {
                state = .ground
                dispatchCSI(final: byte, &out)
                buffer.removeAll(keepingCapacity: true)
            }
        default:
            // A control byte, DEL or non-ASCII cannot be part of a CSI: the sequence was cut
            // short (or was really Alt-[ followed by a key). Decode the byte afresh.
            abortSequence(introducer: UInt8(ascii: "["), &out)
            step(byte, &out)
        }
    }

    private mutating func csiIgnore(_ byte: UInt8, _ out: inout Output) {
        switch byte {
        case 0x20...0x3F: break
        case 0x40...0x7E: state = .ground
        default:
            state = .ground
            step(byte, &out)
        }
    }

    /// Gives up on a CSI/SS3 interrupted by a byte that cannot belong to it. With nothing after
    /// the introducer it was most likely Alt-`[` / Alt-`O`; with parameters it is dropped.
    private mutating func abortSequence(introducer: UInt8, _ out: inout Output) {
        if buffer.isEmpty { out.append(Self.altKey(introducer)) }
        buffer.removeAll(keepingCapacity: true)
        state = .ground
    }

    private mutating func dispatchCSI(final: UInt8, _ out: inout Output) {
        let params = Parameters(buffer)
        // DECRPM, the answer to DECRQM: ESC [ ? mode ; status $ y.
        if params.prefix == UInt8(ascii: "?"), final == UInt8(ascii: "y"), params.intermediates == [UInt8(ascii: "$")],
           let mode = params[0] {
            if replies.count >= Self.maxReplies { replies.removeFirst() }
            replies.append(.modeReport(mode: mode, status: params[1] ?? 0))
            return
        }
        guard params.isWellFormed, !params.hasIntermediates else { return }
        if params.prefix == UInt8(ascii: "<") {
            // SGR mouse: ESC [ < b ; x ; y M|m
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m"), params.count == 3,
                  let code = params[0], let x = params[1], let y = params[2] else { return }
            if let event = Self.mouse(code: code, x: x, y: y, release: final == UInt8(ascii: "m")) {
                out.append(event)
            }
            return
        }
        if params.prefix == UInt8(ascii: "?") {
            recordReply(params, final: final)
            return
        }
        guard params.prefix == 0 else { return }   // ESC [ > … responses and the like
        // Kitty's event type, after the modifiers: 3 is a release, which is not a key press.
        if params.value(1, sub: 1) == 3 { return }
        if final == UInt8(ascii: "u") {
            // Kitty / fixterms: ESC [ code ; modifiers u, always with kitty's modifier bits.
            if let code = params[0], let modifiers = Self.kittyModifiers(params[1]),
               let key = kittyKey(code: code, modifiers: modifiers) {
                out.append(.key(key))
            }
            return
        }
        if final == UInt8(ascii: "M") {
            // urxvt (1015) mouse: ESC [ b ; x ; y M with b offset by 32 as in X10. (Before the
            // modifiers: its second parameter is a column, not a modifier to drop a key for.)
            if params.count == 3, let code = params[0], let x = params[1], let y = params[2],
               let event = Self.mouse(code: code - 32, x: x, y: y, release: nil) {
                out.append(event)
            }
            return
        }
        let modifiers: KeyModifiers
        if isKittyKeyboardActive {
            guard let kitty = Self.kittyModifiers(params[1]) else { return }
            modifiers = kitty
        } else {
            modifiers = Self.modifiers(params[1])
        }
        switch final {
        case UInt8(ascii: "A"): out.append(.key(KeyEvent(.up, modifiers: modifiers)))
        case UInt8(ascii: "B"): out.append(.key(KeyEvent(.down, modifiers: modifiers)))
        case UInt8(ascii: "C"): out.append(.key(KeyEvent(.right, modifiers: modifiers)))
        case UInt8(ascii: "D"): out.append(.key(KeyEvent(.left, modifiers: modifiers)))
        case UInt8(ascii: "H"): out.append(.key(KeyEvent(.home, modifiers: modifiers)))
        case UInt8(ascii: "F"): out.append(.key(KeyEvent(.end, modifiers: modifiers)))
        case UInt8(ascii: "Z"): out.append(.key(KeyEvent(.tab, modifiers: modifiers.union(.shift))))
        case UInt8(ascii: "P"): out.append(.key(KeyEvent(.function(1), modifiers: modifiers)))
        case UInt8(ascii: "Q"): out.append(.key(KeyEvent(.function(2), modifiers: modifiers)))
        case UInt8(ascii: "S"): out.append(.key(KeyEvent(.function(4), modifiers: modifiers)))
        case UInt8(ascii: "R"):
            // `ESC [ row ; col R` is also a cursor position report. Only the shapes a modified
            // F3 can take count as F3: no parameters, or 1 ; modifier (2…16).
            if params.count == 0 {
                out.append(.key(KeyEvent(.function(3))))
            } else if params.count == 2, params[0] == 1, let m = params[1],
                      (2...(isKittyKeyboardActive ? 256 : 16)).contains(m) {
                // (Kitty may add its lock bits, 64 and 128, to the modifiers.)
                out.append(.key(KeyEvent(.function(3), modifiers: modifiers)))
            }
        case UInt8(ascii: "~"):
            dispatchTilde(params, modifiers: modifiers, &out)
        default:
            break   // focus in/out (I/O), reports, anything unknown
        }
    }

    /// Keeps a terminal's answer to a query (`ESC [ ? …`) for `takeReplies()`.
    private mutating func recordReply(_ params: Parameters, final: UInt8) {
        let reply: TerminalReply
        switch final {
        case UInt8(ascii: "u"):
            reply = .kittyKeyboardFlags(KittyKeyboard.Flags(rawValue: params[0] ?? 0))
        case UInt8(ascii: "c"):
            reply = .primaryDeviceAttributes((0..<min(params.count, 32)).compactMap { params[$0] })
        default:
            return   // DECRQM and other reports: nothing asks for them
        }
        if replies.count >= Self.maxReplies { replies.removeFirst() }
        replies.append(reply)
    }

    private mutating func dispatchTilde(_ params: Parameters, modifiers: KeyModifiers, _ out: inout Output) {
        guard let number = params[0] else { return }
        let code: KeyCode
        switch number {
        case 1, 7: code = .home
        case 2: code = .insert
        case 3: code = .delete
        case 4, 8: code = .end
        case 5: code = .pageUp
        case 6: code = .pageDown
        case 11...15: code = .function(number - 10)
        case 17...21: code = .function(number - 11)
        case 23...26: code = .function(number - 12)
        case 28...29: code = .function(number - 13)
        case 31...34: code = .function(number - 14)
        case 27:
            // xterm modifyOtherKeys: ESC [ 27 ; modifiers ; code ~
            if let codepoint = params[2], let key = Self.key(codepoint: codepoint, modifiers: modifiers) {
                out.append(.key(key))
            }
            return
        case 200:
            inPaste = true
            pasteMatched = 0
            pasteBytes.removeAll(keepingCapacity: true)
            return
        default:
            return   // includes a stray paste end (201)
        }
        out.append(.key(KeyEvent(code, modifiers: modifiers)))
    }

    // MARK: SS3 and other short forms

    private mutating func ss3(_ byte: UInt8, _ out: inout Output) {
        switch byte {
        case 0x30...0x3B:
            // Some terminals put a modifier here (`ESC O 5 A`).
            collectParameter(byte)
        case 0x40...0x7E:
            state = .ground
            dispatchSS3(final: byte, &out)
            buffer.removeAll(keepingCapacity: true)
        default:
            abortSequence(introducer: UInt8(ascii: "O"), &out)
            step(byte, &out)
        }
    }

    private func dispatchSS3(final: UInt8, _ out: inout Output) {
        let params = Parameters(buffer)
        let modifiers = params.count > 0 ? Self.modifiers(params[params.count - 1]) : []
        let code: KeyCode
        switch final {
        case UInt8(ascii: "A"): code = .up
        case UInt8(ascii: "B"): code = .down
        case UInt8(ascii: "C"): code = .right
        case UInt8(ascii: "D"): code = .left
        case UInt8(ascii: "H"): code = .home
        case UInt8(ascii: "F"): code = .end
        case UInt8(ascii: "P")...UInt8(ascii: "S"): code = .function(Int(final - UInt8(ascii: "P")) + 1)
        case UInt8(ascii: "M"): code = .enter
        case UInt8(ascii: "X"): code = .char("=")
        // Keypad in application mode: j…y are * + , - . / 0…9, 0x40 below.
        case UInt8(ascii: "j")...UInt8(ascii: "y"): code = .char(Character(Unicode.Scalar(final - 0x40)))
        default: return
        }
        out.append(.key(KeyEvent(code, modifiers: modifiers)))
    }

    private mutating func linuxFunction(_ byte: UInt8, _ out: inout Output) {
        state = .ground
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "E"):
            out.append(.key(KeyEvent(.function(Int(byte - UInt8(ascii: "A")) + 1))))
        case 0x20..<0x7F:
            break   // unknown, swallowed
        default:
            step(byte, &out)
        }
    }

    private mutating func x10Mouse(_ byte: UInt8, _ out: inout Output) {
        // Raw bytes, each value + 32; coordinates are 1-based. In extended mode 1005 large
        // coordinates are UTF-8 encoded; here every byte is taken as one value (up to 223).
        buffer.append(byte)
        guard buffer.count == 3 else { return }
        state = .ground
        let code = Int(buffer[0]) - 32, x = Int(buffer[1]) - 32, y = Int(buffer[2]) - 32
        buffer.removeAll(keepingCapacity: true)
        if let event = Self.mouse(code: code, x: x, y: y, release: nil) { out.append(event) }
    }

    // MARK: OSC / DCS / APC strings

    private mutating func string(_ byte: UInt8) {
        switch byte {
        case 0x07:
            state = .ground   // BEL ends an OSC (xterm)
            finishString()
        case 0x1B: state = .stringEscape
        default:
            stringHasBody = true
            if stringBody.count < Self.maxStringLength { stringBody.append(byte) } else { stringTooLong = true }
        }
    }

    private mutating func stringEscape(_ byte: UInt8, _ out: inout Output) {
        if byte == UInt8(ascii: "\\") {
            state = .ground   // ST
            finishString()
        } else {
            // ESC followed by anything else cancels the string and starts a new sequence.
            state = .escape
            step(byte, &out)
        }
    }

    /// A whole OSC or DCS string: kept when it is an answer to a query (see `TerminalReply`).
    private mutating func finishString() {
        defer { stringBody.removeAll(keepingCapacity: true) }
        guard !stringTooLong, let reply = Self.stringReply(introducer: stringIntroducer, body: stringBody) else { return }
        if replies.count >= Self.maxReplies { replies.removeFirst() }
        replies.append(reply)
    }

    /// `OSC 10|11 ; rgb:RRRR/GGGG/BBBB`, `DCS > | name`, `DCS 1 + r NAME = VALUE`, `DCS 1 + r NAME`
    /// (a boolean capability, as kitty answers `Tc`: the empty value), `DCS 0 + r NAME`.
    static func stringReply(introducer: UInt8, body: [UInt8]) -> TerminalReply? {
        if introducer == UInt8(ascii: "]") {
            guard body.count > 3, body[2] == UInt8(ascii: ";"), body[0] == UInt8(ascii: "1"),
                  body[1] == UInt8(ascii: "0") || body[1] == UInt8(ascii: "1"),
                  let color = TerminalColor(xParseColor: body[3...]) else { return nil }
            return body[1] == UInt8(ascii: "0") ? .foregroundColor(color) : .backgroundColor(color)
        }
        guard introducer == UInt8(ascii: "P"), body.count >= 2 else { return nil }
        if body[0] == UInt8(ascii: ">"), body[1] == UInt8(ascii: "|") {
            let text = String(decoding: body[2...].filter { (0x20..<0x7F).contains($0) }, as: UTF8.self)
            return .terminalVersion(text)
        }
        guard body.count >= 3, body[1] == UInt8(ascii: "+"), body[2] == UInt8(ascii: "r") else { return nil }
        let valid = body[0] == UInt8(ascii: "1")
        let rest = body[3...]
        let parts = rest.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = parts.first.flatMap(Self.hexDecoded) else { return nil }
        let value = valid ? (parts.count == 2 ? Self.hexDecoded(parts[1]) ?? "" : "") : nil
        return .capability(name: name, value: value)
    }

    /// Hex pairs as text (XTGETTCAP's names and values); nil if they are not hex pairs.
    private static func hexDecoded(_ hex: ArraySlice<UInt8>) -> String? {
        guard hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            guard let high = hexValue(hex[index]), let low = hexValue(hex[index + 1]) else { return nil }
            let byte = high << 4 | low
            guard (0x20..<0x7F).contains(byte) else { return nil }
            bytes.append(byte)
            index += 2
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Bracketed paste

    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]   // ESC [ 2 0 1 ~

    private mutating func pasteStep(_ byte: UInt8, _ out: inout Output) {
        if byte == Self.pasteEnd[pasteMatched] {
            pasteMatched += 1
            if pasteMatched == Self.pasteEnd.count { finishPaste(&out) }
            return
        }
        // ESC occurs only at the start of the marker, so on a mismatch the matched prefix is text
        // and the current byte can only begin a new match if it is ESC.
        if pasteMatched > 0 {
            pasteBytes.append(contentsOf: Self.pasteEnd[0..<pasteMatched])
            pasteMatched = 0
        }
        if byte == 0x1B {
            pasteMatched = 1
        } else {
            pasteBytes.append(byte)
            if pasteBytes.count >= Self.maxPasteLength { deliverPastePart(&out) }
        }
    }

    private mutating func finishPaste(_ out: inout Output) {
        out.append(.paste(Self.pasteText(pasteBytes[...])))
        inPaste = false
        pasteMatched = 0
        pasteBytes = []   // a large paste should not stay allocated
    }

    /// Delivers a paste that reached `maxPasteLength` so far, keeping back the bytes that could
    /// still change meaning: an unfinished UTF-8 character, and a CR that an LF may follow.
    private mutating func deliverPastePart(_ out: inout Output) {
        var cut = pasteBytes.endIndex
        var back = 0
        while back < 3, cut > pasteBytes.startIndex, pasteBytes[cut - 1] & 0xC0 == 0x80 { cut -= 1; back += 1 }
        if cut > pasteBytes.startIndex, pasteBytes[cut - 1] >= 0xC0 {
            cut -= 1   // the lead byte of a character whose continuation bytes are still to come
        } else {
            cut = pasteBytes.endIndex
        }
        if cut > pasteBytes.startIndex, pasteBytes[cut - 1] == 0x0D { cut -= 1 }
        guard cut > pasteBytes.startIndex else { return }
        out.append(.paste(Self.pasteText(pasteBytes[..<cut])))
        pasteBytes.removeSubrange(..<cut)
    }

    /// Paste bytes as text: CR LF and lone CR become LF, invalid UTF-8 becomes U+FFFD.
    private static func pasteText(_ bytes: ArraySlice<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count)
        var previousWasCR = false
        for byte in bytes {
            if byte == 0x0A && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = byte == 0x0D
            text.append(previousWasCR ? 0x0A : byte)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// How many input bytes are held back now (a sequence's parameters, a paste's text): bounded
    /// by `maxSequenceLength` and `maxPasteLength` whatever the input.
    var pendingByteCount: Int {
        guard hasPending else { return 0 }
        return buffer.count + pasteBytes.count + pasteMatched + (utf8Remaining > 0 ? 4 : 0)
    }

    // MARK: - Mapping helpers

    /// The key for a C0 control byte or DEL.
    private static func controlKey(_ byte: UInt8) -> KeyEvent {
        switch byte {
        case 0x00: KeyEvent(.char(" "), modifiers: .ctrl)
        case 0x08, 0x7F: KeyEvent(.backspace)
        case 0x09: KeyEvent(.tab)
        case 0x0A, 0x0D: KeyEvent(.enter)
        case 0x1B: KeyEvent(.escape)
        case 0x01...0x1A: KeyEvent(.char(Character(Unicode.Scalar(byte + 0x60))), modifiers: .ctrl)
        // 0x1C…0x1F: Ctrl-\ Ctrl-] Ctrl-^ Ctrl-_
        default: KeyEvent(.char(Character(Unicode.Scalar(byte + 0x40))), modifiers: .ctrl)
        }
    }

    /// Alt plus a printable ASCII byte.
    private static func altKey(_ byte: UInt8) -> Event {
        .key(KeyEvent(.char(Character(Unicode.Scalar(byte))), modifiers: .alt))
    }

    /// xterm modifier parameter: 1 + bits (1 shift, 2 alt, 4 ctrl, 8 meta, reported as alt).
    /// Higher bits (kitty's hyper, super, lock keys) are ignored.
    private static func modifiers(_ parameter: Int?) -> KeyModifiers {
        guard let parameter, parameter >= 2 else { return [] }
        let bits = parameter - 1
        var modifiers: KeyModifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & (2 | 8) != 0 { modifiers.insert(.alt) }
        if bits & 4 != 0 { modifiers.insert(.ctrl) }
        return modifiers
    }

    /// Kitty's modifier parameter: 1 + bits (1 shift, 2 alt, 4 ctrl, 8 super, 16 hyper, 32 meta,
    /// 64 caps lock, 128 num lock). Nil when Super, Hyper or Meta is held: the key is not one
    /// `KeyModifiers` can say, and reporting it without them would be another key. The lock bits
    /// are states, not keys held, and are ignored.
    private static func kittyModifiers(_ parameter: Int?) -> KeyModifiers? {
        guard let parameter, parameter >= 2 else { return [] }
        let bits = parameter - 1
        guard bits & (8 | 16 | 32) == 0 else { return nil }
        var modifiers: KeyModifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & 2 != 0 { modifiers.insert(.alt) }
        if bits & 4 != 0 { modifiers.insert(.ctrl) }
        return modifiers
    }

    /// A kitty `CSI code ; modifiers u` key: Enter, Tab, Esc and Backspace by their C0 codes,
    /// text keys by their (unshifted) code point, private-use functional keys while kitty mode is
    /// on. Shift with a letter and without Ctrl becomes the capital letter, as legacy terminals
    /// send it (`ESC A` for Alt-Shift-a).
    private func kittyKey(code: Int, modifiers: KeyModifiers) -> KeyEvent? {
        if (0xE000...0xF8FF).contains(code) {
            guard isKittyKeyboardActive, let key = KittyKeyboard.functionalKey(code) else { return nil }
            return KeyEvent(key, modifiers: modifiers)
        }
        guard var key = Self.key(codepoint: code, modifiers: modifiers) else { return nil }
        if case .char(let character) = key.code, key.modifiers.contains(.shift), !key.modifiers.contains(.ctrl),
           character.isLetter, character.isLowercase {
            let upper = character.uppercased()
            if upper.count == 1, let capital = upper.first, capital != character {
                key = KeyEvent(.char(capital), modifiers: key.modifiers.subtracting(.shift))
            }
        }
        return key
    }

    /// A key given as a Unicode code point (CSI u, modifyOtherKeys).
    private static func key(codepoint: Int, modifiers: KeyModifiers) -> KeyEvent? {
        switch codepoint {
        case 13: return KeyEvent(.enter, modifiers: modifiers)
        case 9: return KeyEvent(.tab, modifiers: modifiers)
        case 27: return KeyEvent(.escape, modifiers: modifiers)
        case 8, 127: return KeyEvent(.backspace, modifiers: modifiers)
        case 0..<32, 0x80...0x9F, 0xE000...0xF8FF:   // other controls; kitty's private-use functional keys
            return nil
        default:
            guard let scalar = Unicode.Scalar(UInt32(clamping: codepoint)) else { return nil }
            return KeyEvent(.char(Character(scalar)), modifiers: modifiers)
        }
    }

    /// A mouse event from an xterm button code and 1-based coordinates. `release` is the SGR
    /// final (`m` = true); `nil` for X10/urxvt, where low bits 3 mean "some button released".
    private static func mouse(code: Int, x: Int, y: Int, release: Bool?) -> Event? {
        guard code >= 0, code & 128 == 0 else { return nil }   // buttons 8–11: not modelled
        var modifiers: KeyModifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.ctrl) }
        let low = code & 3
        func button(_ low: Int) -> MouseButton { low == 0 ? .left : low == 1 ? .middle : .right }
        let kind: MouseEvent.Kind
        if code & 64 != 0 {
            guard release != true else { return nil }
            switch low {
            case 0: kind = .scrollUp
            case 1: kind = .scrollDown
            default: return nil   // horizontal wheel
            }
        } else if code & 32 != 0 {
            kind = low == 3 ? .move : .drag(button(low))
        } else if release == true || low == 3 {
            kind = .release(low == 3 ? nil : button(low))
        } else {
            kind = .press(button(low))
        }
        let position = Point(x: max(0, x - 1), y: max(0, y - 1))
        return .mouse(MouseEvent(kind: kind, position: position, modifiers: modifiers))
    }
}

// MARK: - Support types

/// Events produced by one `feed` call. Text scalars are joined into grapheme clusters with the
/// character just before them, when that was also plain text from this call.
private struct Output {
    var events: [Event] = []
    /// True when the last event is plain text that a following scalar may extend.
    var lastIsText = false

    mutating func append(_ event: Event) {
        events.append(event)
        lastIsText = false
    }

    mutating func appendText(_ scalar: Unicode.Scalar) {
        // ASCII never extends a cluster, so only non-ASCII pays for the String round trip.
        if scalar.value >= 0x80, lastIsText, case .key(let key)? = events.last, case .char(let previous) = key.code {
            var joined = String(previous)
            joined.unicodeScalars.append(scalar)
            if joined.count == 1, let character = joined.first {
                events[events.count - 1] = .key(KeyEvent(.char(character)))
                return
            }
        }
        events.append(.key(KeyEvent(.char(Character(scalar)))))
        lastIsText = true
    }
}

/// Read-only view of the bytes between `ESC [` and the final byte: an optional private marker
/// (`<`, `=`, `>`, `?`), `;`-separated decimal parameters, each with optional `:`-separated
/// sub-parameters (the subscript reads the first), then intermediates (0x20–0x2F). Parses on
/// demand, without allocating.
private struct Parameters {
    let bytes: [UInt8]
    let prefix: UInt8
    let start: Int
    let end: Int
    let hasIntermediates: Bool
    let isWellFormed: Bool
    /// The intermediate bytes (0x20–0x2F) after the parameters.
    var intermediates: ArraySlice<UInt8> { bytes[end...] }
    /// Number of parameters (empty ones included); 0 when there are none at all.
    let count: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var start = 0
        if let first = bytes.first, (0x3C...0x3F).contains(first) {
            prefix = first
            start = 1
        } else {
            prefix = 0
        }
        var end = start
        var wellFormed = true
        var separators = 0
        while end < bytes.count, (0x30...0x3F).contains(bytes[end]) {
            if bytes[end] >= 0x3C { wellFormed = false }   // a marker after the start
            if bytes[end] == UInt8(ascii: ";") { separators += 1 }
            end += 1
        }
        hasIntermediates = end < bytes.count
        if bytes[end...].contains(where: { !(0x20...0x2F).contains($0) }) {
            wellFormed = false   // parameter bytes after intermediates
        }
        self.start = start
        self.end = end
        isWellFormed = wellFormed
        count = end > start ? separators + 1 : 0
    }

    /// Parameter `index` (0-based), or `nil` if absent or empty. Saturates instead of overflowing.
    subscript(index: Int) -> Int? {
        value(index, sub: 0)
    }

    /// Sub-parameter `sub` (0-based, after `:`) of parameter `index`, or `nil` if absent or empty:
    /// kitty's `modifiers:event-type`, `code:shifted:base`.
    func value(_ index: Int, sub: Int) -> Int? {
        var current = 0
        var currentSub = 0
        var value = 0
        var hasDigits = false
        var i = start
        while i < end {
            let byte = bytes[i]
            i += 1
            if byte == UInt8(ascii: ";") {
                if current == index { break }
                current += 1
                currentSub = 0
                continue
            }
            guard current == index else { continue }
            if byte == UInt8(ascii: ":") {
                if currentSub == sub { break }
                currentSub += 1
            } else if currentSub == sub && byte <= UInt8(ascii: "9") {
                value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
                hasDigits = true
            }
        }
        return current == index && currentSub == sub && hasDigits ? value : nil
    }
}
