import AppletUI

/// The applets a pane shows inside its own view (`VStack { CounterApplet(); Divider();
/// DashboardApplet() }`), as found by the last render of the pane's tree. The host routes their
/// commands with the pane applet's (the one holding the focused widget first, then the pane's
/// own, then the rest in drawing order), and the footer, help and palette list them, so an
/// applet works the same embedded as in a pane of its own.
///
/// Invariants: a tree's list is replaced by each render of that tree (a render that is skipped
/// because nothing changed keeps it); the pane's own applet is never in its list; a tree that is
/// gone has no list.
@MainActor
enum EmbeddedApplets {
    private struct Entry {
        weak var tree: ViewTree?
        var owner: String
        var frame: ContinuousClock.Instant
        var applets: [(applet: any Applet, nodes: [Node])] = []
    }

    private static var entries: [ObjectIdentifier: Entry] = [:]

    /// The host says which applet a tree belongs to (it is not embedded in its own pane).
    static func setOwner(_ id: String, of tree: ViewTree) {
        entries[ObjectIdentifier(tree)] = Entry(tree: tree, owner: id, frame: tree.frameTime)
        entries = entries.filter { $0.value.tree != nil }
    }

    /// Called once an applet's view is resolved into `nodes`: records it when it is embedded.
    static func resolved(_ applet: any Applet, nodes: [Node], in tree: ViewTree) {
        let key = ObjectIdentifier(tree)
        guard var entry = entries[key], entry.tree === tree, entry.owner != applet.id else { return }
        if entry.frame != tree.frameTime {
            entry.frame = tree.frameTime
            entry.applets = []
        }
        entry.applets.append((applet, nodes))
        entries[key] = entry
    }

    /// The applets embedded in `tree` as of its last render, in drawing order, each with whether
    /// the tree's focused widget is one of its views.
    static func applets(in tree: ViewTree) -> [(applet: any Applet, hasFocus: Bool)] {
        guard let entry = entries[ObjectIdentifier(tree)], entry.tree === tree, entry.frame == tree.frameTime else { return [] }
        let focused = tree.focusedID
        return entry.applets.map { item in
            (item.applet, focused.map { id in item.nodes.contains { contains(id, in: $0) } } ?? false)
        }
    }

    private static func contains(_ focus: ViewID, in node: Node) -> Bool {
        if let f = node.focusable, f.focusID == focus { return true }
        return node.children.contains { contains(focus, in: $0) }
    }
}

extension Applet {
    /// An applet's nodes are its `body`'s; inside another view it also makes itself known to the
    /// host, which routes its commands (see `EmbeddedApplets`).
    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let start = nodes.count
        _makeBodyNodes(context, into: &nodes)
        EmbeddedApplets.resolved(self, nodes: Array(nodes[start...]), in: context.tree)
    }
}
