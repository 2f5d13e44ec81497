// The Swift runtime's global-executor hooks (swift/Runtime/ConcurrencyHooks.def), stable since
// Swift 5.5: a job the runtime would give libdispatch's global queues comes here instead. On
// Linux those queues start libdispatch's worker-pool monitor, a timer on its manager thread that
// fires every second for the rest of the process; the threads here wait without timeouts.
#define _GNU_SOURCE
#include "CGlobalExecutor.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define SWIFTCC __attribute__((swiftcall))

typedef SWIFTCC void (*enqueue_original)(void *job);
typedef SWIFTCC void (*enqueue_hook)(void *job, enqueue_original original);
typedef SWIFTCC void (*delay_original)(unsigned long long delay, void *job);
typedef SWIFTCC void (*delay_hook)(unsigned long long delay, void *job, delay_original original);
typedef SWIFTCC void (*deadline_original)(long long sec, long long nsec, long long tsec, long long tnsec,
                                          int clock, void *job);
typedef SWIFTCC void (*deadline_hook)(long long sec, long long nsec, long long tsec, long long tnsec, int clock,
                                      void *job, deadline_original original);

extern enqueue_hook swift_task_enqueueGlobal_hook;
extern delay_hook swift_task_enqueueGlobalWithDelay_hook;
extern deadline_hook swift_task_enqueueGlobalWithDeadline_hook;
// Runs a job on the generic executor (SerialExecutorRef {nil, 0}, passed as its two words).
extern SWIFTCC void swift_job_run(void *job, void *identity, uintptr_t implementation);

// The swift_clock_id values of the runtime's clocks.
enum { clock_continuous = 1, clock_suspending = 2 };

// A Swift job (function NULL) or a C function and its argument.
typedef struct {
    void *job;
    void (*function)(void *);
} pool_work;

typedef struct job_node {
    pool_work work;
    struct job_node *next;
} job_node;

typedef struct {
    pool_work work;
    struct timespec at;   // CLOCK_MONOTONIC
} timed_job;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t timer_changed;   // on CLOCK_MONOTONIC, set up by install
static job_node *queue_head, *queue_tail;
static int idle_threads, thread_count, core_threads, thread_limit;
static long jobs_run;
static timed_job *timers;
static int timer_count, timer_capacity;
static bool timer_thread_started, installed;
static pthread_once_t set_up_once = PTHREAD_ONCE_INIT;

static void set_up(void) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&timer_changed, &attributes);
    pthread_condattr_destroy(&attributes);
}

static void run(pool_work work) {
    if (work.function) work.function(work.job);
    else swift_job_run(work.job, NULL, 0);
}

// Asynchronous signals go to the main thread (the terminal's handlers); faults stay with the
// thread that caused them.
static void block_async_signals(void) {
    sigset_t set;
    sigfillset(&set);
    int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS };
    for (unsigned i = 0; i < sizeof faults / sizeof faults[0]; i++) sigdelset(&set, faults[i]);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void *worker(void *unused) {
    (void)unused;
    block_async_signals();
    pthread_setname_np(pthread_self(), "appletkit.pool");
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!queue_head) {
            if (thread_count > core_threads) {
                thread_count--;
                pthread_mutex_unlock(&lock);
                return NULL;
            }
            idle_threads++;
            pthread_cond_wait(&work_ready, &lock);
            idle_threads--;
        }
        job_node *node = queue_head;
        queue_head = node->next;
        if (!queue_head) queue_tail = NULL;
        jobs_run++;
        pthread_mutex_unlock(&lock);
        pool_work work = node->work;
        free(node);
        run(work);
        pthread_mutex_lock(&lock);
    }
}

static bool start_thread(void *(*body)(void *)) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    bool started = pthread_create(&thread, &attributes, body, NULL) == 0;
    pthread_attr_destroy(&attributes);
    return started;
}

// Queues a job; wakes an idle thread, or starts one when none is idle (below the limit).
static void push_locked(pool_work work) {
    job_node *node = malloc(sizeof *node);
    if (!node) abort();
    node->work = work;
    node->next = NULL;
    if (queue_tail) queue_tail->next = node; else queue_head = node;
    queue_tail = node;
    if (idle_threads > 0) {
        pthread_cond_signal(&work_ready);
    } else if (thread_count < thread_limit && start_thread(worker)) {
        thread_count++;
    }
}

static SWIFTCC void enqueue(void *job, enqueue_original original) {
    (void)original;
    pthread_mutex_lock(&lock);
    push_locked((pool_work){ job, NULL });
    pthread_mutex_unlock(&lock);
}

static bool earlier(struct timespec a, struct timespec b) {
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

static void swap_timers(int i, int j) {
    timed_job t = timers[i];
    timers[i] = timers[j];
    timers[j] = t;
}

// Waits for the earliest delayed job's time (or, with none, for one to be added) and queues it.
static void *timer_thread(void *unused) {
    (void)unused;
    block_async_signals();
    pthread_setname_np(pthread_self(), "appletkit.timer");
    pthread_mutex_lock(&lock);
    for (;;) {
        if (timer_count == 0) {
            pthread_cond_wait(&timer_changed, &lock);
            continue;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (earlier(now, timers[0].at)) {
            pthread_cond_timedwait(&timer_changed, &lock, &timers[0].at);
            continue;
        }
        pool_work job = timers[0].work;
        timers[0] = timers[--timer_count];
        for (int i = 0;;) {   // sift down
            int left = 2 * i + 1, right = left + 1, least = i;
            if (left < timer_count && earlier(timers[left].at, timers[least].at)) least = left;
            if (right < timer_count && earlier(timers[right].at, timers[least].at)) least = right;
            if (least == i) break;
            swap_timers(i, least);
            i = least;
        }
        push_locked(job);
    }
    return NULL;
}

static void schedule(pool_work job, struct timespec at) {
    pthread_once(&set_up_once, set_up);
    pthread_mutex_lock(&lock);
    if (!timer_thread_started) timer_thread_started = start_thread(timer_thread);
    if (timer_count == timer_capacity) {
        int capacity = timer_capacity ? timer_capacity * 2 : 16;
        timed_job *grown = realloc(timers, (size_t)capacity * sizeof *timers);
        if (!grown) abort();
        timers = grown;
        timer_capacity = capacity;
    }
    int i = timer_count++;
    timers[i].work = job;
    timers[i].at = at;
    while (i > 0 && earlier(timers[i].at, timers[(i - 1) / 2].at)) {   // sift up
        swap_timers(i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    if (i == 0) pthread_cond_signal(&timer_changed);   // a new earliest time
    pthread_mutex_unlock(&lock);
}

static struct timespec monotonic_after(long long nanoseconds) {
    const long long limit = 100LL * 365 * 24 * 3600 * 1000000000LL;   // a century: never
    if (nanoseconds < 0) nanoseconds = 0;
    if (nanoseconds > limit) nanoseconds = limit;
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    long long total = at.tv_nsec + nanoseconds % 1000000000LL;
    at.tv_sec += nanoseconds / 1000000000LL + total / 1000000000LL;
    at.tv_nsec = total % 1000000000LL;
    return at;
}

static SWIFTCC void enqueue_after_delay(unsigned long long delay, void *job, delay_original original) {
    (void)original;
    schedule((pool_work){ job, NULL }, monotonic_after(delay > (unsigned long long)INT64_MAX ? INT64_MAX : (long long)delay));
}

static SWIFTCC void enqueue_at_deadline(long long sec, long long nsec, long long tsec, long long tnsec, int clock,
                                        void *job, deadline_original original) {
    clockid_t id;
    if (clock == clock_continuous) id = CLOCK_BOOTTIME;
    else if (clock == clock_suspending) id = CLOCK_MONOTONIC;
    else { original(sec, nsec, tsec, tnsec, clock, job); return; }   // a clock this does not know
    struct timespec now;
    clock_gettime(id, &now);
    schedule((pool_work){ job, NULL }, monotonic_after((sec - now.tv_sec) * 1000000000LL + (nsec - now.tv_nsec)));
}

// The sizes a pool used before (or without) `install` gets.
static void default_sizes_locked(void) {
    if (core_threads == 0) core_threads = 2;
    if (thread_limit == 0) thread_limit = 64;
}

int ak_global_executor_install(int core, int limit) {
    pthread_once(&set_up_once, set_up);
    pthread_mutex_lock(&lock);
    if (installed) {
        pthread_mutex_unlock(&lock);
        return -1;
    }
    installed = true;
    core_threads = core < 1 ? 1 : core;
    thread_limit = limit < core_threads ? core_threads : limit;
    pthread_mutex_unlock(&lock);
    swift_task_enqueueGlobal_hook = enqueue;
    swift_task_enqueueGlobalWithDelay_hook = enqueue_after_delay;
    swift_task_enqueueGlobalWithDeadline_hook = enqueue_at_deadline;
    return 0;
}

void ak_global_executor_run_after(long long nanoseconds, void (*function)(void *), void *argument) {
    pthread_once(&set_up_once, set_up);
    pthread_mutex_lock(&lock);
    default_sizes_locked();
    pthread_mutex_unlock(&lock);
    schedule((pool_work){ argument, function }, monotonic_after(nanoseconds));
}

long ak_global_executor_jobs_run(void) {
    pthread_mutex_lock(&lock);
    long count = jobs_run;
    pthread_mutex_unlock(&lock);
    return count;
}

int ak_global_executor_threads(void) {
    pthread_mutex_lock(&lock);
    int count = thread_count;
    pthread_mutex_unlock(&lock);
    return count;
}
