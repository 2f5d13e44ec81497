import AppletState
import Synchronization

/// The clocks the logic module's own worlds run on, so that `AppletLogic` needs no clock package
/// (swift-clocks brings all of Foundation into every app that links it, about 4 MB of memory and
/// a sixth of a small program's launch).
///
/// A `StillClock` never moves: `now` stays where the clock was made and a sleep ends only when
/// its task is cancelled. It is what `Coeffects.fixed()` runs on when the test gives no clock of
/// its own: a world where time does not pass.
///
/// ```swift
/// let clock = StillClock()
/// let task = Task { try await clock.sleep(for: .seconds(1)) }   // waits until cancelled
/// task.cancel()
/// ```
struct StillClock: Clock {
    let now = ContinuousClock.now
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        // Cancellation is the only way out, and nothing wakes until then.
        await waitUntilCancelled()
        throw CancellationError()
    }
}

/// A clock that never waits: a sleep returns at once (after letting other tasks run) and moves
/// `now` to its deadline, so a replayed session's timers fire in order without the wait.
///
/// ```swift
/// let clock = NoWaitClock()
/// try await clock.sleep(for: .seconds(5))   // returns at once; clock.now moved 5 s on
/// ```
final class NoWaitClock: Clock, Sendable {
    private let current = Mutex(ContinuousClock.now)
    var now: ContinuousClock.Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        current.withLock { $0 = max($0, deadline) }
        await Task.yield()
    }
}
