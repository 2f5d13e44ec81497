/// State that survives restarts: kept in the app's one JSON store file,
/// `<storage.directory>/<storage.appID>.json` (folder 0700, file 0600), under the key "Feature.id".
///
/// Reads cost what `State` reads cost (it is the same box). A set only records the value in
/// memory and marks the key changed; one write ~100 ms later saves every key changed by then,
/// atomically (temporary file, fsync, rename). `Application.shared.flush()` saves at once; hosts call it
/// on quit and on SIGTERM/SIGHUP/SIGINT.
///
/// The file is read at the first `StoredState` access and each key is decoded at its own first
/// access. A value saved before its type gained a field still loads: the saved JSON is laid over
/// the declaration's initial value, so the new field takes its initial value (and a stored
/// dictionary gets back the initial value's keys that it lacks). A damaged file is moved aside and
/// a key that no longer decodes starts from its initial value; both are reported once in
/// `storeIssues`.
///
/// ```swift
/// extension Application {
///     public var counter: StoredState<Int> { storedState(initial: 0, feature: "Counter", id: "count") }
/// }
///
/// Application.storedState(\.counter).value += 1     // AppState's spelling
/// Application.state(\.counter).modify { $0 *= 2 }   // the same state
///
/// struct CounterView: View {
///     @StoredState(\.counter) var count              // `$count` is a Binding
///     var body: some View { Button("Count: \(count)") { count += 1 } }
/// }
/// ```
@propertyWrapper
public struct StoredState<Value: Codable & Sendable>: BoxedState, MutableApplicationState {
    private let core: HandleCore<StoredState<Value>>

    init(box: StateBox<Value>) { core = HandleCore(box: box) }

    /// The property wrapper: `@StoredState(\.counter) var count` reads and writes the value in the current store.
    public init(_ keyPath: any KeyPath<Application, StoredState<Value>> & Sendable) { core = HandleCore(keyPath: keyPath) }

    /// The property wrapper, for a key path that is not `Sendable` (to a main-actor property):
    /// made on the main actor and used there only (checked at every access).
    @MainActor
    public init(_ keyPath: KeyPath<Application, StoredState<Value>>) { core = HandleCore(mainActorKeyPath: keyPath) }

    var box: StateBox<Value> { core.box }

    /// The current value. Setting it notifies observers and saves it.
    public var value: Value {
        get { core.value }
        nonmutating set { core.value = newValue }
    }

    /// Changes the value atomically (no other write can come in between), notifies once and saves.
    @discardableResult
    public func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R { try core.modify(change) }

    /// A binding that reads and writes this state.
    public var binding: Binding<Value> { core.binding }

    /// Every value this state takes from now on (ends when the consuming task is cancelled).
    public var changes: AsyncStream<Value> { core.changes }

    /// Puts the value back to the declared initial value and removes the saved one from the store
    /// file (at the next write), so the next run starts from the initial value too.
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
    /// Declares (or finds) stored state; the first access loads the saved value, or `initial`.
    /// Without an `id`, the declaring property's name is the id (see `state(initial:feature:id:)`).
    ///
    /// ```swift
    /// extension Application {
    ///     public var prefs: StoredState<Prefs> { storedState(initial: Prefs(), feature: "Settings", id: "prefs") }
    ///     public var launches: StoredState<Int> { storedState(initial: 0) }   // saved as "App.launches"
    /// }
    /// ```
    public func storedState<Value: Codable & Sendable>(
        initial: @autoclosure () -> Value,
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> StoredState<Value> {
        // A declaration read before resolves without building its keys or taking the registry's
        // lock, as in-memory state does (a view reading stored state on every frame); the type
        // in the key is the wrapper's, so it never meets an in-memory box of the same name.
        let cacheKey = DeclarationCache.Key(feature: feature, id: id ?? function, derived: id == nil, fileID: fileID, line: line,
                                            scope: 0, type: ObjectIdentifier(StoredState<Value>.self))
        if let known = declarations.box(for: cacheKey) {
            return StoredState(box: unsafeDowncast(known as AnyObject, to: StateBox<Value>.self))
        }
        let key = "\(feature).\(id ?? function)"
        let resolved = persistentBox(
            registryKey: "\(PersistentKind.stored.rawValue):\(key)",
            key: key,
            declaration: Declaration(derived: id == nil, fileID: fileID, line: line),
            initial: initial,
            load: { $0.loadStored(key: key, initial: $1) },
            entry: { ValueEntry<Value>(key: key, kind: .stored, target: .store, persistence: $0) },
            attach: { entry, box in entry.box = box }
        )
        declarations.insert(resolved, for: cacheKey)
        return StoredState(box: resolved)
    }

    /// Declares (or finds) optional stored state whose initial value is nil, as AppState's
    /// `storedState(id:)` does.
    ///
    /// ```swift
    /// extension Application {
    ///     public var lastSearch: StoredState<String?> { storedState(id: "lastSearch") }
    /// }
    /// ```
    public func storedState<Value: Codable & Sendable>(
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> StoredState<Value?> {
        storedState(initial: nil, feature: feature, id: id, function: function, fileID: fileID, line: line)
    }

    /// The stored state at `keyPath` in the current store (AppState's spelling).
    ///
    /// ```swift
    /// Application.storedState(\.counter).value += 1
    /// ```
    public static func storedState<Value>(_ keyPath: KeyPath<Application, StoredState<Value>>) -> StoredState<Value> {
        // Not `handle(_:)`: resolving the concrete type here calls its `init(box:)` directly
        // instead of through the protocol witness table (a few ns per access).
        withCurrentUnretained { $0.resolve(keyPath) }
    }

    /// The stored state at `keyPath` in the current store (the same as `storedState(_:)`).
    ///
    /// ```swift
    /// Application.state(\.counter).value += 1
    /// ```
    public static func state<Value>(_ keyPath: KeyPath<Application, StoredState<Value>>) -> StoredState<Value> {
        // Not `handle(_:)`: resolving the concrete type here calls its `init(box:)` directly
        // instead of through the protocol witness table (a few ns per access).
        withCurrentUnretained { $0.resolve(keyPath) }
    }
}
