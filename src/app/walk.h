/* walk.h - the CPU's walk, one output at a time: the stepper, play and
 * pause, the speed and the taps owed between frames. walk.c is the only
 * writer of scene.walk; everything else reads it as const. */
#ifndef CONVIS_WALK_H
#define CONVIS_WALK_H

#include "core/stepper.h"
#include "scene_types.h"

#define SCENE_MIN_SPEED 1.0 /* outputs a second */
#define SCENE_MAX_SPEED 8192.0
#define SCENE_DEFAULT_SPEED 4.0

typedef struct scene_walk {
    conv_stepper stepper;
    bool playing;
    double speed;     /* outputs a second */
    double owed_taps; /* fractional taps carried between frames */
    /* Outputs before redo_from may have changed since generation redo (a
     * step back, a restart, a display change): what the view drew of the
     * walk's output from there on must be drawn again. */
    unsigned long redo;
    long redo_from;
} scene_walk;

void scene_play(scene *s); /* play / pause */
void scene_tap(scene *s);  /* one tap forward */
void scene_step(scene *s); /* one output forward */
void scene_back(scene *s); /* one output back */
void scene_faster(scene *s);
void scene_slower(scene *s);
void scene_set_speed(scene *s, double outputs_a_second); /* clamped */
void scene_finish(scene *s);                             /* every remaining output now */
void scene_restart(scene *s);                            /* back to the CPU phase, output 0 */
void scene_redraw_walk(scene *s); /* what the view drew of the walk is drawn again (display changed) */

long scene_cpu_done(const scene *s); /* outputs of the CPU phase done so far */

#endif
