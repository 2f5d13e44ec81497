import AppletNavigation
import AppletState
import AppletUI
import Terminal

/// The bottom layer: the selected tab's applet panes side by side (or stacked), with dividers,
/// each drawn in a view tree of its own that evaluates its views only when state they read
/// changed. It keeps, per pane, the focus and the instance scope, and takes the mouse (a click
/// focuses a pane, a click on a breadcrumb goes back to that level) and pastes (into a text
/// widget with focus). Its keys are the host's registry (`AppletHost.activeRegistry()`): the
/// router asks its focused widget first (`handleKey`).
@MainActor
final class PanesLayer: HostLayer {
    unowned let host: AppletHost
    /// One tree per pane of each tab.
    let trees: [[ViewTree]]
    /// The focused pane of each tab.
    @exclusivity(unchecked) var focusedPane: [Int]
    private let paneInfo: [[PaneInfo]]
    /// The pane a mouse button went down in, until it is released.
    private var mouseCapturePane: Int?
    /// Draws the dividers: their views hold no state.
    private let dividerTree = ViewTree()

    /// What the host asks of a pane on every key and frame, worked out once (the tabs never
    /// change): its scope, and its applet as a `NavigationApplet` if it is one.
    struct PaneInfo {
        let scope: Scope
        let navigating: (any NavigationApplet)?
    }

    init(host: AppletHost, tabs: [Tab]) {
        self.host = host
        trees = tabs.map { $0.panes.map { _ in ViewTree() } }
        focusedPane = tabs.map { _ in 0 }
        paneInfo = tabs.map { tab in
            tab.panes.indices.map { pane in
                PaneInfo(scope: Scope(name: tab.panes[pane].id, id: "\(tab.id).\(pane)"),
                         navigating: tab.panes[pane] as? any NavigationApplet)
            }
        }
        for (tab, trees) in zip(tabs, trees) {
            for (applet, tree) in zip(tab.panes, trees) { EmbeddedApplets.setOwner(applet.id, of: tree) }
        }
    }

    var isPresented: Bool { true }

    /// The focused pane of the selected tab.
    var focused: Int { focusedPane[host.selectedTab] }
    var activeTree: ViewTree { trees[host.selectedTab][focused] }
    func info(_ tab: Int, _ pane: Int) -> PaneInfo { paneInfo[tab][pane] }
    func infos(of tab: Int) -> [PaneInfo] { paneInfo[tab] }

    /// The router's widget level: the focused widget of the focused pane.
    func handleKey(_ key: KeyEvent) -> String? {
        let tree = activeTree
        let inText = tree.focusedWidgetTakesText
        guard tree.handleKey(key) else { return nil }
        return inText && tree.focusedID == nil ? "the text field: Esc left it" : "the focused widget"
    }

    /// Only a text-taking widget gets pasted text; it never reaches key bindings.
    func handlePaste(_ text: String) -> Bool { activeTree.handlePaste(text) }

    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool {
        let rects = context.panes
        let tab = host.selectedTab
        // Drags and the release go to the pane the button went down in, wherever the pointer is.
        var captured: Int?
        switch mouse.kind {
        case .drag, .release: captured = mouseCapturePane
        case .press: mouseCapturePane = nil
        default: break
        }
        guard let pane = captured ?? rects.firstIndex(where: { $0.contains(mouse.position) }) else { return false }
        if case .press = mouse.kind { mouseCapturePane = pane }
        if case .release = mouse.kind { mouseCapturePane = nil }
        var changed = false
        if case .press = mouse.kind, focusedPane[tab] != pane {
            focusedPane[tab] = pane
            changed = true
        }
        // A click on the breadcrumb goes back to that level.
        let rect = rects[pane]
        if case .press(.left) = mouse.kind, mouse.position.y == rect.y,
           let navigating = paneInfo[tab][pane].navigating,
           host.inPane(pane: pane, { navigating.navigationDepth }) > 0 {
            let crumbs = Breadcrumb(host.inPane(pane: pane) { navigating.breadcrumbTitles })
            if let level = crumbs.level(at: mouse.position.x - rect.x - 1, width: rect.width - 2) {
                host.inPane(pane: pane) { navigating.popNavigation(toDepth: level) }
                return true
            }
            return changed
        }
        return host.inPane(pane: pane) { trees[tab][pane].handleMouse(mouse) } || changed
    }

    /// Evaluates (if what they read changed) and draws each pane of the selected tab.
    /// - Parameter hasKeyboard: whether the panes have the keyboard (no modal layer over them):
    ///   the focused pane shows its focus only then.
    func draw(on canvas: inout Canvas, in context: LayerContext, hasKeyboard: Bool) {
        let tab = host.selectedTab
        for (i, applet) in host.tabs[tab].panes.enumerated() where context.panes.indices.contains(i) {
            let tree = trees[tab][i]
            let isActive = i == focusedPane[tab] && hasKeyboard
            _ = Scope.with(paneInfo[tab][i].scope) {
                if let navigating = paneInfo[tab][i].navigating {
                    tree.renderIfNeeded(navigating.stackView, in: context.panes[i], on: &canvas, isActive: isActive)
                } else {
                    tree.renderIfNeeded(applet, in: context.panes[i], on: &canvas, isActive: isActive)
                }
            }
        }
    }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        draw(on: &canvas, in: context, hasKeyboard: true)
    }

    /// The dividers between the panes, as the `Divider` view applets use.
    func drawDividers(_ layout: PaneLayout, on canvas: inout Canvas, theme: ResolvedTheme) {
        dividerTree.theme = theme
        layout.drawDividers(with: dividerTree, on: &canvas)
    }
}
