// Docs/Contributing.md, "Add a kind of key binding": a new source of commands in its scope, as the
// host's registry holds it, compiled and run here. DocSnippetsTests checks that each block marked
// `<!-- tested in Tests/AppletNavigationTests/ContributingKeyBindingTests.swift -->` appears in
// this file line for line.
import AppletNavigation
import AppletTesting
import Testing

/// What ran, in order.
@MainActor
final class RanCommands {
    var ids: [String] = []
}

// MARK: The new source in the registry

/// The registry as `AppletHost.activeRegistry()` makes it, with a tab's commands in the `.tab`
/// scope: after the focused applet's and its navigation level's, before the host's.
func activeRegistry(applet: [Command], tab: [Command], host: [Command], keymap: Keymap) -> CommandRegistry {
    var registry = CommandRegistry()
    registry.register(applet, scope: .applet, owner: "notes")
    registry.register(tab, scope: .tab, owner: "dashboard")
    registry.register(host, scope: .host, owner: "host")
    registry.apply(keymap)
    return registry
}

@Suite("Docs/Contributing.md: a kind of key binding")
@MainActor
struct ContributingKeyBindingTests {
    @Test func aTabsCommandIsRoutedInItsPlaceRebindableAndListed() throws {
        let ran = RanCommands()
        let applet = [Command(id: "notes.delete", "Delete", keys: ["d"]) { ran.ids.append("notes.delete") }]
        let tab = [Command("ctrl-w", "Swap panes") { ran.ids.append("dashboard.swap-panes") },
                   Command("d", "Drop pane") { ran.ids.append("dashboard.drop-pane") }]
        let host = [Command(id: "host.quit", "Quit", keys: ["q"]) { ran.ids.append("host.quit") }]
        var router = KeyRouter()

        // Routed in its place: the applet and navigation levels pass, the tab takes it.
        var registry = activeRegistry(applet: applet, tab: tab, host: host, keymap: Keymap())
        var trace = router.route(KeySpec.parse("ctrl-w")!, registry: registry, sheet: nil) { _ in nil }
        #expect(trace.handler == .tab && trace.commandID == "dashboard.swap-panes", "\(trace)")
        // A key bound in two scopes goes to the inner one, and is no clash.
        trace = router.route(KeySpec.parse("d")!, registry: registry, sheet: nil) { _ in nil }
        #expect(trace.handler == .applet, "\(trace)")
        #expect(ran.ids == ["dashboard.swap-panes", "notes.delete"])
        #expect(registry.conflicts().isEmpty)

        // keys.toml rebinds it by its id, and knows that id.
        let (keymap, issues) = Keymap.parse("""
            [keys]
            "dashboard.swap-panes" = "ctrl-x o"
            """)
        #expect(issues.isEmpty)
        registry = activeRegistry(applet: applet, tab: tab, host: host, keymap: keymap)
        #expect(registry.entry(id: "dashboard.swap-panes")?.keyLabel == "Ctrl-X o")
        #expect(keymap.unknownIDs(known: registry.ids).isEmpty)

        // Help lists it under its scope's heading.
        let help = renderView(CommandHelpView(title: "Keys", registry: registry), width: 40, height: 12)
        #expect(help.lines.contains { $0.contains("Tab") }, "\(help.lines.joined(separator: "\n"))")
        #expect(help.lines.contains { $0.contains("Ctrl-X o") && $0.contains("Swap panes") }, "\(help.lines.joined(separator: "\n"))")
    }

    @Test func whileASheetIsUpOnlyItsCommandsAndPriorityOnesRun() {
        let ran = RanCommands()
        var registry = CommandRegistry()
        registry.register([Command(id: "sheet.close", "Close", keys: ["esc"]) { ran.ids.append("sheet.close") }], scope: .sheet, owner: "sheet")
        registry.register([Command(id: "dashboard.swap-panes", "Swap panes", keys: ["ctrl-w"]) { ran.ids.append("dashboard.swap-panes") }],
                          scope: .tab, owner: "dashboard")
        var router = KeyRouter()
        let trace = router.route(KeySpec.parse("ctrl-w")!, registry: registry, sheet: { _ in nil }, widget: { _ in nil })
        #expect(trace.handler == .sheet, "kept by the modal layer: \(trace)")
        #expect(ran.ids.isEmpty)
    }
}
