/* tiles.c - convolving an image in tiles that fit a memory budget (tiles.h). */
#include "tiles.h"

#include <stdio.h>
#include <string.h>

#include "core/err.h"

long long tile_image_bytes(const conv_params *p, int w, int h)
{
    return ((long long)w * h + (long long)conv_out_w(p, w) * conv_out_h(p, h)) * (long long)sizeof(float);
}

/* The input a tile of tw x th outputs reads: its gathered plane's size. */
static void gather_size(const tile_window *g, int tw, int th, int *gw, int *gh)
{
    if (g->plain) { /* the outputs and a halo of the window's reach */
        *gw = tw + g->kw - 1, *gh = th + g->kh - 1;
        return;
    }
    *gw = (tw - 1) * g->stride + g->dilation * (g->kw - 1) + 1;
    *gh = (th - 1) * g->stride + g->dilation * (g->kh - 1) + 1;
}

tile_window tile_window_of(const conv_params *p)
{
    tile_window g = {p->kw, p->kh, p->stride, p->dilation, p->pad_x, p->pad_y, conv_plain(p)};
    return g;
}

long long tile_bytes(const tile_window *g, int w, int h)
{
    int gw, gh;
    gather_size(g, w, h, &gw, &gh);
    /* plain: the engine computes the halo's outputs too (dropped), else just the tile's */
    return ((long long)gw * gh + (g->plain ? (long long)gw * gh : (long long)w * h)) * (long long)sizeof(float);
}

/* The largest n in [1, most] with tile_bytes of fixed x n (or n x fixed)
 * within budget; 0 when not even 1 fits. */
static int largest_side(const tile_window *g, int fixed, int most, bool grow_h, long long budget)
{
    int lo = 0, hi = most;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        long long b = grow_h ? tile_bytes(g, fixed, mid) : tile_bytes(g, mid, fixed);
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

bool tile_plan_make(int in_w, int in_h, const conv_params *cp, long long budget, tile_plan *p)
{
    tile_window g = tile_window_of(cp);
    int w = conv_out_w(cp, in_w), h = conv_out_h(cp, in_h);
    int lo = 0, hi = w > h ? w : h, tw, th;
    char b1[32];
    memset(p, 0, sizeof *p);
    if (in_w < 1 || in_h < 1)
        return err_set("there is no image to tile");
    if (!conv_output_size(cp, in_w, in_h, &w, &h))
        return false;
    if (budget < tile_bytes(&g, 1, 1))
        return err_set("a memory budget of %s cannot hold even a one-pixel tile with its halo (%lld bytes)",
                       mib(budget, b1, sizeof b1), tile_bytes(&g, 1, 1));
    /* the largest square tile (cut to the output) that fits */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (tile_bytes(&g, mid < w ? mid : w, mid < h ? mid : h) <= budget)
            lo = mid;
        else
            hi = mid - 1;
    }
    tw = lo < w ? lo : w;
    th = lo < h ? lo : h;
    /* a side that spans the image lets the other grow */
    if (tw == w)
        th = largest_side(&g, w, h, true, budget);
    else if (th == h)
        tw = largest_side(&g, h, w, false, budget);
    p->w = w;
    p->h = h;
    p->in_w = in_w, p->in_h = in_h;
    p->window = g;
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

/* Fills `up` with the input tile i's outputs read (gather_size; the cells
 * past the image's edge by the border rule), allocated or reallocated here
 * (false with err_msg when memory runs out). */
static bool tile_gather(const img_plane *in, const tile_plan *p, int i, int border, img_plane *up)
{
    const tile_window *g = &p->window;
    int x0, y0, w, h, gw, gh, left, top;
    tile_rect(p, i, &x0, &y0, &w, &h);
    gather_size(g, w, h, &gw, &gh);
    left = g->plain ? x0 - g->kw / 2 : x0 * g->stride - g->pad_x;
    top = g->plain ? y0 - g->kh / 2 : y0 * g->stride - g->pad_y;
    if (!plane_sized(up, gw, gh))
        return false;
    for (int y = 0; y < gh; ++y) {
        int sy = top + y;
        float *row = up->px + (long)y * gw;
        if (sy >= 0 && sy < in->h && left >= 0 && left + gw <= in->w) { /* wholly inside: one copy */
            memcpy(row, in->px + (long)sy * in->w + left, (size_t)gw * sizeof(float));
            continue;
        }
        for (int x = 0; x < gw; ++x)
            row[x] = conv_sample(in->px, in->w, in->h, left + x, sy, border);
    }
    return true;
}

/* Copies tile i's outputs from `res` (the engine's result on the gathered
 * plane: a halo around them on the plain geometry, none else) into `out`,
 * the whole image's result. */
static void tile_scatter(const img_plane *res, const tile_plan *p, int i, img_plane *out)
{
    int x0, y0, w, h, rx = p->window.plain ? p->window.kw / 2 : 0, ry = p->window.plain ? p->window.kh / 2 : 0;
    tile_rect(p, i, &x0, &y0, &w, &h);
    for (int y = 0; y < h; ++y)
        memcpy(out->px + (long)(y0 + y) * out->w + x0, res->px + (long)(y + ry) * res->w + rx,
               (size_t)w * sizeof(float));
}

bool tile_run(eng_engine *e, const eng_job *job, const tile_plan *p, int i, img_plane *up, img_plane *down,
              eng_timing *timing)
{
    eng_job t = {up, down, job->params};
    if (!p->window.plain) /* the gathered plane holds exactly the windows: no padding is left to add */
        conv_params_set_geometry(&t.params, job->params.stride, job->params.dilation, CONV_PAD_VALID);
    if (!tile_gather(job->in, p, i, job->params.border, up) ||
        !plane_sized(down, conv_out_w(&t.params, up->w), conv_out_h(&t.params, up->h)))
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
