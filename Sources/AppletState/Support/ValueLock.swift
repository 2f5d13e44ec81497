#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A value behind a plain `pthread_mutex_t`, for the one place where lock cost is the budget:
/// the value of a state box, read on every `get`. On Linux Synchronization's `Mutex` is a
/// priority-inheriting futex keyed by the thread id, about twice the cost of a plain mutex
/// uncontended (StoreBenchmarks has the figures). Everywhere else the store uses `Mutex`.
///
/// A value that is plain bits and fits in 8 bytes (`Int`, `Bool`, `Double`, small enums) is
/// also kept in an atomic word, written under the lock after every change: `load()` reads that
/// word and takes no lock. Writes, and `modify`'s read-change-write, still take the lock, so
/// they stay atomic with one another; a read sees the value before or after a write, never a mix.
///
/// `@usableFromInline` with `@inlinable` accessors: a client module that reads a state's value
/// specializes the whole read (see `StateBox.value`), and the check for the atomic word folds away.
@usableFromInline
final class ValueLock<Value>: @unchecked Sendable {
    // pthread mutexes must not move: allocated once, never copied.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Only touched under `mutex`, which already makes every access exclusive: unchecked, so that
    /// the inlined reads and writes in client modules do not each call the runtime's dynamic
    /// exclusivity check (`swift_beginAccess`, as costly as the lock itself).
    @exclusivity(unchecked) @usableFromInline var value: Value
    /// `value`'s bits when `isWord`, stored under `mutex` after each change (release), read
    /// without it (acquire).
    @usableFromInline let word: Atomic<UInt64>

    /// Whether `Value` is kept in `word` too: plain bits (no references to count), at most 8 bytes.
    /// A constant once specialized.
    @inlinable
    static var isWord: Bool { _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<UInt64>.size }

    init(_ value: Value) {
        self.value = value
        word = Atomic(Self.isWord ? Self.bits(of: value) : 0)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value under the lock; a change it makes is published to `word` before
    /// the lock is released.
    @inlinable @inline(__always)
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer {
            if Self.isWord { word.store(Self.bits(of: value), ordering: .releasing) }
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// The current value: from `word` without the lock when `isWord`, else under the lock.
    @inlinable @inline(__always)
    func load() -> Value {
        if Self.isWord { return Self.value(of: word.load(ordering: .acquiring)) }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return value
    }

    /// Only for `isWord` types (plain bits, at most 8 bytes).
    @inlinable @inline(__always)
    static func bits(of value: Value) -> UInt64 {
        var bits: UInt64 = 0
        withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: value, as: Value.self) }
        return bits
    }

    /// Only for `isWord` types, with bits made by `bits(of:)`.
    @inlinable @inline(__always)
    static func value(of bits: UInt64) -> Value {
        withUnsafeBytes(of: bits) { $0.load(as: Value.self) }
    }
}
