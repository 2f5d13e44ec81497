#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Observation
import Synchronization

/// Observes which state a closure reads, as `withObservationTracking` does, and tells once when
/// any of it changes. `withTracking` is what views, the host's chrome and logic observers use.
///
/// The store's boxes are tracked here directly: a read inside `track` adds the scope's observer
/// to the box's `StateWatchers` instead of going through Observation's registrar, which hashed
/// the key path into an access list and installed, then cancelled, an observer per key path on
/// every evaluation (a tenth of a key's cost in the tabs benchmark). Everything else that is
/// `Observable` (an `@ObservedDependency` model, the logic layer's action log, a view's local
/// state) is still observed through Observation, in the same scope.
///
/// Invariants:
/// - Scopes belong to a thread and nest: a read is recorded by the innermost scope and every scope
///   around it, as Observation merges nested scopes' reads into the outer ones.
/// - A box read on a thread with no scope registers with Observation as before, so
///   `withObservationTracking` and `Observations` outside these scopes see every read. Inside a
///   scope, use `withTracking` (not `withObservationTracking`) to observe a part on its own.
///
/// ```swift
/// let observer = StateObserver { host.setNeedsDisplay() }
/// let text = StateTracking.withTracking({ counter.value.description }, observer: observer)
/// counter.value += 1        // observer's closure runs, once
/// ```
public enum StateTracking {
    /// How many scopes are open on any thread: a read with none looks no further. Each box's
    /// watchers keep its address, so the check inlined into a client is two loads, not a call
    /// to this module's accessor for the global.
    @usableFromInline nonisolated(unsafe) static let openScopes: UnsafeMutablePointer<Atomic<Int>> = {
        let count = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        count.initialize(to: Atomic(0))
        return count
    }()

    /// The innermost open scope of the current thread.
    private static let currentScope: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "StateTracking: no thread-local key left")
        return key
    }()

    /// The reads of one `track` call, on its thread.
    private final class Scope {
        let observer: StateObserver
        let parent: Scope?
        /// The boxes already recorded (a view reads the same state many times), held so that an
        /// identity cannot be reused by another box while the scope is open. Touched by the
        /// scope's own thread only: no run-time exclusivity check per read.
        @exclusivity(unchecked) private var seen: [StateWatchers] = []
        @exclusivity(unchecked) private var seenSet: Set<ObjectIdentifier>?

        init(observer: StateObserver, parent: Scope?) {
            self.observer = observer
            self.parent = parent
        }

        func record(_ watchers: StateWatchers) {
            if isNew(watchers) { watchers.add(observer) }
            parent?.record(watchers)
        }

        private func isNew(_ watchers: StateWatchers) -> Bool {
            if seenSet != nil {
                guard seenSet!.insert(ObjectIdentifier(watchers)).inserted else { return false }
                seen.append(watchers)
                return true
            }
            for known in seen where known === watchers { return false }
            seen.append(watchers)
            // Many boxes (a long list whose rows read state of their own): a set from here on.
            if seen.count > 32 { seenSet = Set(seen.map(ObjectIdentifier.init)) }
            return true
        }
    }

    /// Runs `body`, adding `observer` to every store box it reads (and to what scopes around this
    /// one read); other `Observable`s are not tracked here (see `withTracking`).
    public static func track<R>(_ observer: StateObserver, _ body: () throws -> R) rethrows -> R {
        let parent = pthread_getspecific(currentScope).map { Unmanaged<Scope>.fromOpaque($0).takeUnretainedValue() }
        let scope = Scope(observer: observer, parent: parent)
        pthread_setspecific(currentScope, Unmanaged.passUnretained(scope).toOpaque())
        openScopes.pointee.add(1, ordering: .relaxed)
        defer {
            openScopes.pointee.subtract(1, ordering: .relaxed)
            pthread_setspecific(currentScope, parent.map { Unmanaged.passUnretained($0).toOpaque() })
        }
        return try withExtendedLifetime(scope) { try body() }
    }

    /// Runs `body` observing everything it reads: store boxes here, any other `Observable` through
    /// `withObservationTracking`. `observer` is told once, when the first of them changes.
    public static func withTracking<R>(_ body: () -> R, observer: StateObserver) -> R {
        withObservationTracking {
            track(observer, body)
        } onChange: {
            observer.fire()
        }
    }

    /// Records a read of the box that `watchers` belongs to into the current thread's scope;
    /// false when no scope is open on this thread (the caller registers with Observation).
    @inlinable @inline(__always)
    public static func recordRead(_ watchers: StateWatchers) -> Bool {
        watchers.openScopes.pointee.load(ordering: .relaxed) != 0 && recordInScope(watchers)
    }

    @usableFromInline
    static func recordInScope(_ watchers: StateWatchers) -> Bool {
        guard let raw = pthread_getspecific(currentScope) else { return false }
        Unmanaged<Scope>.fromOpaque(raw).takeUnretainedValue().record(watchers)
        return true
    }

    /// Whether a scope is open on the current thread (tests).
    static var isTracking: Bool { pthread_getspecific(currentScope) != nil }
}
