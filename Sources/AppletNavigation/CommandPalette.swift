import AppletUI
import Terminal

/// The command palette (`Ctrl-P`): every command active when it opened, filtered by a fuzzy
/// search as the user types; `Enter` runs the selected one, `Esc` closes.
///
/// Invariants: `results` is `entries` ranked for `query` (all of them, in registry order, for an
/// empty query); `selection` is always a valid index of `results`, or 0 when there are none.
///
/// ```swift
/// var palette = CommandPalette(entries: registry.entries)
/// _ = palette.handle(KeyEvent(.char("q")))        // query "q"
/// if case .run(let entry) = palette.handle(KeyEvent(.enter)) { entry.command.action() }
/// ```
public struct CommandPalette: Sendable {
    /// What a key did to the palette.
    public enum Outcome: Sendable {
        /// The palette changed (or ignored the key); it stays open.
        case stay
        /// Closed without running anything.
        case close
        /// Closed to run this entry (an enabled one).
        case run(CommandRegistry.Entry)
    }

    public struct Result: Sendable {
        public let entry: CommandRegistry.Entry
        public let match: FuzzyMatch
    }

    /// What it searches: the commands active when it opened.
    public let entries: [CommandRegistry.Entry]
    public private(set) var query = ""
    public private(set) var results: [Result]
    public private(set) var selection = 0

    /// The entries with their search text prepared once, so a keystroke only matches.
    private let prepared: [(item: CommandRegistry.Entry, text: FuzzyText)]

    public init(entries: [CommandRegistry.Entry]) {
        self.entries = entries
        prepared = entries.map { (item: $0, text: FuzzyText(Self.searchText($0))) }
        results = []
        rank()
    }

    /// The text searched for an entry: its title, then its id.
    static func searchText(_ entry: CommandRegistry.Entry) -> String { "\(entry.title)  \(entry.id)" }

    /// Sets the query (as if typed) and ranks again.
    public mutating func setQuery(_ text: String) {
        query = text
        rank()
    }

    private mutating func rank() {
        results = FuzzyMatcher.rank(prepared, query: query).map { Result(entry: $0.item, match: $0.match) }
        selection = 0
    }

    /// Handles a key: typing edits the query, `↑`/`↓` (`Ctrl-K`/`Ctrl-J`) move, `Enter` runs,
    /// `Esc` closes.
    public mutating func handle(_ key: KeyEvent) -> Outcome {
        switch (key.code, key.modifiers) {
        case (.escape, _):
            return .close
        case (.enter, _):
            guard results.indices.contains(selection) else { return .stay }
            let entry = results[selection].entry
            return entry.isEnabled ? .run(entry) : .stay
        case (.up, _), (.char("k"), .ctrl):
            if !results.isEmpty { selection = (selection - 1 + results.count) % results.count }
        case (.down, _), (.char("j"), .ctrl), (.tab, []):
            if !results.isEmpty { selection = (selection + 1) % results.count }
        default:
            var typed = TypedQuery(query)
            if typed.handle(key) { setQuery(typed.text) }
        }
        return .stay
    }

    /// Pasted text goes into the query (newlines dropped).
    public mutating func paste(_ text: String) {
        var typed = TypedQuery(query)
        typed.paste(text)
        setQuery(typed.text)
    }
}

/// How the palette looks: a titled box with the query line and the ranked commands, each with
/// its key; the selected row highlighted, disabled ones dimmed.
///
/// ```swift
/// CommandPaletteView(palette: palette, visibleRows: 10)
/// ```
public struct CommandPaletteView: View {
    let palette: CommandPalette
    let visibleRows: Int

    public init(palette: CommandPalette, visibleRows: Int) {
        self.palette = palette
        self.visibleRows = max(1, visibleRows)
    }

    struct Row: Identifiable {
        let id: String
        let title: String
        let keys: String
        let selected: Bool
        let enabled: Bool
    }

    var rows: [Row] {
        let first = max(0, min(palette.selection - visibleRows + 1, palette.results.count - visibleRows))
        return palette.results.indices.dropFirst(first).prefix(visibleRows).map { index in
            let entry = palette.results[index].entry
            return Row(id: entry.id, title: entry.title, keys: entry.keys.map(\.label).joined(separator: " "),
                       selected: index == palette.selection, enabled: entry.isEnabled)
        }
    }

    public var body: some View {
        Box(title: "Commands", style: .rounded) {
            VStack {
                HStack {
                    Text("› ").themed(.accent)
                    Text(palette.query + "▏")
                }
                if palette.results.isEmpty {
                    Text("No command matches '\(palette.query)'").themed(.muted)
                }
                ForEach(rows, id: \.id) { row in
                    PaletteRowView(row: row)
                }
                Spacer()
                Text("\(palette.results.count) of \(palette.entries.count) · Enter runs · Esc closes").themed(.muted)
            }
        }
    }
}

struct PaletteRowView: View {
    let row: CommandPaletteView.Row

    var body: some View {
        let line = HStack {
            Text(row.title)
            Spacer(minLength: 2)
            Text(row.keys).themed(.muted)
        }
        if row.selected {
            line.themed(.selection)
        } else if !row.enabled {
            line.themed(.disabled)
        } else {
            line.themed(.text)
        }
    }
}
