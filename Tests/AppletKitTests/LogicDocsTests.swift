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
}

