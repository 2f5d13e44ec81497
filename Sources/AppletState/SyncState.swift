
/// State shared by every running instance of the app on this machine: two terminals open on the
/// same app see each other's changes within a fraction of a second.
///
/// Each value is one JSON file, `<storage directory>/sync/<Feature>.<id>.json`. Writes are
/// serialized between processes with a lock file and replace the file atomically; every
/// instance watches the folder and takes in values written elsewhere, so views redraw and
/// `changes` subscribers hear them.
///
/// ```swift
/// extension Application {
///     public var sharedNote: SyncState<String> { syncState(initial: "", feature: "Notes", id: "shared") }
/// }
///
/// Application.syncState(\.sharedNote).value = "hi"       // every instance sees "hi"
/// Application.state(\.sharedNote).modify { $0 += "!" }   // read-modify-write across processes
///
/// struct NoteView: View {
///     @SyncState(\.sharedNote) var note                   // `$note` is a Binding
///     var body: some View {
///         VStack {
///             Text("Note: \(note)")
///             Button("Sign") { note += " (seen)" }
///         }
///     }
/// }
/// ```
///
/// `modify` never loses an update made by another instance: it runs under the lock on the value
/// last written by anyone, read from the file. If the folder cannot be used, the value is kept in
/// memory only and the problem is reported once in `Application.storeIssues`.
@propertyWrapper
public struct SyncState<Value: Codable & Sendable>: BoxedState, MutableApplicationState {
    private let core: HandleCore<SyncState<Value>>

    init(box: StateBox<Value>) { core = HandleCore(box: box) }

    /// The property wrapper: `@SyncState(\.sharedNote) var note` reads and writes the value in the
    /// current store.
    public init(_ keyPath: any KeyPath<Application, SyncState<Value>> & Sendable) { core = HandleCore(keyPath: keyPath) }

    /// The property wrapper, for a key path that is not `Sendable` (to a main-actor property):
    /// made on the main actor and used there only (checked at every access).
    @MainActor
    public init(_ keyPath: KeyPath<Application, SyncState<Value>>) { core = HandleCore(mainActorKeyPath: keyPath) }

    var box: StateBox<Value> { core.box }

    var syncFile: SyncFile<Value>? { SyncFiles.file(for: box) }

    /// The current value. Setting it writes the file at once; other instances pick it up.
    ///
    /// A value that cannot be written as JSON (`Double.infinity`, say) is refused: the state keeps
    /// its previous value, here as everywhere, and the problem is reported in `storeIssues`.
    public var value: Value {
        get { core.value }
        nonmutating set {
            let box = self.box
            if let file = SyncFiles.file(for: box) { file.set(newValue) } else { box.set(newValue) }
        }
    }

    /// Changes the value atomically across every instance of the app: the change runs under the
    /// lock on the latest value on disk, so concurrent updates elsewhere are never lost.
    @discardableResult
    public func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R {
        let box = self.box
        if let file = SyncFiles.file(for: box) { return try file.modify(change) }
        return try box.modify(change)
    }

    /// Every value this state takes from now on, whether set here or in another instance.
    public var changes: AsyncStream<Value> { core.changes }

    /// Puts the value back to the declared initial value in every running instance, and deletes
    /// the file, so the next start sees the initial value too.
    public func reset() { box.reset() }

    /// A binding that reads and writes this state.
    public var binding: Binding<Value> {
        let state = SyncState(box: box)
        return Binding(get: { state.value }, set: { state.value = $0 })
    }

    public var wrappedValue: Value {
        get { value }
        nonmutating set { value = newValue }
    }

    /// A binding to the value (`$note`).
    public var projectedValue: Binding<Value> {
        let state = self
        return Binding(get: { state.value }, set: { state.value = $0 })
    }
}

extension Application {
    /// Declares (or finds) a value shared by every running instance of the app on this machine.
    /// The first access reads its file if there is one, else stores `initial`. Without an `id`,
    /// the declaring property's name is the id (see `state(initial:feature:id:)`).
    ///
    /// ```swift
    /// extension Application {
    ///     public var sharedNote: SyncState<String> { syncState(initial: "", feature: "Notes", id: "shared") }
    /// }
    /// ```
    public func syncState<Value: Codable & Sendable>(
        initial: @autoclosure () -> Value,
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> SyncState<Value> {
        let key = "\(feature).\(id ?? function)"
        let center = syncCenter
        let directory = Path.join(storage.directory, "sync")
        let box = box(
            key: SyncCenter.boxKeyPrefix + key,
            name: key,
            declaration: Declaration(derived: id == nil, fileID: fileID, line: line),
            // Runs once, under the registry lock: problems are reported after it.
            make: { SyncFile(initial: initial(), key: SyncKey(feature: feature, id: id ?? function), directory: directory, center: center).box },
            // A value of another type under this key is kept in memory only.
            fallback: { StateBox(initial(), key: $0) }
        )
        center.deliverIssues()
        return SyncState(box: box)
    }

    /// Declares (or finds) an optional shared value whose initial value is nil, as AppState's
    /// `syncState(id:)` does.
    ///
    /// ```swift
    /// extension Application {
    ///     public var focusedNote: SyncState<String?> { syncState(id: "focusedNote") }
    /// }
    /// ```
    public func syncState<Value: Codable & Sendable>(
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> SyncState<Value?> {
        syncState(initial: nil, feature: feature, id: id, function: function, fileID: fileID, line: line)
    }

    /// The shared value at `keyPath` in the current store (AppState's spelling).
    ///
    /// ```swift
    /// Application.syncState(\.sharedNote).value = "hi"
    /// ```
    public static func syncState<Value>(_ keyPath: KeyPath<Application, SyncState<Value>>) -> SyncState<Value> {
        handle(keyPath)
    }

    /// The shared value at `keyPath` in the current store.
    ///
    /// ```swift
    /// let note = Application.state(\.sharedNote).value
    /// ```
    public static func state<Value>(_ keyPath: KeyPath<Application, SyncState<Value>>) -> SyncState<Value> {
        handle(keyPath)
    }

    /// The store's folder watcher, made on first use and stopped when the store goes away.
    var syncCenter: SyncCenter {
        box(key: SyncCenter.registryKey) { SyncCenter(application: self) }
    }
}
