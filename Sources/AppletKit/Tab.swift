import AppletState
import AppletUI

/// A tab of the host: one applet, or several side by side in a split.
///
/// ```swift
/// Tab(CounterApplet())
/// Tab("Dashboard", split: .horizontal, [MonitorApplet(), LogApplet()])
/// ```
@MainActor
public struct Tab {
    /// Shown in the tab bar.
    public let title: String
    /// Used by `--tab <id>`; the applet's id for a one-applet tab.
    public let id: String
    public let panes: [any Applet]
    /// How panes of a split sit: `.horizontal` side by side, `.vertical` one above the other.
    public let split: Axis

    public init(_ applet: some Applet) {
        title = applet.title
        id = applet.id
        panes = [applet]
        split = .horizontal
    }

    public init(_ title: String, id: String? = nil, split: Axis = .horizontal, _ applets: [any Applet]) {
        precondition(!applets.isEmpty, "Tab '\(title)' needs at least one applet")
        self.title = title
        self.id = id ?? title.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
        self.panes = applets
        self.split = split
    }
}

extension Array where Element == Tab {
    /// The index of the tab a user named by number (1-based) or id/title (any case); nil if none.
    ///
    /// ```swift
    /// tabs.index(named: "2")        // 1
    /// tabs.index(named: "counter")  // 0
    /// ```
    public func index(named name: String) -> Int? {
        if let n = Int(name) { return indices.contains(n - 1) ? n - 1 : nil }
        let wanted = name.lowercased()
        return firstIndex { $0.id.lowercased() == wanted || $0.title.lowercased() == wanted }
    }

    /// "1 counter, 2 dashboard, 3 list": how to name each tab, for error messages.
    public var namesForHelp: String {
        enumerated().map { "\($0.offset + 1) \($0.element.id)" }.joined(separator: ", ")
    }
}
