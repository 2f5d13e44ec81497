import AppletNavigation
import Terminal

/// The host's own commands: one list that the router, the footer, help and the palette all read,
/// so the host's keys are never listed in one place and handled in another. Each can be rebound
/// by id in `keys.toml` (`host.quit`, `host.next-tab`, ...).
@MainActor
final class HostCommands {
    unowned let host: AppletHost
    /// The lists made so far, by their arguments: they depend on nothing else, and the footer and
    /// the router ask for them on every frame and every key.
    private var made: [Int: [Command]] = [:]

    init(host: AppletHost) { self.host = host }

    /// The commands for a host with `tabCount` tabs and, on this tab, `focusStops` (whether Tab
    /// moves anywhere).
    func commands(tabCount: Int, focusStops: Bool) -> [Command] {
        let key = tabCount * 2 + (focusStops ? 1 : 0)
        if let known = made[key] { return known }
        let list = makeCommands(tabCount: tabCount, focusStops: focusStops)
        made[key] = list
        return list
    }

    private func makeCommands(tabCount: Int, focusStops: Bool) -> [Command] {
        var commands: [Command] = []
        if tabCount > 1 {
            for n in 1...min(9, tabCount) {
                commands.append(Command(id: "host.tab-\(n)", "Tab \(n)", keys: ["\(n)"], showsInFooter: false) { [host] in
                    host.select(tab: n - 1)
                })
                // Alt-N works even where a text field would take N.
                commands.append(Command(id: "host.tab-\(n)-always", "Tab \(n) (from anywhere)", keys: ["alt-\(n)"],
                                        showsInFooter: false, isPriority: true) { [host] in
                    host.select(tab: n - 1)
                })
            }
            commands.append(Command(id: "host.next-tab", "Next tab", keys: ["]"]) { [host] in host.selectNextTab(by: 1) })
            commands.append(Command(id: "host.previous-tab", "Previous tab", keys: ["["]) { [host] in host.selectNextTab(by: -1) })
            commands.append(Command(id: "host.next-tab-always", "Next tab (from anywhere)", keys: ["ctrl-pgdn"],
                                    showsInFooter: false, isPriority: true) { [host] in host.selectNextTab(by: 1) })
            commands.append(Command(id: "host.previous-tab-always", "Previous tab (from anywhere)", keys: ["ctrl-pgup"],
                                    showsInFooter: false, isPriority: true) { [host] in host.selectNextTab(by: -1) })
        }
        commands.append(Command(id: "host.focus-next", "Focus next", keys: ["tab"], isEnabled: focusStops) { [host] in
            host.moveFocus(forward: true)
        })
        commands.append(Command(id: "host.focus-previous", "Focus previous", keys: ["shift-tab"], isEnabled: focusStops,
                                showsInFooter: false) { [host] in
            host.moveFocus(forward: false)
        })
        commands.append(Command(id: "host.palette", "Commands", keys: ["ctrl-p"]) { [host] in host.openPalette() })
        commands.append(Command(id: "host.help", "Help", keys: ["?"]) { [host] in host.openHelp() })
        commands.append(Command(id: "host.action-log", "Action log (devtools)", keys: ["f12"], showsInFooter: false,
                                isPriority: true) { [host] in host.openActionLog() })
        commands.append(Command(id: "host.suspend", "Suspend (fg resumes)", keys: ["ctrl-z"], showsInFooter: false,
                                isPriority: true) { [host] in host.suspend() })
        commands.append(Command(id: "host.quit", "Quit", keys: ["q"]) { [host] in host.quit() })
        return commands
    }
}
