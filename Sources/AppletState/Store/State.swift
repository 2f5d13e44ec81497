import Observation
import Synchronization

extension Application {
    /// In-memory state in the store: a handle to one value, shared by everyone who declares the same id.
    /// (`Application.State`, as in AppState; a view's own `@State` is AppletUI's `State`.)
    ///
    /// Reading `value` inside a view registers the view as an observer; writing it redraws those views.
    ///
    /// ```swift
    /// extension Application {
    ///     public var counter: State<Int> { state(initial: 0, id: "counter") }
    /// }
    /// let counter = Application.state(\.counter)
    /// counter.value += 1
    /// counter.modify { $0 *= 2 }   // atomic read-modify-write
    /// for await value in counter.changes { print(value) }
    /// ```
    public struct State<Value: Sendable>: BoxedState, MutableApplicationState {
        @usableFromInline let box: StateBox<Value>

        @usableFromInline init(box: StateBox<Value>) { self.box = box }

        /// The current value. Setting it notifies observers.
        ///
        /// Inlinable down to the box's lock, so that a client module specializes a read or a
        /// write for its `Value` instead of running generic code.
        @inlinable public var value: Value {
            get { box.value }
            nonmutating set { box.set(newValue) }
        }

        /// Changes the value atomically (no other write can come in between) and notifies once.
        @discardableResult
        public func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R {
            try box.modify(change)
        }

        /// A binding that reads and writes this state (for widgets that edit a value).
        public var binding: Binding<Value> {
            let box = self.box
            return Binding(get: { box.value }, set: { box.set($0) })
        }

        /// Every value this state takes from now on, for code outside views (tasks, services).
        /// The sequence ends when the consuming task is cancelled.
        public var changes: AsyncStream<Value> { box.changes() }

        /// Puts the value back to the declared initial value (`Application.reset(\.key)`).
        public func reset() { box.reset() }
    }
}

/// Anything the store keeps under a key: state boxes, dependency boxes, and the store's own
/// machinery (the persistence engine, the sync watcher).
protocol StateStorage: AnyObject, Sendable {
    /// The type of value kept, for messages about a key declared with two types.
    static var valueTypeName: String { get }
    /// Tells everyone who read the value that it changed, though it did not
    /// (`Application.notifyChange()`); the store's machinery has no readers.
    func notifyObservers()
    /// The value as `Application.description` shows it, cut to `limit` characters; nil for the
    /// store's machinery, which holds no value. Never asked of a secret.
    func described(limit: Int) -> DescribedValue?
}

extension StateStorage {
    static var valueTypeName: String { "\(Self.self)" }
    func notifyObservers() {}
    func described(limit: Int) -> DescribedValue? { nil }
}

/// Any kind of state whose value can be read, written and changed atomically: `State`,
/// `StoredState`, `FileState`, `SecureState`, `SyncState`. Slices work over all of them.
///
/// ```swift
/// func reset<S: MutableApplicationState>(_ state: S) where S.Value == Int { state.value = 0 }
/// ```
public protocol MutableApplicationState<Value>: Sendable {
    associatedtype Value: Sendable
    var value: Value { get nonmutating set }
    @discardableResult
    func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R
    /// Every value this state takes from now on.
    var changes: AsyncStream<Value> { get }
}

/// A kind of state: a small handle around the box that holds the value. Every kind (`State`,
/// `StoredState`, `FileState`, `SecureState`, `SyncState`) is one, so they all resolve through
/// the store's key path cache and share the box's observation, `modify` and `changes`.
protocol BoxedState: Sendable {
    associatedtype Value: Sendable
    var box: StateBox<Value> { get }
    init(box: StateBox<Value>)
}

/// The storage cell behind every kind of state: a lock-protected value, an Observation registrar
/// for views, continuations for `changes`, and an optional hook that persists or syncs each change.
///
/// `value` and `set` are `@inlinable` (with what they touch `@usableFromInline`): `State.value`
/// inlines into the client, which then specializes them for its `Value`.
@usableFromInline
final class StateBox<Value: Sendable>: StateStorage, Observable, @unchecked Sendable {
    @usableFromInline let storage: ValueLock<Value>
    /// Observers of reads made inside `StateTracking` scopes (views, the host's chrome).
    @usableFromInline let watchers = StateWatchers()
    /// Observers of reads made anywhere else (`withObservationTracking`, `Observations`).
    @usableFromInline let registrar = ObservationRegistrar()
    /// The declaration's key, for logs and errors.
    @usableFromInline let key: String
    /// Called after every change, outside the lock, with the new value (persistence, sync).
    @usableFromInline let didChange: (@Sendable (Value) -> Void)?
    /// The declared initial value, for `reset()`.
    let initial: Value
    /// For kinds whose sets must be coordinated beyond this process (`SyncState`); set before
    /// the box is published, never changed after.
    var coordinator: ValueCoordinator<Value>?
    /// What `reset()` does for kinds that keep the value elsewhere too (files, other instances);
    /// nil: set `initial` like any other value.
    private let onReset: (@Sendable (StateBox<Value>) -> Void)?

    static var valueTypeName: String { "\(Value.self)" }

    /// The keeping store's change count: boxes are made inside `Application.box(key:make:)`,
    /// which makes its counter available while `make` runs.
    @usableFromInline let counter: ChangeCounter? = ChangeCounter.attaching

    @usableFromInline let subscriberCount = Atomic<Int>(0)
    private let subscribers = Mutex<[Int: AsyncStream<Value>.Continuation]>([:])
    private let nextSubscriber = Atomic<Int>(0)

    /// `\.value` made once (a key path into a generic class is otherwise instantiated and
    /// allocated at every use, on every read), kept where a set can tell that nobody observes it.
    @usableFromInline let observed: ObservedKeyPath<StateBox<Value>, Value>

    /// A box holding its initial value.
    convenience init(_ value: Value, key: String, didChange: (@Sendable (Value) -> Void)? = nil, onReset: (@Sendable (StateBox<Value>) -> Void)? = nil) {
        self.init(value, initial: value, key: key, didChange: didChange, onReset: onReset)
    }

    /// A box holding `value` (read from a file, say), whose declared initial value is `initial`.
    init(_ value: Value, initial: Value, key: String, didChange: (@Sendable (Value) -> Void)? = nil, onReset: (@Sendable (StateBox<Value>) -> Void)? = nil) {
        observed = ObservedKeyPath(Self.freshValueKeyPath)
        storage = ValueLock(value)
        self.initial = initial
        self.key = key
        self.didChange = didChange
        self.onReset = onReset
    }

    deinit { observed.free() }

    /// `\.value` as an object of this box's own: unspecialized, so that the runtime instantiates it
    /// here rather than handing out the one object it keeps for a concrete `StateBox<Int>`.
    @_semantics("optimize.sil.specialize.generic.never") @inline(never)
    static func freshValueKeyPath() -> KeyPath<StateBox<Value>, Value> { \StateBox<Value>.value }

    @inlinable var value: Value {
        // Recorded before the value is loaded: a change after this point finds the observer.
        if !StateTracking.recordRead(watchers) { observed.with { registrar.access(self, keyPath: $0) } }
        return storage.load()
    }

    /// The value without registering an observer (for persistence and sync).
    var untrackedValue: Value { storage.load() }

    // Observers are told *after* the new value is stored (willSet and didSet, back to back),
    // not before as `withMutation` does: an observer that redraws at once on another thread then
    // reads the new value, never the old one.

    @inlinable func set(_ newValue: Value) {
        storage.withLock { $0 = newValue }
        announce()
        changed(newValue)
    }

    func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R {
        var snapshot: Value?
        let result = try storage.withLock { value -> R in
            let r = try change(&value)
            snapshot = value
            return r
        }
        if let snapshot {
            announce()
            changed(snapshot)
        }
        return result
    }

    /// Replaces the value from outside (another process, a reload) without calling `didChange`:
    /// observers and subscribers hear of it, the hook that caused it does not.
    func setFromOutside(_ newValue: Value) {
        storage.withLock { $0 = newValue }
        announce()
        notifySubscribers(newValue)
    }

    /// Puts the value back to `initial`.
    func reset() {
        if let onReset { onReset(self) } else { set(initial) }
    }

    /// Sets `initial` without calling `didChange`, running `alongside` under the value's lock (so
    /// no write comes in between the two); observers and subscribers hear of it.
    func restoreInitial(alongside: () -> Void = {}) {
        storage.withLock { value in
            value = initial
            alongside()
        }
        announce()
        notifySubscribers(initial)
        StateLog.changed(key)
    }

    @inlinable @inline(__always)
    func announce() {
        // Counted first, so a host whose frame was being evaluated meanwhile sees it moved.
        counter?.count.add(1, ordering: .releasing)
        notifyObservers()
    }

    /// Tells the views and observers that read the value (the watchers of tracked reads, and
    /// Observation's for the rest) that it changed. `announce()` after a change; on its own for
    /// `Application.notifyChange()`, when something the store does not see changed.
    @inlinable @inline(__always)
    func notifyObservers() {
        watchers.notify()
        // Nobody observing: the registrar would take its lock twice to find no one to tell.
        guard observed.mayBeObserved else { return }
        observed.with { keyPath in
            registrar.willSet(self, keyPath: keyPath)
            registrar.didSet(self, keyPath: keyPath)
        }
    }

    func described(limit: Int) -> DescribedValue? {
        // Untracked: a view that prints the store must not start observing all of it.
        DescribedValue(key: key, type: Self.valueTypeName, value: StoreDump.render(untrackedValue, limit: limit))
    }

    // `changed` is inlinable too, so that a set specialized in a client stays specialized to the
    // end: an unspecialized call here looked up `StateBox<Value>`'s metadata at every set.
    @inlinable @inline(__always)
    func changed(_ newValue: Value) {
        didChange?(newValue)
        notifySubscribers(newValue)
        StateLog.changed(key)
    }

    @inlinable @inline(__always)
    func notifySubscribers(_ newValue: Value) {
        guard subscriberCount.load(ordering: .relaxed) > 0 else { return }
        yieldToSubscribers(newValue)
    }

    /// Hands a new value to every `changes()` sequence (out of line: the rare case).
    @usableFromInline @inline(never)
    func yieldToSubscribers(_ newValue: Value) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(newValue) }
    }

    func changes() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(64))
        let id = nextSubscriber.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id] = continuation }
        subscriberCount.add(1, ordering: .relaxed)
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.subscribers.withLock { _ = $0.removeValue(forKey: id) }
            self.subscriberCount.subtract(1, ordering: .relaxed)
        }
        return stream
    }
}
