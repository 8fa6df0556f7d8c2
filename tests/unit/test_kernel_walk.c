/* What the kernels ask of the memory, counted from their index functions
 * (src/compute/kernel_walk.c), against values worked out by hand for grids
 * small enough to count on paper: loads per output, warp requests, 32-byte
 * sectors and 128-byte lines, shared-memory passes, wasted threads; for
 * several block shapes and sizes the block does not divide; the tiled
 * kernel without its barrier, simulated, against a block worked out by hand. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compute/kernel_walk.h"
#include "core/conv.h"
#include "core/err.h"

/* One row of 32 pixels, blocks of 32x1: one warp, its lanes on 32
 * consecutive floats (128 bytes, 4 sectors, 1 line). Clamp border: every
 * tap loads (a row above or below is the row itself). */
static void test_one_warp(void)
{
    kw_counts c;
    CHECK(kw_count(32, 1, 32, 1, CONV_BORDER_CLAMP, &c), "%s", err_msg());
    CHECK(c.blocks == 1 && c.threads == 32 && c.wasted == 0 && c.warps == 1,
          "grid: %lld blocks, %lld threads, "
          "%lld wasted, %lld warps",
          c.blocks, c.threads, c.wasted, c.warps);
    /* naive: 9 taps x 32 lanes; each tap's addresses (x-1, x or x+1, clamped
     * into 0..31) lie in the 4 sectors of the row, one line */
    CHECK(c.naive.loads == 9 * 32 && c.naive.requests == 9 && c.naive.sectors == 36 && c.naive.lines == 9,
          "naive: %lld loads, %lld requests, %lld sectors, %lld lines (288, 9, 36, 9)", c.naive.loads, c.naive.requests,
          c.naive.sectors, c.naive.lines);
    CHECK(c.naive.store_requests == 1 && c.naive.store_sectors == 4, "naive stores: %lld requests, %lld sectors",
          c.naive.store_requests, c.naive.store_sectors);
    /* tiled: a tile of 34x3 cells; rows 0..2 (one load loop row each, all
     * the same image row under clamp), columns in two steps: tx (32 lanes,
     * x = -1..30 -> 0,0,1..30: 4 sectors) and tx + 32 (lanes 0 and 1, x =
     * 31, 32 -> 31: 1 sector) */
    CHECK(c.tiled.requests == 6 && c.tiled.loads == 3 * 34 && c.tiled.sectors == 15 && c.tiled.lines == 6,
          "tiled: %lld requests, %lld loads, %lld sectors, %lld lines (6, 102, 15, 6)", c.tiled.requests, c.tiled.loads,
          c.tiled.sectors, c.tiled.lines);
    CHECK(c.tiled.shared_stores == 6 && c.tiled.shared_reads == 9, "tiled shared: %lld stores, %lld reads",
          c.tiled.shared_stores, c.tiled.shared_reads);
    CHECK(c.tiled.worst_read_passes == 1 && c.tiled.worst_store_passes == 1, "32x1: one pass a shared access (%d, %d)",
          c.tiled.worst_read_passes, c.tiled.worst_store_passes);
}

/* 33 pixels, blocks of 32: two blocks; the second's warp has one active
 * lane (x = 32) and 31 wasted threads. */
static void test_ragged_edge(void)
{
    kw_counts c;
    CHECK(kw_count(33, 1, 32, 1, CONV_BORDER_CLAMP, &c), "%s", err_msg());
    CHECK(c.blocks == 2 && c.threads == 64 && c.wasted == 31 && c.warps == 2, "grid: %lld blocks, %lld wasted",
          c.blocks, c.wasted);
    /* warp 0: dx = -1 and 0 in sectors 0..3, dx = +1 reaches x = 32: bytes
     * 4..131, sectors 0..4; three rows each (clamped): (4 + 4 + 5) * 3 = 39;
     * warp 1: one lane, one sector a tap: 9 */
    CHECK(c.naive.requests == 18 && c.naive.sectors == 48 && c.naive.loads == 9 * 33,
          "naive: %lld requests, %lld sectors, %lld loads (18, 48, 297)", c.naive.requests, c.naive.sectors,
          c.naive.loads);
    CHECK(c.naive.store_sectors == 4 + 1, "naive stores: %lld sectors (5)", c.naive.store_sectors);
}

/* The zero rule loads nothing outside the image: a 3x3 image, one 3x3
 * block (one warp of 9 lanes): of 81 taps, 49 fall inside. */
static void test_zero_border(void)
{
    kw_counts c;
    CHECK(kw_count(3, 3, 3, 3, CONV_BORDER_ZERO, &c), "%s", err_msg());
    CHECK(c.naive.loads == 49 && c.naive.requests == 9, "naive: %lld loads in %lld requests (49, 9)", c.naive.loads,
          c.naive.requests);
    /* the tile is 5x5; its 9 inner cells load, the 16 of the halo read zero */
    CHECK(c.tiled.loads == 9 && c.tiled.shared_stores > 0, "tiled: %lld loads (9)", c.tiled.loads);
    CHECK(c.naive.loads / 9.0 > c.tiled.loads / 9.0, "fewer loads an output tiled (%.2f vs %.2f)", c.tiled.loads / 9.0,
          c.naive.loads / 9.0);
}

/* 16x16 blocks on 32x32 (clamp): 4 blocks of 8 warps, each warp two rows of
 * 16 threads. Loads an output: naive 9; tiled (18x18 cells) 324 a block of
 * 256 = 1.265625. Shared memory: one pass an access in the padded layout. */
static void test_blocks_16(void)
{
    kw_counts c;
    CHECK(kw_count(32, 32, 16, 16, CONV_BORDER_CLAMP, &c), "%s", err_msg());
    CHECK(c.blocks == 4 && c.warps == 32 && c.wasted == 0, "grid: %lld blocks, %lld warps", c.blocks, c.warps);
    CHECK(c.naive.loads == 9 * 1024 && c.naive.requests == 9 * 32, "naive: %lld loads, %lld requests", c.naive.loads,
          c.naive.requests);
    CHECK(c.tiled.loads == 4 * 324, "tiled: %lld loads (1296)", c.tiled.loads);
    CHECK(c.tiled.worst_read_passes == 1 && c.tiled.worst_store_passes == 1, "16x16: passes %d, %d",
          c.tiled.worst_read_passes, c.tiled.worst_store_passes);
    /* a warp's row of 16 floats at x = 0 or 16 is 64 aligned bytes: 2
     * sectors a row, 4 a request for dx = 0 (two rows) */
    CHECK(c.naive.sectors >= 4 * c.naive.requests && c.naive.sectors <= 6 * c.naive.requests,
          "naive: %.2f sectors a request (4 to 6)", (double)c.naive.sectors / c.naive.requests);
}

/* A shape that wastes threads: 24x24 on 512 wide: 22 blocks a row, 16
 * columns of threads idle at the right (528 - 512), and warps that straddle
 * rows. */
static void test_wasteful_shape(void)
{
    kw_counts c;
    CHECK(kw_count(512, 48, 24, 24, CONV_BORDER_CLAMP, &c), "%s", err_msg());
    CHECK(c.blocks == 22 * 2 && c.threads == 44LL * 576 && c.wasted == 44LL * 576 - 512 * 48,
          "24x24 on 512x48: %lld blocks, %lld wasted (%lld)", c.blocks, c.wasted, 44LL * 576 - 512 * 48);
    CHECK(c.warps == 44 * 18, "576 threads a block: 18 warps (%lld)", c.warps);
    CHECK(!kw_count(64, 64, 64, 32, CONV_BORDER_CLAMP, &c) && strstr(err_msg(), "1024"),
          "2048 threads a block refused: %s", err_msg());
}

static void test_wavefronts(void)
{
    int word[KW_WARP];
    bool active[KW_WARP];
    for (int i = 0; i < KW_WARP; ++i)
        word[i] = i, active[i] = true;
    CHECK(kw_wavefronts(word, active) == 1, "32 consecutive words: one pass");
    for (int i = 0; i < KW_WARP; ++i)
        word[i] = i * 32;
    CHECK(kw_wavefronts(word, active) == 32, "a column of a 32-wide array: 32 passes");
    for (int i = 0; i < KW_WARP; ++i)
        word[i] = 7;
    CHECK(kw_wavefronts(word, active) == 1, "one word for all: a broadcast, one pass");
    for (int i = 0; i < KW_WARP; ++i)
        word[i] = i * 2;
    CHECK(kw_wavefronts(word, active) == 2, "every other word: two pass");
}

/* The barrier's work, on a block worked out by hand: 32x2 threads, two
 * warps, one a row. The tile is 34x4 cells; warp 0 stores rows 0 and 2,
 * warp 1 rows 1 and 3. Warp 0's outputs read rows 0..2: row 1 is warp 1's;
 * warp 1's read rows 1..3: row 2 is warp 0's. So every output can race;
 * in one run, those of the warp that runs ahead do. With the barrier none
 * does, whatever the order; a block of one warp cannot race at all. */
static void test_races(void)
{
    kw_race r;
    int seen_some = 0;
    CHECK(kw_race_run(32, 2, false, 1, &r), "%s", err_msg());
    CHECK(r.warps == 2 && r.can_count == 64, "32x2: %d warps, %d of 64 outputs can race", r.warps, r.can_count);
    for (unsigned seed = 1; seed <= 50; ++seed) {
        bool subset = true;
        kw_race_run(32, 2, false, seed, &r);
        for (int l = 0; l < 64; ++l)
            subset = subset && (!r.raced[l] || r.can_race[l]);
        CHECK(subset, "seed %u: every output that raced could", seed);
        seen_some += r.raced_count > 0;
        kw_race_run(32, 2, true, seed, &r);
        CHECK(r.raced_count == 0, "seed %u with the barrier: %d raced", seed, r.raced_count);
    }
    CHECK(seen_some > 25, "without the barrier, %d of 50 seeded runs raced", seen_some);
    CHECK(kw_race_run(32, 1, false, 7, &r) && r.can_count == 0 && r.raced_count == 0,
          "one warp (32x1): nothing can race (%d)", r.can_count);
    /* 16x16: warp k is rows 2k, 2k+1 of the block; it stores tile rows 2k,
     * 2k+1 (and 16, 17 for warp 0) and reads rows 2k .. 2k+3, of which
     * 2k+2 and 2k+3 are the next warp's: every output can race */
    CHECK(kw_race_run(16, 16, false, 3, &r) && r.warps == 8 && r.can_count == 256, "16x16: %d can race", r.can_count);
    for (unsigned seed = 1; seed <= 20; ++seed)
        CHECK(kw_race_run(16, 16, true, seed, &r) && r.raced_count == 0, "16x16 seed %u with the barrier: %d", seed,
              r.raced_count);
}

/* kw_count takes the blocks wholly inside the image for others of their
 * alignment: the same figures as walking every block, on sizes and shapes
 * that give many alignments, under every border rule. */
static void test_classes(void)
{
    static const int cases[][4] = {{200, 150, 16, 16}, {513, 77, 16, 16}, {300, 90, 24, 24},
                                   {129, 131, 32, 8},  {97, 61, 8, 8},    {640, 48, 7, 5}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
            kw_counts fast, slow;
            const int *k = cases[i];
            CHECK(kw_count(k[0], k[1], k[2], k[3], b, &fast) && kw_count_every_block(k[0], k[1], k[2], k[3], b, &slow),
                  "%s", err_msg());
            CHECK(memcmp(&fast, &slow, sizeof fast) == 0,
                  "%dx%d, %dx%d blocks, border %d: the same counts (sectors %lld and %lld, lines %lld and %lld)", k[0],
                  k[1], k[2], k[3], b, fast.naive.sectors, slow.naive.sectors, fast.tiled.lines, slow.tiled.lines);
        }
}

/* One warp's trace adds up to what kw_count counts for a one-block image;
 * the one-warp row of 32 in hand values. */
static void test_trace(void)
{
    kw_request r[KW_MAX_REQUESTS];
    kw_counts c;
    long long sectors = 0, passes = 0;
    int n = kw_warp_trace(32, 1, 32, 1, CONV_BORDER_CLAMP, 0, 0, 0, r);
    CHECK(n == 9 + 2 * 6 + 9 + 1, "32x1: %d requests (31: 9 naive, 6 load and store pairs, 9 reads, 1 store)", n);
    CHECK(r[0].kind == KW_NAIVE_LOAD && r[0].lanes == 32 && r[0].sectors == 4 && r[0].first == 0 && r[0].last == 30,
          "tap (-1, -1): 32 lanes on x 0..30, 4 sectors (%d lanes, %d sectors, %lld..%lld)", r[0].lanes, r[0].sectors,
          r[0].first, r[0].last);
    CHECK(r[10].kind == KW_TILED_STORE && r[10].passes == 1 && r[11].kind == KW_TILED_LOAD && r[11].lanes == 2,
          "load iteration 1: 2 lanes (the halo's last columns)");
    kw_count(40, 24, 8, 8, CONV_BORDER_MIRROR, &c);
    for (int by = 0; by < 3; ++by)
        for (int bx = 0; bx < 5; ++bx)
            for (int k = 0; k < 2; ++k) {
                n = kw_warp_trace(40, 24, 8, 8, CONV_BORDER_MIRROR, bx, by, k, r);
                for (int i = 0; i < n; ++i) {
                    sectors += r[i].kind == KW_NAIVE_LOAD ? r[i].sectors : 0;
                    passes += r[i].kind == KW_TILED_READ ? r[i].passes : 0;
                }
            }
    CHECK(sectors == c.naive.sectors && passes == c.tiled.shared_read_passes,
          "every warp's trace adds up to the counts: %lld sectors (%lld), %lld passes (%lld)", sectors, c.naive.sectors,
          passes, c.tiled.shared_read_passes);
}

int main(void)
{
    test_one_warp();
    test_ragged_edge();
    test_zero_border();
    test_blocks_16();
    test_wasteful_shape();
    test_wavefronts();
    test_races();
    test_classes();
    test_trace();
    return CHECK_SUMMARY();
}
