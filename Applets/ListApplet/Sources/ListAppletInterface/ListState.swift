import AppletKit

extension Application {
    /// The selected row of the long list.
    public var listSelection: State<Int> { state(initial: 0, feature: "List", id: "selection") }
}
