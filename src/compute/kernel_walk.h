/* kernel_walk.h - what the CUDA kernels do inside the GPU, counted by
 * walking their own index functions (kernels/conv3x3_body.h) over the real
 * grid on the CPU: warps of 32 consecutive threads, the global-memory
 * addresses each warp asks for in one instruction and the 32-byte sectors
 * and 128-byte lines they fall in, the shared-memory banks of the tiled
 * kernel's tile, and the threads a block shape wastes at the image's right
 * and bottom edges. Nothing here is measured: these are counts of what the
 * kernels' code asks of the memory, the same on any NVIDIA GPU (a warp is 32
 * threads, a sector 32 bytes, shared memory 32 banks of 4 bytes), and the
 * figures say so wherever they are shown ("counted from the kernel's index
 * functions").
 *
 * A warp is threads k*32 .. k*32+31 of a block in the order CUDA numbers
 * them, ty*bdx + tx. A request is one load or store instruction of a warp,
 * made only by its active lanes: the naive kernel's tap t (a lane whose tap
 * reads zero by the border rule loads nothing), the tiled kernel's load loop
 * iteration (row step, column step), a write of the outputs. Its sectors are
 * the distinct 32-byte pieces of memory its lanes' addresses touch. */
#ifndef CONVIS_KERNEL_WALK_H
#define CONVIS_KERNEL_WALK_H

#include <stdbool.h>

#define KW_WARP 32
#define KW_SECTOR 32 /* bytes */
#define KW_LINE 128  /* bytes */
#define KW_BANKS 32  /* of 4 bytes */

/* One kernel's traffic on one image with one block shape. */
typedef struct kw_traffic {
    long long loads;    /* global loads, counted per thread */
    long long requests; /* ... per warp instruction */
    long long sectors;  /* 32-byte sectors those requests touch, summed */
    long long lines;    /* 128-byte lines, summed the same way */
    long long store_requests, store_sectors;
    /* the tiled kernel's shared memory (zero for naive): warp accesses and
     * the passes (wavefronts) they take over the 32 banks */
    long long shared_reads, shared_read_passes;
    long long shared_stores, shared_store_passes;
    int worst_read_passes, worst_store_passes; /* of one warp access */
} kw_traffic;

typedef struct kw_counts {
    int w, h, bdx, bdy;
    long long outputs; /* w * h */
    long long blocks;  /* the grid: ceil(w / bdx) * ceil(h / bdy) */
    long long threads; /* blocks * bdx * bdy */
    long long wasted;  /* threads with no output: past the right or bottom edge */
    long long warps;   /* blocks * ceil(bdx * bdy / 32) */
    kw_traffic naive, tiled;
} kw_counts;

/* Walks both kernels over a w x h image with blocks of bdx x bdy threads
 * and the border rule `border` (a conv_border). False with a sentence when
 * the shape cannot run (over 1024 threads a block, a tile over 48 KiB) or
 * the image is empty. Blocks wholly inside the image are walked once for
 * each alignment to the 128-byte lines and added up, so a large image
 * costs little more than its edges. Not reentrant (one thread at a time:
 * it keeps its scratch in static storage, as kw_race_run does). */
bool kw_count(int w, int h, int bdx, int bdy, int border, kw_counts *out);

/* ---- the tiled kernel without its barrier --------------------------------
 * One block of the tiled kernel, simulated on the CPU (a simulation, and
 * labelled so): its warps run their instructions in lockstep, lane by lane
 * alike, and a seeded scheduler picks which warp goes next and lets it run
 * ahead for up to its whole program, as a GPU's warp schedulers may. Each warp stores
 * its tile cells (the load loop), then, unless the barrier holds it until
 * every warp has, reads its nine cells a thread and writes its output. A
 * read of a cell no warp has stored yet reads whatever the shared memory
 * held: a race.
 *
 * can_race: the outputs that can read a cell too early under some order,
 * counted exactly: those that read a cell another warp stores (a warp's own
 * stores come before its reads). raced: those that did in this seeded run. */
#define KW_MAX_THREADS 1024

typedef struct kw_race {
    int bdx, bdy, warps;
    bool barrier;
    unsigned seed;
    unsigned char can_race[KW_MAX_THREADS]; /* by thread ty*bdx + tx */
    unsigned char raced[KW_MAX_THREADS];    /* ... reads too early in this run (how many) */
    int can_count, raced_count;
    long long steps; /* instructions the run took, over all warps */
} kw_race;

/* Simulates one bdx x bdy block of the tiled kernel, with or without its
 * barrier, under the schedule `seed` picks. False with a sentence for a
 * shape that cannot run. */
bool kw_race_run(int bdx, int bdy, bool barrier, unsigned seed, kw_race *out);

/* The tiled kernel's load loop (kernels/conv3x3_body.h): how many
 * iterations it has (row steps times column steps). */
int kw_tile_iterations(int bdx, int bdy);

/* The tile cell (col, row) thread (tx, ty) stores in iteration `it` of
 * that loop; 0 when the iteration stores nothing for it (past the tile). */
int kw_tile_cell(int tx, int ty, int it, int bdx, int bdy, int *col, int *row);

/* One warp instruction that touches memory, as kw_count counts it. */
typedef enum kw_kind {
    KW_NAIVE_LOAD,  /* the naive kernel's tap `step` (0..8) */
    KW_TILED_LOAD,  /* the tiled kernel's load loop, iteration `step`: global loads ... */
    KW_TILED_STORE, /* ... and the same iteration's stores into the tile */
    KW_TILED_READ,  /* the tiled kernel's tap `step` read from the tile */
    KW_OUT_STORE    /* the write of the outputs (both kernels) */
} kw_kind;

typedef struct kw_request {
    kw_kind kind;
    int step;
    int lanes;             /* active lanes */
    int sectors, lines;    /* global memory; 0 for shared */
    int passes;            /* shared memory; 0 for global */
    long long first, last; /* the lowest and highest element index (global) or word (shared) asked */
} kw_request;

#define KW_MAX_REQUESTS 64

/* Every memory instruction of warp k of block (bx, by), both kernels, in
 * program order (naive: 9 loads, a store; tiled: the load loop's loads and
 * stores, 9 tile reads, a store): the count, into out[]. */
int kw_warp_trace(int w, int h, int bdx, int bdy, int border, int bx, int by, int k, kw_request out[KW_MAX_REQUESTS]);

/* kw_count walking every block, none taken for another: the same figures,
 * slowly (what the tests hold kw_count to). */
bool kw_count_every_block(int w, int h, int bdx, int bdy, int border, kw_counts *out);

/* Passes one warp access to these shared-memory words takes: the most
 * distinct words any bank is asked for (lanes asking the same word share
 * it); active[i] false: lane i takes no part. */
int kw_wavefronts(const int word[KW_WARP], const bool active[KW_WARP]);

#endif
