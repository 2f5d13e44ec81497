#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Saves every pending coalesced write when the process ends normally: `main` returns, or any code
/// calls `exit()`. Without it a `StoredState` or `FileState` set less than 100 ms before the end
/// would be lost, because its write waits on a timer that never fires.
///
/// Every persistence engine registers itself (weakly) when it is made; the first registration
/// installs one `atexit` handler for the process. Hosts still flush on quit and on signals; this
/// covers the programs that are not hosts (a command-line tool, a script, a test's child process).
/// `SecureState` and `SyncState` write at once and need nothing here.
///
/// ```swift
/// @main struct Bump {
///     static func main() {
///         Application.state(\.launches).value += 1   // a StoredState
///     }   // returning from main writes it
/// }
/// ```
enum ExitFlush {
    private final class WeakEngine: @unchecked Sendable {
        weak var engine: Persistence?
        init(_ engine: Persistence) { self.engine = engine }
    }

    private struct Registry {
        var engines: [WeakEngine] = []
        var installed = false
    }

    private static let registry = Mutex(Registry())

    /// Remembers `engine` for the exit flush, installing the handler on first use.
    static func register(_ engine: Persistence) {
        let install = registry.withLock { registry -> Bool in
            registry.engines.removeAll { $0.engine == nil }
            registry.engines.append(WeakEngine(engine))
            defer { registry.installed = true }
            return !registry.installed
        }
        if install { atexit { ExitFlush.flushAll() } }
    }

    /// Writes the pending changes of every engine still alive. Runs in the `atexit` handler.
    static func flushAll() {
        let engines = registry.withLock { $0.engines.compactMap(\.engine) }
        for engine in engines { engine.writePending() }
    }
}
