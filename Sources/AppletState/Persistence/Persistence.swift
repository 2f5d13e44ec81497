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

/// One persistent value: its strategy and box (in `StrategyEntry`), and whether it has changes
/// not yet written.
///
/// The box's `didChange` hook calls `changed()`. For a coalesced kind that is a relaxed load of
/// `dirty` when a write is already pending (the common case: no lock, no allocation), else one
/// exchange and a lock to queue the value. The writer clears `dirty` before it reads the value
/// (under the box's lock), so a change made after that read always queues it again. An at-once
/// kind writes from the hook itself.
class PersistentEntry: @unchecked Sendable {
    let key: String
    let atOnce: Bool
    let isSecret: Bool
    let dirty = Atomic<Bool>(false)
    /// Reset: the next write removes the saved value instead of writing it. Any later change
    /// clears it.
    let removed = Atomic<Bool>(false)
    /// Held while this value is written at once: the last write carries the last value set.
    let writeLock = Mutex(())
    let persistence: Persistence

    init(key: String, atOnce: Bool, isSecret: Bool, persistence: Persistence) {
        self.key = key
        self.atOnce = atOnce
        self.isSecret = isSecret
        self.persistence = persistence
    }

    /// The box's change hook: a set after a reset saves the value again.
    @inline(__always)
    final func changed() {
        if removed.load(ordering: .relaxed) { removed.store(false, ordering: .sequentiallyConsistent) }
        if atOnce { persistence.writeNow(self) } else { markDirty() }
    }

    /// Marks the value as changed and, if no write is pending, schedules one.
    @inline(__always)
    final func markDirty() {
        if dirty.load(ordering: .relaxed) { return }
        if dirty.exchange(true, ordering: .sequentiallyConsistent) { return }
        persistence.schedule(self)
    }

    /// The box, held strongly while the value waits for its write.
    var anyBox: AnyObject? { nil }

    /// Saves the value as it is now (or removes it, after a reset) through the strategy.
    func write(to storage: PersistentStorage) -> WriteOutcome { .skipped }

    /// What to copy somewhere when the value cannot be saved by the end.
    func unsavedCopy() -> Data? { nil }
}

/// How one write of one value went.
enum WriteOutcome {
    case saved
    /// Still to be saved: tried again with the next write, named at exit.
    case failed(PersistenceFailure)
    /// The value cannot be encoded: reported once, not tried again until it changes.
    case unencodable(any Error)
    /// The box is gone: nothing to write.
    case skipped
}

// Entries hold their box `unowned`, not `weak`: a weak reference gives the box a side table and
// makes every retain and release of it (each `Application.storedState(\.key)`) take the slow path.
// The box owns the entry (through its hook), and a box is read only while its pending write holds
// it strongly (`Dirty.keepAlive`) or from inside the box's own hook, so it is always alive then.

/// The entry of a value kept by `Strategy`.
final class StrategyEntry<Strategy: PersistenceStrategy>: PersistentEntry, @unchecked Sendable {
    let strategy: Strategy
    /// Set once, before the box is published.
    unowned var box: StateBox<Strategy.Value>?
    /// What the strategy's `observe` started; ended with the entry.
    var observation: (any PersistenceObservation)?

    init(strategy: Strategy, persistence: Persistence) {
        self.strategy = strategy
        super.init(key: strategy.key, atOnce: Strategy.timing == .atOnce, isSecret: Strategy.isSecret, persistence: persistence)
    }

    deinit { observation?.cancel() }

    override var anyBox: AnyObject? { box }

    override func write(to storage: PersistentStorage) -> WriteOutcome {
        guard let box else { return .skipped }
        do {
            if removed.load(ordering: .sequentiallyConsistent) {
                try strategy.remove(from: storage)
            } else {
                try strategy.save(box.untrackedValue, to: storage)
            }
            return .saved
        } catch let failure as PersistenceFailure {
            return .failed(failure)
        } catch let error as EncodingError {
            return .unencodable(error)
        } catch {
            return .failed(PersistenceFailure("\(error)"))
        }
    }

    override func unsavedCopy() -> Data? {
        guard !isSecret, !removed.load(ordering: .relaxed), let box else { return nil }
        return strategy.unsavedCopy(of: box.untrackedValue)
    }
}

/// The persistence engine of one store: it loads each persistent value through its strategy at
/// the value's first access and saves its changes, the same way for every kind.
///
/// Changes of coalesced kinds (`StoredState`, `FileState`) wait: the first change after a write
/// schedules one write 100 ms later on a background thread (`BackgroundWork`); it saves every
/// value changed by then. `Application.shared.flush()` writes pending changes at once, and so
/// does the process's normal end (`main` returning, or `exit()`), through `ExitFlush`. At-once
/// kinds (`SecureState`, `SyncState`) write from the thread that set the value. A write that
/// fails stays pending: tried again with the next, and named at exit (`unsaved`).
///
/// The engine also owns the app's one store file (the document `StoredState` keeps its keys in),
/// the state folder's lock, and the file primitives every kind writes through
/// (`PersistentStorage`): atomic writes, bounded reads, damaged files moved aside. Problems (a
/// damaged file, an unwritable folder) are reported once each in the store's `storeIssues`; the
/// app keeps running with its values in memory.
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

    /// The registry keys of values whose kind keeps secrets (`PersistenceStrategy.isSecret`):
    /// `Application.description` never shows them.
    private let secretKeys = Mutex<Set<String>>([])

    func markSecret(_ registryKey: String) { secretKeys.withLock { _ = $0.insert(registryKey) } }
    func isSecret(_ registryKey: String) -> Bool { secretKeys.withLock { $0.contains(registryKey) } }

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
    /// Held while a batch of coalesced writes runs: one batch at a time.
    private let batch = Mutex(())

    /// Values whose last write failed, and values that cannot be encoded.
    private struct Outcomes {
        var failed: [ObjectIdentifier: (item: Dirty, failure: PersistenceFailure)] = [:]
        var unencodable: Set<String> = []
    }
    private let outcomes = Mutex(Outcomes())

    /// Everything about the files; held while reading or writing them, so I/O is serialized.
    private struct Disk {
        /// The store file's content, nil until the first `StoredState` access reads it.
        var document: StoreDocument?
        /// The store file could not be read (or was damaged and could not be moved aside):
        /// never overwrite it.
        var storeBlocked = false
        /// The store file has changes not written yet (this batch's, or a failed write's).
        var storeNeedsWrite = false
        /// Keys of the store file changed since its last successful write.
        var storeUnsaved: Set<String> = []
        /// Why the store file's last write failed.
        var storeFailure: String?
        /// Files not to overwrite (unreadable, or damaged and stuck), with why.
        var blocked: [String: String] = [:]
        /// For each root folder (the state folder, or a `FileState`'s own folder), the folders in
        /// it where writes fail now. A root's failure is reported when its first folder starts
        /// failing, and again only after every folder in it has worked since.
        var failing: [String: Set<String>] = [:]
        /// Files that could not be deleted, reported once each until one deletion works.
        var undeletable: Set<String> = []
        /// `close()` was called: nothing is written any more.
        var closed = false
        /// The state folder's lock (`StateFolderLock`), taken at the first load or write.
        var lock: StateFolderLock.Outcome?
    }
    private let disk = Mutex(Disk())

    /// The store of this engine's secrets; held while one is read or written, so the store sees
    /// one call at a time. Taken before `disk`, never while holding it.
    private let secrets = Mutex<(any SecretStore)?>(nil)

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
        owners.withLock { $0.flushRegistered.insert(ObjectIdentifier(application)).inserted }
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

    // MARK: Writing

    /// Queues `entry` for the next write, scheduling that write if none is pending.
    func schedule(_ entry: PersistentEntry) {
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

    /// Writes every pending change now (the scheduled write, and `Application.shared.flush()`),
    /// and tries again what failed before.
    func writePending() {
        batch.withLock { _ in
            var items = pending.withLock { pending -> [ObjectIdentifier: Dirty] in
                let items = pending.dirty
                pending.dirty = [:]
                pending.scheduled = false
                return items
            }
            if isClosed { return }
            report(disk.withLock { ensureLock(&$0) })
            let retries = outcomes.withLock { outcomes -> [ObjectIdentifier: Dirty] in
                var retries: [ObjectIdentifier: Dirty] = [:]
                for (id, failed) in outcomes.failed where !failed.item.entry.atOnce {
                    retries[id] = failed.item
                    outcomes.failed[id] = nil
                }
                return retries
            }
            items.merge(retries) { current, _ in current }
            let storage = PersistentStorage(engine: self)
            for (id, item) in items {
                // Cleared before the value is read: a change after this read marks it again.
                item.entry.dirty.store(false, ordering: .sequentiallyConsistent)
                record(item.entry.write(to: storage), of: item, id: id)
            }
            report(writeStoreFile())
        }
    }

    /// Saves (or removes) an at-once kind's value now, from the thread that changed it. The
    /// value saved is the box's current one, read under the entry's lock, so the saved value
    /// always ends as the last one set.
    func writeNow(_ entry: PersistentEntry) {
        entry.writeLock.withLock { _ in
            guard !isClosed else { return }
            let item = Dirty(entry: entry, keepAlive: entry.anyBox)
            record(entry.write(to: PersistentStorage(engine: self)), of: item, id: ObjectIdentifier(entry))
        }
    }

    private func record(_ outcome: WriteOutcome, of item: Dirty, id: ObjectIdentifier) {
        let key = item.entry.key
        switch outcome {
        case .saved:
            outcomes.withLock {
                $0.failed[id] = nil
                $0.unencodable.remove(key)
            }
        case .failed(let failure):
            outcomes.withLock { $0.failed[id] = (item, failure) }
        case .unencodable(let error):
            let first = outcomes.withLock {
                $0.failed[id] = nil
                return $0.unencodable.insert(key).inserted
            }
            if first {
                report([StoreIssue("Cannot save '\(key)': its value cannot be written as JSON (\(error)). It is kept in memory only.", path: nil)])
            }
        case .skipped:
            break
        }
    }

    // MARK: The store file

    /// The saved JSON of `key` in the store file, reading the file at the first call.
    func storeValue(for key: String) -> (value: JSONValue?, issues: [StoreIssue]) {
        disk.withLock { disk in
            let issues = ensureDocument(&disk)
            return ((try? disk.document!.value(for: key)) ?? nil, issues)
        }
    }

    /// Sets `key` in the store file, written at the end of the batch.
    func setStoreValue(_ data: Data, for key: String) {
        disk.withLock { disk in
            // Kept in the document even when the file is blocked: what was not saved can still
            // be written elsewhere at exit.
            _ = ensureDocument(&disk)
            disk.document!.fragments[key] = data
            disk.storeNeedsWrite = true
            disk.storeUnsaved.insert(key)
        }
    }

    /// Removes `key` from the store file, at the end of the batch.
    func removeStoreValue(for key: String) {
        disk.withLock { disk in
            _ = ensureDocument(&disk)
            if disk.document!.fragments.removeValue(forKey: key) != nil {
                disk.storeNeedsWrite = true
                disk.storeUnsaved.insert(key)
            }
        }
    }

    private func ensureDocument(_ disk: inout Disk) -> [StoreIssue] {
        guard disk.document == nil else { return [] }
        var issues = ensureLock(&disk)
        let (document, blocked, problems) = readDocument()
        disk.document = document
        disk.storeBlocked = blocked
        issues += problems
        return issues
    }

    /// Writes the store file if this batch (or a failed write before it) changed it.
    private func writeStoreFile() -> [StoreIssue] {
        disk.withLock { disk in
            guard disk.storeNeedsWrite, let document = disk.document, !disk.closed else { return [] }
            if disk.storeBlocked {
                disk.storeFailure = "the file could not be read, so it is left untouched"
                return []
            }
            do throws(SaveError) {
                try save(document.serialized(), to: storePath, root: configuration.directory, disk: &disk)
                disk.storeNeedsWrite = false
                disk.storeUnsaved = []
                disk.storeFailure = nil
                return []
            } catch {
                disk.storeFailure = error.reason
                return error.issues
            }
        }
    }

    // MARK: Files

    /// Writes a file as every state file is written; see `PersistentStorage.write`.
    func write(_ data: Data, to path: String, root: String) throws(PersistenceFailure) {
        let result = disk.withLock { disk -> SaveError? in
            do throws(SaveError) {
                try save(data, to: path, root: root, disk: &disk)
                return nil
            } catch {
                return error
            }
        }
        guard let result else { return }
        report(result.issues)
        throw PersistenceFailure(result.reason, place: path)
    }

    /// Deletes a state file; a missing one is no error. A damaged file left untouched stays.
    func removeFile(_ path: String, key: String) throws(PersistenceFailure) {
        let result = disk.withLock { disk -> (String, [StoreIssue])? in
            if disk.blocked[path] != nil { return nil }
            if let reason = lockedOut(path, disk: &disk) { return (reason, []) }
            if unlink(path) != 0, errno != ENOENT, errno != ENOTDIR {
                let reason = String(cString: strerror(errno))
                guard disk.undeletable.insert(path).inserted else { return (reason, []) }
                return (reason, [StoreIssue("Cannot delete \(path) to reset '\(key)': \(reason). The value in memory is the initial one; the file keeps the old one until it can be removed.", path: path)])
            }
            disk.undeletable.remove(path)
            return nil
        }
        guard let (reason, issues) = result else { return }
        report(issues)
        throw PersistenceFailure(reason, place: path)
    }

    /// Why a write failed, and what to report about it (once per root).
    private struct SaveError: Error {
        var reason: String
        var issues: [StoreIssue] = []
    }

    /// Writes `data` atomically, creating its folder (0700). Reports a failure once per `root`.
    private func save(_ data: Data, to path: String, root: String, disk: inout Disk) throws(SaveError) {
        if let reason = disk.blocked[path] { throw SaveError(reason: reason) }
        if let reason = lockedOut(path, disk: &disk) { throw SaveError(reason: reason) }
        let folder = Path.directory(of: path)
        do {
            try AtomicFile.ensureDirectory(folder, mode: 0o700)
            try AtomicFile.write(data, to: path, mode: 0o600)
            fileWrites.add(1, ordering: .relaxed)
            worked(folder, root: root, disk: &disk)
        } catch {
            var issues: [StoreIssue] = []
            failed(folder, root: root, error: error, disk: &disk, issues: &issues)
            throw SaveError(reason: (error as? AtomicFile.Failure)?.reason ?? "\(error)", issues: issues)
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

    /// What is still unsaved after a last `writePending()`: the store file's changed keys, and
    /// each value whose last write failed. With `writingCopies`, each value that can be is
    /// written beside its file (`<file>.unsaved-<time>`) or, if that fails too, in a folder of
    /// its own in the temporary folder; secrets are never copied.
    func unsaved(writingCopies: Bool) -> [UnsavedChange] {
        let found = disk.withLock { disk -> (keys: [String], data: Data, reason: String)?? in
            if disk.closed { return nil }
            guard disk.storeNeedsWrite, !disk.storeUnsaved.isEmpty, let document = disk.document else { return .some(nil) }
            return (disk.storeUnsaved.sorted(), document.serialized(), disk.storeFailure ?? "it could not be written")
        }
        guard let store = found else { return [] }
        var changes: [UnsavedChange] = []
        if let (keys, data, reason) = store {
            changes.append(UnsavedChange(keys: keys, path: storePath, reason: reason,
                                         copy: writingCopies ? writeCopy(data, of: storePath) : nil))
        }
        let failed = outcomes.withLock { Array($0.failed.values) }
        let values = failed.map { (entry: $0.item.entry, place: $0.failure.place ?? $0.item.entry.key, reason: $0.failure.reason) }
        for value in values.filter({ !$0.entry.isSecret }).sorted(by: { ($0.place, $0.entry.key) < ($1.place, $1.entry.key) }) {
            changes.append(UnsavedChange(keys: [value.entry.key], path: value.place, reason: value.reason,
                                         copy: writingCopies ? value.entry.unsavedCopy().flatMap { writeCopy($0, of: value.place) } : nil))
        }
        for value in values.filter(\.entry.isSecret).sorted(by: { ($0.place, $0.entry.key) < ($1.place, $1.entry.key) }) {
            changes.append(UnsavedChange(keys: [value.entry.key], path: value.place, reason: value.reason, copy: nil, isSecret: true))
        }
        return changes
    }

    /// Writes what could not be saved to `path` beside it (when it is a file's path), else in the
    /// temporary folder; returns where, or nil if neither could be written.
    private func writeCopy(_ data: Data, of path: String) -> String? {
        let stamp = Self.timestamp()
        // Beside a file only: a place that is not a path ("the desktop keyring", a server's name)
        // has no folder of its own.
        let beside = "\(path).unsaved-\(stamp)"
        if path.hasPrefix("/"), access(beside, F_OK) != 0, (try? AtomicFile.write(data, to: beside, mode: 0o600)) != nil { return beside }
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
    var secretStore: any SecretStore { withSecretStore { $0 } }

    /// Runs `body` with the secret store (chosen at the first use), one call at a time.
    func withSecretStore<R>(_ body: (any SecretStore) -> R) -> R {
        secrets.withLock { chosen in
            if let store = chosen { return body(store) }
            let store = SecretStores.make(for: self)
            chosen = store
            return body(store)
        }
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
            do throws(SaveError) {
                try save(data, to: path, root: root, disk: &disk)
                return (true, "", [])
            } catch {
                return (false, error.reason, error.issues)
            }
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

    /// Keeps a saved value that no longer decodes, before the first save replaces it: in a file
    /// beside the store file (`<store>.<key>.mistyped-<time>`), or, if that cannot be written,
    /// in the store file under a key of its own. Returns where it is, for the message.
    func keepAside(_ value: JSONValue, key: String) -> String {
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

    /// A file's value at its first access; see `PersistentStorage.read`.
    func readFile<T>(_ path: String, key: String, decode: (Data) throws -> T) -> (T?, [StoreIssue]) {
        disk.withLock { disk -> (T?, [StoreIssue]) in
            let locking = ensureLock(&disk)
            switch Self.readExisting(path) {
            case .absent:
                return (nil, locking)
            case .unreadable(let reason):
                disk.blocked[path] = "it could not be read (\(reason)), so it is left untouched"
                return (nil, locking + [StoreIssue("Cannot read \(path) (\(reason)); '\(key)' starts from its initial value and the file is left untouched, so changes are kept in memory only.", path: path)])
            case .data(let data):
                let problem: String
                do {
                    return (try decode(data), locking)
                } catch let failure as PersistenceFailure {
                    problem = data.isEmpty ? "it was empty" : failure.reason
                } catch {
                    problem = data.isEmpty ? "it was empty" : "it could not be read as the value (\(error))"
                }
                let (issue, stuck) = setAside(path, problem: problem, values: "'\(key)' starts from its initial value")
                if stuck { disk.blocked[path] = "it is damaged and could not be moved aside, so it is left untouched" }
                return (nil, locking + [issue])
            }
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

    /// The box of a persistent value: the existing one, or a new one holding what the strategy
    /// loaded (else the declaration's initial value), with a hook that saves its changes and,
    /// if the strategy observes, the values saved elsewhere coming in. Problems found while
    /// loading are reported once, by the access that made the box.
    ///
    /// The registry key is the kind and the strategy's id ("StoredState:Feature.id"); the
    /// strategy's `key` is what the value is named by in messages.
    func persistentBox<Strategy: PersistenceStrategy>(
        _ strategy: Strategy, declaration: Declaration, initial: () -> Strategy.Value
    ) -> StateBox<Strategy.Value> {
        typealias Value = Strategy.Value
        let registryKey = "\(Strategy.kind):\(strategy.id)"
        let key = strategy.key
        let persistence = self.persistence
        // A value of another type under this key is kept in memory only.
        let fallback = { (other: String) in StateBox(initial(), key: other) }
        if registry.withLock({ $0[registryKey] != nil }) {
            // Entries are never removed: `make` does not run.
            return box(key: registryKey, name: key, declaration: declaration, make: { StateBox(initial(), key: key) }, fallback: fallback)
        }
        let start = initial()
        let collected = IssueCollector()
        let value = strategy.load(initial: start, from: PersistentStorage(engine: persistence, collecting: collected)) ?? start
        var created: StrategyEntry<Strategy>?
        let made = box(key: registryKey, name: key, declaration: declaration, make: { () -> StateBox<Value> in
            let entry = StrategyEntry(strategy: strategy, persistence: persistence)
            created = entry
            let box = StateBox(value, initial: start, key: key, didChange: { _ in entry.changed() }, onReset: { box in
                // Back to the initial value, and the saved one removed (at once, or at the next write).
                box.restoreInitial { entry.removed.store(true, ordering: .sequentiallyConsistent) }
                if entry.atOnce { persistence.writeNow(entry) } else { entry.markDirty() }
            })
            entry.box = box
            if let coordinating = strategy as? any ValueCoordinating<Value> {
                box.coordinator = coordinating.coordinator(for: box)
            }
            return box
        }, fallback: fallback)
        if let entry = created {
            if Strategy.isSecret { persistence.markSecret(registryKey) }
            persistence.report(collected.all)
            entry.observation = strategy.observe(in: PersistentStorage(engine: persistence)) { [weak made] value in
                guard let made else { return }
                made.setFromOutside(value ?? made.initial)
            }
        }
        return made
    }

    /// The persistence engine if a persistent access has made one (nil: nothing to save).
    var existingPersistence: Persistence? {
        registry.withLock { $0[Persistence.registryKey]?.storage }.map { unsafeDowncast($0 as AnyObject, to: Persistence.self) }
    }

    /// How many files this store has written (for tests of coalescing).
    var persistentFileWrites: Int { persistence.fileWrites.load(ordering: .relaxed) }
}

/// A strategy whose values need a coordinator on their box (`SyncState`).
protocol ValueCoordinating<Value> {
    associatedtype Value: Sendable
    func coordinator(for box: StateBox<Value>) -> ValueCoordinator<Value>
}
