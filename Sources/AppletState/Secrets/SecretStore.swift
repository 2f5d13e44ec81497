import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `SecureState`'s name: the feature and id it was declared with.
struct SecretKey: Hashable, Sendable {
    let feature: String
    let id: String

    /// "Feature.id": what messages call it, and the file store's file name.
    var name: String { "\(feature).\(id)" }
}

/// What a store did with a write or a removal.
enum SecretWriteOutcome: Sendable {
    case done
    /// Not saved: `reason` is what the exit report gives; `issues` are reported now (often none:
    /// a failure that goes on is reported once).
    case failed(reason: String, issues: [StoreIssue])
}

/// Where `SecureState` values live. One store serves one persistence engine, chosen when its first
/// secret is read or written (`StorageConfiguration.secrets`), and never changes after that: a secret that
/// went to the keyring never falls back to a file. The engine calls a store from one thread at a
/// time, holding its secrets lock, and reports the issues and keeps what is unsaved.
///
/// `SecureStateStrategy` saves through it.
protocol SecretStore: AnyObject, Sendable {
    /// Where secrets go and why there, for `--diagnose` and the log:
    /// "the desktop keyring (Secret Service: gnome-keyring)".
    var summary: String { get }
    /// Where one secret is kept, as the exit report names it (`UnsavedChange.path`).
    func place(of key: SecretKey) -> String
    /// The saved secret, nil when there is none (or it cannot be read: then with an issue).
    func load(_ key: SecretKey) -> (value: String?, issues: [StoreIssue])
    func save(_ value: String, for key: SecretKey) -> SecretWriteOutcome
    func remove(_ key: SecretKey) -> SecretWriteOutcome
}

/// Where a store keeps its `SecureState` values (`StorageConfiguration.secrets`).
///
/// ```swift
/// var storage = StorageConfiguration(appID: "tool", directory: folder)
/// storage.secrets = .files   // <folder>/secure, even where a desktop keyring runs
/// ```
public struct SecretStorage: Hashable, Sendable {
    enum Choice: Hashable, Sendable {
        case automatic
        case files
        case keyringIfRunning(environment: [String: String]?)
    }

    let choice: Choice

    /// The desktop keyring where a Secret Service runs on the session bus, else files in
    /// `<state dir>/secure`: decided once per process, at the first secret read or written. In a
    /// test process (SwiftPM's test bundle), files: tests never touch the user's keyring.
    public static let automatic = SecretStorage(choice: .automatic)

    /// Files in `<state dir>/secure` (mode 0600), wherever a keyring runs: for a folder whose
    /// secrets must stay with it and go when it goes (a replay's, a fuzzer's).
    public static let files = SecretStorage(choice: .files)

    /// As `automatic` outside a test process, and decided again for this store: for tests of the
    /// keyring. `environment` (nil: the process's) decides only whether there is a session bus to
    /// try; libsecret always uses the process's `DBUS_SESSION_BUS_ADDRESS`.
    static func keyringIfRunning(environment: [String: String]?) -> SecretStorage {
        SecretStorage(choice: .keyringIfRunning(environment: environment))
    }
}

enum SecretStores {
    /// The automatic choice, made once per process at the first store that needs one.
    private static let processKeyring: SecretService.Availability = SecretService.connect(environment: ProcessEnvironment.current)

    /// The store for `persistence`'s secrets, as its configuration chooses. Logs which and why.
    static func make(for persistence: Persistence) -> any SecretStore {
        let availability: SecretService.Availability
        switch persistence.configuration.secrets.choice {
        case .files:
            availability = .unavailable(reason: "the app chose files")
        case .automatic where StorageConfiguration.isTestProcess:
            availability = .unavailable(reason: "a test process leaves the desktop keyring alone")
        case .automatic:
            availability = processKeyring
        case .keyringIfRunning(let environment):
            availability = SecretService.connect(environment: environment ?? ProcessEnvironment.current)
        }
        let store: any SecretStore
        switch availability {
        case .available(let service):
            // The files stay readable, for secrets saved there before the keyring was used.
            store = SecretServiceStore(service: service, persistence: persistence,
                                       files: FileSecretStore(persistence: persistence, reason: nil))
        case .unavailable(let reason):
            store = FileSecretStore(persistence: persistence, reason: reason)
        }
        StateLog.logger.info("secrets go to \(store.summary)", metadata: ["folder": "\(persistence.configuration.directory)"])
        return store
    }
}
