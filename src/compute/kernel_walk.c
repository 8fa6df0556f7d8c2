/* kernel_walk.c - the CUDA kernels' memory traffic, counted on the CPU from
 * their own index functions. See kernel_walk.h. */
#include "kernel_walk.h"

#include <string.h>

#include "../../kernels/conv3x3_body.h"
#include "core/err.h"

int kw_wavefronts(const int word[KW_WARP], const bool active[KW_WARP])
{
    int per_bank[KW_BANKS] = {0}, most = 0;
    for (int i = 0; i < KW_WARP; ++i) {
        bool seen = false;
        if (!active[i])
            continue;
        for (int j = 0; j < i && !seen; ++j)
            seen = active[j] && word[j] == word[i]; /* the same word: one access serves both */
        if (!seen) {
            int b = word[i] % KW_BANKS, n = ++per_bank[b];
            most = n > most ? n : most;
        }
    }
    return most;
}

/* Distinct `unit`-byte pieces that these byte addresses touch (4 bytes from
 * each), among the active lanes. */
static int kw_pieces(const long long addr[KW_WARP], const bool active[KW_WARP], int unit)
{
    /* the lanes' addresses mostly rise: a piece is new unless one of the
     * last few pieces seen is it, or (rarely) any earlier one */
    long long piece[2 * KW_WARP];
    int n = 0;
    for (int i = 0; i < KW_WARP; ++i) {
        if (!active[i])
            continue;
        for (long long p = addr[i] / unit; p <= (addr[i] + 3) / unit; ++p) { /* 4 bytes from each */
            bool seen = false;
            for (int j = n - 1; j >= 0 && !seen; --j)
                seen = piece[j] == p;
            if (!seen)
                piece[n++] = p;
        }
    }
    return n;
}

/* A warp request: loads of the active lanes' addresses (in floats). */
static void request(kw_traffic *t, const long long index[KW_WARP], const bool active[KW_WARP], bool store)
{
    long long addr[KW_WARP];
    int lanes = 0;
    for (int i = 0; i < KW_WARP; ++i) {
        addr[i] = index[i] * 4;
        lanes += active[i];
    }
    if (!lanes)
        return;
    if (store) {
        ++t->store_requests;
        t->store_sectors += kw_pieces(addr, active, KW_SECTOR);
        return;
    }
    t->loads += lanes;
    ++t->requests;
    t->sectors += kw_pieces(addr, active, KW_SECTOR);
    t->lines += kw_pieces(addr, active, KW_LINE);
}

static void shared_access(kw_traffic *t, const int word[KW_WARP], const bool active[KW_WARP], bool store)
{
    int lanes = 0, passes;
    for (int i = 0; i < KW_WARP; ++i)
        lanes += active[i];
    if (!lanes)
        return;
    passes = kw_wavefronts(word, active);
    if (store) {
        ++t->shared_stores;
        t->shared_store_passes += passes;
        t->worst_store_passes = passes > t->worst_store_passes ? passes : t->worst_store_passes;
    } else {
        ++t->shared_reads;
        t->shared_read_passes += passes;
        t->worst_read_passes = passes > t->worst_read_passes ? passes : t->worst_read_passes;
    }
}

/* Warp k of block (bx, by): its lanes' threads and outputs. */
typedef struct warp {
    int tx[KW_WARP], ty[KW_WARP], x[KW_WARP], y[KW_WARP];
    bool thread[KW_WARP]; /* the lane is a thread of the block */
    bool output[KW_WARP]; /* ... with an output in the image */
} warp;

static void warp_of(int bx, int by, int k, int bdx, int bdy, int w, int h, warp *wp)
{
    for (int i = 0; i < KW_WARP; ++i) {
        int l = k * KW_WARP + i;
        wp->tx[i] = l % bdx;
        wp->ty[i] = l / bdx;
        wp->thread[i] = l < bdx * bdy;
        wp->output[i] =
            wp->thread[i] && conv3x3_output_of(bx, by, wp->tx[i], wp->ty[i], bdx, bdy, w, h, &wp->x[i], &wp->y[i]);
    }
}

static void walk_naive(const warp *wp, int w, int h, int border, kw_traffic *t)
{
    long long index[KW_WARP];
    bool active[KW_WARP];
    for (int tap = 0; tap < 9; ++tap) { /* conv_fetch: a tap that reads zero loads nothing */
        for (int i = 0; i < KW_WARP; ++i) {
            int sx = wp->output[i] ? conv_border_index(wp->x[i] + conv_tap_dx(tap), w, border) : -1;
            int sy = wp->output[i] ? conv_border_index(wp->y[i] + conv_tap_dy(tap), h, border) : -1;
            active[i] = sx >= 0 && sy >= 0;
            index[i] = active[i] ? (long long)sy * w + sx : 0;
        }
        request(t, index, active, false);
    }
    for (int i = 0; i < KW_WARP; ++i)
        index[i] = wp->output[i] ? (long long)wp->y[i] * w + wp->x[i] : 0;
    request(t, index, wp->output, true);
}

static void walk_tiled(const warp *wp, int bx, int by, int bdx, int bdy, int w, int h, int border, kw_traffic *t)
{
    long long index[KW_WARP];
    bool load[KW_WARP], cell[KW_WARP];
    int word[KW_WARP];
    /* step 1, the load loop: iteration (ri, ci) is one instruction of the
     * warp; lane i stores cell (tx + ci*bdx, ty + ri*bdy) where that is in
     * the tile, after a load where the border rule gives an element */
    for (int ri = 0; ri * bdy < conv3x3_tile_h(bdy); ++ri)
        for (int ci = 0; ci * bdx < conv3x3_tile_w(bdx); ++ci) {
            for (int i = 0; i < KW_WARP; ++i) {
                int col = wp->tx[i] + ci * bdx, row = wp->ty[i] + ri * bdy;
                long src;
                cell[i] = wp->thread[i] && col < conv3x3_tile_w(bdx) && row < conv3x3_tile_h(bdy);
                src = cell[i] ? conv3x3_tile_source(bx, by, col, row, bdx, bdy, w, h, border) : -1;
                load[i] = src >= 0;
                index[i] = load[i] ? src : 0;
                word[i] = cell[i] ? conv3x3_tile_index(col, row, bdx) : 0;
            }
            request(t, index, load, false);
            shared_access(t, word, cell, true);
        }
    /* step 2, after the barrier: nine reads of the tile, one write */
    for (int tap = 0; tap < 9; ++tap) {
        for (int i = 0; i < KW_WARP; ++i)
            word[i] = wp->output[i]
                          ? conv3x3_tile_index(wp->tx[i] + 1 + conv_tap_dx(tap), wp->ty[i] + 1 + conv_tap_dy(tap), bdx)
                          : 0;
        shared_access(t, word, wp->output, false);
    }
    for (int i = 0; i < KW_WARP; ++i)
        index[i] = wp->output[i] ? (long long)wp->y[i] * w + wp->x[i] : 0;
    request(t, index, wp->output, true);
}

static void add_traffic(kw_traffic *to, const kw_traffic *t)
{
    to->loads += t->loads;
    to->requests += t->requests;
    to->sectors += t->sectors;
    to->lines += t->lines;
    to->store_requests += t->store_requests;
    to->store_sectors += t->store_sectors;
    to->shared_reads += t->shared_reads;
    to->shared_read_passes += t->shared_read_passes;
    to->shared_stores += t->shared_stores;
    to->shared_store_passes += t->shared_store_passes;
    to->worst_read_passes = t->worst_read_passes > to->worst_read_passes ? t->worst_read_passes : to->worst_read_passes;
    to->worst_store_passes =
        t->worst_store_passes > to->worst_store_passes ? t->worst_store_passes : to->worst_store_passes;
}

static bool count(int w, int h, int bdx, int bdy, int border, bool classes_too, kw_counts *out);

bool kw_count(int w, int h, int bdx, int bdy, int border, kw_counts *out)
{
    return count(w, h, bdx, bdy, border, true, out);
}

bool kw_count_every_block(int w, int h, int bdx, int bdy, int border, kw_counts *out)
{
    return count(w, h, bdx, bdy, border, false, out);
}

static bool count(int w, int h, int bdx, int bdy, int border, bool classes_too, kw_counts *out)
{
    int gx, gy, warps_per_block;
    memset(out, 0, sizeof *out);
    if (w < 1 || h < 1)
        return err_set("an image of %dx%d pixels has nothing to count", w, h);
    if (bdx < 1 || bdy < 1 || bdx * bdy > 1024)
        return err_set("a block of %dx%d threads cannot run: a CUDA block has 1 to 1024 threads", bdx, bdy);
    if (4L * conv3x3_tile_words(bdx, bdy) > 48 * 1024)
        return err_set("the tile of a %dx%d block takes %ld bytes of shared memory, over the 48 KiB a block gets", bdx,
                       bdy, 4L * conv3x3_tile_words(bdx, bdy));
    gx = conv3x3_blocks(w, bdx);
    gy = conv3x3_blocks(h, bdy);
    warps_per_block = (bdx * bdy + KW_WARP - 1) / KW_WARP;
    out->w = w, out->h = h, out->bdx = bdx, out->bdy = bdy;
    out->outputs = (long long)w * h;
    out->blocks = (long long)gx * gy;
    out->threads = out->blocks * bdx * bdy;
    out->wasted = out->threads - out->outputs;
    out->warps = out->blocks * warps_per_block;
    /* A block whose tile lies wholly inside the image reads no border: its
     * counts are those of any other such block whose addresses lie a whole
     * number of 128-byte lines away (same loads, requests, sectors, lines,
     * banks). So each such class is walked once and added up; the blocks
     * at the edges are walked one by one. */
    static struct {
        bool known;
        kw_traffic naive, tiled;
    } classes[KW_LINE / 4][KW_LINE / 4];
    memset(classes, 0, sizeof classes);
    for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx) {
            bool inside =
                classes_too && bx * bdx >= 1 && (bx + 1) * bdx <= w - 2 && by * bdy >= 1 && (by + 1) * bdy <= h - 2;
            int cx = (bx * bdx) % (KW_LINE / 4), cy = (int)(((long long)by * bdy * w) % (KW_LINE / 4));
            kw_traffic naive = {0}, tiled = {0};
            if (inside && classes[cy][cx].known) {
                naive = classes[cy][cx].naive;
                tiled = classes[cy][cx].tiled;
            } else {
                for (int k = 0; k < warps_per_block; ++k) {
                    warp wp;
                    warp_of(bx, by, k, bdx, bdy, w, h, &wp);
                    walk_naive(&wp, w, h, border, &naive);
                    walk_tiled(&wp, bx, by, bdx, bdy, w, h, border, &tiled);
                }
                if (inside) {
                    classes[cy][cx].known = true;
                    classes[cy][cx].naive = naive;
                    classes[cy][cx].tiled = tiled;
                }
            }
            add_traffic(&out->naive, &naive);
            add_traffic(&out->tiled, &tiled);
        }
    return true;
}

/* ---- the tiled kernel without its barrier --------------------------------- */

/* A warp's program: the load loop's iterations, then (the barrier, then)
 * nine reads and a write. `pc` counts the instructions done. */
typedef struct sim_warp {
    int pc;
    bool done;
} sim_warp;

int kw_tile_iterations(int bdx, int bdy)
{
    return ((conv3x3_tile_w(bdx) + bdx - 1) / bdx) * ((conv3x3_tile_h(bdy) + bdy - 1) / bdy);
}

int kw_tile_cell(int tx, int ty, int it, int bdx, int bdy, int *col, int *row)
{
    int cols = (conv3x3_tile_w(bdx) + bdx - 1) / bdx;
    *col = tx + (it % cols) * bdx;
    *row = ty + (it / cols) * bdy;
    return *col < conv3x3_tile_w(bdx) && *row < conv3x3_tile_h(bdy);
}

/* The word lane (tx, ty) stores in load iteration `it`, or -1. */
static int stored_cell(int tx, int ty, int it, int bdx, int bdy)
{
    int cols = (conv3x3_tile_w(bdx) + bdx - 1) / bdx; /* column steps of the loop */
    int ri = it / cols, ci = it % cols;
    int col = tx + ci * bdx, row = ty + ri * bdy;
    if (col >= conv3x3_tile_w(bdx) || row >= conv3x3_tile_h(bdy))
        return -1;
    return conv3x3_tile_index(col, row, bdx);
}

bool kw_race_run(int bdx, int bdy, bool barrier, unsigned seed, kw_race *out)
{
    static unsigned char written[48 * 1024 / 4];
    static int owner[48 * 1024 / 4]; /* the warp that stores each word */
    sim_warp w[KW_MAX_THREADS / KW_WARP];
    int threads = bdx * bdy, warps, cols, rows, iterations, at_barrier = 0;
    unsigned rng = seed * 2654435761u + 1u;
    memset(out, 0, sizeof *out);
    if (bdx < 1 || bdy < 1 || threads > KW_MAX_THREADS)
        return err_set("a block of %dx%d threads cannot run: a CUDA block has 1 to 1024 threads", bdx, bdy);
    if (4L * conv3x3_tile_words(bdx, bdy) > 48 * 1024)
        return err_set("the tile of a %dx%d block takes %ld bytes of shared memory, over the 48 KiB a block gets", bdx,
                       bdy, 4L * conv3x3_tile_words(bdx, bdy));
    warps = (threads + KW_WARP - 1) / KW_WARP;
    cols = (conv3x3_tile_w(bdx) + bdx - 1) / bdx;
    rows = (conv3x3_tile_h(bdy) + bdy - 1) / bdy;
    iterations = cols * rows;
    out->bdx = bdx, out->bdy = bdy, out->warps = warps, out->barrier = barrier, out->seed = seed;
    memset(written, 0, sizeof written);
    for (int i = 0; i < conv3x3_tile_words(bdx, bdy); ++i)
        owner[i] = -1;
    for (int l = 0; l < threads; ++l)
        for (int it = 0; it < iterations; ++it) {
            int c = stored_cell(l % bdx, l / bdx, it, bdx, bdy);
            if (c >= 0)
                owner[c] = l / KW_WARP;
        }
    /* can race: reads a cell another warp stores */
    for (int l = 0; l < threads; ++l) {
        int tx = l % bdx, ty = l / bdx;
        for (int t = 0; t < 9; ++t) {
            int c = conv3x3_tile_index(tx + 1 + conv_tap_dx(t), ty + 1 + conv_tap_dy(t), bdx);
            if (owner[c] != l / KW_WARP)
                out->can_race[l] = 1;
        }
        out->can_count += out->can_race[l];
    }
    /* the seeded run */
    for (int k = 0; k < warps; ++k)
        w[k] = (sim_warp){0, false};
    for (int left = warps; left > 0;) {
        int k, burst;
        rng = rng * 1103515245u + 12345u;
        k = (int)((rng >> 8) % (unsigned)warps);
        while (w[k].done || (barrier && w[k].pc == iterations && at_barrier < warps))
            k = (k + 1) % warps; /* the next warp that can go on (one always can) */
        /* a warp runs ahead for up to a whole program's worth of
         * instructions at once: as a warp scheduler may favour one */
        burst = 1 + (int)((rng >> 20) % (unsigned)(iterations + 10));
        for (int b = 0; b < burst && !w[k].done; ++b) {
            int pc = w[k].pc;
            if (pc < iterations) { /* a load iteration: the lanes store their cells */
                bool stored = false;
                for (int i = 0; i < KW_WARP; ++i) {
                    int l = k * KW_WARP + i, c;
                    if (l < threads && (c = stored_cell(l % bdx, l / bdx, pc, bdx, bdy)) >= 0) {
                        written[c] = 1;
                        stored = true;
                    }
                }
                ++w[k].pc;
                if (w[k].pc == iterations && barrier)
                    ++at_barrier;
                if (!stored) { /* no lane of it stores: the warp leaves that iteration at once */
                    --b;
                    continue;
                }
            } else if (barrier && at_barrier < warps) {
                break;                        /* waits at the barrier */
            } else if (pc < iterations + 9) { /* tap pc - iterations: the lanes read a cell each */
                int t = pc - iterations;
                for (int i = 0; i < KW_WARP; ++i) {
                    int l = k * KW_WARP + i;
                    if (l >= threads)
                        continue;
                    if (!written[conv3x3_tile_index(l % bdx + 1 + conv_tap_dx(t), l / bdx + 1 + conv_tap_dy(t), bdx)] &&
                        out->raced[l] < 255)
                        ++out->raced[l];
                }
                ++w[k].pc;
            } else { /* the output's write: the warp is done */
                w[k].done = true;
                --left;
            }
            ++out->steps;
        }
    }
    for (int l = 0; l < threads; ++l)
        out->raced_count += out->raced[l] > 0;
    return true;
}

/* ---- one warp, instruction by instruction ---------------------------------- */

static void trace_global(kw_request *r, kw_kind kind, int step, const long long index[KW_WARP],
                         const bool active[KW_WARP])
{
    long long addr[KW_WARP];
    *r = (kw_request){kind, step, 0, 0, 0, 0, -1, -1};
    for (int i = 0; i < KW_WARP; ++i) {
        addr[i] = index[i] * 4;
        if (!active[i])
            continue;
        ++r->lanes;
        r->first = r->first < 0 || index[i] < r->first ? index[i] : r->first;
        r->last = index[i] > r->last ? index[i] : r->last;
    }
    r->sectors = kw_pieces(addr, active, KW_SECTOR);
    r->lines = kw_pieces(addr, active, KW_LINE);
}

static void trace_shared(kw_request *r, kw_kind kind, int step, const int word[KW_WARP], const bool active[KW_WARP])
{
    *r = (kw_request){kind, step, 0, 0, 0, 0, -1, -1};
    for (int i = 0; i < KW_WARP; ++i) {
        if (!active[i])
            continue;
        ++r->lanes;
        r->first = r->first < 0 || word[i] < r->first ? word[i] : r->first;
        r->last = word[i] > r->last ? word[i] : r->last;
    }
    r->passes = r->lanes ? kw_wavefronts(word, active) : 0;
}

int kw_warp_trace(int w, int h, int bdx, int bdy, int border, int bx, int by, int k, kw_request out[KW_MAX_REQUESTS])
{
    warp wp;
    long long index[KW_WARP];
    bool active[KW_WARP], cell[KW_WARP];
    int word[KW_WARP], n = 0;
    if (w < 1 || h < 1 || bdx < 1 || bdy < 1 || bdx * bdy > 1024 || k < 0 || k * KW_WARP >= bdx * bdy)
        return 0;
    warp_of(bx, by, k, bdx, bdy, w, h, &wp);
    for (int tap = 0; tap < 9; ++tap) {
        for (int i = 0; i < KW_WARP; ++i) {
            int sx = wp.output[i] ? conv_border_index(wp.x[i] + conv_tap_dx(tap), w, border) : -1;
            int sy = wp.output[i] ? conv_border_index(wp.y[i] + conv_tap_dy(tap), h, border) : -1;
            active[i] = sx >= 0 && sy >= 0;
            index[i] = active[i] ? (long long)sy * w + sx : 0;
        }
        trace_global(&out[n++], KW_NAIVE_LOAD, tap, index, active);
    }
    for (int it = 0; it < kw_tile_iterations(bdx, bdy) && n + 2 < KW_MAX_REQUESTS - 10; ++it) {
        for (int i = 0; i < KW_WARP; ++i) {
            int col, row;
            long src;
            cell[i] = wp.thread[i] && kw_tile_cell(wp.tx[i], wp.ty[i], it, bdx, bdy, &col, &row);
            src = cell[i] ? conv3x3_tile_source(bx, by, col, row, bdx, bdy, w, h, border) : -1;
            active[i] = src >= 0;
            index[i] = active[i] ? src : 0;
            word[i] = cell[i] ? conv3x3_tile_index(col, row, bdx) : 0;
        }
        trace_global(&out[n++], KW_TILED_LOAD, it, index, active);
        trace_shared(&out[n++], KW_TILED_STORE, it, word, cell);
    }
    for (int tap = 0; tap < 9; ++tap) {
        for (int i = 0; i < KW_WARP; ++i)
            word[i] = wp.output[i]
                          ? conv3x3_tile_index(wp.tx[i] + 1 + conv_tap_dx(tap), wp.ty[i] + 1 + conv_tap_dy(tap), bdx)
                          : 0;
        trace_shared(&out[n++], KW_TILED_READ, tap, word, wp.output);
    }
    for (int i = 0; i < KW_WARP; ++i)
        index[i] = wp.output[i] ? (long long)wp.y[i] * w + wp.x[i] : 0;
    trace_global(&out[n++], KW_OUT_STORE, 0, index, wp.output);
    return n;
}
