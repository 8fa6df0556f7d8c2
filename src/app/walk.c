/* walk.c - the CPU's walk, one output at a time (walk.h): the only writer
 * of scene.walk. */
#include "scene_feature.h"

/* Outputs from `from` on may differ from what the view drew. */
static void redo_from(scene *s, long from)
{
    ++s->walk.redo;
    s->walk.redo_from = from;
}

/* Keeps the stepper's current output inside the region shown. */
static void follow_stepper(scene *s)
{
    int x = conv_stepper_x(&s->walk.stepper), y = conv_stepper_y(&s->walk.stepper);
    int n = s->view_cells;
    if (x < s->view_x || x >= s->view_x + n || y < s->view_y || y >= s->view_y + n)
        scene_view_at(s, x - x % n, y - y % n);
}

/* Stepping goes back to the walk; false without an image. */
static bool cpu_phase(scene *s)
{
    if (!s->img.luma.px)
        return false;
    scene_set_phase(s, SCENE_PHASE_CPU);
    return true;
}

void scene_play(scene *s)
{
    if (!cpu_phase(s))
        return;
    if (conv_stepper_done(&s->walk.stepper)) {
        conv_stepper_restart(&s->walk.stepper);
        redo_from(s, 0);
    }
    s->walk.playing = !s->walk.playing;
}

void scene_tap(scene *s)
{
    if (!cpu_phase(s))
        return;
    s->walk.playing = false;
    conv_stepper_tap(&s->walk.stepper);
    follow_stepper(s);
}

void scene_step(scene *s)
{
    if (!cpu_phase(s))
        return;
    s->walk.playing = false;
    conv_stepper_output(&s->walk.stepper);
    follow_stepper(s);
}

void scene_back(scene *s)
{
    if (!cpu_phase(s))
        return;
    s->walk.playing = false;
    conv_stepper_back(&s->walk.stepper);
    redo_from(s, s->walk.stepper.index);
    follow_stepper(s);
}

void scene_faster(scene *s)
{
    s->walk.speed = s->walk.speed * 2 > SCENE_MAX_SPEED ? SCENE_MAX_SPEED : s->walk.speed * 2;
}

void scene_slower(scene *s)
{
    s->walk.speed = s->walk.speed / 2 < SCENE_MIN_SPEED ? SCENE_MIN_SPEED : s->walk.speed / 2;
}

void scene_set_speed(scene *s, double outputs_a_second)
{
    double v = outputs_a_second;
    s->walk.speed = v > SCENE_MAX_SPEED ? SCENE_MAX_SPEED : v < SCENE_MIN_SPEED ? SCENE_MIN_SPEED : v;
}

void scene_finish(scene *s)
{
    if (!cpu_phase(s))
        return;
    s->walk.playing = false;
    conv_stepper_finish(&s->walk.stepper);
}

void scene_restart(scene *s)
{
    if (!s->img.luma.px)
        return;
    scene_set_phase(s, SCENE_PHASE_CPU);
    scene_unpin(s);
    s->walk.playing = false;
    conv_stepper_restart(&s->walk.stepper);
    redo_from(s, 0);
    follow_stepper(s);
}

long scene_cpu_done(const scene *s)
{
    return s->img.luma.px ? conv_stepper_done_count(&s->walk.stepper) : 0;
}

/* ---- its row of the feature table ------------------------------------------- */

static void reset(scene *s)
{
    s->walk.speed = SCENE_DEFAULT_SPEED;
}

static void keep(const scene *s, scene_stash *st)
{
    st->speed = s->walk.speed;
}

static void restore(scene *s, const scene_stash *st)
{
    s->walk.speed = st->speed;
}

static void changed(scene *s, scene_change what)
{
    conv_params p;
    if (what == SCENE_CHANGE_DISPLAY) {
        redo_from(s, 0);
        return;
    }
    if (what == SCENE_CHANGE_TASK || what == SCENE_CHANGE_LAUNCH || what == SCENE_CHANGE_IMAGE ||
        (what == SCENE_CHANGE_PHASE && s->phase != SCENE_PHASE_CPU))
        s->walk.playing = false;
    if (!scene_change_input(what))
        return;
    p = scene_params(s);
    conv_stepper_init(&s->walk.stepper, &s->img.luma, &p, &s->cpu_out);
    redo_from(s, 0);
    s->walk.owed_taps = 0;
}

static void advance(scene *s, double dt_ms)
{
    long taps;
    if (!s->walk.playing || s->phase != SCENE_PHASE_CPU || !s->img.luma.px)
        return;
    if (dt_ms > 250)
        dt_ms = 250; /* after a stall, do not jump ahead */
    s->walk.owed_taps += s->walk.speed * s->walk.stepper.count * dt_ms / 1000.0;
    taps = (long)s->walk.owed_taps;
    s->walk.owed_taps -= (double)taps;
    while (taps-- > 0) {
        if (!conv_stepper_tap(&s->walk.stepper)) {
            s->walk.playing = false;
            break;
        }
    }
    follow_stepper(s);
}

static bool animating(const scene *s, double now)
{
    (void)now;
    return s->walk.playing && s->phase == SCENE_PHASE_CPU;
}

static void state(const scene *s, FILE *f)
{
    fprintf(f, "output=%ld\nx=%d\ny=%d\ntaps=%d\n", s->walk.stepper.index, conv_stepper_x(&s->walk.stepper),
            conv_stepper_y(&s->walk.stepper), s->walk.stepper.taps);
    fprintf(f, "done=%ld\ntotal=%ld\n", scene_cpu_done(s), (long)s->img.luma.w * s->img.luma.h);
    fprintf(f, "playing=%d\nspeed=%g\n", s->walk.playing, s->walk.speed);
}

const scene_feature scene_walk_feature = {
    .name = "walk",
    .reset = reset,
    .keep = keep,
    .restore = restore,
    .changed = changed,
    .advance = advance,
    .animating = animating,
    .state = state,
};
