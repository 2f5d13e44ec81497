import AppletState
import CustomDump

/// The state a `TestLogic` step should leave in the store, as the test writes it: it starts as the
/// store was before the step, and the test's closure sets what the step should have changed.
/// Every state declared in `extension Application` is reached by its key path.
///
/// ```swift
/// await test.send(.load("/a")) { state in
///     state[\.isLoading] = true                 // Application.State
///     state[\.history].append("/a")             // read (the value before the step) and change
///     state[\.savedFilter] = "cpu"              // StoredState, FileState, SyncState, SecureState
/// }
/// ```
///
/// After the closure, `TestLogic` compares every state the store holds with what it says: a state
/// the closure did not set must not have changed, and one it set must have that value. A state
/// used for the first time during the step counts as having held its declared initial value.
public struct ExpectedState {
    private let store: Application
    private let before: [ObjectIdentifier: StateValueSnapshot]
    /// What the closure set, by box.
    private(set) var assigned: [ObjectIdentifier: any Sendable] = [:]

    init(store: Application, before: [ObjectIdentifier: StateValueSnapshot]) {
        self.store = store
        self.before = before
    }

    /// In-memory state: `state[\.count] = 2`.
    public subscript<Value>(_ key: KeyPath<Application, Application.State<Value>>) -> Value {
        get { value(of: store[keyPath: key]) }
        set { assigned[store[keyPath: key].storageID] = newValue }
    }

    /// Persistent state of any kind (`StoredState`, `FileState`, `SyncState`, `SecureState`):
    /// `state[\.launches] = 1`, `state[\.apiToken] = nil`.
    public subscript<Strategy>(_ key: KeyPath<Application, PersistentState<Strategy>>) -> Strategy.Value {
        get { value(of: store[keyPath: key]) }
        set { assigned[store[keyPath: key].storageID] = newValue }
    }

    /// What the test expects of `handle` so far: what the closure set, else the value before the
    /// step, else (first used now) the declared initial value.
    private func value<Handle: StoreStateHandle>(of handle: Handle) -> Handle.Value {
        let id = handle.storageID
        if let set = assigned[id] as? Handle.Value { return set }
        if let old = before[id]?.value as? Handle.Value { return old }
        if let initial = store.stateValues().first(where: { $0.id == id })?.initial as? Handle.Value { return initial }
        return handle.value
    }
}
