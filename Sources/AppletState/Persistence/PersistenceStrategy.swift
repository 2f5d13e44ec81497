#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// How one kind of persistent state keeps its values: where a value is loaded from, how it is
/// saved and removed, and how changes made elsewhere come in. `StoredState`, `FileState`,
/// `SecureState` and `SyncState` are each one conformer; a new kind is one more, in one file.
///
/// A strategy is a small value naming one saved value (a key, a path). The store makes one box
/// per `kind` and `id`, loads it once at its first access, and from then on calls `save` after
/// changes, `remove` after `reset()`, and takes in what `observe` reports. Everything around
/// that is the store's and the same for every kind: coalescing writes (`timing`), retrying a
/// failed write with the next one, flushing at exit, reporting problems once in `storeIssues`,
/// and naming what could not be saved when the app quits.
///
/// ```swift
/// /// A string in a plain-text file of its own.
/// struct TextFile: PersistenceStrategy {
///     static let kind = "TextFile"
///     let path: String
///     var key: String { path }
///     var id: String { path }
///
///     func load(initial: String, from storage: PersistentStorage) -> String? {
///         storage.read(path, key: key) { String(decoding: $0, as: UTF8.self) }
///     }
///     func save(_ value: String, to storage: PersistentStorage) throws {
///         try storage.write(Data(value.utf8), to: path)
///     }
///     func remove(from storage: PersistentStorage) throws {
///         try storage.removeFile(path, key: key)
///     }
/// }
///
/// extension Application {
///     var motd: PersistentState<TextFile> { persistentState(TextFile(path: "/tmp/motd.txt"), initial: "") }
/// }
/// ```
public protocol PersistenceStrategy<Value>: Sendable {
    associatedtype Value: Sendable

    /// The kind's name ("StoredState"): with `id`, what tells one saved value from every other
    /// (the store's key for it is "kind:id"; `Application.description` shows a kind of your
    /// own's values under State by that key).
    static var kind: String { get }

    /// When a change is saved: gathered into one write shortly after (`.coalesced`, the default)
    /// or at once, on the thread that made it (`.atOnce`).
    static var timing: PersistenceTiming { get }

    /// Whether values are secrets: never shown by `Application.description`, never copied
    /// anywhere when they cannot be saved. False by default.
    static var isSecret: Bool { get }

    /// The value's name in messages ("Feature.id").
    var key: String { get }

    /// Which saved value this is, within the kind: two declarations with one `id` share one value.
    var id: String { get }

    /// The saved value, read at the value's first access; nil when nothing is saved (the
    /// declaration's `initial` is used). A problem (a damaged file) is reported through
    /// `storage` and answered with nil: the app starts from `initial` and keeps running.
    func load(initial: Value, from storage: PersistentStorage) -> Value?

    /// Saves `value`. Throwing `PersistenceFailure` keeps the change pending: it is tried again
    /// with the next write and named at exit if it never succeeds. An `EncodingError` is
    /// reported once and not retried (the value cannot be saved as it is).
    func save(_ value: Value, to storage: PersistentStorage) throws

    /// Removes the saved value, so the next start uses the initial one (`reset()`).
    func remove(from storage: PersistentStorage) throws

    /// Starts telling `changed` of values saved outside this process (nil: the saved value is
    /// gone, back to the initial one). The store keeps what is returned for as long as the value
    /// lives. The default observes nothing.
    func observe(in storage: PersistentStorage, changed: @escaping @Sendable (Value?) -> Void) -> (any PersistenceObservation)?

    /// What to write as a copy when `value` cannot be saved by the time the app quits (beside the
    /// place it belongs, or in the temporary folder). The default is none.
    func unsavedCopy(of value: Value) -> Data?
}

extension PersistenceStrategy {
    public static var timing: PersistenceTiming { .coalesced }
    public static var isSecret: Bool { false }
    public func observe(in storage: PersistentStorage, changed: @escaping @Sendable (Value?) -> Void) -> (any PersistenceObservation)? { nil }
    public func unsavedCopy(of value: Value) -> Data? { nil }
}

/// When a kind's changes are saved.
public enum PersistenceTiming: Sendable, Hashable {
    /// About 100 ms after the first change, together with every other change made by then; at
    /// once on `Application.shared.flush()` and at the process's normal end.
    case coalesced
    /// At once, on the thread that made the change (secrets, values other processes read).
    case atOnce
}

/// Something a strategy's `observe` started (a watch, a subscription); ended by `cancel()`.
public protocol PersistenceObservation: AnyObject, Sendable {
    func cancel()
}

/// Why a value could not be saved or removed: it stays pending and is named at exit.
///
/// ```swift
/// throw PersistenceFailure("the server is not reachable", place: "db.example.com")
/// ```
public struct PersistenceFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, in a few words ("Permission denied").
    public var reason: String
    /// Where the value belongs (a file's path, "the desktop keyring"); nil: the strategy's `id`.
    public var place: String?

    public init(_ reason: String, place: String? = nil) {
        self.reason = reason
        self.place = place
    }

    public var description: String { reason }
}

/// What a strategy saves through: the store's state folder, its bounded reads of untrusted files,
/// its atomic writes, and its report of problems. Every kind's files are written the same way:
/// a temporary file, fsync, rename; folders 0700, files 0600; nothing written while another
/// instance holds the state folder; an unwritable folder reported once until it works again.
public struct PersistentStorage: Sendable {
    let engine: Persistence
    /// Where problems found while loading go: the access that makes the box reports them, once.
    let collected: IssueCollector?

    init(engine: Persistence, collecting collected: IssueCollector? = nil) {
        self.engine = engine
        self.collected = collected
    }

    /// The store's state folder (`StorageConfiguration.directory`).
    public var directory: String { engine.configuration.directory }

    /// The app's id (`StorageConfiguration.appID`), for names of the app's own.
    public var appID: String { engine.configuration.appID }

    /// Reports a problem once, worded for the user, in `Application.storeIssues` and the log.
    public func report(_ message: String, path: String? = nil) {
        report([StoreIssue(message, path: path)])
    }

    func report(_ issues: [StoreIssue]) {
        guard !issues.isEmpty else { return }
        if let collected { collected.add(issues) } else { engine.report(issues) }
    }

    /// Reads the file at `path` as untrusted input and decodes it; nil when there is none.
    ///
    /// At most 64 MiB of a regular file is read. A file that cannot be read (permissions, too
    /// large, not a regular file) is reported and left untouched: it is never overwritten, and
    /// changes to the value stay in memory. A file `decode` rejects (damaged, or no longer of the
    /// value's type) is moved aside as `<name>.corrupt-<time>` and reported. Either way nil is
    /// returned, so the value starts from its initial one.
    ///
    /// ```swift
    /// storage.read(path, key: key) { try JSONDecoder().decode(Settings.self, from: $0) }
    /// ```
    public func read<T>(_ path: String, key: String, decode: (Data) throws -> T) -> T? {
        let (value, issues) = engine.readFile(path, key: key, decode: decode)
        report(issues)
        return value
    }

    /// Writes `data` to `path` atomically (mode 0600, its folder made 0700). `root` is the folder
    /// to name if writing fails ("Cannot save state in <root>"); by default the file's folder,
    /// or the state folder for files inside it. Throws `PersistenceFailure` with the reason.
    public func write(_ data: Data, to path: String, root: String? = nil) throws(PersistenceFailure) {
        try engine.write(data, to: path, root: root ?? defaultRoot(of: path))
    }

    /// Deletes the file at `path` (`key` names the value in the message if it cannot be).
    /// A missing file is no error.
    public func removeFile(_ path: String, key: String) throws(PersistenceFailure) {
        try engine.removeFile(path, key: key)
    }

    private func defaultRoot(of path: String) -> String {
        Path.isInside(path, directory) ? directory : Path.directory(of: path)
    }
}

/// Problems found while loading, held until the store knows whether this load made the box.
final class IssueCollector: Sendable {
    private let issues = Mutex<[StoreIssue]>([])
    func add(_ more: [StoreIssue]) { issues.withLock { $0 += more } }
    var all: [StoreIssue] { issues.withLock { $0 } }
}
