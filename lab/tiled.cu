// tiled.cu - the kernel lab's CUDA starter: the tiled 3x3 convolution, with
// two parts left for you to write, as in lab/tiled.comp (GLSL). Copy it, and
// run `convis lab YOUR-COPY.cu --watch` where convis is built with CUDA: NVRTC compiles it at run time, and on a
// machine with an NVIDIA GPU convis runs it, compares every output with its
// own, bit for bit, counts the global reads of each block and times it.
//
// A block of 16x16 threads computes a 16x16 block of outputs from an 18x18
// tile in shared memory: its own inputs and a one-cell halo around them.
// What you may call: lab_in(img, x, y) reads the input (counted),
// lab_out(img, x, y, v) writes an output, lab_combine(img, value) adds the
// nine products (value[t] is tap t, row by row).

#define TILE 18 // 16 + 2: the block and its halo

extern "C" __global__ void lab_kernel(lab_image img)
{
    __shared__ float tile[TILE * TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * 16 - 1; // the image column of the tile's cell (0, 0)
    int y0 = blockIdx.y * 16 - 1;

    // 1. Load: each thread stores the input under its own output, at cell
    //    (tx + 1, ty + 1) of the tile.
    tile[(ty + 1) * TILE + tx + 1] = lab_in(img, x0 + tx + 1, y0 + ty + 1);
    // TODO 1: the halo. The ring of cells around the block (row 0, row 17,
    //    column 0, column 17) is still empty. Have some threads load it:
    //    cell (col, row) of the tile holds lab_in(img, x0 + col, y0 + row).

    // TODO 2: wait. No thread may read the tile before every one has written
    //    its part of it.

    // 3. Compute: the nine cells around (tx + 1, ty + 1).
    float value[9];
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            value[dy * 3 + dx] = tile[(ty + dy) * TILE + tx + dx];
    lab_out(img, x0 + tx + 1, y0 + ty + 1, lab_combine(img, value));
}
