import AppletLogic
import AppletState
import Foundation
import CustomDump
import Synchronization
import Testing

/// Tests an applet's `EventLogic` exhaustively, in the spirit of TCA's `TestStore`: send an
/// event, then say exactly how the state changed, which requests were applied and which side
/// effects started; hand each side effect the result it should have, and say what its
/// continuation did. Anything the test does not account for fails it.
///
/// ```swift
/// @MainActor @Test func loadingANote() async {
///     let test = TestLogic(NotesLogic()) { store in store.notesCount.value = 1 }   // initial state
///     await test.send(.load("/a"), requests: [NotesRequest.setLoading(true)]) { state in
///         state[\.notesLoading] = true
///     }
///     await test.effect(ReadNote(path: "/a"), returns: "alpha") { state in
///         state[\.notesText] = "alpha"
///         state[\.notesLoading] = false
///     }
///     await test.send(.load("/missing")) { $0[\.notesLoading] = true }
///     await test.effect(ReadNote(path: "/missing"), fails: ReadError(path: "/missing")) { state in
///         state[\.notesProblem] = "cannot read /missing"
///         state[\.notesLoading] = false
///     }
///     test.finish()
/// }
/// ```
///
/// How it works and what it checks:
/// - Requests are applied to the store for real (a fresh `Application` unless one is given), by a
///   `LogicModule` of the test's own (`module`) reading the given coeffects (`Coeffects.fixed()`
///   by default).
/// - Side effects are not performed: no performer, no clock, no replay. A started effect waits
///   until the test delivers its result with `effect(_:returns:)` or `effect(_:fails:)`, which
///   also runs its continuation before returning. The test picks the order effects finish in.
/// - Each step (`send`, `effect`) compares every state in the store afterwards with the
///   `ExpectedState` its closure describes: a change the closure does not set, or a value other
///   than the one it sets, records an issue with a diff (`-` expected, `+` actual).
/// - `requests:` (when given) must be exactly the requests the step applied, in order;
///   `effects:` (when given) exactly the side effects it started. Both compare by their custom
///   dump, so neither needs to be `Equatable`.
/// - An unhandled error (one no `onError` caught) records an issue unless the step lists its
///   description in `unhandledErrors:`.
/// - A side effect that is still waiting when the next `send` comes, or at `finish()`, records
///   "1 side effect was not asserted: LoadFile(path: "/missing")", unless the step that started
///   it listed it in `effects:` (asserted as started; it may then go on waiting across sends, as
///   a debounce's timer does, but it must still be delivered or skipped before `finish()`).
///   A reported effect is cancelled, so the test goes on from a known state.
/// - An effect cancelled before the test delivers its result (an effect started with the same
///   id, `.cancel(id)`) is gone: nothing can be delivered to it, and nothing need be.
/// - `finish()` (and, if the test never called it, the end of the `TestLogic`'s life) records an
///   issue for every side effect still waiting.
///
/// A test that is not interested in some effects calls `skipEffects()` (they are cancelled).
/// Issues go to Swift Testing (`Issue.record`), at the line of the step that found them.
@MainActor
public final class TestLogic<L: EventLogic> {
    /// The logic under test.
    public let logic: L
    /// The store the requests change. Set state here between steps to arrange a situation; a
    /// step compares the store with how it was when the step began.
    public let store: Application
    /// The module that runs the logic's executables (its `actionLog`, `observe`, `setCoeffects`).
    public let module: LogicModule

    private let recording = StepRecording()
    private var finished = false
    private let createdAt: SourceLocation
    /// Keeps `uuid` installed as the store's id generator for the test's life.
    private let uuidOverride: OverrideToken

    /// A test of `logic` on `store` (by default a fresh one that keeps stored state in a folder of
    /// its own, so what another test saved is never read back here), reading `coeffects`;
    /// `initialState` arranges the store before the first step.
    ///
    /// The store's new ids come from `uuid` (its `uuid` dependency), by default
    /// `UUIDGenerator.incrementing()`: the first toast a step shows has the id `UUID(0)`, the next
    /// `UUID(1)`, so a step can assert it whole:
    /// `$0[\.toasts] = [Toast("Saved", style: .success, id: UUID(0))]`.
    ///
    /// ```swift
    /// let test = TestLogic(CounterLogic(), coeffects: .fixed(seed: 7)) { store in
    ///     store.count.value = 10
    /// }
    /// ```
    public init(_ logic: L, store: Application = TestLogicStore.isolated(), coeffects: Coeffects = .fixed(),
                uuid: UUIDGenerator = .incrementing(),
                sourceLocation: SourceLocation = #_sourceLocation,
                initialState: (Application) -> Void = { _ in }) {
        self.logic = logic
        self.store = store
        self.createdAt = sourceLocation
        uuidOverride = Application.withCurrent(store) { Application.override(\.uuid, with: uuid) }
        module = LogicModule(store: store, coeffects: coeffects)
        module.interceptor = recording
        initialState(store)
    }

    // Not an `isolated deinit`: that one runs without the test's task-local values, so Swift
    // Testing would not know which test the issue belongs to. It reads the waiting effects from
    // the recording's lock-protected copy instead of its main-actor state.
    deinit {
        guard !finished, let message = Self.waitingMessage(recording.leftOver.withLock { $0 }) else { return }
        Issue.record(Comment(rawValue: message), sourceLocation: createdAt)
    }

    // MARK: Steps

    /// Sends `event` to the logic and checks what its synchronous part did: the state change the
    /// closure describes (none when there is no closure), the `requests` applied and the
    /// `effects` started (each when given), and no unhandled error beyond `unhandledErrors`.
    /// Side effects still waiting from earlier steps that no step asserted record an issue first.
    ///
    /// ```swift
    /// await test.send(.increment) { $0[\.count] = 1 }
    /// await test.send(.increment, requests: [CounterRequest.add(1)]) { $0[\.count] = 2 }
    /// await test.send(.startTimer, effects: [Sleep(.seconds(1))])       // no state change
    /// ```
    public func send(_ event: L.Event, requests: [any Request]? = nil, effects: [any SideEffect]? = nil,
                     unhandledErrors: [String] = [], sourceLocation: SourceLocation = #_sourceLocation,
                     assert expect: ((inout ExpectedState) throws -> Void)? = nil) async {
        reportUnasserted(before: event, at: sourceLocation)
        step("send(\(Self.short(event)))", requests: requests, effects: effects, unhandledErrors: unhandledErrors,
             sourceLocation: sourceLocation, expect: expect) {
            module.send(event, to: logic)
        }
    }

    /// Finds the waiting side effect equal to `expected` (by custom dump), hands it `output`, runs
    /// its continuation and checks what that did, as `send` does. Records an issue (and delivers
    /// nothing) when no waiting effect is equal.
    ///
    /// ```swift
    /// await test.effect(ReadNote(path: "/a"), returns: "alpha") { $0[\.text] = "alpha" }
    /// ```
    public func effect<E: SideEffect>(_ expected: E, returns output: E.Output, requests: [any Request]? = nil,
                                      effects: [any SideEffect]? = nil, unhandledErrors: [String] = [],
                                      sourceLocation: SourceLocation = #_sourceLocation,
                                      assert expect: ((inout ExpectedState) throws -> Void)? = nil) async {
        deliver(.output(output), to: expected, requests: requests, effects: effects, unhandledErrors: unhandledErrors,
                sourceLocation: sourceLocation, expect: expect)
    }

    /// The same for an effect with no output (`Sleep`, a signal sent).
    ///
    /// ```swift
    /// await test.effect(Sleep(.seconds(1))) { $0[\.ticks] = 1 }
    /// ```
    public func effect<E: SideEffect>(_ expected: E, requests: [any Request]? = nil, effects: [any SideEffect]? = nil,
                                      unhandledErrors: [String] = [], sourceLocation: SourceLocation = #_sourceLocation,
                                      assert expect: ((inout ExpectedState) throws -> Void)? = nil) async where E.Output == Void {
        deliver(.output(()), to: expected, requests: requests, effects: effects, unhandledErrors: unhandledErrors,
                sourceLocation: sourceLocation, expect: expect)
    }

    /// Finds the waiting side effect equal to `expected`, makes it fail with `error` (its
    /// `onError` runs, or the error goes further out) and checks what that did, as `send` does.
    ///
    /// ```swift
    /// await test.effect(ReadNote(path: "/x"), fails: ReadError(path: "/x")) { $0[\.problem] = "cannot read /x" }
    /// ```
    public func effect<E: SideEffect>(_ expected: E, fails error: E.Failure, requests: [any Request]? = nil,
                                      effects: [any SideEffect]? = nil, unhandledErrors: [String] = [],
                                      sourceLocation: SourceLocation = #_sourceLocation,
                                      assert expect: ((inout ExpectedState) throws -> Void)? = nil) async {
        deliver(.failure(error), to: expected, requests: requests, effects: effects, unhandledErrors: unhandledErrors,
                sourceLocation: sourceLocation, expect: expect)
    }

    /// The side effects waiting for a result, oldest first.
    ///
    /// ```swift
    /// #expect(test.waitingEffects.count == 1)
    /// ```
    public var waitingEffects: [any SideEffect] { recording.waiting.map(\.effect.effect) }

    /// Cancels every waiting side effect without asserting it: their continuations never run.
    ///
    /// ```swift
    /// await test.send(.startPolling) { $0[\.isPolling] = true }
    /// test.skipEffects()                      // the poll's timer is not what this test is about
    /// test.finish()
    /// ```
    public func skipEffects() {
        cancel(recording.waiting)
    }

    /// Ends the test: records an issue for every side effect still waiting (and cancels it).
    /// Without it, the same check runs when the `TestLogic` goes away.
    ///
    /// ```swift
    /// await test.send(.increment) { $0[\.count] = 1 }
    /// test.finish()
    /// ```
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        finished = true
        reportWaiting(at: sourceLocation)
    }

    // MARK: Checking

    private func deliver<E: SideEffect>(_ result: InterceptedResult, to expected: E, requests: [any Request]?,
                                        effects: [any SideEffect]?, unhandledErrors: [String], sourceLocation: SourceLocation,
                                        expect: ((inout ExpectedState) throws -> Void)?) {
        let wanted = String(customDumping: expected)
        let verb = if case .failure = result { "fails" } else { "returns" }
        guard let index = recording.waiting.firstIndex(where: { $0.effect.effect is E && String(customDumping: $0.effect.effect) == wanted }) else {
            Issue.record(Comment(rawValue: noMatch(for: expected)), sourceLocation: sourceLocation)
            return
        }
        let target = recording.waiting.remove(at: index).effect
        step("effect(\(wanted)) \(verb)", requests: requests, effects: effects, unhandledErrors: unhandledErrors,
             sourceLocation: sourceLocation, expect: expect) {
            if !target.deliver(result) {
                Issue.record("\(wanted) was no longer running: its result went nowhere", sourceLocation: sourceLocation)
            }
        }
    }

    /// What to say when no waiting effect equals `expected`: the closest one's diff, or the list.
    private func noMatch<E: SideEffect>(for expected: E) -> String {
        let wanted = String(customDumping: expected)
        let waiting = recording.waiting.map(\.effect.effect)
        guard !waiting.isEmpty else {
            return "No side effect is waiting for a result; expected \(wanted)."
        }
        if let sameType = waiting.first(where: { $0 is E }), let difference = diff(expected, sameType as! E) {
            return "No waiting side effect is \(wanted). The waiting \(E.self) differs (- expected, + actual):\n\n\(difference)"
        }
        return "No waiting side effect is \(wanted). Waiting: \(waiting.map { String(customDumping: $0) }.joined(separator: ", "))."
    }

    /// Runs `body` (the step's synchronous part) and checks what it did.
    private func step(_ name: String, requests expectedRequests: [any Request]?, effects expectedEffects: [any SideEffect]?,
                      unhandledErrors: [String], sourceLocation: SourceLocation,
                      expect: ((inout ExpectedState) throws -> Void)?, _ body: () -> Void) {
        let before = Self.byID(store.stateValues())
        recording.begin()
        body()
        let applied = recording.requests
        let started = recording.started
        let errors = recording.errors.map { String(describing: $0) }

        var expected = ExpectedState(store: store, before: before)
        if let expect {
            do { try expect(&expected) } catch {
                Issue.record(error, "\(name): the closure asserting the state threw", sourceLocation: sourceLocation)
            }
        }

        if let expectedRequests, let difference = Self.listDifference(expectedRequests, applied) {
            Issue.record(Comment(rawValue: "\(name): the requests applied are not the ones expected (- expected, + actual):\n\n\(difference)"),
                         sourceLocation: sourceLocation)
        }
        if let expectedEffects {
            if let difference = Self.listDifference(expectedEffects, started.map(\.effect)) {
                Issue.record(Comment(rawValue: "\(name): the side effects started are not the ones expected (- expected, + actual):\n\n\(difference)"),
                             sourceLocation: sourceLocation)
            }
            recording.markAsserted(started.map(\.number))
        }
        if let difference = Self.listDifference(unhandledErrors, errors) {
            Issue.record(Comment(rawValue: "\(name): the unhandled errors are not the ones expected (- expected, + actual):\n\n\(difference)"),
                         sourceLocation: sourceLocation)
        }
        if let problems = stateProblems(before: before, expected: expected) {
            Issue.record(Comment(rawValue: "\(name): the state is not as expected (- expected, + actual):\n\n\(problems)"),
                         sourceLocation: sourceLocation)
        }
    }

    /// Every state whose value differs from what the test expects, described; nil when none.
    private func stateProblems(before: [ObjectIdentifier: StateValueSnapshot], expected: ExpectedState) -> String? {
        var problems: [String] = []
        for entry in store.stateValues() {
            let old = before[entry.id]?.value ?? entry.initial
            let assigned = expected.assigned[entry.id]
            let wanted = assigned ?? old
            guard !Self.equal(wanted, entry.value) else { continue }
            let headline = assigned == nil ? "\(entry.key) changed, but the test did not assert it:" : "\(entry.key) is not as expected:"
            let difference = diff(wanted, entry.value)
                ?? "- \(String(customDumping: wanted))\n+ \(String(customDumping: entry.value))"
            problems.append(headline + "\n" + difference)
        }
        return problems.isEmpty ? nil : problems.joined(separator: "\n\n")
    }

    /// Before a send: effects still waiting that no step asserted are reported and cancelled.
    private func reportUnasserted(before event: L.Event, at sourceLocation: SourceLocation) {
        let unasserted = recording.waiting.filter { !$0.asserted }
        guard !unasserted.isEmpty else { return }
        Issue.record(Comment(rawValue: Self.describe(unasserted.map(\.effect.effect), "was not asserted", "were not asserted")
                                + "\n\nBefore send(\(Self.short(event))): deliver a result with effect(_:returns:) or effect(_:fails:), "
                                + "list it in the `effects:` of the step that started it, or call skipEffects()."),
                     sourceLocation: sourceLocation)
        cancel(unasserted)
    }

    /// At the end: every effect still waiting is reported and cancelled.
    private func reportWaiting(at sourceLocation: SourceLocation) {
        let waiting = recording.waiting
        guard let message = Self.waitingMessage(waiting.map { ($0.effect.effect, $0.asserted) }) else { return }
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        cancel(waiting)
    }

    /// What to say about effects still waiting at the end; nil when none is.
    nonisolated private static func waitingMessage(_ waiting: [(effect: any SideEffect, asserted: Bool)]) -> String? {
        guard !waiting.isEmpty else { return nil }
        let unasserted = waiting.filter { !$0.asserted }.map(\.effect)
        let asserted = waiting.filter(\.asserted).map(\.effect)
        var parts: [String] = []
        if !unasserted.isEmpty { parts.append(describe(unasserted, "was not asserted", "were not asserted")) }
        if !asserted.isEmpty { parts.append(describe(asserted, "still waits for a result", "still wait for a result")) }
        return parts.joined(separator: "\n") + "\n\nAt the end of the test: deliver each result "
            + "with effect(_:returns:) or effect(_:fails:), or call skipEffects() first."
    }

    private func cancel(_ effects: [StepRecording.Waiting]) {
        let numbers = Set(effects.map(\.effect.number))
        recording.waiting.removeAll { numbers.contains($0.effect.number) }
        for waiting in effects { waiting.effect.cancel() }
    }

    // MARK: Helpers

    /// "1 side effect was not asserted: X" / "2 side effects were not asserted:\n  X\n  Y".
    nonisolated private static func describe(_ effects: [any SideEffect], _ one: String, _ many: String) -> String {
        let dumps = effects.map { String(customDumping: $0) }
        if dumps.count == 1 { return "1 side effect \(one): \(dumps[0])" }
        return "\(dumps.count) side effects \(many):\n" + dumps.map { "  " + $0 }.joined(separator: "\n")
    }

    /// An event as a test writes it: `.load("/a")` rather than `NotesLogic.Event.load("/a")`.
    private static func short(_ event: L.Event) -> String {
        let dump = String(customDumping: event)
        var type = String(customDumping: L.Event.self)
        if type.hasSuffix(".self") { type.removeLast(5) }
        return dump.hasPrefix(type + ".") ? String(dump.dropFirst(type.count)) : dump
    }

    /// The diff of two lists, each element dumped as a value of its own (so a request shows as
    /// `CounterRequest.add(1)`, not `.add(1)`); nil when they are the same.
    private static func listDifference(_ expected: [Any], _ actual: [Any]) -> String? {
        let wanted = expected.map { Dumped(text: String(customDumping: $0)) }
        let got = actual.map { Dumped(text: String(customDumping: $0)) }
        guard wanted != got else { return nil }
        return diff(wanted, got) ?? "- \(wanted.map(\.text))\n+ \(got.map(\.text))"
    }

    private static func byID(_ values: [StateValueSnapshot]) -> [ObjectIdentifier: StateValueSnapshot] {
        Dictionary(values.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `==` when the value is `Equatable`, else equal custom dumps.
    private static func equal(_ a: any Sendable, _ b: any Sendable) -> Bool {
        if let a = a as? any Equatable, let result = a.isEqual(to: b) { return result }
        return String(customDumping: a) == String(customDumping: b)
    }
}

/// A value shown by its custom dump, made beforehand.
private struct Dumped: Equatable, CustomDumpStringConvertible {
    let text: String
    var customDumpDescription: String { text }
}

/// `Sleep(1.0 seconds)`, rather than the fields of its `Duration`.
extension Sleep: CustomDumpStringConvertible {
    public var customDumpDescription: String { description }
}

extension Equatable {
    /// Whether `other` is a `Self` equal to this; nil when it is of another type.
    fileprivate func isEqual(to other: Any) -> Bool? {
        (other as? Self).map { self == $0 }
    }
}

/// What the module did during a step, and the side effects waiting for a result (the hook
/// `TestLogic` installs as the module's interceptor).
@MainActor
final class StepRecording: LogicInterceptor {
    struct Waiting {
        var effect: InterceptedEffect
        /// Listed in the `effects:` of the step that started it.
        var asserted = false
    }

    var waiting: [Waiting] = [] {
        didSet { leftOver.withLock { $0 = waiting.map { ($0.effect.effect, $0.asserted) } } }
    }
    /// A copy of `waiting` that `TestLogic`'s deinit can read off the main actor.
    nonisolated let leftOver = Mutex<[(effect: any SideEffect, asserted: Bool)]>([])
    private(set) var started: [InterceptedEffect] = []
    private(set) var requests: [any Request] = []
    private(set) var errors: [any Error] = []

    func begin() {
        started = []
        requests = []
        errors = []
    }

    func markAsserted(_ numbers: [Int]) {
        for index in waiting.indices where numbers.contains(waiting[index].effect.number) { waiting[index].asserted = true }
    }

    func effectStarted(_ effect: InterceptedEffect) {
        waiting.append(Waiting(effect: effect))
        started.append(effect)
    }

    func effectCancelled(_ number: Int) {
        waiting.removeAll { $0.effect.number == number }
    }

    func requestApplied(_ request: any Request, error: (any Error)?) {
        requests.append(request)
    }

    func unhandledError(_ error: any Error) {
        errors.append(error)
    }
}

/// Stores for `TestLogic`.
public enum TestLogicStore {
    /// A new store whose stored state goes to a new folder of its own under the system's
    /// temporary folder. (A plain `Application()` in a test process shares one folder with every
    /// other store of the process: a value one test saved could be loaded by the next.)
    ///
    /// ```swift
    /// let test = TestLogic(NotesLogic(), store: TestLogicStore.isolated())
    /// ```
    public static func isolated() -> Application {
        let store = Application()
        let folder = (FileManager.default.temporaryDirectory.path as NSString)
            .appendingPathComponent("appletkit-test-logic-\(UUID().uuidString)")
        var storage = StorageConfiguration(appID: "test-logic", directory: folder)
        storage.secrets = .files   // throwaway, secrets included: never the desktop keyring
        store.storage = storage
        return store
    }
}
