import AppletLogic
import AppletUI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Terminal

/// The devtools' action log (`F12`, or "Action log" in the palette): what the logic module did,
/// newest at the bottom — events, requests, side effects with how long they took, and errors —
/// filtered as the user types. `↑`/`↓`/`PgUp`/`PgDn` scroll back, `Ctrl-U` clears the filter,
/// `Ctrl-L` clears the log, `Esc` (or `F12`) closes.
///
/// Invariants: `scroll` is how many matching entries are hidden below the view (0 follows the
/// newest); it never exceeds the number of matches.
///
/// ```swift
/// var overlay = ActionLogOverlay()
/// _ = overlay.handle(KeyEvent(.char("e")), log: logic.actionLog)   // filter "e"
/// ActionLogView(overlay: overlay, log: logic.actionLog, visibleRows: 12)
/// ```
@MainActor
public struct ActionLogOverlay {
    public enum Outcome { case stay, close }

    public private(set) var filter = ""
    public private(set) var scroll = 0

    public init() {}

    public mutating func handle(_ key: KeyEvent, log: ActionLog, page: Int = 10) -> Outcome {
        switch (key.code, key.modifiers) {
        case (.escape, _), (.function(12), _):
            return .close
        case (.up, _):
            scroll = min(scroll + 1, max(0, log.entries(matching: filter).count - 1))
        case (.down, _):
            scroll = max(0, scroll - 1)
        case (.pageUp, _):
            scroll = min(scroll + page, max(0, log.entries(matching: filter).count - 1))
        case (.pageDown, _):
            scroll = max(0, scroll - page)
        case (.end, _):
            scroll = 0
        case (.char("l"), .ctrl):
            log.clear()
            scroll = 0
        default:
            var typed = TypedQuery(filter)
            if typed.handle(key) { setFilter(typed.text) }
        }
        return .stay
    }

    /// Pasted text goes into the filter (newlines dropped).
    public mutating func paste(_ text: String) {
        var typed = TypedQuery(filter)
        typed.paste(text)
        setFilter(typed.text)
    }

    private mutating func setFilter(_ text: String) {
        filter = text
        scroll = 0
    }
}

/// How the action log looks: a titled box with the filter line, one row per entry (number, time
/// since the first entry shown, what, the value, duration) and a status line; failures in the
/// theme's error colour.
public struct ActionLogView: View {
    let overlay: ActionLogOverlay
    let entries: [ActionLog.Entry]
    let total: Int
    let visibleRows: Int

    @MainActor
    public init(overlay: ActionLogOverlay, log: ActionLog, visibleRows: Int) {
        self.overlay = overlay
        let all = log.entries
        self.total = all.count
        self.entries = log.entries(matching: overlay.filter)
        self.visibleRows = max(1, visibleRows)
    }

    struct Row: Identifiable {
        let id: Int
        let number: String
        let time: String
        let category: String
        let title: String
        let duration: String
        let error: String?
    }

    var rows: [Row] {
        let end = max(0, entries.count - overlay.scroll)
        let shown = entries[max(0, end - visibleRows)..<end]
        let origin = entries.first?.time ?? Date()
        return shown.map { entry in
            Row(id: entry.number, number: "\(entry.number)", time: "+" + Self.fixed(entry.time.timeIntervalSince(origin), places: 2) + "s",
                category: entry.category, title: entry.title, duration: entry.duration.map(Self.format) ?? "",
                error: entry.error)
        }
    }

    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
        if microseconds < 1000 { return fixed(microseconds, places: 0) + " µs" }
        if microseconds < 1_000_000 { return fixed(microseconds / 1000, places: 1) + " ms" }
        return fixed(microseconds / 1e6, places: 2) + " s"
    }

    /// `value` rounded to `places` decimals, as `%.Nf` writes it (`fixed(2.346, places: 2)` is
    /// `"2.35"`), without `String(format:)`, which would link all of Foundation.
    static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return "\(value)" }
        let units = Int(scaled)
        let whole = String(units / Int(scale))
        let sign = value < 0 && units != 0 ? "-" : ""
        guard places > 0 else { return sign + whole }
        let fraction = String(units % Int(scale))
        return sign + whole + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    public var body: some View {
        Box(title: "Action log", style: .rounded) {
            VStack {
                HStack {
                    Text("filter › ").themed(.accent)
                    Text(overlay.filter + "▏")
                }
                if entries.isEmpty {
                    Text(total == 0 ? "Nothing sent to the logic module yet" : "Nothing matches '\(overlay.filter)'").themed(.muted)
                }
                ForEach(rows, id: \.id) { row in
                    ActionLogRowView(row: row)
                }
                Spacer()
                Text("\(entries.count) of \(total)\(overlay.scroll > 0 ? " · \(overlay.scroll) newer below" : "") · type to filter · ↑↓ scroll · Ctrl-L clears · Esc closes")
                    .themed(.muted)
            }
        }
    }
}

struct ActionLogRowView: View {
    let row: ActionLogView.Row

    var body: some View {
        let line = HStack(spacing: 1) {
            Text(row.number.leftPadded(to: 5)).themed(.muted)
            Text(row.time.leftPadded(to: 8)).themed(.muted)
            Text(row.category.prefix(9).rightPadded(to: 9))
            Text(row.error.map { "\(row.title) — \($0)" } ?? row.title)
            Spacer(minLength: 1)
            Text(row.duration).themed(.muted)
        }
        if row.error != nil {
            line.themed(.error)
        } else {
            line.themed(.text)
        }
    }
}
