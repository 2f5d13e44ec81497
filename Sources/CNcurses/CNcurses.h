// The system ncursesw headers, with the wide-character API switched on.
#ifndef CNCURSES_H
#define CNCURSES_H
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <ncursesw/ncurses.h>
#include <ncursesw/term.h>
#endif
