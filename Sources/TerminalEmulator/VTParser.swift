/// The byte-level half of `TerminalScreen`: turns the bytes a program writes into printable
/// characters, control characters and escape sequences, and hands each to the screen as soon as it
/// is complete. A state machine after Paul Williams' DEC parser (vt100.net/emu/dec_ansi_parser),
/// with UTF-8 decoding in the ground state, as xterm does with UTF-8 enabled.
///
/// Any byte sequence is accepted, split anywhere across calls, in constant memory: a UTF-8
/// character that cannot be decoded becomes U+FFFD; a control sequence with more than
/// `maxParameters` parameters or `maxIntermediates` intermediate bytes is abandoned (read up to its
/// final byte, then dropped); parameters saturate at `maxParameterValue`; an OSC string is kept up
/// to `maxStringLength` bytes and a DCS string up to `maxControlStringLength`, each handed to the
/// screen when BEL or ST (`ESC \`) ends it (a longer one is dropped whole, counted in
/// `TerminalScreen.ignoredStrings`); SOS, PM and APC strings are skipped up to ST. CAN and SUB
/// cancel a sequence (a string too), ESC starts a new one, and C0 controls inside a sequence take
/// effect at once (inside a string they are dropped).
///
/// ```swift
/// var parser = VTParser()
/// var screen = TerminalScreen(width: 10, height: 2)
/// for byte in Array("\u{1B}[2Chi".utf8) { parser.advance(byte, screen: &screen) }
/// // screen.lines == ["  hi", ""]
/// ```
struct VTParser: Sendable {
    /// A complete control sequence: `CSI [prefix] params [intermediates] final`.
    struct ControlSequence: Sendable {
        /// The private marker right after the CSI (`?`, `>`, `=`, `<`), or 0.
        var prefix: UInt8
        /// Up to `maxIntermediates` intermediate bytes (0x20–0x2F), first in the low byte; 0 if none.
        var intermediates: UInt16
        var final: UInt8
        /// The parameters, a missing one as 0 (`CSI ;5H` is `[0, 5]`).
        var parameters: [Int]
        /// Bit `i` set: parameter `i` was separated from the one before it by `:` (a sub-parameter,
        /// as in `38:2::255:0:0`).
        var subparameters: UInt64

        /// Parameter `index`, or `defaultValue` when it is missing or 0.
        func parameter(_ index: Int, default defaultValue: Int = 1) -> Int {
            index < parameters.count && parameters[index] != 0 ? parameters[index] : defaultValue
        }

        /// Whether parameter `index` is a sub-parameter of the one before it.
        func isSubparameter(_ index: Int) -> Bool {
            index < parameters.count && index < 64 && subparameters & (1 << UInt64(index)) != 0
        }
    }

    static let maxParameters = 32
    static let maxIntermediates = 2
    static let maxParameterValue = 65_535
    /// The longest OSC string kept: a clipboard write (OSC 52) of 100 KB of base64 and a little.
    static let maxStringLength = 128 * 1024
    /// The longest DCS string kept: queries (XTGETTCAP, a few names in hex), not images (sixel).
    static let maxControlStringLength = 4 * 1024

    private enum State: UInt8, Sendable {
        case ground
        case escape
        case escapeIntermediate
        /// Right after `CSI`: a private marker may come.
        case csiEntry
        case csiParameter
        case csiIntermediate
        /// An abandoned control sequence, read up to its final byte.
        case csiIgnore
        /// An OSC string, ended by BEL or ST.
        case osc
        /// A DCS, SOS, PM or APC string, ended by ST (or BEL, which xterm also takes); a DCS
        /// string is kept (`keepsControlString`), the others skipped.
        case controlString
        /// ESC inside a string: `\` ends it, anything else abandons it and starts a new escape.
        case stringEscape
    }

    private var state = State.ground

    // UTF-8 decoding (ground state only).
    private var codePoint: UInt32 = 0
    private var pendingContinuations = 0
    private var minimumCodePoint: UInt32 = 0

    // The sequence being read.
    private var prefix: UInt8 = 0
    private var intermediates: UInt16 = 0
    private var intermediateCount = 0
    private var parameters: [Int] = []
    private var subparameters: UInt64 = 0
    private var current = 0
    private var currentIsSubparameter = false
    private var hasParameters = false
    // The OSC or DCS string being read (nil once it is longer than its limit, and for a string
    // that is skipped).
    private var osc: [UInt8]? = nil
    // Whether the control string being read is a DCS (kept and handed to the screen).
    private var keepsControlString = false

    init() {
        parameters.reserveCapacity(Self.maxParameters)
    }

    /// Whether the parser is between sequences and characters (nothing half-read).
    var isIdle: Bool { state == .ground && pendingContinuations == 0 }

    /// Reads one byte, acting on `screen` when it completes something.
    mutating func advance(_ byte: UInt8, screen: inout TerminalScreen) {
        // Anywhere: CAN and SUB cancel, ESC starts over (inside a string it may be the start of ST).
        switch byte {
        case 0x18, 0x1A:
            flushPartialCharacter(&screen)
            state = .ground
            osc = nil   // a string cancelled is dropped
            return
        case 0x1B:
            flushPartialCharacter(&screen)
            if state == .stringEscape { osc = nil }   // ESC ESC: the string is abandoned
            state = (state == .osc || state == .controlString) ? .stringEscape : .escape
            clearSequence()
            return
        default:
            break
        }

        switch state {
        case .ground:
            if byte < 0x80 {
                flushPartialCharacter(&screen)
                if byte >= 0x20 && byte < 0x7F {
                    screen.printCharacter(Unicode.Scalar(byte))
                } else if byte < 0x20 {
                    screen.executeControl(byte)
                }   // DEL: ignored
            } else {
                decodeUTF8(byte, &screen)
            }

        case .escape:
            if byte < 0x20 { screen.executeControl(byte); return }
            switch byte {
            case 0x20...0x2F:
                collectIntermediate(byte)
                state = .escapeIntermediate
            case UInt8(ascii: "["):
                state = .csiEntry
            case UInt8(ascii: "]"):
                state = .osc
                keepsControlString = false
                osc = []
            case UInt8(ascii: "P"):
                state = .controlString
                keepsControlString = true
                osc = []
            case UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
                state = .controlString
                keepsControlString = false
                osc = nil
            case 0x30...0x7E:
                state = .ground
                screen.dispatchEscape(intermediates: 0, final: byte)
            default:
                break   // DEL and bytes >= 0x80 inside an escape: ignored
            }

        case .escapeIntermediate:
            if byte < 0x20 { screen.executeControl(byte); return }
            switch byte {
            case 0x20...0x2F:
                collectIntermediate(byte)
            case 0x30...0x7E:
                state = .ground
                if intermediateCount <= Self.maxIntermediates {
                    screen.dispatchEscape(intermediates: intermediates, final: byte)
                }
            default:
                break
            }

        case .csiEntry, .csiParameter, .csiIntermediate:
            if byte < 0x20 { screen.executeControl(byte); return }
            readControlSequence(byte, &screen)

        case .csiIgnore:
            if byte < 0x20 { screen.executeControl(byte); return }
            if (0x40...0x7E).contains(byte) { state = .ground }

        case .osc:
            if byte == 0x07 {   // BEL ends an OSC string (xterm)
                state = .ground
                endOSC(&screen, endedByBEL: true)
            } else if byte >= 0x20, osc != nil {
                if osc!.count < Self.maxStringLength { osc!.append(byte) } else { osc = nil; screen.ignoredStrings += 1 }
            }

        case .controlString:
            if byte == 0x07 {
                state = .ground
                endOSC(&screen, endedByBEL: true)
            } else if byte >= 0x20, osc != nil {
                if osc!.count < Self.maxControlStringLength { osc!.append(byte) } else { osc = nil; screen.ignoredStrings += 1 }
            }

        case .stringEscape:
            if byte == UInt8(ascii: "\\") {
                state = .ground
                endOSC(&screen, endedByBEL: false)
            } else {
                // The string is abandoned; this byte follows an ESC.
                osc = nil
                state = .escape
                advance(byte, screen: &screen)
            }
        }
    }

    /// Hands a finished OSC or DCS string to the screen (after ST or BEL; nothing after a string
    /// that was skipped or cut).
    private mutating func endOSC(_ screen: inout TerminalScreen, endedByBEL: Bool) {
        guard let string = osc else { return }
        osc = nil
        if keepsControlString {
            keepsControlString = false
            screen.dispatchDCS(string, endedByBEL: endedByBEL)
        } else {
            screen.dispatchOSC(string, endedByBEL: endedByBEL)
        }
    }

    // MARK: Control sequences

    private mutating func readControlSequence(_ byte: UInt8, _ screen: inout TerminalScreen) {
        switch byte {
        case 0x3C...0x3F:   // < = > ?
            if state == .csiEntry {
                prefix = byte
                state = .csiParameter
            } else {
                state = .csiIgnore
            }
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard state != .csiIntermediate else { state = .csiIgnore; return }
            state = .csiParameter
            hasParameters = true
            current = min(current &* 10 &+ Int(byte - UInt8(ascii: "0")), Self.maxParameterValue)
        case UInt8(ascii: ";"), UInt8(ascii: ":"):
            guard state != .csiIntermediate else { state = .csiIgnore; return }
            state = .csiParameter
            hasParameters = true
            guard pushParameter() else { state = .csiIgnore; return }
            currentIsSubparameter = byte == UInt8(ascii: ":")
        case 0x20...0x2F:
            collectIntermediate(byte)
            state = intermediateCount > Self.maxIntermediates ? .csiIgnore : .csiIntermediate
        case 0x40...0x7E:
            state = .ground
            if hasParameters { guard pushParameter() else { return } }
            let sequence = ControlSequence(prefix: prefix, intermediates: intermediates, final: byte,
                                           parameters: parameters, subparameters: subparameters)
            screen.dispatchControlSequence(sequence)
        default:
            break   // DEL, bytes >= 0x80: ignored
        }
    }

    /// Ends the parameter being read; false when there are too many (the sequence is abandoned).
    private mutating func pushParameter() -> Bool {
        guard parameters.count < Self.maxParameters else { return false }
        if currentIsSubparameter { subparameters |= 1 << UInt64(parameters.count) }
        parameters.append(current)
        current = 0
        currentIsSubparameter = false
        return true
    }

    private mutating func collectIntermediate(_ byte: UInt8) {
        if intermediateCount < Self.maxIntermediates {
            intermediates |= UInt16(byte) << UInt16(8 * intermediateCount)
        }
        intermediateCount += 1
    }

    private mutating func clearSequence() {
        prefix = 0
        intermediates = 0
        intermediateCount = 0
        parameters.removeAll(keepingCapacity: true)
        subparameters = 0
        current = 0
        currentIsSubparameter = false
        hasParameters = false
    }

    // MARK: UTF-8

    private mutating func decodeUTF8(_ byte: UInt8, _ screen: inout TerminalScreen) {
        if pendingContinuations > 0 {
            if byte & 0xC0 == 0x80 {
                codePoint = codePoint << 6 | UInt32(byte & 0x3F)
                pendingContinuations -= 1
                if pendingContinuations == 0 {
                    if codePoint >= minimumCodePoint, let scalar = Unicode.Scalar(codePoint) {
                        screen.printCharacter(scalar)
                    } else {
                        screen.printCharacter(Self.replacement)   // overlong or a surrogate
                    }
                }
                return
            }
            // A character cut short: it is replaced, and this byte starts afresh.
            flushPartialCharacter(&screen)
        }
        switch byte {
        case 0xC2...0xDF:
            codePoint = UInt32(byte & 0x1F); pendingContinuations = 1; minimumCodePoint = 0x80
        case 0xE0...0xEF:
            codePoint = UInt32(byte & 0x0F); pendingContinuations = 2; minimumCodePoint = 0x800
        case 0xF0...0xF4:
            codePoint = UInt32(byte & 0x07); pendingContinuations = 3; minimumCodePoint = 0x1_0000
        default:
            screen.printCharacter(Self.replacement)   // a stray continuation byte, C0/C1, F5–FF
        }
    }

    /// Replaces a half-read UTF-8 character, if any, by U+FFFD.
    private mutating func flushPartialCharacter(_ screen: inout TerminalScreen) {
        guard pendingContinuations > 0 else { return }
        pendingContinuations = 0
        screen.printCharacter(Self.replacement)
    }

    private static let replacement = Unicode.Scalar(0xFFFD)!
}
