import AppletState

/// The selected tab, in the store: the host shows the tab it names and writes it when the user
/// switches, so an applet can switch tabs without knowing the host, and the choice comes back
/// after a restart (`--tab` wins over it).
///
/// ```swift
/// @StoredState(\.tabRouter) var tabs
/// Button("Open inbox") { tabs.select("inbox") }   // by the tab's id
/// ```
public struct TabRouter: Hashable, Sendable, Codable {
    /// The id of the selected tab (its first applet's id); nil before the host first chose one.
    public var selectedTab: String?

    public init(selectedTab: String? = nil) {
        self.selectedTab = selectedTab
    }

    /// Asks the host to show the tab with this id.
    public mutating func select(_ tabID: String) { selectedTab = tabID }
}

extension Application {
    /// The app's selected tab (see `TabRouter`).
    public var tabRouter: StoredState<TabRouter> { storedState(initial: TabRouter(), feature: "AppletKit", id: "tabRouter") }
}
