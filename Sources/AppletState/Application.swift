import Observation
import Synchronization

/// The central store: every piece of shared state lives here, keyed by an id.
///
/// State is declared once, as a computed property in an `extension Application`, and read or
/// written from anywhere: applets, other applets through an `Interface` target, background tasks.
/// It is thread-safe, and observable: a view that read a value is redrawn when it changes.
///
/// ```swift
/// extension Application {
///     public var counter: State<Int> { state(initial: 0, id: "counter") }
/// }
///
/// Application.state(\.counter).value += 1
/// ```
///
/// Code normally uses `Application.current`: the shared instance, or the one a host (or a test)
/// installed for the work it runs with `Application.withCurrent(_:_:)`. Subclass it and
/// `promote(to:)` to customise the shared store.
open class Application: @unchecked Sendable {
    // MARK: The shared and current store

    /// The process-wide store.
    public static var shared: Application { SharedSlot.instance.load() }

    /// Replaces the shared store with an instance of a subclass, keeping all state declared so far.
    ///
    /// ```swift
    /// final class DemoApplication: Application, @unchecked Sendable {}
    /// Application.promote(to: DemoApplication.self)
    /// ```
    @discardableResult
    public static func promote<Custom: Application>(to type: Custom.Type) -> Custom {
        let promoted = Custom()
        promoted.adoptState(from: shared)
        SharedSlot.instance.store(promoted)
        return promoted
    }

    @TaskLocal static var installed: Application?
    /// How many `withCurrent` calls are running anywhere. When none is, `current` is `shared`
    /// without the cost of reading the task-local.
    static let installCount = Atomic<Int>(0)

    /// The store in effect: the one installed by the running host or test, else `shared`.
    public static var current: Application {
        if installCount.load(ordering: .relaxed) == 0 { return shared }
        return installed ?? shared
    }

    /// Runs `body` with `application` as `Application.current` (hosts do this around every
    /// evaluation and event when they do not use the shared store; tests use it for a fresh one).
    public static func withCurrent<R>(_ application: Application, _ body: () throws -> R) rethrows -> R {
        installCount.add(1, ordering: .relaxed)
        defer { installCount.subtract(1, ordering: .relaxed) }
        return try $installed.withValue(application, operation: body)
    }

    /// The async form of `withCurrent(_:_:)`, for tasks.
    public static func withCurrent<R>(_ application: Application, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async rethrows -> R {
        installCount.add(1, ordering: .relaxed)
        defer { installCount.subtract(1, ordering: .relaxed) }
        return try await $installed.withValue(application, operation: body, isolation: isolation)
    }

    /// Counts every change to state in this store. Hosts compare it before and after evaluating
    /// a frame: `withObservationTracking` only starts observing once evaluation ends, so a change
    /// made on another thread meanwhile would otherwise never redraw the screen.
    public var changes: Int { changeCounter.count.load(ordering: .acquiring) }

    let changeCounter = ChangeCounter()

    // MARK: Storage

    /// Every state box by its full key ("Feature.id", plus "@scope" for scoped state).
    let registry = Mutex<[String: any StateStorage]>([:])
    let keyPathCache = KeyPathCache()

    public required init() {}

    /// Takes over the state of another store (used by `promote`).
    func adoptState(from other: Application) {
        let boxes = other.registry.withLock { $0 }
        registry.withLock { mine in mine.merge(boxes) { current, _ in current } }
        // Pending writes of state declared so far, and where files go, come along too.
        let work = other.flushers.withLock { $0 }
        flushers.withLock { $0.append(contentsOf: work) }
        if let settings = other.storageSettings.withLock({ $0 }) { storageSettings.withLock { $0 = settings } }
    }

    /// The box for a key, made with `make` on first use. Declaring one key with two value types
    /// is a programming error and stops with a message naming the key.
    func box<Box: StateStorage>(key: String, make: () -> Box) -> Box {
        registry.withLock { boxes in
            if let existing = boxes[key] {
                guard let typed = existing as? Box else {
                    preconditionFailure("state '\(key)' was declared twice with different types: \(type(of: existing)) and \(Box.self)")
                }
                return typed
            }
            let created = ChangeCounter.$attaching.withValue(changeCounter) { make() }
            boxes[key] = created
            return created
        }
    }

    /// The full registry key of a declaration, including the current scope for scoped state.
    static func key(feature: String, id: String, scoped: Bool) -> String {
        guard scoped, let scope = Scope.current else { return "\(feature).\(id)" }
        return "\(feature).\(id)@\(scope.name).\(scope.id)"
    }

    // MARK: In-memory state

    /// Declares (or finds) in-memory state with an id; the first access stores `initial`.
    ///
    /// ```swift
    /// extension Application {
    ///     public var username: State<String> { state(initial: "", id: "username") }
    /// }
    /// ```
    public func state<Value: Sendable>(initial: @autoclosure () -> Value, feature: String = "App", id: String) -> State<Value> {
        State(box: box(key: Self.key(feature: feature, id: id, scoped: false)) { StateBox(initial(), key: "\(feature).\(id)") })
    }

    /// Declares in-memory state that each `Scope` keeps separately: two instances of one applet,
    /// each evaluated in its own scope, see different values.
    ///
    /// ```swift
    /// extension Application {
    ///     public var draft: State<String> { scopedState(initial: "", feature: "Notes", id: "draft") }
    /// }
    /// ```
    public func scopedState<Value: Sendable>(initial: @autoclosure () -> Value, feature: String = "App", id: String) -> State<Value> {
        let key = Self.key(feature: feature, id: id, scoped: true)
        return State(box: box(key: key) { StateBox(initial(), key: key) })
    }

    /// The state at `keyPath` in the current store.
    ///
    /// ```swift
    /// let count = Application.state(\.counter).value
    /// ```
    public static func state<Value>(_ keyPath: KeyPath<Application, State<Value>>) -> State<Value> {
        withCurrentUnretained { $0.resolve(keyPath) }
    }

    /// Any kind of state at `keyPath` in the current store (stored, file, secure, sync...).
    static func handle<Handle: BoxedState>(_ keyPath: KeyPath<Application, Handle>) -> Handle {
        withCurrentUnretained { $0.resolve(keyPath) }
    }

    /// Calls `body` with the current store without retaining it (the shared one is kept alive by
    /// its slot; an installed one by the task-local that installed it).
    @inline(__always)
    static func withCurrentUnretained<R>(_ body: (Application) -> R) -> R {
        if installCount.load(ordering: .relaxed) == 0 { return SharedSlot.instance.withShared(body) }
        return body(installed ?? shared)
    }

    /// Resolves a declaration through the key path cache: the declaration runs once per key path
    /// and scope; after that a lookup is a few loads, no lock. Works for every kind of state.
    @inline(__always)
    func resolve<Handle: BoxedState>(_ keyPath: KeyPath<Application, Handle>) -> Handle {
        let id = ObjectIdentifier(keyPath)
        let scope = Scope.currentIndex
        if let box = keyPathCache.lookup(id, scope: scope) {
            return Handle(box: unsafeDowncast(box as AnyObject, to: StateBox<Handle.Value>.self))
        }
        let handle = self[keyPath: keyPath]
        keyPathCache.insert(keyPath, scope: scope, box: handle.box)
        return handle
    }

    // MARK: Storage on disk

    private let storageSettings = Mutex<StorageConfiguration?>(nil)

    /// Where persistent kinds of state (`StoredState`, `SecureState`, `SyncState`) keep their
    /// files. Defaults to `StorageConfiguration.standard()`; set it before the first such access.
    public var storage: StorageConfiguration {
        get { storageSettings.withLock { $0 ?? .standard() } }
        set { storageSettings.withLock { $0 = newValue } }
    }

    private let flushers = Mutex<[@Sendable () -> Void]>([])

    /// Registers work that `flush()` must run (persistence registers its pending writes).
    func onFlush(_ work: @escaping @Sendable () -> Void) {
        flushers.withLock { $0.append(work) }
    }

    /// Writes every pending change to disk now. Hosts call it on quit and on SIGTERM/SIGHUP/SIGINT.
    public func flush() {
        for work in flushers.withLock({ $0 }) { work() }
    }

    // MARK: Problems to show the user

    /// Problems with stored state the user should hear about once (a corrupt file moved aside,
    /// an unwritable folder). A host shows new ones in its status line; nothing is lost by them.
    public var storeIssues: State<[StoreIssue]> { state(initial: [], feature: "AppletState", id: "storeIssues") }

    /// Records a problem: logged as an error, and added to `storeIssues` for the host to show.
    public func report(_ issue: StoreIssue) {
        StateLog.logger.error("\(issue.message)", metadata: issue.path.map { ["path": "\($0)"] })
        storeIssues.modify { $0.append(issue) }
    }
}

/// A problem with stored state, worded for the user: what happened and what was done about it.
///
/// ```swift
/// StoreIssue("counter.json was unreadable; moved aside as counter.json.corrupt-20261123-101500", path: path)
/// ```
public struct StoreIssue: Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public let path: String?
    public init(_ message: String, path: String? = nil) {
        self.message = message
        self.path = path
    }
    public var description: String { message }
}

/// The count behind `Application.changes`, shared by the boxes of one store.
final class ChangeCounter: Sendable {
    let count = Atomic<Int>(0)
    /// The counter of the store whose `box(key:make:)` is making a box right now.
    @TaskLocal static var attaching: ChangeCounter?
}

/// Holds the shared store behind an atomic pointer so reading it takes no lock. Every instance
/// ever installed is kept alive: a reader may still hold a pointer to a replaced one.
final class SharedSlot: Sendable {
    static let instance = SharedSlot()
    private let pointer: Atomic<UInt>
    private let keptAlive: Mutex<[Application]>

    private init() {
        let first = Application()
        pointer = Atomic(UInt(bitPattern: Unmanaged.passUnretained(first).toOpaque()))
        keptAlive = Mutex([first])
    }

    @inline(__always)
    func withShared<R>(_ body: (Application) -> R) -> R {
        Unmanaged<Application>.fromOpaque(UnsafeRawPointer(bitPattern: pointer.load(ordering: .acquiring))!)._withUnsafeGuaranteedRef(body)
    }

    @inline(__always)
    func load() -> Application {
        Unmanaged<Application>.fromOpaque(UnsafeRawPointer(bitPattern: pointer.load(ordering: .acquiring))!).takeUnretainedValue()
    }

    func store(_ application: Application) {
        keptAlive.withLock { $0.append(application) }
        pointer.store(UInt(bitPattern: Unmanaged.passUnretained(application).toOpaque()), ordering: .releasing)
    }
}
