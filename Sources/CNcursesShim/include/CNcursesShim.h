// A small C layer under NcursesTerminal for what Swift cannot do or cannot do safely:
// ncurses macros and wide-character calls, and async-signal-safe signal handling.
// Only plain C types cross this boundary; ncurses' own headers stay on the C side.
#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
#include <stdint.h>
#include <stddef.h>

// Attribute bits, in the same order as Swift's TextAttributes.
enum {
    AK_ATTR_BOLD = 1 << 0,
    AK_ATTR_DIM = 1 << 1,
    AK_ATTR_ITALIC = 1 << 2,
    AK_ATTR_UNDERLINE = 1 << 3,
    AK_ATTR_REVERSE = 1 << 4,
    AK_ATTR_BLINK = 1 << 5,
};

/// Checks that `term` names a terminal terminfo knows, without letting ncurses exit the process.
/// Returns 1 when usable, 0 when not (with a reason written to `why`).
int ak_check_terminal(const char *term, char *why, size_t why_len);

/// Saves the tty modes of fd 0 as the shell has them and installs the crash handlers that put
/// them back (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP). While the UI is up a crash
/// restores the terminal, prints the line given to `ak_set_crash_report`, writes a backtrace to
/// the log and ends the process with the same signal (APPLETKIT_SWIFT_BACKTRACE=1 hands it to
/// Swift's backtracer instead). `ak_stop` removes them. Must be called before `ak_start`.
/// Returns 0 on success, -1 if fd 0 is not a terminal.
int ak_save_terminal(void);

/// What a crash reports: `line` (one line, no newline) on the terminal's stderr, and a backtrace
/// appended to the file at `log_path` (NULL or "" for none).
void ak_set_crash_report(const char *line, const char *log_path);

/// Sends stderr to the file at `log_path` while the UI is up (nothing may print over the screen);
/// `ak_restore_stderr` gives the terminal its stderr back.
void ak_redirect_stderr(const char *log_path);
void ak_restore_stderr(void);

/// Starts ncurses on stdin/stdout. `want_color` 0 disables colour (NO_COLOR).
/// Returns the number of colours usable (0 for none), or -1 on failure.
int ak_start(int want_color, int escape_delay_ms);

/// Turns on the modes AppletKit itself sets (mouse reports with drags and SGR coordinates,
/// bracketed paste), in the order of the shim's mode table; `ak_disable_modes` turns them off in
/// reverse. The kitty keyboard protocol, once the terminal said it has it, goes on last, at the
/// first `ak_refresh` after start or resume (only then is ncurses on its alternate screen, and
/// kitty keeps one stack of flags per screen). Every exit path (stop, suspend, a crash) resets
/// every mode in that table.
/// Groups of modes an app may leave off (it has no use for them): their rows are neither turned
/// on nor reset. Call before `ak_start`.
enum { AK_GROUP_MOUSE = 1, AK_GROUP_PASTE = 2, AK_GROUP_KITTY_KEYBOARD = 4 };
void ak_set_groups_off(int groups);
void ak_enable_modes(void);
void ak_disable_modes(void);

/// The kitty keyboard protocol (https://sw.kovidgoyal.net/kitty/keyboard-protocol/), which is
/// never turned on blind: `ak_kitty_keyboard_query` writes its detection query (`CSI ? u` then DA1,
/// `CSI c`) after `ak_start`; the answers arrive as input. Only when the terminal answered the
/// flags query (`CSI ? flags u`, before its DA1 answer) does the app call `ak_kitty_keyboard_enable`,
/// which pushes "disambiguate escape codes" (`CSI > 1 u`) at once if a frame is on screen (else
/// at the next `ak_refresh`), and again at the first refresh after every resume, always on the
/// alternate screen. While it is pushed every exit path pops it (`CSI < u`), before leaving the
/// alternate screen: stop, suspend, a quit signal, a crash.
/// `ak_kitty_keyboard_active` says whether it is pushed now (1) or not (0).
void ak_kitty_keyboard_query(void);
void ak_kitty_keyboard_enable(void);
int ak_kitty_keyboard_active(void);

/// The mode table, for tests and diagnostics: how many rows, each row's name, and the bytes that
/// turn it off on this terminal (NULL where terminfo has none).
int ak_mode_count(void);
const char *ak_mode_name(int index);
const char *ak_mode_off(int index);

/// Ends ncurses and gives the terminal back as it was (modes, cursor, main screen). Idempotent.
void ak_stop(void);

/// Lines and columns ncurses knows of.
int ak_lines(void);
int ak_cols(void);

/// Reads the real window size from the tty and tells ncurses; returns 1 if it changed.
int ak_update_size(void);

/// One cell for `ak_put_cells`: up to 5 code points (base character plus combining ones),
/// AK_ATTR_* bits, and a foreground/background colour number (-1 for the terminal's default).
typedef struct {
    uint32_t scalars[5];
    int32_t count;
    uint32_t attrs;
    int32_t fg;
    int32_t bg;
} ak_cell;

/// Whether the cell `ak_put_cells` makes for one scalar is byte for byte the one setcchar makes
/// (tests: the shim fills single-character cells itself).
int ak_cchar_matches_setcchar(uint32_t scalar, unsigned attrs, int pair);

/// Puts a run of cells that sit side by side on row `y` from column `x` (a wide character takes
/// two columns and one entry) in one call, without the per-character processing of add_wch.
void ak_put_cells(int y, int x, const ak_cell *cells, int n);

/// Sends what was drawn to the terminal.
void ak_refresh(void);
/// A synchronized update around a frame, for a terminal that said it has mode 2026: begin writes
/// `CSI ? 2026 h` at once, before `ak_refresh` writes the frame; end writes `CSI ? 2026 l` once
/// the frame and what follows it (links) are out, so the terminal shows the frame whole.
void ak_begin_synchronized_update(void);
void ak_end_synchronized_update(void);
/// Writes bytes to the terminal at once, after whatever ncurses has buffered (the start-up
/// queries).
void ak_write_bytes(const char *bytes, int count);

/// A run of cells `ak_write_runs` writes: `count` entries of its cells from `first`, from column
/// `x` of row `y`, linking to `url` (NULL: to nothing).
typedef struct {
    int32_t y;
    int32_t x;
    int32_t first;
    int32_t count;
    const char *url;
} ak_run;

/// Writes runs of cells again over what ncurses drew (call it after `ak_refresh`): ncurses knows
/// nothing of OSC 8 hyperlinks, so a linked run is written once more inside
/// `ESC ] 8 ; ; URL ESC \ … ESC ] 8 ; ; ESC \`, in its own style (the terminal's sgr0, bold,
/// setaf…), between the terminal's save and restore cursor (`sc`, `rc`, which also keep the
/// attributes ncurses believes are set). A run with no URL is written plainly, which takes a
/// link away from cells that had one. Returns 0, or -1 when the terminal cannot save the cursor
/// (nothing is written).
int ak_write_runs(const ak_run *runs, int count, const ak_cell *cells);

/// Writes `bytes` to the terminal between frames (after ncurses' output, which is flushed first):
/// for what ncurses cannot say itself, such as OSC 52. Returns 0, or -1 when not all were written.
int ak_write_between_frames(const char *bytes, size_t length);

/// Makes the next refresh repaint the whole screen (after a resume or a resize).
void ak_force_repaint(void);

/// Leaves curses mode for a while (suspend) and comes back to it.
void ak_leave(void);
void ak_reenter(void);

/// A pipe that the signal handlers write the signal number into; returns its read end.
/// `ak_watch_signal` routes a signal there (SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT).
/// A second SIGINT/SIGTERM/SIGHUP arriving before the first was handled restores the terminal
/// and exits at once, so a hung main thread can still be killed cleanly.
int ak_signal_pipe(void);
int ak_watch_signal(int sig);
/// Marks the last quit signal as handled.
void ak_signal_handled(void);

/// Stops the process as Ctrl-Z would (SIGTSTP with the default action); returns after `fg`.
void ak_stop_process(void);
/// Whether the last SIGCONT continued a stop of `ak_stop_process` (whose caller takes the
/// terminal back itself), once: 1, then 0 until the next such stop.
int ak_take_own_continue(void);

/// Runs the program at `path` with `argv` (NULL-terminated) and `envp` (NULL: this process's
/// environment) with posix_spawn, and waits for it to end. With `tty` (a terminal descriptor,
/// -1 for none) it runs as a shell's foreground job: a process group of its own that is made the
/// terminal's foreground group before it starts, every signal at its default and none blocked,
/// the terminal's own stderr and no other descriptor of ours; when the user stops it, this
/// process stops too (`ak_stop_process`) and continues it when continued; when it ends, this
/// process's group gets the terminal back. Returns 0 with its wait status in `*status`, or the
/// errno of why it could not start.
int ak_run_foreground(const char *path, char *const argv[], char *const envp[], int tty, int *status);

/// Turns the mouse reports off (`paused` 1) or on again (0) while the UI is up: the rows of
/// AK_GROUP_MOUSE, off in reverse order or on in order. While paused, no exit path, suspend or
/// resume writes them (their reset went out when they were paused). Returns 1 when something
/// changed, 0 when it was so already or the app leaves the mouse off.
int ak_set_mouse_paused(int paused);
/// Whether the mouse reports are paused (1) or not (0).
int ak_mouse_paused(void);


#endif
