import Terminal

/// Named colour roles, so widgets and applets say what a thing *is* (accent, selection, error)
/// and the theme decides how that looks on this terminal.
///
/// Two themes ship, `.dark` for a dark background and `.light` for a light one; an app follows
/// the terminal's background unless `--theme` says otherwise. Each role has a look for every
/// colour depth, picked by `resolved(for:)`: 24-bit colour on a direct-colour terminal, the
/// nearest palette entry on 256 colours, its own basic colours on 16 and on 8 (where there is no
/// grey and no bright colour, and where xterm turns bold basic colours bright), and attributes
/// only (bold, reverse, dim, underline) in monochrome or under `NO_COLOR`.
///
/// Invariants (checked against xterm's default palette by the contrast tests): text roles read at
/// 4.5:1 or more against what is behind them, secondary ones (muted, disabled, border) at 3:1,
/// at every depth, on the background the theme is for, whether or not the terminal brightens
/// bold; muted, disabled, focus and selection each look different from normal text.
///
/// ```swift
/// Text("Saved").themed(.success)
/// Text("3 errors").themed(.error)
/// let theme = Theme.light.resolved(for: .basic16)
/// theme[.selection]   // the style of a selected row
/// ```
public struct Theme: Sendable, Equatable {
    /// What a piece of the screen is.
    public enum Role: Int, Sendable, CaseIterable {
        /// Ordinary text.
        case text
        /// Secondary text: hints, units, placeholders.
        case muted
        /// What should stand out: titles, key hints, the active value.
        case accent
        /// A selected row or item.
        case selection
        /// The widget with keyboard focus.
        case focus
        /// Box borders and dividers.
        case border
        /// Titles of boxes and sections.
        case title
        case success
        case warning
        case error
        /// A disabled widget.
        case disabled
        /// Table headers and other column labels.
        case header

        /// Whether the role is secondary (muted, disabled, borders), which needs 3:1 contrast
        /// where text needs 4.5:1.
        public var isSecondary: Bool { self == .muted || self == .disabled || self == .border }
    }

    /// How one role looks: a 24-bit colour with its basic-colour fallback, plus attributes; the
    /// looks at 16 and at 8 colours where the fallback alone would not read; and the attributes
    /// that stand in for the colour when there is none.
    ///
    /// ```swift
    /// Theme.Entry(foreground: ((140, 140, 150), .brightBlack),
    ///             basic8: Style(foreground: .white, attributes: .dim),   // no grey at 8 colours
    ///             monochrome: .dim)
    /// ```
    public struct Entry: Sendable, Equatable {
        public var foreground: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)?
        public var background: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)?
        public var attributes: TextAttributes
        /// The look at 16 colours (nil: the basic colours above, with `attributes`).
        public var basic16: Style?
        /// The look at 8 colours (nil: the 16-colour look, bright colours made normal).
        public var basic8: Style?
        public var monochrome: TextAttributes

        public init(foreground: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)? = nil,
                    background: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)? = nil,
                    attributes: TextAttributes = [], basic16: Style? = nil, basic8: Style? = nil,
                    monochrome: TextAttributes = []) {
            self.foreground = foreground
            self.background = background
            self.attributes = attributes
            self.basic16 = basic16
            self.basic8 = basic8
            self.monochrome = monochrome
        }

        public static func == (a: Entry, b: Entry) -> Bool {
            func same(_ x: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)?, _ y: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)?) -> Bool {
                switch (x, y) {
                case (nil, nil): return true
                case let (x?, y?): return x.rgb == y.rgb && x.basic == y.basic
                default: return false
                }
            }
            return same(a.foreground, b.foreground) && same(a.background, b.background) && a.attributes == b.attributes
                && a.basic16 == b.basic16 && a.basic8 == b.basic8 && a.monochrome == b.monochrome
        }

        func style(for support: ColorSupport) -> Style {
            func rgb(_ c: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)?) -> Color { c.map { .rgb($0.rgb.0, $0.rgb.1, $0.rgb.2) } ?? .default }
            func basic(_ c: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)?) -> Color { c.map { .ansi($0.basic) } ?? .default }
            let sixteen = basic16 ?? Style(foreground: basic(foreground), background: basic(background), attributes: attributes)
            switch support {
            case .none: return Style(attributes: attributes.union(monochrome))
            case .basic8: return basic8 ?? sixteen
            case .basic16: return sixteen
            case .palette256, .truecolor: return Style(foreground: rgb(foreground), background: rgb(background), attributes: attributes)
            }
        }
    }

    public var name: String
    public var entries: [Entry]

    public init(name: String, entries: [Role: Entry]) {
        self.name = name
        self.entries = Role.allCases.map { entries[$0] ?? Entry() }
    }

    public subscript(role: Role) -> Entry {
        get { entries[role.rawValue] }
        set { entries[role.rawValue] = newValue }
    }

    /// The styles for a terminal with `support` colours.
    public func resolved(for support: ColorSupport) -> ResolvedTheme {
        ResolvedTheme(name: name, support: support, styles: entries.map { $0.style(for: support) })
    }

    /// Light text on a dark background (the default when the background is unknown).
    ///
    /// At 8 colours grey is white dimmed (xterm shows two thirds of it), error is white on red
    /// (red text on black is 3.6:1), titles are plain bold (magenta is 4.48:1); at 16, focus
    /// drops bold, which xterm would turn its black into grey.
    public static let dark = Theme(name: "dark", entries: [
        .text: Entry(),
        .muted: Entry(foreground: ((150, 150, 160), .brightBlack),
                      basic8: Style(foreground: .white, attributes: .dim), monochrome: .dim),
        .accent: Entry(foreground: ((95, 215, 255), .cyan), attributes: .bold, monochrome: .bold),
        .selection: Entry(foreground: ((255, 255, 255), .white), background: ((38, 79, 120), .blue), monochrome: .reverse),
        .focus: Entry(foreground: ((0, 0, 0), .black), background: ((95, 215, 255), .cyan), attributes: .bold,
                      basic16: Style(foreground: .black, background: .cyan), monochrome: [.reverse, .bold]),
        .border: Entry(foreground: ((110, 124, 170), .brightBlack),
                       basic8: Style(foreground: .white, attributes: .dim), monochrome: .dim),
        .title: Entry(foreground: ((189, 147, 249), .brightMagenta), attributes: .bold,
                      basic8: Style(attributes: .bold), monochrome: .bold),
        .success: Entry(foreground: ((80, 250, 123), .green)),
        .warning: Entry(foreground: ((241, 250, 140), .yellow), monochrome: .bold),
        .error: Entry(foreground: ((255, 85, 85), .brightRed), attributes: .bold,
                      basic8: Style(foreground: .white, background: .red, attributes: .bold), monochrome: [.bold, .underline]),
        .disabled: Entry(foreground: ((160, 160, 160), .white), attributes: .dim,
                         basic16: Style(foreground: .white, attributes: .dim), monochrome: .dim),
        .header: Entry(foreground: ((95, 215, 255), .cyan), attributes: [.bold, .underline], monochrome: [.bold, .underline]),
    ])

    /// Dark text on a light background.
    ///
    /// xterm's basic green and yellow do not read on white, so success and warning are the
    /// default (dark) text on them; bold would turn red and magenta into their bright forms (4:1
    /// and 3.1:1) and black into grey, so error and titles are not bold at 16 and 8 colours and
    /// dark text on a colour is the default colour, never black; at 8 there is no grey, so muted
    /// text is blue.
    public static let light = Theme(name: "light", entries: [
        .text: Entry(),
        .muted: Entry(foreground: ((100, 100, 110), .brightBlack),
                      basic8: Style(foreground: .blue), monochrome: .dim),
        .accent: Entry(foreground: ((0, 95, 175), .blue), attributes: .bold, monochrome: .bold),
        .selection: Entry(foreground: ((0, 0, 0), .black), background: ((175, 215, 255), .cyan),
                          basic16: Style(background: .cyan), monochrome: .reverse),
        .focus: Entry(foreground: ((255, 255, 255), .white), background: ((0, 95, 175), .blue), attributes: .bold, monochrome: [.reverse, .bold]),
        .border: Entry(foreground: ((120, 120, 160), .blue), monochrome: .dim),
        .title: Entry(foreground: ((135, 0, 175), .magenta), attributes: .bold,
                      basic16: Style(foreground: .magenta), monochrome: .bold),
        .success: Entry(foreground: ((0, 120, 0), .green),
                        basic16: Style(background: .green)),
        .warning: Entry(foreground: ((150, 80, 0), .yellow),
                        basic16: Style(background: .yellow), monochrome: .bold),
        .error: Entry(foreground: ((200, 0, 0), .red), attributes: .bold,
                      basic16: Style(foreground: .red), monochrome: [.bold, .underline]),
        .disabled: Entry(foreground: ((130, 130, 130), .brightBlack), attributes: .dim,
                         basic8: Style(foreground: .blue, attributes: .dim), monochrome: .dim),
        .header: Entry(foreground: ((0, 95, 175), .blue), attributes: [.bold, .underline], monochrome: [.bold, .underline]),
    ])

    /// The built-in themes by name (`--theme dark|light`).
    public static let builtIn: [String: Theme] = ["dark": .dark, "light": .light]
}

/// A theme's styles for one terminal: what widgets draw with. `context.theme[.selection]`.
public struct ResolvedTheme: Sendable, Equatable {
    public let name: String
    public let support: ColorSupport
    let styles: [Style]

    public subscript(role: Theme.Role) -> Style { styles[role.rawValue] }

    /// `role` drawn over `base`. On a highlighted surface (a `base` with the selection's or the
    /// focus's background) a role without a background of its own keeps the surface's colours and
    /// adds only underline and italic: a key hint, an accent or a placeholder inside a selected row
    /// reads as the row does, where its own colour (or bold, which xterm turns into a brighter
    /// colour) would sit on a background it was not made for. A role with its own background is a
    /// surface of its own there, drawn as itself.
    ///
    /// ```swift
    /// theme.style(.muted, over: theme[.selection])   // the selection's colours
    /// theme.style(.muted, over: .plain)              // the muted role's
    /// ```
    public func style(_ role: Theme.Role, over base: Style) -> Style {
        let own = self[role]
        let onSurface = base.background != .default
            && (base.background == self[.selection].background || base.background == self[.focus].background)
        guard onSurface else { return base.merged(with: own) }
        if own.background != .default { return own }
        return base.merged(with: Style(attributes: own.attributes.intersection([.underline, .italic])))
    }

    /// The dark theme on a 256-colour terminal: what views get unless a host says otherwise.
    public static let standard = Theme.dark.resolved(for: .palette256)
}

extension View {
    /// Draws this view in a theme role's style (merged over the inherited style).
    ///
    /// ```swift
    /// Text("Connection lost").themed(.error)
    /// ```
    public func themed(_ role: Theme.Role) -> Themed<Self> { Themed(content: self, role: role) }
}

/// A view drawn in a theme role's style (see `View.themed(_:)`).
public struct Themed<Content: View>: View {
    public typealias Body = Never
    let content: Content
    let role: Theme.Role

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var inner = context
        inner.style = context.style(role)
        if context.theme[role].background != .default {
            nodes.append(FillNode(child: content.makeSingleNode(inner), style: inner.style))
        } else {
            content._makeNodes(inner, into: &nodes)
        }
    }
}
