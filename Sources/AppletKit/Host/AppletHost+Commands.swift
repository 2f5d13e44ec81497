import AppletNavigation
import AppletState
import AppletUI
import Terminal

/// Commands: what the keys can reach now, as one registry that the router runs and the footer,
/// help and palette list. While a modal layer is up it holds that layer's commands and the host's
/// keys that work from anywhere; otherwise the focused applet's commands (and those of applets
/// embedded in its view), its navigation stack's and the host's.
extension AppletHost {
    /// Every command the keys can reach now, in routing order, with the keymap applied. Made
    /// once per turn at most: the registry of the panes is kept until what it read changes
    /// (`RegistryCache`), a modal layer's until the next event or frame.
    public func activeRegistry() -> CommandRegistry {
        if let modal = topModal {
            return modalRegistries.registry(for: ObjectIdentifier(modal), turn: turn) {
                var registry = CommandRegistry()
                registry.register(modal.commands(), scope: .sheet, owner: "sheet")
                let priority = hostCommands.commands(tabCount: tabs.count, focusStops: true, canCopy: false,
                                                     mouse: terminal.mouseReporting).filter(\.isPriority)
                registry.register(priority, scope: .host, owner: "host")
                registry.apply(keymap)
                return registry
            }
        }
        let tab = selectedTab, pane = panes.focused, tree = panes.activeTree
        let applet = activeApplet
        let focusStops = tree.hasFocusableWidgets || tabs[tab].panes.count > 1
        let embedded = tree.hasRendered ? EmbeddedApplets.applets(in: tree) : nil
        let canCopy = tree.focusedWidgetHasCopyableText, mouse = terminal.mouseReporting
        let key = RegistryCache.Key(
            tab: tab, pane: pane, focusStops: focusStops,
            embedded: embedded?.map { $0.applet.id + ($0.hasFocus ? "*" : "") } ?? ["(not drawn yet)"],
            embeddingRender: embedded?.isEmpty == false ? tree.frameTime : nil, canCopy: canCopy, mouse: mouse)
        return registryCache.registry(for: key) {
            var registry = CommandRegistry()
            registerAppletCommands(tab: tab, pane: pane, in: &registry)
            registry.register(navigationCommands(tab: tab, pane: pane), scope: .navigation, owner: applet.id)
            registry.register(hostCommands.commands(tabCount: tabs.count, focusStops: focusStops, canCopy: canCopy, mouse: mouse),
                              scope: .host, owner: "host")
            registry.apply(keymap)
            return registry
        }
    }

    /// The commands of the pane's applet and of the applets shown inside its view, so an applet
    /// embedded in another works as it does in a pane of its own: the embedded applet holding the
    /// focused widget first, then the pane's applet, then the other embedded ones in drawing order.
    func registerAppletCommands(tab: Int, pane: Int, in registry: inout CommandRegistry) {
        let applet = tabs[tab].panes[pane]
        let embedded = embeddedApplets(tab: tab, pane: pane)
        let order = embedded.filter(\.hasFocus).map(\.applet) + [applet] + embedded.filter { !$0.hasFocus }.map(\.applet)
        for item in order {
            registry.register(inPane(tab: tab, pane: pane) { item.commands }, scope: .applet, owner: item.id)
        }
    }

    /// The applets inside a pane's view. A pane not drawn yet (another tab, or before the first
    /// frame, when the keymap is checked) is evaluated once in a tree of its own that starts no
    /// tasks and is thrown away, so its embedded commands are known and can be rebound.
    private func embeddedApplets(tab: Int, pane: Int) -> [(applet: any Applet, hasFocus: Bool)] {
        let tree = panes.trees[tab][pane]
        if tree.hasRendered { return EmbeddedApplets.applets(in: tree) }
        let applet = tabs[tab].panes[pane]
        let probe = ViewTree()
        probe.startsTasks = false
        EmbeddedApplets.setOwner(applet.id, of: probe)
        var canvas = Canvas(size: terminal.size)
        let rect = Rect(origin: .zero, size: terminal.size)
        inPane(tab: tab, pane: pane) {
            if let navigating = applet as? any NavigationApplet {
                probe.render(navigating.stackView, in: rect, on: &canvas, isActive: false)
            } else {
                probe.render(applet, in: rect, on: &canvas, isActive: false)
            }
        }
        return EmbeddedApplets.applets(in: probe).map { ($0.applet, false) }
    }

    /// `Esc` (and `Backspace`, which a focused text widget takes first) goes back one screen.
    private func navigationCommands(tab: Int, pane: Int) -> [Command] {
        guard let navigating = panes.info(tab, pane).navigating else { return [] }
        let depth = inPane(tab: tab, pane: pane) { navigating.navigationDepth }
        let scope = paneScope(tab: tab, pane: pane)
        return [Command(id: "navigation.back", "Back", keys: ["esc", "backspace"], isEnabled: depth > 0) { [application] in
            Application.withCurrent(application) { Scope.with(scope) { navigating.popNavigation(toDepth: depth - 1) } }
        }]
    }

    /// Every command of every tab and pane as the registry sees it there (for `keys --check` and
    /// conflict tests): one registry per pane.
    public func allRegistries() -> [(tab: Int, pane: Int, registry: CommandRegistry)] {
        var result: [(Int, Int, CommandRegistry)] = []
        for (t, tab) in tabs.enumerated() {
            for (p, applet) in tab.panes.enumerated() {
                var registry = CommandRegistry()
                registerAppletCommands(tab: t, pane: p, in: &registry)
                registry.register(navigationCommands(tab: t, pane: p), scope: .navigation, owner: applet.id)
                registry.register(hostCommands.commands(tabCount: tabs.count, focusStops: true), scope: .host, owner: "host")
                registry.apply(keymap)
                result.append((t, p, registry))
            }
        }
        return result
    }

    /// What is wrong with the keys: commands of the keymap that do not exist, keys bound twice in
    /// one scope, keys that start a chord and so never run alone. Empty when all is well.
    public func keyProblems() -> [String] {
        let registries = allRegistries()
        var known = Set<String>()
        for (_, _, registry) in registries { known.formUnion(registry.ids) }
        var problems = keymap.unknownIDs(known: known).map(\.description)
        var seen = Set<String>()
        for (tab, _, registry) in registries {
            for conflict in registry.conflicts() where seen.insert(conflict.description).inserted {
                problems.append("tab \(tab + 1): \(conflict)")
            }
            for (id, titles) in registry.duplicateIDs() where seen.insert(id).inserted {
                problems.append("tab \(tab + 1): \(titles.count) commands have the id \(id) (\(titles.joined(separator: ", "))); give them ids of their own")
            }
        }
        return problems
    }

    /// Keys that are not commands, listed in help under "Always".
    static let fixedHelpRows: [(keys: String, title: String)] = [
        ("Ctrl-C", "Quit, always"), ("Enter Space", "Press the focused button"), ("↑↓ j k", "Move in lists"),
        ("Esc", "Leave a text field; close a sheet or an overlay"),
    ]
}

/// A modal layer's registry, kept for the rest of a turn: the router, the footer and help ask
/// for it in one turn, and its commands capture the layer's state as it is then.
@MainActor
final class ModalRegistries {
    private var kept: (layer: ObjectIdentifier, turn: Int, registry: CommandRegistry)?

    func registry(for layer: ObjectIdentifier, turn: Int, make: () -> CommandRegistry) -> CommandRegistry {
        if let kept, kept.layer == layer, kept.turn == turn { return kept.registry }
        let registry = make()
        kept = (layer, turn, registry)
        return registry
    }
}
