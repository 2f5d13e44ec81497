import AppletUI

/// What the host draws on its top line: the tab bar (the default), nothing (a single root view
/// full screen), or the app's own view. The footer and overlays stay in every case.
///
/// ```swift
/// AppletHost(root: EditorView())                                    // full screen, no tab bar
/// host.shell = .custom { shell in AnyView(MyTitleBar(shell)) }      // the app's own top line
/// ```
public enum HostShell {
    /// `TabBarView`: ` 1 Notes │ 2 Tally `; a click on a tab selects it.
    case tabBar
    /// No top line: the panes start on the first row.
    case none
    /// The app's own top line, drawn from the tabs and the selection; its buttons can switch
    /// tabs through the store (`Application.current.tabRouter.value.select("notes")`).
    case custom(@MainActor (ShellState) -> AnyView)

    /// Rows the shell takes at the top.
    var height: Int {
        if case .none = self { return 0 }
        return 1
    }
}

/// What a custom shell is drawn from.
public struct ShellState: Sendable, Equatable {
    /// The tabs' titles and ids, left to right.
    public let titles: [String]
    public let ids: [String]
    /// The tab on screen (0-based).
    public let selected: Int
}

/// A view shown as a tab of its own: for an app that is one screen, or a tab that is not an
/// `Applet` package (`Tab("Logs", view: LogScreen())`).
struct ViewApplet<Content: View>: Applet {
    let id: String
    let title: String
    let content: Content

    var body: some View { content }
}

extension Tab {
    /// A tab showing any view (its commands: none; use an `Applet` for keys of its own).
    ///
    /// ```swift
    /// Tab("Logs", view: LogScreen())
    /// ```
    public init<V: View>(_ title: String, id: String? = nil, view: V) {
        let id = id ?? title.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
        self.init(title, id: id, [ViewApplet(id: id, title: title, content: view)])
    }
}
