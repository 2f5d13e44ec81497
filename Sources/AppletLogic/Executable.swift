import AppletState

/// What an event makes happen, as a value the logic module runs: a request, a side effect, a
/// sequence or a parallel group of them, with continuations for the result and the error.
///
/// ```swift
/// let refresh: Executable = .sequence(
///     .request(MonitorRequest.setLoading(true)),
///     .effect(ReadProcesses()) { list in .request(MonitorRequest.setProcesses(list)) },
///     .request(MonitorRequest.setLoading(false))
/// ).onError { error in .request(MonitorRequest.setProblem("\(error)")) }
/// ```
///
/// Semantics:
/// - Requests apply synchronously: `send` returns after every request reachable without waiting
///   for a side effect has been applied.
/// - A `sequence` runs its parts one after another, each after the previous finished (a side
///   effect finishes when its `then` has); the first failure stops it.
/// - A `parallel` group starts every part at once and finishes when all have; it fails (after
///   all finished) when one did.
/// - A failure goes to the nearest enclosing `onError` (an effect's own first); one that nothing
///   handles is logged as an error in the action log and given to `LogicModule.onUnhandledError`.
/// - A side effect with an `id` replaces a running one with the same id (it is cancelled);
///   `.cancel(id)` cancels it. A cancelled effect neither continues nor fails.
public struct Executable: Sendable {
    enum Kind: Sendable {
        case none
        case request(any Request)
        indirect case effect(EffectCall)
        case sequence([Executable])
        case parallel([Executable])
        indirect case deferred(@MainActor @Sendable (LogicContext) -> Executable, String)
        case cancel(EffectID)
        case repeating(Duration, EffectID, @Sendable () -> Executable)
        indirect case catching(Executable, @Sendable (any Error) -> Executable)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// Nothing to do.
    public static let none = Executable(.none)

    /// Applies `request` to the store.
    public static func request(_ request: some Request) -> Executable { Executable(.request(request)) }

    /// Performs `effect`, then runs what `then` makes of its output; a failure goes to `onError`
    /// (or further out when there is none).
    public static func effect<E: SideEffect>(_ effect: E, id: EffectID? = nil,
                                             then: @escaping @Sendable (E.Output) -> Executable = { _ in .none },
                                             onError: (@Sendable (E.Failure) -> Executable)? = nil) -> Executable {
        Executable(.effect(EffectCall(effect, id: id, then: then, onError: onError, fallback: nil)))
    }

    /// Performs `effect` (with its own `perform` unless a performer is registered for its type),
    /// then runs what `then` makes of its output; a failure goes to `onError`.
    public static func effect<E: LiveSideEffect>(_ effect: E, id: EffectID? = nil,
                                                 then: @escaping @Sendable (E.Output) -> Executable = { _ in .none },
                                                 onError: (@Sendable (E.Failure) -> Executable)? = nil) -> Executable {
        Executable(.effect(EffectCall(effect, id: id, then: then, onError: onError,
                                      fallback: { effect, coeffects throws(E.Failure) in try await effect.perform(with: coeffects) })))
    }

    /// Runs the parts one after another.
    public static func sequence(_ parts: [Executable]) -> Executable { Executable(.sequence(parts)) }
    public static func sequence(_ parts: Executable...) -> Executable { .sequence(parts) }

    /// Runs the parts at once.
    public static func parallel(_ parts: [Executable]) -> Executable { Executable(.parallel(parts)) }
    public static func parallel(_ parts: Executable...) -> Executable { .parallel(parts) }

    /// Sends `event` to `logic` when this part is reached, so that it sees the state and
    /// coeffects of that moment (a timer's tick, the next page after a load).
    public static func send<L: EventLogic>(_ event: L.Event, to logic: L) -> Executable {
        Executable(.deferred({ context in
            context.module.record(event: event, of: logic)
            return logic.executable(for: event, in: context)
        }, "\(L.self).\(event)"))
    }

    /// Cancels the running side effect with this id, if any.
    public static func cancel(_ id: EffectID) -> Executable { Executable(.cancel(id)) }

    /// A timer: every `interval` (a `Sleep` on the module's clock, with `id`), runs what `make`
    /// returns as an executable of its own, until `.cancel(id)` (or another effect with `id`)
    /// stops it. Finishes at once; the ticks are side effects like any other, so tests deliver
    /// them and a replay reproduces them.
    ///
    /// ```swift
    /// case .start: .repeating(every: .seconds(2), id: "monitor.refresh") { .send(.tick, to: self) }
    /// case .stop:  .cancel("monitor.refresh")
    /// ```
    public static func repeating(every interval: Duration, id: EffectID, _ make: @escaping @Sendable () -> Executable) -> Executable {
        Executable(.repeating(interval, id, make))
    }

    /// This, then `next`.
    public func then(_ next: Executable) -> Executable { .sequence(self, next) }

    /// What to run when this fails (a request throws, an effect's performer throws).
    public func onError(_ handler: @escaping @Sendable (any Error) -> Executable) -> Executable {
        Executable(.catching(self, handler))
    }
}

/// Names a running side effect, to replace or cancel it.
public struct EffectID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
}

/// A side effect with its continuations, its type erased.
struct EffectCall: Sendable {
    let effect: any SideEffect
    let id: EffectID?
    /// Runs the performer found in `performers` and maps its result to what comes next.
    let run: @Sendable (any SideEffect, PerformerTable, Coeffects) async -> EffectOutcome
    /// Maps a result handed in from outside (a `LogicInterceptor`: `TestLogic`) to what comes
    /// next, as `run` does with a performer's. An output must be an `E.Output`.
    let resume: @Sendable (InterceptedResult) -> EffectOutcome

    init<E: SideEffect>(_ effect: E, id: EffectID?, then: @escaping @Sendable (E.Output) -> Executable,
                        onError: (@Sendable (E.Failure) -> Executable)?,
                        fallback: (@Sendable (E, Coeffects) async throws(E.Failure) -> E.Output)?) {
        self.effect = effect
        self.id = id
        self.resume = { result in
            switch result {
            case .output(let output): return .succeeded(then(output as! E.Output), output)
            case .failure(let error):
                if let onError, let typed = error as? E.Failure { return .failed(onError(typed), error) }
                return .failed(nil, error)
            }
        }
        self.run = { erased, performers, coeffects in
            let effect = erased as! E
            guard let perform = performers.performer(for: E.self) ?? fallback else {
                return .failed(nil, LogicError.noPerformer("\(E.self)"))
            }
            do throws(E.Failure) {
                let output = try await perform(effect, coeffects)
                if Task.isCancelled { return .cancelled }
                return .succeeded(then(output), output)
            } catch {
                if Task.isCancelled { return .cancelled }
                if let onError { return .failed(onError(error), error) }
                return .failed(nil, error)
            }
        }
    }
}

/// How a side effect ended: what runs next, and what to log.
enum EffectOutcome: Sendable {
    /// Done; `next` is what `then` made of the output.
    case succeeded(Executable, any Sendable)
    /// Failed; `handled` is what the effect's own `onError` made of it, if it had one.
    case failed(Executable?, any Error)
    case cancelled
}

/// An error a replayed effect had when it was recorded (its description).
public struct ReplayedError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The app's UI logic for one applet: turns its events (a key's meaning, a widget's event, a
/// timer's tick) into an executable, reading the state and the coeffects it needs. It changes
/// nothing itself: what it returns does.
///
/// ```swift
/// struct MonitorLogic: EventLogic {
///     enum Event: Codable, Sendable { case refresh, sort(ProcessColumn), kill(pid: Int32) }
///
///     func executable(for event: Event, in context: LogicContext) -> Executable {
///         switch event {
///         case .refresh:
///             let list = (try? context.coeffects.processes()) ?? []
///             return .request(MonitorRequest.setProcesses(list))
///         case .sort(let column):
///             return .request(MonitorRequest.sort(by: column))
///         case .kill(let pid):
///             return .effect(SignalProcess(pid: pid, signal: SIGTERM)) { _ in .send(.refresh, to: self) }
///         }
///     }
/// }
/// ```
public protocol EventLogic: Sendable {
    associatedtype Event: Sendable
    @MainActor func executable(for event: Event, in context: LogicContext) -> Executable
}

/// What `EventLogic` reads: the store and the coeffects, at the moment the event is handled.
@MainActor
public struct LogicContext {
    public let store: Application
    public let coeffects: Coeffects
    let module: LogicModule
}
