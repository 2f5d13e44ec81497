import Synchronization

/// One value as `Application.description` shows it: its box's key, its type and its text, already
/// escaped and cut, with notes about it ("overridden").
struct DescribedValue: Sendable {
    let key: String
    let type: String
    let value: String
    var notes: [String] = []
}

/// A dependency's box: listed under "Dependency" whatever its registry key looks like (a state
/// declared with `feature: "Dependency"` has a key that starts the same way).
protocol DependencyStorage: StateStorage {}

/// How `Application.description` writes the store out: bounded, so that a store with a large value
/// or ten thousand keys still prints as something a person can read, and safe to show in a
/// terminal or a log (control characters escaped, as `LogText` does).
enum StoreDump {
    /// The most characters of one value shown; a longer one ends in "…".
    static let valueLimit = 80
    /// The most characters of a name (a key, a file's path, a type).
    static let nameLimit = 100
    /// The most values listed; the rest are counted.
    static let entryLimit = 1_000

    /// The kinds of state, in the order they are listed.
    enum Kind: Int, CaseIterable {
        case state, stored, file, secure, sync, dependency

        /// The kind of a state box, from the prefix its declaration put in front of its key.
        init(stateKey key: String) {
            if key.hasPrefix(Kind.stored.keyPrefix) { self = .stored }
            else if key.hasPrefix(Kind.file.keyPrefix) { self = .file }
            else if key.hasPrefix(Kind.secure.keyPrefix) { self = .secure }
            else if key.hasPrefix(Kind.sync.keyPrefix) { self = .sync }
            else { self = .state }
        }

        /// What each kind's declaration puts in front of its registry key.
        var keyPrefix: String {
            switch self {
            case .state: ""
            case .stored: StoredStateStrategy<Int>.kind + ":"
            case .file: FileStateStrategy<Int>.kind + ":"
            case .secure: SecureStateStrategy.kind + ":"
            case .sync: SyncStateStrategy<Int>.kind + ":"
            case .dependency: "Dependency."
            }
        }

        var title: String {
            switch self {
            case .state: "State"
            case .stored: "StoredState"
            case .file: "FileState"
            case .secure: "SecureState"
            case .sync: "SyncState"
            case .dependency: "Dependency"
            }
        }
    }

    /// `value` as one line of at most `limit` characters: a string quoted with its escapes, an
    /// optional as its value or `nil`, anything else as `String(describing:)`; control characters
    /// escaped.
    static func render<Value>(_ value: Value, limit: Int) -> String {
        cut(LogText.escaped(text(of: value)), to: limit)
    }

    private static func text(of value: Any) -> String {
        if let optional = value as? any OptionalValue { return optional.wrappedValue.map(text(of:)) ?? "nil" }
        if let string = value as? String { return String(reflecting: string) }
        return String(describing: value)
    }

    /// `text` cut to `limit` characters, the last of them "…" when anything was cut.
    static func cut(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// A type's name as it is written in code: `String?` for `Optional<String>`, `[Int]` for
    /// `Array<Int>`, `[String: Int]` for `Dictionary<String, Int>`, at any depth.
    static func typeName(_ name: String) -> String {
        guard let open = name.firstIndex(of: "<"), name.last == ">" else { return name }
        let base = name[..<open]
        let arguments = splitArguments(name[name.index(after: open)..<name.index(before: name.endIndex)]).map(typeName)
        switch (base, arguments.count) {
        case ("Optional", 1) where arguments[0].hasPrefix("any ") || arguments[0].contains("->") || arguments[0].contains(" & "):
            return "(\(arguments[0]))?"
        case ("Optional", 1): return arguments[0] + "?"
        case ("Array", 1): return "[\(arguments[0])]"
        case ("Dictionary", 2): return "[\(arguments[0]): \(arguments[1])]"
        default: return "\(base)<\(arguments.joined(separator: ", "))>"
        }
    }

    /// The top-level arguments of a generic type's name ("String, Array<Int>" is two).
    private static func splitArguments(_ text: Substring) -> [String] {
        var arguments: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            switch character {
            case "<", "(", "[": depth += 1
            case ">" where current.last == "-": break   // a function type's arrow
            case ">", ")", "]": depth -= 1
            case "," where depth == 0:
                arguments.append(current.trimmingSpaces)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        arguments.append(current.trimmingSpaces)
        return arguments
    }
}

/// Any `Optional`, so that `StoreDump` shows a value or `nil` rather than `Optional(...)`.
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { map { $0 as Any } }
}

private extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension Application {
    /// What `description` shows: every value the store holds, kind by kind in a fixed order and by
    /// key within a kind (a `FileState`'s key is its file's path), secrets never shown. Values are
    /// read without being observed.
    func storeDescription() -> String {
        let registered = registry.withLock { entries in entries.map { (key: $0.key, storage: $0.value.storage) } }
        var persistence: Persistence?
        var found: [(kind: StoreDump.Kind, name: String, key: String, storage: any StateStorage)] = []
        for (key, storage) in registered {
            if let engine = storage as? Persistence { persistence = engine }
            // The store's machinery (the persistence engine, the sync watcher) holds no value.
            if storage is Persistence || storage is SyncCenter { continue }
            let kind = storage is any DependencyStorage ? StoreDump.Kind.dependency : StoreDump.Kind(stateKey: key)
            found.append((kind, String(key.dropFirst(kind.keyPrefix.count)), key, storage))
        }
        found.sort { ($0.kind.rawValue, $0.name, $0.key) < ($1.kind.rawValue, $1.name, $1.key) }

        let folder = persistence?.configuration.directory
        var lines: [String] = []
        let count = found.count
        let title = type(of: self) == Application.self ? "Application" : "Application (\(type(of: self)))"
        let counted = count == 0 ? "no values" : count == 1 ? "1 value" : "\(count) values"
        lines.append("\(title), \(counted)" + (folder.map { " (state folder \(StoreDump.cut(LogText.escaped($0), to: StoreDump.nameLimit)))" } ?? ""))

        var kind: StoreDump.Kind?
        for entry in found.prefix(StoreDump.entryLimit) {
            if entry.kind != kind {
                kind = entry.kind
                lines.append(heading(entry.kind, persistence: persistence))
            }
            let secret = entry.kind == .secure || persistence?.isSecret(entry.key) == true
            lines.append("  " + line(for: entry.kind, name: entry.name, key: entry.key, storage: entry.storage, folder: folder, secret: secret))
        }
        if count > StoreDump.entryLimit {
            lines.append("… and \(count - StoreDump.entryLimit) more, not shown")
        }
        return lines.joined(separator: "\n")
    }

    private func heading(_ kind: StoreDump.Kind, persistence: Persistence?) -> String {
        switch kind {
        case .stored:
            guard let persistence else { return kind.title }
            return kind.title + " (in \(StoreDump.cut(LogText.escaped(persistence.storePath), to: StoreDump.nameLimit)))"
        case .secure:
            return kind.title + " (values hidden)"
        case .sync:
            return kind.title + " (shared with the app's other running instances)"
        default:
            return kind.title
        }
    }

    private func line(for kind: StoreDump.Kind, name: String, key: String, storage: any StateStorage, folder: String?, secret: Bool) -> String {
        let shownName = StoreDump.cut(LogText.escaped(name), to: StoreDump.nameLimit)
        if secret {
            // Only whether there is a secret; its text never reaches the description.
            let hasSecret = (storage as? StateBox<String?>).map { $0.untrackedValue != nil } ?? true
            return "\(shownName) = \(hasSecret ? "<secret>" : "nil")"
        }
        guard let described = storage.described(limit: StoreDump.valueLimit) else { return shownName }
        let type = StoreDump.cut(StoreDump.typeName(described.type), to: StoreDump.nameLimit)
        var text: String
        if kind == .file {
            // Named by its declaration; the registry key is where its file is.
            let path = String(key.dropFirst(kind.keyPrefix.count))
            let shownPath = folder.flatMap { path.hasPrefix($0 + "/") ? String(path.dropFirst($0.count + 1)) : nil } ?? path
            let declared = described.key.hasPrefix(kind.keyPrefix) ? String(described.key.dropFirst(kind.keyPrefix.count)) : described.key
            let fileName = StoreDump.cut(LogText.escaped(declared), to: StoreDump.nameLimit)
            text = "\(fileName): \(type) = \(described.value)  (\(StoreDump.cut(LogText.escaped(shownPath), to: StoreDump.nameLimit)))"
        } else {
            text = "\(shownName): \(type) = \(described.value)"
        }
        if !described.notes.isEmpty { text += "  [" + described.notes.joined(separator: ", ") + "]" }
        return text
    }
}
