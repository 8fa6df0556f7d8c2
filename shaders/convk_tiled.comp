// convk_tiled.comp - the tiled kernel for a window of any odd size (kw x kh,
// 1..CONV_MAX_SIDE a side), as conv3x3_tiled.comp with a halo of kw/2
// columns and kh/2 rows: a work group of bdx x bdy invocations loads the
// (bdx + kw - 1) x (bdy + kh - 1) inputs under its outputs into shared
// memory, waits at a barrier until the whole tile is there, then each
// invocation reads its kw * kh values from the tile. Compiled after
// conv3x3.glsl and a line that defines CONV_TILE_SIDE, the widest window the
// tile is declared for (gl_compute.c: CONV_MAX_SIDE where
// GL_MAX_COMPUTE_SHARED_MEMORY_SIZE allows it); a 3x3 window runs
// conv3x3_tiled.comp.
//
// 1. load: invocation (tx, ty) fills the cells (col, row) with
//    col = tx, tx + bdx, ... < bdx + kw - 1 and row = ty, ty + bdy, ...;
//    cell (col, row) holds the input at (gx*bdx + col - kw/2,
//    gy*bdy + row - kh/2) through the border rule (conv_border_index, any
//    distance past the edge, and conv_read; a tile wholly inside the image
//    is read as it is).
// 2. barrier: no invocation reads the tile before every one has written.
// 3. compute: the kw x kh cells from (tx, ty), products added in tap order
//    from 0.0, then one division: what conv_pixel_any computes, bit for bit.
// Invocations past the image's edge load too (every invocation must reach
// the barrier) and compute nothing. Rows lie bdx + kw - 1 words apart.

const int BDX = int(gl_WorkGroupSize.x);
const int BDY = int(gl_WorkGroupSize.y);

shared float tile[(BDX + CONV_TILE_SIDE - 1) * (BDY + CONV_TILE_SIDE - 1)];

void main()
{
    int tx = int(gl_LocalInvocationID.x);
    int ty = int(gl_LocalInvocationID.y);
    int rx = u_kw / 2, ry = u_kh / 2;
    int tile_w = BDX + u_kw - 1, tile_h = BDY + u_kh - 1;
    int x0 = int(gl_WorkGroupID.x) * BDX - rx; // the image column of the tile's first cell
    int y0 = int(gl_WorkGroupID.y) * BDY - ry;
    int x = x0 + rx + tx;
    int y = y0 + ry + ty;

    if (x0 >= 0 && x0 + tile_w <= u_w && y0 >= 0 && y0 + tile_h <= u_h) {
        // the whole tile inside the image (the same for the whole work group): read as it is
        for (int row = ty; row < tile_h; row += BDY)
            for (int col = tx; col < tile_w; col += BDX)
                tile[row * tile_w + col] = in_px[(y0 + row) * u_w + x0 + col];
    } else {
        for (int row = ty; row < tile_h; row += BDY) {
            int sy = conv_border_index(y0 + row, u_h, u_border);
            for (int col = tx; col < tile_w; col += BDX)
                tile[row * tile_w + col] = conv_read(conv_border_index(x0 + col, u_w, u_border), sy);
        }
    }
    memoryBarrierShared();
    barrier();

    if (x >= u_w || y >= u_h)
        return;
    precise float sum = 0.0;
    int t = 0;
    for (int j = 0; j < u_kh; ++j) {
        int c = (ty + j) * tile_w + tx; // the cell of the row's first tap
        for (int i = 0; i < u_kw; ++i, ++t)
            sum += conv_product(tile[c + i], u_weights[t]);
    }
    out_px[y * u_w + x] = conv_finish(sum, u_divisor);
}
