/// Watches what a `LogicModule` does and performs its side effects in place of the performers:
/// the hook `TestLogic` (AppletTesting) installs so a test decides every effect's result, and
/// sees each request and unhandled error as it happens. Package-only: apps never set it.
///
/// With an interceptor installed, a started side effect runs no performer, replay or task: the
/// module hands it to `effectStarted(_:)` and waits until someone calls its `deliver`, which runs
/// its continuation synchronously, on the main actor, before returning. Cancelling it (an effect
/// with the same id, `.cancel(id)`, `cancelAll()`) ends it at once as cancelled and calls
/// `effectCancelled(_:)`.
///
/// ```swift
/// final class Collector: LogicInterceptor {
///     var pending: [InterceptedEffect] = []
///     func effectStarted(_ effect: InterceptedEffect) { pending.append(effect) }
///     func effectCancelled(_ number: Int) { pending.removeAll { $0.number == number } }
///     func requestApplied(_ request: any Request, error: (any Error)?) {}
///     func unhandledError(_ error: any Error) {}
/// }
/// module.interceptor = collector                      // held weakly
/// module.send(.effect(LoadFile(path: "/a")) { .request(Note.add($0)) })
/// collector.pending[0].deliver(.output("alpha"))      // the request applies before this returns
/// ```
@MainActor
package protocol LogicInterceptor: AnyObject {
    /// A side effect started; it waits for `effect.deliver`.
    func effectStarted(_ effect: InterceptedEffect)
    /// The side effect with this number was cancelled before a result was delivered.
    func effectCancelled(_ number: Int)
    /// A request was applied (`error`: it threw).
    func requestApplied(_ request: any Request, error: (any Error)?)
    /// A failure nothing handled (also given to `onUnhandledError`).
    func unhandledError(_ error: any Error)
}

/// A side effect waiting for an interceptor to deliver its result.
package struct InterceptedEffect: Sendable {
    /// The effect's value.
    package let effect: any SideEffect
    /// The id it was started with.
    package let id: EffectID?
    /// Its number in the action log (`#3`).
    package let number: Int
    /// Ends the effect with `result` and runs its continuation, synchronously. Returns false (and
    /// does nothing) when the effect is no longer running: delivered already, or cancelled. An
    /// output must be of the effect's `Output` type, as a failure goes to `onError` only when it
    /// is of its `Failure` type.
    package let deliver: @MainActor @Sendable (InterceptedResult) -> Bool
    /// Cancels the effect (as `.cancel(id)` would): it ends as cancelled, its continuation never
    /// runs, and the interceptor hears `effectCancelled`. Does nothing once it has ended.
    package let cancel: @MainActor @Sendable () -> Void
}

/// What an interceptor hands a side effect: its output, or its error.
package enum InterceptedResult: Sendable {
    case output(any Sendable)
    case failure(any Error)
}
