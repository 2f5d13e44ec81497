import Foundation

/// A secret (a token, a password) kept on disk as a file only your user can read.
///
/// **This is not an encrypted keychain; it is a file only your user can read.** Each secret is a
/// plain file `<storage.directory>/secure/<feature>.<id>` holding the secret's UTF-8 text, with
/// the folder at mode 0700 and the file at 0600. Anyone who can act as your user (or as root), or
/// who gets a copy of your disk or backups, can read it.
///
/// The value is `nil` when there is no secret; setting `nil` deletes the file. Writes happen at
/// once (no coalescing: secrets are small and rare), atomically. If the folder or the file is
/// open to other users, its mode is tightened; if that is impossible (or the folder is someone
/// else's) the secret is kept in memory only and that is reported in `storeIssues`.
///
/// ```swift
/// extension Application {
///     public var apiToken: SecureState { secureState(feature: "Sync", id: "token") }
/// }
///
/// Application.secureState(\.apiToken).value = "s3cr3t"   // written to .../secure/Sync.token
/// Application.secureState(\.apiToken).value = nil        // file deleted
///
/// struct LoginView: View {
///     @SecureState(\.apiToken) var token
///     var body: some View { Text(token == nil ? "Signed out" : "Signed in") }
/// }
/// ```
@propertyWrapper
public struct SecureState: BoxedState, MutableApplicationState {
    public typealias Value = String?

    /// Set for a handle returned by the store; nil for a property wrapper, which finds its box in
    /// the current store at every access.
    private let resolvedBox: StateBox<String?>?
    // Key path literals without captures are immutable.
    nonisolated(unsafe) private let keyPath: KeyPath<Application, SecureState>?

    init(box: StateBox<String?>) {
        resolvedBox = box
        keyPath = nil
    }

    /// The property wrapper: `@SecureState(\.apiToken) var token` reads and writes the secret in
    /// the current store.
    public init(_ keyPath: any KeyPath<Application, SecureState> & Sendable) {
        resolvedBox = nil
        self.keyPath = keyPath
    }

    var box: StateBox<String?> {
        if let resolvedBox { return resolvedBox }
        return resolve()
    }

    /// The box of a property wrapper's key path in the current store. Called only when
    /// `resolvedBox` is nil, so `keyPath` is set (the two inits set exactly one of them).
    @inline(never)
    private func resolve() -> StateBox<String?> {
        Application.withCurrentUnretained { $0.resolve(keyPath.unsafelyUnwrapped) }.box
    }

    @inline(never)
    private func resolvedValue() -> String? {
        Application.withCurrentUnretained { $0.resolve(keyPath.unsafelyUnwrapped) }.value
    }

    /// The secret, or nil. Setting it writes (or, for nil, deletes) the file at once.
    public var value: String? {
        // A handle's box is used in place (`unsafelyUnwrapped` after the nil check): going through
        // `box`, which returns it +1, would add a retain and a release to every read.
        get {
            if resolvedBox != nil { return resolvedBox.unsafelyUnwrapped.value }
            return resolvedValue()
        }
        nonmutating set {
            if resolvedBox != nil { return resolvedBox.unsafelyUnwrapped.set(newValue) }
            resolve().set(newValue)
        }
    }

    /// Changes the secret atomically, notifies once and writes it.
    @discardableResult
    public func modify<R>(_ change: (inout String?) throws -> R) rethrows -> R {
        if resolvedBox != nil { return try resolvedBox.unsafelyUnwrapped.modify(change) }
        return try resolve().modify(change)
    }

    /// A binding that reads and writes the secret.
    public var binding: Binding<String?> {
        let box = self.box
        return Binding(get: { box.value }, set: { box.set($0) })
    }

    /// Every value the secret takes from now on. The sequence ends when the consuming task is
    /// cancelled.
    public var changes: AsyncStream<String?> { box.changes() }

    public var wrappedValue: String? {
        get { value }
        nonmutating set { value = newValue }
    }

    /// A binding to the secret (`$token`), resolved in the current store at every access.
    public var projectedValue: Binding<String?> {
        let state = self
        return Binding(get: { state.value }, set: { state.value = $0 })
    }
}

extension Application {
    /// Declares (or finds) a secret; the first access reads its file (nil if there is none).
    /// Not an encrypted keychain: a file only your user can read.
    ///
    /// ```swift
    /// extension Application {
    ///     public var password: SecureState { secureState(feature: "Mail", id: "password") }
    /// }
    /// ```
    public func secureState(feature: String = "App", id: String) -> SecureState {
        let key = "\(feature).\(id)"
        return SecureState(box: persistentBox(
            key: key,
            kind: .secure,
            load: { persistence in persistence.loadSecret(key: key, path: Self.secretPath(persistence, key: key)) },
            entry: { persistence in
                SecretEntry(key: key, kind: .secure, target: .secret(path: Self.secretPath(persistence, key: key)), persistence: persistence)
            },
            attach: { entry, box in entry.box = box }
        ))
    }

    static func secretPath(_ persistence: Persistence, key: String) -> String {
        (persistence.secureFolder as NSString).appendingPathComponent(Persistence.fileName(key))
    }

    /// The secret at `keyPath` in the current store (AppState's spelling).
    ///
    /// ```swift
    /// if let token = Application.secureState(\.apiToken).value { connect(token) }
    /// ```
    public static func secureState(_ keyPath: KeyPath<Application, SecureState>) -> SecureState {
        // Not `handle(_:)`: resolving the concrete type here calls its `init(box:)` directly
        // instead of through the protocol witness table (a few ns per access).
        withCurrentUnretained { $0.resolve(keyPath) }
    }

    /// The secret at `keyPath` in the current store (the same as `secureState(_:)`).
    ///
    /// ```swift
    /// Application.state(\.apiToken).value = nil
    /// ```
    public static func state(_ keyPath: KeyPath<Application, SecureState>) -> SecureState {
        // Not `handle(_:)`: resolving the concrete type here calls its `init(box:)` directly
        // instead of through the protocol witness table (a few ns per access).
        withCurrentUnretained { $0.resolve(keyPath) }
    }
}
