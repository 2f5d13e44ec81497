/// The observation of something drawn again and again (a pane, a part of the chrome): each
/// `replace` ends the last observation and makes the next. Observation's cancellation marker
/// (`CancellableObservation.track(enrolling:)`) is read only once a drawing has read an
/// `Observable` other than the store's boxes; until then drawing costs Observation nothing.
///
/// ```swift
/// let slot = ObservationSlot()
/// slot.replace({ draw() }, onChange: { redraw() })   // the last one is ended first
/// ```
@MainActor
public final class ObservationSlot {
    private var current: CancellableObservation?
    /// Whether a drawing read an `Observable` that is not the store's (a model, the action log).
    public private(set) var readsOtherObservables = false

    public init() {}

    /// Ends the current observation and observes what `body` reads instead.
    public func replace(_ body: () -> Void, onChange: @escaping @Sendable () -> Void) {
        current?.cancel()
        let made = CancellableObservation.track(enrolling: readsOtherObservables, body, onChange: onChange)
        current = made
        // From now on cancellable through Observation too, so a drawing leaves none behind.
        if made.othersObserved { readsOtherObservables = true }
    }
}
