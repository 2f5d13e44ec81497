#define _GNU_SOURCE
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include "CNcursesShim.h"

// The system's wide-character ncurses: Debian and most Linux systems keep it in ncursesw/,
// macOS (whose libncurses is wide already) in the main include folder.
#if __has_include(<ncursesw/ncurses.h>)
#include <ncursesw/ncurses.h>
#include <ncursesw/term.h>
#else
#include <ncurses.h>
#include <term.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
#include <execinfo.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>

// ---------------------------------------------------------------------------------------------
// The terminal modes AppletKit changes: one table that start-up, suspend, resume, stop and the
// crash handler all read, so a mode can never be turned on without being turned off again.
//
// `TERMINFO` rows are switched by ncurses itself (its first refresh, keypad(), curs_set(); endwin()
// undoes them); the table names them so the crash path, which cannot call ncurses, sends their
// terminfo "off" strings. `OURS` rows are written by ak_enable_modes() after ncurses starts and
// undone, in reverse order, by ak_disable_modes() before endwin(). `NEGOTIATED` rows are like
// `OURS`, but only for a terminal that said it has the mode (the answer arrives as input, after
// start-up), and only once ncurses is on the alternate screen (see `screen_drawn`): they are
// turned on when the app learns that, and again at the first refresh after every resume; their
// "off" is written only while they are on, as a flag the signal handlers can read says. They come
// after the `OURS` rows, since they go on last. `RESET_ONLY` rows are never turned on here, but a
// crash resets them too: cheap insurance against a library that did.

typedef enum { AK_MODE_TERMINFO, AK_MODE_OURS, AK_MODE_NEGOTIATED, AK_MODE_RESET_ONLY } ak_mode_kind;

/// Where a `NEGOTIATED` row stands. Invariant, so that no exit path can leave the mode on: `on` is
/// set before the "on" bytes are written and cleared only after the "off" bytes are, so a signal
/// arriving in between can at worst turn it off twice, never forget to turn it off.
typedef struct {
    volatile sig_atomic_t supported;   // the terminal said it has the mode: turn it on (again) on resume
    volatile sig_atomic_t on;          // its "on" bytes were (or are being) written, its "off" not yet
} ak_negotiation;

typedef struct {
    const char *name;
    ak_mode_kind kind;
    const char *on;    // bytes, or a terminfo capability name for TERMINFO rows
    const char *off;
    ak_negotiation *negotiation;   // NEGOTIATED rows only
    int group;         // AK_GROUP_* an app may turn off (ak_set_groups_off); 0: always used
} ak_mode;

// The groups an app turned off before start-up: their rows are neither turned on nor reset
// (RESET_ONLY rows are reset whatever: they are never turned on here).
static int groups_off = 0;

void ak_set_groups_off(int groups) { groups_off = groups; }

// The kitty keyboard protocol: a stack of flags in the terminal, pushed and popped. Kitty keeps a
// stack per screen, so it is pushed on the alternate screen and popped before leaving it (the
// "off" bytes of ours go before rmcup on every path). Pushed only after the terminal answered the
// query `CSI ? u` (see ak_kitty_keyboard_query); a pop without our push would pop someone else's.
static ak_negotiation kitty_keyboard = { 0, 0 };

static const ak_mode ak_modes[] = {
    { "alternate screen (1049)",       AK_MODE_TERMINFO,   "smcup",       "rmcup",       NULL, 0 },
    { "keypad transmit (1, =)",        AK_MODE_TERMINFO,   "smkx",        "rmkx",        NULL, 0 },
    { "hidden cursor (25)",            AK_MODE_TERMINFO,   "civis",       "cnorm",       NULL, 0 },
    { "mouse buttons (1000)",          AK_MODE_OURS,       "\033[?1000h", "\033[?1000l", NULL, AK_GROUP_MOUSE },
    { "mouse drags (1002)",            AK_MODE_OURS,       "\033[?1002h", "\033[?1002l", NULL, AK_GROUP_MOUSE },
    { "SGR mouse coordinates (1006)",  AK_MODE_OURS,       "\033[?1006h", "\033[?1006l", NULL, AK_GROUP_MOUSE },
    { "bracketed paste (2004)",        AK_MODE_OURS,       "\033[?2004h", "\033[?2004l", NULL, AK_GROUP_PASTE },
    { "kitty keyboard, disambiguate (CSI > 1 u)", AK_MODE_NEGOTIATED, "\033[>1u", "\033[<u", &kitty_keyboard, AK_GROUP_KITTY_KEYBOARD },
    { "mouse motion (1003)",           AK_MODE_RESET_ONLY, NULL,          "\033[?1003l", NULL, 0 },
    { "focus events (1004)",           AK_MODE_RESET_ONLY, NULL,          "\033[?1004l", NULL, 0 },
};

// Whether a row is in use: not in a group the app turned off.
static int row_used(int i) { return (ak_modes[i].group & groups_off) == 0; }
#define AK_MODE_COUNT (int)(sizeof ak_modes / sizeof ak_modes[0])

// Groups turned off for a while with the UI up (the mouse, so the terminal selects text): their
// rows are neither turned on by a resume nor reset by an exit path, since their reset went out
// when they were paused. Invariant, as for negotiated rows: a group is marked paused only after
// its "off" bytes were written and unmarked before its "on" bytes are, so a signal in between
// can at worst reset it twice, never leave it on. Read by the signal handlers.
static volatile sig_atomic_t groups_paused = 0;

// Whether a row is on while the UI is up: in use and not paused.
static int row_active(int i) { return row_used(i) && (ak_modes[i].group & groups_paused) == 0; }

// ---------------------------------------------------------------------------------------------
// Restoring the terminal from a signal handler
//
// A crash must not leave the shell raw, invisible-cursored and on the alternate screen, and
// Swift's backtracer may hold the tty for 30 s waiting for a key. So at start we save the
// shell's termios and compute, once, the exact bytes that undo every mode in the table; a
// handler then needs only write(2), tcsetattr(3), dup2(2) and backtrace_symbols_fd(3).

static struct termios saved_termios;
static volatile sig_atomic_t have_saved_termios = 0;
static volatile sig_atomic_t curses_active = 0;
// Whether ncurses has refreshed since it started or came back from a suspend. Only then is its
// alternate screen certainly up: after endwin() ncurses writes smcup again at its next doupdate(),
// not in reset_prog_mode(), so bytes written by ak_reenter() reach the main screen. Negotiated
// rows that are per screen (kitty's keyboard flags) wait for it. Set by ak_refresh, cleared by
// ak_leave.
static volatile sig_atomic_t screen_drawn = 0;
static char restore_bytes[1024];
static volatile size_t restore_len = 0;

// While the UI is up, stderr (fd 2) goes to the app's log file, so nothing (a Swift runtime
// error, a library's warning) is printed over the screen; the terminal's own stderr is kept here.
static int terminal_stderr = -1;
static int log_fd = -1;
// The one line a crash prints on the restored terminal, built at start.
static char crash_line[512];
static size_t crash_line_len = 0;

static void append_restore(const char *s) {
    if (s == NULL || s == (char *)-1) return;
    size_t n = strlen(s);
    if (restore_len + n >= sizeof restore_bytes) return;
    memcpy(restore_bytes + restore_len, s, n);
    restore_len += n;
}

static void build_restore_bytes(void) {
    restore_len = 0;
    // What ncurses' endwin() would undo. Our rows go before it, written by the handler itself:
    // whether a negotiated row is on, or a paused group off, is known only when it runs.
    append_restore(tigetstr("sgr0"));
    for (int i = AK_MODE_COUNT - 1; i >= 0; i--) {
        if (ak_modes[i].kind == AK_MODE_TERMINFO) append_restore(tigetstr((char *)ak_modes[i].off));
    }
}

static void write_all_signal_safe(int fd, const char *p, size_t n) {
    if (fd < 0) return;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) { if (errno == EINTR) continue; return; }
        p += w; n -= (size_t)w;
    }
}

// Turns a negotiated row on: the flag first, then the bytes (see ak_negotiation).
static void negotiated_on(int i) {
    ak_negotiation *n = ak_modes[i].negotiation;
    if (n == NULL || n->on) return;
    n->on = 1;
    write_all_signal_safe(STDOUT_FILENO, ak_modes[i].on, strlen(ak_modes[i].on));
}

// Turns a negotiated row off if it is on: the bytes first, then the flag. Async-signal-safe.
static void negotiated_off(int i) {
    ak_negotiation *n = ak_modes[i].negotiation;
    if (n == NULL || !n->on) return;
    write_all_signal_safe(STDOUT_FILENO, ak_modes[i].off, strlen(ak_modes[i].off));
    n->on = 0;
}

// Turns on every negotiated row the terminal said it has, once the alternate screen is up.
static void negotiated_rows_on(void) {
    if (!curses_active || !screen_drawn) return;
    fflush(stdout);
    for (int i = 0; i < AK_MODE_COUNT; i++) {
        if (ak_modes[i].kind == AK_MODE_NEGOTIATED && ak_modes[i].negotiation->supported && row_used(i)) negotiated_on(i);
    }
}

// Frames went out in synchronized updates: a crash between a frame's begin and end mark must
// still end the update, or the terminal would show nothing new until its own timeout.
static volatile sig_atomic_t synchronized_output_used = 0;

// Async-signal-safe: only write(2), tcsetattr(3) and dup2(2).
static void restore_terminal_now(void) {
    if (!curses_active) return;
    curses_active = 0;
    screen_drawn = 0;
    if (synchronized_output_used) write_all_signal_safe(STDOUT_FILENO, "\033[?2026l", 8);
    // Negotiated rows went on last, so they go off first (before rmcup: kitty's flags are per screen).
    for (int i = AK_MODE_COUNT - 1; i >= 0; i--) {
        if (ak_modes[i].kind == AK_MODE_NEGOTIATED) negotiated_off(i);
    }
    // Ours (reverse order of turning on), then ncurses' own, as endwin() would.
    for (int i = AK_MODE_COUNT - 1; i >= 0; i--) {
        if ((ak_modes[i].kind == AK_MODE_OURS && row_active(i)) || ak_modes[i].kind == AK_MODE_RESET_ONLY) {
            const char *off = ak_modes[i].off;
            size_t n = 0;
            while (off[n] != '\0') n++;
            write_all_signal_safe(STDOUT_FILENO, off, n);
        }
    }
    write_all_signal_safe(STDOUT_FILENO, restore_bytes, restore_len);
    write_all_signal_safe(STDOUT_FILENO, "\r\n", 2);
    if (have_saved_termios) tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_termios);
}

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
#define CRASH_SIGNAL_COUNT (int)(sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction previous_crash_actions[CRASH_SIGNAL_COUNT];
static volatile sig_atomic_t crash_handlers_installed = 0;
// Set (APPLETKIT_SWIFT_BACKTRACE=1) to hand a crash to Swift's own backtracer instead.
static int chain_to_previous = 0;

static const char *signal_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV"; case SIGBUS: return "SIGBUS"; case SIGILL: return "SIGILL (a Swift runtime trap)";
    case SIGFPE: return "SIGFPE"; case SIGABRT: return "SIGABRT"; case SIGTRAP: return "SIGTRAP";
    default: return "a signal";
    }
}

static void crash_handler(int sig, siginfo_t *info, void *context) {
    int saved_errno = errno;
    int was_active = curses_active;
    restore_terminal_now();
    if (was_active && !chain_to_previous) {
        // One line on the terminal, the backtrace in the log, then die of the same signal: the
        // process is gone at once, its status says which signal, and nothing waits on the tty.
        write_all_signal_safe(terminal_stderr >= 0 ? terminal_stderr : STDERR_FILENO, crash_line, crash_line_len);
        const char *name = signal_name(sig);
        if (log_fd >= 0) {
            write_all_signal_safe(log_fd, "crashed: ", 9);
            write_all_signal_safe(log_fd, name, strlen(name));
            write_all_signal_safe(log_fd, "; backtrace:\n", 13);
            void *frames[128];
            int n = backtrace(frames, 128);
            backtrace_symbols_fd(frames, n, log_fd);
            static const char hint[] = "(addresses only: run with APPLETKIT_SWIFT_BACKTRACE=1 for Swift's symbolicated backtrace on the terminal)\n";
            write_all_signal_safe(log_fd, hint, sizeof hint - 1);
        }
        if (terminal_stderr >= 0) dup2(terminal_stderr, STDERR_FILENO);
        signal(sig, SIG_DFL);
        sigset_t unblock;
        sigemptyset(&unblock);
        sigaddset(&unblock, sig);
        sigprocmask(SIG_UNBLOCK, &unblock, NULL);
        raise(sig);
        _exit(128 + sig);
    }
    if (terminal_stderr >= 0) dup2(terminal_stderr, STDERR_FILENO);
    // Hand over to whoever was there before (Swift's backtracer, or the default action).
    struct sigaction previous;
    memset(&previous, 0, sizeof previous);
    previous.sa_handler = SIG_DFL;
    for (int i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        if (crash_signals[i] == sig) { previous = previous_crash_actions[i]; break; }
    }
    sigaction(sig, &previous, NULL);
    int synchronous_fault = (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE)
                            && info != NULL && info->si_code > 0;
    int sent_by_another_process = info != NULL && info->si_code == SI_USER && info->si_pid != getpid();
    if (synchronous_fault) {
        // Returning re-executes the faulting instruction, which reaches the previous handler
        // with its real context.
    } else if (sent_by_another_process) {
        // `kill -SEGV` from outside: a backtracer would report and return, leaving the process
        // running without a screen. Report through it, then die as the signal asks.
        if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL) {
            previous.sa_sigaction(sig, info, context);
        } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
            previous.sa_handler(sig);
        }
        signal(sig, SIG_DFL);
        raise(sig);
    } else {
        // Raised by this process (abort()): delivered to the previous handler once we return.
        raise(sig);
    }
    errno = saved_errno;
}

void ak_set_crash_report(const char *line, const char *log_path) {
    crash_line_len = 0;
    if (line != NULL) {
        size_t n = strlen(line);
        if (n > sizeof crash_line - 2) n = sizeof crash_line - 2;
        memcpy(crash_line, line, n);
        crash_line[n] = '\n';
        crash_line_len = n + 1;
    }
    if (log_fd >= 0) { close(log_fd); log_fd = -1; }
    if (log_path != NULL && log_path[0] != '\0') {
        log_fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    }
}

static void install_crash_handlers(void) {
    if (crash_handlers_installed) return;
    const char *chain = getenv("APPLETKIT_SWIFT_BACKTRACE");
    chain_to_previous = chain != NULL && chain[0] == '1';
    // backtrace() loads its unwinder on first use, which is not safe inside a handler: do it now.
    void *warm[2];
    (void)backtrace(warm, 2);
    // A stack of our own, so a stack overflow still reaches the handler.
    static char alternate_stack[64 * 1024];
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = alternate_stack;
    ss.ss_size = sizeof alternate_stack;
    sigaltstack(&ss, NULL);
    for (int i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = crash_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(crash_signals[i], &sa, &previous_crash_actions[i]);
    }
    crash_handlers_installed = 1;
}

static void remove_crash_handlers(void) {
    if (!crash_handlers_installed) return;
    for (int i = 0; i < CRASH_SIGNAL_COUNT; i++) sigaction(crash_signals[i], &previous_crash_actions[i], NULL);
    crash_handlers_installed = 0;
}

int ak_save_terminal(void) {
    if (!isatty(STDIN_FILENO)) return -1;
    if (tcgetattr(STDIN_FILENO, &saved_termios) != 0) return -1;
    have_saved_termios = 1;
    install_crash_handlers();
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Signals into the run loop: a self-pipe, read by a dispatch source on the main queue.

static int signal_pipe[2] = { -1, -1 };
static volatile sig_atomic_t quit_signals_pending = 0;

static void pipe_handler(int sig) {
    int saved_errno = errno;
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
        if (quit_signals_pending > 0) {
            // The first one was not handled: the main thread is stuck. Leave cleanly anyway.
            restore_terminal_now();
            _exit(128 + sig);
        }
        quit_signals_pending++;
    }
    unsigned char byte = (unsigned char)sig;
    if (signal_pipe[1] >= 0) (void)write(signal_pipe[1], &byte, 1);
    errno = saved_errno;
}

int ak_signal_pipe(void) {
    if (signal_pipe[0] >= 0) return signal_pipe[0];
    if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    return signal_pipe[0];
}

#define AK_MAX_WATCHED 16
static int watched_signals[AK_MAX_WATCHED];
static struct sigaction watched_previous[AK_MAX_WATCHED];
static int watched_count = 0;

int ak_watch_signal(int sig) {
    if (ak_signal_pipe() < 0) return -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pipe_handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < watched_count; i++) {
        if (watched_signals[i] == sig) return sigaction(sig, &sa, NULL);
    }
    if (watched_count == AK_MAX_WATCHED) return -1;
    watched_signals[watched_count] = sig;
    int result = sigaction(sig, &sa, &watched_previous[watched_count]);
    if (result == 0) watched_count++;
    return result;
}

/// Gives every watched signal back its previous disposition: once the UI is gone, Ctrl-C and
/// SIGTERM act on the process as they normally would.
static void unwatch_signals(void) {
    for (int i = watched_count - 1; i >= 0; i--) sigaction(watched_signals[i], &watched_previous[i], NULL);
    watched_count = 0;
    quit_signals_pending = 0;
}

void ak_signal_handled(void) { quit_signals_pending = 0; }

// ---------------------------------------------------------------------------------------------
// ncurses

static SCREEN *screen = NULL;
static int colors_available = 0;

int ak_check_terminal(const char *term, char *why, size_t why_len) {
    int err = 0;
    // With an error pointer, setupterm reports instead of exiting.
    if (setupterm((char *)term, STDOUT_FILENO, &err) != OK) {
        if (why && why_len) {
            if (err == 0) snprintf(why, why_len, "terminal type '%s' is not in the terminfo database", term ? term : "");
            else if (err == 1) snprintf(why, why_len, "terminal type '%s' is a hardcopy terminal", term ? term : "");
            else snprintf(why, why_len, "the terminfo database could not be found");
        }
        return 0;
    }
    del_curterm(cur_term);
    return 1;
}

int ak_start(int want_color, int escape_delay_ms) {
    if (screen != NULL) return colors_available;
    screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return -1;
    set_term(screen);
    build_restore_bytes();
    curses_active = 1;
    screen_drawn = 0;
    raw();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    leaveok(stdscr, TRUE);
    curs_set(0);
    set_escdelay(escape_delay_ms);
    colors_available = 0;
    if (want_color && has_colors() && start_color() == OK) {
        use_default_colors();
        colors_available = COLORS;
    }
    return colors_available;
}

void ak_enable_modes(void) {
    fflush(stdout);
    for (int i = 0; i < AK_MODE_COUNT; i++) {
        if (ak_modes[i].kind == AK_MODE_OURS && row_active(i)) write_all_signal_safe(STDOUT_FILENO, ak_modes[i].on, strlen(ak_modes[i].on));
    }
    // Negotiated rows go on now only if the alternate screen is up already; else at the next
    // ak_refresh, which is after start-up and after every resume.
    negotiated_rows_on();
}

void ak_disable_modes(void) {
    fflush(stdout);
    for (int i = AK_MODE_COUNT - 1; i >= 0; i--) {
        if (ak_modes[i].kind == AK_MODE_OURS) {
            if (row_active(i)) write_all_signal_safe(STDOUT_FILENO, ak_modes[i].off, strlen(ak_modes[i].off));
        } else if (ak_modes[i].kind == AK_MODE_NEGOTIATED) {
            negotiated_off(i);
        }
    }
}

// The kitty keyboard protocol's row.
static int kitty_keyboard_row(void) {
    for (int i = 0; i < AK_MODE_COUNT; i++) {
        if (ak_modes[i].negotiation == &kitty_keyboard) return i;
    }
    return -1;
}

void ak_kitty_keyboard_query(void) {
    // The flags query, then DA1, which every terminal answers: DA1's answer without a flags answer
    // before it means "no kitty keyboard protocol here".
    static const char query[] = "\033[?u\033[c";
    fflush(stdout);
    write_all_signal_safe(STDOUT_FILENO, query, sizeof query - 1);
}

void ak_kitty_keyboard_enable(void) {
    int row = kitty_keyboard_row();
    if (row < 0) return;
    kitty_keyboard.supported = 1;
    // Now if the alternate screen is up; else (before the first frame, or suspended) at the next
    // refresh, on the alternate screen, since kitty keeps one stack of flags per screen.
    negotiated_rows_on();
}

int ak_kitty_keyboard_active(void) { return kitty_keyboard.on ? 1 : 0; }

int ak_set_mouse_paused(int paused) {
    if (groups_off & AK_GROUP_MOUSE) return 0;
    int now = (groups_paused & AK_GROUP_MOUSE) != 0;
    if (now == (paused != 0)) return 0;
    if (paused) {
        // Off in reverse order of turning on, then marked paused.
        if (curses_active) {
            fflush(stdout);
            for (int i = AK_MODE_COUNT - 1; i >= 0; i--) {
                if (ak_modes[i].kind == AK_MODE_OURS && (ak_modes[i].group & AK_GROUP_MOUSE) && row_active(i)) {
                    write_all_signal_safe(STDOUT_FILENO, ak_modes[i].off, strlen(ak_modes[i].off));
                }
            }
        }
        groups_paused = groups_paused | AK_GROUP_MOUSE;
    } else {
        // Unmarked, then on in order.
        groups_paused = groups_paused & ~AK_GROUP_MOUSE;
        if (curses_active) {
            fflush(stdout);
            for (int i = 0; i < AK_MODE_COUNT; i++) {
                if (ak_modes[i].kind == AK_MODE_OURS && (ak_modes[i].group & AK_GROUP_MOUSE) && row_active(i)) {
                    write_all_signal_safe(STDOUT_FILENO, ak_modes[i].on, strlen(ak_modes[i].on));
                }
            }
        }
    }
    return 1;
}

int ak_mouse_paused(void) { return (groups_paused & AK_GROUP_MOUSE) != 0; }

int ak_mode_count(void) { return AK_MODE_COUNT; }
const char *ak_mode_name(int i) { return i >= 0 && i < AK_MODE_COUNT ? ak_modes[i].name : NULL; }
const char *ak_mode_off(int i) {
    if (i < 0 || i >= AK_MODE_COUNT) return NULL;
    return ak_modes[i].kind == AK_MODE_TERMINFO ? tigetstr((char *)ak_modes[i].off) : ak_modes[i].off;
}

void ak_redirect_stderr(const char *log_path) {
    if (log_path == NULL || log_path[0] == '\0') return;
    int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    if (fd < 0) return;
    fflush(stderr);
    if (terminal_stderr < 0) terminal_stderr = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
}

void ak_restore_stderr(void) {
    if (terminal_stderr < 0) return;
    fflush(stderr);
    dup2(terminal_stderr, STDERR_FILENO);
    close(terminal_stderr);
    terminal_stderr = -1;
}

void ak_leave(void) {
    ak_disable_modes();
    curs_set(1);
    endwin();
    curses_active = 0;
    screen_drawn = 0;
}

void ak_stop(void) {
    if (screen == NULL) return;
    ak_leave();
    // A later start asks the terminal again (it may be another one by then).
    for (int i = 0; i < AK_MODE_COUNT; i++) {
        if (ak_modes[i].kind == AK_MODE_NEGOTIATED) ak_modes[i].negotiation->supported = 0;
    }
    delscreen(screen);
    screen = NULL;
    // A later start turns every mode on again.
    groups_paused = 0;
    if (have_saved_termios) tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_termios);
    remove_crash_handlers();
    unwatch_signals();
}

int ak_lines(void) { return LINES; }
int ak_cols(void) { return COLS; }

int ak_update_size(void) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return 0;
    if (ws.ws_row == LINES && ws.ws_col == COLS) return 0;
    resizeterm(ws.ws_row, ws.ws_col);
    return 1;
}

static int pair_for(int fg, int bg) {
    if (colors_available == 0 || (fg < 0 && bg < 0)) return 0;
    int pair = alloc_pair(fg, bg);
    return pair < 0 ? 0 : pair;
}


/// setcchar with a colour pair of any size: pairs past 32767 travel in the extension argument.
static void setcchar_with_pair(cchar_t *cell, const wchar_t *text, attr_t a, int pair) {
    setcchar(cell, text, a, (short)(pair > 32767 ? 0 : pair), pair > 32767 ? &pair : NULL);
}

/// The cell setcchar makes for `count` scalars (none: a space), with attributes and pair resolved.
static void make_cchar_with_pair(cchar_t *cell, const uint32_t *scalars, int count, attr_t a, int pair) {
#if defined(NCURSES_EXT_COLORS) && defined(NCURSES_VERSION_MAJOR) && NCURSES_VERSION_MAJOR >= 6
    // One character (nearly every cell): the fields curses.h declares, set as setcchar sets them
    // (the pair in ext_color, and in attr's colour bits up to 255), without the call and its
    // length and width checks, which only matter for combining characters: 74 instructions a
    // cell, 2.5% of the tabs benchmark. `ak_cchar_matches_setcchar` checks it against setcchar.
    if (count <= 1) {
        memset(cell, 0, sizeof *cell);
        cell->attr = a | (attr_t)COLOR_PAIR(pair > 255 ? 255 : pair);
        cell->chars[0] = count == 1 ? (wchar_t)scalars[0] : L' ';
        cell->ext_color = pair;
        return;
    }
#endif
    wchar_t text[CCHARW_MAX + 1];
    int n = count < CCHARW_MAX ? count : CCHARW_MAX;
    for (int i = 0; i < n; i++) text[i] = (wchar_t)scalars[i];
    if (n == 0) { text[0] = L' '; n = 1; }
    text[n] = L'\0';
    setcchar_with_pair(cell, text, a, pair);
}

static attr_t attributes_for(unsigned attrs) {
    attr_t a = A_NORMAL;
    if (attrs & AK_ATTR_BOLD) a |= A_BOLD;
    if (attrs & AK_ATTR_DIM) a |= A_DIM;
    if (attrs & AK_ATTR_ITALIC) a |= A_ITALIC;
    if (attrs & AK_ATTR_UNDERLINE) a |= A_UNDERLINE;
    if (attrs & AK_ATTR_REVERSE) a |= A_REVERSE;
    if (attrs & AK_ATTR_BLINK) a |= A_BLINK;
    return a;
}

static void make_cchar(cchar_t *cell, const uint32_t *scalars, int count, unsigned attrs, int fg, int bg) {
    make_cchar_with_pair(cell, scalars, count, attributes_for(attrs), pair_for(fg, bg));
}

int ak_cchar_matches_setcchar(uint32_t scalar, unsigned attrs, int pair) {
    cchar_t made, reference;
    make_cchar_with_pair(&made, &scalar, 1, attributes_for(attrs), pair);
    wchar_t text[2] = { (wchar_t)scalar, L'\0' };
    memset(&reference, 0, sizeof reference);
    setcchar_with_pair(&reference, text, attributes_for(attrs), pair);
    return memcmp(&made, &reference, sizeof made) == 0;
}

void ak_put_cells(int y, int x, const ak_cell *cells, int n) {
    // add_wchnstr copies the cells into the line as they are (a wide one fills its two columns)
    // with no control-character handling, wrapping or cursor movement per cell.
    cchar_t stack[256];
    cchar_t *line = n <= 256 ? stack : malloc(sizeof(cchar_t) * (size_t)n);
    if (line == NULL) return;
    for (int i = 0; i < n; i++) {
        make_cchar(&line[i], cells[i].scalars, cells[i].count, cells[i].attrs, cells[i].fg, cells[i].bg);
    }
    mvwadd_wchnstr(stdscr, y, x, line, n);
    if (line != stack) free(line);
}

void ak_refresh(void) {
    wnoutrefresh(stdscr);
    doupdate();
    // ncurses is on its alternate screen now (its doupdate() re-enters it after a suspend), and
    // its bytes are out: negotiated rows waiting for that go on.
    screen_drawn = 1;
    negotiated_rows_on();
}

void ak_begin_synchronized_update(void) {
    // Written to the terminal now, before doupdate() writes the frame. Not with putp(): that goes
    // through stdio (putchar), while doupdate() writes its own buffer straight to the descriptor,
    // so the mark waited in stdio until the end mark's fflush and every frame went out unwrapped.
    // ncurses has flushed its buffer at the end of the last doupdate(), so nothing of it follows.
    static const char begin[] = "\033[?2026h";
    synchronized_output_used = 1;
    fflush(stdout);
    write_all_signal_safe(STDOUT_FILENO, begin, sizeof begin - 1);
}

void ak_end_synchronized_update(void) {
    // After doupdate() and anything written after it (links) have been flushed.
    static const char end[] = "\033[?2026l";
    fflush(stdout);
    write_all_signal_safe(STDOUT_FILENO, end, sizeof end - 1);
}

void ak_write_bytes(const char *bytes, int count) {
    fflush(stdout);
    if (count > 0) write_all_signal_safe(STDOUT_FILENO, bytes, (size_t)count);
}

void ak_force_repaint(void) { clearok(curscr, TRUE); }

// ---------------------------------------------------------------------------------------------
// Writing what ncurses cannot: runs of linked cells (OSC 8) and other strings between frames.

/// A growing byte buffer for one batch of runs.
typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
    int failed;
} ak_buffer;

static void buffer_append(ak_buffer *b, const char *s, size_t n) {
    if (b->failed || s == NULL) return;
    if (b->length + n > b->capacity) {
        size_t wanted = b->capacity ? b->capacity * 2 : 4096;
        while (wanted < b->length + n) wanted *= 2;
        char *grown = realloc(b->bytes, wanted);
        if (grown == NULL) { b->failed = 1; return; }
        b->bytes = grown;
        b->capacity = wanted;
    }
    memcpy(b->bytes + b->length, s, n);
    b->length += n;
}

static void buffer_append_string(ak_buffer *b, const char *s) {
    if (s == NULL || s == (char *)-1) return;
    buffer_append(b, s, strlen(s));
}

static void buffer_append_capability(ak_buffer *b, const char *name) {
    buffer_append_string(b, tigetstr((char *)name));
}

static void buffer_append_utf8(ak_buffer *b, uint32_t c) {
    char out[4];
    size_t n;
    if (c < 0x80) { out[0] = (char)c; n = 1; }
    else if (c < 0x800) { out[0] = (char)(0xC0 | (c >> 6)); out[1] = (char)(0x80 | (c & 0x3F)); n = 2; }
    else if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12)); out[1] = (char)(0x80 | ((c >> 6) & 0x3F)); out[2] = (char)(0x80 | (c & 0x3F)); n = 3;
    } else if (c < 0x110000) {
        out[0] = (char)(0xF0 | (c >> 18)); out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((c >> 6) & 0x3F)); out[3] = (char)(0x80 | (c & 0x3F)); n = 4;
    } else { out[0] = '?'; n = 1; }
    buffer_append(b, out, n);
}

/// The terminal's own sequence for a cell's style, from its defaults (sgr0, and op for colours).
static void buffer_append_style(ak_buffer *b, const ak_cell *cell) {
    buffer_append_capability(b, "sgr0");
    if (colors_available) buffer_append_capability(b, "op");
    if (cell->attrs & AK_ATTR_BOLD) buffer_append_capability(b, "bold");
    if (cell->attrs & AK_ATTR_DIM) buffer_append_capability(b, "dim");
    if (cell->attrs & AK_ATTR_ITALIC) buffer_append_capability(b, "sitm");
    if (cell->attrs & AK_ATTR_UNDERLINE) buffer_append_capability(b, "smul");
    if (cell->attrs & AK_ATTR_REVERSE) buffer_append_capability(b, "rev");
    if (cell->attrs & AK_ATTR_BLINK) buffer_append_capability(b, "blink");
    if (colors_available) {
        const char *setaf = tigetstr("setaf"), *setab = tigetstr("setab");
        if (cell->fg >= 0 && setaf != NULL && setaf != (char *)-1) buffer_append_string(b, tiparm(setaf, cell->fg));
        if (cell->bg >= 0 && setab != NULL && setab != (char *)-1) buffer_append_string(b, tiparm(setab, cell->bg));
    }
}

static const char osc8_open[] = "\033]8;;";
static const char string_terminator[] = "\033\\";

int ak_write_runs(const ak_run *runs, int count, const ak_cell *cells) {
    if (screen == NULL || count <= 0) return 0;
    const char *save = tigetstr("sc"), *restore = tigetstr("rc"), *cup = tigetstr("cup");
    if (save == NULL || save == (char *)-1 || restore == NULL || restore == (char *)-1 || cup == NULL || cup == (char *)-1) return -1;
    ak_buffer b = { NULL, 0, 0, 0 };
    buffer_append_string(&b, save);
    for (int r = 0; r < count; r++) {
        const ak_run *run = &runs[r];
        if (run->count <= 0) continue;
        buffer_append_string(&b, tiparm(cup, run->y, run->x));
        if (run->url != NULL) {
            buffer_append(&b, osc8_open, sizeof osc8_open - 1);
            buffer_append_string(&b, run->url);
            buffer_append(&b, string_terminator, sizeof string_terminator - 1);
        }
        const ak_cell *last = NULL;
        for (int i = run->first; i < run->first + run->count; i++) {
            const ak_cell *cell = &cells[i];
            if (last == NULL || last->attrs != cell->attrs || last->fg != cell->fg || last->bg != cell->bg) buffer_append_style(&b, cell);
            last = cell;
            if (cell->count <= 0) buffer_append(&b, " ", 1);
            for (int k = 0; k < cell->count && k < 5; k++) buffer_append_utf8(&b, cell->scalars[k]);
        }
        if (run->url != NULL) {
            buffer_append(&b, osc8_open, sizeof osc8_open - 1);
            buffer_append(&b, string_terminator, sizeof string_terminator - 1);
        }
    }
    buffer_append_string(&b, restore);
    int result = -1;
    if (!b.failed) result = ak_write_between_frames(b.bytes, b.length);
    free(b.bytes);
    return result;
}

int ak_write_between_frames(const char *bytes, size_t length) {
    if (bytes == NULL) return -1;
    // ncurses writes only in doupdate() and flushes at its end; stdio may still hold something.
    fflush(stdout);
    size_t left = length;
    const char *p = bytes;
    while (left > 0) {
        ssize_t w = write(STDOUT_FILENO, p, left);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        p += w; left -= (size_t)w;
    }
    return 0;
}

void ak_reenter(void) {
    reset_prog_mode();
    curses_active = 1;
    // ncurses sends "keypad transmit" only from its own key reading, which we do not use.
    const char *smkx = tigetstr("smkx");
    if (smkx != NULL && smkx != (char *)-1) putp(smkx);
    curs_set(0);
    ak_enable_modes();
    clearok(curscr, TRUE);
    ak_update_size();
}

// Makes this process's group the terminal's foreground group again, from the background (where
// tcsetpgrp would stop us with SIGTTOU unless it is blocked).
static void take_terminal(int tty) {
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTTOU);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    tcsetpgrp(tty, getpgrp());
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int ak_run_foreground(const char *path, char *const argv[], char *const envp[], int tty, int *status) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    if (posix_spawnattr_init(&attributes) != 0) return ENOMEM;
    if (posix_spawn_file_actions_init(&actions) != 0) { posix_spawnattr_destroy(&attributes); return ENOMEM; }
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    int foreground = tty >= 0 && isatty(tty);
    if (foreground) flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setflags(&attributes, flags);
    posix_spawnattr_setpgroup(&attributes, 0);
    // Nothing blocked, every signal at its default: the app's handlers and ignored signals
    // (a SIGPIPE ignored, say) are the app's, not the program's.
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
    // The child takes the terminal itself, in its own group, before it runs anything: a program
    // that sets the terminal's modes at once (every editor) is never stopped as a background job.
    if (foreground) posix_spawn_file_actions_addtcsetpgrp_np(&actions, tty);
#define AK_CHILD_TAKES_TERMINAL 1
#endif
    // The terminal's stderr, not the app's log; and no other descriptor of the app's.
    if (terminal_stderr >= 0) posix_spawn_file_actions_adddup2(&actions, terminal_stderr, STDERR_FILENO);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    pid_t pid = 0;
    fflush(stdout);
    int error = posix_spawn(&pid, path, &actions, &attributes, argv, envp != NULL ? envp : environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0) return error;
#ifndef AK_CHILD_TAKES_TERMINAL
    if (foreground) {
        // A shell's way: the parent hands the terminal over too, and a child that touched the
        // terminal first (and was stopped for it) goes on.
        setpgid(pid, pid);
        take_terminal(tty);
        tcsetpgrp(tty, pid);
        kill(-pid, SIGCONT);
    }
#endif
    for (;;) {
        int wait_status = 0;
        pid_t done = waitpid(pid, &wait_status, foreground ? WUNTRACED : 0);
        if (done < 0) {
            if (errno == EINTR) continue;
            int why = errno;
            if (foreground) take_terminal(tty);
            return why;
        }
        if (foreground && WIFSTOPPED(wait_status)) {
            // The user stopped it (Ctrl-Z): stop this process too, as a shell's job stops, and
            // once the shell continues us (`fg`), continue it in the foreground.
            take_terminal(tty);
            ak_stop_process();
            take_terminal(tty);
            sigset_t block, old;
            sigemptyset(&block);
            sigaddset(&block, SIGTTOU);
            pthread_sigmask(SIG_BLOCK, &block, &old);
            tcsetpgrp(tty, pid);
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            kill(-pid, SIGCONT);
            continue;
        }
        *status = wait_status;
        break;
    }
    if (foreground) take_terminal(tty);
    return 0;
}

// Set when this process stopped itself (Ctrl-Z, or a program it ran was stopped): the SIGCONT that
// continues it is its own resume's, which has taken the terminal back already.
static volatile sig_atomic_t own_stop = 0;

int ak_take_own_continue(void) {
    int was = own_stop;
    own_stop = 0;
    return was;
}

void ak_stop_process(void) {
    // The kernel discards SIGTSTP for an orphaned process group (no shell to continue it, as for
    // a session leader): then nothing stops and no SIGCONT comes. Ours is not orphaned when the
    // parent is in the same session and another group, as a job-control shell is.
    pid_t parent = getppid();
    own_stop = getsid(parent) == getsid(0) && getpgid(parent) != getpgrp();
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &set, &old);
    struct sigaction ignore, dfl, previous;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    dfl = ignore;
    dfl.sa_handler = SIG_DFL;
    // The rest of the process group (what the app started in it), as the shell's Ctrl-Z would.
    // This process ignores that one: sent to the process, it may be taken by another thread only
    // after our handler is back, which would read it as a second Ctrl-Z (leave, come back, leave).
    sigaction(SIGTSTP, &ignore, &previous);
    kill(0, SIGTSTP);
    // This process: a signal sent to this thread is taken before raise() returns, so it stops here.
    sigaction(SIGTSTP, &dfl, NULL);
    raise(SIGTSTP);
    // ...stopped here until SIGCONT...
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    sigaction(SIGTSTP, &previous, NULL);
}
