#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a plain `pthread_mutex_t`, for the one place where lock cost is the budget:
/// the value of a state box, read on every `get`. Measured on Linux (release, uncontended):
/// Synchronization's `Mutex` 33 ns per lock/unlock (a priority-inheriting futex keyed by the
/// thread id), this lock 15 ns. Everywhere else the store uses `Mutex`.
///
/// `@usableFromInline` with an `@inlinable` `withLock`: a client module that reads a state's value
/// specializes the whole read down to the lock (see `StateBox.value`).
@usableFromInline
final class ValueLock<Value>: @unchecked Sendable {
    // pthread mutexes must not move: allocated once, never copied.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Only touched under `mutex`, which already makes every access exclusive: unchecked, so that
    /// the inlined reads and writes in client modules do not each call the runtime's dynamic
    /// exclusivity check (`swift_beginAccess`, as costly as the lock itself).
    @exclusivity(unchecked) @usableFromInline var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable @inline(__always)
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
