import AppletLogic
import AppletState
import AppletTesting
import Testing

// A small applet's logic to test with TestLogic: a counter, a note loaded through a side effect
// whose failure is a typed error, a timer that can be replaced and cancelled.

extension Application {
    var tlCount: State<Int> { state(initial: 0, feature: "TestLogicTests", id: "count") }
    var tlText: State<String> { state(initial: "", feature: "TestLogicTests", id: "text") }
    var tlLoading: State<Bool> { state(initial: false, feature: "TestLogicTests", id: "loading") }
    var tlProblem: State<String?> { state(initial: nil, feature: "TestLogicTests", id: "problem") }
    var tlSaved: StoredState<[String]> { storedState(initial: [], feature: "TestLogicTests", id: "saved") }
}

enum NoteRequest: Request, Equatable {
    case add(Int)
    case setText(String)
    case setLoading(Bool)
    case setProblem(String?)
    case save(String)
    case fail

    func apply(to store: Application) throws {
        switch self {
        case .add(let n): store.tlCount.value += n
        case .setText(let text): store.tlText.value = text
        case .setLoading(let loading): store.tlLoading.value = loading
        case .setProblem(let problem): store.tlProblem.value = problem
        case .save(let text): store.tlSaved.value.append(text)
        case .fail: throw NoteFailure()
        }
    }
}

struct NoteFailure: Error, CustomStringConvertible { var description: String { "the request failed" } }

struct ReadNote: SideEffect, Equatable {
    typealias Output = String
    typealias Failure = ReadError
    var path: String
}

struct ReadError: Error, Equatable {
    var path: String
}

struct NotesLogic: EventLogic {
    enum Event: Sendable {
        case increment
        case incrementTwice
        case load(String)
        case save
        case startTimer
        case stopTimer
        case roll
        case breakIt
    }

    func executable(for event: Event, in context: LogicContext) -> Executable {
        switch event {
        case .increment:
            return .request(NoteRequest.add(1))
        case .incrementTwice:
            return .sequence(.request(NoteRequest.add(1)), .request(NoteRequest.add(1)))
        case .load(let path):
            return .sequence(
                .request(NoteRequest.setLoading(true)),
                .effect(ReadNote(path: path), then: { .request(NoteRequest.setText($0)) },
                        onError: { (error: ReadError) in .request(NoteRequest.setProblem("cannot read \(error.path)")) }),
                .request(NoteRequest.setLoading(false))
            )
        case .save:
            return .request(NoteRequest.save(context.store.tlText.value))
        case .startTimer:
            return .effect(Sleep(.seconds(1)), id: "timer") { .send(.increment, to: self) }
        case .stopTimer:
            return .cancel("timer")
        case .roll:
            return .request(NoteRequest.add(context.coeffects.random(1...6)))
        case .breakIt:
            return .request(NoteRequest.fail)
        }
    }
}

/// Whether an issue's comments contain every one of `parts`.
func mentions(_ issue: Issue, _ parts: String...) -> Bool {
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    return parts.allSatisfy { text.contains($0) }
}

@Suite("TestLogic")
@MainActor
struct TestLogicTests {
    // MARK: A passing, exhaustive test

    @Test func anExhaustiveTestOfACounterAnEffectAndATypedErrorPasses() async {
        let test = TestLogic(NotesLogic()) { store in store.tlCount.value = 10 }

        await test.send(.increment, requests: [NoteRequest.add(1)]) { $0[\.tlCount] = 11 }
        await test.send(.incrementTwice) { $0[\.tlCount] += 2 }

        await test.send(.load("/a"), requests: [NoteRequest.setLoading(true)], effects: [ReadNote(path: "/a")]) {
            $0[\.tlLoading] = true
        }
        #expect(test.store.tlText.value == "", "the effect waits for the test")
        await test.effect(ReadNote(path: "/a"), returns: "alpha",
                          requests: [NoteRequest.setText("alpha"), NoteRequest.setLoading(false)]) { state in
            state[\.tlText] = "alpha"
            state[\.tlLoading] = false
        }

        await test.send(.load("/missing")) { $0[\.tlLoading] = true }
        await test.effect(ReadNote(path: "/missing"), fails: ReadError(path: "/missing")) { state in
            state[\.tlProblem] = "cannot read /missing"
            state[\.tlLoading] = false
        }

        await test.send(.save) { $0[\.tlSaved] = ["alpha"] }
        #expect(test.waitingEffects.isEmpty)
        test.finish()
    }

    @Test("What one test's store saved is never loaded by the next test's store")
    func eachTestStoresInAFolderOfItsOwn() async {
        let first = TestLogic(NotesLogic()) { store in store.tlText.value = "from the first test" }
        await first.send(.save) { $0[\.tlSaved] = ["from the first test"] }
        first.finish()
        first.store.flush()   // on disk now, where a store sharing the folder would load it
        let second = TestLogic(NotesLogic())
        #expect(second.store.tlSaved.value == [])
        #expect(second.store.storage.directory != first.store.storage.directory)
        second.finish()
    }

    @Test func aTimerIsDeliveredByTheTestAndItsContinuationSendsAnEvent() async {
        let test = TestLogic(NotesLogic())
        await test.send(.startTimer, effects: [Sleep(.seconds(1))])
        await test.effect(Sleep(.seconds(1)), requests: [NoteRequest.add(1)]) { $0[\.tlCount] = 1 }
        test.finish()
    }

    @Test func anEffectReplacedOrCancelledByIDNeedsNoResult() async {
        let test = TestLogic(NotesLogic())
        await test.send(.startTimer, effects: [Sleep(.seconds(1))])
        await test.send(.startTimer, effects: [Sleep(.seconds(1))])
        #expect(test.waitingEffects.count == 1, "the second timer replaced the first")
        await test.send(.stopTimer)
        #expect(test.waitingEffects.isEmpty)
        #expect(test.module.actionLog.entries.filter { $0.category == "cancelled" }.count == 2)
        test.finish()
    }

    @Test func effectsAreDeliveredInTheOrderTheTestChooses() async {
        struct Both: EventLogic {
            func executable(for event: Int, in context: LogicContext) -> Executable {
                .parallel(.effect(ReadNote(path: "/1")) { .request(NoteRequest.setText($0)) },
                          .effect(ReadNote(path: "/2")) { _ in .request(NoteRequest.add(2)) })
            }
        }
        let test = TestLogic(Both())
        await test.send(0, effects: [ReadNote(path: "/1"), ReadNote(path: "/2")])
        await test.effect(ReadNote(path: "/2"), returns: "two") { $0[\.tlCount] = 2 }
        await test.effect(ReadNote(path: "/1"), returns: "one") { $0[\.tlText] = "one" }
        test.finish()
    }

    @Test func coeffectsAreTheFixedOnesAndAnExpectedUnhandledErrorPasses() async {
        let seven = TestLogic(NotesLogic(), coeffects: .fixed(seed: 7))
        await seven.send(.roll) { [roll = Coeffects.fixed(seed: 7).random(1...6)] in $0[\.tlCount] = roll }
        await seven.send(.breakIt, requests: [NoteRequest.fail], unhandledErrors: ["the request failed"])
        seven.finish()
    }

    @Test func requestsOfObserversOnTheModuleCountAsTheSteps() async {
        let test = TestLogic(NotesLogic())
        let observer = test.module.observe({ $0.tlCount.value }) { _, new in
            new == 2 ? .request(NoteRequest.setText("two")) : .none
        }
        await test.send(.increment, requests: [NoteRequest.add(1)]) { $0[\.tlCount] = 1 }
        await test.send(.increment, requests: [NoteRequest.add(1), NoteRequest.setText("two")]) { state in
            state[\.tlCount] = 2
            state[\.tlText] = "two"
        }
        observer.cancel()
        test.finish()
    }

    @Test func skipEffectsCancelsWhatTheTestIsNotAbout() async {
        let test = TestLogic(NotesLogic())
        await test.send(.load("/a")) { $0[\.tlLoading] = true }
        test.skipEffects()
        #expect(test.waitingEffects.isEmpty)
        await test.send(.increment) { $0[\.tlCount] = 1 }
        test.finish()
    }

    // MARK: The tool failing (tests of the test tool)

    @Test func anUnassertedSideEffectFailsAtTheNextSend() async {
        let test = TestLogic(NotesLogic())
        await withKnownIssue {
            await test.send(.load("/missing")) { $0[\.tlLoading] = true }
            await test.send(.increment) { $0[\.tlCount] = 1 }
        } matching: { issue in
            mentions(issue, #"1 side effect was not asserted: ReadNote(path: "/missing")"#, "send(.increment)")
        }
        #expect(test.waitingEffects.isEmpty, "a reported effect is cancelled")
        test.finish()
    }

    @Test func anUnassertedSideEffectFailsAtFinish() async {
        let test = TestLogic(NotesLogic())
        await test.send(.load("/missing")) { $0[\.tlLoading] = true }
        withKnownIssue {
            test.finish()
        } matching: { issue in
            mentions(issue, #"1 side effect was not asserted: ReadNote(path: "/missing")"#)
        }
        #expect(test.waitingEffects.isEmpty)
    }

    @Test func anUnassertedSideEffectFailsWhenTheTestLogicGoesAwayUnfinished() async {
        await withKnownIssue {
            let test = TestLogic(NotesLogic())
            await test.send(.startTimer)
        } matching: { issue in
            mentions(issue, "1 side effect was not asserted: Sleep(")
        }
    }

    @Test func aSideEffectAssertedAsStartedMustStillEndBeforeFinish() async {
        let test = TestLogic(NotesLogic())
        await test.send(.startTimer, effects: [Sleep(.seconds(1))])
        await test.send(.increment) { $0[\.tlCount] = 1 }   // no issue: the timer was asserted
        withKnownIssue {
            test.finish()
        } matching: { issue in
            mentions(issue, "1 side effect still waits for a result: Sleep(")
        }
    }

    @Test func anUnassertedStateChangeFails() async {
        let test = TestLogic(NotesLogic())
        await withKnownIssue {
            await test.send(.load("/a"))
        } matching: { issue in
            mentions(issue, "send(.load(\"/a\"))", "TestLogicTests.loading changed, but the test did not assert it", "- false", "+ true")
        }
        await withKnownIssue {
            await test.effect(ReadNote(path: "/a"), returns: "alpha") { $0[\.tlLoading] = false }
        } matching: { issue in
            mentions(issue, "TestLogicTests.text changed, but the test did not assert it", #"+ "alpha""#)
                && !issue.comments.map(\.rawValue).joined().contains("TestLogicTests.loading")
        }
        test.finish()
    }

    @Test func aWrongExpectedStateFails() async {
        let test = TestLogic(NotesLogic())
        await withKnownIssue {
            await test.send(.increment) { $0[\.tlCount] = 2 }
        } matching: { issue in
            mentions(issue, "send(.increment): the state is not as expected", "TestLogicTests.count is not as expected", "- 2", "+ 1")
        }
        await withKnownIssue {
            await test.send(.save) { $0[\.tlSaved] = ["something"] }
        } matching: { issue in
            mentions(issue, "StoredState:TestLogicTests.saved is not as expected", #"-   [0]: "something""#, #"+   [0]: """#)
        }
        await withKnownIssue {
            await test.send(.increment) { $0[\.tlText] = "asserted, never changed"; $0[\.tlCount] = 2 }
        } matching: { issue in
            mentions(issue, "TestLogicTests.text is not as expected", #"- "asserted, never changed""#)
        }
        test.finish()
    }

    @Test func aWrongRequestFails() async {
        let test = TestLogic(NotesLogic())
        await withKnownIssue {
            await test.send(.increment, requests: [NoteRequest.add(2)]) { $0[\.tlCount] = 1 }
        } matching: { issue in
            mentions(issue, "send(.increment): the requests applied are not the ones expected", "NoteRequest.add(2)", "NoteRequest.add(1)")
        }
        await withKnownIssue {
            await test.send(.increment, requests: []) { $0[\.tlCount] = 2 }
        } matching: { issue in
            mentions(issue, "+   [0]: NoteRequest.add(1)")
        }
        test.finish()
    }

    @Test func aWrongOrMissingEffectFails() async {
        let test = TestLogic(NotesLogic())
        await withKnownIssue {
            await test.send(.load("/a"), effects: [ReadNote(path: "/b")]) { $0[\.tlLoading] = true }
        } matching: { issue in
            mentions(issue, "the side effects started are not the ones expected", #"path: "/b""#, #"path: "/a""#)
        }
        await withKnownIssue {
            await test.effect(ReadNote(path: "/b"), returns: "beta")
        } matching: { issue in
            mentions(issue, #"No waiting side effect is ReadNote(path: "/b")"#, #"- ReadNote(path: "/b")"#, #"+ ReadNote(path: "/a")"#)
        }
        await test.effect(ReadNote(path: "/a"), returns: "alpha") { $0[\.tlText] = "alpha"; $0[\.tlLoading] = false }
        await withKnownIssue {
            await test.effect(Sleep(.seconds(1)))
        } matching: { issue in
            mentions(issue, "No side effect is waiting for a result; expected Sleep(")
        }
        test.finish()
    }

    @Test func anUnexpectedUnhandledErrorFails() async {
        let test = TestLogic(NotesLogic())
        await withKnownIssue {
            await test.send(.breakIt)
        } matching: { issue in
            mentions(issue, "send(.breakIt): the unhandled errors are not the ones expected", "the request failed")
        }
        test.finish()
    }
}
