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

/// A store's synced values as a `SyncRemote` sees them: the local copy (`<state folder>/sync/`,
/// one JSON file per value, shared by the instances on this machine) and, beside it in
/// `sync/remote/`, what the server last confirmed of each value and whether a change made here is
/// still to be sent.
///
/// A remote asks it for the changes to send (`pendingChanges()`), confirms each once the server
/// has it (`confirm(_:version:)`), writes values changed elsewhere into the local copy
/// (`apply(_:)`, which the running views and the other instances on this machine then show), and
/// says how it is going (`setStatus(_:)`, `report(_:)`). Every method is safe from any thread and
/// takes the value's file lock, so the instances on this machine never tear a value or its record.
///
/// ```swift
/// func start(_ replica: SyncReplica) {
///     for change in replica.pendingChanges() {
///         let version = try await server.put(change)      // the server's new version
///         replica.confirm(change, version: version)
///     }
/// }
/// ```
///
/// Invariants: a change made here is recorded as pending (durably, before the value itself is
/// written) until the server confirms that value; a value from the server replaces the local one
/// only if it is newer than the last one confirmed and nothing made here is pending (then the
/// change sent from here settles it on the server, which reports the conflict); a value from the
/// server is never reported back to it as a change.
public final class SyncReplica: Sendable {
    /// The app whose values these are (the `app` column of the server's table).
    public let appID: String
    /// This state folder's name on the server: one per folder, kept in `sync/remote/replica`. The
    /// instances on this machine that share the folder share it, since they share the values.
    public let replicaID: String
    /// This machine's name, for messages on the other machines.
    public let hostName: String
    /// The remote this replica was started with.
    public let remote: any SyncRemote

    let metadata: SyncMetadata
    private weak let center: SyncCenter?
    private weak let application: Application?
    private let reported = Mutex<Set<String>>([])

    init(remote: any SyncRemote, metadata: SyncMetadata, appID: String, center: SyncCenter, application: Application?) throws {
        self.remote = remote
        self.metadata = metadata
        self.appID = appID
        self.center = center
        self.application = application
        hostName = Self.currentHostName()
        replicaID = try metadata.replicaID()
    }

    /// The sync folder: `<state folder>/sync`.
    public var directory: String { metadata.syncDirectory }

    // MARK: Changes made here

    /// Every change made here (by any instance sharing the folder, in any run) that the server
    /// has not confirmed, oldest first.
    public func pendingChanges() -> [SyncPendingChange] {
        metadata.entryNames().compactMap { name -> SyncPendingChange? in
            guard let entry = metadata.read(name: name), entry.pending else { return nil }
            return pendingChange(for: SyncKey(feature: entry.feature, id: entry.id))
        }
        .sorted { $0.changedAt < $1.changedAt }
    }

    /// The change made here to `key` that the server has not confirmed, if there is one.
    public func pendingChange(for key: SyncKey) -> SyncPendingChange? {
        let name = SyncMetadata.fileName(for: key)
        return metadata.withValueLock(name: name) { () -> SyncPendingChange? in
            guard let entry = metadata.read(name: name), entry.pending else { return nil }
            let path = metadata.valuePath(name: name)
            let json: String?
            do {
                guard let data = try AtomicFile.read(path, limit: SyncMetadata.valueLimit) else {
                    return SyncPendingChange(key: key, json: nil, baseVersion: base(of: entry), changedAt: entry.changed)
                }
                // A file being written by hand, or damaged: the instance that uses the value moves
                // it aside; nothing goes to the server until it is JSON again.
                guard !data.isEmpty, (try? JSONDecoder().decode(JSONValue.self, from: data)) != nil,
                      let text = String(validating: data, as: UTF8.self) else { return nil }
                json = text
            } catch {
                problemOnce("read:\(path)", "The shared value \(key) cannot be read from \(path) (\(error)), so it is not sent to \(remote.displayName). Check the file's permissions.", path: path)
                return nil
            }
            return SyncPendingChange(key: key, json: json, baseVersion: base(of: entry), changedAt: entry.changed)
        }
    }

    /// The server took `change` as its `version`: the local copy is in step with it, unless the
    /// value changed again meanwhile (then that change stays pending, now made on `version`).
    public func confirm(_ change: SyncPendingChange, version: Int64) {
        let name = SyncMetadata.fileName(for: change.key)
        metadata.withValueLock(name: name) {
            var entry = metadata.read(name: name) ?? SyncMetadata.Entry(key: change.key)
            let current: Data? = (try? AtomicFile.read(metadata.valuePath(name: name), limit: SyncMetadata.valueLimit)) ?? nil
            entry.server = remote.serverID
            entry.version = version
            entry.pending = current != change.json.map { Data($0.utf8) }
            writeEntry(entry, name: name)
        }
    }

    // MARK: Changes from elsewhere

    /// Writes a value the server has into the local copy if it is newer than the last one the
    /// server confirmed here and no change made here is pending; the views that show it redraw,
    /// and the other instances on this machine take it in. Returns whether it was written.
    @discardableResult
    public func apply(_ record: SyncRecord) -> Bool {
        let name = SyncMetadata.fileName(for: record.key)
        // A name the file system cannot hold (the server may hold anything).
        guard name.utf8.count <= 200 else {
            problemOnce("name:\(record.key)", "The shared value \(LogText.escaped(record.key.description)) on \(remote.displayName) has a name too long for a file here; it is not taken in.", path: nil)
            return false
        }
        if let json = record.json, json.utf8.count > SyncMetadata.valueLimit || (try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))) == nil {
            problemOnce("value:\(record.key)", "The shared value \(LogText.escaped(record.key.description)) on \(remote.displayName) is not JSON of at most \(SyncMetadata.valueLimit) bytes; it is not taken in.", path: nil)
            return false
        }
        let path = metadata.valuePath(name: name)
        let written = metadata.withValueLock(name: name) { () -> Bool in
            let entry = metadata.read(name: name)
            if let entry {
                if entry.pending { return false }
                if entry.server == remote.serverID, record.version <= entry.version { return false }
            }
            do {
                // Not flushed to disk: the server keeps the value, and a record that a power loss
                // took back makes the next connection take it in again.
                if let json = record.json {
                    try AtomicFile.write(Data(json.utf8), to: path, mode: 0o600, durable: false)
                } else if unlink(path) != 0, errno != ENOENT {
                    throw AtomicFile.Failure(path: path, reason: String(cString: strerror(errno)))
                }
            } catch {
                problemOnce("write:\(path)", "A change to \(record.key) from \(record.writerName) cannot be written here (\(error)); this instance keeps the old value. Make the folder writable, or choose another folder (--state-dir).", path: path)
                return false
            }
            var updated = entry ?? SyncMetadata.Entry(key: record.key)
            updated.server = remote.serverID
            updated.version = record.version
            updated.pending = false
            writeEntry(updated, name: name, durable: false)
            return true
        }
        if written { center?.reload(path: path, removed: record.json == nil) }
        return written
    }

    // MARK: Telling the user

    /// Reports a conflict: logged, and shown once in `storeIssues`.
    public func report(_ conflict: SyncConflict) {
        application?.report(StoreIssue(conflict.message))
    }

    /// Reports a problem with syncing (logged, and shown once in `storeIssues`).
    public func report(problem: String) {
        application?.report(StoreIssue(problem))
    }

    /// Sets `Application.syncStatus`.
    public func setStatus(_ status: SyncStatus) {
        guard let application else { return }
        let state = application.syncStatus
        if state.value != status { state.value = status }
    }

    /// The keys of every value the local copy has a record of (sent or received at least once).
    public func knownKeys() -> [SyncKey] {
        metadata.entryNames().compactMap { metadata.read(name: $0).map { SyncKey(feature: $0.feature, id: $0.id) } }
    }

    // MARK: Values declared before this folder synced

    /// A value the local copy has but the server never confirmed to this folder (it was saved
    /// before the app synced, or synced with another server): sent as a change made on nothing,
    /// so the server keeps it, or reports the conflict if it has another.
    func adopt(_ key: SyncKey) {
        let name = SyncMetadata.fileName(for: key)
        let adopted = metadata.withValueLock(name: name) { () -> Bool in
            let entry = metadata.read(name: name)
            if let entry, entry.pending || entry.server == nil || entry.server == remote.serverID { return false }
            guard access(metadata.valuePath(name: name), F_OK) == 0 else { return false }
            var updated = SyncMetadata.Entry(key: key)
            updated.server = remote.serverID
            updated.pending = true
            updated.changedAt = Date().timeIntervalSince1970
            writeEntry(updated, name: name)
            return true
        }
        if adopted { remote.localChange(key) }
    }

    // MARK: Helpers

    private func base(of entry: SyncMetadata.Entry) -> Int64 {
        entry.server == nil || entry.server == remote.serverID ? entry.version : 0
    }

    private func writeEntry(_ entry: SyncMetadata.Entry, name: String, durable: Bool = true) {
        do {
            try metadata.write(entry, name: name, durable: durable)
        } catch {
            problemOnce("meta:\(name)", "The record of what \(remote.displayName) has of \(entry.feature).\(entry.id) cannot be saved (\(error)); the value may be sent again. Make the folder writable.", path: metadata.folder)
        }
    }

    private func problemOnce(_ id: String, _ message: String, path: String?) {
        guard reported.withLock({ $0.insert(id).inserted }) else { return }
        application?.report(StoreIssue(message, path: path))
    }

    private static func currentHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "another machine" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "another machine" : name
    }
}

/// `<sync folder>/remote/`: one small JSON record per value (`<Feature>.<id>.json`) saying which
/// server version the local copy holds and whether a change made here is waiting to be sent, and
/// `replica`, the folder's id on the server. Every record is read and written under the value's
/// own lock file (`<sync folder>/<Feature>.<id>.lock`), the one `SyncFile` takes.
final class SyncMetadata: Sendable {
    struct Entry: Codable, Equatable {
        var feature: String
        var id: String
        /// The server whose version this is; nil when a process that does not sync marked it.
        var server: String?
        var version: Int64 = 0
        var pending = false
        /// When the change still pending was made (seconds since 1970).
        var changedAt: Double?

        init(key: SyncKey) {
            feature = key.feature
            id = key.id
        }

        var changed: Date { Date(timeIntervalSince1970: changedAt ?? 0) }
    }

    /// The largest value synced (the store's own limit for a state file).
    static let valueLimit = 64 << 20

    let syncDirectory: String
    let folder: String

    init(syncDirectory: String) {
        self.syncDirectory = syncDirectory
        folder = Path.join(syncDirectory, "remote")
    }

    /// The file name of a value ("Feature.id" with `/` and NUL made `_`), without `.json`.
    static func fileName(for key: SyncKey) -> String { fileName(for: key.description) }

    static func fileName(for key: String) -> String {
        String(key.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
    }

    func valuePath(name: String) -> String { Path.join(syncDirectory, name + ".json") }
    func entryPath(name: String) -> String { Path.join(folder, name + ".json") }

    func read(name: String) -> Entry? {
        guard let data = try? AtomicFile.read(entryPath(name: name), limit: 64 << 10) else { return nil }
        return try? JSONDecoder().decode(Entry.self, from: data)
    }

    func write(_ entry: Entry, name: String, durable: Bool = true) throws {
        try AtomicFile.ensureDirectory(folder, mode: 0o700)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(encoder.encode(entry), to: entryPath(name: name), mode: 0o600, durable: durable)
    }

    /// Called under the value's lock, before a change made here is written: the record says a
    /// change is waiting (kept if it said so already, with the time of the first).
    func markPendingLocked(_ key: SyncKey, name: String) throws {
        var entry = read(name: name) ?? Entry(key: key)
        guard !entry.pending else { return }
        entry.feature = key.feature
        entry.id = key.id
        entry.pending = true
        entry.changedAt = Date().timeIntervalSince1970
        try write(entry, name: name)
    }

    /// The names of every record (without `.json`).
    func entryNames() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasSuffix(".json") && !AtomicFile.isTemporaryName($0) }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Runs `body` holding the value's lock file (as `SyncFile` does around its writes). Never
    /// call it while this thread holds the same value's lock through a `SyncFile`.
    func withValueLock<R>(name: String, _ body: () -> R) -> R {
        let fd = open(Path.join(syncDirectory, name + ".lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return body() }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        return body()
    }

    /// The folder's id on the server, made once (under a lock, so two instances starting together
    /// agree on it).
    func replicaID() throws -> String {
        try AtomicFile.ensureDirectory(folder, mode: 0o700)
        let path = Path.join(folder, "replica")
        let fd = open(Path.join(folder, "replica.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 {
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        }
        defer { if fd >= 0 { close(fd) } }
        if let data = try? AtomicFile.read(path, limit: 256), let text = String(validating: data, as: UTF8.self) {
            let id = String(text.filter { !$0.isWhitespace })
            if !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) { return id }
        }
        var generator = SystemRandomNumberGenerator()
        let id = (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }.map { String(repeating: "0", count: 8 - $0.count) + $0 }.joined()
        try AtomicFile.write(Data((id + "\n").utf8), to: path, mode: 0o600)
        return id
    }
}
