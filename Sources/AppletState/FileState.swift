
/// State that survives restarts in a human-readable JSON file of its own (pretty-printed, keys
/// sorted): `<folder>/<feature>.<id>.json`, by default in `<storage.directory>/files`. Good for
/// values people may read or edit by hand, or copy between machines.
///
/// Changes are saved like `StoredState`'s: coalesced into one atomic write ~100 ms after the first
/// change, or at once by `Application.shared.flush()`. The file is read at the value's first access; a
/// damaged one, or one that no longer fits the type, is moved aside as
/// `<name>.corrupt-<timestamp>` and reported once in `storeIssues`. Fields the type gained since
/// the file was written take the initial value's.
///
/// ```swift
/// extension Application {
///     public var layout: FileState<Layout> { fileState(initial: Layout(), feature: "Editor", id: "layout") }
/// }
///
/// Application.fileState(\.layout).value.columns = 2   // saved as .../files/Editor.layout.json
///
/// struct LayoutView: View {
///     @FileState(\.layout) var layout                 // `$layout` is a Binding
///     var body: some View { Text("\(layout.columns) columns") }
/// }
/// ```
@propertyWrapper
public struct FileState<Value: Codable & Sendable>: BoxedState, MutableApplicationState {
    private let core: HandleCore<FileState<Value>>

    init(box: StateBox<Value>) { core = HandleCore(box: box) }

    /// The property wrapper: `@FileState(\.layout) var layout` reads and writes the value in the current store.
    public init(_ keyPath: any KeyPath<Application, FileState<Value>> & Sendable) { core = HandleCore(keyPath: keyPath) }

    /// The property wrapper, for a key path that is not `Sendable` (to a main-actor property):
    /// made on the main actor and used there only (checked at every access).
    @MainActor
    public init(_ keyPath: KeyPath<Application, FileState<Value>>) { core = HandleCore(mainActorKeyPath: keyPath) }

    var box: StateBox<Value> { core.box }

    /// The current value. Setting it notifies observers and saves it.
    public var value: Value {
        get { core.value }
        nonmutating set { core.value = newValue }
    }

    /// Changes the value atomically (no other write can come in between), notifies once and saves.
    @discardableResult
    public func modify<R>(_ change: (inout Value) throws -> R) rethrows -> R { try core.modify(change) }

    /// A binding that reads and writes this state.
    public var binding: Binding<Value> { core.binding }

    /// Every value this state takes from now on (ends when the consuming task is cancelled).
    public var changes: AsyncStream<Value> { core.changes }

    /// Puts the value back to the declared initial value and deletes the file (at the next
    /// write), so the next run starts from the initial value too.
    public func reset() { core.box.reset() }

    public var wrappedValue: Value {
        get { value }
        nonmutating set { value = newValue }
    }

    /// A binding to the value, resolved in the current store at every access.
    public var projectedValue: Binding<Value> {
        let state = self
        return Binding(get: { state.value }, set: { state.value = $0 })
    }
}

extension Application {
    /// Declares (or finds) file state; the first access reads the file, or uses `initial`.
    /// `folder` (created 0700 if missing; `~` is expanded) defaults to `<storage.directory>/files`.
    /// Without an `id`, the declaring property's name is the id (see `state(initial:feature:id:)`).
    ///
    /// ```swift
    /// extension Application {
    ///     public var bookmarks: FileState<[String]> { fileState(initial: [], feature: "Browser", id: "bookmarks") }
    ///     public var theme: FileState<Theme> { fileState(initial: .dark, feature: "UI", id: "theme", folder: "~/.config/demo") }
    /// }
    /// ```
    public func fileState<Value: Codable & Sendable>(
        initial: @autoclosure () -> Value,
        feature: String = "App",
        id: String? = nil,
        folder: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> FileState<Value> {
        let key = "\(feature).\(id ?? function)"
        return fileState(
            initial: initial, key: key, name: Persistence.fileName(key) + ".json", folder: folder,
            declaration: Declaration(derived: id == nil, fileID: fileID, line: line)
        )
    }

    /// Declares (or finds) file state in AppState's spelling: the file `filename` (used as given)
    /// in the folder `path` (`~` is expanded; by default `<storage.directory>/files`). The content
    /// is the same readable JSON as every `FileState`'s (never Base64).
    ///
    /// ```swift
    /// extension Application {
    ///     public var recent: FileState<[String]> { fileState(initial: [], path: "~/.config/demo", filename: "recent.json") }
    /// }
    /// ```
    public func fileState<Value: Codable & Sendable>(
        initial: @autoclosure () -> Value,
        path: String? = nil,
        filename: String,
        fileID: String = #fileID,
        line: Int = #line
    ) -> FileState<Value> {
        fileState(
            initial: initial, key: filename, name: Persistence.fileName(filename), folder: path,
            declaration: Declaration(derived: false, fileID: fileID, line: line)
        )
    }

    /// Declares (or finds) optional file state whose initial value is nil, in AppState's spelling.
    ///
    /// ```swift
    /// extension Application {
    ///     public var draft: FileState<String?> { fileState(filename: "draft.json") }
    /// }
    /// ```
    public func fileState<Value: Codable & Sendable>(
        path: String? = nil,
        filename: String,
        fileID: String = #fileID,
        line: Int = #line
    ) -> FileState<Value?> {
        fileState(initial: nil, path: path, filename: filename, fileID: fileID, line: line)
    }

    /// The file state kept in `<folder>/<name>`: one box per file, whichever way it was declared.
    private func fileState<Value: Codable & Sendable>(
        initial: () -> Value, key: String, name: String, folder: String?, declaration: Declaration
    ) -> FileState<Value> {
        let (path, root) = Self.filePath(persistence, name: name, folder: folder)
        return FileState(box: persistentBox(
            registryKey: "\(PersistentKind.file.rawValue):\(path)",
            key: key,
            declaration: declaration,
            initial: initial,
            load: { persistence, initial in persistence.loadFile(key: key, path: path, initial: initial) },
            entry: { persistence in
                ValueEntry<Value>(key: key, kind: .file, target: .file(path: path, root: root), persistence: persistence)
            },
            attach: { entry, box in entry.box = box }
        ))
    }

    /// Where a `FileState` lives, and the folder to name if it cannot be written.
    static func filePath(_ persistence: Persistence, name: String, folder: String?) -> (path: String, root: String) {
        guard let folder else {
            return (Path.join(persistence.filesFolder, name), persistence.configuration.directory)
        }
        let expanded = Path.expandingTilde(folder)
        return (Path.join(expanded, name), expanded)
    }

    /// The file state at `keyPath` in the current store (AppState's spelling).
    ///
    /// ```swift
    /// Application.fileState(\.bookmarks).value.append("https://swift.org")
    /// ```
    public static func fileState<Value>(_ keyPath: KeyPath<Application, FileState<Value>>) -> FileState<Value> {
        // Not `handle(_:)`: resolving the concrete type here calls its `init(box:)` directly
        // instead of through the protocol witness table (a few ns per access).
        withCurrentUnretained { $0.resolve(keyPath) }
    }

    /// The file state at `keyPath` in the current store (the same as `fileState(_:)`).
    ///
    /// ```swift
    /// Application.state(\.bookmarks).value.removeAll()
    /// ```
    public static func state<Value>(_ keyPath: KeyPath<Application, FileState<Value>>) -> FileState<Value> {
        // Not `handle(_:)`: resolving the concrete type here calls its `init(box:)` directly
        // instead of through the protocol witness table (a few ns per access).
        withCurrentUnretained { $0.resolve(keyPath) }
    }
}
