import AppletUI
import Terminal

/// The help overlay (`?`): every command of the registry grouped by scope (the sheet's, the
/// applet's, the tab's, the app's), each with all its keys; disabled ones dimmed. It lists
/// exactly what the registry holds, plus `fixed` rows for keys that are not commands (`Ctrl-C`).
/// A command whose keys the focused widget takes first (`widgetTakes`) is dimmed and says so.
///
/// ```swift
/// CommandHelpView(title: "Keys: Notes", registry: registry, fixed: [("Ctrl-C", "Quit, always")])
/// ```
public struct CommandHelpView: View {
    let title: String
    let registry: CommandRegistry
    let fixed: [(keys: String, title: String)]
    let widgetTakes: (KeyEvent) -> Bool

    /// The first line shown and how many rows the box has for lines (nil: all of them).
    let offset: Int
    let visibleRows: Int?

    public init(title: String, registry: CommandRegistry, fixed: [(keys: String, title: String)] = [],
                widgetTakes: @escaping (KeyEvent) -> Bool = { _ in false }, offset: Int = 0, visibleRows: Int? = nil) {
        self.title = title
        self.registry = registry
        self.fixed = fixed
        self.widgetTakes = widgetTakes
        self.offset = offset
        self.visibleRows = visibleRows
    }

    /// Which lines show in `visibleRows`, with marks for the rest.
    public var window: ScrollWindow {
        let count = lines.count
        return ScrollWindow(total: count, capacity: visibleRows ?? count, offset: offset)
    }

    struct Line: Identifiable {
        let id: String
        let keys: String
        let title: String
        let heading: Bool
        let enabled: Bool
    }

    /// The rows, headings included, in scope order.
    var lines: [Line] {
        var lines: [Line] = []
        for scope in CommandScope.allCases {
            let entries = registry.entries.filter { $0.scope == scope }
            guard !entries.isEmpty else { continue }
            lines.append(Line(id: "scope.\(scope)", keys: "", title: scope.description, heading: true, enabled: true))
            for entry in entries {
                let keys = entry.keys.isEmpty ? "—" : entry.keys.map(\.label).joined(separator: " ")
                // Every key of it goes to the focused widget first: it cannot run from here.
                let taken = !entry.command.isPriority && !entry.keys.isEmpty && entry.keys.allSatisfy { widgetTakes($0.keys[0]) }
                lines.append(Line(id: entry.id, keys: keys, title: taken ? "\(entry.title) (the focused widget takes this key)" : entry.title,
                                  heading: false, enabled: entry.isEnabled && !taken))
            }
        }
        if !fixed.isEmpty {
            lines.append(Line(id: "scope.always", keys: "", title: "Always", heading: true, enabled: true))
            for row in fixed { lines.append(Line(id: "fixed.\(row.keys)", keys: row.keys, title: row.title, heading: false, enabled: true)) }
        }
        return lines
    }

    /// Columns the key labels take.
    var keyWidth: Int { lines.filter { !$0.heading }.map(\.keys.terminalWidth).max() ?? 0 }

    /// The size the overlay wants: every line, the box and the closing hint.
    public var idealSize: Size {
        let widest = lines.map { $0.heading ? $0.title.terminalWidth : keyWidth + 2 + $0.title.terminalWidth }.max() ?? 0
        return Size(width: max(widest, title.terminalWidth + 2, 12) + 4, height: lines.count + 4)
    }

    public var body: some View {
        let keyWidth = self.keyWidth
        let lines = self.lines
        let window = ScrollWindow(total: lines.count, capacity: visibleRows ?? lines.count, offset: offset)
        return Box(title: title, style: .rounded) {
            VStack {
                if window.above > 0 { Text("↑ \(window.above) more").themed(.muted) }
                ForEach(Array(lines[window.shown]), id: \.id) { line in
                    HelpLineView(line: line, keyWidth: keyWidth)
                }
                if window.below > 0 { Text("↓ \(window.below) more").themed(.muted) }
                Spacer()
                Text(window.scrolls ? "↑↓ PgUp PgDn scroll · Esc closes" : "Esc closes").themed(.muted)
            }
            .padding(.horizontal, 1)
        }
    }
}

struct HelpLineView: View {
    let line: CommandHelpView.Line
    let keyWidth: Int

    var body: some View {
        if line.heading {
            Text(line.title).themed(.header)
        } else {
            let padded = line.keys + String(repeating: " ", count: max(0, keyWidth - line.keys.terminalWidth) + 2)
            if line.enabled {
                HStack { Text(padded).themed(.accent); Text(line.title) }
            } else {
                HStack { Text(padded); Text(line.title) }.themed(.disabled)
            }
        }
    }
}
