#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock the thread that holds it may take again (a POSIX recursive mutex).
///
/// `Mutex` is not re-entrant, and Foundation's `NSRecursiveLock` would link all of Foundation
/// (about 4 MB of every app's memory) for one class. A `SyncFile` needs re-entry: an observer told
/// of a change, under the lock, may set the value again.
///
/// ```swift
/// let lock = RecursiveLock()
/// lock.withLock { lock.withLock { /* the same thread: no deadlock */ } }
/// ```
package final class RecursiveLock: @unchecked Sendable {
    // Allocated once and never moved: a pthread mutex must keep its address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
