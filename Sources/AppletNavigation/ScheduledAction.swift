import AppletState

/// One action due after a delay on a given clock, replaced when scheduled again: the chord
/// timeout and the status line's expiry. On a `TestClock` time moves only when a test advances it,
/// so a busy test machine cannot fire it early or late.
///
/// Invariants: at most one action is pending; `cancel()` and a new `schedule` mean the old action
/// never runs; the action runs on the main actor.
///
/// ```swift
/// let timer = ScheduledAction(clock: MainQueueClock())
/// timer.schedule(after: .seconds(1)) { router.expireChord() }
/// timer.cancel()
/// ```
@MainActor
public final class ScheduledAction {
    private let clock: any Clock<Duration>
    private var task: Task<Void, Never>?
    /// Bumped by every schedule and cancel, so a task that wakes late knows it was replaced.
    private var generation = 0

    public init(clock: any Clock<Duration> = MainQueueClock()) {
        self.clock = clock
    }

    /// Whether an action is waiting to run.
    public private(set) var isScheduled = false

    /// Runs `action` after `delay`, replacing whatever was scheduled.
    public func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) {
        cancel()
        generation += 1
        let mine = generation
        isScheduled = true
        task = Self.start(on: clock, after: delay) { [weak self] in
            guard let self, self.generation == mine else { return }
            self.isScheduled = false
            self.task = nil
            action()
        }
    }

    // The deadline is read from the clock now, not when the task first runs: a test that advances
    // a TestClock right after scheduling (or a busy machine) must not push the deadline later.
    private static func start<C: Clock>(on clock: C, after delay: Duration,
                                        _ fire: @escaping @MainActor () -> Void) -> Task<Void, Never> where C.Duration == Duration {
        let deadline = clock.now.advanced(by: delay)
        return Task { @MainActor in
            do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
            fire()
        }
    }

    /// Drops the pending action, if any.
    public func cancel() {
        generation += 1
        task?.cancel()
        task = nil
        isScheduled = false
    }

    isolated deinit {
        task?.cancel()
    }
}
