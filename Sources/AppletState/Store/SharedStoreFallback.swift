import Synchronization

/// Hears code that asks for `Application.current` where no store is installed, and so gets the
/// shared one, once some store has been installed in the process (hosts and tests install theirs
/// with `withCurrent`). AppletTesting's `AppletTestHost` listens: in a test, such a read is
/// almost always a call meant for the host's own store made outside `host.perform { }`, which
/// would otherwise change or read another store without a word.
///
/// Costs nothing until a listener is installed: the check sits on the path that already read the
/// task-local store and found none.
package enum SharedStoreFallback {
    private static let listening = Atomic<Bool>(false)
    private static let listener = Mutex<(@Sendable () -> Void)?>(nil)

    /// Calls `listener` (on the reading thread) each time `Application.current` falls back to the
    /// shared store; nil stops it. It must not read `Application.current` itself.
    package static func listen(_ newListener: (@Sendable () -> Void)?) {
        listener.withLock { $0 = newListener }
        listening.store(newListener != nil, ordering: .releasing)
        // From now on `current` looks for an installed store (and so reaches the check below).
        if newListener != nil, !Application.everInstalled.load(ordering: .relaxed) {
            Application.everInstalled.store(true, ordering: .relaxed)
        }
    }

    /// The shared store, for a read that found no installed one; tells the listener first.
    @inline(__always)
    static func shared() -> Application {
        if listening.load(ordering: .relaxed) { tellListener() }
        return Application.shared
    }

    @inline(never)
    private static func tellListener() {
        if let heard = listener.withLock({ $0 }) { heard() }
    }
}
