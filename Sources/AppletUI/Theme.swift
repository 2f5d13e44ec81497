import Terminal

/// Named colour roles, so widgets and applets say what a thing *is* (accent, selection, error)
/// and the theme decides how that looks on this terminal.
///
/// Two themes ship, `.dark` and `.light`. Each role has a 24-bit colour and a basic-colour
/// fallback; `resolved(for:)` picks per terminal: 24-bit on a direct-colour terminal, the nearest
/// palette entry on 256 colours, the basic colour on 16 or 8, and attributes only (bold, reverse,
/// dim, underline) in monochrome or under `NO_COLOR`.
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
    }

    /// How one role looks: a 24-bit colour with its basic-colour fallback, plus attributes, and
    /// the attributes that stand in for the colour when there is none.
    public struct Entry: Sendable, Equatable {
        public var foreground: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)?
        public var background: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)?
        public var attributes: TextAttributes
        public var monochrome: TextAttributes

        public init(foreground: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)? = nil,
                    background: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)? = nil,
                    attributes: TextAttributes = [], monochrome: TextAttributes = []) {
            self.foreground = foreground
            self.background = background
            self.attributes = attributes
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
            return same(a.foreground, b.foreground) && same(a.background, b.background)
                && a.attributes == b.attributes && a.monochrome == b.monochrome
        }

        func style(for support: ColorSupport) -> Style {
            func color(_ c: (rgb: (UInt8, UInt8, UInt8), basic: ANSIColor)?) -> Color {
                guard let c else { return .default }
                switch support {
                case .none: return .default
                case .basic8, .basic16: return .ansi(c.basic)
                case .palette256, .truecolor: return .rgb(c.rgb.0, c.rgb.1, c.rgb.2)
                }
            }
            if support == .none { return Style(attributes: attributes.union(monochrome)) }
            return Style(foreground: color(foreground), background: color(background), attributes: attributes)
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

    /// Light text on a dark background (the default).
    public static let dark = Theme(name: "dark", entries: [
        .text: Entry(),
        .muted: Entry(foreground: ((140, 140, 150), .brightBlack), monochrome: .dim),
        .accent: Entry(foreground: ((95, 215, 255), .cyan), attributes: .bold, monochrome: .bold),
        .selection: Entry(foreground: ((255, 255, 255), .white), background: ((38, 79, 120), .blue), monochrome: .reverse),
        .focus: Entry(foreground: ((0, 0, 0), .black), background: ((95, 215, 255), .cyan), attributes: .bold, monochrome: [.reverse, .bold]),
        .border: Entry(foreground: ((98, 114, 164), .brightBlack), monochrome: .dim),
        .title: Entry(foreground: ((189, 147, 249), .magenta), attributes: .bold, monochrome: .bold),
        .success: Entry(foreground: ((80, 250, 123), .green)),
        .warning: Entry(foreground: ((241, 250, 140), .yellow), monochrome: .bold),
        .error: Entry(foreground: ((255, 85, 85), .red), attributes: .bold, monochrome: [.bold, .underline]),
        .disabled: Entry(foreground: ((98, 98, 98), .brightBlack), attributes: .dim, monochrome: .dim),
        .header: Entry(foreground: ((95, 215, 255), .cyan), attributes: [.bold, .underline], monochrome: [.bold, .underline]),
    ])

    /// Dark text on a light background.
    public static let light = Theme(name: "light", entries: [
        .text: Entry(),
        .muted: Entry(foreground: ((110, 110, 120), .brightBlack), monochrome: .dim),
        .accent: Entry(foreground: ((0, 95, 175), .blue), attributes: .bold, monochrome: .bold),
        .selection: Entry(foreground: ((0, 0, 0), .black), background: ((175, 215, 255), .cyan), monochrome: .reverse),
        .focus: Entry(foreground: ((255, 255, 255), .white), background: ((0, 95, 175), .blue), attributes: .bold, monochrome: [.reverse, .bold]),
        .border: Entry(foreground: ((135, 135, 175), .blue), monochrome: .dim),
        .title: Entry(foreground: ((135, 0, 175), .magenta), attributes: .bold, monochrome: .bold),
        .success: Entry(foreground: ((0, 135, 0), .green)),
        .warning: Entry(foreground: ((175, 95, 0), .yellow), monochrome: .bold),
        .error: Entry(foreground: ((215, 0, 0), .red), attributes: .bold, monochrome: [.bold, .underline]),
        .disabled: Entry(foreground: ((160, 160, 160), .white), attributes: .dim, monochrome: .dim),
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
        Styled(content: content, style: context.theme[role])._makeNodes(context, into: &nodes)
    }
}
