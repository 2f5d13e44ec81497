import CGlobalExecutor
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TerminalCore

/// The threads that run Swift's global executor in an AppletKit app: the work of tasks not on an
/// actor (`Task.detached`, `nonisolated` async functions, task groups' children).
///
/// On Linux that work otherwise goes to libdispatch's global queues, whose first worker starts a
/// monitor that wakes a thread every second for the rest of the process: an app that once read a
/// file in the background would never be at rest again. The pool's threads wait without a
/// timeout, so with no work nothing wakes. `core` threads stay once started; while every thread
/// is busy (a job that blocks), the next job starts another, up to `limit`, and extra threads
/// leave when idle. `AppletApp` installs it first thing; a program of its own calls `install()`
/// before it starts any task.
///
/// Invariants: jobs run in the order they were queued, each once, on a pool thread; installing
/// twice changes nothing; asynchronous signals are blocked on pool threads (they reach the main
/// thread, where the terminal handles them).
///
/// ```swift
/// @main enum Tool {
///     static func main() {
///         GlobalExecutorPool.install()
///         Task.detached { await crunch() }   // runs on the pool
///         MainRunLoop.run()
///     }
/// }
/// ```
public enum GlobalExecutorPool {
    /// Routes the global executor to the pool. False if it was installed already.
    @discardableResult
    public static func install(core: Int = defaultCore, limit: Int = 64) -> Bool {
        ak_global_executor_install(Int32(clamping: core), Int32(clamping: limit)) == 0
    }

    /// One thread per processor, at least two.
    public static var defaultCore: Int { max(2, sysconfProcessors()) }

    /// Jobs the pool has run so far (0 when it is not installed).
    public static var jobsRun: Int { ak_global_executor_jobs_run() }

    /// The pool's threads now.
    public static var threads: Int { Int(ak_global_executor_threads()) }

    private static func sysconfProcessors() -> Int {
        #if canImport(Glibc)
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
        Int(sysconf(_SC_NPROCESSORS_ONLN))
        #endif
    }
}
