import AppletState
import Observation
import Synchronization

/// Makes an observation installed with `withObservationTracking` cancellable, which Observation
/// itself does not offer: an observation stays registered with everything it read until one of
/// those values changes, so a view drawn again for another reason (its widgets took a key, the
/// chrome around it changed) would leave its last observation behind, holding memory and a
/// stale notification, for as long as the values it read stayed put.
///
/// The tracked closure reads this object's `marker` first; `cancel()` marks it cancelled and
/// announces a change of `marker`, which tells the observation (its `onChange` checks
/// `isCancelled` and does nothing) and so ends it: Observation lets go of everything it read.
/// `track` does all of that, and observes the store's boxes through `StateTracking` (cancelled
/// with the rest).
///
/// The marker costs an Observation install and cancel per drawing (~30,000 instructions), which
/// only pays for a closure that reads some other `Observable` (an `@ObservedDependency` model).
/// `track(enrolling: false)` leaves it out: a closure that reads nothing but the store then
/// costs Observation nothing, and `othersObserved` tells whether it read anything else, whose
/// one observation cannot be ended early (it is told once, at most, and ignored when cancelled);
/// the caller enrolls from then on. `ObservationSlot` does that for something drawn again and again.
///
/// ```swift
/// last?.cancel()
/// last = CancellableObservation.track { draw() } onChange: { redraw() }
/// ```
public final class CancellableObservation: Observable, Sendable {
    private let registrar = ObservationRegistrar()
    private let cancelled = Atomic<Bool>(false)
    /// Told when what the tracked closure read changes, by a box or by Observation, once.
    private let observer: StateObserver?
    /// Whether Observation installed an observation for this one (always, when enrolled).
    private let observedOthers = Atomic<Bool>(false)

    public init() { observer = nil }

    private init(observer: StateObserver) { self.observer = observer }

    /// Runs `body` observing what it reads, as `withObservationTracking` does, through a new
    /// observation it returns: `onChange` runs once, on the thread that made the change, when
    /// something `body` read changes, unless the observation was cancelled first.
    /// - Parameter enrolling: read the marker, so that `cancel()` also ends what Observation
    ///   tracks (see the type's notes for when to leave it out).
    public static func track(enrolling: Bool = true, _ body: () -> Void, onChange: @escaping @Sendable () -> Void) -> CancellableObservation {
        let observation = CancellableObservation(observer: StateObserver(onChange: onChange))
        let observer = observation.observer!
        // `onChange` is evaluated only when Observation has something to install: an empty
        // access list (the store's reads go to `StateTracking`) costs nothing more.
        withObservationTracking({
            if enrolling { observation.enroll() }
            StateTracking.track(observer, body)
        }, onChange: observation.installing())
        return observation
    }

    /// Notes that Observation is installing an observation for this one; its change handler.
    private func installing() -> @Sendable () -> Void {
        observedOthers.store(true, ordering: .relaxed)
        return { [observer] in observer?.fire() }
    }

    /// Whether the tracked closure read anything through Observation (the marker included).
    public var othersObserved: Bool { observedOthers.load(ordering: .relaxed) }

    /// What the tracked closure reads, so that `cancel()` can tell its observation.
    public var marker: Int { 0 }

    /// Ties the observation being made to this object; call it inside the tracked closure.
    public func enroll() { registrar.access(self, keyPath: \.marker) }

    /// Whether `cancel()` was called (an `onChange` that sees it does nothing).
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Ends the observation: it is told once (and ignores it), then observes nothing.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        observer?.cancel()
        // Nothing installed through Observation (no marker, no other Observable): nothing to end.
        guard othersObserved else { return }
        registrar.willSet(self, keyPath: \.marker)
        registrar.didSet(self, keyPath: \.marker)
    }
}
