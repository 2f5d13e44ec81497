import AppletKit

// A small app for the reliability suite (Demo/Tests/EndToEndTests): things the demo should not
// offer a user, such as a key that crashes, next to a counter kept across restarts.

struct FixtureState: Codable, Equatable, Sendable {
    var count = 0
    /// Filled by `b`: a burst of saves, for the kill -9 check.
    var burst: [Int] = []
}

extension Application {
    var fixture: StoredState<FixtureState> { storedState(initial: FixtureState(), feature: "Fixture", id: "state") }
    var fixtureEscapes: State<Int> { state(initial: 0, feature: "Fixture", id: "escapes") }
}

struct FixtureApplet: Applet {
    let id = "fixture"
    let title = "Fixture"
    @StoredState(\.fixture) private var state
    @AppState(\.fixtureEscapes) private var escapes

    var body: some View {
        VStack(spacing: 1) {
            Text("Count: \(state.count)")
            Text("Escapes: \(escapes)")
            Text("Burst: \(state.burst.count)")
            Text("+ counts, Esc counts escapes, b saves a burst, ! crashes").dim()
        }
        .padding(1)
        .onKeyPress("esc") { escapes += 1; return .handled }
    }

    var commands: [Command] {
        let state = $state
        return [
            Command("+", "Count") { state.wrappedValue.count += 1 },
            Command("b", "Burst") {
                // 2,000 saves in a row, each written to disk at once (not coalesced), so that a
                // kill -9 lands in the middle of writing.
                for i in 0..<2_000 {
                    state.wrappedValue.burst.append(i)
                    Application.current.flush()
                }
            },
            Command("!", "Crash") {
                let empty: [Int] = []
                _ = empty[empty.count + 1]   // a Swift runtime trap: index out of range
            },
        ]
    }
}

@main
struct ReliabilityFixture: AppletApp {
    static let id = "appletkit-fixture"
    static let version = AppletKitVersion.current
    static let abstract = "A test fixture for AppletKit's reliability suite (a counter, and a key that crashes)."
    var tabs: [Tab] { [Tab(FixtureApplet())] }
}
