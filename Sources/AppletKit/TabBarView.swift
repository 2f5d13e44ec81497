import AppletState
import AppletUI
import Terminal

/// The host's top line: one label per tab (` 1 Notes `), the selected one in the theme's accent
/// reversed, with a divider between two tabs (none after the last: a divider there would close
/// off nothing), and, when the app syncs with a server, how that goes at the right end
/// ("synced", "connecting", "offline"). A view like any applet's, drawn in its own tree.
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
            switch sync {
            case .local: EmptyView()
            case .connecting: Text(" sync: connecting ").lineLimit(1).themed(.muted)
            case .online: Text(" sync: synced ").lineLimit(1).themed(.success)
            case .offline: Text(" sync: offline ").lineLimit(1).themed(.warning).bold()
            }
        }
        .underline()
    }
}
