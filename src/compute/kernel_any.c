/* kernel_any.c - one interior block of each tiled strategy, any window,
 * counted from its index arithmetic. See kernel_any.h. */
#include "kernel_any.h"

#include <string.h>

#include "../../kernels/conv3x3_body.h"
#include "core/err.h"
#include "kernel_walk.h"

/* The image the block sits in: rows PITCH floats long (a whole number of
 * 128-byte lines), the outputs' corner at (X0, Y0), on a line. */
#define PITCH 8192
#define X0 256
#define Y0 64

typedef struct lanes {
    long long index[KW_WARP]; /* global element (floats) */
    int word[KW_WARP];        /* shared word */
    bool on[KW_WARP];
} lanes;

static int sectors(const lanes *l)
{
    long long seen[KW_WARP];
    int n = 0;
    for (int i = 0; i < KW_WARP; ++i) {
        bool dup = false;
        if (!l->on[i])
            continue;
        for (int j = 0; j < n && !dup; ++j)
            dup = seen[j] == l->index[i] * 4 / KW_SECTOR;
        if (!dup)
            seen[n++] = l->index[i] * 4 / KW_SECTOR;
    }
    return n;
}

static int active(const lanes *l)
{
    int n = 0;
    for (int i = 0; i < KW_WARP; ++i)
        n += l->on[i];
    return n;
}

static void global_load(kwa_mem *m, const lanes *l)
{
    int n = active(l);
    if (!n)
        return;
    ++m->requests;
    m->loads += n;
    m->sectors += sectors(l);
}

static void shared_op(kwa_mem *m, const lanes *l, bool store)
{
    int p;
    if (!active(l))
        return;
    p = kw_wavefronts(l->word, l->on);
    if (store) {
        ++m->shared_stores;
        m->shared_store_passes += p;
        return;
    }
    ++m->shared_reads;
    m->shared_read_passes += p;
    m->worst_read_passes = p > m->worst_read_passes ? p : m->worst_read_passes;
}

static long long at(int x, int y)
{
    return (long long)(Y0 + y) * PITCH + X0 + x;
}

/* Thread l of the block: (tx, ty), or false past its threads. */
static bool thread_of(int k, int i, int bdx, int bdy, int *tx, int *ty)
{
    int l = k * KW_WARP + i;
    *tx = l % bdx;
    *ty = l / bdx;
    return l < bdx * bdy;
}

static void walk_naive(const kwa_block *b, int k, kwa_mem *m)
{
    for (int j = 0; j < b->kh; ++j)
        for (int i = 0; i < b->kw; ++i) { /* tap (i, j): conv_pixel's order */
            lanes l;
            for (int n = 0; n < KW_WARP; ++n) {
                int tx, ty;
                l.on[n] = thread_of(k, n, b->bdx, b->bdy, &tx, &ty);
                l.index[n] = at(tx + i - b->kw / 2, ty + j - b->kh / 2);
            }
            global_load(m, &l);
        }
}

/* conv_tiled_any: convk_tile_load_body's loop, one warp instruction an
 * iteration (row step ri, column step ci), then convk_tile_compute_body's
 * kw*kh reads. */
static void walk_tiled(const kwa_block *b, int k, kwa_mem *m)
{
    int kw = b->kw, kh = b->kh, bdx = b->bdx, bdy = b->bdy;
    for (int ri = 0; ri * bdy < b->tile_h; ++ri)
        for (int ci = 0; ci * bdx < b->tile_w; ++ci) {
            lanes l;
            for (int n = 0; n < KW_WARP; ++n) {
                int tx, ty, col, row;
                bool t = thread_of(k, n, bdx, bdy, &tx, &ty);
                col = tx + ci * bdx, row = ty + ri * bdy;
                l.on[n] = t && col < b->tile_w && row < b->tile_h;
                l.index[n] = at(col - kw / 2, row - kh / 2); /* convk_tile_source, inside the image */
                l.word[n] = l.on[n] ? convk_tile_index(col, row, bdx, kw) : 0;
            }
            global_load(m, &l);
            shared_op(m, &l, true);
        }
    for (int j = 0; j < kh; ++j)
        for (int i = 0; i < kw; ++i) {
            lanes l;
            for (int n = 0; n < KW_WARP; ++n) {
                int tx, ty;
                l.on[n] = thread_of(k, n, bdx, bdy, &tx, &ty);
                l.word[n] = l.on[n] ? convk_tile_index(tx + i, ty + j, bdx, kw) : 0;
            }
            shared_op(m, &l, false);
        }
}

/* PMPP's input tile: thread (tx, ty) loads the cell under it into
 * tile[ty][tx] (rows bdx words apart); those with kw/2 <= tx < bdx - kw/2
 * and kh/2 <= ty < bdy - kh/2 then read tile[ty - kh/2 + j][tx - kw/2 + i].
 * Here the tile's own corner is at (X0, Y0). */
static void walk_input(const kwa_block *b, int k, kwa_mem *m)
{
    int rx = b->kw / 2, ry = b->kh / 2, bdx = b->bdx, bdy = b->bdy;
    lanes l;
    for (int n = 0; n < KW_WARP; ++n) {
        int tx, ty;
        l.on[n] = thread_of(k, n, bdx, bdy, &tx, &ty);
        l.index[n] = at(tx, ty);
        l.word[n] = ty * bdx + tx;
    }
    global_load(m, &l);
    shared_op(m, &l, true);
    for (int j = 0; j < b->kh; ++j)
        for (int i = 0; i < b->kw; ++i) {
            for (int n = 0; n < KW_WARP; ++n) {
                int tx, ty;
                bool t = thread_of(k, n, bdx, bdy, &tx, &ty);
                l.on[n] = t && tx >= rx && tx < bdx - rx && ty >= ry && ty < bdy - ry;
                l.word[n] = l.on[n] ? (ty - ry + j) * bdx + tx - rx + i : 0;
            }
            shared_op(m, &l, false);
        }
}

/* PMPP's halo through the cache: thread (tx, ty) loads its own input into
 * tile[ty][tx]; tap (i, j) then reads the tile where (tx + i - kw/2,
 * ty + j - kh/2) lies in it and global memory where it does not: the warp
 * diverges, a shared read for some lanes and a global load for the others. */
static void walk_cached(const kwa_block *b, int k, kwa_mem *m, long long *halo)
{
    int bdx = b->bdx, bdy = b->bdy;
    lanes l, g;
    for (int n = 0; n < KW_WARP; ++n) {
        int tx, ty;
        l.on[n] = thread_of(k, n, bdx, bdy, &tx, &ty);
        l.index[n] = at(tx, ty);
        l.word[n] = ty * bdx + tx;
    }
    global_load(m, &l);
    shared_op(m, &l, true);
    for (int j = 0; j < b->kh; ++j)
        for (int i = 0; i < b->kw; ++i) {
            for (int n = 0; n < KW_WARP; ++n) {
                int tx, ty, cx, cy;
                bool t = thread_of(k, n, bdx, bdy, &tx, &ty), in;
                cx = tx + i - b->kw / 2, cy = ty + j - b->kh / 2;
                in = cx >= 0 && cx < bdx && cy >= 0 && cy < bdy;
                l.on[n] = t && in;
                l.word[n] = in ? cy * bdx + cx : 0;
                g.on[n] = t && !in;
                g.index[n] = at(cx, cy);
            }
            shared_op(m, &l, false);
            *halo += active(&g);
            global_load(m, &g);
        }
}

bool kwa_count(int kw, int kh, int bdx, int bdy, kwa_block *out)
{
    int ox, oy;
    memset(out, 0, sizeof *out);
    if (kw < 1 || kh < 1 || kw % 2 == 0 || kh % 2 == 0 || kw > CONV_MAX_SIDE || kh > CONV_MAX_SIDE)
        return err_set("a window of %dx%d taps has no kernel: each side is odd, 1 to %d", kw, kh, CONV_MAX_SIDE);
    if (bdx < 1 || bdy < 1 || bdx * bdy > 1024)
        return err_set("a block of %dx%d threads cannot run: a CUDA block has 1 to 1024 threads", bdx, bdy);
    if (4L * convk_tile_words(bdx, bdy, kw, kh) > 48 * 1024)
        return err_set("the tile of a %dx%d block for a %dx%d window takes %ld bytes of shared memory, over the 48 "
                       "KiB a block gets",
                       bdx, bdy, kw, kh, 4L * convk_tile_words(bdx, bdy, kw, kh));
    out->kw = kw, out->kh = kh, out->bdx = bdx, out->bdy = bdy;
    out->threads = bdx * bdy;
    out->warps = (out->threads + KW_WARP - 1) / KW_WARP;
    out->reads = (long long)out->threads * kw * kh;
    out->tile_w = convk_tile_w(bdx, kw);
    out->tile_h = convk_tile_h(bdy, kh);
    out->tile_stride = convk_tile_stride(bdx, kw);
    out->tile_cells = out->tile_w * out->tile_h;
    out->halo_cells = out->tile_cells - out->threads;
    ox = bdx - kw + 1, oy = bdy - kh + 1;
    out->input_outputs = ox > 0 && oy > 0 ? ox * oy : 0;
    out->input_idle = out->threads - out->input_outputs;
    out->weight_broadcasts = (long long)out->warps * kw * kh;
    out->weight_global_loads = (long long)out->threads * kw * kh;
    for (int k = 0; k < out->warps; ++k) {
        walk_naive(out, k, &out->naive);
        walk_tiled(out, k, &out->tiled);
        walk_input(out, k, &out->input);
        walk_cached(out, k, &out->cached, &out->cached_halo_loads);
    }
    return true;
}

double kwa_tile_efficiency(const kwa_block *b)
{
    return b->tile_cells > 0 ? (double)b->reads / b->tile_cells : 0.0;
}
