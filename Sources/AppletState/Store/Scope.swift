import Synchronization

/// An instance scope: state declared with `scopedState` is kept separately per scope, so two
/// instances of one applet (two counters in a split) do not share it.
///
/// ```swift
/// let left = Scope(name: "counter", id: "left")
/// Scope.with(left) { Application.state(\.draft).value = "hello" }
/// Scope.with(Scope(name: "counter", id: "right")) { Application.state(\.draft).value }  // ""
/// ```
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let id: String

    public init(name: String, id: String) {
        self.name = name
        self.id = id
    }

    public var description: String { "\(name).\(id)" }

    struct Installed: Sendable {
        let scope: Scope
        let index: Int
    }

    @TaskLocal static var installed: Installed?
    /// Whether a scope was ever installed (see `Application.everInstalled` for why not a count).
    static let everInstalled = Atomic<Bool>(false)
    private static let indexes = Mutex<[Scope: Int]>([:])

    /// The scope in effect, if any.
    public static var current: Scope? {
        if !everInstalled.load(ordering: .relaxed) { return nil }
        return installed?.scope
    }

    /// A small number for the current scope (0 for none), used to key caches.
    static var currentIndex: Int {
        if !everInstalled.load(ordering: .relaxed) { return 0 }
        return installed?.index ?? 0
    }

    /// Runs `body` with `scope` in effect.
    public static func with<R>(_ scope: Scope, _ body: () throws -> R) rethrows -> R {
        let index = indexes.withLock { table in
            if let i = table[scope] { return i }
            let i = table.count + 1
            table[scope] = i
            return i
        }
        if !everInstalled.load(ordering: .relaxed) { everInstalled.store(true, ordering: .relaxed) }
        return try $installed.withValue(Installed(scope: scope, index: index), operation: body)
    }
}
