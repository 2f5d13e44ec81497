import AppletState
import Observation
import Synchronization

/// Makes an observation installed with `withObservationTracking` cancellable, which Observation
/// itself does not offer: an observation stays registered with everything it read until one of
/// those values changes, so a view drawn again for another reason (its widgets took a key, the
/// chrome around it changed) left its last observation behind, about 3 KB and a stale
/// notification each, for as long as the values it read stayed put.
///
/// The tracked closure reads this object's `marker` first; `cancel()` marks it cancelled and
/// announces a change of `marker`, which tells the observation (its `onChange` checks
/// `isCancelled` and does nothing) and so ends it: Observation lets go of everything it read.
/// `track` does all of that, and observes the store's boxes through `StateTracking` (cancelled
/// with the rest).
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

    public init() { observer = nil }

    private init(observer: StateObserver) { self.observer = observer }

    /// Runs `body` observing what it reads, as `withObservationTracking` does, through a new
    /// observation it returns: `onChange` runs once, on the thread that made the change, when
    /// something `body` read changes, unless the observation was cancelled first.
    public static func track(_ body: () -> Void, onChange: @escaping @Sendable () -> Void) -> CancellableObservation {
        let observation = CancellableObservation(observer: StateObserver(onChange: onChange))
        StateTracking.withTracking({
            observation.enroll()
            body()
        }, observer: observation.observer!)
        return observation
    }

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
        registrar.willSet(self, keyPath: \.marker)
        registrar.didSet(self, keyPath: \.marker)
    }
}
