/* platform.h - the window, its OpenGL context, input events and fonts.
 * The only layer that includes SDL; everything above sees plain structs. */
#ifndef CONVIS_PLATFORM_H
#define CONVIS_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/image.h"
#include "core/keys.h"

typedef struct plat_window plat_window;

typedef enum plat_event_type {
    PLAT_EVENT_NONE = 0,
    PLAT_EVENT_QUIT,
    PLAT_EVENT_KEY,  /* key: a key above */
    PLAT_EVENT_DROP, /* path: a file dropped on the window */
    PLAT_EVENT_RESIZE,
    PLAT_EVENT_EXPOSE,     /* the window needs drawing again */
    PLAT_EVENT_MOUSE_MOVE, /* x, y; buttons held in `button` (bit 0 left) */
    PLAT_EVENT_MOUSE_DOWN, /* x, y, button (1 left, 2 middle, 3 right) */
    PLAT_EVENT_MOUSE_UP,
    PLAT_EVENT_WHEEL, /* wheel: + away from the user */
    PLAT_EVENT_LEAVE, /* the mouse left the window */
} plat_event_type;

typedef struct plat_event {
    plat_event_type type;
    int key;
    unsigned mods; /* PLAT_MOD_* held with a key or click */
    int x, y;      /* mouse, in drawable pixels */
    int button;
    int wheel;
    char path[4096];
} plat_event;

/* Turns vsync on or off (off to measure frame times). */
void plat_set_vsync(plat_window *win, bool on);

enum {
    PLAT_WINDOW_HIDDEN = 1 << 0,    /* never shown: a GL context for computing */
    PLAT_WINDOW_OFFSCREEN = 1 << 1, /* where there is no display, render offscreen instead of failing */
};

/* Whether a display server is there to open a window on: X11's $DISPLAY or
 * Wayland's $WAYLAND_DISPLAY (always true on Windows and macOS). */
bool plat_has_display(void);

/* Opens a resizable window with an OpenGL core context current on this
 * thread: 4.3 (compute shaders) where the driver has it, else 3.3. NULL with
 * err_msg() on failure (no display, no GL 3.3...).
 *
 * Without a display, a window is refused with a sentence, unless `flags`
 * has PLAT_WINDOW_OFFSCREEN or SDL_VIDEODRIVER names a driver: then the
 * window is drawn offscreen, on an EGL pbuffer of the first EGL device (SDL's
 * "offscreen" video driver: a GPU's own driver where one is installed, no X
 * server needed). plat_video_driver says which driver was used. */
plat_window *plat_open(const char *title, int w, int h, unsigned flags);

/* The video driver the windows use ("x11", "wayland", "offscreen", ...),
 * or "none" before the first window. */
const char *plat_video_driver(void);
void plat_close(plat_window *win);

/* The window's size in window coordinates (at most the display's room). */
void plat_window_size(plat_window *win, int *w, int *h);

/* The drawable size in pixels. */
void plat_drawable_size(plat_window *win, int *w, int *h);
void plat_swap(plat_window *win);
void plat_toggle_fullscreen(plat_window *win);
void plat_set_title(plat_window *win, const char *title); /* UTF-8 */

/* Waits up to timeout_ms for an event (0: only polls). False when none came. */
bool plat_next_event(plat_window *win, int timeout_ms, plat_event *ev);

/* The folder holding the executable, ending in '/' ("" when unknown). */
const char *plat_base_path(void);

/* ---- text ---------------------------------------------------------------- */

typedef struct plat_font plat_font;

/* Opens a sans-serif font found through fontconfig that covers `lang`
 * ("en", "zh"), at a height of `px` pixels. NULL with err_msg(). */
plat_font *plat_font_open(const char *lang, int px);
void plat_font_close(plat_font *font);
int plat_font_height(const plat_font *font);

/* One glyph, as the render layer's atlas wants it (render/text.h): white
 * with alpha, full line height, and the pen's advance. */
bool plat_glyph_render(plat_font *font, uint32_t codepoint, img_rgba *out, int *advance);

#endif
