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
    /// moves anywhere), `canCopy` (whether the focused widget has something to copy) and the
    /// terminal's `mouse` reporting.
    func commands(tabCount: Int, focusStops: Bool, canCopy: Bool = true, mouse: MouseReporting = .on) -> [Command] {
        let mouseKey = switch mouse { case .unavailable: 0; case .on: 1; case .off: 2 }
        let key = ((tabCount * 2 + (focusStops ? 1 : 0)) * 2 + (canCopy ? 1 : 0)) * 3 + mouseKey
        if let known = made[key] { return known }
        let list = makeCommands(tabCount: tabCount, focusStops: focusStops, canCopy: canCopy, mouse: mouse)
        made[key] = list
        return list
    }

    /// The ids of the commands the footer shows among the host's own.
    nonisolated static let copyID = "host.copy"
    nonisolated static let mouseID = "host.mouse"

    private func makeCommands(tabCount: Int, focusStops: Bool, canCopy: Bool, mouse: MouseReporting) -> [Command] {
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
        // Enabled only while the focused widget has something to copy, so the footer shows it
        // exactly when it works.
        commands.append(Command(id: Self.copyID, "Copy", keys: ["alt-c"], isEnabled: canCopy) { [host] in host.copySelection() })
        // From anywhere (a dialog too), so the mouse can always be had back. Kept out of the
        // footer while the mouse works; while it is off, the footer says so first of all.
        if mouse != .unavailable {
            commands.append(Command(id: Self.mouseID, mouse == .off ? "Mouse back on" : "Select text (mouse off)", keys: ["alt-m"],
                                    showsInFooter: mouse == .off, isPriority: true) { [host] in host.toggleMouseReporting() })
        }
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
