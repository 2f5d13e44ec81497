// AppState's names, for code written against it: its nested types as aliases of the store's own,
// and `reset`. Docs/Store.md has the whole table of what maps to what.

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

    /// Puts the stored state at `keyPath` back to its declared initial value, and removes its
    /// saved value from the store file, so the next run starts from the initial value too.
    ///
    /// ```swift
    /// Application.reset(\.launches)
    /// ```
    public static func reset<Value>(_ keyPath: KeyPath<Application, StoredState<Value>>) {
        storedState(keyPath).reset()
    }

    /// Puts the file state at `keyPath` back to its declared initial value, and deletes its file.
    ///
    /// ```swift
    /// Application.reset(\.prefs)
    /// ```
    public static func reset<Value>(_ keyPath: KeyPath<Application, FileState<Value>>) {
        fileState(keyPath).reset()
    }

    /// Forgets the secret at `keyPath`: nil again, and removed from the keyring (or its file deleted).
    ///
    /// ```swift
    /// Application.reset(\.apiToken)
    /// ```
    public static func reset(_ keyPath: KeyPath<Application, SecureState>) {
        secureState(keyPath).reset()
    }

    /// Puts the shared value at `keyPath` back to its declared initial value in every running
    /// instance, and deletes its file.
    ///
    /// ```swift
    /// Application.reset(\.sharedNote)
    /// ```
    public static func reset<Value>(_ keyPath: KeyPath<Application, SyncState<Value>>) {
        syncState(keyPath).reset()
    }
}
