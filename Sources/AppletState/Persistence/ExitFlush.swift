#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
        /// Engines whose unsaved changes the program has reported itself (`saveBeforeExit`).
        var reported: Set<ObjectIdentifier> = []
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

    /// Records that the program has reported `engine`'s unsaved changes itself.
    static func markReported(_ engine: Persistence) {
        _ = registry.withLock { $0.reported.insert(ObjectIdentifier(engine)) }
    }

    /// Writes the pending changes of every engine still alive. Runs in the `atexit` handler. What
    /// still cannot be saved is copied elsewhere and named on stderr (unless the program reported
    /// it already), so even a program that never asks is not silent about a lost change.
    static func flushAll() {
        let (engines, reported) = registry.withLock { ($0.engines.compactMap(\.engine), $0.reported) }
        for engine in engines { engine.writePending() }
        for engine in engines where !reported.contains(ObjectIdentifier(engine)) {
            for change in engine.unsaved(writingCopies: true) {
                let line = "\(programName): \(change)\n"
                _ = AtomicFile.writeAll(STDERR_FILENO, Data(line.utf8))
            }
        }
    }

    /// The program's name, as messages on stderr start.
    private static var programName: String {
        let path = CommandLine.arguments.first ?? "app"
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
