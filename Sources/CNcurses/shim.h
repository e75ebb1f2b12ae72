#pragma once
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>

// ncurses defines its attributes and colour pairs as macros, which Swift does not import.

/// COLOR_PAIR(n): the attribute bits that select colour pair n.
static inline attr_t CNcurses_color_pair(short pair) { return (attr_t)COLOR_PAIR(pair); }
/// A_BOLD.
static inline attr_t CNcurses_bold(void) { return A_BOLD; }
/// A_REVERSE.
static inline attr_t CNcurses_reverse(void) { return A_REVERSE; }
/// A_UNDERLINE.
static inline attr_t CNcurses_underline(void) { return A_UNDERLINE; }
/// A_DIM.
static inline attr_t CNcurses_dim(void) { return A_DIM; }
/// A_NORMAL.
static inline attr_t CNcurses_normal(void) { return A_NORMAL; }
/// ERR.
static inline int CNcurses_err(void) { return ERR; }
/// KEY_RESIZE.
static inline int CNcurses_key_resize(void) { return KEY_RESIZE; }
/// COLORS (a macro in reentrant builds, a global variable otherwise): how many colours the terminal has.
static inline int CNcurses_colors(void) { return COLORS; }
/// getmaxy(win).
static inline int CNcurses_rows(WINDOW *win) { return getmaxy(win); }
/// getmaxx(win).
static inline int CNcurses_columns(WINDOW *win) { return getmaxx(win); }
/// attrset(attrs) on win.
static inline int CNcurses_set_attributes(WINDOW *win, attr_t attrs) { return wattrset(win, (int)attrs); }

// glibc declares wcwidth only for X/Open, which Swift's Glibc module is not built for.
extern int wcwidth(wchar_t character);
/// wcwidth(character): the columns curses gives a character in the current locale, -1 when it is not printable.
static inline int CNcurses_wcwidth(wchar_t character) { return wcwidth(character); }
