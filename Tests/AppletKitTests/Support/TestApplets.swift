import AppletKit

// Applets that exist only for the framework's tests: the host is tested with these, never with the
// demo's applets, so a change to the demo cannot break (or hide a break in) the framework's tests.

struct TallyState: Codable, Equatable, Sendable {
    var count = 0
}

extension Application {
    /// Kept across restarts, shared by the Tally and Mirror applets.
    var tally: StoredState<TallyState> { storedState(initial: TallyState(), feature: "HostTests", id: "tally") }
    /// Read only by the Mirror applet.
    var mirrorTarget: State<Int> { state(initial: 20, feature: "HostTests", id: "target") }
    /// The Rows applet's selected row.
    var rowsSelection: State<Int> { state(initial: 0, feature: "HostTests", id: "rows") }
}

/// A count with three buttons and three commands.
struct TallyApplet: Applet {
    let id = "tally"
    let title = "Tally"
    @StoredState(\.tally) private var tally

    var body: some View {
        VStack(spacing: 1) {
            Text("Tally").bold()
            Text("Count: \(tally.count)")
            HStack(spacing: 2) {
                Button("Down") { tally.count -= 1 }
                Button("Up") { tally.count += 1 }
                Button("Zero") { tally.count = 0 }
            }
        }
        .padding(1)
    }

    var commands: [Command] {
        let tally = $tally
        return [
            Command("+", "Up") { tally.wrappedValue.count += 1 },
            Command("-", "Down") { tally.wrappedValue.count -= 1 },
            Command("0", "Zero") { tally.wrappedValue.count = 0 },
        ]
    }
}

/// Shows the Tally's count from another tab, and a target only it reads.
struct MirrorApplet: Applet {
    let id = "mirror"
    let title = "Mirror"
    @StoredState(\.tally) private var tally
    @AppState(\.mirrorTarget) private var target

    var body: some View {
        VStack(spacing: 1) {
            Text("Mirrored: \(tally.count) \(tally.count % 2 == 0 ? "(even)" : "(odd)")")
            Text("Target \(target)")
        }
        .padding(1)
    }

    var commands: [Command] {
        let tally = $tally
        return [Command("d", "Double") { tally.wrappedValue.count *= 2 }]
    }
}

/// A million rows, some with wide characters, and a "row N of M" header on the right.
struct RowsApplet: Applet {
    let id = "rows"
    let title = "Rows"
    static let count = 1_000_000
    @AppState(\.rowsSelection) private var selection

    var body: some View {
        VStack {
            HStack {
                Text("Rows").bold()
                Spacer()
                Text("row \(selection + 1) of \(Self.count)")
            }
            Divider()
            List(count: Self.count, selection: $selection) { row in Text(Self.label(row)) }
        }
        .padding(.horizontal, 1)
    }

    static let words = ["one", "two", "東京 wide", "four 🚀", "five"]
    static func label(_ row: Int) -> String { "r\(row + 1) \(words[row % words.count])" }
}
