import AppletNavigation
import AppletUI
import Terminal

/// One key hint in the footer: `q Quit`.
struct FooterItem: Equatable {
    var key: String
    var title: String

    /// The columns it takes, with the two spaces after it.
    var width: Int { key.terminalWidth + 1 + title.terminalWidth + 2 }

    /// The hints for the keys that reach their command right now, from the registry: a sheet's
    /// (only those while one is up), the applet's and the navigation level's, then the host's
    /// (tabs, focus, help, quit). A key the focused widget would take itself is left out: a
    /// character while a text field has focus, or one the widget says it uses (`consumes`).
    static func items(registry: CommandRegistry, tabCount: Int, typing: Bool,
                      consumes: (KeyEvent) -> Bool = { _ in false }) -> [FooterItem] {
        // By index: a copy of an entry retains everything its command holds, and this runs on
        // every frame.
        let entries = registry.entries
        func reachable(_ index: Int) -> Bool {
            guard entries[index].isEnabled, let first = entries[index].keys.first else { return false }
            if entries[index].command.isPriority { return true }
            let key = first.keys[0]
            if typing, case .char = key.code, key.modifiers.isDisjoint(with: [.ctrl, .alt]) { return false }
            return !consumes(key)
        }
        var items: [FooterItem] = []
        items.reserveCapacity(16)
        // The mouse turned off (`Alt-M`): first of all, under a sheet too, since clicks do
        // nothing until it is back.
        if let mouse = registry.index(ofID: HostCommands.mouseID), entries[mouse].command.showsInFooter, reachable(mouse) {
            items.append(FooterItem(key: entries[mouse].keyLabel, title: entries[mouse].title))
        }
        var hasSheet = false
        for index in entries.indices {
            let scope = entries[index].scope
            hasSheet = hasSheet || scope == .sheet
            guard scope == .sheet || scope == .applet || scope == .navigation,
                  entries[index].command.showsInFooter, reachable(index) else { continue }
            items.append(FooterItem(key: entries[index].keyLabel, title: entries[index].title))
        }
        if hasSheet { return items }
        // Indices, not entries: an entry copied out retains everything its command holds.
        func host(_ id: String) -> Int? {
            guard let index = registry.index(ofID: id), reachable(index) else { return nil }
            return index
        }
        if tabCount > 1 {
            let count = min(9, tabCount)
            let digits = (1...count).allSatisfy { n in host(tabCommandIDs[n - 1]).map { entries[$0].keys.first == digitKeys[n - 1] } ?? false }
            if digits { items.append(FooterItem(key: tabRangeLabels[count - 1], title: "Tab")) }
            if let next = host("host.next-tab"), let previous = host("host.previous-tab") {
                items.append(FooterItem(key: entries[next].keyLabel + "/" + entries[previous].keyLabel, title: "Next/Prev"))
            }
        }
        // Copy before Focus: in a text field the last two items stay whatever the room, and
        // there `Tab Focus` and `Esc Leave field` are the ways out.
        if let copy = host(HostCommands.copyID) { items.append(FooterItem(key: entries[copy].keyLabel, title: entries[copy].title)) }
        if let focus = host("host.focus-next") { items.append(FooterItem(key: entries[focus].keyLabel, title: "Focus")) }
        if let help = host("host.help") { items.append(FooterItem(key: entries[help].keyLabel, title: "Help")) }
        if let quit = host("host.quit") { items.append(FooterItem(key: entries[quit].keyLabel, title: "Quit")) }
        // In a text field the way out is the one key worth advertising.
        if typing { items.append(FooterItem(key: "Esc", title: "Leave field")) }
        return items
    }

    /// The ids of the host's commands for tabs 1 to 9, and the digit keys they come with: made
    /// once, not on every frame (an interpolation and a key parse each).
    private static let tabCommandIDs = (1...9).map { "host.tab-\($0)" }
    private static let digitKeys = (1...9).map { KeySequence("\($0)") }
    private static let tabRangeLabels = (1...9).map { "1-\($0)" }

    /// The items that fit in `width`: the last two (help and quit) always stay, at the end; what
    /// does not fit is dropped before them (the help overlay lists it all).
    static func fitted(_ items: [FooterItem], width: Int) -> [FooterItem] {
        let kept = Array(items.suffix(2))
        var budget = width - kept.reduce(0) { $0 + $1.width } + 2
        var shown: [FooterItem] = []
        for item in items.dropLast(2) where item.width <= budget {
            shown.append(item)
            budget -= item.width
        }
        var result: [FooterItem] = []
        var x = 0
        for item in shown + kept {
            if x + item.width - 2 > width { break }
            result.append(item)
            x += item.width
        }
        return result
    }
}

/// The host's bottom line: the keys that work now (`FooterItem`), or, while a chord waits for
/// its next key, the pending prefix.
///
/// ```swift
/// FooterView(items: [FooterItem(key: "q", title: "Quit")], width: 80)   // "q Quit"
/// FooterView(pendingChord: "g", width: 80)                              // "g …  waiting for …"
/// ```
struct FooterView: View, Equatable {
    var items: [FooterItem] = []
    var pendingChord: String?
    let width: Int

    var body: some View {
        HStack {
            if let pendingChord {
                Text(pendingChord + " …").lineLimit(1).reverse().bold()
                Text("  waiting for the next key of the chord (another key cancels)").lineLimit(1)
            } else {
                HStack(spacing: 2) {
                    ForEach(Array(FooterItem.fitted(items, width: width).enumerated()), id: \.offset) { _, item in
                        HStack {
                            Text(item.key).lineLimit(1).reverse().bold()
                            Text(" " + item.title).lineLimit(1)
                        }
                    }
                }
            }
            Spacer()
        }
    }
}

/// What the host shows instead of its layout when the terminal is smaller than it needs.
struct TooSmallView: View {
    let size: Size
    let minimum: Size

    var body: some View {
        VStack(alignment: .center) {
            Spacer()
            Text("Terminal too small").lineLimit(1).bold()
            Text("\(size.width)x\(size.height), need \(minimum.width)x\(minimum.height)").lineLimit(1)
            Text("Enlarge it or press q").lineLimit(1)
            Spacer()
        }
    }
}

/// `--debug-keys`: how the last key was routed, on one dimmed reversed line.
struct RoutingTraceLine: View {
    let summary: String
    let width: Int

    var body: some View {
        let text = " keys: \(summary)"
        let shown = text.truncated(toColumns: width, ellipsis: true)
        return Text(shown + String(repeating: " ", count: max(0, width - shown.terminalWidth))).lineLimit(1).dim().reverse()
    }
}
