// AppState's names, for code written against it: its nested types as aliases of the store's own,
// `reset`, `notifyChange()`, `promote(_:with:)`, `load(dependency:)` and the static `description`.
// Docs/Store.md has the whole table of what maps to what.

extension Application {
    // `Application.State`, `Application.Slice`, `Application.OptionalSlice`, `Application.Constant`,
    // `Application.OptionalConstant`, `Application.DependencySlice` and
    // `Application.DependencyConstant` are the store's own nested types.

    /// AppState's `Application.StoredState`: `StoredState`.
    public typealias StoredState<Value: Codable & Sendable> = AppletState.StoredState<Value>
    /// AppState's `Application.FileState`: `FileState`.
    public typealias FileState<Value: Codable & Sendable> = AppletState.FileState<Value>
    /// AppState's `Application.SyncState`: `SyncState` (shared between the app's running
    /// instances on this machine, not through iCloud).
    public typealias SyncState<Value: Codable & Sendable> = AppletState.SyncState<Value>
    /// AppState's `Application.SecureState`: `SecureState` (the desktop keyring where one runs,
    /// else a file only your user can read; not the Keychain).
    public typealias SecureState = AppletState.SecureState
    /// AppState's `Application.Dependency`: `Dependency`.
    public typealias Dependency<Value: Sendable> = AppletState.Dependency<Value>
    /// AppState's `Application.DependencyOverride`, what `override(_:with:)` returns: `OverrideToken`.
    public typealias DependencyOverride = OverrideToken
    /// AppState's `Application.Scope`: `Scope`.
    public typealias Scope = AppletState.Scope

    // MARK: Reset

    /// Puts the state at `keyPath` back to its declared initial value.
    ///
    /// ```swift
    /// Application.reset(\.isLoading)
    /// ```
    public static func reset<Value>(_ keyPath: KeyPath<Application, State<Value>>) {
        state(keyPath).reset()
    }

    // `reset(_:)` of a `StoredState`, `FileState`, `SecureState` or `SyncState` is the one of every
    // persistent kind (`PersistentState.swift`).

    // MARK: Persistent state by its kind's name

    /// The stored state at `keyPath` in the current store (the same as `state(_:)`).
    ///
    /// ```swift
    /// Application.storedState(\.counter).value += 1
    /// ```
    public static func storedState<Value>(_ keyPath: KeyPath<Application, StoredState<Value>>) -> StoredState<Value> {
        withCurrentUnretained { $0.resolve(keyPath) }
    }

    /// The file state at `keyPath` in the current store (the same as `state(_:)`).
    ///
    /// ```swift
    /// Application.fileState(\.bookmarks).value.append("https://swift.org")
    /// ```
    public static func fileState<Value>(_ keyPath: KeyPath<Application, FileState<Value>>) -> FileState<Value> {
        withCurrentUnretained { $0.resolve(keyPath) }
    }

    /// The secret at `keyPath` in the current store (the same as `state(_:)`).
    ///
    /// ```swift
    /// if let token = Application.secureState(\.apiToken).value { connect(token) }
    /// ```
    public static func secureState(_ keyPath: KeyPath<Application, SecureState>) -> SecureState {
        withCurrentUnretained { $0.resolve(keyPath) }
    }

    /// The shared value at `keyPath` in the current store (the same as `state(_:)`).
    ///
    /// ```swift
    /// Application.syncState(\.sharedNote).value = "hi"
    /// ```
    public static func syncState<Value>(_ keyPath: KeyPath<Application, SyncState<Value>>) -> SyncState<Value> {
        withCurrentUnretained { $0.resolve(keyPath) }
    }
}

extension Application {
    // MARK: Telling observers

    /// Tells every view and observer that read any value of this store, or any dependency, that
    /// it changed, though no value did: each redraws (or runs) again, once. For what the store
    /// cannot see change: a plain class held as a dependency whose properties were set on the
    /// object directly, or something outside the store that views also read.
    ///
    /// AppState's views are SwiftUI's and this is its `objectWillChange`; here it reaches what
    /// the store's own observation reaches: the host's panes and chrome, logic observers,
    /// `withObservationTracking` and `Observations` over store reads. It may be called from any
    /// thread (AppState asks for the main one); observers hear it on the calling thread, as they
    /// hear a change, and `changes` counts it once. Subscribers of a state's `changes` sequence
    /// hear nothing: it carries values, and none changed.
    ///
    /// ```swift
    /// Application.dependency(\.settings).title = "Inbox"   // a plain class: nobody hears this
    /// Application.current.notifyChange()                  // every view that read the store redraws
    /// ```
    public func notifyChange() {
        notifyEveryObserver()
    }

    /// What the current store holds: `Application.current.description`, as AppState's static
    /// `Application.description` is its store's. Secrets are never shown.
    ///
    /// ```swift
    /// StateLog.logger.debug("store: \(Application.description)")
    /// ```
    public static var description: String { current.description }

    // MARK: Dependencies made ahead of use

    /// Makes the dependency at `keyPath` in the current store now, if it was not made yet, without
    /// reading it (a view that calls this does not start observing it). Returns `Application.self`
    /// so that calls chain, as in AppState.
    ///
    /// A dependency is otherwise made at its first use; loading it at start moves that cost (a
    /// service that opens a file or starts watching something) before the first frame, and shows
    /// a dependency cycle at once rather than on some later key press.
    ///
    /// ```swift
    /// Application
    ///     .load(dependency: \.clock)
    ///     .load(dependency: \.weather)
    /// ```
    @discardableResult
    public static func load<Value>(dependency keyPath: KeyPath<Application, Dependency<Value>>) -> Application.Type {
        withCurrentUnretained { $0.load(dependency: keyPath) }
        return Application.self
    }

    /// Makes the dependency at `keyPath` in this store now, if it was not made yet (see the static
    /// `load(dependency:)`, which does it in the current store).
    ///
    /// ```swift
    /// let app = Application()
    /// app.load(dependency: \.clock)
    /// ```
    public func load<Value>(dependency keyPath: KeyPath<Application, Dependency<Value>>) {
        // Resolving runs the declaration, which makes the value; nothing reads it.
        _ = resolveDependency(keyPath)
    }

    // MARK: Promoting a dependency

    /// Replaces the dependency at `keyPath` in the current store with `value` for the rest of the
    /// store's life: AppState's permanent counterpart of `override(_:with:)`, for the app's own
    /// choice of a service (a real clock swapped for another at start) rather than a test's.
    /// Returns `Application.self` so that calls chain.
    ///
    /// An override in effect stays in effect: overrides are a test's or a host's, for a while,
    /// and the promoted value is what the dependency goes back to when they end (AppState's
    /// override puts back the value it found, losing a promotion made under it). A second
    /// promotion replaces the first. The declared value is made first if it was not yet, as in
    /// AppState. Views that read the dependency are redrawn.
    ///
    /// ```swift
    /// Application
    ///     .promote(\.clock, with: UTCClock())
    ///     .promote(\.http, with: RecordingHTTPClient())
    /// ```
    @discardableResult
    public static func promote<Value>(_ keyPath: KeyPath<Application, Dependency<Value>>, with value: Value) -> Application.Type {
        withCurrentUnretained { $0.resolveDependency(keyPath) }.box.promote(value)
        return Application.self
    }
}
