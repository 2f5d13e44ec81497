/// A value that outlives the process, kept the way its `Strategy` says: `StoredState`,
/// `FileState`, `SecureState` and `SyncState` are this type with their strategy, and a kind of
/// your own (`PersistenceStrategy`) is too.
///
/// Reads cost what `State` reads cost (it is the same box). A set records the value in memory,
/// tells observers and hands the change to the strategy: at once, or gathered into one write
/// shortly after (`PersistenceStrategy.timing`). `reset()` puts the declared initial value back
/// and removes the saved one.
///
/// ```swift
/// extension Application {
///     var motd: PersistentState<TextFile> { persistentState(TextFile(path: "/tmp/motd.txt"), initial: "") }
/// }
///
/// Application.state(\.motd).value = "Back at 3"
///
/// struct Banner: View {
///     @PersistentState(\.motd) var motd          // `$motd` is a Binding
///     var body: some View { Text(motd) }
/// }
/// ```
@propertyWrapper
public struct PersistentState<Strategy: PersistenceStrategy>: BoxedState, MutableApplicationState {
    public typealias Value = Strategy.Value

    private let core: HandleCore<PersistentState<Strategy>>

    init(box: StateBox<Value>) { core = HandleCore(box: box) }

    /// The property wrapper: `@StoredState(\.counter) var count` reads and writes the value in the current store.
    public init(_ keyPath: any KeyPath<Application, PersistentState<Strategy>> & Sendable) { core = HandleCore(keyPath: keyPath) }

    /// The property wrapper, for a key path that is not `Sendable` (to a main-actor property):
    /// made on the main actor and used there only (checked at every access).
    @MainActor
    public init(_ keyPath: KeyPath<Application, PersistentState<Strategy>>) { core = HandleCore(mainActorKeyPath: keyPath) }

    var box: StateBox<Value> { core.box }

    /// The current value. Setting it notifies observers and saves it.
    public var value: Value {
        get { core.value }
        nonmutating set {
            // Only at-once kinds have coordinators: for the others this folds away once specialized.
            if Strategy.timing == .atOnce, let coordinator = core.box.coordinator {
                return coordinator.set(newValue, in: core.box)
            }
            core.value = newValue
        }
    }

    /// Changes the value atomically (no other write can come in between; for `SyncState`, none
    /// from another instance either), notifies once and saves.
    @discardableResult
    public func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R {
        if Strategy.timing == .atOnce, let coordinator = core.box.coordinator {
            return try coordinator.modify(core.box, change)
        }
        return try core.modify(change)
    }

    /// A binding that reads and writes this state.
    public var binding: Binding<Value> {
        let state = PersistentState(box: core.box)
        return Binding(get: { state.value }, set: { state.value = $0 })
    }

    /// Every value this state takes from now on, wherever it was set (ends when the consuming
    /// task is cancelled).
    public var changes: AsyncStream<Value> { core.changes }

    /// Puts the value back to the declared initial value and removes the saved one, so the next
    /// run starts from the initial value too.
    public func reset() { core.box.reset() }

    public var wrappedValue: Value {
        get { value }
        nonmutating set { value = newValue }
    }

    /// A binding to the value, resolved in the current store at every access.
    public var projectedValue: Binding<Value> {
        let state = self
        return Binding(get: { state.value }, set: { state.value = $0 })
    }
}

extension Application {
    /// Declares (or finds) a value kept by `strategy`: the first access loads the saved value, or
    /// uses `initial`.
    ///
    /// ```swift
    /// extension Application {
    ///     var motd: PersistentState<TextFile> { persistentState(TextFile(path: "/tmp/motd.txt"), initial: "") }
    /// }
    /// ```
    public func persistentState<Strategy: PersistenceStrategy>(
        _ strategy: Strategy,
        initial: @autoclosure () -> Strategy.Value,
        fileID: String = #fileID,
        line: Int = #line
    ) -> PersistentState<Strategy> {
        PersistentState(box: persistentBox(strategy, declaration: Declaration(derived: false, fileID: fileID, line: line), initial: initial))
    }

    /// The persistent state at `keyPath` in the current store, whatever its kind.
    ///
    /// ```swift
    /// Application.state(\.counter).value += 1      // a StoredState
    /// Application.state(\.apiToken).value = nil     // a SecureState
    /// ```
    public static func state<Strategy>(_ keyPath: KeyPath<Application, PersistentState<Strategy>>) -> PersistentState<Strategy> {
        // Not `handle(_:)`: resolving the concrete type here calls its `init(box:)` directly
        // instead of through the protocol witness table (a few ns per access).
        withCurrentUnretained { $0.resolve(keyPath) }
    }

    /// Puts the persistent state at `keyPath` back to its declared initial value and removes the
    /// saved one (the store file's key, the file, the secret; in every instance, for `SyncState`).
    ///
    /// ```swift
    /// Application.reset(\.launches)
    /// ```
    public static func reset<Strategy>(_ keyPath: KeyPath<Application, PersistentState<Strategy>>) {
        state(keyPath).reset()
    }
}

/// A kind whose sets and changes must be coordinated beyond this process (`SyncState`: under a
/// lock other instances take, on the newest value any of them wrote). Attached to the box; only
/// at-once kinds have one.
class ValueCoordinator<Value: Sendable>: @unchecked Sendable {
    func set(_ value: Value, in box: StateBox<Value>) { box.set(value) }
    func modify<R>(_ box: StateBox<Value>, _ change: (inout Value) throws -> R) rethrows -> R { try box.modify(change) }
}
