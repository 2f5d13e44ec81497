import AppletKit

extension Application {
    /// The count the dashboard's progress bar fills up to: a `SyncState`, so every running instance
    /// of the app shares it (and, in an app started with `--sync-url`, every machine's).
    public var dashboardGoal: SyncState<Int> { syncState(initial: 20, feature: "Dashboard", id: "goal") }
}
