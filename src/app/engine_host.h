/* engine_host.h - what the app gives the engines before they can run: the
 * shaders folder, and for an engine that computes with OpenGL
 * (eng_class.needs_gl_context) a current GL context.
 *
 * The window has a context of its own. The command line (`convis engines`,
 * `convis apply`) has none, so for such an engine, and only for it, a hidden
 * window is opened on first need and kept until app_engine_host_close():
 * on the display, or offscreen through EGL where there is none (a headless
 * server's GPU). CPU engines never open a window. */
#ifndef CONVIS_ENGINE_HOST_H
#define CONVIS_ENGINE_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "compute/engine.h"

/* eng_probe, after providing what `cls` needs. On false `why` holds the
 * reason, e.g. "cannot create an OpenGL context: ...". */
bool app_engine_probe(const eng_class *cls, char *why, size_t size);

/* eng_open, after providing what `cls` needs; NULL with err_msg() reading
 * "engine 'x' is unavailable: <reason>". */
eng_engine *app_engine_open(const eng_class *cls);

/* app_engine_open that also leaves the bare reason in `why`. */
eng_engine *app_engine_open_reason(const eng_class *cls, char *why, size_t size);

/* The engine named `name`, opened as above: the scene host's open_engine
 * (scene.h) for the window and `convis record`. */
eng_engine *app_host_open_engine(void *user, const char *name, char *why, size_t size);

/* Whether the hidden window's context is offscreen (no display: EGL). */
bool app_engine_host_offscreen(void);

/* Closes the hidden window, if one was opened. Close the engines first: their
 * GL objects live in its context. */
void app_engine_host_close(void);

#endif
