import AppletState
import AppletUI
import Terminal

/// The host's top line: one label per tab (` 1 Notes `), the selected one in the theme's accent
/// reversed, with a divider between two tabs (none after the last: a divider there would close
/// off nothing), and, when the app syncs with a server, how that goes at the right end
/// (" sync: offline ", or " offline " where that does not fit beside the tabs, or nothing: the
/// tabs keep their room). A view like any applet's, drawn in its own tree.
///
/// ```swift
/// TabBarView(titles: ["Notes", "Tally"], selected: 0)   // " 1 Notes │ 2 Tally "
/// TabBarView.hitRanges(titles: ["Notes", "Tally"])      // [0..<9, 10..<19]: where a click selects
/// ```
struct TabBarView: View, Equatable {
    let titles: [String]
    let selected: Int
    /// `.local` (no server) shows nothing.
    var sync: SyncStatus = .local
    /// The line's width, which decides how much of the sync status fits.
    var width = Int.max

    /// The sync status's label that fits beside the tabs, if any.
    var syncLabel: String? {
        let word: String
        switch sync {
        case .local: return nil
        case .connecting: word = "connecting"
        case .online: word = "synced"
        case .offline: word = "offline"
        }
        let tabs = (Self.hitRanges(titles: titles).last?.upperBound ?? 0) + 1
        return [" sync: \(word) ", " \(word) "].first { tabs + $0.count <= width }
    }

    static func label(_ index: Int, _ title: String) -> String { " \(index + 1) \(title) " }

    /// The columns of each tab's label, as drawn: a click there selects the tab.
    static func hitRanges(titles: [String]) -> [Range<Int>] {
        var x = 0
        return titles.enumerated().map { index, title in
            let width = label(index, title).terminalWidth
            defer { x += width + 1 }
            return x..<(x + width)
        }
    }

    var body: some View {
        HStack {
            ForEach(Array(titles.enumerated()), id: \.offset) { index, title in
                if index > 0 { Divider() }
                if index == selected {
                    Text(Self.label(index, title)).lineLimit(1).themed(.accent).reverse().bold()
                } else {
                    Text(Self.label(index, title)).lineLimit(1)
                }
            }
            Spacer()
            if let label = syncLabel {
                switch sync {
                case .local, .connecting: Text(label).lineLimit(1).themed(.muted)
                case .online: Text(label).lineLimit(1).themed(.success)
                case .offline: Text(label).lineLimit(1).themed(.warning).bold()
                }
            }
        }
        .underline()
    }
}
