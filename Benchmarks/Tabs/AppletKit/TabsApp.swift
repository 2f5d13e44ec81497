// The tabs workload (see ../README.md) written against AppletKit's public API, as a user would:
// an `AppletApp` with three applets, a counter in the store shared by two of them, the framework's
// `List` for the 10,000 rows, and the status line through `AppletApp.statusBar`.
// `tabs.c` beside it is the same program in plain C on ncursesw.
import AppletKit

// MARK: The shared state

extension Application {
    /// The counter `+`/`-` change; the Mirror tab and the status line show it too. In memory (a
    /// `State`, not a `StoredState`): the C program does not save it either.
    var tabsCount: State<Int> { state(initial: 0, feature: "Tabs", id: "count") }
    /// The selected row of the list (0-based).
    var tabsRow: State<Int> { state(initial: 0, feature: "Tabs", id: "row") }
}

// MARK: The applets

/// Tab 1: `Count: N`; `+` and `-` change the counter.
struct CounterApplet: Applet {
    let id = "counter"
    let title = "Counter"
    @AppState(\.tabsCount) private var count

    var body: some View {
        VStack {
            Text("Count: \(count)")
        }
        .padding(1)
    }

    var commands: [Command] {
        let count = $count
        return [
            Command("+", "Increment") { count.wrappedValue += 1 },
            Command("-", "Decrement") { count.wrappedValue -= 1 },
        ]
    }
}

/// Tab 2: `row I of 10000` above a list of 10,000 rows; `j`/`k` move the selection (the
/// list's own keys), the list scrolls to keep it in view.
struct ListApplet: Applet {
    let id = "list"
    let title = "List"
    static let rowCount = 10_000
    static let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"]
    @AppState(\.tabsRow) private var row

    var body: some View {
        VStack {
            Text("row \(row + 1) of \(Self.rowCount)")
            List(count: Self.rowCount, selection: $row) { index in
                Text(Self.label(index))
            }
        }
    }

    /// `Row 00001 alpha`: the 1-based number, zero-padded to five digits, and a word.
    static func label(_ index: Int) -> String {
        let number = String(index + 1)
        return "Row " + String(repeating: "0", count: max(0, 5 - number.count)) + number + " " + words[index % words.count]
    }
}

/// Tab 3: the same counter, `Mirror: N (even)` or `(odd)`.
struct MirrorApplet: Applet {
    let id = "mirror"
    let title = "Mirror"
    @AppState(\.tabsCount) private var count

    var body: some View {
        VStack {
            Text("Mirror: \(count) (\(count % 2 == 0 ? "even" : "odd"))")
        }
        .padding(1)
    }
}

/// The line above the footer: `tab T · count N · row I`.
struct TabsStatusLine: View {
    @AppState(\.tabsCount) private var count
    @AppState(\.tabsRow) private var row
    @StoredState(\.tabRouter) private var router

    var body: some View {
        let tab = ["counter": 1, "list": 2, "mirror": 3][router.selectedTab ?? "counter"] ?? 1
        return Text("tab \(tab) · count \(count) · row \(row + 1)")
    }
}

// MARK: The app

@main
struct TabsApp: AppletApp {
    static let id = "tabs-appletkit"
    static let abstract = "The tabs benchmark's workload on AppletKit (see Benchmarks/Tabs/README.md)."

    var tabs: [Tab] { [Tab(CounterApplet()), Tab(ListApplet()), Tab(MirrorApplet())] }

    var statusBar: some View { TabsStatusLine() }

    /// The C program has no mouse, paste or kitty keyboard support, and this workload uses none:
    /// the same app leaves them off (with them on, AppletKit writes 80 bytes more: the modes set
    /// at start and reset at the end).
    static var terminalFeatures: TerminalFeatures { [] }
}
