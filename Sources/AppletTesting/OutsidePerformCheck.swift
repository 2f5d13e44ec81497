import AppletState
import Synchronization
import Testing

/// Catches a test that reaches for the store outside `host.perform { }` while its `AppletTestHost`
/// has a store of its own: a widget manager's call, `Application.state(\.x)`, `toast(…)` and the
/// like then use `Application.current`, which there is the process's shared store, and would
/// change or read it instead of the host's without a word. The first such read records an issue
/// (at the line that made the host) saying to use `host.perform`.
///
/// Only reads made inside the same test as the host count (`Test.current`): other tests running in
/// parallel, and code outside any test (`make screens`), are left alone. The cases of a
/// parameterized test share one test id, so one case's host also watches the others' reads.
enum OutsidePerformCheck {
    private struct Watched: Sendable {
        let test: Test.ID
        let createdAt: SourceLocation
        var reported = false
    }

    /// The hosts being watched, by host.
    private static let watched = Mutex<[ObjectIdentifier: Watched]>([:])
    private static let listening = Mutex(false)

    /// Watches the test that is running for reads of the shared store while `host` lives.
    static func watch(_ host: AppletTestHost, createdAt: SourceLocation) {
        // A host given the shared store on purpose, or one made outside a test: nothing to catch.
        guard let test = Test.current, host.application !== Application.shared else { return }
        watched.withLock { $0[ObjectIdentifier(host)] = Watched(test: test.id, createdAt: createdAt) }
        listening.withLock { listening in
            guard !listening else { return }
            listening = true
            SharedStoreFallback.listen { heard() }
        }
    }

    /// Stops watching for `host` (it is going away).
    static func unwatch(_ host: ObjectIdentifier) {
        _ = watched.withLock { $0.removeValue(forKey: host) }
    }

    /// A read of `Application.current` found no store installed.
    private static func heard() {
        guard let test = Test.current else { return }
        let location = watched.withLock { entries -> SourceLocation? in
            guard let key = entries.first(where: { $0.value.test == test.id && !$0.value.reported })?.key else { return nil }
            entries[key]?.reported = true
            return entries[key]?.createdAt
        }
        guard let location else { return }
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    }

    static let message = """
        The test used the store outside host.perform: Application.current there is the shared store, \
        not this AppletTestHost's, so a widget manager's call, Application.state(\\.x), toast(…) or \
        logic.send(…) made in the test's own code changed or read another store than the one on \
        screen. Wrap the call in `await host.perform { … }`, or use the host's store directly \
        (`host.application.x.value`). The call is in this issue's backtrace.
        """
}
