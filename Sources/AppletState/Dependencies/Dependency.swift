import Logging
import Observation
import Synchronization

/// A service the app uses (a clock, an HTTP client, a model), kept in the store so that every
/// applet shares one instance and tests can swap in a fake.
///
/// Declared like state, as a computed property in an `extension Application`; the value is made
/// on first access only, once per store.
///
/// ```swift
/// extension Application {
///     public var clock: Dependency<any AppClock> { dependency(SystemAppClock()) }
/// }
///
/// let clock = Application.dependency(\.clock)                  // the value
/// let token = Application.override(\.clock, with: FakeClock())  // tests swap in fakes
/// token.cancel()                                                // the real clock is back
/// ```
///
/// Reading `value` inside a view registers the view as an observer of the dependency: the view is
/// redrawn when the dependency is overridden (or the override is cancelled).
public struct Dependency<Value: Sendable>: Sendable {
    let box: DependencyBox<Value>

    init(box: DependencyBox<Value>) { self.box = box }

    /// The value in effect: the innermost active override, else the declared one.
    public var value: Value { box.value }
}

extension Application {
    // MARK: Declaring dependencies

    /// Declares (or finds) a dependency. `value` runs on the first access in each store only,
    /// outside the store's lock, so it may read other dependencies.
    ///
    /// The id defaults to the declaring property's name; give one explicitly in a subscript (all
    /// of a subscript's instances would otherwise share one key). The registry key is
    /// `"Dependency.<feature>.<id>"`. As with state, two declarations of one key from different
    /// places, one of them without an id, are reported in `storeIssues`.
    ///
    /// ```swift
    /// extension Application {
    ///     public var clock: Dependency<any AppClock> { dependency(SystemAppClock()) }
    ///     public var weather: Dependency<WeatherService> {
    ///         dependency(WeatherService(clock: Application.dependency(\.clock)), feature: "Weather")
    ///     }
    /// }
    /// ```
    public func dependency<Value: Sendable>(
        _ value: @autoclosure () -> Value,
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Dependency<Value> {
        let key = "Dependency.\(feature).\(id ?? function)"
        let box = self.box(
            key: key,
            declaration: Declaration(derived: id == nil, fileID: fileID, line: line),
            make: { DependencyBox<Value>(key: key) },
            fallback: { DependencyBox<Value>(key: $0) }
        )
        box.initializeIfNeeded(value)
        return Dependency(box: box)
    }

    // MARK: Using dependencies

    /// The value of the dependency at `keyPath` in the current store (the innermost override, if any).
    ///
    /// ```swift
    /// let now = Application.dependency(\.clock).now
    /// ```
    public static func dependency<Value>(_ keyPath: KeyPath<Application, Dependency<Value>>) -> Value {
        withCurrentUnretained { $0.resolveDependency(keyPath) }.value
    }

    /// Replaces the dependency at `keyPath` in the current store with `value` until the returned
    /// token is cancelled or released. Overrides nest: cancelling one removes just that one, and
    /// once all are cancelled (in any order) the original value is back.
    ///
    /// ```swift
    /// let token = Application.override(\.clock, with: FakeClock())
    /// defer { token.cancel() }
    /// ```
    public static func override<Value>(_ keyPath: KeyPath<Application, Dependency<Value>>, with value: Value) -> OverrideToken {
        let box = withCurrentUnretained { $0.resolveDependency(keyPath) }.box
        let id = box.push(value)
        return OverrideToken { box.remove(id) }
    }

    /// Resolves a dependency declaration through the key path cache (the declaration runs once per
    /// key path). Dependencies are never scoped, so every scope shares the entry of scope 0.
    @inline(__always)
    func resolveDependency<Value>(_ keyPath: KeyPath<Application, Dependency<Value>>) -> Dependency<Value> {
        if let box = keyPathCache.lookup(ObjectIdentifier(keyPath), scope: 0) {
            return Dependency(box: unsafeDowncast(box as AnyObject, to: DependencyBox<Value>.self))
        }
        let dependency = self[keyPath: keyPath]
        keyPathCache.insert(keyPath, scope: 0, box: dependency.box)
        return dependency
    }
}

/// Undoes one `Application.override(_:with:)`: call `cancel()`, or let the token go (its `deinit`
/// cancels). Cancelling twice does nothing.
///
/// ```swift
/// let token = Application.override(\.clock, with: FakeClock())
/// // ... code under test sees FakeClock ...
/// token.cancel()   // restores the value in place before the override
/// ```
public final class OverrideToken: Sendable {
    private let undo: Mutex<(@Sendable () -> Void)?>

    init(undo: @escaping @Sendable () -> Void) {
        self.undo = Mutex(undo)
    }

    /// Whether `cancel()` already ran.
    public var isCancelled: Bool { undo.withLock { $0 == nil } }

    /// Removes the override. The dependency goes back to the value it had under this override
    /// (an outer override or the original); cancelling an outer override first leaves the inner
    /// one in effect until it is cancelled too.
    public func cancel() {
        let work = undo.withLock { undo in
            defer { undo = nil }
            return undo
        }
        work?()
    }

    deinit { cancel() }
}

/// The storage cell behind a dependency: the value in effect, the stack of active overrides
/// with the declared value kept beneath them, and an Observation registrar so that overriding
/// redraws the views that read it.
///
/// The value in effect sits in its own slot so that a read is one lock and one copy, with no
/// generic wrapper types to instantiate (reads run in unspecialised generic code). Everything
/// else changes only on override, cancel and slice writes. All of it is guarded by `lock`.
final class DependencyBox<Value: Sendable>: DependencyStorage, Observable, @unchecked Sendable {
    private let lock = Mutex<Void>(())
    /// The value in effect; initialised once, when the declaration's value is made.
    private let slot: UnsafeMutablePointer<Value>
    private var made = false
    /// The declared value while at least one override is active (the slot holds the override's).
    private var base: Value?
    /// Active overrides, innermost last; the innermost one's value is kept equal to the slot's.
    private var overrides: [(id: Int, value: Value)] = []
    private var nextID = 0
    /// Whether `promote(_:)` replaced the declared value (for `Application.description`).
    private var promoted = false

    private let ready = Atomic<Bool>(false)
    private let registrar = ObservationRegistrar()
    private let valueKeyPath: KeyPath<DependencyBox<Value>, Value>
    /// The registry key, for logs and errors.
    let key: String

    static var valueTypeName: String { "\(Value.self)" }

    init(key: String) {
        self.key = key
        valueKeyPath = \DependencyBox<Value>.value
        slot = .allocate(capacity: 1)
    }

    deinit {
        if made { slot.deinitialize(count: 1) }
        slot.deallocate()
    }

    /// Makes the value with `make` unless it exists. Concurrent first accesses wait for the one
    /// that makes it, so `make` runs once per store.
    @inline(__always)
    func initializeIfNeeded(_ make: () -> Value) {
        if ready.load(ordering: .acquiring) { return }
        initializeSlow(make)
    }

    private func initializeSlow(_ make: () -> Value) {
        let making = DependencyMaking.keys
        if making.contains(key) {
            preconditionFailure("dependency cycle: \((making + [key]).joined(separator: " -> "))")
        }
        DependencyMaking.$keys.withValue(making + [key]) {
            lock.withLock { _ in
                if !made {
                    slot.initialize(to: make())
                    made = true
                }
            }
        }
        ready.store(true, ordering: .releasing)
    }

    /// The value in effect; registers an observer when read inside a view.
    var value: Value {
        registrar.access(self, keyPath: valueKeyPath)
        return lock.withLock { _ in slot.pointee }
    }

    /// The value in effect, without registering an observer.
    var untrackedValue: Value { lock.withLock { _ in slot.pointee } }

    /// Changes the value in effect (the innermost override, else the declared value) atomically.
    func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R {
        try registrar.withMutation(of: self, keyPath: valueKeyPath) {
            try lock.withLock { _ in
                let result = try change(&slot.pointee)
                if !overrides.isEmpty { overrides[overrides.count - 1].value = slot.pointee }
                return result
            }
        }
    }

    /// Runs `change` on the object in effect (a class: its properties change in place) and then
    /// tells whoever read the dependency, unless the object is `Observable` and tells them itself.
    /// A plain class's properties are not observable; this is how a view that read one through the
    /// store hears that it was set through the store.
    func changeObject<R>(_ change: (Value) throws -> R) rethrows -> R {
        let object = untrackedValue
        let result = try change(object)
        if !(object is any Observable) { notifyObservers() }
        return result
    }

    /// Puts `value` on top of the override stack; returns the id to remove it with.
    func push(_ value: Value) -> Int {
        let id = registrar.withMutation(of: self, keyPath: valueKeyPath) {
            lock.withLock { _ in
                if overrides.isEmpty { base = slot.pointee }
                let id = nextID
                nextID += 1
                overrides.append((id, value))
                slot.pointee = value
                return id
            }
        }
        StateLog.logger.debug("dependency overridden", metadata: ["key": "\(key)", "override": "\(id)"])
        return id
    }

    /// Replaces the declared value for the rest of this store's life (`Application.promote(_:with:)`).
    /// Overrides in effect stay in effect above it: they are a test's or a host's, for a while,
    /// and the promoted value is what they give way to when they end.
    func promote(_ value: Value) {
        let changesValueInEffect = lock.withLock { _ -> Bool in
            promoted = true
            guard overrides.isEmpty else {
                base = value
                return false
            }
            slot.pointee = value
            return true
        }
        if changesValueInEffect { notifyObservers() }
        StateLog.logger.debug("dependency promoted", metadata: ["key": "\(key)"])
    }

    /// Tells whoever read the dependency that it changed (an override, a promotion, a property of
    /// a plain class set through the store, or `Application.notifyChange()`).
    func notifyObservers() {
        registrar.willSet(self, keyPath: valueKeyPath)
        registrar.didSet(self, keyPath: valueKeyPath)
    }

    func described(limit: Int) -> DescribedValue? {
        // Being made (on this thread, its lock held around `make`, or on another):
        // said so, without waiting for the lock.
        guard ready.load(ordering: .acquiring) else {
            return DescribedValue(key: key, type: Self.valueTypeName, value: "(being made)")
        }
        let (value, overridden, wasPromoted) = lock.withLock { _ -> (Value, Int, Bool) in (slot.pointee, overrides.count, promoted) }
        var notes: [String] = []
        if wasPromoted { notes.append("promoted") }
        if overridden == 1 { notes.append("overridden") } else if overridden > 1 { notes.append("overridden \(overridden) times") }
        return DescribedValue(key: key, type: Self.valueTypeName, value: StoreDump.render(value, limit: limit), notes: notes)
    }

    /// Removes the override `id`, wherever it is in the stack: the value in effect becomes the
    /// next override down, or the declared value once none is left.
    func remove(_ id: Int) {
        registrar.withMutation(of: self, keyPath: valueKeyPath) {
            lock.withLock { _ in
                guard let index = overrides.firstIndex(where: { $0.id == id }) else { return }
                overrides.remove(at: index)
                guard index == overrides.count else { return }   // an outer one: the slot keeps the top's
                if let top = overrides.last {
                    slot.pointee = top.value
                } else if let declared = base {
                    slot.pointee = declared
                    base = nil
                }
            }
        }
        StateLog.logger.debug("dependency override cancelled", metadata: ["key": "\(key)", "override": "\(id)"])
    }
}

/// The keys of the dependencies whose values this task is making, to report a cycle instead of
/// deadlocking (a static stored property cannot live in the generic box).
enum DependencyMaking {
    @TaskLocal static var keys: [String] = []
}
