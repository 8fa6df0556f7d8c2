/* The launchers of kernels/conv3x3.cu refuse a block or an image with no
 * threads or pixels, and a block over CUDA's 1024 threads on a side, with
 * cudaErrorInvalidConfiguration, before they divide by the block's size
 * (which would end the program on SIGFPE) and before any CUDA call; the
 * tiled launcher of any window refuses a window that is not odd and 1..31
 * on each side with cudaErrorInvalidValue, also before any CUDA call: so
 * this runs, linked with the real launchers, on a machine without a GPU. */
#include <cuda_runtime.h>
#include <stddef.h>

#include "../../kernels/conv3x3.h"
#include "check.h"

int main(void)
{
    static const int bad[][4] = {
        /* w, h, block_x, block_y */
        {16, 16, 0, 16}, {16, 16, 16, 0}, {16, 16, 0, 0},    {16, 16, -4, 8},   {16, 16, 8, -1},      {0, 16, 16, 16},
        {16, 0, 16, 16}, {-3, 5, 16, 16}, {16, 16, 2048, 1}, {16, 16, 1, 1025}, {1, 65536 * 2, 1, 1},
    };
    const int invalid = (int)cudaErrorInvalidConfiguration;
    conv_params p = {1.0f, 0, 3, 3, 1, 1, CONV_PAD_SAME, 1, 1, {0, 0, 0, 0, 1, 0, 0, 0, 0}};
    float dummy[4];

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        int w = bad[i][0], h = bad[i][1], bx = bad[i][2], by = bad[i][3];
        int naive = conv3x3_launch_naive(dummy, dummy, w, h, &p, bx, by, NULL);
        int tiled = conv3x3_launch_tiled(dummy, dummy, w, h, bx, by, NULL);
        int tiled3 = conv3x3_launch_tiled_k(dummy, dummy, w, h, 3, 3, bx, by, NULL);
        int tiled5 = conv3x3_launch_tiled_k(dummy, dummy, w, h, 5, 7, bx, by, NULL);
        CHECK(naive == invalid && tiled == invalid && tiled3 == invalid && tiled5 == invalid,
              "%dx%d image, %dx%d blocks: naive %d, tiled %d, tiled 3x3 %d, tiled 5x7 %d, %d expected", w, h, bx, by,
              naive, tiled, tiled3, tiled5, invalid);
    }
    {
        static const int windows[][2] = {{2, 3}, {3, 2}, {0, 1}, {1, -1}, {33, 1}, {1, 33}, {32, 31}};
        for (size_t i = 0; i < sizeof windows / sizeof windows[0]; ++i) {
            int kw = windows[i][0], kh = windows[i][1];
            int e = conv3x3_launch_tiled_k(dummy, dummy, 16, 16, kw, kh, 16, 16, NULL);
            CHECK(e == (int)cudaErrorInvalidValue && conv3x3_tiled_shared_bytes_k(16, 16, kw, kh) == 0,
                  "a %dx%d window: %d (%d expected), no shared memory", kw, kh, e, (int)cudaErrorInvalidValue);
        }
    }
    CHECK(conv3x3_launch_copy(dummy, dummy, 4, 0, NULL) == invalid, "copy kernel, blocks of 0");
    CHECK(conv3x3_launch_copy(dummy, dummy, 4, -1, NULL) == invalid, "copy kernel, blocks of -1");
    CHECK(conv3x3_launch_copy(dummy, dummy, 4, 1025, NULL) == invalid, "copy kernel, blocks of 1025");
    CHECK(conv3x3_launch_poison_shared(0, 16, 1, NULL) == invalid, "poison kernel, blocks of 0x16");
    CHECK(conv3x3_launch_poison_shared(16, -1, 1, NULL) == invalid, "poison kernel, blocks of 16x-1");
    CHECK(conv3x3_launch_poison_shared(1025, 1, 1, NULL) == invalid, "poison kernel, blocks of 1025x1");
    CHECK(conv3x3_launch_poison_shared(16, 16, 0, NULL) == invalid, "poison kernel, a grid of no blocks");
    CHECK(conv3x3_tiled_shared_bytes(0, 16) == 0 && conv3x3_tiled_shared_bytes(16, -1) == 0,
          "no shared memory for a block of no threads");
    CHECK(conv3x3_tiled_shared_bytes(16, 16) == sizeof(float) * 48 * 18,
          "16x16 blocks: a tile of 18 rows 48 words apart, %zu bytes", conv3x3_tiled_shared_bytes(16, 16));
    CHECK(conv3x3_tiled_shared_bytes_k(16, 16, 3, 3) == conv3x3_tiled_shared_bytes(16, 16),
          "a 3x3 window: the tile as before");
    CHECK(conv3x3_tiled_shared_bytes_k(16, 16, 5, 5) == sizeof(float) * 48 * 20,
          "16x16 blocks, 5x5: a tile of 20 rows 48 words apart, %zu bytes", conv3x3_tiled_shared_bytes_k(16, 16, 5, 5));
    CHECK(conv3x3_tiled_shared_bytes_k(16, 16, 31, 31) == sizeof(float) * 48 * 46,
          "16x16 blocks, 31x31: 46 rows 48 words apart, %zu bytes", conv3x3_tiled_shared_bytes_k(16, 16, 31, 31));
    CHECK(conv3x3_tiled_shared_bytes_k(7, 5, 31, 1) == sizeof(float) * 37 * 5,
          "7x5 blocks, 31x1: 5 rows of 37 words, %zu bytes", conv3x3_tiled_shared_bytes_k(7, 5, 31, 1));
    CHECK(conv3x3_tiled_shared_bytes_k(1024, 1, 31, 31) > 48 * 1024,
          "1024x1 blocks, 31x31: more than 48 KiB (%zu bytes)", conv3x3_tiled_shared_bytes_k(1024, 1, 31, 31));
    return CHECK_SUMMARY();
}
