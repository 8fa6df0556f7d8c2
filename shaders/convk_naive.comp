// convk_naive.comp - the naive kernel for a window of any odd size (kw x kh,
// 1..CONV_MAX_SIDE a side): every invocation reads its kw * kh inputs from
// the storage buffer (global memory) itself. Compiled after conv3x3.glsl,
// which holds what every shader shares; a 3x3 window runs conv3x3_naive.comp.
//
// Where the window lies inside the image the values are read as they are;
// elsewhere each row's and each column's coordinate is mapped by the border
// rule (conv_border_index, any distance past the edge: a window can be wider
// than the image). Then the values are read in tap order and their products added
// from 0.0 in that order, then divided once: what conv_pixel_any computes,
// so the result equals the reference bit for bit.

void main()
{
    int x = int(gl_GlobalInvocationID.x);
    int y = int(gl_GlobalInvocationID.y);

    // The dispatch is rounded up to whole work groups: the invocations past
    // the right and bottom edges have no output.
    if (x >= u_w || y >= u_h)
        return;
    int rx = u_kw / 2, ry = u_kh / 2, t = 0;
    precise float sum = 0.0;
    if (x >= rx && x + rx < u_w && y >= ry && y + ry < u_h) {
        // the whole window inside the image: the border rule maps nothing
        for (int j = -ry; j <= ry; ++j) {
            int row = (y + j) * u_w + x;
            for (int i = -rx; i <= rx; ++i, ++t)
                sum += conv_product(in_px[row + i], u_weights[t]);
        }
    } else {
        for (int j = -ry; j <= ry; ++j) {
            int sy = conv_border_index(y + j, u_h, u_border);
            for (int i = -rx; i <= rx; ++i, ++t)
                sum += conv_product(conv_read(conv_border_index(x + i, u_w, u_border), sy), u_weights[t]);
        }
    }
    out_px[y * u_w + x] = conv_finish(sum, u_divisor);
}
