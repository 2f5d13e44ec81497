import AppletNavigation
import AppletUI
import Terminal

/// The bottom line: the keys that work now, from the same registry the router uses (while a modal
/// layer is up, its keys only), or the pending chord.
@MainActor
final class FooterLayer: HostLayer {
    unowned let host: AppletHost
    private let tree = ViewTree()
    /// The footer as last drawn: on most frames it does not change.
    private var line = ChromeLine<FooterView>()

    init(host: AppletHost) { self.host = host }

    var isPresented: Bool { true }

    /// What the footer shows now.
    func view(width: Int) -> FooterView {
        if let pending = host.pendingChord { return FooterView(pendingChord: pending, width: width) }
        let typing = host.topModal == nil && host.panes.activeTree.focusedWidgetTakesText
        let consumes = host.topModal == nil ? host.panes.activeTree.focusedWidgetKeyFilter() : { _ in false }
        let items = FooterItem.items(registry: host.activeRegistry(), tabCount: host.tabs.count, typing: typing, consumes: consumes)
        return FooterView(items: items, width: width)
    }

    func draw(on canvas: inout Canvas, in context: LayerContext) {
        tree.theme = context.theme
        line.draw(view(width: context.size.width), in: Rect(x: 0, y: context.footerRow, width: context.size.width, height: 1),
                  on: &canvas, tree: tree)
    }
}
