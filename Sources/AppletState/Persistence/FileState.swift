#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif


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
public typealias FileState<Value: Codable & Sendable> = PersistentState<FileStateStrategy<Value>>

/// How `FileState` keeps a value: a pretty-printed JSON file of its own, written in the coalesced
/// write after a change and deleted by `reset()`.
public struct FileStateStrategy<Value: Codable & Sendable>: PersistenceStrategy {
    public static var kind: String { "FileState" }

    /// What the value is named by in messages (its declaration's "Feature.id", or the file name).
    public let key: String
    /// The file.
    public let path: String
    /// The folder named when the file cannot be written.
    public let root: String
    public var id: String { path }

    public init(key: String, path: String, root: String) {
        self.key = key
        self.path = path
        self.root = root
    }

    public func load(initial: Value, from storage: PersistentStorage) -> Value? {
        storage.read(path, key: key) { data in
            let stored: JSONValue
            do {
                stored = try PersistentCoding.parse(data)
            } catch {
                throw PersistenceFailure("it was not valid JSON (cut short or damaged)")
            }
            do {
                return try PersistentCoding.decode(stored, as: Value.self, initial: initial)
            } catch {
                throw PersistenceFailure("its content no longer fits the type of '\(key)' (\(PersistentCoding.describe(error)))")
            }
        }
    }

    public func save(_ value: Value, to storage: PersistentStorage) throws {
        try storage.write(try Self.encoded(value), to: path, root: root)
    }

    public func remove(from storage: PersistentStorage) throws {
        try storage.removeFile(path, key: key)
    }

    public func unsavedCopy(of value: Value) -> Data? { try? Self.encoded(value) }

    private static func encoded(_ value: Value) throws -> Data {
        var data = try PersistentCoding.prettyEncoder().encode(value)
        data.append(0x0A)
        return data
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
        return FileState(box: persistentBox(FileStateStrategy<Value>(key: key, path: path, root: root), declaration: declaration, initial: initial))
    }

    /// Where a `FileState` lives, and the folder to name if it cannot be written.
    static func filePath(_ persistence: Persistence, name: String, folder: String?) -> (path: String, root: String) {
        guard let folder else {
            return (Path.join(persistence.filesFolder, name), persistence.configuration.directory)
        }
        let expanded = Path.expandingTilde(folder)
        return (Path.join(expanded, name), expanded)
    }
}
