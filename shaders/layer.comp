// layer.comp - a convolution layer (src/core/layer.h) on the gl engine, in
// three stages of this one file, each built as its own program after
// conv3x3.glsl (the work group, the buffers, the uniforms of the geometry
// and the border rules), LAYER_STAGE defined before it by
// src/compute/gl_layer.c:
//   0 direct   invocation (x, y, o): output o at (x, y), every channel's
//              window read from the input planes (conv_input: c_in planes
//              of u_w x u_h, one after another)
//   1 im2col   invocation (x, y, r): element (r, y*u_out_w + x) of the
//              unrolled matrix, written to conv_output
//   2 gemm     invocation (x, y, o): the matrix (now conv_input) against
//              filter o's weights, row by row
// The sums are core/layer.c's in its order (channel, then row, then column
// of the window, from 0.0, then the bias), `precise` so no product is fused
// into the sum: direct and im2col + gemm are the direct loop's bits.

uniform int u_c_in;  // channels in
uniform int u_k;     // the window's side (odd)

// w_px[((o * u_c_in + c) * u_k + j) * u_k + i]: filter o, channel c, tap (i, j); b_px[o]: its bias
layout(std430, binding = 2) readonly restrict buffer layer_weights { float w_px[]; };
layout(std430, binding = 3) readonly restrict buffer layer_bias { float b_px[]; };

// Channel c at (x, y), by the border rule.
float layer_sample(int c, int x, int y)
{
    int sx = conv_border_index(x, u_w, u_border);
    int sy = conv_border_index(y, u_h, u_border);
    if (sx < 0 || sy < 0)
        return 0.0;
    return in_px[c * u_w * u_h + sy * u_w + sx];
}

void main()
{
    int x = int(gl_GlobalInvocationID.x);
    int y = int(gl_GlobalInvocationID.y);
    int z = int(gl_WorkGroupID.z);
    if (x >= u_out_w || y >= u_out_h)
        return;
    int n = u_out_w * u_out_h, q = y * u_out_w + x, kk = u_k * u_k, d = u_dilation;
    int x0 = x * u_stride - u_pad_x, y0 = y * u_stride - u_pad_y;
#if LAYER_STAGE == 0
    precise float sum = 0.0;
    for (int c = 0; c < u_c_in; ++c) {
        int base = (z * u_c_in + c) * kk;
        for (int j = 0; j < u_k; ++j)
            for (int i = 0; i < u_k; ++i)
                sum += conv_product(layer_sample(c, x0 + i * d, y0 + j * d), w_px[base + j * u_k + i]);
    }
    precise float result = sum + b_px[z];
    out_px[z * n + q] = result;
#elif LAYER_STAGE == 1
    int c = z / kk, t = z - c * kk;
    out_px[z * n + q] = layer_sample(c, x0 + (t % u_k) * d, y0 + (t / u_k) * d);
#else
    int rows = u_c_in * kk;
    precise float sum = 0.0;
    for (int r = 0; r < rows; ++r)
        sum += conv_product(in_px[r * n + q], w_px[z * rows + r]);
    precise float result = sum + b_px[z];
    out_px[z * n + q] = result;
#endif
}
