import AppletState
import Dispatch
import Synchronization
import Testing

/// `MainQueueClock` sleeps on a main-queue timer and `waitUntilCancelled` on nothing: both end
/// when they should, and a cancelled one ends at once with nothing left to fire.
@Suite("MainQueueClock")
struct MainQueueClockTests {
    @Test func aSleepLastsAtLeastItsDuration() async throws {
        let clock = MainQueueClock()
        let start = clock.now
        try await clock.sleep(for: .milliseconds(30))
        #expect(start.duration(to: clock.now) >= .milliseconds(30))
        // A deadline already past returns at once, without a timer.
        try await clock.sleep(until: start, tolerance: nil)
    }

    @Test func cancellingASleepEndsItAtOnceWithCancellationError() async throws {
        let clock = MainQueueClock()
        let task = Task { try await clock.sleep(for: .seconds(3600)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // A task cancelled before it sleeps never starts a timer.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
    }

    @Test func aSleepCancelledWhileWaitingEnds() async throws {
        let clock = MainQueueClock()
        let started = Mutex(false)
        let task = Task.detached {
            started.withLock { $0 = true }
            try await clock.sleep(for: .seconds(3600))
        }
        while !started.withLock({ $0 }) { await Task.yield() }
        try await clock.sleep(for: .milliseconds(10))   // it is waiting on its timer now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func waitUntilCancelledReturnsOnlyWhenCancelled() async throws {
        let returned = Mutex(false)
        let task = Task.detached {
            await waitUntilCancelled()
            returned.withLock { $0 = true }
        }
        try await MainQueueClock().sleep(for: .milliseconds(20))
        #expect(!returned.withLock { $0 })
        task.cancel()
        await task.value
        #expect(returned.withLock { $0 })
    }
}
