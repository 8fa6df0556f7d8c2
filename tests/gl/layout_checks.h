/* layout_checks.h - what test_layout and test_room check in a frame drawn
 * with its text recorded: its text boxes and its places to click. */
#ifndef CONVIS_TEST_LAYOUT_CHECKS_H
#define CONVIS_TEST_LAYOUT_CHECKS_H

#include "frame.h"
#include "view.h"

/* The app of window win in language lang, as the window opens (the filter
 * `kernel`, or the default one when NULL; |value| display) on the sample
 * image, and playing the lesson at path when it is not NULL; false, with
 * err_msg() saying why, when it could not be made. */
bool lc_app_start(app_window *win, const char *lang, const char *lesson, const char *kernel);

/* The same on a machine without a GPU engine (neither CUDA nor OpenGL
 * compute opens, each saying why), the default filter. */
bool lc_app_start_no_gpu(app_window *win, const char *lang, const char *lesson);

/* The problems of the frame's text boxes within a w x h window (two runs
 * of text overlapping on one layer, a notice over any text on any layer,
 * one outside the window, runs not recorded), printed after `what` (at
 * most five); returns how many; *runs: the runs. */
int check_boxes(const char *what, int w, int h, int *runs);

/* The places to click the frame listed, each hit at its middle: the hit
 * test must give that place's action (and index), not one drawn over it.
 * Prints the problems (at most three); returns how many. */
int check_targets(const char *what, const view *v);

#endif
