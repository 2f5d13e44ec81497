
/// A secret (a token, a password): in the desktop keyring where one runs, else in a file only
/// your user can read.
///
/// Where a Secret Service runs on the session bus (gnome-keyring, KeePassXC, KWallet: what gh,
/// git's credential helpers and Docker use), each secret is an item of its default collection,
/// encrypted with the user's login password, and never touches the disk. Elsewhere (a server, a
/// container, ssh without a desktop session) it is a plain file
/// `<storage.directory>/secure/<feature>.<id>` holding the secret's UTF-8 text, the folder at mode
/// 0700 and the file at 0600: anyone who can act as your user (or as root), or who gets a copy of
/// your disk or backups, can read that. The choice is made once, at the first secret read or
/// written, logged, and printed by `--diagnose`; a secret in a file from a run without a keyring
/// moves into the keyring the first time it is read with one.
///
/// The value is `nil` when there is no secret; setting `nil` removes it. Writes happen at once (no
/// coalescing: secrets are small and rare). What cannot be saved (a locked keyring whose unlock
/// was refused, a service gone, a folder open to other users that cannot be fixed) is reported in
/// `storeIssues` and kept in memory only: never written anywhere else.
///
/// ```swift
/// extension Application {
///     public var apiToken: SecureState { secureState(feature: "Sync", id: "token") }
/// }
///
/// Application.secureState(\.apiToken).value = "s3cr3t"   // in the keyring, or .../secure/Sync.token
/// Application.secureState(\.apiToken).value = nil        // removed
///
/// struct LoginView: View {
///     @SecureState(\.apiToken) var token
///     var body: some View { Text(token == nil ? "Signed out" : "Signed in") }
/// }
/// ```
@propertyWrapper
public struct SecureState: BoxedState, MutableApplicationState {
    public typealias Value = String?

    private let core: HandleCore<SecureState>

    init(box: StateBox<String?>) { core = HandleCore(box: box) }

    /// The property wrapper: `@SecureState(\.token) var token` reads and writes the value in the current store.
    public init(_ keyPath: any KeyPath<Application, SecureState> & Sendable) { core = HandleCore(keyPath: keyPath) }

    /// The property wrapper, for a key path that is not `Sendable` (to a main-actor property):
    /// made on the main actor and used there only (checked at every access).
    @MainActor
    public init(_ keyPath: KeyPath<Application, SecureState>) { core = HandleCore(mainActorKeyPath: keyPath) }

    var box: StateBox<String?> { core.box }

    /// The current value. Setting it notifies observers and saves it.
    public var value: String? {
        get { core.value }
        nonmutating set { core.value = newValue }
    }

    /// Changes the value atomically (no other write can come in between), notifies once and saves.
    @discardableResult
    public func modify<R>(_ change: (inout String?) throws -> R) rethrows -> R { try core.modify(change) }

    /// A binding that reads and writes this state.
    public var binding: Binding<String?> { core.binding }

    /// Every value this state takes from now on (ends when the consuming task is cancelled).
    public var changes: AsyncStream<String?> { core.changes }

    /// Forgets the secret: the value is nil again and it is removed from the keyring (or its file
    /// is deleted).
    public func reset() { core.box.reset() }

    public var wrappedValue: String? {
        get { value }
        nonmutating set { value = newValue }
    }

    /// A binding to the value, resolved in the current store at every access.
    public var projectedValue: Binding<String?> {
        let state = self
        return Binding(get: { state.value }, set: { state.value = $0 })
    }
}

extension Application {
    /// Declares (or finds) a secret; the first access reads it from the desktop keyring, or its
    /// file where no keyring runs (nil if there is none). Without an `id`, the declaring
    /// property's name is the id (see `state(initial:feature:id:)`).
    ///
    /// ```swift
    /// extension Application {
    ///     public var password: SecureState { secureState(feature: "Mail", id: "password") }
    ///     public var userToken: SecureState { secureState() }   // id "userToken"
    /// }
    /// ```
    public func secureState(
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> SecureState {
        let key = SecretKey(feature: feature, id: id ?? function)
        return SecureState(box: persistentBox(
            registryKey: "\(PersistentKind.secure.rawValue):\(key.name)",
            key: key.name,
            declaration: Declaration(derived: id == nil, fileID: fileID, line: line),
            initial: { nil },
            load: { persistence, _ in persistence.loadSecret(key) },
            entry: { persistence in SecretEntry(key: key, persistence: persistence) },
            attach: { entry, box in entry.box = box }
        ))
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

extension Application {
    /// Where this store's `SecureState` values go, and why there: "the desktop keyring (Secret
    /// Service: gnome-keyring)", or "files in <state dir>/secure, mode 0600 (no Secret Service on
    /// the session bus)". Chooses now if no secret was read or written yet (`--diagnose`).
    package var secretStorage: String { persistence.secretStore.summary }
}
