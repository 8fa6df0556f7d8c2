/* One interior block of each tiled strategy for any window
 * (src/compute/kernel_any.c), against figures worked out by hand below:
 * 5x5 and 7x7 windows at blocks of 16x16 and 32x8, the naive kernel's
 * requests and sectors, conv_tiled_any's tile, halo, load requests,
 * sectors, shared-memory passes and tile efficiency, the input tile's idle
 * threads, the halo-through-cache strategy's global requests, the weights'
 * broadcasts; and 3x3 against kernel_walk's own trace of an interior block.
 *
 * The block's outputs start on a 128-byte line (32 floats, 4 sectors of 8
 * floats). A run of n floats from offset a (a line-relative float offset)
 * touches the sectors floor(a/8) .. floor((a+n-1)/8). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compute/kernel_any.h"
#include "compute/kernel_walk.h"
#include "core/conv.h"
#include "core/err.h"

#define NEAR(a, b) ((a) - (b) < 0.005 && (b) - (a) < 0.005)

/* 16x16 block: 8 warps, each two rows of 16 threads (rows 2k, 2k+1). */
static void test_16x16_5x5(void)
{
    kwa_block b;
    CHECK(kwa_count(5, 5, 16, 16, &b), "%s", err_msg());
    /* naive: 25 requests a warp, 200 a block. A row of 16 lanes at tap dx
     * reads floats dx..dx+15: 2 sectors for dx = 0, 3 for dx = -2,-1,1,2:
     * 14 a tap row, 2 rows a warp, 5 tap rows: 140 a warp, 1120 a block */
    CHECK(b.naive.requests == 200 && b.naive.sectors == 1120 && b.naive.loads == 6400,
          "naive: %lld requests, %lld sectors, %lld loads (200, 1120, 6400)", b.naive.requests, b.naive.sectors,
          b.naive.loads);
    /* output tile: 20x20 = 400 cells, 400 - 256 = 144 halo (36%); rows
     * 48 words apart (20 needs 2 x 16, even, so 3 x 16). Load loop: rows ty
     * and ty + 16 (< 20: warps 0, 1 only), columns tx and tx + 16 (< 20:
     * tx 0..3). Step (0,0): 32 lanes, floats -2..13 each row: 3 sectors, 6;
     * step (0,1): 8 lanes, floats 14..17: 2 a row, 4. Warps 0, 1: 4
     * requests, 20 sectors; warps 2..7: 2 requests, 10 sectors: 20
     * requests, 100 sectors, 400 loads. Banks: a row 48 = 16 (mod 32) words
     * after the last, so a warp's two rows fill the 32 banks once: one pass
     * every store and every read; 25 reads a warp, 200 */
    CHECK(b.tile_w == 20 && b.tile_h == 20 && b.tile_stride == 48 && b.tile_cells == 400 && b.halo_cells == 144,
          "tile %dx%d (stride %d), %d cells, %d halo", b.tile_w, b.tile_h, b.tile_stride, b.tile_cells, b.halo_cells);
    CHECK(b.tiled.requests == 20 && b.tiled.sectors == 100 && b.tiled.loads == 400,
          "tiled loads: %lld requests, %lld sectors, %lld loads (20, 100, 400)", b.tiled.requests, b.tiled.sectors,
          b.tiled.loads);
    CHECK(b.tiled.shared_stores == 20 && b.tiled.shared_store_passes == 20 && b.tiled.shared_reads == 200 &&
              b.tiled.shared_read_passes == 200 && b.tiled.worst_read_passes == 1,
          "tiled shared: %lld stores %lld passes, %lld reads %lld passes", b.tiled.shared_stores,
          b.tiled.shared_store_passes, b.tiled.shared_reads, b.tiled.shared_read_passes);
    /* efficiency: 256 x 25 = 6400 reads served by 400 loads: 16 each */
    CHECK(b.reads == 6400 && NEAR(kwa_tile_efficiency(&b), 16.0), "efficiency %.3f (16)", kwa_tile_efficiency(&b));
    /* input tile: (16-4) x (16-4) = 144 compute, 112 idle. One load a
     * thread: 8 requests, 2 sectors a row, 4 a warp, 32. Reads: threads
     * with 2 <= ty < 14 compute, in warps 1..6: 6 x 25 = 150 reads, rows 16
     * words apart so one pass each */
    CHECK(b.input_outputs == 144 && b.input_idle == 112, "input tile: %d compute, %d idle (144, 112)",
          b.input_outputs, b.input_idle);
    CHECK(b.input.requests == 8 && b.input.sectors == 32 && b.input.shared_reads == 150 &&
              b.input.shared_read_passes == 150,
          "input tile: %lld requests, %lld sectors, %lld reads, %lld passes", b.input.requests, b.input.sectors,
          b.input.shared_reads, b.input.shared_read_passes);
    /* halo through the cache: 8 requests of the block's own inputs (32
     * sectors), then per warp and tap a global request where any lane's tap
     * leaves the 16x16 tile. dx != 0 (4 of the 5 columns of taps): every
     * row has lanes past its side, so every warp: 4 x 5 x 8 = 160. dx = 0:
     * only where a whole row leaves: dy = -2, -1 (warp 0), 1, 2 (warp 7): 4.
     * 164 + 8 = 172 requests. Sectors of the halo requests: a row still in
     * the tile has |dx| <= 2 lanes past its side, in 1 sector; a row out of
     * it has all 16 lanes out, 3 sectors (dx != 0) or 2 (dx = 0). Rows out
     * for each dy: 2 + 1 + 0 + 1 + 2 = 6 of the 16 x 5 = 80, 74 in: dx != 0:
     * 4 x (74 + 6 x 3) = 368; dx = 0: 6 x 2 = 12: 380, plus the 32: 412.
     * Halo loads: taps inside the tile are (16-|dx|) summed over dx (74),
     * the same for dy: 74 x 74 = 5476 of 6400, so 924 go to global memory.
     * Shared reads: every warp and tap but those whose both rows are out
     * (warp 0 at dy = -2, warp 7 at dy = 2, 5 taps each): 200 - 10 = 190 */
    CHECK(b.cached.requests == 172 && b.cached.sectors == 412 && b.cached_halo_loads == 924 &&
              b.cached.shared_reads == 190,
          "halo through the cache: %lld requests, %lld sectors, %lld halo loads, %lld shared reads (172, 412, 924, "
          "190)",
          b.cached.requests, b.cached.sectors, b.cached_halo_loads, b.cached.shared_reads);
    /* the weights: 8 warps x 25 broadcasts = 200, against 256 x 25 loads */
    CHECK(b.weight_broadcasts == 200 && b.weight_global_loads == 6400, "weights: %lld broadcasts, %lld loads",
          b.weight_broadcasts, b.weight_global_loads);
}

static void test_16x16_7x7(void)
{
    kwa_block b;
    CHECK(kwa_count(7, 7, 16, 16, &b), "%s", err_msg());
    /* naive: 49 requests a warp, 392. dx = -3..3: 2 sectors at 0, 3 at the
     * six others: 20 a tap row, x 2 rows x 7 = 280 a warp, 2240 */
    CHECK(b.naive.requests == 392 && b.naive.sectors == 2240, "naive: %lld requests, %lld sectors (392, 2240)",
          b.naive.requests, b.naive.sectors);
    /* tile 22x22 = 484, 228 halo (47%), stride 48. Rows ty + 16 < 22: ty <
     * 6, warps 0..2; columns tx + 16 < 22: 6 lanes a row. Step (0,0):
     * floats -3..12, 3 sectors a row, 6; step (0,1): floats 13..18, 2 a
     * row, 4. Warps 0..2: 4 requests, 20 sectors; 3..7: 2, 10: 22 requests,
     * 110 sectors. Reads 49 x 8 = 392, one pass each (the 16-bank shift) */
    CHECK(b.tile_cells == 484 && b.halo_cells == 228 && b.tile_stride == 48, "tile %d cells, %d halo, stride %d",
          b.tile_cells, b.halo_cells, b.tile_stride);
    CHECK(b.tiled.requests == 22 && b.tiled.sectors == 110 && b.tiled.loads == 484 && b.tiled.shared_reads == 392 &&
              b.tiled.shared_read_passes == 392,
          "tiled: %lld requests, %lld sectors, %lld loads, %lld reads, %lld passes", b.tiled.requests, b.tiled.sectors,
          b.tiled.loads, b.tiled.shared_reads, b.tiled.shared_read_passes);
    /* 256 x 49 = 12544 reads over 484 loads: 25.92 */
    CHECK(NEAR(kwa_tile_efficiency(&b), 12544.0 / 484.0), "efficiency %.3f", kwa_tile_efficiency(&b));
    /* input tile: 10 x 10 = 100 compute, 156 idle */
    CHECK(b.input_outputs == 100 && b.input_idle == 156, "input tile: %d compute, %d idle", b.input_outputs,
          b.input_idle);
    /* halo through the cache: dx != 0: 6 x 7 x 8 = 336; dx = 0, whole rows
     * out: dy = -3 (rows 0..2: warps 0, 1), -2, -1 (warp 0), 1, 2 (warp 7),
     * 3 (rows 13..15: warps 6, 7): 8. 344 + 8 own = 352. Halo loads:
     * (16 x 7 - 2 x (1 + 2 + 3)) = 100 a side inside, 100 x 100 = 10000 of
     * 12544: 2544 */
    CHECK(b.cached.requests == 352 && b.cached_halo_loads == 2544, "cached: %lld requests, %lld halo loads (352, 2544)",
          b.cached.requests, b.cached_halo_loads);
}

/* 32x8: 8 warps, each one row of 32 threads. */
static void test_32x8(void)
{
    kwa_block b;
    CHECK(kwa_count(5, 5, 32, 8, &b), "%s", err_msg());
    /* naive: 32 lanes at dx: 4 sectors at dx = 0, 5 otherwise: 24 a tap
     * row, 120 a warp, 960; 200 requests */
    CHECK(b.naive.requests == 200 && b.naive.sectors == 960, "naive 5x5: %lld requests, %lld sectors (200, 960)",
          b.naive.requests, b.naive.sectors);
    /* tile 36x12 = 432, 176 halo, stride 36 (32 is not below 32). Rows ty +
     * 8 < 12: warps 0..3; columns tx + 32 < 36: 4 lanes. Step (0,0): floats
     * -2..29: 5 sectors; (0,1): floats 30..33: 2. Warps 0..3: 4 requests,
     * 14 sectors; 4..7: 2, 7: 24 requests, 84 sectors. One row a warp:
     * every read 32 consecutive words, one pass */
    CHECK(b.tile_cells == 432 && b.halo_cells == 176 && b.tile_stride == 36, "tile %d, halo %d, stride %d",
          b.tile_cells, b.halo_cells, b.tile_stride);
    CHECK(b.tiled.requests == 24 && b.tiled.sectors == 84 && b.tiled.shared_read_passes == 200 &&
              b.tiled.worst_read_passes == 1,
          "tiled 5x5: %lld requests, %lld sectors, %lld passes (24, 84, 200)", b.tiled.requests, b.tiled.sectors,
          b.tiled.shared_read_passes);
    CHECK(NEAR(kwa_tile_efficiency(&b), 6400.0 / 432.0), "efficiency %.3f (14.81)", kwa_tile_efficiency(&b));
    /* input tile: 28 x 4 = 112 compute, 144 idle; warps 2..5 compute */
    CHECK(b.input_outputs == 112 && b.input_idle == 144 && b.input.shared_reads == 100,
          "input 5x5: %d compute, %d idle, %lld reads", b.input_outputs, b.input_idle, b.input.shared_reads);

    CHECK(kwa_count(7, 7, 32, 8, &b), "%s", err_msg());
    /* naive: 6 x 5 + 4 = 34 a tap row, 238 a warp, 1904; 392 requests */
    CHECK(b.naive.requests == 392 && b.naive.sectors == 1904, "naive 7x7: %lld requests, %lld sectors (392, 1904)",
          b.naive.requests, b.naive.sectors);
    /* tile 38x14 = 532, 276 halo (52%). Rows ty + 8 < 14: warps 0..5;
     * columns: 6 lanes. (0,0): floats -3..28, 5 sectors; (0,1): 29..34, 2.
     * Warps 0..5: 4 requests, 14; 6, 7: 2, 7: 28 requests, 98 sectors */
    CHECK(b.tile_cells == 532 && b.halo_cells == 276 && b.tiled.requests == 28 && b.tiled.sectors == 98,
          "tiled 7x7: %d cells, %d halo, %lld requests, %lld sectors", b.tile_cells, b.halo_cells, b.tiled.requests,
          b.tiled.sectors);
    CHECK(NEAR(kwa_tile_efficiency(&b), 12544.0 / 532.0), "efficiency %.3f (23.58)", kwa_tile_efficiency(&b));
    /* input tile: 26 x 2 = 52 compute, 204 idle (80%); warps 3, 4 */
    CHECK(b.input_outputs == 52 && b.input_idle == 204 && b.input.shared_reads == 98,
          "input 7x7: %d compute, %d idle, %lld reads", b.input_outputs, b.input_idle, b.input.shared_reads);
}

/* 3x3: the figures kernel_walk traces for an interior block of a 1024x256
 * image (its rows whole lines, block (16, 4) of 16x16 at x = 256, y = 64):
 * unchanged, summed over the block's warps. By hand: naive 3 + 2 + 3 = 8
 * sectors a tap row, x 2 rows x 3 = 48 a warp, 384; 72 requests. */
static void test_3x3_as_kernel_walk(void)
{
    kwa_block b;
    long long naive_s = 0, tiled_r = 0, tiled_s = 0, read_p = 0;
    CHECK(kwa_count(3, 3, 16, 16, &b), "%s", err_msg());
    for (int k = 0; k < 8; ++k) {
        kw_request q[KW_MAX_REQUESTS];
        int n = kw_warp_trace(1024, 256, 16, 16, CONV_BORDER_ZERO, 16, 4, k, q);
        for (int i = 0; i < n; ++i) {
            naive_s += q[i].kind == KW_NAIVE_LOAD ? q[i].sectors : 0;
            tiled_r += q[i].kind == KW_TILED_LOAD && q[i].lanes > 0;
            tiled_s += q[i].kind == KW_TILED_LOAD ? q[i].sectors : 0;
            read_p += q[i].kind == KW_TILED_READ ? q[i].passes : 0;
        }
    }
    CHECK(b.naive.requests == 72 && b.naive.sectors == 384 && naive_s == 384, "naive 3x3: %lld, %lld (trace %lld)",
          b.naive.requests, b.naive.sectors, naive_s);
    CHECK(b.tiled.requests == tiled_r && b.tiled.sectors == tiled_s && b.tiled.shared_read_passes == read_p,
          "tiled 3x3: %lld requests %lld sectors %lld passes; trace %lld %lld %lld", b.tiled.requests, b.tiled.sectors,
          b.tiled.shared_read_passes, tiled_r, tiled_s, read_p);
    /* 18x18 = 324 cells, 68 halo; input tile 14 x 14 = 196, 60 idle */
    CHECK(b.tile_cells == 324 && b.halo_cells == 68 && b.input_idle == 60, "3x3: %d cells, %d halo, %d idle",
          b.tile_cells, b.halo_cells, b.input_idle);
}

static void test_refused(void)
{
    kwa_block b;
    CHECK(!kwa_count(4, 3, 16, 16, &b) && strstr(err_msg(), "odd"), "an even window: %s", err_msg());
    CHECK(!kwa_count(3, 3, 64, 32, &b) && strstr(err_msg(), "1024"), "2048 threads: %s", err_msg());
    CHECK(kwa_count(31, 31, 32, 32, &b) && b.input_outputs == 4 && b.input_idle == 1020,
          "31x31 at 32x32: %d compute (2 x 2), %d idle", b.input_outputs, b.input_idle);
    CHECK(kwa_count(31, 31, 16, 16, &b) && b.input_outputs == 0, "31x31 at 16x16: no output, %d", b.input_outputs);
}

int main(void)
{
    test_16x16_5x5();
    test_16x16_7x7();
    test_32x8();
    test_3x3_as_kernel_walk();
    test_refused();
    return CHECK_SUMMARY();
}
