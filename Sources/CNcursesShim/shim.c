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

// ---------------------------------------------------------------------------------------------
// Restoring the terminal from a signal handler
//
// A crash must not leave the shell raw, invisible-cursored and on the alternate screen, and
// Swift's backtracer may wait on the tty for 30 s. So at start we save the shell's termios and
// compute, once, the exact bytes that undo our modes; a handler then needs only write(2) and
// tcsetattr(3), both async-signal-safe.

static struct termios saved_termios;
static volatile sig_atomic_t have_saved_termios = 0;
static volatile sig_atomic_t curses_active = 0;
static char restore_bytes[512];
static volatile size_t restore_len = 0;

static void append_restore(const char *s) {
    if (s == NULL || s == (char *)-1) return;
    size_t n = strlen(s);
    if (restore_len + n >= sizeof restore_bytes) return;
    memcpy(restore_bytes + restore_len, s, n);
    restore_len += n;
}

static void build_restore_bytes(void) {
    restore_len = 0;
    // Mouse reports and bracketed paste off (harmless where unsupported).
    append_restore("\033[?1000l\033[?1002l\033[?1003l\033[?1006l\033[?2004l");
    append_restore(tigetstr("sgr0"));
    append_restore(tigetstr("cnorm"));
    append_restore(tigetstr("rmkx"));
    append_restore(tigetstr("rmcup"));
}

static void write_all_signal_safe(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) { if (errno == EINTR) continue; return; }
        p += w; n -= (size_t)w;
    }
}

// Async-signal-safe: only write(2) and tcsetattr(3).
static void restore_terminal_now(void) {
    if (!curses_active) return;
    curses_active = 0;
    write_all_signal_safe(STDOUT_FILENO, restore_bytes, restore_len);
    write_all_signal_safe(STDOUT_FILENO, "\r\n", 2);
    if (have_saved_termios) tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_termios);
}

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
#define CRASH_SIGNAL_COUNT (int)(sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction previous_crash_actions[CRASH_SIGNAL_COUNT];

static void crash_handler(int sig, siginfo_t *info, void *context) {
    int saved_errno = errno;
    restore_terminal_now();
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

int ak_save_terminal(void) {
    if (!isatty(STDIN_FILENO)) return -1;
    if (tcgetattr(STDIN_FILENO, &saved_termios) != 0) return -1;
    have_saved_termios = 1;
    for (int i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = crash_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(crash_signals[i], &sa, &previous_crash_actions[i]);
    }
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

int ak_watch_signal(int sig) {
    if (ak_signal_pipe() < 0) return -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pipe_handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL);
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
    raw();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    leaveok(stdscr, TRUE);
    curs_set(0);
    set_escdelay(escape_delay_ms);
    mousemask(ALL_MOUSE_EVENTS, NULL);
    mouseinterval(0);
    colors_available = 0;
    if (want_color && has_colors() && start_color() == OK) {
        use_default_colors();
        colors_available = COLORS;
    }
    return colors_available;
}

void ak_enable_modes(void) {
    fflush(stdout);
    // Button-event tracking (drags arrive), SGR mouse encoding (coordinates past 223 columns)
    // and bracketed paste.
    static const char on[] = "\033[?1002h\033[?1006h\033[?2004h";
    write_all_signal_safe(STDOUT_FILENO, on, sizeof on - 1);
}

void ak_leave(void) {
    static const char off[] = "\033[?1006l\033[?2004l";
    write_all_signal_safe(STDOUT_FILENO, off, sizeof off - 1);
    mousemask(0, NULL);
    curs_set(1);
    endwin();
    curses_active = 0;
}

void ak_stop(void) {
    if (screen == NULL) return;
    ak_leave();
    delscreen(screen);
    screen = NULL;
    if (have_saved_termios) tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_termios);
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

void ak_put_cell(int y, int x, const uint32_t *scalars, int count, unsigned attrs, int fg, int bg) {
    wchar_t text[CCHARW_MAX + 1];
    int n = count < CCHARW_MAX ? count : CCHARW_MAX;
    for (int i = 0; i < n; i++) text[i] = (wchar_t)scalars[i];
    if (n == 0) { text[0] = L' '; n = 1; }
    text[n] = L'\0';
    attr_t a = A_NORMAL;
    if (attrs & AK_ATTR_BOLD) a |= A_BOLD;
    if (attrs & AK_ATTR_DIM) a |= A_DIM;
    if (attrs & AK_ATTR_ITALIC) a |= A_ITALIC;
    if (attrs & AK_ATTR_UNDERLINE) a |= A_UNDERLINE;
    if (attrs & AK_ATTR_REVERSE) a |= A_REVERSE;
    if (attrs & AK_ATTR_BLINK) a |= A_BLINK;
    int pair = pair_for(fg, bg);
    cchar_t cell;
    // Pairs past 32767 travel in the extension argument.
    setcchar(&cell, text, a, (short)(pair > 32767 ? 0 : pair), pair > 32767 ? &pair : NULL);
    mvadd_wch(y, x, &cell);
}

void ak_refresh(void) {
    wnoutrefresh(stdscr);
    doupdate();
}

void ak_force_repaint(void) { clearok(curscr, TRUE); }

void ak_reenter(void) {
    reset_prog_mode();
    curses_active = 1;
    // ncurses sends "keypad transmit" only from its own key reading, which we do not use.
    const char *smkx = tigetstr("smkx");
    if (smkx != NULL && smkx != (char *)-1) putp(smkx);
    curs_set(0);
    mousemask(ALL_MOUSE_EVENTS, NULL);
    ak_enable_modes();
    clearok(curscr, TRUE);
    ak_update_size();
}

void ak_stop_process(void) {
    struct sigaction dfl, previous;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &previous);
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &set, &old);
    kill(0, SIGTSTP);          // the whole process group, as the shell's Ctrl-Z would
    // ...stopped here until SIGCONT...
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    sigaction(SIGTSTP, &previous, NULL);
}
