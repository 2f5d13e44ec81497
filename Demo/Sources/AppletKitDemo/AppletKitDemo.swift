import AppletKit
import AppletSync
import ArgumentParser
import DemoTabs
import WidgetsApplet

/// The demo host: the example applets in tabs, written as any app is, with `AppletApp`.
/// `appletkit new-applet` starts a package of your own.
@main
struct AppletKitDemo: AppletApp {
    static let id = "appletkit"
    static let version = AppletKitVersion.current
    static let abstract = "The AppletKit demo host: example applets in tabs that share one store."
    static let discussion = """
        Keys: 1-9 select a tab, ]/[ next/previous tab, Tab moves focus, q quits, Ctrl-C always quits.
        In the Counter tab + and - change the shared counter; the Dashboard tab shows the same counter.
        The Dashboard's goal (> and <) is shared by every running instance; with --sync-url
        postgres://… (or APPLETKIT_SYNC_URL) by every machine using that database.
        `appletkit new-applet Notes` creates a new applet package (see `appletkit new-applet --help`).
        """
    static let subcommands: [any ParsableCommand.Type] = [NewAppletCommand.self]
    static let syncProvider: SyncProvider? = .postgres

    var tabs: [Tab] { DemoTabs.all }

    func prepare() {
        // The gallery's spinner and progress bar move on a timer of its own.
        WidgetsApplet.startClock()
    }
}
