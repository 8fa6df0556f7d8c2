// conv3x3_tiled.comp - the tiled kernel, as the CUDA one
// (kernels/conv3x3_body.h): a work group of bdx x bdy invocations loads the
// (bdx + 2) x (bdy + 2) inputs under its outputs, with a one-pixel halo,
// into shared memory, waits at a barrier until the whole tile is there,
// then each invocation reads its nine values from the tile. Compiled after
// conv3x3.glsl, which holds what both shaders share.
//
// 1. load: invocation (tx, ty) fills the cells (col, row) with
//    col = tx, tx + bdx, ... < bdx + 2 and row = ty, ty + bdy, ... < bdy + 2;
//    cell (col, row) holds the input at (gx*bdx + col - 1, gy*bdy + row - 1)
//    through the border rule (conv_edge_index, conv_read). Neighbours load
//    neighbours.
// 2. barrier: no invocation reads the tile before every one has written.
// 3. compute: the nine cells around (tx + 1, ty + 1), combined.
// Tap t then reads exactly what conv_fetch reads: the result equals the
// reference bit for bit. Invocations past the image's edge load too (every
// invocation must reach the barrier) and compute nothing. Rows lie `STRIDE`
// words apart as in the CUDA tile (conv3x3_tile_stride: an odd multiple of
// bdx when bdx is a power of two below 32, so a subgroup's reads do not
// meet in one bank).

const int BDX = int(gl_WorkGroupSize.x);
const int BDY = int(gl_WorkGroupSize.y);
const int TILE_W = BDX + 2;
const int TILE_H = BDY + 2;
const int STRIDE = (BDX < 32 && (BDX & (BDX - 1)) == 0) ? 3 * BDX : BDX + 2;

shared float tile[STRIDE * TILE_H];

void main()
{
    int tx = int(gl_LocalInvocationID.x);
    int ty = int(gl_LocalInvocationID.y);
    int x0 = int(gl_WorkGroupID.x) * BDX - 1; // the image column of the tile's first cell
    int y0 = int(gl_WorkGroupID.y) * BDY - 1;
    int x = x0 + 1 + tx;
    int y = y0 + 1 + ty;
    float value[9];

    for (int row = ty; row < TILE_H; row += BDY)
        for (int col = tx; col < TILE_W; col += BDX)
            tile[row * STRIDE + col] = conv_read(conv_edge_index(x0 + col, u_w, u_border),
                                                 conv_edge_index(y0 + row, u_h, u_border));
#ifndef CONVIS_NO_BARRIER // left out only to show what it prevents (the race; never for a result)
    memoryBarrierShared();
    barrier();
#endif

    if (x >= u_w || y >= u_h)
        return;
    int c = ty * STRIDE + tx; // the cell of tap 0: one up and one left of the output's own
    value[0] = tile[c];
    value[1] = tile[c + 1];
    value[2] = tile[c + 2];
    value[3] = tile[c + STRIDE];
    value[4] = tile[c + STRIDE + 1];
    value[5] = tile[c + STRIDE + 2];
    value[6] = tile[c + 2 * STRIDE];
    value[7] = tile[c + 2 * STRIDE + 1];
    value[8] = tile[c + 2 * STRIDE + 2];
    out_px[y * u_w + x] = conv_combine(value);
}
