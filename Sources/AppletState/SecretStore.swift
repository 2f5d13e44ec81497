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
/// secret is read or written, and never changes after that. The engine calls a store from one
/// thread at a time, holding its secrets lock, and reports the issues and keeps what is unsaved.
///
/// The seam each persistent kind will have: load, save, remove.
protocol SecretStore: AnyObject, Sendable {
    /// Where secrets go and why there: "files in /x/secure, mode 0600".
    var summary: String { get }
    /// Where one secret is kept, as the exit report names it (`UnsavedChange.path`).
    func place(of key: SecretKey) -> String
    /// The saved secret, nil when there is none (or it cannot be read: then with an issue).
    func load(_ key: SecretKey) -> (value: String?, issues: [StoreIssue])
    func save(_ value: String, for key: SecretKey) -> SecretWriteOutcome
    func remove(_ key: SecretKey) -> SecretWriteOutcome
}

enum SecretStores {
    /// The store for `persistence`'s secrets.
    static func make(for persistence: Persistence) -> any SecretStore {
        FileSecretStore(persistence: persistence, reason: nil)
    }
}
