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

/// Something the folder watcher can ask to look at its file again.
protocol SyncEndpoint: AnyObject, Sendable {
    var path: String { get }
    /// The value's feature and id, as a remote names it.
    var syncKey: SyncKey { get }
    /// Reads the file and takes in a value written by another instance (no write back).
    /// `removed`: the file may have been deleted on purpose (a reset elsewhere, an `rm`), as
    /// opposed to moved aside as damaged: if it is gone, the value goes back to its initial one.
    func reloadFromDisk(removed: Bool)
}

/// The file behind one `SyncState`: `<folder>/<Feature>.<id>.json`, with `<Feature>.<id>.lock`
/// beside it for `flock`. `SyncStateStrategy` loads, saves, removes and observes through it, and
/// it coordinates the value's sets and changes (`ValueCoordinator`): a change runs under the
/// lock every instance takes, on the newest value any of them wrote.
///
/// Every operation holds `lock` (in-process order: memory changes in the order the file did) and,
/// around file access, the `flock` (order between processes). `lastBytes` is what this instance
/// last wrote or took in: a file with the same bytes is our own write (or nothing new), so the
/// watcher skips it and nothing is ever written back. Nothing here calls the box's change hook
/// while holding `lock` (values go in with `setFromOutside`): the hook saves through this file.
final class SyncFile<Value: Codable & Sendable>: ValueCoordinator<Value>, SyncEndpoint, @unchecked Sendable {
    let key: String
    let syncKey: SyncKey
    /// The file's name without `.json` (the key, with `/` and NUL made `_`).
    let name: String
    let directory: String
    let path: String
    let lockPath: String
    let initial: Value
    private weak let center: SyncCenter?

    /// Recursive: an observer told of a change (under the lock) may set the value again.
    private let lock = RecursiveLock()
    // Guarded by `lock`:
    private var lockFD: Int32 = -1
    /// No usable folder: the value lives in memory only.
    private var memoryOnly = true
    private var started = false
    private var lastBytes: Data?
    private var lastValue: Value
    private var problemReported = false
    /// A change made here was written since the last unlock: the remote hears of it then.
    private var changedHere = false
    /// Where values written elsewhere go (`SyncStateStrategy.observe`); until then the latest
    /// one waits in `undelivered` (nil inside: back to the initial value).
    private var deliver: (@Sendable (Value?) -> Void)?
    private var undelivered: Value??
    /// The box this file coordinates (for putting back a value that cannot be saved).
    private weak var attachedBox: StateBox<Value>?

    /// Files written by this instance (tests check that a value taken in is not written back).
    let writeCount = Atomic<Int>(0)
    /// Values written elsewhere and taken in.
    let reloadCount = Atomic<Int>(0)

    init(initial: Value, key: SyncKey, directory: String, center: SyncCenter) {
        let name = SyncMetadata.fileName(for: key)
        self.key = key.description
        syncKey = key
        self.name = name
        self.directory = directory
        path = Path.join(directory, name + ".json")
        lockPath = Path.join(directory, name + ".lock")
        self.center = center
        self.initial = initial
        lastValue = initial
    }

    deinit {
        if lockFD >= 0 { close(lockFD) }
    }

    // MARK: Reading on first access

    /// Watches the folder and reads the file: the value to start with, nil if there is none.
    /// Runs once; later calls return what the first found.
    func start() -> Value? {
        lock.lock()
        let first = !started
        started = true
        let known = lastBytes == nil ? nil : lastValue
        lock.unlock()
        guard first else { return known }
        // Watch first, then read: a write landing in between is seen by one or the other.
        let usable = center?.prepare(directory: directory) ?? false
        let value = read(usable: usable)
        // A value saved before this folder synced is sent to the server now.
        if usable { center?.adopt(self) }
        center?.deliverIssues()
        return value
    }

    private func read(usable: Bool) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard usable else { return nil }
        lockFD = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockFD >= 0 else {
            report("The shared value \(key) cannot be locked at \(lockPath) (\(String(cString: strerror(errno)))); it is kept in memory only and not shared with other instances of the app. Make the folder writable, or choose another folder (--state-dir).")
            return nil
        }
        memoryOnly = false
        guard let data = readLocked(), !data.isEmpty else { return nil }
        if let value = decode(data) {
            lastBytes = data
            lastValue = value
            return value
        }
        withFileLock { recheckCorruptLocked(firstAccess: true) }
        return lastBytes == nil ? nil : lastValue
    }

    /// Coordinates `box`'s sets and changes from now on.
    func attach(_ box: StateBox<Value>) {
        lock.lock()
        attachedBox = box
        lock.unlock()
    }

    /// From now on, values written elsewhere go to `changed` (and the one that came meanwhile).
    func observe(_ changed: @escaping @Sendable (Value?) -> Void) {
        lock.lock()
        deliver = changed
        let waiting = undelivered
        undelivered = nil
        lock.unlock()
        if let waiting { changed(waiting) }
    }

    /// Stops telling anyone of values written elsewhere.
    func stopObserving() {
        lock.lock()
        deliver = nil
        lock.unlock()
    }

    // MARK: Coordinating

    // A value that cannot be encoded is refused everywhere (memory too): no instance may show a
    // value the others cannot see. It is reported, and the state keeps its previous value.

    override func set(_ newValue: Value, in box: StateBox<Value>) {
        lock.lock()
        defer { unlockAndTell() }
        guard let data = encode(newValue) else { return }
        if !memoryOnly { withFileLock { writeLocked(data, newValue) } }
        box.setFromOutside(newValue)
        StateLog.changed(key)
    }

    override func modify<R>(_ box: StateBox<Value>, _ change: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { unlockAndTell() }
        if memoryOnly {
            // Every write of this value holds `lock`: this is atomic all the same.
            var value = box.untrackedValue
            let result = try change(&value)
            if encode(value) != nil {
                box.setFromOutside(value)
                StateLog.changed(key)
            }
            return result
        }
        // What memory must show when done: the changed value, or (if the change threw or cannot
        // be saved) at least the newer value read from the file.
        var outcome: Value?
        defer { if let outcome { box.setFromOutside(outcome) } }
        return try withFileLock {
            var (value, fresh) = latestLocked(memory: box.untrackedValue)
            if fresh { outcome = value }
            let result = try change(&value)
            if let data = encode(value) {
                writeLocked(data, value)
                outcome = value
                StateLog.changed(key)
            }
            return result
        }
    }

    // MARK: Saving and removing (the strategy's)

    /// A change that reached the box directly (a binding, `box.set`): written as a plain set, or,
    /// if it cannot be encoded, reported and memory put back to the value everyone sees.
    func persist(_ value: Value) {
        lock.lock()
        defer { unlockAndTell() }
        guard !memoryOnly else { return }
        guard let data = encode(value) else {
            attachedBox?.setFromOutside(lastValue)
            return
        }
        withFileLock { writeLocked(data, value) }
    }

    /// Deletes the file, so every other instance and the next start go back to the initial value.
    func removeShared() {
        lock.lock()
        defer { unlockAndTell() }
        guard !memoryOnly else { return }
        withFileLock {
            markPendingLocked()
            if unlink(path) != 0, errno != ENOENT {
                report("The shared value \(key) cannot be reset: deleting \(path) failed (\(String(cString: strerror(errno)))); other instances keep the old value.")
            }
        }
        lastBytes = nil
        lastValue = initial
    }

    // MARK: Values written elsewhere

    func reloadFromDisk(removed: Bool) {
        lock.lock()
        defer { lock.unlock(); center?.deliverIssues() }
        guard !memoryOnly else { return }
        let read: Data?
        do { read = try AtomicFile.read(path) } catch { return }
        guard let data = read else {
            // Gone. Writes replace the file, never remove it: deleted, it was reset elsewhere (or
            // removed by hand); otherwise another instance moved it aside as damaged, and memory
            // keeps its value.
            if lastBytes != nil {
                lastBytes = nil
                if removed {
                    lastValue = initial
                    reloadCount.add(1, ordering: .relaxed)
                    hand(nil)
                }
            }
            return
        }
        // An empty file is being written by hand (truncate, then write): its close comes later.
        guard !data.isEmpty, data != lastBytes else { return }
        if let value = decode(data) {
            take(value, bytes: data)
        } else {
            // Renames are atomic: decide under the lock whether it is really unreadable.
            withFileLock { recheckCorruptLocked(firstAccess: false) }
        }
    }

    // MARK: Under the lock

    private func take(_ value: Value, bytes: Data) {
        lastBytes = bytes
        lastValue = value
        reloadCount.add(1, ordering: .relaxed)
        hand(value)
    }

    /// Gives a value written elsewhere to the observer, or keeps it until there is one.
    private func hand(_ value: Value?) {
        if let deliver { deliver(value) } else { undelivered = .some(value) }
    }

    /// The newest value anyone wrote (from the file), and whether it is newer than `memory`.
    private func latestLocked(memory: Value) -> (Value, fresh: Bool) {
        var absent = false
        guard let data = readLocked(absent: &absent) else {
            // Deleted since we last saw it: another instance reset it.
            if absent, lastBytes != nil {
                lastBytes = nil
                lastValue = initial
                return (initial, true)
            }
            return (memory, false)
        }
        guard !data.isEmpty else { return (memory, false) }
        if data == lastBytes { return (lastValue, false) }
        if let value = decode(data) {
            lastBytes = data
            lastValue = value
            return (value, true)
        }
        moveAsideLocked(firstAccess: false)
        return (memory, false)
    }

    private func recheckCorruptLocked(firstAccess: Bool) {
        var absent = false
        guard let data = readLocked(absent: &absent) else {
            // Another instance moved the damaged file aside: not a reset, memory is kept.
            if absent { lastBytes = nil }
            return
        }
        guard !data.isEmpty, data != lastBytes else { return }
        if let value = decode(data) {
            if firstAccess {
                lastBytes = data
                lastValue = value
            } else {
                take(value, bytes: data)
            }
        } else {
            moveAsideLocked(firstAccess: firstAccess)
        }
    }

    /// The file's bytes; nil if it is absent or cannot be read (`absent` tells which).
    private func readLocked() -> Data? {
        var absent = false
        return readLocked(absent: &absent)
    }

    private func readLocked(absent: inout Bool) -> Data? {
        do {
            let data = try AtomicFile.read(path)
            absent = data == nil
            return data
        } catch {
            report("The shared value \(key) cannot be read (\(error)); the value in memory is used. Check the file's permissions.")
            return nil
        }
    }

    private func writeLocked(_ data: Data, _ value: Value) {
        markPendingLocked()
        do {
            try AtomicFile.write(data, to: path, mode: 0o600)
            writeCount.add(1, ordering: .relaxed)
            lastBytes = data
            lastValue = value
            problemReported = false
        } catch {
            report("The shared value \(key) could not be saved (\(error)); the change is kept in memory only and other instances of the app do not see it. Make the folder writable, or choose another folder (--state-dir).")
        }
    }

    /// Moves an unreadable file to `<name>.corrupt-<timestamp>` so nothing is lost.
    private func moveAsideLocked(firstAccess: Bool) {
        var aside = "\(path).corrupt-\(Self.timestamp())"
        var suffix = 2
        while access(aside, F_OK) == 0 {
            aside = "\(path).corrupt-\(Self.timestamp())-\(suffix)"
            suffix += 1
        }
        let using = firstAccess ? "the initial value is used" : "the value in memory is kept"
        if rename(path, aside) == 0 {
            lastBytes = nil   // gone, but not reset: memory is kept
            center?.enqueue(StoreIssue("\(path) was not readable as \(Value.self); moved aside as \(aside) and \(using).", path: path))
        } else {
            report("\(path) is not readable as \(Value.self) and could not be moved aside as \(aside) (\(String(cString: strerror(errno)))); \(using).")
        }
    }

    /// Under the file lock, before a change made here is written: with a server to sync with,
    /// its record says the change is still to be sent (so a quit, or a server down, loses nothing).
    private func markPendingLocked() {
        guard let metadata = center?.metadata(for: directory) else { return }
        changedHere = true
        do {
            try metadata.markPendingLocked(syncKey, name: name)
        } catch {
            report("A change to the shared value \(key) is kept here, but it cannot be marked to be sent to the server (\(error)); it reaches other machines with its next change. Make the folder writable.")
        }
    }

    /// Ends an operation: the lock goes, problems are reported, and the remote hears of a change
    /// made here (outside every lock: it may take the file lock itself).
    private func unlockAndTell() {
        let changed = changedHere
        changedHere = false
        lock.unlock()
        center?.deliverIssues()
        if changed { center?.changedHere(syncKey, directory: directory) }
    }

    private func withFileLock<R>(_ body: () throws -> R) rethrows -> R {
        while flock(lockFD, LOCK_EX) != 0 && errno == EINTR {}
        defer { _ = flock(lockFD, LOCK_UN) }
        return try body()
    }

    // MARK: Helpers

    private func encode(_ value: Value) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            report("The shared value \(key) cannot take a new value: it cannot be written as JSON (\(error)). It keeps its previous value, so every instance of the app still sees the same one.")
            return nil
        }
    }

    private func decode(_ data: Data) -> Value? {
        try? JSONDecoder().decode(Value.self, from: data)
    }

    /// Reports a problem once until things work again (one message per episode, not per write).
    private func report(_ message: String) {
        guard !problemReported else { return }
        problemReported = true
        center?.enqueue(StoreIssue(message, path: path))
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Watches the folders of a store's `SyncState` files with inotify and hands each change to its
/// file. One per store; stopping it (when the store goes away) ends its thread, which closes the
/// inotify descriptor.
///
/// The descriptor is read by a thread of the watcher's own, blocked in `poll` with no timeout:
/// nothing wakes until a file changes. (A Dispatch read source would run its handler on a
/// libdispatch worker, and on Linux the first one starts a monitor that wakes every second for
/// the rest of the process: an app would never be at rest again after taking in one value.)
final class SyncCenter: StateStorage, @unchecked Sendable {
    static let registryKey = "AppletState.syncCenter"

    private weak let application: Application?
    private let queue = DispatchQueue(label: "AppletState.SyncState.watcher")

    private struct Watching {
        var inotifyFD: Int32 = -1
        /// The write end of a pipe whose closing tells the watcher thread to stop (it closes the
        /// inotify descriptor and the read end).
        var stopFD: Int32 = -1
        /// Without inotify (no instance left, no watch), folders are polled instead.
        var pollTimer: (any DispatchSourceTimer)?
        var folderByWatch: [Int32: String] = [:]
        var watchedFolders: Set<String> = []
        var unusableFolders: Set<String> = []
        var endpoints: [String: any SyncEndpoint] = [:]
        var issues: [StoreIssue] = []
        /// Folders whose values sync with a server (this store's remote, or another instance's
        /// that shares the folder): a change made here is recorded as still to be sent.
        var metadata: [String: SyncMetadata] = [:]
        /// The store's remote, started on the store's sync folder.
        var replica: SyncReplica?
    }
    private let state = Mutex(Watching())

    /// Whether folders are watched with inotify (else polled; tests use that to check polling).
    private let usesInotify: Bool

    init(application: Application, usesInotify: Bool = true) {
        self.application = application
        self.usesInotify = usesInotify
    }

    /// True once any folder is polled rather than watched.
    var isPolling: Bool { state.withLock { $0.pollTimer != nil } }

    deinit {
        let replica = state.withLock { watching -> SyncReplica? in
            if watching.stopFD >= 0 { close(watching.stopFD) }
            watching.pollTimer?.cancel()
            return watching.replica
        }
        // A store that goes away stops syncing with its server (the connection closes).
        replica?.remote.stop()
    }

    /// Makes `directory` (mode 0700) and watches it. False if it cannot be used; reported once.
    func prepare(directory: String) -> Bool {
        state.withLock { watching in
            if watching.unusableFolders.contains(directory) { return false }
            if watching.watchedFolders.contains(directory) { return true }
            var problem: String?
            do {
                try AtomicFile.ensureDirectory(directory, mode: 0o700)
                if access(directory, W_OK) != 0 { problem = "\(directory): \(String(cString: strerror(errno)))" }
            } catch {
                problem = "\(error)"
            }
            if let problem {
                watching.unusableFolders.insert(directory)
                watching.issues.append(StoreIssue("Values shared between instances of the app cannot be kept in \(directory) (\(problem)). They are kept in memory only and other instances do not see them; make the folder writable, or choose another folder (--state-dir).", path: directory))
                return false
            }
            watching.watchedFolders.insert(directory)
            watch(directory, &watching)
            // Another instance synced this folder with a server: changes made here are marked for
            // it to send, even though this one does not sync.
            if watching.metadata[directory] == nil, access(Path.join(directory, "remote"), F_OK) == 0 {
                watching.metadata[directory] = SyncMetadata(syncDirectory: directory)
            }
            return true
        }
    }

    // MARK: Syncing with a server

    /// The store's remote, if one was attached.
    var remote: (any SyncRemote)? { state.withLock { $0.replica?.remote } }

    /// Starts `remote` on the store's sync folder (stopping the one before, if any); nil stops
    /// syncing with a server. A folder that cannot be used is reported, and the remote not started.
    func attach(_ remote: (any SyncRemote)?, directory: String, appID: String) {
        let previous = state.withLock { watching -> SyncReplica? in
            defer { watching.replica = nil }
            return watching.replica
        }
        previous?.remote.stop()
        guard let remote else {
            application?.syncStatus.value = .local
            return
        }
        let metadata = SyncMetadata(syncDirectory: directory)
        let replica: SyncReplica
        do {
            guard prepare(directory: directory) else { throw AtomicFile.Failure(path: directory, reason: "the folder cannot be used") }
            replica = try SyncReplica(remote: remote, metadata: metadata, appID: appID, center: self, application: application)
        } catch {
            deliverIssues()
            application?.report(StoreIssue("Shared values cannot sync with \(remote.displayName): their folder cannot be used (\(error)). They are shared with the instances on this machine only; make the folder writable, or choose another one (--state-dir).", path: directory))
            return
        }
        let endpoints = state.withLock { watching -> [any SyncEndpoint] in
            watching.metadata[directory] = metadata
            watching.replica = replica
            return watching.endpoints.values.filter { Path.directory(of: $0.path) == directory }
        }
        application?.syncStatus.value = .connecting(remote.displayName)
        // At quit, the last changes reach the server if it is there (bounded; nothing is lost if not).
        application?.onFlush { [weak replica] in _ = replica?.remote.finishPending(within: .seconds(2)) }
        // Values saved before this folder synced are marked first, so the first connection sends them.
        for endpoint in endpoints { replica.adopt(endpoint.syncKey) }
        remote.start(replica)
    }

    /// The records of `directory`'s values, when they sync with a server.
    func metadata(for directory: String) -> SyncMetadata? {
        state.withLock { $0.metadata[directory] }
    }

    /// A change made here was written (outside every lock): the remote sends it.
    func changedHere(_ key: SyncKey, directory: String) {
        guard let replica = state.withLock({ $0.replica }), replica.directory == directory else { return }
        replica.remote.localChange(key)
    }

    /// A value declared after the remote started: sent if it was saved before the folder synced.
    func adopt(_ endpoint: any SyncEndpoint) {
        guard let replica = state.withLock({ $0.replica }), replica.directory == Path.directory(of: endpoint.path) else { return }
        replica.adopt(endpoint.syncKey)
    }

    /// A value from the server was written to `path`: the instance's own value takes it in now
    /// (its watcher would, a moment later).
    func reload(path: String, removed: Bool) {
        guard let endpoint = state.withLock({ $0.endpoints[path] }) else { return }
        endpoint.reloadFromDisk(removed: removed)
    }

    /// The file of the shared value `key` in `directory`: the one this store made, or a new one
    /// (watched from its `start()`).
    func file<Value: Codable & Sendable>(for key: SyncKey, directory: String, initial: @autoclosure () -> Value) -> SyncFile<Value> {
        let path = Path.join(directory, SyncMetadata.fileName(for: key) + ".json")
        return state.withLock { watching in
            if let file = watching.endpoints[path] as? SyncFile<Value> { return file }
            let file = SyncFile(initial: initial(), key: key, directory: directory, center: self)
            watching.endpoints[path] = file
            return file
        }
    }

    /// The file of the shared value `key` in `directory`, if this store made it.
    func file<Value: Codable & Sendable>(for key: SyncKey, directory: String) -> SyncFile<Value>? {
        let path = Path.join(directory, SyncMetadata.fileName(for: key) + ".json")
        return state.withLock { $0.endpoints[path] as? SyncFile<Value> }
    }

    /// Queues a problem for the user (reported by `deliverIssues`, outside every lock).
    func enqueue(_ issue: StoreIssue) {
        state.withLock { $0.issues.append(issue) }
    }

    func deliverIssues() {
        let issues = state.withLock { watching -> [StoreIssue] in
            defer { watching.issues.removeAll() }
            return watching.issues
        }
        guard !issues.isEmpty, let application else { return }
        for issue in issues { application.report(issue) }
    }

    // MARK: Watching

    private func watch(_ directory: String, _ watching: inout Watching) {
        if watching.inotifyFD < 0 && watching.pollTimer == nil {
            guard usesInotify else { return startPolling(&watching, reason: "inotify not used") }
            let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            var stop: [Int32] = [-1, -1]
            if fd >= 0, pipe(&stop) == 0 {
                for end in stop { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            }
            if fd >= 0, stop[0] >= 0, SyncWatcherThread.start(inotifyFD: fd, stopFD: stop[0], center: self) {
                watching.inotifyFD = fd
                watching.stopFD = stop[1]
            } else {
                let reason = fd < 0 ? "inotify_init1: \(String(cString: strerror(errno)))" : "no watcher thread"
                for descriptor in [fd] + stop where descriptor >= 0 { close(descriptor) }
                startPolling(&watching, reason: reason)
            }
        }
        guard watching.inotifyFD >= 0 else { return }
        let wd = inotify_add_watch(watching.inotifyFD, directory, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ONLYDIR))
        if wd >= 0 {
            watching.folderByWatch[wd] = directory
        } else {
            startPolling(&watching, reason: "inotify_add_watch \(directory): \(String(cString: strerror(errno)))")
        }
    }

    /// The fallback when inotify is out of instances or watches: look at every file 10 times a
    /// second (a read and a byte comparison each).
    private func startPolling(_ watching: inout Watching, reason: String) {
        guard watching.pollTimer == nil else { return }
        StateLog.logger.warning("SyncState: polling for changes from other instances", metadata: ["reason": "\(reason)"])
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100), leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.reloadAll() }
        timer.activate()
        watching.pollTimer = timer
    }

    /// Polling cannot tell a deleted file from one moved aside: a missing file counts as reset.
    private func reloadAll() {
        let endpoints = state.withLock { Array($0.endpoints.values) }
        for endpoint in endpoints { endpoint.reloadFromDisk(removed: true) }
    }

    /// Reads every queued inotify event (the descriptor is non-blocking) and reloads the files
    /// they name, each once. Called on the watcher thread.
    fileprivate func readEvents() {
        guard let fd = state.withLock({ $0.inotifyFD >= 0 ? $0.inotifyFD : nil }) else { return }
        var names: [(watch: Int32, name: String, deleted: Bool)] = []
        var overflow = false
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                break   // EAGAIN: nothing more queued
            }
            if count == 0 { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size   // wd, mask, cookie, len; then the name
            while offset + header <= count {
                let wd = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    overflow = true
                } else if length > 0, offset + header + length <= count {
                    let bytes = UnsafeRawBufferPointer(start: buffer + offset + header, count: length)
                    let name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                    names.append((wd, name, mask & UInt32(IN_DELETE) != 0))
                }
                if mask & UInt32(IN_IGNORED) != 0 {
                    // The folder was removed: its watch is gone.
                    state.withLock { watching in
                        if let folder = watching.folderByWatch.removeValue(forKey: wd) { watching.watchedFolders.remove(folder) }
                    }
                }
                offset += header + length
            }
        }
        let endpoints: [(endpoint: any SyncEndpoint, removed: Bool)] = state.withLock { watching in
            // Events lost: look at every file, and a missing one counts as reset.
            if overflow { return watching.endpoints.values.map { ($0, true) } }
            var order: [String] = []
            var removed: [String: Bool] = [:]
            for event in names {
                guard let folder = watching.folderByWatch[event.watch] else { continue }
                let path = Path.join(folder, event.name)
                if removed[path] == nil { order.append(path) }
                removed[path] = (removed[path] ?? false) || event.deleted
            }
            return order.compactMap { path in watching.endpoints[path].map { ($0, removed[path] ?? false) } }
        }
        for (endpoint, removed) in endpoints { endpoint.reloadFromDisk(removed: removed) }
    }
}

/// The thread that waits for a `SyncCenter`'s inotify events: `poll` on the inotify descriptor
/// and the read end of a pipe, no timeout. It holds the center weakly, reads events into it while
/// it lives, and closes both descriptors when told to stop (the center's deinit closes the pipe's
/// write end) or when the center is gone. Asynchronous signals are blocked on it, as on the pool's threads: they go to the main
/// thread, where the terminal handles them.
private final class SyncWatcherThread {
    private weak var center: SyncCenter?
    private let inotifyFD: Int32
    private let stopFD: Int32

    private init(inotifyFD: Int32, stopFD: Int32, center: SyncCenter) {
        self.inotifyFD = inotifyFD
        self.stopFD = stopFD
        self.center = center
    }

    /// Starts the thread; false if it could not be made (the caller polls instead).
    static func start(inotifyFD: Int32, stopFD: Int32, center: SyncCenter) -> Bool {
        let watcher = Unmanaged.passRetained(SyncWatcherThread(inotifyFD: inotifyFD, stopFD: stopFD, center: center)).toOpaque()
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<SyncWatcherThread>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, watcher)
        guard made == 0 else {
            Unmanaged<SyncWatcherThread>.fromOpaque(watcher).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private func run() {
        var signals = sigset_t()
        sigfillset(&signals)
        for fault in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS] { sigdelset(&signals, fault) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        defer {
            close(inotifyFD)
            close(stopFD)
        }
        var fds = [pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if fds[0].revents & Int16(POLLNVAL | POLLERR) != 0 { return }
            guard fds[0].revents != 0 else { continue }
            guard let center else { return }
            center.readEvents()
        }
    }
}
