import AppletState
import Observation

/// The single entry point of the logic layer: everything that changes the app's state or touches
/// the system goes through `send(_:)` as an `Executable`, so it can be logged, recorded, replayed
/// and asserted in tests.
///
/// ```swift
/// let logic = LogicModule(store: .shared, coeffects: .live)
/// logic.perform(SignalProcess.self) { effect, _ throws(SignalError) in try effect.deliver() }
/// logic.send(.request(MonitorRequest.sort(by: .memory)))         // applied before send returns
/// logic.send(.refresh, to: MonitorLogic())                        // an applet's event
/// let watcher = logic.observe({ $0.monitorFilter.value }) { old, new in
///     .send(.refresh, to: MonitorLogic())                         // react to a change
/// }
/// ```
///
/// Invariants: requests are applied on the main actor, in the order they are reached, before
/// `send` returns when no side effect comes first; side effects run off the main actor and their
/// continuations come back to it; every request, side effect and unhandled error is in
/// `actionLog` (and in the recording, if one is on) in the order it happened.
@MainActor
public final class LogicModule {
    /// The store requests are applied to.
    public let store: Application
    /// What event logic and performers read from the system.
    public private(set) var coeffects: Coeffects
    /// The last requests, side effects and errors (the devtools' overlay lists them).
    public let actionLog = ActionLog()
    /// Called with each failure that no `onError` handled (the host shows it as an error toast).
    public var onUnhandledError: (@MainActor (any Error) -> Void)?

    private var performers: PerformerTable
    private var running: [EffectID: RunningEffect] = [:]
    private var inFlight: [Int: RunningEffect] = [:]
    private var effectNumber = 0
    // Read on every request: main-actor state that no access overlaps, so not checked for
    // exclusivity at run time (a begin and an end access per read, a tenth of a send).
    @exclusivity(unchecked) private var observers: [Int: ObserverBox] = [:]
    private var observerNumber = 0
    private var observerDepth = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var recorder: SessionRecorder?
    /// Performs side effects in place of the performers and sees every request (`TestLogic`).
    /// Held weakly; set it before the first `send`.
    package weak var interceptor: (any LogicInterceptor)?

    /// A module applying requests to `store`. Made anywhere (a store's `logic` dependency is made
    /// on first use); used on the main actor.
    nonisolated public init(store: Application = .current, coeffects: Coeffects = .live) {
        self.store = store
        self.coeffects = coeffects
        var table = PerformerTable()
        table.set({ (sleep: Sleep, coeffects: Coeffects) async throws(CancellationError) -> Void in
            do { try await coeffects.clock.sleep(for: sleep.duration) } catch { throw CancellationError() }
        }, for: Sleep.self)
        self.performers = table
    }

    // MARK: Performers

    /// Registers the code that performs side effects of type `E` (one performer per type; a
    /// second registration replaces the first). It runs off the main actor and may be cancelled.
    public func perform<E: SideEffect>(_ type: E.Type,
                                       _ performer: @escaping @Sendable (E, Coeffects) async throws(E.Failure) -> E.Output) {
        performers.set(performer, for: type)
    }

    // MARK: Sending

    /// Runs `executable`: its requests now, its side effects as tasks.
    @discardableResult
    public func send(_ executable: Executable) -> LogicTask {
        // A lone request, the most common executable, runs as `run` would run it, without the
        // completion closure (an allocation and a weak reference per send); its task is made
        // finished (nothing can hold it before `send` returns).
        if case .request(let request) = executable.kind {
            let result = apply(request)
            if case .failed(let error) = result { unhandled(error) }
            // One shared finished task for every request that applied: nothing about it can change.
            if case .ok = result { return .succeeded }
            return LogicTask(finished: result)
        }
        let task = LogicTask()
        run(executable, in: task) { [weak self] result in
            if case .failed(let error) = result { self?.unhandled(error) }
            task.finish(result)
        }
        return task
    }

    /// Hands `event` to `logic` and runs what it returns.
    @discardableResult
    public func send<L: EventLogic>(_ event: L.Event, to logic: L) -> LogicTask {
        send(.send(event, to: logic))
    }

    /// Cancels the running side effect with this id (its continuations do not run).
    public func cancel(_ id: EffectID) {
        running[id]?.cancel()
    }

    /// Cancels every running side effect (the host does it on quit).
    public func cancelAll() {
        for effect in Array(inFlight.values) { effect.cancel() }
    }

    /// How many side effects are running.
    public var runningEffectCount: Int { inFlight.count }

    /// Returns once no side effect is running (tests; the replay between recorded events).
    public func idle() async {
        if inFlight.isEmpty { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Replaces the coeffects (a test that changes the world between events).
    public func setCoeffects(_ coeffects: Coeffects) {
        self.coeffects = recorder.map { $0.recording(coeffects) } ?? coeffects
    }

    // MARK: Observers

    /// Calls `onChange` with the old and new value each time what `read` returns changes (after
    /// a request, or any other change to the store it reads), and runs what it returns. Keep the
    /// returned observer: releasing it, or calling `cancel()`, stops it.
    public func observe<Value: Equatable>(_ read: @escaping @MainActor (Application) -> Value,
                                          _ onChange: @escaping @MainActor (_ old: Value, _ new: Value) -> Executable) -> LogicObserver {
        observerNumber += 1
        let number = observerNumber
        let box = ObserverBox(read: read, onChange: onChange, store: store)
        observers[number] = box
        box.track { [weak self] in self?.checkObserver(number) }
        return LogicObserver { [weak self] in self?.observers.removeValue(forKey: number) }
    }

    /// How many observers are active.
    public var observerCount: Int { observers.count }

    private func checkObservers() {
        guard !observers.isEmpty else { return }
        checkEachObserver()
    }

    /// Out of line, so that a request with no observers to check does not pay for setting up
    /// what checking them needs (it would be inlined into `apply`'s caller).
    @inline(never)
    private func checkEachObserver() {
        for number in observers.keys.sorted() { checkObserver(number) }
    }

    private func checkObserver(_ number: Int) {
        guard let box = observers[number] else { return }
        guard observerDepth < 32 else {
            unhandled(ObserverLoopError())
            return
        }
        observerDepth += 1
        defer { observerDepth -= 1 }
        if let next = box.check() { send(next) }
    }

    // MARK: Running

    enum RunResult { case ok, failed(any Error), cancelled }

    private func run(_ executable: Executable, in task: LogicTask, completion: @escaping @MainActor (RunResult) -> Void) {
        if task.isCancelled { return completion(.cancelled) }
        switch executable.kind {
        case .none:
            completion(.ok)
        case .request(let request):
            completion(apply(request))
        case .effect(let call):
            start(call, in: task, completion: completion)
        case .sequence(let parts):
            runSequence(parts[...], in: task, completion: completion)
        case .parallel(let parts):
            guard !parts.isEmpty else { return completion(.ok) }
            var remaining = parts.count
            var failure: (any Error)?
            for part in parts {
                run(part, in: task) { result in
                    if case .failed(let error) = result, failure == nil { failure = error }
                    remaining -= 1
                    if remaining == 0 { completion(failure.map { .failed($0) } ?? .ok) }
                }
            }
        case .deferred(let make, _):
            run(make(LogicContext(store: store, coeffects: coeffects, module: self)), in: task, completion: completion)
        case .repeating(let interval, let id, let make):
            startRepeating(every: interval, id: id, make)
            completion(.ok)
        case .cancel(let id):
            cancel(id)
            completion(.ok)
        case .catching(let inner, let handler):
            run(inner, in: task) { [weak self] result in
                guard let self, case .failed(let error) = result else { return completion(result) }
                self.run(handler(error), in: task, completion: completion)
            }
        }
    }

    /// Applies `request` to the store, logs and records it, then checks the observers. Its time
    /// is when it started (one read of the precise clock); its duration is logged when it took a
    /// tick of the coarse clock or more (see `CoarseClock`), else it would cost a second read of
    /// the precise clock, a sixth of a send, to log a few hundred nanoseconds.
    private func apply(_ request: any Request) -> RunResult {
        let start = ContinuousClock.now
        let tick = CoarseClock.tick()
        do {
            try request.apply(to: store)
            actionLog.append(.request(request), at: start, duration: Self.duration(since: start, tick: tick))
            recorder?.request(request, at: start)
            interceptor?.requestApplied(request, error: nil)
            checkObservers()
            return .ok
        } catch {
            actionLog.append(.request(request), at: start, duration: Self.duration(since: start, tick: tick), error: error)
            recorder?.request(request, at: start, error: error)
            interceptor?.requestApplied(request, error: error)
            return .failed(error)
        }
    }

    /// How long since `start`, if the coarse clock moved from `tick` meanwhile; nil if not.
    private static func duration(since start: ContinuousClock.Instant, tick: Int) -> Duration? {
        CoarseClock.tick() == tick ? nil : ContinuousClock.now - start
    }

    private func runSequence(_ parts: ArraySlice<Executable>, in task: LogicTask, completion: @escaping @MainActor (RunResult) -> Void) {
        guard let first = parts.first else { return completion(.ok) }
        run(first, in: task) { [weak self] result in
            guard let self, case .ok = result else { return completion(result) }
            self.runSequence(parts.dropFirst(), in: task, completion: completion)
        }
    }

    private func start(_ call: EffectCall, in task: LogicTask, completion: @escaping @MainActor (RunResult) -> Void) {
        if let id = call.id { running[id]?.cancel() }
        effectNumber += 1
        let number = effectNumber
        let started = ContinuousClock.now
        actionLog.append(.effectStarted(call.effect, number: number, id: call.id))
        recorder?.effectStarted(call.effect, number: number)
        if let interceptor {
            intercept(call, number: number, started: started, by: interceptor, in: task, completion: completion)
            return
        }
        let (performers, coeffects) = (performers, coeffects)
        let effect = RunningEffect(number: number, id: call.id)
        effect.task = Task { [weak self] in
            let outcome = await call.run(call.effect, performers, coeffects)
            self?.finish(effect, call: call, outcome: outcome, started: started, in: task, completion: completion)
        }
        inFlight[number] = effect
        if let id = call.id { running[id] = effect }
        task.effects.append(effect)
    }

    /// Starts `call` as an effect that waits for `interceptor` to deliver its result: no task,
    /// no performer; delivering or cancelling it ends it synchronously.
    private func intercept(_ call: EffectCall, number: Int, started: ContinuousClock.Instant, by interceptor: any LogicInterceptor,
                           in task: LogicTask, completion: @escaping @MainActor (RunResult) -> Void) {
        let effect = RunningEffect(number: number, id: call.id)
        effect.onCancel = { [weak self, weak interceptor, weak effect] in
            guard let self, let effect, self.inFlight[number] === effect else { return }
            self.finish(effect, call: call, outcome: .cancelled, started: started, in: task, completion: completion)
            interceptor?.effectCancelled(number)
        }
        inFlight[number] = effect
        if let id = call.id { running[id] = effect }
        task.effects.append(effect)
        interceptor.effectStarted(InterceptedEffect(effect: call.effect, id: call.id, number: number, deliver: { [weak self] result in
            guard let self, !effect.isCancelled, self.inFlight[number] === effect else { return false }
            self.finish(effect, call: call, outcome: call.resume(result), started: started, in: task, completion: completion)
            return true
        }, cancel: { effect.cancel() }))
    }

    /// One tick of a `.repeating` timer: a `Sleep` with the timer's id; when it ends (not
    /// cancelled), what `make` returns runs as an executable of its own and the next tick starts.
    /// Each tick is a new task, so a timer that runs for days holds no more than one tick.
    private func startRepeating(every interval: Duration, id: EffectID, _ make: @escaping @Sendable () -> Executable) {
        let tick = EffectCall(Sleep(interval), id: id, then: { _ in .none }, onError: nil, fallback: nil)
        start(tick, in: LogicTask()) { [weak self] result in
            guard let self, case .ok = result else { return }
            self.startRepeating(every: interval, id: id, make)
            self.send(make())
        }
    }

    private func finish(_ effect: RunningEffect, call: EffectCall, outcome: EffectOutcome, started: ContinuousClock.Instant,
                        in task: LogicTask, completion: @escaping @MainActor (RunResult) -> Void) {
        inFlight.removeValue(forKey: effect.number)
        if let id = effect.id, running[id] === effect { running.removeValue(forKey: id) }
        task.effects.removeAll { $0 === effect }
        let duration = ContinuousClock.now - started
        let result: EffectOutcome = effect.isCancelled ? .cancelled : outcome
        actionLog.append(.effectEnded(call.effect, number: effect.number, outcome: result.summary), duration: duration,
                         error: { if case .failed(_, let error) = result { error } else { nil } }())
        recorder?.effectEnded(call.effect, number: effect.number, outcome: result)
        switch result {
        case .succeeded(let next, _): run(next, in: task, completion: completion)
        case .failed(let handled?, _): run(handled, in: task, completion: completion)
        case .failed(nil, let error): completion(.failed(error))
        case .cancelled: completion(.cancelled)
        }
        if inFlight.isEmpty {
            let waiters = idleWaiters
            idleWaiters = []
            for waiter in waiters { waiter.resume() }
        }
    }

    private func unhandled(_ error: any Error) {
        actionLog.append(.unhandledError, error: error)
        recorder?.unhandled(error)
        interceptor?.unhandledError(error)
        onUnhandledError?(error)
    }

    /// Records that `event` went to `logic` (the action log shows events too).
    func record<L: EventLogic>(event: L.Event, of logic: L) {
        actionLog.append(.event(event, logic: "\(L.self)"))
        recorder?.event(event, logic: "\(L.self)")
    }
}

/// A running side effect.
@MainActor
final class RunningEffect {
    let number: Int
    let id: EffectID?
    var task: Task<Void, Never>?
    /// Runs once, when it is cancelled (an intercepted effect has no task to end it).
    var onCancel: (@MainActor () -> Void)?
    private(set) var isCancelled = false

    init(number: Int, id: EffectID?) {
        self.number = number
        self.id = id
    }

    func cancel() {
        isCancelled = true
        task?.cancel()
        let cancelled = onCancel
        onCancel = nil
        cancelled?()
    }
}

/// What `send` started: await its end, or cancel what it still runs.
///
/// ```swift
/// let task = logic.send(.send(.refresh, to: MonitorLogic()))
/// await task.finished()        // after every effect and continuation ran
/// ```
@MainActor
public final class LogicTask {
    /// How an executable ended.
    public enum Outcome: Sendable, Equatable {
        case succeeded
        case failed(String)
        case cancelled
    }

    public private(set) var outcome: Outcome?
    public private(set) var error: (any Error)?
    private(set) var isCancelled = false
    var effects: [RunningEffect] = []
    private var waiters: [CheckedContinuation<Outcome, Never>] = []

    init() {}

    /// A task that succeeded already (a request that applied): shared, as nothing of it changes.
    static let succeeded = LogicTask(finished: .ok)

    /// A task that has run to its end already.
    init(finished result: LogicModule.RunResult) {
        (outcome, error) = Self.outcome(of: result)
    }

    /// Waits until the executable has run to its end.
    @discardableResult
    public func finished() async -> Outcome {
        if let outcome { return outcome }
        return await withCheckedContinuation { waiters.append($0) }
    }

    /// Cancels its running side effects; nothing further of it runs.
    public func cancel() {
        // A finished task has nothing left to cancel (and may be the shared `succeeded`).
        guard outcome == nil else { return }
        isCancelled = true
        for effect in effects { effect.cancel() }
    }

    func finish(_ result: LogicModule.RunResult) {
        guard outcome == nil else { return }
        let (outcome, error) = Self.outcome(of: result)
        self.outcome = outcome
        if let error { self.error = error }
        effects = []
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume(returning: outcome) }
    }

    private static func outcome(of result: LogicModule.RunResult) -> (Outcome, (any Error)?) {
        switch result {
        case .ok: (.succeeded, nil)
        case .failed(let error): (.failed(String(describing: error)), error)
        case .cancelled: (.cancelled, nil)
        }
    }
}

/// Keeps an observer running; releasing it (or `cancel()`) stops it.
@MainActor
public final class LogicObserver {
    private var stop: (@MainActor () -> Void)?

    init(stop: @escaping @MainActor () -> Void) { self.stop = stop }

    /// Stops the observer.
    public func cancel() {
        stop?()
        stop = nil
    }

    isolated deinit { stop?() }
}

/// One observer: what it reads, what it last saw, what it runs on a change.
@MainActor
final class ObserverBox {
    private let read: @MainActor (Application) -> Any
    private let differs: (Any, Any) -> Bool
    private let onChange: @MainActor (Any, Any) -> Executable
    private let store: Application
    private var last: Any
    private var onOutsideChange: (@MainActor () -> Void)?

    init<Value: Equatable>(read: @escaping @MainActor (Application) -> Value,
                           onChange: @escaping @MainActor (Value, Value) -> Executable, store: Application) {
        self.read = { read($0) }
        self.differs = { ($0 as! Value) != ($1 as! Value) }
        self.onChange = { onChange($0 as! Value, $1 as! Value) }
        self.store = store
        self.last = read(store)
    }

    /// Watches what `read` reads, so a change made without a request (a direct write, another
    /// instance through SyncState) is noticed too.
    func track(_ changed: @escaping @MainActor () -> Void) {
        onOutsideChange = changed
        arm()
    }

    private func arm() {
        StateTracking.withTracking({
            _ = read(store)
        }, observer: StateObserver { [weak self] in
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.onOutsideChange?()
                self.arm()
            }
        })
    }

    /// What to run if the value changed since last time.
    func check() -> Executable? {
        let now = read(store)
        guard differs(last, now) else { return nil }
        let old = last
        last = now
        return onChange(old, now)
    }
}

/// Observers that keep changing what they observe.
struct ObserverLoopError: Error, CustomStringConvertible {
    var description: String { "observers changed what they observe 32 times in a row; stopped there" }
}

/// Performers by side effect type.
struct PerformerTable: Sendable {
    private var table: [ObjectIdentifier: any Sendable] = [:]

    mutating func set<E: SideEffect>(_ performer: @escaping @Sendable (E, Coeffects) async throws(E.Failure) -> E.Output, for type: E.Type) {
        table[ObjectIdentifier(type)] = performer
    }

    func performer<E: SideEffect>(for type: E.Type) -> (@Sendable (E, Coeffects) async throws(E.Failure) -> E.Output)? {
        table[ObjectIdentifier(type)] as? @Sendable (E, Coeffects) async throws(E.Failure) -> E.Output
    }
}

extension Application {
    /// The store's logic module, made on first use: how applets send requests and side effects.
    /// The host sets it up (recording, replay, error toasts); a test overrides it with its own.
    ///
    /// ```swift
    /// struct MonitorApplet: Applet {
    ///     @AppDependency(\.logic) private var logic
    ///     var commands: [Command] { [Command("r", "Refresh") { logic.send(.refresh, to: MonitorLogic()) }] }
    /// }
    /// ```
    public var logic: Dependency<LogicModule> {
        dependency(LogicModule(store: self), feature: "AppletLogic", id: "logic")
    }
}
