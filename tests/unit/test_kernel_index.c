/* The CUDA kernels' indexing, walked on the CPU (docs/ARCHITECTURE.md, section 1): the
 * bodies in kernels/conv3x3_body.h called for every block and thread of the
 * grids the launchers make, as the GPU would call them, on a machine with no
 * GPU.
 *
 *   naive  every output written exactly once, every tap's read inside the
 *          image or zero by the border rule, the result equal to
 *          conv_reference bit for bit;
 *   tiled  per block, every tile cell loaded by exactly one thread and
 *          holding what the border rule says (checked against the
 *          independent rule of independent.h wherever a 3x3 reaches), no
 *          read outside the image; then every output written once from the
 *          tile, equal to conv_reference bit for bit and to the independent
 *          convolution within 1e-5;
 *   copy   every element copied once;
 *   banks  how many passes (wavefronts) a warp's shared-memory reads and
 *          stores take in the tile's layout: one for the default blocks.
 *
 * Odd sizes, multiples and non-multiples of the block, every border mode,
 * flipped and not, several block shapes; and 4097x4097 walks of the output
 * and tile coverage alone (no arithmetic), which stay cheap. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/conv3x3_body.h"
#include "check.h"
#include "core/conv.h"
#include "core/filter.h"
#include "independent.h"

static const int sizes[][2] = {{1, 1},   {2, 2},   {3, 3},   {17, 33}, {33, 17}, {1, 4097}, {4097, 1},
                               {64, 48}, {16, 16}, {32, 32}, {48, 16}, {15, 17}, {100, 75}};
static const int blocks[][2] = {{16, 16}, {32, 8}, {8, 32}, {1, 1}, {7, 5}, {3, 1}};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define NBLOCKS (sizeof blocks / sizeof blocks[0])
#define TOL 1e-5

/* A value no output or input has: a quiet NaN with a payload. */
#define SENTINEL_BITS 0x7fc0beefu

static float sentinel(void)
{
    union {
        uint32_t bits;
        float f;
    } u = {SENTINEL_BITS};
    return u.f;
}

/* By its bits (a NaN of our own payload), without memcmp: this runs for
 * every tile slot of every walk, and a checking build intercepts memcmp. */
static bool is_sentinel(float f)
{
    union {
        float f;
        uint32_t bits;
    } u = {f};
    return u.bits == SENTINEL_BITS;
}

static void fill_sentinel(float *p, size_t n)
{
    float s = sentinel();
    for (size_t i = 0; i < n; ++i)
        p[i] = s;
}

/* The filters walked: an asymmetric preset (so a flip shows) and a custom
 * matrix with a divisor, each as given and flipped. */
static conv_params params_for(int which, int border, int flip)
{
    filt_kernel k;
    if (which == 0) {
        filt_parse("sobel-x", &k);
    } else {
        static const float w[9] = {1.5f, -2.0f, 0.25f, 3.0f, 0.5f, -1.0f, 0.75f, 2.0f, -0.125f};
        memset(&k, 0, sizeof k);
        snprintf(k.name, sizeof k.name, "custom");
        memcpy(k.weight, w, sizeof w);
        k.divisor = 3.0f;
    }
    return conv_params_make(&k, (conv_border)border, flip);
}

static long count_off(const float *got, const float *want, long n)
{
    long bad = 0;
    for (long i = 0; i < n; ++i)
        bad += !(fabs((double)got[i] - want[i]) <= TOL * fmax(1.0, fabs((double)want[i])));
    return bad;
}

/* ---- naive ----------------------------------------------------------------- */

/* Walks the naive kernel's grid over a w x h image in blocks of bdx x bdy. */
static void walk_naive(const float *in, const float *ref, int w, int h, int bdx, int bdy, const conv_params *p,
                       const char *what)
{
    int gx = conv3x3_blocks(w, bdx), gy = conv3x3_blocks(h, bdy);
    long n = (long)w * h, once = 0, outside_reads = 0;
    unsigned char *count = calloc((size_t)n, 1);
    float *out = malloc(sizeof *out * (size_t)n);

    fill_sentinel(out, (size_t)n);
    for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx)
            for (int ty = 0; ty < bdy; ++ty)
                for (int tx = 0; tx < bdx; ++tx) {
                    int x, y;
                    if (conv3x3_output_of(bx, by, tx, ty, bdx, bdy, w, h, &x, &y)) {
                        ++count[(long)y * w + x];
                        for (int t = 0; t < 9; ++t) { /* the reads conv_fetch makes */
                            int sx = conv_border_index(x + conv_tap_dx(t), w, p->border);
                            int sy = conv_border_index(y + conv_tap_dy(t), h, p->border);
                            bool zero = sx < 0 || sy < 0;
                            outside_reads += zero ? p->border != CONV_BORDER_ZERO : (sx >= w || sy >= h);
                        }
                    }
                    conv3x3_naive_body(bx, by, tx, ty, bdx, bdy, in, out, w, h, p);
                }
    for (long i = 0; i < n; ++i)
        once += count[i] == 1;
    CHECK(once == n, "%s: %ld of %ld outputs written exactly once", what, once, n);
    CHECK(outside_reads == 0, "%s: %ld reads outside the image", what, outside_reads);
    CHECK(conv_count_different(out, ref, (long)n) == 0, "%s: naive body differs from conv_reference", what);
    free(count);
    free(out);
}

/* ---- tiled ----------------------------------------------------------------- */

typedef struct tile_report {
    long slots_not_once; /* slots loaded by no thread or by several */
    long slots_wrong;    /* a slot within a 3x3's reach holding another value than the rule's */
    long reads_outside;  /* sources outside the image */
} tile_report;

/* Loads the tile of block (bx, by) as the block's threads would, one thread
 * after another; counts how often each word is written and checks what each
 * cell holds. Words between the rows' cells (the padding of the stride) are
 * never written. */
static void load_tile(const float *in, int w, int h, int bx, int by, int bdx, int bdy, int border, float *tile,
                      float *scratch, int *loads, tile_report *r)
{
    int words = conv3x3_tile_words(bdx, bdy);

    memset(loads, 0, sizeof *loads * (size_t)words);
    fill_sentinel(tile, (size_t)words);
    for (int ty = 0; ty < bdy; ++ty)
        for (int tx = 0; tx < bdx; ++tx) {
            fill_sentinel(scratch, (size_t)words);
            conv3x3_tile_load_body(bx, by, tx, ty, bdx, bdy, in, w, h, border, scratch);
            for (int k = 0; k < words; ++k)
                if (!is_sentinel(scratch[k])) {
                    ++loads[k];
                    tile[k] = scratch[k];
                }
        }
    for (int k = 0; k < words; ++k) {
        int col = k % conv3x3_tile_stride(bdx), row = k / conv3x3_tile_stride(bdx);
        int cx = bx * bdx + col - 1, cy = by * bdy + row - 1;
        long src;
        if (col >= conv3x3_tile_w(bdx)) { /* padding */
            r->slots_not_once += loads[k] != 0;
            continue;
        }
        src = conv3x3_tile_source(bx, by, col, row, bdx, bdy, w, h, border);
        r->slots_not_once += loads[k] != 1;
        if (src >= (long)w * h || (src < 0 && border != CONV_BORDER_ZERO)) {
            ++r->reads_outside;
            continue;
        }
        if (cx >= -1 && cx <= w && cy >= -1 && cy <= h) { /* within a 3x3's reach: the independent rule */
            int ex = ind_source(cx, w, border), ey = ind_source(cy, h, border);
            float want = ex < 0 || ey < 0 ? 0.0f : in[(long)ey * w + ex];
            r->slots_wrong += memcmp(&tile[k], &want, sizeof want) != 0;
        } else { /* beyond it (a partial block's far side): what the source says */
            float want = src < 0 ? 0.0f : in[src];
            r->slots_wrong += memcmp(&tile[k], &want, sizeof want) != 0;
        }
    }
}

static void walk_tiled(const float *in, const float *ref, const float *indep, int w, int h, int bdx, int bdy,
                       const conv_params *p, const char *what)
{
    int gx = conv3x3_blocks(w, bdx), gy = conv3x3_blocks(h, bdy), slots = conv3x3_tile_words(bdx, bdy);
    long n = (long)w * h, once = 0;
    unsigned char *count = calloc((size_t)n, 1);
    float *out = malloc(sizeof *out * (size_t)n);
    float *tile = malloc(sizeof *tile * (size_t)slots), *scratch = malloc(sizeof *scratch * (size_t)slots);
    int *loads = malloc(sizeof *loads * (size_t)slots);
    tile_report r = {0, 0, 0};

    fill_sentinel(out, (size_t)n);
    for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx) {
            load_tile(in, w, h, bx, by, bdx, bdy, p->border, tile, scratch, loads, &r);
            /* __syncthreads(): the whole tile is loaded before any output */
            for (int ty = 0; ty < bdy; ++ty)
                for (int tx = 0; tx < bdx; ++tx) {
                    int x, y;
                    if (conv3x3_output_of(bx, by, tx, ty, bdx, bdy, w, h, &x, &y))
                        ++count[(long)y * w + x];
                    conv3x3_tile_compute_body(bx, by, tx, ty, bdx, bdy, tile, out, w, h, p->weight, p->divisor);
                }
        }
    for (long i = 0; i < n; ++i)
        once += count[i] == 1;
    CHECK(r.slots_not_once == 0, "%s: %ld tile slots not loaded exactly once", what, r.slots_not_once);
    CHECK(r.slots_wrong == 0, "%s: %ld tile slots hold another value than the border rule's", what, r.slots_wrong);
    CHECK(r.reads_outside == 0, "%s: %ld tile loads outside the image", what, r.reads_outside);
    CHECK(once == n, "%s: %ld of %ld outputs written exactly once", what, once, n);
    CHECK(conv_count_different(out, ref, (long)n) == 0, "%s: tiled body differs from conv_reference", what);
    CHECK(count_off(out, indep, n) == 0, "%s: tiled body differs from the independent convolution", what);
    free(count);
    free(out);
    free(tile);
    free(scratch);
    free(loads);
}

static void test_small_grids(void)
{
    long walks = 0;
    for (size_t s = 0; s < NSIZES; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        size_t n = (size_t)w * h;
        img_plane in, ref;
        float *indep = malloc(sizeof *indep * n);
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        ind_fill(in.px, n, 500 + (unsigned)s);
        for (int which = 0; which < 2; ++which)
            for (int b = 0; b < CONV_BORDER_COUNT; ++b)
                for (int flip = 0; flip < 2; ++flip) {
                    conv_params p = params_for(which, b, flip);
                    conv_reference(&in, &p, &ref);
                    /* the independent convolution takes the weights as applied (already flipped) */
                    ind_convolve(in.px, w, h, p.weight, p.divisor, b, 0, indep);
                    for (size_t bi = 0; bi < NBLOCKS; ++bi) {
                        char what[128];
                        snprintf(what, sizeof what, "%dx%d blocks %dx%d filter %d border %s%s", w, h, blocks[bi][0],
                                 blocks[bi][1], which, conv_border_name((conv_border)b), flip ? " flipped" : "");
                        walk_naive(in.px, ref.px, w, h, blocks[bi][0], blocks[bi][1], &p, what);
                        walk_tiled(in.px, ref.px, indep, w, h, blocks[bi][0], blocks[bi][1], &p, what);
                        ++walks;
                    }
                }
        img_plane_free(&in);
        img_plane_free(&ref);
        free(indep);
    }
    printf("%ld grid walks of the naive and tiled kernels\n", walks);
}

/* ---- large coverage walks ---------------------------------------------------- */

/* 4097x4097 (one more than a multiple of every block here): the naive grid's
 * output coverage, and for the tiled kernel every block's slots loaded once
 * from inside the image. Indices only: no arithmetic, no input. */
static void test_coverage_4097(void)
{
    const int w = 4097, h = 4097;
    static const int big_blocks[][2] = {{16, 16}, {32, 8}};
    long n = (long)w * h;
    unsigned char *count = malloc((size_t)n);

    for (size_t bi = 0; bi < sizeof big_blocks / sizeof big_blocks[0]; ++bi) {
        int bdx = big_blocks[bi][0], bdy = big_blocks[bi][1];
        int gx = conv3x3_blocks(w, bdx), gy = conv3x3_blocks(h, bdy), slots = conv3x3_tile_words(bdx, bdy);
        int *loads = malloc(sizeof *loads * (size_t)slots);
        long once = 0, slot_bad = 0, outside = 0;

        CHECK((long)gx * bdx >= w && (long)(gx - 1) * bdx < w && (long)gy * bdy >= h && (long)(gy - 1) * bdy < h,
              "%dx%d blocks of %dx%d: grid %dx%d covers the image with no spare block", w, h, bdx, bdy, gx, gy);
        memset(count, 0, (size_t)n);
        for (int by = 0; by < gy; ++by)
            for (int bx = 0; bx < gx; ++bx) {
                memset(loads, 0, sizeof *loads * (size_t)slots);
                for (int ty = 0; ty < bdy; ++ty)
                    for (int tx = 0; tx < bdx; ++tx) {
                        int x, y;
                        if (conv3x3_output_of(bx, by, tx, ty, bdx, bdy, w, h, &x, &y))
                            ++count[(long)y * w + x];
                        /* the cells conv3x3_tile_load_body visits, as it visits them */
                        for (int row = ty; row < conv3x3_tile_h(bdy); row += bdy)
                            for (int col = tx; col < conv3x3_tile_w(bdx); col += bdx)
                                ++loads[conv3x3_tile_index(col, row, bdx)];
                    }
                for (int row = 0; row < conv3x3_tile_h(bdy); ++row)
                    for (int col = 0; col < conv3x3_tile_w(bdx); ++col) {
                        long src = conv3x3_tile_source(bx, by, col, row, bdx, bdy, w, h, CONV_BORDER_MIRROR);
                        long src0 = conv3x3_tile_source(bx, by, col, row, bdx, bdy, w, h, CONV_BORDER_ZERO);
                        slot_bad += loads[conv3x3_tile_index(col, row, bdx)] != 1;
                        outside += src < 0 || src >= n || src0 < -1 || src0 >= n;
                    }
            }
        for (long i = 0; i < n; ++i)
            once += count[i] == 1;
        CHECK(once == n, "%dx%d blocks %dx%d: %ld of %ld outputs written exactly once", w, h, bdx, bdy, once, n);
        CHECK(slot_bad == 0, "%dx%d blocks %dx%d: %ld tile slots not loaded exactly once", w, h, bdx, bdy, slot_bad);
        CHECK(outside == 0, "%dx%d blocks %dx%d: %ld tile loads outside the image", w, h, bdx, bdy, outside);
        free(loads);
    }
    free(count);
}

/* ---- copy -------------------------------------------------------------------- */

static void test_copy(void)
{
    static const size_t lengths[] = {1, 255, 256, 257, 4097, 100000};
    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; ++li) {
        size_t n = lengths[li];
        int bdx = 256;
        long blocks_n = (long)((n + (size_t)bdx - 1) / (size_t)bdx);
        float *in = malloc(sizeof *in * n), *out = malloc(sizeof *out * (n + 1));
        long wrong = 0;
        ind_fill(in, n, 9);
        fill_sentinel(out, n + 1);
        for (long b = 0; b < blocks_n; ++b)
            for (int t = 0; t < bdx; ++t)
                conv3x3_copy_body(b, t, bdx, in, out, n);
        for (size_t i = 0; i < n; ++i)
            wrong += memcmp(&in[i], &out[i], sizeof *in) != 0;
        CHECK(wrong == 0 && is_sentinel(out[n]), "copy of %zu: %ld wrong, past the end %s", n, wrong,
              is_sentinel(out[n]) ? "untouched" : "written");
        free(in);
        free(out);
    }
}

static void test_tile_geometry(void)
{
    /* The tile holds (bdx + 2) x (bdy + 2) cells in rows `stride` words
     * apart, stride >= bdx + 2; the last cell is inside the words the
     * launcher sizes (conv3x3_tile_words). */
    static const int more[][2] = {{1, 1024}, {1024, 1}, {32, 32}, {64, 16}, {2, 8}, {4, 4}};
    for (size_t bi = 0; bi < NBLOCKS + sizeof more / sizeof more[0]; ++bi) {
        int bdx = bi < NBLOCKS ? blocks[bi][0] : more[bi - NBLOCKS][0];
        int bdy = bi < NBLOCKS ? blocks[bi][1] : more[bi - NBLOCKS][1];
        int stride = conv3x3_tile_stride(bdx);
        CHECK(conv3x3_tile_w(bdx) == bdx + 2 && conv3x3_tile_h(bdy) == bdy + 2 && stride >= bdx + 2 &&
                  conv3x3_tile_words(bdx, bdy) == stride * (bdy + 2) &&
                  conv3x3_tile_index(bdx + 1, bdy + 1, bdx) == conv3x3_tile_words(bdx, bdy) - stride + bdx + 1,
              "tile of %dx%d: stride %d, %d words", bdx, bdy, stride, conv3x3_tile_words(bdx, bdy));
        CHECK(4L * conv3x3_tile_words(bdx, bdy) <= 48 * 1024, "%dx%d: the tile fits 48 KiB of shared memory", bdx, bdy);
    }
}

/* ---- shared-memory banks ------------------------------------------------------ */

#define BANKS 32
#define WARP 32

/* Passes (wavefronts) one warp's access to these words takes: the most
 * distinct words any of the 32 four-byte banks is asked for (lanes asking the
 * same word share it). active[i] false: lane i takes no part. */
static int wavefronts(const int word[WARP], const bool active[WARP])
{
    int most = 0;
    for (int b = 0; b < BANKS; ++b) {
        int distinct = 0;
        for (int i = 0; i < WARP; ++i) {
            bool seen = false;
            if (!active[i] || word[i] % BANKS != b)
                continue;
            for (int j = 0; j < i; ++j)
                seen = seen || (active[j] && word[j] == word[i]);
            distinct += !seen;
        }
        most = distinct > most ? distinct : most;
    }
    return most;
}

/* The worst warp's passes for the compute step's nine reads and for the
 * load step's stores, counted from the kernel's own index functions (lane i
 * of warp k is thread k*32 + i = ty*bdx + tx). `stride_override` > 0 lays
 * the rows out that far apart instead, to count another layout. */
static void count_block(int bdx, int bdy, int stride_override, int *read_passes, int *store_passes)
{
    int threads = bdx * bdy, warps = (threads + WARP - 1) / WARP;
    int stride = stride_override > 0 ? stride_override : conv3x3_tile_stride(bdx);
    *read_passes = *store_passes = 0;
    for (int k = 0; k < warps; ++k) {
        int word[WARP];
        bool active[WARP];
        for (int t = 0; t < 9; ++t) {
            for (int i = 0; i < WARP; ++i) {
                int l = k * WARP + i, tx = l % bdx, ty = l / bdx;
                active[i] = l < threads;
                int col = tx + 1 + conv_tap_dx(t), row = ty + 1 + conv_tap_dy(t);
                word[i] = stride_override > 0 ? row * stride + col : conv3x3_tile_index(col, row, bdx);
            }
            int p = wavefronts(word, active);
            *read_passes = p > *read_passes ? p : *read_passes;
        }
        /* the load loop's passes: iteration (ri, ci) stores cell
         * (tx + ci*bdx, ty + ri*bdy) where that is inside the tile */
        for (int ri = 0; ri * bdy < bdy + 2; ++ri)
            for (int ci = 0; ci * bdx < bdx + 2; ++ci) {
                for (int i = 0; i < WARP; ++i) {
                    int l = k * WARP + i, tx = l % bdx, ty = l / bdx;
                    int col = tx + ci * bdx, row = ty + ri * bdy;
                    active[i] = l < threads && col < conv3x3_tile_w(bdx) && row < conv3x3_tile_h(bdy);
                    word[i] = stride_override > 0 ? row * stride + col : conv3x3_tile_index(col, row, bdx);
                }
                int p = wavefronts(word, active);
                *store_passes = p > *store_passes ? p : *store_passes;
            }
    }
}

static void test_banks(void)
{
    /* Every block shape whose width is a power of two takes one pass for
     * each of the nine reads and for each store; with rows bdx + 2 words
     * apart, 16x16 took two for the reads (lanes 30 and 31 on the banks of
     * lanes 0 and 1). */
    static const int shapes[][2] = {{16, 16}, {32, 8},   {8, 32},   {32, 32}, {64, 16}, {4, 64},
                                    {2, 128}, {1, 1024}, {1024, 1}, {16, 8},  {8, 8}};
    int reads, stores, old_reads, old_stores;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        int bdx = shapes[i][0], bdy = shapes[i][1];
        count_block(bdx, bdy, 0, &reads, &stores);
        CHECK(reads == 1 && stores == 1, "%dx%d blocks: %d passes a shared read, %d a store (1 each wanted)", bdx, bdy,
              reads, stores);
    }
    count_block(16, 16, 0, &reads, &stores);
    count_block(16, 16, 18, &old_reads, &old_stores);
    CHECK(old_reads == 2, "the layout with rows 18 words apart takes 2 passes a read (counted %d)", old_reads);
    printf("16x16 blocks: rows %d words apart, %d pass a shared read and %d a store (18 apart: %d and %d)\n",
           conv3x3_tile_stride(16), reads, stores, old_reads, old_stores);
    count_block(7, 5, 0, &reads, &stores);
    printf("7x5 blocks (width not a power of two): %d passes a read, %d a store\n", reads, stores);
}

/* ---- the tiled kernel, any window ------------------------------------------ */

/* Walks the tiled kernel of a kw x kh window (convk_*) over a w x h image:
 * per block, every cell loaded by exactly one thread, the padding by none,
 * each cell the input the independent rule puts kw/2, kh/2 before the
 * block's corner (any distance out), no load outside the image; then every
 * output written once, equal bit for bit to conv_reference and to the
 * independent convolution. Returns the passes of its worst warp's reads
 * (any tap) and stores in *reads, *stores. */
static void walk_tiled_any(const float *in, const float *ref, const float *indep, int w, int h, int bdx, int bdy,
                           const conv_params *p, const char *what, int *reads, int *stores)
{
    int kw = p->kw, kh = p->kh, gx = conv3x3_blocks(w, bdx), gy = conv3x3_blocks(h, bdy);
    int stride = convk_tile_stride(bdx, kw), words = convk_tile_words(bdx, bdy, kw, kh), threads = bdx * bdy;
    long n = (long)w * h, once = 0, not_once = 0, wrong = 0, outside = 0;
    unsigned char *count = calloc((size_t)n, 1);
    float *out = malloc(sizeof *out * (size_t)n), *tile = malloc(sizeof *tile * (size_t)words);
    float *scratch = malloc(sizeof *scratch * (size_t)words);
    int *loads = malloc(sizeof *loads * (size_t)words);

    fill_sentinel(out, (size_t)n);
    for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx) {
            memset(loads, 0, sizeof *loads * (size_t)words);
            fill_sentinel(tile, (size_t)words);
            for (int l = 0; l < threads; ++l) {
                fill_sentinel(scratch, (size_t)words);
                convk_tile_load_body(bx, by, l % bdx, l / bdx, bdx, bdy, kw, kh, in, w, h, p->border, scratch);
                for (int k = 0; k < words; ++k)
                    if (!is_sentinel(scratch[k]))
                        ++loads[k], tile[k] = scratch[k];
            }
            for (int k = 0; k < words; ++k) {
                int col = k % stride, row = k / stride, ex, ey;
                long src;
                float want;
                if (col >= convk_tile_w(bdx, kw)) { /* padding */
                    not_once += loads[k] != 0;
                    continue;
                }
                not_once += loads[k] != 1;
                src = convk_tile_source(bx, by, col, row, bdx, bdy, kw, kh, w, h, p->border);
                outside += src >= n || (src < 0 && p->border != CONV_BORDER_ZERO);
                ex = ind_source_far(bx * bdx + col - kw / 2, w, p->border);
                ey = ind_source_far(by * bdy + row - kh / 2, h, p->border);
                want = ex < 0 || ey < 0 ? 0.0f : in[(long)ey * w + ex];
                wrong += memcmp(&tile[k], &want, sizeof want) != 0;
            }
            /* __syncthreads() */
            for (int l = 0; l < threads; ++l) {
                int x, y;
                if (conv3x3_output_of(bx, by, l % bdx, l / bdx, bdx, bdy, w, h, &x, &y))
                    ++count[(long)y * w + x];
                convk_tile_compute_body(bx, by, l % bdx, l / bdx, bdx, bdy, kw, kh, tile, out, w, h, p->weight,
                                        p->divisor);
            }
        }
    for (long i = 0; i < n; ++i)
        once += count[i] == 1;
    CHECK(not_once == 0, "%s: %ld tile words not loaded as they should (cells once, padding never)", what, not_once);
    CHECK(wrong == 0, "%s: %ld tile cells hold another value than the independent border rule's", what, wrong);
    CHECK(outside == 0, "%s: %ld tile loads outside the image", what, outside);
    CHECK(once == n, "%s: %ld of %ld outputs written exactly once", what, once, n);
    CHECK(conv_count_different(out, ref, n) == 0, "%s: tiled body differs from conv_reference", what);
    CHECK(conv_count_different(out, indep, n) == 0, "%s: tiled body differs from the independent convolution", what);
    /* the passes a warp takes: each tap's read, each step of the load loop */
    *reads = *stores = 0;
    for (int k = 0; k * WARP < threads; ++k) {
        int word[WARP], pass;
        bool active[WARP];
        for (int t = 0; t < kw * kh; ++t) {
            for (int i = 0; i < WARP; ++i) {
                int l = k * WARP + i;
                active[i] = l < threads;
                word[i] = convk_tile_index(l % bdx + t % kw, l / bdx + t / kw, bdx, kw);
            }
            pass = wavefronts(word, active);
            *reads = pass > *reads ? pass : *reads;
        }
        for (int ri = 0; ri * bdy < convk_tile_h(bdy, kh); ++ri)
            for (int ci = 0; ci * bdx < convk_tile_w(bdx, kw); ++ci) {
                for (int i = 0; i < WARP; ++i) {
                    int l = k * WARP + i, col = l % bdx + ci * bdx, row = l / bdx + ri * bdy;
                    active[i] = l < threads && col < convk_tile_w(bdx, kw) && row < convk_tile_h(bdy, kh);
                    word[i] = convk_tile_index(col, row, bdx, kw);
                }
                pass = wavefronts(word, active);
                *stores = pass > *stores ? pass : *stores;
            }
    }
    free(count);
    free(out);
    free(tile);
    free(scratch);
    free(loads);
}

static void test_any_window(void)
{
    static const int windows[][2] = {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {5, 3}, {5, 5}, {9, 3}, {31, 31}};
    static const int dims[][2] = {{1, 1}, {2, 9}, {17, 33}, {33, 17}, {40, 9}, {64, 48}};
    static const int shapes[][2] = {{16, 16}, {32, 8}, {8, 32}, {7, 5}, {3, 1}, {1, 1}};
    long walks = 0;

    /* the geometry: a halo of kw/2 and kh/2, rows at least a tile wide, the
     * last cell inside the words the launcher sizes; 3x3 as before */
    for (size_t f = 0; f < sizeof windows / sizeof windows[0]; ++f)
        for (size_t b = 0; b < sizeof shapes / sizeof shapes[0]; ++b) {
            int kw = windows[f][0], kh = windows[f][1], bdx = shapes[b][0], bdy = shapes[b][1];
            int stride = convk_tile_stride(bdx, kw), pow2 = bdx < 32 && (bdx & (bdx - 1)) == 0;
            CHECK(convk_tile_w(bdx, kw) == bdx + 2 * (kw / 2) && convk_tile_h(bdy, kh) == bdy + 2 * (kh / 2) &&
                      stride >= convk_tile_w(bdx, kw) &&
                      (pow2 ? stride % bdx == 0 && stride / bdx % 2 == 1 && stride - 2 * bdx < convk_tile_w(bdx, kw)
                            : stride == convk_tile_w(bdx, kw)) &&
                      convk_tile_words(bdx, bdy, kw, kh) == stride * convk_tile_h(bdy, kh) &&
                      convk_tile_index(convk_tile_w(bdx, kw) - 1, convk_tile_h(bdy, kh) - 1, bdx, kw) <
                          convk_tile_words(bdx, bdy, kw, kh),
                  "%dx%d window, %dx%d blocks: stride %d, %d words", kw, kh, bdx, bdy, stride,
                  convk_tile_words(bdx, bdy, kw, kh));
            CHECK(convk_tile_words(bdx, bdy, 3, 3) == conv3x3_tile_words(bdx, bdy) &&
                      convk_tile_stride(bdx, 3) == conv3x3_tile_stride(bdx),
                  "%dx%d blocks: the 3x3 tile as it was", bdx, bdy);
        }
    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d) {
        int w = dims[d][0], h = dims[d][1];
        img_plane in, ref;
        float *indep = malloc(sizeof *indep * (size_t)w * (size_t)h);
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        ind_fill(in.px, (size_t)w * h, 700 + (unsigned)d);
        for (size_t f = 0; f < sizeof windows / sizeof windows[0]; ++f) {
            filt_kernel k;
            memset(&k, 0, sizeof k);
            k.kw = windows[f][0], k.kh = windows[f][1], k.divisor = 3.0f;
            ind_fill(k.weight, (size_t)k.kw * k.kh, 11 + (unsigned)f);
            for (int t = 0; t < k.kw * k.kh; ++t)
                k.weight[t] = k.weight[t] / 64.0f - 2.0f; /* no two alike: a flip shows */
            for (int b = 0; b < CONV_BORDER_COUNT; ++b)
                for (int flip = 0; flip < 2; ++flip) {
                    conv_params p = conv_params_make(&k, (conv_border)b, flip);
                    conv_reference(&in, &p, &ref);
                    ind_convolve_any(in.px, w, h, k.weight, k.kw, k.kh, k.divisor, b, flip, indep);
                    for (size_t bi = 0; bi < sizeof shapes / sizeof shapes[0]; ++bi) {
                        int bdx = shapes[bi][0], bdy = shapes[bi][1], reads, stores;
                        char what[128];
                        snprintf(what, sizeof what, "%dx%d window on %dx%d, blocks %dx%d, border %s%s", k.kw, k.kh, w,
                                 h, bdx, bdy, conv_border_name((conv_border)b), flip ? " flipped" : "");
                        walk_naive(in.px, ref.px, w, h, bdx, bdy, &p, what);
                        walk_tiled_any(in.px, ref.px, indep, w, h, bdx, bdy, &p, what, &reads, &stores);
                        if (bdx == 16 || bdx == 32 || bdx == 8)
                            CHECK(reads == 1 && stores == 1, "%s: %d passes a shared read, %d a store (1 each wanted)",
                                  what, reads, stores);
                        ++walks;
                    }
                }
        }
        img_plane_free(&in);
        img_plane_free(&ref);
        free(indep);
    }
    printf("%ld grid walks of the naive and tiled kernels on windows 1x1 to 31x31\n", walks);
}

int main(void)
{
    test_tile_geometry();
    test_banks();
    test_any_window();
    test_small_grids();
    test_coverage_4097();
    test_copy();
    return CHECK_SUMMARY();
}
