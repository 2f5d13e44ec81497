import AppletUI
import Terminal

/// The top line: the tab bar, the app's own shell view, or nothing (`AppletHost.shell`). A click
/// on a tab selects it.
@MainActor
final class ShellLayer: HostLayer {
    unowned let host: AppletHost
    /// Draws the tab bar; its views hold no state.
    private let tree = ViewTree()
    /// Draws a custom shell (its widgets keep their state).
    private let customTree = ViewTree()
    /// The tab bar as last drawn: on most frames it does not change.
    private var tabBarLine = ChromeLine<TabBarView>()

    init(host: AppletHost) { self.host = host }

    var isPresented: Bool { host.shell.height > 0 }

    func handleMouse(_ mouse: MouseEvent, in context: LayerContext) -> Bool {
        guard mouse.position.y < host.shell.height else { return false }
        switch host.shell {
        case .tabBar:
            if case .press(.left) = mouse.kind,
               let index = TabBarView.hitRanges(titles: host.tabs.map(\.title)).firstIndex(where: { $0.contains(mouse.position.x) }) {
                host.select(tab: index)
            }
            return true
        case .custom:
            _ = customTree.handleMouse(mouse)
            return true
        case .none:
            return false
        }
    }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        let top = Rect(x: 0, y: 0, width: context.size.width, height: host.shell.height)
        switch host.shell {
        case .tabBar:
            tree.theme = context.theme
            tabBarLine.draw(TabBarView(titles: host.tabs.map(\.title), selected: host.selectedTab,
                                       sync: host.application.syncStatus.value, width: top.width),
                            in: top, on: &canvas, tree: tree)
        case .custom(let makeView):
            customTree.theme = context.theme
            canvas.fill(top)
            let state = ShellState(titles: host.tabs.map(\.title), ids: host.tabs.map(\.id), selected: host.selectedTab)
            customTree.render(makeView(state), in: top, on: &canvas, isActive: false)
        case .none:
            break
        }
    }
}

/// The app's own status bar (`AppletHost.statusBar`), on the row above the footer.
@MainActor
final class StatusBarLayer: HostLayer {
    unowned let host: AppletHost
    private let tree = ViewTree()

    init(host: AppletHost) { self.host = host }

    var isPresented: Bool { host.statusBar != nil }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        guard let statusBar = host.statusBar else { return }
        let row = Rect(x: 0, y: context.footerRow - 1, width: context.size.width, height: 1)
        tree.theme = context.theme
        canvas.fill(row)
        tree.render(statusBar, in: row, on: &canvas)
    }
}

/// `--debug-keys`: how the last key was routed, on the row above the footer.
@MainActor
final class RoutingTraceLayer: HostLayer {
    unowned let host: AppletHost
    private let tree = ViewTree()

    init(host: AppletHost) { self.host = host }

    var isPresented: Bool { host.showsRoutingTrace && host.lastRoutingTrace != nil }

    func coverage(in context: LayerContext) -> [Rect] {
        [Rect(x: 0, y: context.content.maxY - 1, width: context.size.width, height: 1)]
    }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        guard let trace = host.lastRoutingTrace else { return }
        tree.theme = context.theme
        tree.render(RoutingTraceLine(summary: trace.summary, width: context.size.width),
                    in: Rect(x: 0, y: context.content.maxY - 1, width: context.size.width, height: 1), on: &canvas)
    }
}
