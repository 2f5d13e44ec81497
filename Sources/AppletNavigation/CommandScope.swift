/// Where a command belongs, which is also the order keys look for it: a presented sheet first,
/// then the focused widget, the focused applet, its navigation stack, the tab, and the host.
///
/// ```swift
/// CommandScope.applet < CommandScope.host   // true: the applet is asked first
/// ```
public enum CommandScope: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case sheet, widget, applet, navigation, tab, host

    public static func < (lhs: CommandScope, rhs: CommandScope) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Every scope, as a set made once (a lookup's default; made per call, it cost a key more
    /// than the lookup).
    public static let all = Set(allCases)
    /// The scopes a key reaches while no sheet is up, and while one is.
    static let withoutSheet: Set<CommandScope> = [.applet, .navigation, .tab, .host]
    static let onlySheet: Set<CommandScope> = [.sheet]

    /// This scope's bit in `mask(of:)`.
    var bit: Int { 1 << rawValue }

    /// The scopes of `set` as bits, so that a scan over every command tests a bit per command
    /// instead of hashing its scope into the set.
    static func mask(of set: Set<CommandScope>) -> Int {
        var mask = 0
        for scope in set { mask |= scope.bit }
        return mask
    }

    /// The heading help and the palette group its commands under.
    public var description: String {
        switch self {
        case .sheet: "Sheet"
        case .widget: "Focused widget"
        case .applet: "Applet"
        case .navigation: "Navigation"
        case .tab: "Tab"
        case .host: "App"
        }
    }
}
