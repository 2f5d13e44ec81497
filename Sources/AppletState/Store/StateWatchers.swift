import Synchronization

/// The observers waiting for one state box to change: what Observation's registrar does for a
/// box, for the reads made inside `StateTracking.track` (a view's evaluation, the host's chrome),
/// at a fraction of its cost. A read there adds the scope's `StateObserver` here (once per scope);
/// a change takes every waiting observer out and tells each, once.
///
/// Measured on the tabs benchmark: Observation spent about 40,000 instructions per evaluated view
/// (hashing each key path into its access list, installing an observer per key path, cancelling
/// it), a tenth of a key's cost; an observer here is an array append under a lock.
///
/// Invariants:
/// - An observer is told at most once (`StateObserver.fire`), on the thread that made the change,
///   after the new value is stored: an observer that reads at once sees the new value.
/// - Observers that were cancelled or told are dropped when the next observer is added, so a box
///   read on every frame holds only the observers that are still waiting.
///
/// ```swift
/// let watchers = StateWatchers()
/// watchers.add(observer)     // a tracked read
/// watchers.notify()          // a change: observer.fire(), once
/// ```
public final class StateWatchers: Sendable {
    private let waiting = Mutex<[StateObserver]>([])
    /// How many observers are waiting: a change with none takes no lock.
    @usableFromInline let count = Atomic<Int>(0)
    /// `StateTracking.openScopes`, kept here for reads inlined into other modules.
    @usableFromInline nonisolated(unsafe) let openScopes = StateTracking.openScopes

    public init() {}

    /// Adds `observer`, to be told of the next change.
    public func add(_ observer: StateObserver) {
        waiting.withLock { list in
            if list.count >= 4 { list.removeAll { $0.isFinished } }
            list.append(observer)
            count.store(list.count, ordering: .sequentiallyConsistent)
        }
    }

    /// Tells every waiting observer that the value changed (call it after storing the new value).
    /// The window between a read and its observer being added here is covered by the store's
    /// change count, which the host compares around each frame, as with Observation.
    @inlinable @inline(__always)
    public func notify() {
        guard count.load(ordering: .sequentiallyConsistent) > 0 else { return }
        notifyWaiting()
    }

    @usableFromInline @inline(never)
    func notifyWaiting() {
        let told = waiting.withLock { list -> [StateObserver] in
            let taken = list
            list.removeAll(keepingCapacity: true)
            count.store(0, ordering: .sequentiallyConsistent)
            return taken
        }
        for observer in told { observer.fire() }
    }

    /// How many observers are waiting (tests).
    var waitingCount: Int { waiting.withLock { $0.filter { !$0.isFinished }.count } }
    /// How many observers are held, ended ones not yet dropped included (tests).
    var heldCount: Int { waiting.withLock { $0.count } }
}

/// One observation made by `StateTracking.track`: told once, when any box its scope read changes,
/// unless cancelled first.
///
/// ```swift
/// let observer = StateObserver { redraw() }
/// observer.cancel()   // a newer observation replaces it: never told
/// ```
public final class StateObserver: Sendable {
    /// 0 waiting, 1 told or cancelled.
    private let state = Atomic<Int>(0)
    private let onChange: @Sendable () -> Void

    public init(onChange: @escaping @Sendable () -> Void) { self.onChange = onChange }

    /// Runs `onChange`, the first time only, unless cancelled.
    public func fire() {
        guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return }
        onChange()
    }

    /// Makes the observation end without telling anyone.
    public func cancel() { state.store(1, ordering: .releasing) }

    /// Told or cancelled: it waits for nothing any more.
    public var isFinished: Bool { state.load(ordering: .acquiring) != 0 }
}
