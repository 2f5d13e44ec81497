import Terminal

/// The levels a key passes through, in order (see `KeyRouter`).
public enum RoutingLevel: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The rest of a chord whose first keys were typed.
    case chord
    /// Priority commands: keys no widget can take (the host's `alt-1`…`alt-9`).
    case priority
    /// A presented sheet: modal, it keeps every key it does not use.
    case sheet
    /// The focused widget (a text field takes printable keys).
    case widget
    case applet
    /// The tab's navigation stack (`Esc` pops).
    case navigation
    case tab
    case host

    public var description: String { rawValue }

    /// The command scope a level looks in, if it is a command level.
    public var scope: CommandScope? {
        switch self {
        case .sheet: .sheet
        case .widget: .widget
        case .applet: .applet
        case .navigation: .navigation
        case .tab: .tab
        case .host: .host
        case .chord, .priority: nil
        }
    }
}

/// Which handler took a key and why the ones before it did not: for tests, and for the
/// `--debug-keys` overlay.
///
/// ```swift
/// host.lastRoutingTrace?.description
/// // "q: widget passed (no widget has focus) → applet passed (not bound) → host took host.quit"
/// ```
public struct RoutingTrace: Sendable, Equatable, CustomStringConvertible {
    public struct Step: Sendable, Equatable, CustomStringConvertible {
        public var level: RoutingLevel
        public var took: Bool
        /// What took it (a command id, "text field"), or why it passed.
        public var detail: String

        public init(level: RoutingLevel, took: Bool, detail: String) {
            self.level = level
            self.took = took
            self.detail = detail
        }

        public var description: String { "\(level) \(took ? "took" : "passed") \(took ? detail : "(\(detail))")" }
    }

    public let key: KeyEvent
    public internal(set) var steps: [Step] = []
    /// The command that ran, if a command took the key.
    public internal(set) var commandID: String?

    public init(key: KeyEvent) {
        self.key = key
        steps.reserveCapacity(6)   // a route records up to six levels: one allocation, not three
    }

    /// The level that took the key; nil when nothing did.
    public var handler: RoutingLevel? { steps.last(where: \.took)?.level }

    /// Records that `level` took the key (for handlers outside the router, such as the palette).
    public mutating func record(took level: RoutingLevel, _ what: String, command: String? = nil) {
        took(level, what)
        if let command { commandID = command }
    }

    mutating func passed(_ level: RoutingLevel, _ why: String) { steps.append(Step(level: level, took: false, detail: why)) }
    mutating func took(_ level: RoutingLevel, _ what: String) { steps.append(Step(level: level, took: true, detail: what)) }

    /// One short line for the `--debug-keys` overlay: who took the key first, then the levels it
    /// passed (`d: applet took mirror.double · passed priority, widget`); `description` has the reasons.
    public var summary: String {
        let passed = steps.filter { !$0.took }.map { "\($0.level)" }
        let taken = steps.last(where: \.took).map { "\($0.level) took \($0.detail)" } ?? "dropped"
        return "\(KeySpec.label(for: key)): \(taken)\(passed.isEmpty ? "" : " · passed \(passed.joined(separator: ", "))")"
    }

    public var description: String {
        let path = steps.map(\.description).joined(separator: " → ")
        return "\(KeySpec.label(for: key)): \(path.isEmpty ? "nothing to route to" : path)\(handler == nil ? " → dropped" : "")"
    }
}
