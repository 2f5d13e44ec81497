import Logging
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

/// Secrets as plain files only your user can read: `<state dir>/secure/<feature>.<id>`, holding
/// the secret's UTF-8 text, the folder at mode 0700 and each file at 0600. Where no desktop keyring
/// runs, this is where `SecureState` keeps them.
///
/// If the folder or a file is open to other users, its mode is tightened; if that is impossible (or
/// the folder is someone else's) no secret is written there and that is reported. A file that
/// cannot be read, or is not UTF-8 text, is treated as absent and never overwritten. The state
/// folder's rules hold as for every file: nothing is written while another process holds the
/// folder's lock, and an unwritable folder is reported once.
final class FileSecretStore: SecretStore {
    /// The engine: the state folder's lock, and writes that report an unwritable folder once.
    unowned let persistence: Persistence
    /// Why secrets are in files here, for `summary` (nil: this store only reads old files for the
    /// keyring's migration).
    let reason: String?

    private struct State {
        /// Files not to overwrite (unreadable, or not text), with why.
        var blocked: [String: String] = [:]
        /// The secrets folder cannot be made private: no secret is written there.
        var folderRefused = false
    }
    private let state = Mutex(State())

    init(persistence: Persistence, reason: String?) {
        self.persistence = persistence
        self.reason = reason
    }

    var folder: String { persistence.secureFolder }

    var summary: String {
        "files in \(folder), mode 0600" + (reason.map { " (\($0))" } ?? "")
    }

    func place(of key: SecretKey) -> String { path(of: key) }

    func path(of key: SecretKey) -> String {
        Path.join(folder, Persistence.fileName(key.name))
    }

    func load(_ key: SecretKey) -> (value: String?, issues: [StoreIssue]) {
        let path = path(of: key)
        var issues = persistence.folderLockIssues()
        return state.withLock { state -> (String?, [StoreIssue]) in
            if !state.folderRefused, let problem = Self.makePrivate(folder, mode: 0o700, what: "secrets folder") {
                state.folderRefused = true
                issues.append(problem)
            }
            switch Persistence.readExisting(path) {
            case .absent:
                return (nil, issues)
            case .unreadable(let reason):
                state.blocked[path] = "it could not be read (\(reason)), so it is left untouched"
                issues.append(StoreIssue("Cannot read the secret file \(path) (\(reason)); '\(key.name)' is treated as absent and the file is left untouched.", path: path))
                return (nil, issues)
            case .data(let data):
                if let problem = Self.makePrivate(path, mode: 0o600, what: "secret file") { issues.append(problem) }
                // Replacement characters would make another secret of it: refuse it instead.
                guard let text = String(validating: data, as: UTF8.self) else {
                    state.blocked[path] = "it is not UTF-8 text, so it is left untouched"
                    issues.append(StoreIssue("The secret file \(path) is not UTF-8 text; '\(key.name)' is treated as absent and the file is left untouched — remove it or write the secret again as text.", path: path))
                    return (nil, issues)
                }
                return (text, issues)
            }
        }
    }

    func save(_ value: String, for key: SecretKey) -> SecretWriteOutcome {
        let path = path(of: key)
        let locking = persistence.folderLockIssues()
        return state.withLock { state -> SecretWriteOutcome in
            if let reason = state.blocked[path] { return .failed(reason: reason, issues: locking) }
            if state.folderRefused { return .failed(reason: "the secrets folder is not private", issues: locking) }
            if let reason = persistence.lockedOutReason(path) { return .failed(reason: reason, issues: locking) }
            let root = persistence.configuration.directory
            do {
                try AtomicFile.ensureDirectory(root, mode: 0o700)
                try AtomicFile.ensureDirectory(folder, mode: 0o700)
            } catch {
                let reason = (error as? AtomicFile.Failure)?.reason ?? "\(error)"
                return .failed(reason: reason, issues: locking + persistence.folderFailed(folder, root: root, error: error))
            }
            if let problem = Self.makePrivate(folder, mode: 0o700, what: "secrets folder") {
                state.folderRefused = true
                return .failed(reason: "the secrets folder is not private", issues: locking + [problem])
            }
            let written = persistence.writeFile(Data(value.utf8), to: path, root: root)
            return written.saved ? .done : .failed(reason: written.reason, issues: locking + written.issues)
        }
    }

    func remove(_ key: SecretKey) -> SecretWriteOutcome {
        let path = path(of: key)
        let locking = persistence.folderLockIssues()
        return state.withLock { state -> SecretWriteOutcome in
            if let reason = state.blocked[path] { return .failed(reason: reason, issues: locking) }
            if let reason = persistence.lockedOutReason(path) { return .failed(reason: reason, issues: locking) }
            if unlink(path) != 0, errno != ENOENT, errno != ENOTDIR {
                let reason = String(cString: strerror(errno))
                return .failed(reason: reason, issues: locking + [StoreIssue("Cannot delete the secret file \(path): \(reason). Remove it by hand.", path: path)])
            }
            return .done
        }
    }

    /// Whether a file for `key` is there (of any kind: what `load` makes of it is another matter).
    func hasFile(for key: SecretKey) -> Bool {
        var info = stat()
        return lstat(path(of: key), &info) == 0
    }

    /// Makes sure a folder or file is not open to other users: fixes its mode to `mode` if it is
    /// looser, and returns an issue if it is someone else's or cannot be fixed.
    static func makePrivate(_ path: String, mode: mode_t, what: String) -> StoreIssue? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if info.st_uid != geteuid() {
            return StoreIssue("The \(what) \(path) belongs to another user; secrets are kept in memory only — set --state-dir to a folder of your own.", path: path)
        }
        let current = info.st_mode & 0o777
        guard current & 0o077 != 0 else { return nil }
        if chmod(path, mode) != 0 {
            let reason = String(cString: strerror(errno))
            return StoreIssue("The \(what) \(path) can be read by other users (mode \(String(current, radix: 8))) and its mode cannot be fixed (\(reason)); secrets are kept in memory only — set --state-dir to a private folder.", path: path)
        }
        StateLog.logger.warning("\(what) was open to other users; mode set to \(String(mode, radix: 8))", metadata: ["path": "\(path)", "was": "\(String(current, radix: 8))"])
        return nil
    }
}
