import Logging
internal import CSecretService
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Secrets in the desktop keyring: the Secret Service on the session bus (gnome-keyring, KeePassXC,
/// KWallet), through libsecret loaded at run time. A secret never touches the disk here; the
/// keyring keeps it encrypted with the user's login password.
///
/// Each item carries the attributes `application` (the app id), `folder` (the state folder, so two
/// `--state-dir`s keep two sets, as they do with files), `feature` and `id`, and libsecret's
/// `xdg:schema` (`org.appletkit.SecureState`); its label reads "appletkit: Sync token". Anyone can
/// find one with `secret-tool lookup application appletkit feature Sync id token`, or see them all
/// in Seahorse ("Passwords and Keys").
///
/// A secret still in the file store's file (saved before the keyring was used) moves into the
/// keyring when it is first read, and the file is deleted. Every failure (a locked keyring whose
/// unlock was refused, a service gone) is reported in `storeIssues` and the value is kept in memory
/// only: a secret is never written to a file instead.
final class SecretServiceStore: SecretStore {
    let service: SecretService.Found
    unowned let persistence: Persistence
    /// The old files, read for the migration.
    let files: FileSecretStore

    /// Whether the last write failed: a failure that goes on is reported once.
    private let failing = Atomic<Bool>(false)

    init(service: SecretService.Found, persistence: Persistence, files: FileSecretStore) {
        self.service = service
        self.persistence = persistence
        self.files = files
    }

    var summary: String { service.summary }

    func place(of key: SecretKey) -> String { UnsavedChange.desktopKeyring }

    /// The item's attributes, as `aks_*` take them.
    func attributes(of key: SecretKey) -> [String] {
        ["application", persistence.configuration.appID, "folder", persistence.configuration.directory,
         "feature", key.feature, "id", key.id]
    }

    func label(of key: SecretKey) -> String { "\(persistence.configuration.appID): \(key.feature) \(key.id)" }

    func load(_ key: SecretKey) -> (value: String?, issues: [StoreIssue]) {
        let stored: String?
        switch SecretService.lookup(attributes(of: key)) {
        case .failure(let reason):
            return (nil, [StoreIssue("Cannot read the secret '\(key.name)' from \(service.name): \(reason). It is treated as absent for now; setting it stores it in the keyring once the keyring can be used.", path: nil)])
        case .success(nil):
            stored = nil
        case .success(let bytes?):
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return (nil, [StoreIssue("The secret '\(key.name)' in \(service.name) is not UTF-8 text; it is treated as absent.", path: nil)])
            }
            stored = text
        }
        guard files.hasFile(for: key) else { return (stored, []) }
        return migrate(key, stored: stored)
    }

    /// A secret in the old file: into the keyring, and the file deleted. The file wins over a value
    /// already in the keyring, as it can only have been written since (a run with no keyring).
    /// What cannot be read, or another process's folder, is left as it is.
    private func migrate(_ key: SecretKey, stored: String?) -> (value: String?, issues: [StoreIssue]) {
        let path = files.path(of: key)
        var (old, issues) = files.load(key)
        guard let old else { return (stored, issues) }
        if persistence.lockedOutReason(path) != nil { return (stored ?? old, issues) }
        if let reason = SecretService.store(attributes(of: key), label: label(of: key), secret: old) {
            issues.append(StoreIssue("The secret '\(key.name)' is still in the file \(path): it could not be moved into \(service.name) (\(reason)). The file is left as it was.", path: path))
            return (old, issues)
        }
        switch files.remove(key) {
        case .done:
            StateLog.logger.notice("moved the secret '\(key.name)' from its file into \(service.name); the file is deleted", metadata: ["path": "\(path)"])
            rmdir(files.folder)   // when that was the last one
        case .failed(_, let problems):
            issues += problems
        }
        return (old, issues)
    }

    func save(_ value: String, for key: SecretKey) -> SecretWriteOutcome {
        if let reason = SecretService.store(attributes(of: key), label: label(of: key), secret: value) {
            return failed(key, reason: reason, doing: "save")
        }
        return succeeded(key)
    }

    func remove(_ key: SecretKey) -> SecretWriteOutcome {
        if let reason = SecretService.clear(attributes(of: key)) {
            return failed(key, reason: reason, doing: "delete")
        }
        return succeeded(key)
    }

    private func failed(_ key: SecretKey, reason: String, doing: String) -> SecretWriteOutcome {
        let first = !failing.exchange(true, ordering: .sequentiallyConsistent)
        let issue = StoreIssue("Cannot \(doing) the secret '\(key.name)' in \(service.name): \(reason). It is kept in memory only (never written to a file) — unlock or start the keyring, then set it again.", path: nil)
        return .failed(reason: reason, issues: first ? [issue] : [])
    }

    /// Written: and an old file of the secret that is still there (its move failed) goes, so it
    /// can never come back over this value.
    private func succeeded(_ key: SecretKey) -> SecretWriteOutcome {
        failing.store(false, ordering: .sequentiallyConsistent)
        if files.hasFile(for: key), case .failed(let reason, let issues) = files.remove(key) {
            return .failed(reason: "its old file \(files.path(of: key)) could not be deleted (\(reason))", issues: issues)
        }
        return .done
    }
}

/// The Secret Service, through `CSecretService` (libsecret loaded at run time).
enum SecretService {
    /// A Secret Service found running.
    struct Found: Sendable {
        /// The program that provides it ("gnome-keyring"), or nil when the bus would not say.
        let provider: String?
        /// Whether its default collection was locked when it was found.
        let locked: Bool

        /// "the desktop keyring (gnome-keyring)", for messages.
        var name: String { "the desktop keyring" + (provider.map { " (\($0))" } ?? "") }

        /// "the desktop keyring (Secret Service: gnome-keyring)", for `--diagnose` and the log.
        var summary: String {
            "the desktop keyring (Secret Service: \(provider ?? "provider unknown")\(locked ? ", locked now: it asks for its password when first used" : ""))"
        }
    }

    enum Availability: Sendable {
        case available(Found)
        /// Why not, for the file store's summary: "no Secret Service on the session bus".
        case unavailable(reason: String)
    }

    /// Whether a Secret Service runs on the session bus, without starting one. Nothing is loaded
    /// when `environment` names no session bus (libsecret would try to start one otherwise).
    static func connect(environment: [String: String]) -> Availability {
        guard hasSessionBus(environment) else {
            return .unavailable(reason: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set")
        }
        var info = aks_service_info()
        var why = [CChar](repeating: 0, count: 512)
        let status = aks_connect(&info, &why, why.count)
        let reason = text(why)
        let provider = info.pid == 0 ? nil : program(pid: pid_t(bitPattern: info.pid))
        switch status {
        case AKS_READY:
            return .available(Found(provider: provider, locked: info.locked != 0))
        case AKS_NO_LIBRARY:
            return .unavailable(reason: "libsecret could not be loaded: \(reason)")
        case AKS_NO_BUS:
            return .unavailable(reason: "the session bus could not be reached: \(reason)")
        case AKS_NO_SERVICE:
            return .unavailable(reason: "no Secret Service on the session bus")
        case AKS_NO_DEFAULT_COLLECTION:
            return .unavailable(reason: "the Secret Service\(provider.map { " (\($0))" } ?? "") has no default keyring")
        default:
            return .unavailable(reason: "the Secret Service\(provider.map { " (\($0))" } ?? "") did not answer: \(reason)")
        }
    }

    /// A session bus address in `environment`, or the standard socket in `XDG_RUNTIME_DIR`.
    static func hasSessionBus(_ environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return false }
        var info = stat()
        return stat(Path.join(runtime, "bus"), &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// The name of the program running as `pid` ("gnome-keyring" for gnome-keyring-daemon).
    static func program(pid: pid_t) -> String? {
        guard let data = try? AtomicFile.read("/proc/\(pid)/cmdline", limit: 4096),
              let first = data.split(separator: 0, omittingEmptySubsequences: false).first, !first.isEmpty else { return nil }
        var name = Path.name(of: String(decoding: first, as: UTF8.self))
        if name.hasSuffix("-daemon"), name.count > "-daemon".count { name.removeLast("-daemon".count) }
        return name.isEmpty ? nil : name
    }

    /// Stores `secret`; nil, or why it could not.
    static func store(_ attributes: [String], label: String, secret: String) -> String? {
        var why = [CChar](repeating: 0, count: 512)
        let result = withCStrings(attributes) { aks_store($0, label, secret, &why, why.count) }
        return result == 0 ? nil : text(why)
    }

    /// The secret's bytes, nil when there is none, or why it could not be read.
    static func lookup(_ attributes: [String]) -> Result<Data?, Failure> {
        var why = [CChar](repeating: 0, count: 512)
        var secret: UnsafeMutablePointer<CChar>?
        var length = 0
        let result = withCStrings(attributes) { aks_lookup($0, &secret, &length, &why, why.count) }
        defer { aks_free_secret(secret, length) }
        switch result {
        case 1: return .success(secret.map { Data(bytes: $0, count: length) } ?? Data())
        case 0: return .success(nil)
        default: return .failure(Failure(text(why)))
        }
    }

    /// Removes the secret; nil, or why it could not.
    static func clear(_ attributes: [String]) -> String? {
        var why = [CChar](repeating: 0, count: 512)
        var removed: Int32 = 0
        let result = withCStrings(attributes) { aks_clear($0, &removed, &why, why.count) }
        return result == 0 ? nil : text(why)
    }

    /// The text in a NUL-terminated buffer the C side filled.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// `strings` as a NULL-terminated C array, for the length of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
