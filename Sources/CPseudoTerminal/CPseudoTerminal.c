// See CPseudoTerminal.h. Everything the child does between fork() and execve() is
// async-signal-safe: the parent has many threads, and the child only has a copy of the one that
// forked, so any lock another thread held (malloc's, the Swift runtime's) stays held for ever.
#define _GNU_SOURCE
#include "CPseudoTerminal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#ifndef NSIG
#define NSIG 65
#endif

/// What the child writes to the status pipe when it cannot exec.
struct cpt_report {
    int step;
    int error;
};

static void close_quietly(int fd) {
    if (fd >= 0) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
}

static int set_fd_flag(int fd, int get, int set, int flag) {
    int flags = fcntl(fd, get);
    if (flags < 0) return -1;
    return fcntl(fd, set, flags | flag);
}

/// Moves `fd` to a number of 3 or more (so that dup2 onto 0, 1, 2 in the child cannot clobber it),
/// close on exec. Returns the new descriptor or -1.
static int move_above_stdio(int fd) {
    if (fd >= 3) return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close_quietly(fd);
    return moved;
}

/// Child only: reports `step` and errno to the parent and exits.
static void child_fail(int status_fd, cpt_step step) {
    struct cpt_report report = { (int)step, errno };
    ssize_t ignored = write(status_fd, &report, sizeof report);
    (void)ignored;
    _exit(127);
}

/// Child only: closes descriptors `from`...`to` (inclusive).
static void child_close_range(unsigned int from, unsigned int to) {
    if (from > to) return;
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, from, to, 0) == 0) return;
#endif
    struct rlimit limit;
    unsigned int last = 65535;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < 65536) {
        last = (unsigned int)limit.rlim_cur;
    }
    if (to > last) to = last;
    for (unsigned int fd = from; fd <= to; fd++) close((int)fd);
}

/// Child only: never returns.
static void child_main(const char *slave_name, int status_fd, const char *path, char *const argv[],
                       char *const envp[], const char *directory) {
    // Default dispositions (an ignored signal would stay ignored across exec); signals are still
    // blocked, so no handler of the parent's can run here.
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = SIG_DFL;
        sigemptyset(&action.sa_mask);
        sigaction(sig, &action, NULL);   // fails harmlessly for the signals libc keeps for itself
    }
    if (setsid() < 0) child_fail(status_fd, CPT_STEP_SETSID);
    // A session leader without a controlling terminal that opens a terminal without O_NOCTTY
    // gets it as its controlling terminal on Linux; TIOCSCTTY makes sure everywhere.
    int slave = open(slave_name, O_RDWR);
    if (slave < 0) child_fail(status_fd, CPT_STEP_OPEN_SLAVE);
#ifdef TIOCSCTTY
    if (ioctl(slave, TIOCSCTTY, 0) < 0) child_fail(status_fd, CPT_STEP_CONTROLLING_TTY);
#endif
    if (dup2(slave, 0) < 0 || dup2(slave, 1) < 0 || dup2(slave, 2) < 0) child_fail(status_fd, CPT_STEP_DUP);
    if (slave > 2) close(slave);
    // Nothing of the parent's but the status pipe (close on exec) survives.
    child_close_range(3, (unsigned int)status_fd - 1);
    child_close_range((unsigned int)status_fd + 1, ~0U);
    if (directory != NULL && chdir(directory) < 0) child_fail(status_fd, CPT_STEP_CHDIR);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(path, argv, envp);
    child_fail(status_fd, CPT_STEP_EXEC);
}

int cpt_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
              unsigned short columns, unsigned short rows, int utf8, struct termios *initial_settings,
              int *master_fd, pid_t *pid, cpt_step *failed_step) {
    *master_fd = -1;
    *pid = -1;
    *failed_step = CPT_STEP_NONE;
    int master = -1;
    int status_pipe[2] = { -1, -1 };
    char slave_name[PATH_MAX];
    int error = 0;

#define FAIL(step) do { error = errno; *failed_step = (step); goto failed; } while (0)

    master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0 && errno == EINVAL) {
        master = posix_openpt(O_RDWR | O_NOCTTY);
        if (master >= 0 && set_fd_flag(master, F_GETFD, F_SETFD, FD_CLOEXEC) < 0) FAIL(CPT_STEP_OPEN_MASTER);
    }
    if (master < 0) FAIL(CPT_STEP_OPEN_MASTER);
    if (grantpt(master) != 0 || unlockpt(master) != 0) FAIL(CPT_STEP_OPEN_MASTER);
#ifdef __linux__
    {
        int result = ptsname_r(master, slave_name, sizeof slave_name);
        if (result != 0) { errno = result; FAIL(CPT_STEP_OPEN_MASTER); }
    }
#else
    {
        const char *name = ptsname(master);
        if (name == NULL || strlen(name) >= sizeof slave_name) FAIL(CPT_STEP_OPEN_MASTER);
        strcpy(slave_name, name);
    }
#endif
    if (cpt_set_window_size(master, columns, rows) != 0) FAIL(CPT_STEP_WINDOW_SIZE);
#ifdef IUTF8
    if (utf8) {
        struct termios settings;
        if (tcgetattr(master, &settings) != 0) FAIL(CPT_STEP_TERMIOS);
        settings.c_iflag |= IUTF8;
        if (tcsetattr(master, TCSANOW, &settings) != 0) FAIL(CPT_STEP_TERMIOS);
    }
#else
    (void)utf8;
#endif
    if (initial_settings != NULL && tcgetattr(master, initial_settings) != 0) FAIL(CPT_STEP_TERMIOS);

#ifdef __linux__
    if (pipe2(status_pipe, O_CLOEXEC) != 0) FAIL(CPT_STEP_PIPE);
#else
    if (pipe(status_pipe) != 0) FAIL(CPT_STEP_PIPE);
    if (set_fd_flag(status_pipe[0], F_GETFD, F_SETFD, FD_CLOEXEC) < 0
        || set_fd_flag(status_pipe[1], F_GETFD, F_SETFD, FD_CLOEXEC) < 0) FAIL(CPT_STEP_PIPE);
#endif
    status_pipe[0] = move_above_stdio(status_pipe[0]);
    status_pipe[1] = move_above_stdio(status_pipe[1]);
    if (status_pipe[0] < 0 || status_pipe[1] < 0) FAIL(CPT_STEP_PIPE);

    // Signals stay blocked from fork until the child has reset its dispositions, so that no
    // handler of this process runs in the child.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t child = fork();
    if (child == 0) child_main(slave_name, status_pipe[1], path, argv, envp, directory);
    int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close_quietly(status_pipe[1]);
    status_pipe[1] = -1;
    if (child < 0) { errno = fork_error; FAIL(CPT_STEP_FORK); }

    // The pipe closes (end of file) when the child execs; a report means it could not.
    struct cpt_report report;
    size_t received = 0;
    while (received < sizeof report) {
        ssize_t n = read(status_pipe[0], (char *)&report + received, sizeof report - received);
        if (n > 0) { received += (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        break;
    }
    close_quietly(status_pipe[0]);
    status_pipe[0] = -1;
    if (received == sizeof report) {
        int signalled, value;
        while (cpt_reap(child, 0, &signalled, &value) == 0) {}
        close_quietly(master);
        *failed_step = (cpt_step)report.step;
        return report.error != 0 ? report.error : EIO;
    }

    if (set_fd_flag(master, F_GETFL, F_SETFL, O_NONBLOCK) < 0) {
        // Not expected; the caller's reads would block, so give up cleanly.
        error = errno;
        kill(child, SIGKILL);
        int signalled, value;
        while (cpt_reap(child, 0, &signalled, &value) == 0) {}
        close_quietly(master);
        *failed_step = CPT_STEP_OPEN_MASTER;
        return error;
    }
    *master_fd = master;
    *pid = child;
    return 0;

failed:
    close_quietly(master);
    close_quietly(status_pipe[0]);
    close_quietly(status_pipe[1]);
    return error != 0 ? error : EIO;
#undef FAIL
}

int cpt_set_window_size(int fd, unsigned short columns, unsigned short rows) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_col = columns;
    size.ws_row = rows;
    return ioctl(fd, TIOCSWINSZ, &size);
}

int cpt_window_size(int fd, unsigned short *columns, unsigned short *rows) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *columns = size.ws_col;
    *rows = size.ws_row;
    return 0;
}

int cpt_pidfd_open(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);   // pidfds are always close on exec
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

int cpt_reap(pid_t pid, int nohang, int *signalled, int *value) {
    for (;;) {
        int status = 0;
        pid_t result = waitpid(pid, &status, nohang ? WNOHANG : 0);
        if (result < 0 && errno == EINTR) continue;
        if (result < 0) return -1;
        if (result == 0) return 0;
        if (WIFEXITED(status)) { *signalled = 0; *value = WEXITSTATUS(status); return 1; }
        if (WIFSIGNALED(status)) { *signalled = 1; *value = WTERMSIG(status); return 1; }
        if (nohang) return 0;   // a stop or continue report (not asked for): still running
    }
}

int cpt_wake_pipe(int fds[2]) {
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
#else
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        if (set_fd_flag(fds[i], F_GETFD, F_SETFD, FD_CLOEXEC) < 0 || set_fd_flag(fds[i], F_GETFL, F_SETFL, O_NONBLOCK) < 0) {
            close_quietly(fds[0]);
            close_quietly(fds[1]);
            return -1;
        }
    }
    return 0;
#endif
}

void cpt_name_this_thread(const char *name) {
#if defined(__linux__)
    pthread_setname_np(pthread_self(), name);
#elif defined(__APPLE__)
    pthread_setname_np(name);
#else
    (void)name;
#endif
}

int cpt_signal_session(pid_t session, int sig) {
#ifdef __linux__
    DIR *proc = opendir("/proc");
    if (proc == NULL) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL) {
        char *end;
        long number = strtol(entry->d_name, &end, 10);
        if (*entry->d_name == '\0' || *end != '\0' || number <= 0) continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/stat", number);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        char stat[1024];
        ssize_t n = read(fd, stat, sizeof stat - 1);
        close(fd);
        if (n <= 0) continue;
        stat[n] = '\0';
        // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses.
        char *after = strrchr(stat, ')');
        if (after == NULL) continue;
        char state;
        int ppid, pgrp, sid;
        if (sscanf(after + 1, " %c %d %d %d", &state, &ppid, &pgrp, &sid) != 4) continue;
        if (sid == session && kill((pid_t)number, sig) == 0) count++;
    }
    closedir(proc);
    return count;
#else
    (void)session;
    (void)sig;
    errno = ENOSYS;
    return -1;
#endif
}
