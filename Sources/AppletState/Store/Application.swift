import Logging
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
///
/// `print(Application.current)` lists every value it holds (see `description`).
open class Application: CustomStringConvertible, @unchecked Sendable {
    // MARK: The shared and current store

    /// The process-wide store.
    public static var shared: Application { SharedSlot.instance.load() }

    /// Replaces the shared store with an instance of a subclass, keeping all state declared so far
    /// (and counting its changes in `changes`). Returns the subclass, as AppState does, so a call
    /// can go on with one of its static members.
    ///
    /// ```swift
    /// final class DemoApplication: Application, @unchecked Sendable {
    ///     static let title = "Demo"
    /// }
    /// let title = Application.promote(to: DemoApplication.self).title
    /// let demo = Application.shared as? DemoApplication   // the promoted instance
    /// ```
    @discardableResult
    public static func promote<Custom: Application>(to type: Custom.Type) -> Custom.Type {
        let promoted = Custom()
        promoted.adoptState(from: shared)
        SharedSlot.instance.store(promoted)
        return Custom.self
    }

    @TaskLocal static var installed: Application?
    /// Whether `withCurrent` was ever used in this process. Until it is, `current` is `shared`
    /// without the cost of reading the task-local. (Not a count of the calls running now: a task
    /// started inside `withCurrent` inherits the store and must still see it after the call
    /// returned.)
    static let everInstalled = Atomic<Bool>(false)

    /// The store in effect: the one installed by the running host or test, else `shared`.
    public static var current: Application {
        if !everInstalled.load(ordering: .relaxed) { return shared }
        return installed ?? SharedStoreFallback.shared()
    }

    /// Runs `body` with `application` as `Application.current` (hosts do this around every
    /// evaluation and event when they do not use the shared store; tests use it for a fresh one).
    public static func withCurrent<R>(_ application: Application, _ body: () throws -> R) rethrows -> R {
        if !everInstalled.load(ordering: .relaxed) { everInstalled.store(true, ordering: .relaxed) }
        return try $installed.withValue(application, operation: body)
    }

    /// The async form of `withCurrent(_:_:)`, for tasks.
    public static func withCurrent<R>(_ application: Application, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async rethrows -> R {
        if !everInstalled.load(ordering: .relaxed) { everInstalled.store(true, ordering: .relaxed) }
        return try await $installed.withValue(application, operation: body, isolation: isolation)
    }

    /// Counts every change to state in this store. Hosts compare it before and after evaluating
    /// a frame: `withObservationTracking` only starts observing once evaluation ends, so a change
    /// made on another thread meanwhile would otherwise never redraw the screen.
    ///
    /// A promoted store (`promote(to:)`) counts the changes of the state it took over too.
    public var changes: Int { changeCounter.total }

    let changeCounter = ChangeCounter()

    /// Tells every view and observer that read any value of this store, or any dependency, that
    /// it changed, without changing anything; counted in `changes` once, so that a frame being
    /// evaluated meanwhile on another thread is drawn again. `notifyChange()` is its public name.
    func notifyEveryObserver() {
        changeCounter.count.add(1, ordering: .releasing)
        // Told outside the registry's lock: an observer may read the store at once.
        let boxes = registry.withLock { entries in entries.values.map(\.storage) }
        for box in boxes { box.notifyObservers() }
        StateLog.logger.debug("every observer told of a change", metadata: ["values": "\(boxes.count)"])
    }

    // MARK: What the store holds

    /// What the store holds, for a person reading a log or a debugger: each value with its kind,
    /// key and type, kind by kind (State, StoredState, FileState, SecureState, SyncState,
    /// Dependency) and by key within a kind. Secrets show as `<secret>` (or `nil`), never their
    /// text; a value is cut at 80 characters and control characters are escaped, so the text is
    /// safe to print in a terminal; past 1,000 values the rest are counted. Reading it observes
    /// nothing: a view that prints it is not redrawn by every change.
    ///
    /// ```swift
    /// StateLog.logger.debug("\(Application.current)")
    /// // Application, 4 values (state folder /home/ada/.local/state/notes)
    /// // State
    /// //   AppletState.storeIssues: [StoreIssue] = []
    /// //   Notes.draft: String = "Dear Bo"
    /// // SecureState (values hidden)
    /// //   Sync.token = <secret>
    /// // Dependency
    /// //   App.clock: AppClock = SystemAppClock()
    /// ```
    ///
    /// A subclass may add to it (`super.description + ...`).
    open var description: String { storeDescription() }

    // MARK: Storage

    /// Every state box by its full key ("Feature.id", plus "@scope" for scoped state; other kinds
    /// put their kind in front: "StoredState:Feature.id"), with where it was declared.
    let registry = Mutex<[String: Registered]>([:])
    let keyPathCache = KeyPathCache()
    /// Declarations read before (`store.counter`), by where and how they are written.
    let declarations = DeclarationCache()

    public required init() {}

    /// Takes over the state of another store (used by `promote`).
    func adoptState(from other: Application) {
        let boxes = other.registry.withLock { $0 }
        registry.withLock { mine in mine.merge(boxes) { current, _ in current } }
        // Those boxes count their changes in the other store's counter: count them here too.
        changeCounter.inherit(other.changeCounter)
        // Pending writes of state declared so far, and where files go, come along too.
        let work = other.flushers.withLock { $0 }
        flushers.withLock { $0.append(contentsOf: work) }
        if let settings = other.storageSettings.withLock({ $0 }) { storageSettings.withLock { $0 = settings } }
    }

    /// The box for a key, made with `make` on first use (internal boxes: the persistence engine,
    /// the sync watcher). One key with two types is a bug in the store itself here.
    func box<Box: StateStorage>(key: String, make: () -> Box) -> Box {
        registry.withLock { entries in
            if let existing = entries[key] {
                guard let typed = existing.storage as? Box else {
                    preconditionFailure("internal key '\(key)' holds \(type(of: existing.storage)), not \(Box.self)")
                }
                return typed
            }
            let created = ChangeCounter.$attaching.withValue(changeCounter) { make() }
            entries[key] = Registered(storage: created)
            return created
        }
    }

    /// The box of a declaration, made with `make` on first use.
    ///
    /// Never stops the program: two declarations of one key from different places, where at least
    /// one took its id from its property's name, share the value and are reported once in
    /// `storeIssues`; a declaration of an existing key with another value type gets a box of its
    /// own made by `fallback` (in memory only), also reported. Messages call the key `name` (the
    /// key without its kind: "Counter.count").
    func box<Box: StateStorage>(key: String, name: String? = nil, declaration: Declaration, make: () -> Box, fallback: (String) -> Box) -> Box {
        let name = name ?? key
        var issue: StoreIssue?
        let box = registry.withLock { entries -> Box in
            guard var entry = entries[key] else {
                let created = ChangeCounter.$attaching.withValue(changeCounter) { make() }
                entries[key] = Registered(storage: created, declaration: declaration)
                return created
            }
            if entry.note(declaration, key: name, issue: &issue) { entries[key] = entry }
            if let typed = entry.storage as? Box { return typed }
            // Another value type: a box of its own, under a key naming the type.
            let other = "\(key) as \(Box.valueTypeName)"
            if let existing = entries[other]?.storage as? Box { return existing }
            let first = entry.derivedAt ?? entry.explicitAt
            issue = StoreIssue("'\(name)' is declared with two value types: \(type(of: entry.storage).valueTypeName)\(first.map { " at \($0)" } ?? "") and \(Box.valueTypeName) at \(declaration.site). The \(Box.valueTypeName) one gets a value of its own, kept in memory only; give one of them another id.")
            let created = ChangeCounter.$attaching.withValue(changeCounter) { fallback(other) }
            entries[other] = Registered(storage: created, declaration: declaration)
            return created
        }
        if let issue { report(issue) }
        return box
    }

    /// The full registry key of a declaration, including the current scope for scoped state.
    static func key(feature: String, id: String, scoped: Bool) -> String {
        guard scoped, let scope = Scope.current else { return "\(feature).\(id)" }
        return "\(feature).\(id)@\(scope.name).\(scope.id)"
    }

    // MARK: In-memory state

    /// Declares (or finds) in-memory state; the first access stores `initial`.
    ///
    /// Without an `id`, the declaring property's name is the id (`#function`), so AppState's
    /// spelling works as is. Two declarations that end up with one key from different places (two
    /// modules each declaring `isLoading`) share the value and are reported in `storeIssues`.
    ///
    /// ```swift
    /// extension Application {
    ///     public var username: State<String> { state(initial: "", id: "username") }
    ///     public var isLoading: State<Bool> { state(initial: false) }   // key "App.isLoading"
    /// }
    /// ```
    ///
    /// `function`, `fileID` and `line` locate the declaration; leave them to their defaults.
    public func state<Value: Sendable>(
        initial: @autoclosure () -> Value,
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> State<Value> {
        memoryState(initial: initial, feature: feature, id: id, scoped: false, function: function, fileID: fileID, line: line)
    }

    /// Declares in-memory state that each `Scope` keeps separately: two instances of one applet,
    /// each evaluated in its own scope, see different values.
    ///
    /// ```swift
    /// extension Application {
    ///     public var draft: State<String> { scopedState(initial: "", feature: "Notes", id: "draft") }
    /// }
    /// ```
    ///
    /// As with `state`, the id defaults to the declaring property's name.
    public func scopedState<Value: Sendable>(
        initial: @autoclosure () -> Value,
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> State<Value> {
        memoryState(initial: initial, feature: feature, id: id, scoped: true, function: function, fileID: fileID, line: line)
    }

    /// `state` and `scopedState`: in-memory state under its key (with the scope's, if `scoped`).
    private func memoryState<Value: Sendable>(initial: () -> Value, feature: String, id: String?, scoped: Bool,
                                              function: String, fileID: String, line: Int) -> State<Value> {
        let cacheKey = DeclarationCache.Key(feature: feature, id: id ?? function, derived: id == nil, fileID: fileID, line: line,
                                            scope: scoped ? Scope.currentIndex : 0, type: ObjectIdentifier(Value.self))
        if let known = declarations.box(for: cacheKey) {
            return State(box: unsafeDowncast(known as AnyObject, to: StateBox<Value>.self))
        }
        let key = Self.key(feature: feature, id: id ?? function, scoped: scoped)
        let resolved = box(
            key: key,
            declaration: Declaration(derived: id == nil, fileID: fileID, line: line),
            make: { StateBox(initial(), key: key) },
            fallback: { StateBox(initial(), key: $0) }
        )
        declarations.insert(resolved, for: cacheKey)
        return State(box: resolved)
    }

    /// The state at `keyPath` in the current store.
    ///
    /// ```swift
    /// let count = Application.state(\.counter).value
    /// ```
    ///
    /// Inlinable, so that a client specializes it for its `Value`: a hit in the key path cache is
    /// a call to a non-generic lookup and a downcast; the first access of a key (the declaration
    /// runs, the cache learns it) stays out of line.
    @inlinable
    public static func state<Value>(_ keyPath: KeyPath<Application, State<Value>>) -> State<Value> {
        if let box = cachedStorage(ObjectIdentifier(keyPath)) {
            return State(box: unsafeDowncast(box, to: StateBox<Value>.self))
        }
        return resolveState(keyPath)
    }

    /// The box the current store's key path cache holds for a key path object in the current
    /// scope, retained; nil on a miss. Not generic: the caller, specialized, downcasts it.
    @usableFromInline
    static func cachedStorage(_ keyPath: ObjectIdentifier) -> AnyObject? {
        withCurrentUnretained { $0.keyPathCache.lookup(keyPath, scope: Scope.currentIndex) } as AnyObject?
    }

    /// `state(_:)` on a miss in the cache: runs the declaration and caches its box.
    @usableFromInline @inline(never)
    static func resolveState<Value>(_ keyPath: KeyPath<Application, State<Value>>) -> State<Value> {
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
        if !everInstalled.load(ordering: .relaxed) { return SharedSlot.instance.withShared(body) }
        return body(installed ?? SharedStoreFallback.shared())
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
    /// In a test process each store that does not choose gets a temporary folder of its own, so
    /// tests running side by side never read each other's saved values (a host's last tab).
    public var storage: StorageConfiguration {
        get {
            storageSettings.withLock { settings in
                if let settings { return settings }
                guard StorageConfiguration.isTestProcess else { return .standard() }
                let own = StorageConfiguration.testStore()
                settings = own
                return own
            }
        }
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

    /// Writes every pending change, then returns what still could not be saved (a full disk, a
    /// read-only or locked folder), having written a copy of each such value beside its file or in
    /// the temporary folder. An app ends with it: an empty result means everything is on disk.
    ///
    /// ```swift
    /// let unsaved = Application.shared.saveBeforeExit()
    /// unsaved.forEach { print("myapp: \($0)") }   // then exit non-zero if any
    /// ```
    public func saveBeforeExit() -> [UnsavedChange] {
        flush()
        guard let engine = existingPersistence else { return [] }
        let changes = engine.unsaved(writingCopies: true)
        if !changes.isEmpty { ExitFlush.markReported(engine) }
        return changes
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
@usableFromInline
final class ChangeCounter: Sendable {
    @usableFromInline let count = Atomic<Int>(0)
    /// The counters of the stores this one's store took state over from (`promote(to:)`).
    private let inherited = Mutex<[ChangeCounter]>([])
    private let hasInherited = Atomic<Bool>(false)
    /// The counter of the store whose `box(key:make:)` is making a box right now.
    @TaskLocal static var attaching: ChangeCounter?

    /// This store's changes and those of the stores it took over.
    var total: Int {
        let own = count.load(ordering: .acquiring)
        guard hasInherited.load(ordering: .acquiring) else { return own }
        return own + inherited.withLock { $0.reduce(0) { $0 + $1.total } }
    }

    func inherit(_ other: ChangeCounter) {
        guard other !== self else { return }
        inherited.withLock { $0.append(other) }
        hasInherited.store(true, ordering: .releasing)
    }
}

/// Where a declaration of state is in the source, and whether its id came from its property's
/// name (`#function`) rather than an explicit `id:`.
struct Declaration: Sendable {
    let derived: Bool
    let site: DeclarationSite

    init(derived: Bool, fileID: String, line: Int) {
        self.derived = derived
        site = DeclarationSite(fileID: fileID, line: line)
    }
}

struct DeclarationSite: Hashable, Sendable, CustomStringConvertible {
    let fileID: String
    let line: Int
    var description: String { "\(fileID):\(line)" }
}

/// A registry entry: the box, and the first places that declared it.
struct Registered: Sendable {
    let storage: any StateStorage
    /// The first declaration that took this key from its property's name.
    var derivedAt: DeclarationSite?
    /// The first declaration that named this key with an explicit id.
    var explicitAt: DeclarationSite?
    var clashReported = false

    init(storage: any StateStorage, declaration: Declaration? = nil) {
        self.storage = storage
        if let declaration {
            if declaration.derived { derivedAt = declaration.site } else { explicitAt = declaration.site }
        }
    }

    /// Records `declaration`; sets `issue` the first time the key turns out to be declared in two
    /// places of which one derived it. Explicit ids may be shared on purpose: only a derived key
    /// that meets another declaration is a clash. Returns true if the entry changed.
    mutating func note(_ declaration: Declaration, key: String, issue: inout StoreIssue?) -> Bool {
        let site = declaration.site
        var other: DeclarationSite?
        var changed = false
        if declaration.derived {
            if let first = derivedAt {
                if first != site { other = first }
            } else {
                derivedAt = site
                changed = true
                other = explicitAt
            }
        } else {
            if explicitAt == nil {
                explicitAt = site
                changed = true
            }
            if let first = derivedAt { other = first }
        }
        if let other, !clashReported {
            clashReported = true
            changed = true
            issue = StoreIssue("'\(key)' is declared in two places: \(other) and \(site), and at least one of them takes its id from its property's name. They share one value; if they are different things, give one of them an id (id: \"...\").")
        }
        return changed
    }
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
