
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
public typealias SyncState<Value: Codable & Sendable> = PersistentState<SyncStateStrategy<Value>>

/// How `SyncState` keeps a value: one JSON file in `<state dir>/sync` that every instance of the
/// app on the machine watches (and, with a sync server, that the server's copy keeps in step),
/// written at once, under a lock all the instances take (`SyncFile`).
public struct SyncStateStrategy<Value: Codable & Sendable>: PersistenceStrategy, ValueCoordinating {
    public static var kind: String { "SyncState" }
    public static var timing: PersistenceTiming { .atOnce }

    let syncKey: SyncKey
    let directory: String
    let center: SyncCenter

    /// "Feature.id".
    public var key: String { syncKey.description }
    public var id: String { syncKey.description }

    init(key: SyncKey, directory: String, center: SyncCenter) {
        syncKey = key
        self.directory = directory
        self.center = center
    }

    private var file: SyncFile<Value>? { center.file(for: syncKey, directory: directory) }

    public func load(initial: Value, from storage: PersistentStorage) -> Value? {
        center.file(for: syncKey, directory: directory, initial: initial).start()
    }

    public func save(_ value: Value, to storage: PersistentStorage) throws {
        file?.persist(value)
    }

    public func remove(from storage: PersistentStorage) throws {
        file?.removeShared()
    }

    public func observe(in storage: PersistentStorage, changed: @escaping @Sendable (Value?) -> Void) -> (any PersistenceObservation)? {
        guard let file else { return nil }
        file.observe(changed)
        return SyncObservation(file)
    }

    func coordinator(for box: StateBox<Value>) -> ValueCoordinator<Value> {
        let file = center.file(for: syncKey, directory: directory, initial: box.initial)
        file.attach(box)
        return file
    }
}

/// A `SyncState`'s watch on values written elsewhere, ended with its box.
private final class SyncObservation<Value: Codable & Sendable>: PersistenceObservation {
    private let file: SyncFile<Value>
    init(_ file: SyncFile<Value>) { self.file = file }
    func cancel() { file.stopObserving() }
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
        let strategy = SyncStateStrategy<Value>(key: SyncKey(feature: feature, id: id ?? function),
                                                directory: Path.join(storage.directory, "sync"), center: syncCenter)
        return SyncState(box: persistentBox(strategy, declaration: Declaration(derived: id == nil, fileID: fileID, line: line), initial: initial))
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

    /// The store's folder watcher, made on first use and stopped when the store goes away.
    var syncCenter: SyncCenter {
        box(key: SyncCenter.registryKey) { SyncCenter(application: self) }
    }
}

extension PersistentState where Value: Codable {
    /// The file behind a `SyncState` (nil for other kinds).
    var syncFile: SyncFile<Value>? { box.coordinator as? SyncFile<Value> }
}
