// convk_tiled.comp - the tiled kernel for a window of any odd size (kw x kh,
// 1..CONV_MAX_SIDE a side) and any geometry, as conv3x3_tiled.comp: a work
// group of bdx x bdy invocations computes bdx x bdy outputs from the inputs
// under them, loaded into shared memory first. The tile is the span those
// outputs' windows cover: (bdx - 1)*stride + (kw - 1)*dilation + 1 columns
// by (bdy - 1)*stride + (kh - 1)*dilation + 1 rows, which on the plain
// geometry is bdx + kw - 1 by bdy + kh - 1 (the outputs' inputs and a halo of
// kw/2 and kh/2). Compiled after conv3x3.glsl and a line that defines
// CONV_TILE_WORDS, the floats the tile is declared with (gl_compute.c: the
// tile of the plain CONV_MAX_SIDE window where GL_MAX_COMPUTE_SHARED_MEMORY_SIZE
// allows it; a larger span is refused there, in a sentence); a 3x3 window on
// the plain geometry runs conv3x3_tiled.comp.
//
// 1. load: invocation (tx, ty) fills the cells (col, row) with
//    col = tx, tx + bdx, ... < tile_w and row = ty, ty + bdy, ...;
//    cell (col, row) holds the input at (gx*bdx*stride - pad_x + col,
//    gy*bdy*stride - pad_y + row) through the border rule (conv_border_index,
//    any distance past the edge, and conv_read; a tile wholly inside the
//    image is read as it is).
// 2. barrier: no invocation reads the tile before every one has written.
// 3. compute: tap (i, j) of invocation (tx, ty) is the cell
//    (tx*stride + i*dilation, ty*stride + j*dilation), which holds the input
//    that conv_pixel_any reads for that tap; the products added in tap order
//    from 0.0, then one division: the reference's result bit for bit.
// Invocations past the output's edge load too (every invocation must reach
// the barrier) and compute nothing. Rows lie tile_w words apart.

const int BDX = int(gl_WorkGroupSize.x);
const int BDY = int(gl_WorkGroupSize.y);

shared float tile[CONV_TILE_WORDS];

void main()
{
    int tx = int(gl_LocalInvocationID.x);
    int ty = int(gl_LocalInvocationID.y);
    int s = u_stride, d = u_dilation;
    int tile_w = (BDX - 1) * s + (u_kw - 1) * d + 1, tile_h = (BDY - 1) * s + (u_kh - 1) * d + 1;
    int x = int(gl_WorkGroupID.x) * BDX + tx; // this invocation's output
    int y = int(gl_WorkGroupID.y) * BDY + ty;
    int x0 = int(gl_WorkGroupID.x) * BDX * s - u_pad_x; // the image column of the tile's first cell
    int y0 = int(gl_WorkGroupID.y) * BDY * s - u_pad_y;

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

    if (x >= u_out_w || y >= u_out_h)
        return;
    precise float sum = 0.0;
    int t = 0;
    for (int j = 0; j < u_kh; ++j) {
        int c = (ty * s + j * d) * tile_w + tx * s; // the cell of the row's first tap
        for (int i = 0; i < u_kw; ++i, ++t)
            sum += conv_product(tile[c + i * d], u_weights[t]);
    }
    out_px[y * u_out_w + x] = conv_finish(sum, u_divisor);
}
