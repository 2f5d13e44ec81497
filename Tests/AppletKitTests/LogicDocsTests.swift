import AppletTesting
import Foundation
import Testing

// The examples of Docs/Logic.md that are marked `<!-- tested in Tests/AppletKitTests/LogicDocsTests.swift -->`,
// compiled and run here. DocSnippetsTests checks that each such block of the document appears,
// line for line, in this file: change one, change the other.

// MARK: Asserting a toast

extension Application {
    var draftTitle: State<String> { state(initial: "", feature: "Drafts", id: "title") }
}

/// Saving a draft: the title goes into the store, and a toast says so.
struct SaveDraft: Request, Equatable {
    var title: String

    func apply(to store: Application) {
        store.draftTitle.value = title
        store.toast("Saved “\(title)”", style: .success)
    }
}

struct DraftLogic: EventLogic {
    enum Event: Codable, Sendable { case save(String) }

    func executable(for event: Event, in context: LogicContext) -> Executable {
        switch event {
        case .save(let title): .request(SaveDraft(title: title))
        }
    }
}

@Suite("Docs/Logic.md examples")
@MainActor
struct LogicDocsTests {
    @Test func savingShowsAToast() async {
        let test = TestLogic(DraftLogic())
        await test.send(.save("Groceries")) { state in
            state[\.draftTitle] = "Groceries"
            // In a TestLogic the store's ids count up from UUID(0): the first toast's is UUID(0).
            state[\.toasts] = [Toast("Saved “Groceries”", style: .success, id: UUID(0))]
        }
        await test.send(.save("Standup")) { state in
            state[\.draftTitle] = "Standup"
            state[\.toasts].append(Toast("Saved “Standup”", style: .success, id: UUID(1)))
        }
        test.finish()
    }

    /// What the page says happens without the assertion: the toast is a change the test did not
    /// assert, shown with its id.
    @Test func aToastLeftUnassertedFailsTheStep() async {
        let test = TestLogic(DraftLogic())
        await withKnownIssue {
            await test.send(.save("Groceries")) { $0[\.draftTitle] = "Groceries" }
        } matching: { issue in
            mentions(issue, "AppletKit.toasts changed, but the test did not assert it", "00000000-0000-0000-0000-000000000000")
        }
        test.finish()
    }

    @Test func startingWithTheScreen() async throws {
        let host = try AppletTestHost(ClockApplet(), width: 40, height: 6)
        await host.settle()                          // the task runs after the first frame
        #expect(host.contains("Started at "), "\(host.text)")
        #expect(host.application.clockStarted.value != nil)
    }
}

// MARK: Starting logic with the screen

extension Application {
    var clockStarted: State<Date?> { state(initial: nil, feature: "Clock", id: "started") }
}

struct ClockStarted: Request, Equatable {
    var date: Date
    func apply(to store: Application) { store.clockStarted.value = date }
}

struct ClockLogic: EventLogic {
    enum Event: Codable, Sendable { case start, stop }

    func executable(for event: Event, in context: LogicContext) -> Executable {
        switch event {
        case .start: .request(ClockStarted(date: context.coeffects.now()))
        case .stop: .none
        }
    }
}

struct ClockApplet: Applet {
    let id = "clock"
    let title = "Clock"
    @AppState(\.clockStarted) private var started
    @AppDependency(\.logic) private var logic

    var body: some View {
        Text(started.map { "Started at \($0)" } ?? "Starting…")
            .task {
                // After the pane's first frame: at launch for the tab that is up, else when its
                // tab is first shown. Cancelled when the pane goes (another tab, quitting).
                logic.send(.start, to: ClockLogic())
                await waitUntilCancelled()
                logic.send(.stop, to: ClockLogic())
            }
    }
}
