import AppletKit
import ListAppletInterface

/// A list of a million rows, some with wide characters; `j`/`k`, arrows, `PgUp`/`PgDn`,
/// `g`/`G` move the selection. Only the rows on screen are ever built.
public struct ListApplet: Applet {
    public let id = "list"
    public let title = "List"
    public static let rowCount = 1_000_000
    @AppState(\.listSelection) private var selection

    public init() {}

    public var body: some View {
        VStack {
            HStack {
                Text("Long list").bold()
                Spacer()
                Text("row \(selection + 1) of \(Self.rowCount)").dim()
            }
            Divider()
            List(count: Self.rowCount, selection: $selection) { row in
                Text(Self.label(for: row))
            }
        }
        .padding(.horizontal, 1)
    }

    private static let samples = ["alpha", "beta", "東京 Tokyo", "gamma 🚀", "delta", "한국어", "epsilon", "🍣 sushi", "zeta", "日本語テキスト"]

    /// The text of a row: a zero-padded number and a sample word.
    public static func label(for row: Int) -> String {
        let number = String(row + 1)
        return "#" + String(repeating: "0", count: max(0, 7 - number.count)) + number + "  " + samples[row % samples.count]
    }
}
