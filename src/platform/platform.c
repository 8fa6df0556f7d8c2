#include "platform.h"
#include "core/tr.h"

#include <SDL.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

struct plat_window {
    SDL_Window *window;
    SDL_GLContext gl;
    float scale_x, scale_y; /* drawable pixels per window coordinate */
};

static int sdl_users;

static void update_scale(plat_window *win);

/* Creates a context of version major.minor, core profile, or returns NULL. */
static SDL_GLContext create_context(SDL_Window *window, int major, int minor)
{
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, major);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, minor);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
#ifndef NDEBUG
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_DEBUG_FLAG);
#endif
    return SDL_GL_CreateContext(window);
}

bool plat_has_display(void)
{
#if defined(_WIN32) || defined(__APPLE__)
    return true;
#else
    const char *x11 = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    return (x11 && x11[0]) || (wayland && wayland[0]);
#endif
}

const char *plat_video_driver(void)
{
    const char *d = sdl_users > 0 ? SDL_GetCurrentVideoDriver() : NULL;
    return d ? d : "none";
}

/* Starts SDL's video for the first window. Without a display, SDL would
 * try its other drivers one after another, print their complaints, and may
 * end on its offscreen one, drawing a window nobody sees: so that happens
 * only when asked for (PLAT_WINDOW_OFFSCREEN, or SDL_VIDEODRIVER set). */
static bool start_video(unsigned flags)
{
    const char *asked = getenv("SDL_VIDEODRIVER");
    bool offscreen = false;
    if (!plat_has_display() && !(asked && asked[0])) {
        if (!(flags & PLAT_WINDOW_OFFSCREEN))
            return err_set("no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set): run it on "
                           "a desktop or under xvfb-run");
#ifdef SDL_HINT_VIDEODRIVER
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
#else
        setenv("SDL_VIDEODRIVER", "offscreen", 1); /* SDL before 2.0.22: no hint, the variable */
#endif
        offscreen = true;
    }
    /* SIGINT and SIGTERM are the program's (they end it at once), not
     * SDL's quit events, which are only read between actions */
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0)
        return err_set("cannot open a window: %s%s", SDL_GetError(),
                       offscreen ? _(" (there is no display, and drawing offscreen needs EGL)") : "");
    /* A display is named but SDL could not reach it and fell back to a
     * driver that shows nothing: a window there would run unseen. */
    if (!offscreen && !(asked && asked[0]) && !(flags & PLAT_WINDOW_OFFSCREEN)) {
        const char *d = SDL_GetCurrentVideoDriver();
        if (d && (strcmp(d, "offscreen") == 0 || strcmp(d, "dummy") == 0)) {
            const char *x11 = getenv("DISPLAY");
            SDL_Quit();
            return err_set("cannot reach the display '%s' to open a window on (SDL fell back to its '%s' driver): is "
                           "it running, and may this user use it?",
                           x11 && x11[0] ? x11 : getenv("WAYLAND_DISPLAY"), d);
        }
    }
    return true;
}

plat_window *plat_open(const char *title, int w, int h, unsigned flags)
{
    Uint32 window_flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    plat_window *win;

    if (sdl_users++ == 0 && !start_video(flags)) {
        sdl_users = 0;
        return NULL;
    }
    win = calloc(1, sizeof *win);
    if (!win) {
        err_set("out of memory");
        goto quit_sdl;
    }
    if (flags & PLAT_WINDOW_HIDDEN)
        window_flags |= SDL_WINDOW_HIDDEN;
    { /* no larger than the display's room for windows (a --window of 8K on a 1080p screen) */
        SDL_Rect room;
        if (strcmp(plat_video_driver(), "offscreen") != 0 && SDL_GetDisplayUsableBounds(0, &room) == 0 && room.w > 0 &&
            room.h > 0) {
            w = w < room.w ? w : room.w;
            h = h < room.h ? h : room.h;
        }
    }
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    win->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, window_flags);
    if (!win->window) {
        err_set("cannot open a window: %s", SDL_GetError());
        goto free_win;
    }
    win->gl = create_context(win->window, 4, 3);
    if (!win->gl)
        win->gl = create_context(win->window, 3, 3);
    if (!win->gl) {
        err_set("cannot create an OpenGL 3.3 core context: %s", SDL_GetError());
        goto destroy_window;
    }
    SDL_GL_SetSwapInterval(1);
    SDL_EventState(SDL_DROPFILE, SDL_ENABLE);
    update_scale(win);
    return win;

destroy_window:
    SDL_DestroyWindow(win->window);
free_win:
    free(win);
quit_sdl:
    if (--sdl_users == 0)
        SDL_Quit();
    return NULL;
}

void plat_close(plat_window *win)
{
    if (!win)
        return;
    SDL_GL_DeleteContext(win->gl);
    SDL_DestroyWindow(win->window);
    free(win);
    if (--sdl_users == 0)
        SDL_Quit();
}

void plat_window_size(plat_window *win, int *w, int *h)
{
    SDL_GetWindowSize(win->window, w, h);
}

void plat_drawable_size(plat_window *win, int *w, int *h)
{
    SDL_GL_GetDrawableSize(win->window, w, h);
}

void plat_swap(plat_window *win)
{
    SDL_GL_SwapWindow(win->window);
}

void plat_set_title(plat_window *win, const char *title)
{
    SDL_SetWindowTitle(win->window, title);
}

void plat_toggle_fullscreen(plat_window *win)
{
    Uint32 flags = SDL_GetWindowFlags(win->window);
    SDL_SetWindowFullscreen(win->window, flags & SDL_WINDOW_FULLSCREEN_DESKTOP ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
}

static int map_key(SDL_Keycode k)
{
    switch (k) {
    case SDLK_ESCAPE: return PLAT_KEY_ESCAPE;
    case SDLK_LEFT: return PLAT_KEY_LEFT;
    case SDLK_RIGHT: return PLAT_KEY_RIGHT;
    case SDLK_UP: return PLAT_KEY_UP;
    case SDLK_DOWN: return PLAT_KEY_DOWN;
    case SDLK_PAGEUP: return PLAT_KEY_PAGE_UP;
    case SDLK_PAGEDOWN: return PLAT_KEY_PAGE_DOWN;
    case SDLK_F1: return PLAT_KEY_F1;
    case SDLK_F5: return PLAT_KEY_F5;
    case SDLK_F11: return PLAT_KEY_F11;
    case SDLK_HOME: return PLAT_KEY_HOME;
    case SDLK_END: return PLAT_KEY_END;
    case SDLK_BACKSPACE: return '\b';
    case SDLK_TAB: return '\t';
    case SDLK_RETURN:
    case SDLK_KP_ENTER: return '\r';
    case SDLK_KP_PLUS: return '+';
    case SDLK_KP_MINUS: return '-';
    case SDLK_KP_PERIOD: return '.';
    default:
        if (k >= SDLK_KP_1 && k <= SDLK_KP_9)
            return '1' + (int)(k - SDLK_KP_1);
        if (k == SDLK_KP_0)
            return '0';
        return k >= 32 && k < 127 ? (int)k : 0;
    }
}

static unsigned map_mods(Uint16 m)
{
    return (m & KMOD_SHIFT ? PLAT_MOD_SHIFT : 0) | (m & KMOD_CTRL ? PLAT_MOD_CTRL : 0) |
           (m & KMOD_ALT ? PLAT_MOD_ALT : 0);
}

static void update_scale(plat_window *win)
{
    int ww, wh, dw, dh;
    SDL_GetWindowSize(win->window, &ww, &wh);
    SDL_GL_GetDrawableSize(win->window, &dw, &dh);
    win->scale_x = ww > 0 ? (float)dw / (float)ww : 1.0f;
    win->scale_y = wh > 0 ? (float)dh / (float)wh : 1.0f;
}

static bool translate(plat_window *win, const SDL_Event *e, plat_event *ev)
{
    memset(ev, 0, sizeof *ev);
    switch (e->type) {
    case SDL_MOUSEMOTION:
        ev->type = PLAT_EVENT_MOUSE_MOVE;
        ev->x = (int)((float)e->motion.x * win->scale_x);
        ev->y = (int)((float)e->motion.y * win->scale_y);
        ev->button = (e->motion.state & SDL_BUTTON_LMASK) ? 1 : 0;
        ev->mods = map_mods(SDL_GetModState());
        return true;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        ev->type = e->type == SDL_MOUSEBUTTONDOWN ? PLAT_EVENT_MOUSE_DOWN : PLAT_EVENT_MOUSE_UP;
        ev->x = (int)((float)e->button.x * win->scale_x);
        ev->y = (int)((float)e->button.y * win->scale_y);
        ev->button = e->button.button;
        ev->mods = map_mods(SDL_GetModState());
        return true;
    case SDL_MOUSEWHEEL:
        ev->type = PLAT_EVENT_WHEEL;
        ev->wheel = e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y;
        SDL_GetMouseState(&ev->x, &ev->y);
        ev->x = (int)((float)ev->x * win->scale_x);
        ev->y = (int)((float)ev->y * win->scale_y);
        return ev->wheel != 0;
    case SDL_QUIT: ev->type = PLAT_EVENT_QUIT; return true;
    case SDL_KEYDOWN:
        ev->key = map_key(e->key.keysym.sym);
        if (!ev->key)
            return false;
        ev->mods = map_mods(e->key.keysym.mod);
        /* the shifted symbols of a US keyboard that convis uses */
        if (ev->mods & PLAT_MOD_SHIFT) {
            if (ev->key == '/')
                ev->key = '?';
            else if (ev->key == '=')
                ev->key = '+';
        }
        ev->type = PLAT_EVENT_KEY;
        return true;
    case SDL_DROPFILE:
        ev->type = PLAT_EVENT_DROP;
        snprintf(ev->path, sizeof ev->path, "%s", e->drop.file);
        SDL_free(e->drop.file);
        return true;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
            update_scale(win);
            ev->type = PLAT_EVENT_RESIZE;
            return true;
        }
        if (e->window.event == SDL_WINDOWEVENT_LEAVE) {
            ev->type = PLAT_EVENT_LEAVE;
            return true;
        }
        if (e->window.event == SDL_WINDOWEVENT_EXPOSED) {
            ev->type = PLAT_EVENT_EXPOSE;
            return true;
        }
        return false;
    default: return false;
    }
}

bool plat_next_event(plat_window *win, int timeout_ms, plat_event *ev)
{
    SDL_Event e;
    while (timeout_ms > 0 ? SDL_WaitEventTimeout(&e, timeout_ms) : SDL_PollEvent(&e)) {
        if (translate(win, &e, ev))
            return true;
        timeout_ms = 0; /* after one uninteresting event, only drain the queue */
    }
    return false;
}

void plat_set_vsync(plat_window *win, bool on)
{
    (void)win;
    SDL_GL_SetSwapInterval(on ? 1 : 0);
}

const char *plat_base_path(void)
{
    static char path[4096];
    if (!path[0]) {
        char *p = SDL_GetBasePath();
        if (p) {
            snprintf(path, sizeof path, "%s", p);
            SDL_free(p);
        }
    }
    return path;
}
