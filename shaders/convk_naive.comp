// convk_naive.comp - the naive kernel for a window of any odd size (kw x kh,
// 1..CONV_MAX_SIDE a side) and any geometry (stride, dilation, padding):
// every invocation reads its kw * kh inputs from the storage buffer (global
// memory) itself. Compiled after conv3x3.glsl, which holds what every shader
// shares; a 3x3 window on the plain geometry runs conv3x3_naive.comp.
//
// Output (x, y) reads the input at (x0 + i*d, y0 + j*d) for tap (i, j), with
// (x0, y0) = (x*stride - pad_x, y*stride - pad_y) and d the dilation. Where
// the whole window lies inside the image the values are read as they are;
// elsewhere each row's and each column's coordinate is mapped by the border
// rule (conv_border_index, any distance past the edge: a window can be wider
// than the image). Then the products are added from 0.0 in tap order and
// divided once: what conv_pixel_any computes, so the result equals the
// reference bit for bit.

void main()
{
    int x = int(gl_GlobalInvocationID.x);
    int y = int(gl_GlobalInvocationID.y);

    // The dispatch is rounded up to whole work groups: the invocations past
    // the output's right and bottom edges have nothing to compute.
    if (x >= u_out_w || y >= u_out_h)
        return;
    int d = u_dilation, t = 0;
    int x0 = x * u_stride - u_pad_x, y0 = y * u_stride - u_pad_y;
    int span_w = d * (u_kw - 1) + 1, span_h = d * (u_kh - 1) + 1;
    precise float sum = 0.0;
    if (x0 >= 0 && x0 + span_w <= u_w && y0 >= 0 && y0 + span_h <= u_h) {
        // the whole window inside the image: the border rule maps nothing
        for (int j = 0; j < u_kh; ++j) {
            int row = (y0 + j * d) * u_w + x0;
            for (int i = 0; i < u_kw; ++i, ++t)
                sum += conv_product(in_px[row + i * d], u_weights[t]);
        }
    } else {
        for (int j = 0; j < u_kh; ++j) {
            int sy = conv_border_index(y0 + j * d, u_h, u_border);
            for (int i = 0; i < u_kw; ++i, ++t)
                sum += conv_product(conv_read(conv_border_index(x0 + i * d, u_w, u_border), sy), u_weights[t]);
        }
    }
    out_px[y * u_out_w + x] = conv_finish(sum, u_divisor);
}
