import Dispatch
import Synchronization

/// A clock whose sleeps end on the main queue: the wait is one libdispatch timer, resumed on the
/// main thread, with no worker thread involved.
///
/// `Task.sleep` and `ContinuousClock` wake from libdispatch's global queues, and on Linux the
/// first work there starts a monitor that wakes a thread every second for the rest of the
/// process. Timers of an app at rest (a spinner that turns, a refresh every two seconds, a toast
/// that goes) sleep on this clock instead, so that once they stop, nothing wakes. It reads time
/// as `ContinuousClock` does; a cancelled sleep ends at once with `CancellationError`.
///
/// ```swift
/// let clock = MainQueueClock()
/// while !Task.isCancelled {
///     try await clock.sleep(for: .milliseconds(120))
///     tick += 1
/// }
/// ```
public struct MainQueueClock: Clock, Sendable {
    public typealias Instant = ContinuousClock.Instant
    public typealias Duration = Swift.Duration

    public init() {}

    public var now: Instant { ContinuousClock.now }
    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    // `nonisolated(nonsending)`: the sleep runs on its caller's executor (the main actor, for a
    // view's timer), so a tick is the main queue's timer and the caller's own turn, with no hop to
    // another thread and back.
    public nonisolated(nonsending) func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let left = now.duration(to: deadline)
        guard left > .zero else { return }
        let waiter = Waiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard waiter.begin(continuation) else { return }
                let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
                let timer = DispatchSource.makeTimerSource(queue: .main)
                timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)))
                timer.setEventHandler { waiter.finish(throwing: nil) }
                waiter.timer = TimerBox(timer)
                timer.resume()
            }
        } onCancel: {
            waiter.finish(throwing: CancellationError())
        }
    }

    /// Sleeps for `duration` on the caller's executor (the `Clock` extension's `sleep(for:)` would
    /// hop to the global executor first).
    public nonisolated(nonsending) func sleep(for duration: Duration, tolerance: Duration? = nil) async throws {
        try await sleep(until: now.advanced(by: duration), tolerance: tolerance)
    }

    /// A timer source, cancelled from whichever thread cancels the sleep (`cancel` is thread-safe;
    /// a cancelled source leaves libdispatch's timer heap, so it never fires).
    private final class TimerBox: @unchecked Sendable {
        let source: any DispatchSourceTimer
        init(_ source: any DispatchSourceTimer) { self.source = source }
    }

    /// One sleep's continuation, resumed once: by its timer or by cancellation (which cancels the
    /// timer too).
    private final class Waiter: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<Void, any Error>?, done: Bool, timer: TimerBox?)>((nil, false, nil))

        var timer: TimerBox? {
            get { state.withLock { $0.timer } }
            set {
                let late = state.withLock { state -> Bool in
                    if state.done { return true }
                    state.timer = newValue
                    return false
                }
                if late { newValue?.source.cancel() }
            }
        }

        /// Keeps the continuation; false (having resumed it) if the sleep was cancelled first.
        func begin(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
            let cancelled = state.withLock { state -> Bool in
                if state.done { return true }
                state.continuation = continuation
                return false
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
            return !cancelled
        }

        func finish(throwing error: (any Error)?) {
            let (continuation, timer) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, TimerBox?) in
                guard !state.done else { return (nil, nil) }
                state.done = true
                defer { state.continuation = nil; state.timer = nil }
                return (state.continuation, state.timer)
            }
            timer?.source.cancel()
            if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
        }
    }
}

/// Suspends until the task is cancelled, with no timer at all: the body of a `.task` that starts
/// something when its view appears and stops it when the view goes.
///
/// ```swift
/// .task {
///     monitor.start()
///     await waitUntilCancelled()
///     monitor.stop()
/// }
/// ```
public func waitUntilCancelled() async {
    let waiter = CancellationWaiter()
    await withTaskCancellationHandler {
        await withCheckedContinuation { waiter.begin($0) }
    } onCancel: {
        waiter.finish()
    }
}

private final class CancellationWaiter: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, done: Bool)>((nil, false))

    func begin(_ continuation: CheckedContinuation<Void, Never>) {
        let done = state.withLock { state -> Bool in
            if state.done { return true }
            state.continuation = continuation
            return false
        }
        if done { continuation.resume() }
    }

    func finish() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.done = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
