
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
public typealias SecureState = PersistentState<SecureStateStrategy>

/// How `SecureState` keeps a secret: in the store's `SecretStore` (the desktop keyring, or a 0600
/// file), at once on every change; never shown, never copied anywhere when it cannot be saved.
public struct SecureStateStrategy: PersistenceStrategy {
    public typealias Value = String?
    public static var kind: String { "SecureState" }
    public static var timing: PersistenceTiming { .atOnce }
    public static var isSecret: Bool { true }

    let secretKey: SecretKey
    /// "Feature.id".
    public var key: String { secretKey.name }
    public var id: String { secretKey.name }

    public init(feature: String, id: String) { secretKey = SecretKey(feature: feature, id: id) }

    public func load(initial: String?, from storage: PersistentStorage) -> String?? {
        let (value, issues) = storage.engine.withSecretStore { $0.load(secretKey) }
        storage.report(issues)
        return value.map { .some($0) }
    }

    public func save(_ value: String?, to storage: PersistentStorage) throws {
        try write(storage) { store in value.map { store.save($0, for: secretKey) } ?? store.remove(secretKey) }
    }

    public func remove(from storage: PersistentStorage) throws {
        try write(storage) { $0.remove(secretKey) }
    }

    private func write(_ storage: PersistentStorage, _ body: (any SecretStore) -> SecretWriteOutcome) throws(PersistenceFailure) {
        let (outcome, place) = storage.engine.withSecretStore { store in (body(store), store.place(of: secretKey)) }
        guard case .failed(let reason, let issues) = outcome else { return }
        storage.report(issues)
        throw PersistenceFailure(reason, place: place)
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
        SecureState(box: persistentBox(SecureStateStrategy(feature: feature, id: id ?? function),
                                       declaration: Declaration(derived: id == nil, fileID: fileID, line: line), initial: { nil }))
    }
}

extension Application {
    /// Where this store's `SecureState` values go, and why there: "the desktop keyring (Secret
    /// Service: gnome-keyring)", or "files in <state dir>/secure, mode 0600 (no Secret Service on
    /// the session bus)". Chooses now if no secret was read or written yet (`--diagnose`).
    package var secretStorage: String { persistence.secretStore.summary }
}
