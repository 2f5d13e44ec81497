import AppletKit

extension Application {
    /// The count the dashboard's progress bar fills up to.
    public var dashboardGoal: State<Int> { state(initial: 20, feature: "Dashboard", id: "goal") }
}
