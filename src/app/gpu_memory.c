/* gpu_memory.c - the GPU phase's memory (gpu_phase.h): how much the device
 * holds, the budget the learner lets it have, whether an image needs tiles
 * under it, and the image just too big for the device. Part of the GPU
 * phase: with gpu_phase.c the only writer of scene.gpu (its budget). */
#include "scene_feature.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "core/err.h"
#include "format.h"
#include "i18n.h"

static const long long budgets[SCENE_BUDGET_COUNT] = {0, 1LL << 20, 4LL << 20, 16LL << 20, 64LL << 20, 256LL << 20};

long long scene_budget_at(int i)
{
    return i >= 0 && i < SCENE_BUDGET_COUNT ? budgets[i] : 0;
}

long long scene_image_bytes(const scene *s)
{
    conv_params p;
    if (!s->img.luma.px)
        return 0;
    p = scene_params(s);
    return tile_image_bytes(&p, s->img.luma.w, s->img.luma.h);
}

long long scene_gpu_max_pixels(const scene *s)
{
    const eng_device_info *d = &s->gpu.device;
    long long most = -1;
    if (!s->gpu.device_known)
        return -1;
    if (d->memory_free > 0) /* what convis holds now is free again for a new image */
        most = (d->memory_free + d->memory_engine) / 8;
    if (d->max_buffer > 0 && (most < 0 || d->max_buffer / 4 < most))
        most = d->max_buffer / 4; /* one float buffer must hold the image */
    return most;
}

bool scene_gpu_largest_text(const scene *s, char *buf, size_t size)
{
    long long most = scene_gpu_max_pixels(s), k;
    char px[32], w[32], h[32];
    if (most < 0)
        return false;
    fmt_count(most, px, sizeof px);
    k = (long long)sqrt((double)most / 12.0); /* 4k x 3k = 12 k^2 pixels, the largest that fit */
    while (k > 0 && 12 * k * k > most)
        --k;
    while (12 * (k + 1) * (k + 1) <= most)
        ++k;
    if (k < 1) {
        snprintf(buf, size, _("%s pixels"), px);
        return true;
    }
    fmt_count(4 * k, w, sizeof w);
    fmt_count(3 * k, h, sizeof h);
    snprintf(buf, size, _("%s pixels (for example a 4:3 photo of %s×%s)"), px, w, h);
    return true;
}

bool scene_gpu_fits(const scene *s, char *why, size_t size)
{
    eng_device_info d;
    long long one = scene_image_bytes(s) / 2, most;
    char need[32], need_b[32], has[32], has_b[32];
    if (!s->gpu.eng.engine || !s->img.luma.px || !eng_device(s->gpu.eng.engine, &d))
        return true;
    fmt_count(one, need, sizeof need);
    fmt_bytes(one, need_b, sizeof need_b);
    if (d.max_buffer > 0 && one > d.max_buffer) {
        fmt_count(d.max_buffer, has, sizeof has);
        fmt_bytes(d.max_buffer, has_b, sizeof has_b);
        snprintf(why, size, _("a %d×%d image needs %s bytes (%s) in one buffer; %s allows %s bytes (%s)"),
                 s->img.luma.w, s->img.luma.h, need, need_b, d.name, has, has_b);
        return false;
    }
    most = d.memory_free > 0 ? d.memory_free + d.memory_engine : -1; /* what convis holds is free again */
    if (most > 0 && 2 * one > most) {
        fmt_count(2 * one, need, sizeof need);
        fmt_bytes(2 * one, need_b, sizeof need_b);
        fmt_count(most, has, sizeof has);
        fmt_bytes(most, has_b, sizeof has_b);
        snprintf(why, size,
                 _("a %d×%d image needs %s bytes (%s) for its input and output; %s has %s bytes (%s) free for them"),
                 s->img.luma.w, s->img.luma.h, need, need_b, d.name, has, has_b);
        return false;
    }
    return true;
}

bool scene_gpu_unfit(const scene *s)
{
    return s->gpu.unfit_w > 0 && s->gpu.unfit_w == s->img.luma.w && s->gpu.unfit_h == s->img.luma.h &&
           !s->gpu.eng.measured;
}

long long scene_tile_budget(const scene *s)
{
    long long most = scene_gpu_max_pixels(s), b = s->gpu.budget;
    if (most > 0 && (b <= 0 || most * 8 < b))
        b = most * 8; /* both buffers of a tile must fit the device too */
    return b;
}

bool scene_needs_tiles(const scene *s)
{
    return s->img.luma.px && s->gpu.budget > 0 && scene_image_bytes(s) > scene_tile_budget(s);
}

/* The size of an image just over what the GPU can hold, of the image's
 * own aspect (a square where there is none): the fewest rows for that
 * aspect, then the fewest columns that take it over. False when that is not
 * known (no GPU run yet). */
static bool too_big_size(const scene *s, long long *w, long long *h)
{
    long long most = scene_gpu_max_pixels(s);
    double aspect = s->img.luma.px && s->img.luma.h > 0 ? (double)s->img.luma.w / s->img.luma.h : 1.0;
    if (most < 0)
        return false;
    *h = llround(sqrt((double)most / aspect));
    if (*h < 1)
        *h = 1;
    *w = most / *h + 1; /* w * h > most, (w - 1) * h <= most */
    return true;
}

long long scene_too_big_pixels(const scene *s)
{
    long long w, h;
    if (!too_big_size(s, &w, &h))
        return s->opt.limits.max_pixels; /* not known yet: at most convis's own limit */
    if (w * h > s->opt.limits.max_pixels || w > s->opt.limits.max_side || h > s->opt.limits.max_side)
        return 0;
    return w * h;
}

void scene_too_big(scene *s)
{
    long long limit = s->opt.limits.max_pixels, w, h;
    img_plane big;
    img_image img;
    char msg[256];
    if (!s->img.luma.px)
        return;
    if (!too_big_size(s, &w, &h)) {
        scene_notice(s, _("launch the GPU phase first (G): how much it can hold is read from it"));
        return;
    }
    if (w * h > limit || w > s->opt.limits.max_side || h > s->opt.limits.max_side) {
        snprintf(msg, sizeof msg,
                 _("an image too large for this GPU (%d×%d) is over convis's own limit of %lld pixels: every image "
                   "convis opens fits here"),
                 (int)(w < INT_MAX ? w : INT_MAX), (int)(h < INT_MAX ? h : INT_MAX), limit);
        scene_notice(s, msg);
        return;
    }
    if (!img_plane_scaled(&s->img.luma, (int)w, (int)h, &big)) {
        scene_say_error(s, err_msg());
        return;
    }
    if (!img_from_plane(&big, &img)) {
        img_plane_free(&big);
        scene_say_error(s, err_msg());
        return;
    }
    img_plane_free(&big);
    snprintf(msg, sizeof msg, _("a %d×%d test image"), (int)w, (int)h);
    /* it opens in the CPU phase, the GPU not yet tried on it: G does that */
    s->gpu.eng.measured = false;
    scene_adopt_image(s, &img, msg);
}

/* ---- the budget ------------------------------------------------------------------ */

void scene_next_budget(scene *s)
{
    int i = 0;
    while (i < SCENE_BUDGET_COUNT && budgets[i] != s->gpu.budget)
        ++i;
    scene_set_budget(s, budgets[(i + 1) % SCENE_BUDGET_COUNT]);
}

void scene_set_budget(scene *s, long long bytes)
{
    char msg[256], b[32], need[32];
    bool rerun = s->gpu.eng.measured || s->phase == SCENE_PHASE_GPU || s->tiles.on;
    s->gpu.budget = bytes > 0 ? bytes : 0;
    scene_changed(s, SCENE_CHANGE_BUDGET); /* tiles under way stop, to run again under the new budget */
    fmt_bytes(s->gpu.budget, b, sizeof b);
    fmt_bytes(scene_image_bytes(s), need, sizeof need);
    if (s->gpu.budget == 0)
        snprintf(msg, sizeof msg, "%s", _("memory budget off: the GPU may use all the memory it has"));
    else if (scene_needs_tiles(s))
        snprintf(msg, sizeof msg,
                 _("memory budget %s (pretend the GPU has no more): this image needs %s, so the GPU works through it "
                   "in tiles"),
                 b, need);
    else
        snprintf(msg, sizeof msg, _("memory budget %s (pretend the GPU has no more): this image needs %s and fits"), b,
                 need);
    scene_notice(s, msg);
    if (rerun)
        s->gpu.stale = true; /* the GPU phase again, under the new budget */
    if (!scene_needs_tiles(s))
        scene_tiles_end(s);
}
