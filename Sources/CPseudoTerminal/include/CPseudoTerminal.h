// The few system calls AppletTesting's `PseudoTerminal` needs that Swift cannot make safely itself:
// starting a program on a new pseudo-terminal (fork + exec, where the child may only make
// async-signal-safe calls because the parent has many threads), and ioctls, which are variadic.
#ifndef CPSEUDOTERMINAL_H
#define CPSEUDOTERMINAL_H

#include <sys/types.h>
#include <termios.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `cpt_spawn` was doing when it failed (for the error message).
typedef enum {
    CPT_STEP_NONE = 0,
    CPT_STEP_OPEN_MASTER,     // posix_openpt / grantpt / unlockpt / ptsname
    CPT_STEP_WINDOW_SIZE,     // TIOCSWINSZ
    CPT_STEP_TERMIOS,         // tcgetattr / tcsetattr
    CPT_STEP_OPEN_SLAVE,      // open of the terminal's device in the parent or the child
    CPT_STEP_PIPE,            // the exec status pipe
    CPT_STEP_FORK,
    CPT_STEP_SETSID,          // child
    CPT_STEP_CONTROLLING_TTY, // child: TIOCSCTTY
    CPT_STEP_DUP,             // child: dup2 onto 0, 1, 2
    CPT_STEP_CHDIR,           // child
    CPT_STEP_EXEC,            // child: execve
} cpt_step;

/// Opens a new pseudo-terminal of `columns` x `rows` cells and starts `path` on it as a session
/// leader whose controlling terminal it is, with stdin, stdout and stderr on the terminal and no
/// other file descriptors, default signal dispositions and an empty signal mask, in `directory`
/// (NULL: this process's). `argv` and `envp` are NULL-terminated. With `utf8` set, IUTF8 is added
/// to the terminal's input flags first, as terminal emulators do in UTF-8 locales.
///
/// `*initial_settings` (when not NULL) gets the terminal's settings as the child starts with them.
///
/// Returns only once the child has exec'd or failed to: on success 0, with `*master_fd` (close on
/// exec, non-blocking) and `*pid`; on failure an errno value, with `*failed_step` saying where
/// (a failure in the child is reported and the child reaped before returning).
int cpt_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
              unsigned short columns, unsigned short rows, int utf8, struct termios *initial_settings,
              int *master_fd, pid_t *pid, cpt_step *failed_step);

/// Sets the terminal's window size (on the master: the kernel then sends SIGWINCH to the
/// terminal's foreground process group). Returns 0 or -1 with errno.
int cpt_set_window_size(int fd, unsigned short columns, unsigned short rows);

/// Reads the terminal's window size. Returns 0 or -1 with errno.
int cpt_window_size(int fd, unsigned short *columns, unsigned short *rows);

/// A pidfd for `pid` (readable once it exits), close on exec; -1 with errno where the kernel has
/// none (before Linux 5.3, or not Linux).
int cpt_pidfd_open(pid_t pid);

/// Reaps `pid` if it has ended (waiting for it unless `nohang`). Returns 1 with `*signalled` (0: it
/// exited) and `*value` (exit status or signal number), 0 if it is still running (`nohang`), or -1
/// with errno.
int cpt_reap(pid_t pid, int nohang, int *signalled, int *value);

/// A pipe whose ends are both close on exec and non-blocking, for waking a thread blocked in
/// poll(). Returns 0 or -1 with errno.
int cpt_wake_pipe(int fds[2]);

/// Names the calling thread (what /proc and debuggers show; Linux keeps 15 characters).
void cpt_name_this_thread(const char *name);

/// Sends `sig` to every process in session `session` (read from /proc; Linux only). Returns how
/// many processes it was sent to, or -1 with errno when /proc cannot be read.
int cpt_signal_session(pid_t session, int sig);

#ifdef __cplusplus
}
#endif

#endif
