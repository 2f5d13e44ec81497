import CGlobalExecutor

/// Work for a background thread after a delay: a coalesced save 100 ms after the first change.
///
/// It runs on `GlobalExecutorPool`'s threads, which wait on a condition variable with no timeout:
/// nothing wakes before the work is due, and nothing after. A `DispatchQueue` would do the same
/// work on a libdispatch worker, which wakes again on its own to end itself a few seconds later,
/// so an app at rest would not be.
///
/// ```swift
/// BackgroundWork.after(.milliseconds(100)) { persistence.writePending() }
/// ```
enum BackgroundWork {
    static func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = delay.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let total = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
        let box = Unmanaged.passRetained(Box(work)).toOpaque()
        ak_global_executor_run_after(total, { argument in
            Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().work()
        }, box)
    }

    private final class Box {
        let work: @Sendable () -> Void
        init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }
}
