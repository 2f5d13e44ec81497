import Logging
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kinds of state that live on disk. Each kind has keys of its own in the store's registry
/// ("StoredState:Feature.id"), so a `StoredState` and a `FileState` with one feature and id are
/// two values, kept in two places.
enum PersistentKind: String, Sendable {
    case stored = "StoredState"
    case file = "FileState"
    case secure = "SecureState"
}

/// One persistent key: its box, where it is saved, and whether it has changes not yet written.
///
/// The box's `didChange` hook calls `markDirty()`: a relaxed load of `dirty` when a write is
/// already pending (the common case: no lock, no allocation), else one exchange and a lock to
/// queue the key. The writer clears `dirty` before it reads the value (under the box's lock), so
/// a change made after that read always queues the key again.
class PersistentEntry: @unchecked Sendable {
    enum Target: Sendable {
        /// A key in the app's one store file.
        case store
        /// A file of its own (`FileState`), under `root` for messages about unwritable folders.
        case file(path: String, root: String)
        /// A secret, written at once on every change (`SecureState`), to the engine's `SecretStore`.
        case secret
    }

    let key: String
    let kind: PersistentKind
    let target: Target
    let dirty = Atomic<Bool>(false)
    /// Reset: the next write removes the saved value (the store file's key, or the file) instead
    /// of writing it. Any later change clears it.
    let removed = Atomic<Bool>(false)
    let persistence: Persistence

    init(key: String, kind: PersistentKind, target: Target, persistence: Persistence) {
        self.key = key
        self.kind = kind
        self.target = target
        self.persistence = persistence
    }

    /// The box's change hook: a set after a reset saves the value again.
    @inline(__always)
    final func changed() {
        if removed.load(ordering: .relaxed) { removed.store(false, ordering: .sequentiallyConsistent) }
        markDirty()
    }

    /// Marks the key as changed and, if no write is pending, schedules one.
    @inline(__always)
    final func markDirty() {
        if dirty.load(ordering: .relaxed) { return }
        if dirty.exchange(true, ordering: .sequentiallyConsistent) { return }
        persistence.schedule(self)
    }

    /// The box, held strongly while the key waits for its write.
    var anyBox: AnyObject? { nil }

    /// The value's JSON as it is now (nil only before the box is attached).
    func encoded() throws -> Data? { nil }

    /// The current value of a secret (only `SecretEntry` has one).
    var secret: String?? { nil }
}

// Entries hold their box `unowned`, not `weak`: a weak reference gives the box a side table and
// makes every retain and release of it (each `Application.storedState(\.key)`) take the slow path.
// The box owns the entry (through its hook), and a box is read only while its pending write holds
// it strongly (`Dirty.keepAlive`) or from inside the box's own hook, so it is always alive then.

/// The entry of a `StoredState` or `FileState`.
final class ValueEntry<Value: Codable & Sendable>: PersistentEntry, @unchecked Sendable {
    /// Set once, before the box is published.
    unowned var box: StateBox<Value>?

    override var anyBox: AnyObject? { box }

    override func encoded() throws -> Data? {
        guard let box else { return nil }
        switch target {
        case .store: return try PersistentCoding.compactEncoder().encode(box.untrackedValue)
        default:
            var data = try PersistentCoding.prettyEncoder().encode(box.untrackedValue)
            data.append(0x0A)
            return data
        }
    }
}

/// The entry of a `SecureState`.
final class SecretEntry: PersistentEntry, @unchecked Sendable {
    let secretKey: SecretKey
    unowned var box: StateBox<String?>?
    override var anyBox: AnyObject? { box }
    override var secret: String?? { box.map { $0.untrackedValue } }

    init(key: SecretKey, persistence: Persistence) {
        secretKey = key
        super.init(key: key.name, kind: .secure, target: .secret, persistence: persistence)
    }
}

/// The persistence engine of one store: loads the store file and the files of `FileState` on first
/// use, and `SecureState` values from its `SecretStore` (the desktop keyring, or files), and writes
/// changes.
///
/// Changes of `StoredState` and `FileState` are coalesced: the first change after a write
/// schedules one write 100 ms later on a background thread (`BackgroundWork`); it saves every key
/// changed by then.
/// `Application.shared.flush()` writes pending changes at once, and so does the process's normal
/// end (`main` returning, or `exit()`), through `ExitFlush`. Every write goes through `AtomicFile`
/// (temporary file, fsync, rename) and all of them are serialized by the `disk` lock.
///
/// Problems (a damaged file, an unwritable folder) are reported once each in the store's
/// `storeIssues`; the app keeps running with its values in memory.
final class Persistence: StateStorage {
    static let registryKey = "AppletState.persistence"
    /// How long a change waits for others to join its write.
    static let writeDelay: Duration = .milliseconds(100)

    let configuration: StorageConfiguration
    /// `<directory>/<appID>.json`
    let storePath: String
    /// `<directory>/files`: where `FileState` goes without a folder of its own.
    let filesFolder: String
    /// `<directory>/secure`
    let secureFolder: String

    /// Files written so far (for tests: coalescing).
    let fileWrites = Atomic<Int>(0)

    /// A changed entry, with its box kept alive until the write (the box is never used here).
    private struct Dirty: @unchecked Sendable {
        let entry: PersistentEntry
        let keepAlive: AnyObject?
    }

    private struct Pending {
        var dirty: [ObjectIdentifier: Dirty] = [:]
        var scheduled = false
    }
    private let pending = Mutex(Pending())

    /// Everything about the files; held while reading or writing them, so I/O is serialized.
    private struct Disk {
        /// The store file's content, nil until the first `StoredState` access reads it.
        var document: StoreDocument?
        /// The store file could not be read (or was damaged and could not be moved aside):
        /// never overwrite it.
        var storeBlocked = false
        /// The store file has changes a failed write did not save.
        var storeNeedsWrite = false
        /// Files of `FileState` not to overwrite (unreadable, or damaged and stuck).
        var blockedFiles: Set<String> = []
        /// Entries whose file write failed, tried again with the next write.
        var retry: [ObjectIdentifier: Dirty] = [:]
        /// For each root folder (the state folder, or a `FileState`'s own folder), the folders in
        /// it where writes fail now. A root's failure is reported when its first folder starts
        /// failing, and again only after every folder in it has worked since.
        var failing: [String: Set<String>] = [:]
        /// Keys whose value could not be encoded, reported once each.
        var unencodable: Set<String> = []
        /// `close()` was called: nothing is written any more.
        var closed = false
        /// The state folder's lock (`StateFolderLock`), taken at the first load or write.
        var lock: StateFolderLock.Outcome?
        /// Keys of the store file changed since its last successful write.
        var storeUnsaved: Set<String> = []
        /// Why the last write of each path failed (for what is reported at exit).
        var failures: [String: String] = [:]
    }
    private let disk = Mutex(Disk())

    /// A secret whose last write or removal failed: where it belongs and why (for the exit report).
    private struct UnsavedSecret {
        var place: String
        var reason: String
    }

    /// Everything about secrets; held while one is read or written, so the store sees one call at
    /// a time and the last write always carries the last value set. Taken before `disk`, never
    /// while holding it.
    private struct Secrets {
        /// Chosen at the first secret read or written (`SecretStores.make`).
        var store: (any SecretStore)?
        /// By key ("Feature.id").
        var unsaved: [String: UnsavedSecret] = [:]
    }
    private let secrets = Mutex(Secrets())

    private struct Owners {
        /// Where problems go: the `storeIssues` of the latest store that used this engine (a
        /// promoted store takes over the engine of the one it replaced). Not the store itself:
        /// the store owns this engine, and a weak reference would slow every use of the store.
        var issues: StateBox<[StoreIssue]>?
        /// The stores that flush this engine.
        var flushRegistered: Set<ObjectIdentifier> = []
    }
    private let owners: Mutex<Owners>

    init(configuration: StorageConfiguration, issues: StateBox<[StoreIssue]>) {
        self.configuration = configuration
        owners = Mutex(Owners(issues: issues))
        let directory = configuration.directory
        storePath = Path.join(directory, "\(Self.fileName(configuration.appID)).json")
        filesFolder = Path.join(directory, "files")
        secureFolder = Path.join(directory, "secure")
        ExitFlush.register(self)
    }

    /// A feature, id or app id made safe as one path component.
    static func fileName(_ name: String) -> String {
        let cleaned = String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "_\(cleaned)" : cleaned
    }

    // MARK: Keys and owners

    /// Records that `application` uses this engine. Returns true the first time: the caller
    /// then registers this engine's `flush` with it and makes it the store to report to.
    func adopt(_ application: Application) -> Bool {
        owners.withLock { Self.adopt(application, &$0) }
    }

    private static func adopt(_ application: Application, _ owners: inout Owners) -> Bool {
        owners.flushRegistered.insert(ObjectIdentifier(application)).inserted
    }

    /// Sends problems to `application`'s `storeIssues` from now on, and flushes with it.
    func attach(to application: Application) {
        let issues = application.storeIssues.box
        owners.withLock { $0.issues = issues }
        application.onFlush { self.writePending() }
    }

    /// Logs problems and adds them to the store's `storeIssues`, as `Application.report(_:)` does.
    func report(_ issues: [StoreIssue]) {
        guard !issues.isEmpty else { return }
        let box = owners.withLock { $0.issues }
        for issue in issues {
            StateLog.logger.error("\(issue.message)", metadata: issue.path.map { ["path": "\($0)"] })
            box?.modify { $0.append(issue) }
        }
    }

    // MARK: The folder's lock

    /// Takes the state folder's lock on first use; on success removes what interrupted writes left
    /// there (nobody else writes there now), and when another process holds it reports that once.
    private func ensureLock(_ disk: inout Disk) -> [StoreIssue] {
        guard disk.lock == nil else { return [] }
        let directory = configuration.directory
        let outcome = StateFolderLock.acquire(directory: directory, appID: configuration.appID)
        disk.lock = outcome
        switch outcome {
        case .acquired:
            var removed = 0
            for folder in [directory, filesFolder, secureFolder] { removed += AtomicFile.removeLeftovers(in: folder) }
            if removed > 0 {
                StateLog.logger.notice("removed \(removed) temporary files of interrupted saves", metadata: ["folder": "\(directory)"])
            }
            return []
        case .heldByAnother(let pid):
            return [StoreIssue("Another \(configuration.appID)\(pid.map { " (pid \($0))" } ?? "") is using the state folder \(directory). This one keeps its changes in memory only, so neither overwrites the other — quit the other one, or give this one another --state-dir.", path: directory)]
        case .unavailable:
            return []
        }
    }

    /// Why this process may not write `path` now, if it may not: another process holds the
    /// folder's lock and `path` is in it.
    private func lockedOut(_ path: String, disk: inout Disk) -> String? {
        guard case .heldByAnother(let pid) = disk.lock, Path.isInside(path, configuration.directory) else { return nil }
        return "another \(configuration.appID)\(pid.map { " (pid \($0))" } ?? "") is using \(configuration.directory)"
    }

    // MARK: Coalesced writes

    /// Queues `entry` for the next write, scheduling that write if none is pending.
    func schedule(_ entry: PersistentEntry) {
        if case .secret = entry.target {
            writeSecret(entry)
            return
        }
        let item = Dirty(entry: entry, keepAlive: entry.anyBox)
        let start = pending.withLock { pending -> Bool in
            pending.dirty[ObjectIdentifier(entry)] = item
            if pending.scheduled { return false }
            pending.scheduled = true
            return true
        }
        if start {
            BackgroundWork.after(Self.writeDelay) { self.writePending() }
        }
    }

    /// Writes every pending change now (the scheduled write, and `Application.shared.flush()`).
    func writePending() {
        let issues = disk.withLock { disk -> [StoreIssue] in
            var issues = ensureLock(&disk)
            var batch = pending.withLock { pending -> [ObjectIdentifier: Dirty] in
                let batch = pending.dirty
                pending.dirty = [:]
                pending.scheduled = false
                return batch
            }
            if disk.closed { return issues }
            batch.merge(disk.retry) { current, _ in current }
            disk.retry = [:]
            var storeChanged = disk.storeNeedsWrite
            for (id, item) in batch {
                let entry = item.entry
                // Cleared before the value is read: a change after this read marks it again.
                entry.dirty.store(false, ordering: .sequentiallyConsistent)
                if entry.removed.load(ordering: .sequentiallyConsistent) {
                    switch entry.target {
                    case .store:
                        if disk.document != nil, disk.document!.fragments.removeValue(forKey: entry.key) != nil {
                            storeChanged = true
                            disk.storeUnsaved.insert(entry.key)
                        }
                    case .file(let path, _):
                        if disk.blockedFiles.contains(path) { continue }
                        if let reason = lockedOut(path, disk: &disk) {
                            disk.failures[path] = reason
                            disk.retry[id] = item
                        } else if unlink(path) != 0, errno != ENOENT, errno != ENOTDIR {
                            let reason = String(cString: strerror(errno))
                            if disk.failures.updateValue(reason, forKey: path) == nil {
                                issues.append(StoreIssue("Cannot delete \(path) to reset '\(entry.key)': \(reason). The value in memory is the initial one; the file keeps the old one until it can be removed.", path: path))
                            }
                            disk.retry[id] = item
                        } else {
                            disk.failures[path] = nil
                        }
                    case .secret:
                        break
                    }
                    continue
                }
                let data: Data
                do {
                    guard let encoded = try entry.encoded() else { continue }
                    data = encoded
                    disk.unencodable.remove(entry.key)
                } catch {
                    if disk.unencodable.insert(entry.key).inserted {
                        issues.append(StoreIssue("Cannot save '\(entry.key)': its value cannot be written as JSON (\(error)). It is kept in memory only.", path: nil))
                    }
                    continue
                }
                switch entry.target {
                case .store:
                    // Kept in the document even when the file is blocked: what was not saved can
                    // still be written elsewhere at exit.
                    if disk.document != nil {
                        disk.document!.fragments[entry.key] = data
                        storeChanged = true
                        disk.storeUnsaved.insert(entry.key)
                    }
                case .file(let path, let root):
                    if disk.blockedFiles.contains(path) {
                        disk.retry[id] = item
                        continue
                    }
                    if !save(data, to: path, root: root, disk: &disk, issues: &issues) { disk.retry[id] = item }
                case .secret:
                    break
                }
            }
            if storeChanged, let document = disk.document {
                if disk.storeBlocked {
                    disk.storeNeedsWrite = true
                } else {
                    disk.storeNeedsWrite = !save(document.serialized(), to: storePath, root: configuration.directory, disk: &disk, issues: &issues)
                    if !disk.storeNeedsWrite { disk.storeUnsaved = [] }
                }
            }
            return issues
        }
        report(issues)
    }

    /// Writes `data` atomically, creating its folder (0700). Reports a failure once per `root`.
    private func save(_ data: Data, to path: String, root: String, disk: inout Disk, issues: inout [StoreIssue]) -> Bool {
        if let reason = lockedOut(path, disk: &disk) {
            disk.failures[path] = reason
            return false
        }
        let folder = Path.directory(of: path)
        do {
            try AtomicFile.ensureDirectory(folder, mode: 0o700)
            try AtomicFile.write(data, to: path, mode: 0o600)
            fileWrites.add(1, ordering: .relaxed)
            disk.failures[path] = nil
            worked(folder, root: root, disk: &disk)
            return true
        } catch {
            disk.failures[path] = (error as? AtomicFile.Failure)?.reason ?? "\(error)"
            failed(folder, root: root, error: error, disk: &disk, issues: &issues)
            return false
        }
    }

    private func worked(_ folder: String, root: String, disk: inout Disk) {
        guard disk.failing[root] != nil else { return }
        disk.failing[root]!.remove(folder)
        if disk.failing[root]!.isEmpty { disk.failing[root] = nil }
    }

    private func failed(_ folder: String, root: String, error: Error, disk: inout Disk, issues: inout [StoreIssue]) {
        if disk.failing[root, default: []].isEmpty { issues.append(unwritable(root: root, error: error)) }
        disk.failing[root, default: []].insert(folder)
    }

    private func unwritable(root: String, error: Error) -> StoreIssue {
        let detail: String
        if let failure = error as? AtomicFile.Failure {
            detail = failure.path == root ? failure.reason : failure.description
        } else {
            detail = "\(error)"
        }
        let advice = root == configuration.directory
            ? "set --state-dir to a writable folder"
            : "make that folder writable or choose another one"
        return StoreIssue("Cannot save state in \(root): \(detail). Changes are kept in memory only — \(advice).", path: root)
    }

    /// Stops all writing from now on; values stay readable and settable in memory. For tests,
    /// which flush, close, and then delete their folder: a retry of a failed write (or a write
    /// still scheduled) would otherwise make the folder again.
    func close() {
        disk.withLock { $0.closed = true }
    }

    // MARK: What could not be saved

    /// What is still unsaved after a last `writePending()`: the store file's changed keys, the
    /// `FileState` files and secrets whose writes failed. With `writingCopies`, each value that
    /// can be is written beside its file (`<file>.unsaved-<time>`) or, if that fails too, in a
    /// folder of its own in the temporary folder; secrets are never copied.
    func unsaved(writingCopies: Bool) -> [UnsavedChange] {
        let secrets = self.secrets.withLock { $0.unsaved.map { ($0.key, $0.value.place, $0.value.reason) } }
        let found = disk.withLock { disk -> ((Set<String>, Data, String)?, [(String, String, Data?, String)])? in
            if disk.closed { return nil }
            var store: (Set<String>, Data, String)?
            if disk.storeNeedsWrite, !disk.storeUnsaved.isEmpty, let document = disk.document {
                let reason = disk.failures[storePath] ?? (disk.storeBlocked ? "the file could not be read, so it is left untouched" : "it could not be written")
                store = (disk.storeUnsaved, document.serialized(), reason)
            }
            var files: [(String, String, Data?, String)] = []
            for item in disk.retry.values {
                guard case .file(let path, _) = item.entry.target else { continue }
                let data = item.entry.removed.load(ordering: .relaxed) ? nil : (try? item.entry.encoded()) ?? nil
                files.append((item.entry.key, path, data, disk.failures[path] ?? "it could not be written"))
            }
            return (store, files)
        }
        guard let (store, files) = found else { return [] }
        var changes: [UnsavedChange] = []
        if let (keys, data, reason) = store {
            changes.append(UnsavedChange(keys: keys.sorted(), path: storePath, reason: reason,
                                         copy: writingCopies ? writeCopy(data, of: storePath) : nil))
        }
        for (key, path, data, reason) in files.sorted(by: { $0.1 < $1.1 }) {
            changes.append(UnsavedChange(keys: [key], path: path, reason: reason,
                                         copy: writingCopies ? data.flatMap { writeCopy($0, of: path) } : nil))
        }
        for (key, place, reason) in secrets.sorted(by: { ($0.1, $0.0) < ($1.1, $1.0) }) {
            changes.append(UnsavedChange(keys: [key], path: place, reason: reason, copy: nil, isSecret: true))
        }
        return changes
    }

    /// Writes what could not be saved to `path` beside it, else in the temporary folder; returns
    /// where, or nil if neither could be written.
    private func writeCopy(_ data: Data, of path: String) -> String? {
        let stamp = Self.timestamp()
        let beside = "\(path).unsaved-\(stamp)"
        if access(beside, F_OK) != 0, (try? AtomicFile.write(data, to: beside, mode: 0o600)) != nil { return beside }
        let base = ProcessEnvironment.temporaryDirectory
        var template = Array("\(base)/\(Self.fileName(configuration.appID))-unsaved-\(stamp)-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return nil }
        let folder = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let copy = Path.join(folder, Path.name(of: path))
        return (try? AtomicFile.write(data, to: copy, mode: 0o600)) != nil ? copy : nil
    }

    // MARK: Secrets

    /// Whether `close()` was called.
    var isClosed: Bool { disk.withLock { $0.closed } }

    /// The store of this engine's secrets, chosen at the first use.
    var secretStore: any SecretStore { secrets.withLock { store(&$0) } }

    private func store(_ secrets: inout Secrets) -> any SecretStore {
        if let store = secrets.store { return store }
        let store = SecretStores.make(for: self)
        secrets.store = store
        return store
    }

    /// A `SecureState`'s value at its first access: the saved secret, or nil.
    func loadSecret(_ key: SecretKey) -> (value: String?, issues: [StoreIssue]) {
        secrets.withLock { store(&$0).load(key) }
    }

    /// Saves (or, for nil, removes) a secret now. The value saved is the box's current one, read
    /// under the secrets lock, so the store always ends with the last value set.
    func writeSecret(_ entry: PersistentEntry) {
        guard let entry = entry as? SecretEntry else { return }
        let issues = secrets.withLock { secrets -> [StoreIssue] in
            guard !isClosed, let value = entry.secret else { return [] }
            let store = store(&secrets)
            let key = entry.secretKey
            switch value.map({ store.save($0, for: key) }) ?? store.remove(key) {
            case .done:
                secrets.unsaved[key.name] = nil
                return []
            case .failed(let reason, let issues):
                secrets.unsaved[key.name] = UnsavedSecret(place: store.place(of: key), reason: reason)
                return issues
            }
        }
        report(issues)
    }

    // MARK: The state folder, for secrets in files (FileSecretStore)

    /// Takes the state folder's lock on first use; the issue, once, if another process holds it.
    func folderLockIssues() -> [StoreIssue] {
        disk.withLock { ensureLock(&$0) }
    }

    /// Why this process may not write `path` now (another process holds the folder), if it may not.
    func lockedOutReason(_ path: String) -> String? {
        disk.withLock { lockedOut(path, disk: &$0) }
    }

    /// Writes a file in a folder under `root` as every state file is written (atomically, mode
    /// 0600, an unwritable `root` reported once). Returns whether it was written, else why not.
    func writeFile(_ data: Data, to path: String, root: String) -> (saved: Bool, reason: String, issues: [StoreIssue]) {
        disk.withLock { disk in
            var issues: [StoreIssue] = []
            let saved = save(data, to: path, root: root, disk: &disk, issues: &issues)
            return (saved, disk.failures[path] ?? "it could not be written", issues)
        }
    }

    /// Records that `folder` under `root` cannot be made; the issue if `root` starts failing now.
    func folderFailed(_ folder: String, root: String, error: Error) -> [StoreIssue] {
        disk.withLock { disk in
            var issues: [StoreIssue] = []
            failed(folder, root: root, error: error, disk: &disk, issues: &issues)
            return issues
        }
    }

    // MARK: Loading

    /// A `StoredState`'s value at its first access: the saved one, or `initial`.
    func loadStored<Value: Codable & Sendable>(key: String, initial: Value) -> (value: Value, issues: [StoreIssue]) {
        var issues: [StoreIssue] = []
        let stored = disk.withLock { disk -> JSONValue? in
            if disk.document == nil {
                issues = ensureLock(&disk)
                let (document, blocked, problems) = readDocument()
                disk.document = document
                disk.storeBlocked = blocked
                issues += problems
            }
            return try? disk.document!.value(for: key)
        }
        guard let stored else { return (initial, issues) }
        do {
            return (try PersistentCoding.decode(stored, as: Value.self, initial: initial), issues)
        } catch {
            let kept = keepAside(stored, key: key)
            issues.append(StoreIssue("The saved value of '\(key)' in \(storePath) no longer fits its type (\(PersistentCoding.describe(error))); it was kept as \(kept), and '\(key)' starts from its initial value. Other saved values are unaffected.", path: storePath))
            return (initial, issues)
        }
    }

    /// Keeps a saved value that no longer decodes, before the first save replaces it: in a file
    /// beside the store file (`<store>.<key>.mistyped-<time>`), or, if that cannot be written,
    /// in the store file under a key of its own. Returns where it is, for the message.
    private func keepAside(_ value: JSONValue, key: String) -> String {
        let suffix = "mistyped-\(Self.timestamp())"
        let path = "\(storePath).\(Self.fileName(key)).\(suffix)"
        let data = (try? PersistentCoding.prettyEncoder().encode(value)) ?? Data(value.description.utf8)
        return disk.withLock { disk -> String in
            if lockedOut(path, disk: &disk) == nil,
               access(path, F_OK) != 0,
               (try? AtomicFile.write(data + Data("\n".utf8), to: path, mode: 0o600)) != nil {
                return path
            }
            let asideKey = "\(key).\(suffix)"
            disk.document?.fragments[asideKey] = (try? PersistentCoding.compactEncoder().encode(value)) ?? data
            disk.storeUnsaved.insert(asideKey)
            disk.storeNeedsWrite = true
            return "'\(asideKey)' in \(storePath)"
        }
    }

    /// A `FileState`'s value at its first access: the file's, or `initial`.
    func loadFile<Value: Codable & Sendable>(key: String, path: String, initial: Value) -> (value: Value, issues: [StoreIssue]) {
        disk.withLock { disk -> (Value, [StoreIssue]) in
            let locking = ensureLock(&disk)
            let (value, issues) = loadFileLocked(key: key, path: path, initial: initial, disk: &disk)
            return (value, locking + issues)
        }
    }

    private func loadFileLocked<Value: Codable & Sendable>(key: String, path: String, initial: Value, disk: inout Disk) -> (Value, [StoreIssue]) {
            switch Self.readExisting(path) {
            case .absent:
                return (initial, [])
            case .unreadable(let reason):
                disk.blockedFiles.insert(path)
                disk.failures[path] = "it could not be read (\(reason)), so it is left untouched"
                return (initial, [StoreIssue("Cannot read \(path) (\(reason)); '\(key)' starts from its initial value and the file is left untouched, so changes are kept in memory only.", path: path)])
            case .data(let data):
                let problem: String
                do {
                    let stored = try PersistentCoding.parse(data)
                    do {
                        return (try PersistentCoding.decode(stored, as: Value.self, initial: initial), [])
                    } catch {
                        problem = "its content no longer fits the type of '\(key)' (\(PersistentCoding.describe(error)))"
                    }
                } catch {
                    problem = data.isEmpty ? "it was empty" : "it was not valid JSON (cut short or damaged)"
                }
                let (issue, stuck) = setAside(path, problem: problem, values: "'\(key)' starts from its initial value")
                if stuck {
                    disk.blockedFiles.insert(path)
                    disk.failures[path] = "it is damaged and could not be moved aside, so it is left untouched"
                }
                return (initial, [issue])
            }
    }

    /// Reads the store file once: its keys, or an empty document if it is missing or damaged.
    private func readDocument() -> (document: StoreDocument, blocked: Bool, issues: [StoreIssue]) {
        switch Self.readExisting(storePath) {
        case .absent:
            return (StoreDocument(), false, [])
        case .unreadable(let reason):
            return (StoreDocument(), true, [StoreIssue("Cannot read the state file \(storePath) (\(reason)); saved values start from their initial values and the file is left untouched, so changes are kept in memory only — fix the file's permissions or set --state-dir.", path: storePath)])
        case .data(let data):
            do {
                return (try StoreDocument(parsing: data), false, [])
            } catch {
                let problem: String
                if data.isEmpty { problem = "it was empty" }
                else if error is StoreDocument.DocumentError { problem = "it was not a JSON object" }
                else { problem = "it was not valid JSON (cut short or damaged)" }
                let (issue, stuck) = setAside(storePath, problem: problem, values: "saved values start from their initial values")
                return (StoreDocument(), stuck, [issue])
            }
        }
    }

    /// Moves a damaged file aside as `<name>.corrupt-<yyyyMMdd-HHmmss>` so a later write starts a
    /// fresh one. If it cannot be moved it is left alone (`stuck`) and must never be overwritten.
    private func setAside(_ path: String, problem: String, values: String) -> (issue: StoreIssue, stuck: Bool) {
        let base = "\(path).corrupt-\(Self.timestamp())"
        var aside = base
        var attempt = 1
        while access(aside, F_OK) == 0 {
            attempt += 1
            aside = "\(base)-\(attempt)"
        }
        if rename(path, aside) == 0 {
            return (StoreIssue("\(path) could not be read: \(problem). It was moved aside as \(aside), and \(values). Nothing else was lost.", path: path), false)
        }
        let reason = String(cString: strerror(errno))
        return (StoreIssue("\(path) could not be read: \(problem), and it could not be moved aside (\(reason)). It is left untouched and \(values); changes are kept in memory only.", path: path), true)
    }

    /// Local time as `20261123-101500`.
    static func timestamp(_ date: Date = Date()) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    enum ReadResult {
        case absent
        case unreadable(String)
        case data(Data)
    }

    /// The largest state file read (a store file, a `FileState`'s, a secret's): a larger one is
    /// left untouched, as an unreadable one is.
    static let maximumFileBytes = 64 << 20

    /// A file's bytes; `.absent` also when a folder on the way is missing or is a file (a write
    /// will report that); `.unreadable` when it exists but cannot be read, is not a regular file,
    /// or is over `maximumFileBytes`.
    static func readExisting(_ path: String) -> ReadResult {
        do {
            guard let data = try AtomicFile.read(path, limit: maximumFileBytes) else { return .absent }
            return .data(data)
        } catch let failure as AtomicFile.Failure {
            return .unreadable(failure.reason)
        } catch is AtomicFile.TooLarge {
            return .unreadable("it is over \(maximumFileBytes >> 20) MiB, more than a state file may be")
        } catch {
            return .unreadable("\(error)")
        }
    }
}

extension Application {
    /// This store's persistence engine, made at the first persistent access with the `storage`
    /// in effect then.
    var persistence: Persistence {
        let engine: Persistence
        if let made = registry.withLock({ $0[Persistence.registryKey]?.storage }) {
            engine = unsafeDowncast(made as AnyObject, to: Persistence.self)
        } else {
            let issues = storeIssues.box
            engine = box(key: Persistence.registryKey) { Persistence(configuration: storage, issues: issues) }
        }
        if engine.adopt(self) { engine.attach(to: self) }
        return engine
    }

    /// The box of a persistent key: the existing one, or a new one holding what `load` read (given
    /// the declaration's initial value), with a hook that saves its changes. Problems found while
    /// loading are reported once, by the access that made the box.
    ///
    /// `registryKey` is the kind and the key ("StoredState:Feature.id"); `key` is what the value is
    /// saved under and named by in messages.
    func persistentBox<Value: Sendable, Entry: PersistentEntry>(
        registryKey: String,
        key: String,
        declaration: Declaration,
        initial: () -> Value,
        load: (Persistence, Value) -> (value: Value, issues: [StoreIssue]),
        entry makeEntry: (Persistence) -> Entry,
        attach: (Entry, StateBox<Value>) -> Void
    ) -> StateBox<Value> {
        let persistence = self.persistence
        // A value of another type under this key is kept in memory only.
        let fallback = { (other: String) in StateBox(initial(), key: other) }
        if registry.withLock({ $0[registryKey] != nil }) {
            // Entries are never removed: `make` does not run.
            return box(key: registryKey, name: key, declaration: declaration, make: { StateBox(initial(), key: key) }, fallback: fallback)
        }
        let start = initial()
        let (value, issues) = load(persistence, start)
        var created = false
        let made = box(key: registryKey, name: key, declaration: declaration, make: { () -> StateBox<Value> in
            created = true
            let entry = makeEntry(persistence)
            let box: StateBox<Value>
            if case .secret = entry.target {
                box = StateBox(value, initial: start, key: key) { _ in persistence.writeSecret(entry) }
            } else {
                box = StateBox(value, initial: start, key: key, didChange: { _ in entry.changed() }, onReset: { box in
                    // Back to the initial value, and the saved one removed at the next write.
                    box.restoreInitial { entry.removed.store(true, ordering: .sequentiallyConsistent) }
                    entry.markDirty()
                })
            }
            attach(entry, box)
            return box
        }, fallback: fallback)
        if created { persistence.report(issues) }
        return made
    }

    /// The persistence engine if a persistent access has made one (nil: nothing to save).
    var existingPersistence: Persistence? {
        registry.withLock { $0[Persistence.registryKey]?.storage }.map { unsafeDowncast($0 as AnyObject, to: Persistence.self) }
    }

    /// How many files this store has written (for tests of coalescing).
    var persistentFileWrites: Int { persistence.fileWrites.load(ordering: .relaxed) }
}
