/* tiles.c - convolving an image in tiles that fit a memory budget (tiles.h). */
#include "tiles.h"

#include <stdio.h>
#include <string.h>

#include "core/err.h"

long long tile_image_bytes(int w, int h)
{
    return 2LL * w * h * (long long)sizeof(float);
}

long long tile_bytes(int w, int h)
{
    return 2LL * (w + 2) * (h + 2) * (long long)sizeof(float);
}

/* The largest n in [1, most] with tile_bytes of fixed x n (or n x fixed)
 * within budget; 0 when not even 1 fits. */
static int largest_side(int fixed, int most, bool grow_h, long long budget)
{
    int lo = 0, hi = most;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        long long b = grow_h ? tile_bytes(fixed, mid) : tile_bytes(mid, fixed);
        if (b <= budget)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static char *mib(long long bytes, char *buf, size_t size)
{
    if (bytes >= 1 << 20)
        snprintf(buf, size, "%.2f MiB", (double)bytes / (1 << 20));
    else
        snprintf(buf, size, "%.1f KiB", (double)bytes / 1024);
    return buf;
}

bool tile_plan_make(int w, int h, long long budget, tile_plan *p)
{
    int lo = 0, hi = w > h ? w : h, tw, th;
    char b1[32];
    memset(p, 0, sizeof *p);
    if (w < 1 || h < 1)
        return err_set("there is no image to tile");
    if (budget < tile_bytes(1, 1))
        return err_set("a memory budget of %s cannot hold even a one-pixel tile with its halo (%lld bytes)",
                       mib(budget, b1, sizeof b1), tile_bytes(1, 1));
    /* the largest square tile (cut to the image) that fits */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (tile_bytes(mid < w ? mid : w, mid < h ? mid : h) <= budget)
            lo = mid;
        else
            hi = mid - 1;
    }
    tw = lo < w ? lo : w;
    th = lo < h ? lo : h;
    /* a side that spans the image lets the other grow */
    if (tw == w)
        th = largest_side(w, h, true, budget);
    else if (th == h)
        tw = largest_side(h, w, false, budget);
    p->w = w;
    p->h = h;
    p->cols = (w + tw - 1) / tw;
    p->rows = (h + th - 1) / th;
    /* even tiles: the same count, none much smaller than the others */
    p->tile_w = (w + p->cols - 1) / p->cols;
    p->tile_h = (h + p->rows - 1) / p->rows;
    p->budget = budget;
    if ((long long)p->cols * p->rows > TILE_MAX_COUNT) {
        long long n = (long long)p->cols * p->rows;
        memset(p, 0, sizeof *p);
        return err_set("a memory budget of %s would cut this %d\xC3\x97%d image into %lld tiles, more than the %d "
                       "convis draws: choose a larger budget",
                       mib(budget, b1, sizeof b1), w, h, n, TILE_MAX_COUNT);
    }
    return true;
}

int tile_count(const tile_plan *p)
{
    return p->cols * p->rows;
}

void tile_rect(const tile_plan *p, int i, int *x, int *y, int *w, int *h)
{
    int col = i % p->cols, row = i / p->cols;
    *x = col * p->tile_w;
    *y = row * p->tile_h;
    *w = p->w - *x < p->tile_w ? p->w - *x : p->tile_w;
    *h = p->h - *y < p->tile_h ? p->h - *y : p->tile_h;
}

int tile_of(const tile_plan *p, int x, int y)
{
    return (y / p->tile_h) * p->cols + x / p->tile_w;
}

/* Makes `pl` a w x h plane, reusing it when it has that size. */
static bool plane_sized(img_plane *pl, int w, int h)
{
    if (pl->px && pl->w == w && pl->h == h)
        return true;
    img_plane_free(pl);
    return img_plane_alloc(pl, w, h);
}

/* Fills `halo` with tile i's input and its halo ((w+2) x (h+2), allocated
 * or reallocated here; false with err_msg when memory runs out). */
static bool tile_gather(const img_plane *in, const tile_plan *p, int i, int border, img_plane *halo)
{
    int x0, y0, w, h;
    tile_rect(p, i, &x0, &y0, &w, &h);
    if (!plane_sized(halo, w + 2, h + 2))
        return false;
    for (int y = 0; y < h + 2; ++y) {
        int sy = y0 + y - 1;
        float *row = halo->px + (long)y * (w + 2);
        if (sy >= 0 && sy < in->h && x0 >= 1 && x0 + w + 1 <= in->w) { /* wholly inside: one copy */
            memcpy(row, in->px + (long)sy * in->w + x0 - 1, (size_t)(w + 2) * sizeof(float));
            continue;
        }
        for (int x = 0; x < w + 2; ++x)
            row[x] = conv_sample(in->px, in->w, in->h, x0 + x - 1, sy, border);
    }
    return true;
}

/* Copies the inner outputs of `halo_out` (tile i's result, halo included)
 * into `out`, the whole image's result. */
static void tile_scatter(const img_plane *halo_out, const tile_plan *p, int i, img_plane *out)
{
    int x0, y0, w, h;
    tile_rect(p, i, &x0, &y0, &w, &h);
    for (int y = 0; y < h; ++y)
        memcpy(out->px + (long)(y0 + y) * out->w + x0, halo_out->px + (long)(y + 1) * (w + 2) + 1,
               (size_t)w * sizeof(float));
}

bool tile_run(eng_engine *e, const eng_job *job, const tile_plan *p, int i, img_plane *up, img_plane *down,
              eng_timing *timing)
{
    eng_job t = {up, down, job->params};
    if (!tile_gather(job->in, p, i, job->params.border, up) || !plane_sized(down, up->w, up->h))
        return false;
    if (!eng_run(e, &t, timing))
        return false;
    tile_scatter(down, p, i, job->out);
    return true;
}

void tile_timing_add(eng_timing *sum, const eng_timing *tile)
{
    for (int k = 0; k < ENG_PHASE_COUNT; ++k)
        if (tile->has[k]) {
            sum->ms[k] += tile->ms[k];
            sum->has[k] = true;
        }
    sum->reps = 1;
    sum->clock = tile->clock;
    sum->launch = tile->launch;
    sum->result = tile->result;
}

bool tile_run_all(eng_engine *e, const eng_job *job, const tile_plan *p, eng_timing *timing)
{
    img_plane up = {0}, down = {0};
    bool ok = true;
    memset(timing, 0, sizeof *timing);
    for (int i = 0; ok && i < tile_count(p); ++i) {
        eng_timing t;
        ok = tile_run(e, job, p, i, &up, &down, &t);
        if (ok)
            tile_timing_add(timing, &t);
    }
    timing->total_px = (long long)p->w * p->h;
    img_plane_free(&up);
    img_plane_free(&down);
    return ok;
}
