#ifndef CGLOBALEXECUTOR_H
#define CGLOBALEXECUTOR_H

/// Routes the Swift runtime's global executor (the work of tasks not on an actor, and delayed
/// jobs that come through the runtime's hooks) to a pool of threads that wait on a condition
/// variable with no timeout, so a program at rest has no thread that wakes. `core` threads stay
/// once started; more are started while every thread is busy (a job that blocks does not starve
/// the others), up to `limit`, and leave when they find nothing to do. Returns 0, or -1 when
/// already installed.
int ak_global_executor_install(int core, int limit);

/// Runs `function(argument)` on a pool thread `nanoseconds` from now, whether or not the pool is
/// installed as the global executor: background work with a delay (a coalesced save) that wakes
/// nothing before it is due and nothing after.
void ak_global_executor_run_after(long long nanoseconds, void (*function)(void *), void *argument);

/// Jobs run by the pool so far, and threads it has now (for tests and diagnostics).
long ak_global_executor_jobs_run(void);
int ak_global_executor_threads(void);

#endif
