/*
 * The tabs workload (README.md beside this file) in plain C on ncursesw: the reference that
 * tabs-appletkit is measured against. Written as a C programmer would write it by hand: one
 * window per part of the screen, each part redrawn only when what it shows changed, the windows
 * flushed with wnoutrefresh and the terminal updated once per key with doupdate; ncurses does the
 * diffing, the alternate screen (smcup/rmcup) and, with idlok, the terminal's line scrolling.
 *
 * It draws what tabs-appletkit draws, cell for cell where it can (the same tab bar, content,
 * status line and footer, in the same attributes and colours), so that the two write comparable
 * screens. Keys: 1 2 3 select a tab, ] [ the next/previous one, + - change the counter (Counter
 * tab), j k (or the arrows) move in the list (List tab), q quits. The footer's `? Help`,
 * `Alt-C Copy` and `Tab Focus` are drawn to match AppletKit's footer but do nothing here (the
 * workload does not use them).
 *
 *     cc -O2 -o tabs-c tabs.c -lncursesw
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <ncursesw/curses.h>

enum { ROW_COUNT = 10000, TAB_COUNT = 3 };

static const char *const titles[TAB_COUNT] = { "Counter", "List", "Mirror" };
static const char *const words[] = { "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta" };
enum { WORD_COUNT = sizeof words / sizeof words[0] };

/* What the app holds: the tab on screen (0-based), the shared counter, the selected row and the
   first row shown (the list scrolls only when the selection would leave the view). */
static int tab = 0;
static int count = 0;
static int row = 0;
static int offset = 0;

/* Row 0: the tab bar; rows 1..LINES-3: the tab's content; LINES-2: the status line;
   LINES-1: the footer with the keys. */
static WINDOW *tabbar, *content, *status, *footer;

/* The colour pair of the selected tab: the accent colour on the default background. */
enum { ACCENT = 1 };

static int list_rows(void) { return getmaxy(content) - 1; }   /* under the `row I of N` line */

static void draw_tabbar(void) {
    werase(tabbar);
    wmove(tabbar, 0, 0);
    for (int i = 0; i < TAB_COUNT; i++) {
        wattrset(tabbar, i == tab ? (A_UNDERLINE | A_BOLD | A_REVERSE | COLOR_PAIR(ACCENT)) : A_UNDERLINE);
        wprintw(tabbar, " %d %s ", i + 1, titles[i]);
        wattrset(tabbar, A_DIM | A_UNDERLINE);
        waddstr(tabbar, "│");
    }
    wattrset(tabbar, A_NORMAL);
    wnoutrefresh(tabbar);
}

static void draw_status(void) {
    werase(status);
    mvwprintw(status, 0, 0, "tab %d · count %d · row %d", tab + 1, count, row + 1);
    wnoutrefresh(status);
}

/* One hint: the key reversed and bold, then its title. */
static void hint(const char *key, const char *title) {
    int x = getcurx(footer);
    if (x > 0) waddstr(footer, "  ");
    wattrset(footer, A_BOLD | A_REVERSE);
    waddstr(footer, key);
    wattrset(footer, A_NORMAL);
    wprintw(footer, " %s", title);
}

static void draw_footer(void) {
    werase(footer);
    wmove(footer, 0, 0);
    if (tab == 0) {
        hint("+", "Increment");
        hint("-", "Decrement");
    }
    hint("1-3", "Tab");
    hint("]/[", "Next/Prev");
    if (tab == 1) {
        hint("Alt-C", "Copy");
        hint("Tab", "Focus");
    }
    hint("?", "Help");
    hint("q", "Quit");
    wnoutrefresh(footer);
}

static void draw_counter(void) {
    mvwprintw(content, 1, 1, "Count: %d", count);
    wclrtoeol(content);
}

static void draw_mirror(void) {
    mvwprintw(content, 1, 1, "Mirror: %d (%s)", count, count % 2 == 0 ? "even" : "odd");
    wclrtoeol(content);
}

static void draw_list(void) {
    int rows = list_rows();
    if (row < offset) offset = row;
    if (row >= offset + rows) offset = row - rows + 1;
    mvwprintw(content, 0, 0, "row %d of %d", row + 1, ROW_COUNT);
    wclrtoeol(content);
    for (int i = 0; i < rows; i++) {
        int index = offset + i;
        wmove(content, 1 + i, 0);
        if (index < ROW_COUNT) wprintw(content, "Row %05d %s", index + 1, words[index % WORD_COUNT]);
        wclrtoeol(content);
        if (index == row) mvwchgat(content, 1 + i, 0, -1, A_REVERSE, 0, NULL);
    }
}

static void draw_content(void) {
    switch (tab) {
    case 0: draw_counter(); break;
    case 1: draw_list(); break;
    default: draw_mirror(); break;
    }
    wnoutrefresh(content);
}

/* Everything, after a tab switch or a resize. */
static void draw_all(void) {
    draw_tabbar();
    werase(content);
    draw_content();
    draw_status();
    draw_footer();
}

static void make_windows(void) {
    if (tabbar) { delwin(tabbar); delwin(content); delwin(status); delwin(footer); }
    int height = LINES < 5 ? 5 : LINES;
    tabbar = newwin(1, COLS, 0, 0);
    content = newwin(height - 3, COLS, 1, 0);
    status = newwin(1, COLS, height - 2, 0);
    footer = newwin(1, COLS, height - 1, 0);
    idlok(content, TRUE);   /* let ncurses scroll the list with the terminal's insert/delete line */
    /* The cursor is hidden: ncurses need not put it back after an update. */
    leaveok(tabbar, TRUE);
    leaveok(content, TRUE);
    leaveok(status, TRUE);
    leaveok(footer, TRUE);
}

static void select_tab(int index) {
    if (index == tab) return;
    tab = index;
    draw_all();
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("%s\n", curses_version());
        return 0;
    }
    setlocale(LC_ALL, "");
    initscr();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(ACCENT, COLORS >= 256 ? 81 : COLOR_CYAN, -1);
    }
    refresh();   /* clears the screen; stdscr stays untouched, so getch's refresh of it is free */
    make_windows();
    draw_all();
    doupdate();

    for (;;) {
        int key = getch();
        switch (key) {
        case 'q':
            endwin();
            return 0;
        case '1': case '2': case '3':
            select_tab(key - '1');
            break;
        case ']':
            select_tab((tab + 1) % TAB_COUNT);
            break;
        case '[':
            select_tab((tab + TAB_COUNT - 1) % TAB_COUNT);
            break;
        case '+': case '-':
            if (tab != 0) continue;
            count += key == '+' ? 1 : -1;
            draw_content();
            draw_status();
            break;
        case 'j': case KEY_DOWN: case 'k': case KEY_UP: {
            if (tab != 1) continue;
            int target = row + (key == 'j' || key == KEY_DOWN ? 1 : -1);
            if (target < 0 || target >= ROW_COUNT) continue;
            row = target;
            draw_content();
            draw_status();
            break;
        }
        case KEY_RESIZE:
            make_windows();
            draw_all();
            break;
        default:
            continue;
        }
        doupdate();
    }
}
