/// A colour a cell can be drawn in.
///
/// The terminal picks the closest colour it can show: `.rgb` becomes the nearest of the 256-colour
/// palette, and on a 16- or 8-colour terminal the nearest basic colour; under `NO_COLOR` or on a
/// monochrome terminal every colour is drawn as the default.
///
/// ```swift
/// Style(foreground: .ansi(.red))
/// Style(foreground: .indexed(208), background: .rgb(0x20, 0x20, 0x30))
/// ```
///
/// Stored in four bytes (a kind and up to three bytes of value), so cells compare quickly.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// What a colour is, for code that needs to tell the kinds apart.
    public enum Kind: Hashable, Sendable {
        case `default`
        case ansi(ANSIColor)
        case indexed(UInt8)
        case rgb(UInt8, UInt8, UInt8)
    }

    private let rawValue: UInt32
    private init(tag: UInt32, value: UInt32) { rawValue = tag << 24 | value }

    /// The terminal's own default foreground or background.
    public static let `default` = Color(tag: 0, value: 0)
    /// One of the 16 basic colours.
    public static func ansi(_ color: ANSIColor) -> Color { Color(tag: 1, value: UInt32(color.rawValue)) }
    /// An entry of the 256-colour palette (0–15 basic, 16–231 a 6x6x6 cube, 232–255 greys).
    public static func indexed(_ index: UInt8) -> Color { Color(tag: 2, value: UInt32(index)) }
    /// A 24-bit colour, shown as the nearest palette entry.
    public static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Color {
        Color(tag: 3, value: UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
    }

    public var kind: Kind {
        let value = rawValue & 0xFF_FFFF
        switch rawValue >> 24 {
        case 1: return .ansi(ANSIColor(rawValue: UInt8(value & 0xF)) ?? .white)
        case 2: return .indexed(UInt8(value & 0xFF))
        case 3: return .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        default: return .default
        }
    }

    public var description: String { "\(kind)" }

    public static let black = Color.ansi(.black)
    public static let red = Color.ansi(.red)
    public static let green = Color.ansi(.green)
    public static let yellow = Color.ansi(.yellow)
    public static let blue = Color.ansi(.blue)
    public static let magenta = Color.ansi(.magenta)
    public static let cyan = Color.ansi(.cyan)
    public static let white = Color.ansi(.white)
    public static let gray = Color.ansi(.brightBlack)
}

/// The 16 basic terminal colours, numbered as the terminal numbers them.
public enum ANSIColor: UInt8, Hashable, Sendable, CaseIterable {
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
}

/// Text attributes of a cell.
///
/// ```swift
/// let emphasis: TextAttributes = [.bold, .underline]
/// ```
public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let italic = TextAttributes(rawValue: 1 << 2)
    public static let underline = TextAttributes(rawValue: 1 << 3)
    public static let reverse = TextAttributes(rawValue: 1 << 4)
    public static let blink = TextAttributes(rawValue: 1 << 5)
}

/// Colours and attributes of a cell.
///
/// ```swift
/// let selected = Style(attributes: .reverse)
/// let warning = Style(foreground: .yellow, attributes: .bold)
/// ```
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var attributes: TextAttributes

    public init(foreground: Color = .default, background: Color = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = Style()

    /// `other` drawn on top of `self`: its colours win where set, attributes add up.
    public func merged(with other: Style) -> Style {
        Style(foreground: other.foreground == .default ? foreground : other.foreground,
              background: other.background == .default ? background : other.background,
              attributes: attributes.union(other.attributes))
    }
}
