import AppletState
import Synchronization

/// What the replicator has to do next: keys changed here (each once, in order) and notifications
/// from the server, taken as one batch. A waiting `next()` ends when there is something, or when
/// its task is cancelled; `waitForLocalChange(upTo:)` (the wait between two connection attempts)
/// ends early when a change is made here, so the user's change is tried at once.
final class SyncInbox: Sendable {
    struct Batch {
        var notifications: [String] = []
        var keys: [SyncKey] = []
        /// How many `local` calls the batch holds (more than `keys` when one key changed twice).
        var localCount = 0
        var isEmpty: Bool { notifications.isEmpty && keys.isEmpty }
    }

    private struct State {
        var batch = Batch()
        var queued: Set<SyncKey> = []
        var waiter: CheckedContinuation<Void, Never>?
        var localWaiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// A change made here to `key`.
    func local(_ key: SyncKey) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.queued.insert(key).inserted { state.batch.keys.append(key) }
            state.batch.localCount += 1
            defer { state.waiter = nil; state.localWaiter = nil }
            return [state.waiter, state.localWaiter].compactMap { $0 }
        }
        for waiter in waiters { waiter.resume() }
    }

    /// A notification's payload, from the server.
    func notify(_ payload: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.batch.notifications.append(payload)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Whether changes made here are waiting to be taken.
    var hasLocalChanges: Bool { state.withLock { !$0.batch.keys.isEmpty } }

    /// Everything queued, once there is something; throws `CancellationError` when the task is
    /// cancelled while it waits.
    func next() async throws -> Batch {
        while true {
            let taken = state.withLock { state -> Batch? in
                guard !state.batch.isEmpty else { return nil }
                defer { state.batch = Batch(); state.queued.removeAll() }
                return state.batch
            }
            if let taken { return taken }
            try Task.checkCancellation()
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state -> Bool in
                        if !state.batch.isEmpty || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }
    }

    /// Waits `delay`, or less if a change is made here meanwhile (or already waits).
    func waitForLocalChange(upTo delay: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            // MainQueueClock, not Task.sleep: on Linux that waits on a libdispatch global queue, and the
        // first job there starts a thread that wakes every second for the rest of the process.
        group.addTask { try? await MainQueueClock().sleep(for: delay) }
            group.addTask { await self.localChange() }
            _ = await group.next()
            group.cancelAll()
        }
    }

    /// Returns when a change made here is queued, or the task is cancelled.
    private func localChange() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if !state.batch.keys.isEmpty || Task.isCancelled { return true }
                    state.localWaiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.localWaiter = nil }
                return state.localWaiter
            }
            waiter?.resume()
        }
    }
}
