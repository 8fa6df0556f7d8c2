// A right tiled CUDA kernel: the halo loaded, the barrier, nine reads of the tile.
#define TILE 18
extern "C" __global__ void lab_kernel(lab_image img)
{
    __shared__ float tile[TILE * TILE];
    int tx = threadIdx.x, ty = threadIdx.y, x0 = blockIdx.x * 16 - 1, y0 = blockIdx.y * 16 - 1;
    for (int row = ty; row < TILE; row += 16)
        for (int col = tx; col < TILE; col += 16)
            tile[row * TILE + col] = lab_in(img, x0 + col, y0 + row);
    __syncthreads();
    float value[9];
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            value[dy * 3 + dx] = tile[(ty + dy) * TILE + tx + dx];
    lab_out(img, x0 + tx + 1, y0 + ty + 1, lab_combine(img, value));
}
