#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TerminalCore

/// An answer a terminal sent to a query the program wrote. `InputDecoder` recognises these among
/// the input bytes and hands them over through `takeReplies()`; they never arrive as an `Event`.
///
/// ```swift
/// var decoder = InputDecoder()
/// decoder.feed(Array("\u{1B}[?0u\u{1B}[?62;22c".utf8))   // []: no key in there
/// decoder.takeReplies()   // [.kittyKeyboardFlags([]), .primaryDeviceAttributes([62, 22])]
/// ```
public enum TerminalReply: Hashable, Sendable {
    /// `CSI ? flags u`: the terminal speaks the kitty keyboard protocol; the flags in effect now.
    case kittyKeyboardFlags(KittyKeyboard.Flags)
    /// `CSI ? Ps ; … c`: the primary device attributes (DA1), which every terminal answers.
    case primaryDeviceAttributes([Int])
    /// `CSI ? mode ; status $ y` (DECRPM), the answer to DECRQM: 0 not recognised, 1 set,
    /// 2 reset, 3 permanently set, 4 permanently reset.
    case modeReport(mode: Int, status: Int)
    /// `OSC 10 ; rgb:…`: the default foreground colour.
    case foregroundColor(TerminalColor)
    /// `OSC 11 ; rgb:…`: the default background colour.
    case backgroundColor(TerminalColor)
    /// `DCS 1 + r name = value` (XTGETTCAP): a terminfo capability the terminal itself has (the
    /// empty value: `DCS 1 + r name`, a boolean one it has; nil: `DCS 0 + r name`, it has not).
    case capability(name: String, value: String?)
    /// `DCS > | text` (XTVERSION): the terminal's name and version.
    case terminalVersion(String)
}

/// A colour a terminal reports (OSC 10/11 answers), 8 bits a channel.
///
/// ```swift
/// TerminalColor(xParseColor: Array("rgb:ffff/ffff/ffff".utf8)[...])   // (255, 255, 255)
/// TerminalColor(red: 0, green: 0, blue: 0).isDark                      // true
/// ```
public struct TerminalColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// X11's `rgb:R/G/B` with 1 to 4 hex digits a channel (what xterm, VTE, kitty, tmux answer).
    public init?(xParseColor text: ArraySlice<UInt8>) {
        guard text.starts(with: Array("rgb:".utf8)) else { return nil }
        let channels = text.dropFirst(4).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard channels.count == 3 else { return nil }
        var values: [UInt8] = []
        for channel in channels {
            guard (1...4).contains(channel.count) else { return nil }
            var value = 0
            for byte in channel {
                let digit: Int
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
                default: return nil
                }
                value = value * 16 + digit
            }
            // Scaled to 8 bits from however many digits there were (f is 255, ff is 255, fff…).
            let maximum = (1 << (4 * channel.count)) - 1
            values.append(UInt8((value * 255 + maximum / 2) / maximum))
        }
        self.init(red: values[0], green: values[1], blue: values[2])
    }

    /// Its relative luminance (WCAG), 0 for black to 1 for white.
    public var luminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// Whether text meant for a dark background reads better on it than text for a light one.
    public var isDark: Bool { luminance < 0.18 }

    public var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// The kitty keyboard protocol (https://sw.kovidgoyal.net/kitty/keyboard-protocol/): keys that
/// legacy terminals send ambiguously (Esc, Ctrl-I and Tab, Ctrl-M and Enter, Shift-Enter and Enter)
/// arrive as distinct `CSI code ; modifiers u` sequences once the program pushes the
/// "disambiguate escape codes" flag (`CSI > 1 u`); it pops it (`CSI < u`) when it gives the
/// terminal back.
///
/// `NcursesTerminal` never pushes blind: after start-up it writes the flags query `CSI ? u` and a
/// DA1 query `CSI c`, and pushes only if the flags answer comes (before the DA1 answer, which
/// every terminal sends). `Detection` makes that decision; `InputDecoder` decodes the keys.
///
/// ```swift
/// var detection = KittyKeyboard.Detection()
/// detection.queried()                                             // CSI ? u CSI c written
/// detection.receive(.kittyKeyboardFlags([]))                      // true: push CSI > 1 u now
/// detection.receive(.primaryDeviceAttributes([62, 22]))           // false: decided already
/// detection.state                                                 // .supported([])
/// ```
public enum KittyKeyboard {
    /// The progressive enhancement flags, as the terminal reports them and `CSI > flags u` pushes.
    ///
    /// ```swift
    /// let flags = KittyKeyboard.Flags(rawValue: 1)   // .disambiguateEscapeCodes
    /// ```
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Esc, Alt-, Ctrl- and keypad keys as `CSI u`; plain Enter, Tab and Backspace stay bytes.
        public static let disambiguateEscapeCodes = Flags(rawValue: 1 << 0)
        /// Repeat and release events besides presses.
        public static let reportEventTypes = Flags(rawValue: 1 << 1)
        /// The shifted and base-layout keys besides the key.
        public static let reportAlternateKeys = Flags(rawValue: 1 << 2)
        /// Every key as an escape code, text included.
        public static let reportAllKeysAsEscapeCodes = Flags(rawValue: 1 << 3)
        /// The text a key produces, inside its escape code.
        public static let reportAssociatedText = Flags(rawValue: 1 << 4)
    }

    /// The flags AppletKit pushes: only disambiguation, so text still arrives as text.
    public static let pushedFlags: Flags = .disambiguateEscapeCodes

    /// Whether the terminal has the protocol, decided from its answers to the detection query
    /// (`CSI ? u` followed by DA1, `CSI c`).
    ///
    /// Invariants: `receive(_:)` returns true at most once, and only for a flags answer that came
    /// after `queried()` and before any DA1 answer; a DA1 answer with no flags answer before it
    /// means "unsupported" for good (a late flags answer is ignored). With no answer at all the
    /// state stays `.awaitingReply` and nothing is ever pushed.
    ///
    /// ```swift
    /// var detection = KittyKeyboard.Detection()
    /// detection.queried()
    /// detection.receive(.primaryDeviceAttributes([62]))   // false: a terminal without it
    /// detection.state                                     // .unsupported
    /// ```
    public struct Detection: Hashable, Sendable {
        public enum State: Hashable, Sendable {
            /// The query was not written yet: answers are not ours.
            case notQueried
            /// The query was written; no answer came yet.
            case awaitingReply
            /// The terminal answered the flags query (with the flags in effect before our push).
            case supported(Flags)
            /// The terminal answered DA1 without answering the flags query first.
            case unsupported
        }

        public private(set) var state: State = .notQueried

        /// A detection that has not queried yet.
        ///
        /// ```swift
        /// var detection = KittyKeyboard.Detection()
        /// ```
        public init() {}

        /// Notes that the query was written: answers from now on count.
        ///
        /// ```swift
        /// detection.queried()
        /// ```
        public mutating func queried() {
            state = .awaitingReply
        }

        /// Takes one answer; returns true when the caller should push the flags now.
        ///
        /// ```swift
        /// for reply in decoder.takeReplies() where detection.receive(reply) { push() }
        /// ```
        public mutating func receive(_ reply: TerminalReply) -> Bool {
            guard case .awaitingReply = state else { return false }
            switch reply {
            case .kittyKeyboardFlags(let flags):
                state = .supported(flags)
                return true
            case .primaryDeviceAttributes:
                state = .unsupported
                return false
            default:
                return false   // the answers to the other start-up queries
            }
        }

        /// True once the terminal answered the flags query.
        ///
        /// ```swift
        /// if detection.isSupported { ... }
        /// ```
        public var isSupported: Bool {
            if case .supported = state { return true }
            return false
        }
    }

    /// The key a kitty functional key code from the Unicode private-use area stands for: F13–F24
    /// and the keypad's keys (sent as their own codes in disambiguate mode); nil for the rest
    /// (F25–F35, lock, media and modifier keys, keypad Begin).
    static func functionalKey(_ code: Int) -> KeyCode? {
        switch code {
        case 57376...57387: return .function(code - 57376 + 13)    // F13…F24
        case 57399...57408: return .char(Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8(code - 57399))))   // KP 0…9
        case 57409: return .char(".")
        case 57410: return .char("/")
        case 57411: return .char("*")
        case 57412: return .char("-")
        case 57413: return .char("+")
        case 57414: return .enter
        case 57415: return .char("=")
        case 57416: return .char(",")
        case 57417: return .left
        case 57418: return .right
        case 57419: return .up
        case 57420: return .down
        case 57421: return .pageUp
        case 57422: return .pageDown
        case 57423: return .home
        case 57424: return .end
        case 57425: return .insert
        case 57426: return .delete
        default: return nil
        }
    }
}
