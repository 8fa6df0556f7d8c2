/* window_loop.h - the window a person uses, until it quits. */
#ifndef CONVIS_WINDOW_LOOP_H
#define CONVIS_WINDOW_LOOP_H

#include "frame.h"

/* Runs the window's loop until the app quits: events become actions,
 * frames are drawn when something changed, long work goes in slices
 * between them. Returns the exit status (0). */
int app_window_run(app_window *w);

#endif
