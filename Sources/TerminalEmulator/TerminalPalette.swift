import Terminal

/// The colours a real terminal shows for a `Style`, so tests can measure what a person reads:
/// the contrast of text against what is behind it, and whether two styles look different.
///
/// It follows xterm with its default palette (the one `ColorMapping` maps to) and one of two
/// backgrounds: black with white text, or white with black text. A colour goes through
/// `ColorMapping` for the depth first (as the real terminal gets it); then, as xterm does,
/// bold brightens an explicit basic foreground (colours 0–7 become 8–15, xterm's `boldColors`),
/// dim takes an explicit foreground to two thirds (default-coloured text is not dimmed), and
/// reverse swaps the two. Terminals that never brighten bold are the `boldBrightens: false` case;
/// a style must read on both.
///
/// ```swift
/// let palette = TerminalPalette.xterm(darkBackground: false)
/// let shown = palette.shown(Style(foreground: .ansi(.blue)), support: .basic8)
/// shown.foreground.contrast(with: shown.background)   // 9.4
/// ```
public struct TerminalPalette: Sendable, Equatable {
    /// The default foreground and background.
    public var foreground: TerminalColor
    public var background: TerminalColor
    /// Whether bold turns basic colours 0–7 into their bright variants (xterm's default).
    public var boldBrightens: Bool

    public init(foreground: TerminalColor, background: TerminalColor, boldBrightens: Bool) {
        self.foreground = foreground
        self.background = background
        self.boldBrightens = boldBrightens
    }

    /// xterm's default palette on a black or a white background.
    public static func xterm(darkBackground: Bool, boldBrightens: Bool = true) -> TerminalPalette {
        let white = TerminalColor(red: 255, green: 255, blue: 255), black = TerminalColor(red: 0, green: 0, blue: 0)
        return darkBackground
            ? TerminalPalette(foreground: white, background: black, boldBrightens: boldBrightens)
            : TerminalPalette(foreground: black, background: white, boldBrightens: boldBrightens)
    }

    /// The foreground and background a cell in `style` shows in, at `support` colours.
    public func shown(_ style: Style, support: ColorSupport) -> (foreground: TerminalColor, background: TerminalColor) {
        var foregroundNumber = ColorMapping.number(for: style.foreground, support: support)
        let backgroundNumber = ColorMapping.number(for: style.background, support: support)
        if boldBrightens, style.attributes.contains(.bold), (0..<8).contains(foregroundNumber) { foregroundNumber += 8 }
        var shownForeground = color(foregroundNumber, support: support) ?? foreground
        if style.attributes.contains(.dim), foregroundNumber >= 0 {
            shownForeground = TerminalColor(red: Self.twoThirds(shownForeground.red), green: Self.twoThirds(shownForeground.green),
                                            blue: Self.twoThirds(shownForeground.blue))
        }
        let shownBackground = color(backgroundNumber, support: support) ?? background
        return style.attributes.contains(.reverse) ? (shownBackground, shownForeground) : (shownForeground, shownBackground)
    }

    /// The contrast of a cell's text against its background (WCAG, 1 to 21).
    public func contrast(_ style: Style, support: ColorSupport) -> Double {
        let shown = shown(style, support: support)
        return shown.foreground.contrast(with: shown.background)
    }

    /// Whether text in `a` and in `b` look different: another text or background colour (far
    /// enough apart to tell), or underline, reverse or bold on one only. Dim and italic do not
    /// count: xterm does not dim default-coloured text, and bitmap fonts have no italics.
    public func looksDifferent(_ a: Style, _ b: Style, support: ColorSupport) -> Bool {
        let (x, y) = (shown(a, support: support), shown(b, support: support))
        if x.foreground.distance(to: y.foreground) >= Self.distinctDistance || x.background.distance(to: y.background) >= Self.distinctDistance {
            return true
        }
        let visible: TextAttributes = [.underline, .reverse, .bold]
        return a.attributes.intersection(visible) != b.attributes.intersection(visible)
    }

    /// How far apart (RGB distance) two colours are to be told apart at a glance: white and
    /// xterm's light grey (229) are 45 apart and look the same; grey 127 and black are 220 apart.
    public static let distinctDistance = 80.0

    /// A colour number from `ColorMapping` as RGB (nil: the default colour).
    func color(_ number: Int32, support: ColorSupport) -> TerminalColor? {
        guard number >= 0 else { return nil }
        if support == .truecolor, number >= 8 {
            return TerminalColor(red: UInt8(number >> 16 & 0xFF), green: UInt8(number >> 8 & 0xFF), blue: UInt8(number & 0xFF))
        }
        let (r, g, b) = ColorMapping.rgb(ofIndex: UInt8(clamping: number))
        return TerminalColor(red: r, green: g, blue: b)
    }

    private static func twoThirds(_ channel: UInt8) -> UInt8 { UInt8(Int(channel) * 2 / 3) }
}

extension TerminalColor {
    /// The WCAG contrast ratio of two colours: 1 (the same) to 21 (black and white).
    public func contrast(with other: TerminalColor) -> Double {
        let (a, b) = (luminance, other.luminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The distance between two colours in RGB space (0 to 441).
    public func distance(to other: TerminalColor) -> Double {
        let dr = Double(red) - Double(other.red), dg = Double(green) - Double(other.green), db = Double(blue) - Double(other.blue)
        return (dr * dr + dg * dg + db * db).squareRoot()
    }
}
