#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// State that survives restarts: kept in the app's one JSON store file,
/// `<storage.directory>/<storage.appID>.json` (folder 0700, file 0600), under the key "Feature.id".
///
/// Reads cost what `State` reads cost (it is the same box). A set only records the value in
/// memory and marks the key changed; one write ~100 ms later saves every key changed by then,
/// atomically (temporary file, fsync, rename). `Application.shared.flush()` saves at once; hosts call it
/// on quit and on SIGTERM/SIGHUP/SIGINT.
///
/// The file is read at the first `StoredState` access and each key is decoded at its own first
/// access. A value saved before its type gained a field still loads: the saved JSON is laid over
/// the declaration's initial value, so the new field takes its initial value (and a stored
/// dictionary gets back the initial value's keys that it lacks). A damaged file is moved aside and
/// a key that no longer decodes starts from its initial value; both are reported once in
/// `storeIssues`.
///
/// ```swift
/// extension Application {
///     public var counter: StoredState<Int> { storedState(initial: 0, feature: "Counter", id: "count") }
/// }
///
/// Application.storedState(\.counter).value += 1     // AppState's spelling
/// Application.state(\.counter).modify { $0 *= 2 }   // the same state
///
/// struct CounterView: View {
///     @StoredState(\.counter) var count              // `$count` is a Binding
///     var body: some View { Button("Count: \(count)") { count += 1 } }
/// }
/// ```
public typealias StoredState<Value: Codable & Sendable> = PersistentState<StoredStateStrategy<Value>>

/// How `StoredState` keeps a value: one key of the app's store file, written with the other
/// keys changed by then in one coalesced write.
public struct StoredStateStrategy<Value: Codable & Sendable>: PersistenceStrategy {
    public static var kind: String { "StoredState" }

    /// "Feature.id": the value's key in the store file.
    public let key: String
    public var id: String { key }

    public init(key: String) { self.key = key }

    /// The key's saved JSON laid over `initial` (so fields added since it was saved take their
    /// initial values). One that no longer fits the type is kept aside before it is replaced.
    public func load(initial: Value, from storage: PersistentStorage) -> Value? {
        let engine = storage.engine
        let (stored, issues) = engine.storeValue(for: key)
        storage.report(issues)
        guard let stored else { return nil }
        do {
            return try PersistentCoding.decode(stored, as: Value.self, initial: initial)
        } catch {
            let kept = engine.keepAside(stored, key: key)
            storage.report("The saved value of '\(key)' in \(engine.storePath) no longer fits its type (\(PersistentCoding.describe(error))); it was kept as \(kept), and '\(key)' starts from its initial value. Other saved values are unaffected.", path: engine.storePath)
            return nil
        }
    }

    public func save(_ value: Value, to storage: PersistentStorage) throws {
        storage.engine.setStoreValue(try PersistentCoding.compactEncoder().encode(value), for: key)
    }

    public func remove(from storage: PersistentStorage) throws {
        storage.engine.removeStoreValue(for: key)
    }
}


extension Application {
    /// Declares (or finds) stored state; the first access loads the saved value, or `initial`.
    /// Without an `id`, the declaring property's name is the id (see `state(initial:feature:id:)`).
    ///
    /// ```swift
    /// extension Application {
    ///     public var prefs: StoredState<Prefs> { storedState(initial: Prefs(), feature: "Settings", id: "prefs") }
    ///     public var launches: StoredState<Int> { storedState(initial: 0) }   // saved as "App.launches"
    /// }
    /// ```
    public func storedState<Value: Codable & Sendable>(
        initial: @autoclosure () -> Value,
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> StoredState<Value> {
        // A declaration read before resolves without building its keys or taking the registry's
        // lock, as in-memory state does (a view reading stored state on every frame); the type
        // in the key is the wrapper's, so it never meets an in-memory box of the same name.
        let cacheKey = DeclarationCache.Key(feature: feature, id: id ?? function, derived: id == nil, fileID: fileID, line: line,
                                            scope: 0, type: ObjectIdentifier(StoredState<Value>.self))
        if let known = declarations.box(for: cacheKey) {
            return StoredState(box: unsafeDowncast(known as AnyObject, to: StateBox<Value>.self))
        }
        let key = "\(feature).\(id ?? function)"
        let resolved = persistentBox(StoredStateStrategy<Value>(key: key),
                                     declaration: Declaration(derived: id == nil, fileID: fileID, line: line), initial: initial)
        declarations.insert(resolved, for: cacheKey)
        return StoredState(box: resolved)
    }

    /// Declares (or finds) optional stored state whose initial value is nil, as AppState's
    /// `storedState(id:)` does.
    ///
    /// ```swift
    /// extension Application {
    ///     public var lastSearch: StoredState<String?> { storedState(id: "lastSearch") }
    /// }
    /// ```
    public func storedState<Value: Codable & Sendable>(
        feature: String = "App",
        id: String? = nil,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> StoredState<Value?> {
        storedState(initial: nil, feature: feature, id: id, function: function, fileID: fileID, line: line)
    }
}
