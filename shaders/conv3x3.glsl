#version 430
// conv3x3.glsl - what the two compute shaders of the `gl` engine share (the
// engine compiles this file, then conv3x3_naive.comp or conv3x3_tiled.comp,
// as one shader): the work-group size, the buffers and uniforms, the border
// rules and the arithmetic of one output. Run by src/compute/gl_compute.c.
//
// This file is the one other copy of the arithmetic in src/core/conv_pixel.h
// (docs/ARCHITECTURE.md, section 1) and mirrors it function for function: the same tap
// order, the same border rules (zero, clamp, mirror reflect-101 including a
// one-pixel axis, wrap), the sum from 0.0 in tap order, then one division.
// tests/gl/test_gl_engine.c holds the two equal for every preset, border mode
// and flip on odd sizes. Change one, change the other.
//
// `precise` keeps the GL compiler from fusing a product and the sum into one
// fused multiply-add, as -ffp-contract=off does for C and --fmad=false for
// CUDA, so the GPU rounds as the CPU does.

// The work-group size: said here and only here. gl_compute.c reads it back
// from the linked program (GL_COMPUTE_WORK_GROUP_SIZE) to size the dispatch,
// and the tiled shader sizes its tile from it (gl_WorkGroupSize).
layout(local_size_x = 16, local_size_y = 16, local_size_z = 1) in;

// Row-major float planes of u_w x u_h, index y * u_w + x. gl_compute.c finds
// the binding points by these block names.
layout(std430, binding = 0) readonly restrict buffer conv_input { float in_px[]; };
layout(std430, binding = 1) writeonly restrict buffer conv_output { float out_px[]; };

uniform int u_w;            // columns
uniform int u_h;            // rows
uniform float u_weight[9];  // weight[t] for tap t, already flipped for true convolution
uniform float u_divisor;    // never 0
uniform int u_border;       // a conv_border

// Windows of any odd size (convk_naive.comp, convk_tiled.comp): kw x kh taps,
// weight[t] of tap t in reading order (conv_pixel.h). The array is as long
// as the largest window, CONV_MAX_TAPS: gl_compute.c checks the length the
// linked program reports against the C constant. Unused by the 3x3 shaders
// (an unused uniform takes no space).
const int CONV_MAX_SIDE = 31;
const int CONV_MAX_TAPS = CONV_MAX_SIDE * CONV_MAX_SIDE;
uniform int u_kw;                          // columns of the window: odd, 1..CONV_MAX_SIDE
uniform int u_kh;                          // rows
uniform float u_weights[CONV_MAX_TAPS];    // the first u_kw * u_kh used
// Their geometry (conv_params in conv_pixel.h): output (x, y) lays its
// window's top-left tap on the input at (x*u_stride - u_pad_x,
// y*u_stride - u_pad_y), tap (i, j) at that plus (i, j) * u_dilation. The
// output is u_out_w x u_out_h (the input's size on the plain geometry:
// stride 1, dilation 1, pad kw/2 and kh/2).
uniform int u_out_w;
uniform int u_out_h;
uniform int u_stride;     // 1..CONV_MAX_STRIDE
uniform int u_dilation;   // 1..CONV_MAX_DILATION
uniform int u_pad_x;      // the window's overhang left
uniform int u_pad_y;      // and top

// conv_border, in the order of conv_pixel.h
const int CONV_BORDER_ZERO = 0;
const int CONV_BORDER_CLAMP = 1;
const int CONV_BORDER_MIRROR = 2;
const int CONV_BORDER_WRAP = 3;

// The offset of tap t (0..8) from the output pixel, taps in reading order.
int conv_tap_dx(int t) { return t % 3 - 1; }
int conv_tap_dy(int t) { return t / 3 - 1; }

// C's i % n for n > 0 and i of either sign (the result takes i's sign). GLSL
// leaves % undefined when an operand is negative, so the sign is done here.
int c_rem(int i, int n)
{
    return i < 0 ? -((-i) % n) : i % n;
}

// Maps coordinate i on an axis of n pixels (n >= 1) into [0, n) by the border
// rule, or returns -1 when the tap reads zero. Mirrors conv_border_index.
int conv_border_index(int i, int n, int border)
{
    if (i >= 0 && i < n)
        return i;
    if (border == CONV_BORDER_CLAMP)
        return i < 0 ? 0 : n - 1;
    if (border == CONV_BORDER_MIRROR) {
        if (n == 1)
            return 0;
        int period = 2 * (n - 1);
        i = c_rem(i, period);
        if (i < 0)
            i += period;
        return i < n ? i : period - i;
    }
    if (border == CONV_BORDER_WRAP) {
        i = c_rem(i, n);
        return i < 0 ? i + n : i;
    }
    return -1; // CONV_BORDER_ZERO
}

// The input value that tap t of output (x, y) reads. Mirrors conv_fetch.
float conv_fetch(int x, int y, int t)
{
    int sx = conv_border_index(x + conv_tap_dx(t), u_w, u_border);
    int sy = conv_border_index(y + conv_tap_dy(t), u_h, u_border);
    if (sx < 0 || sy < 0)
        return 0.0;
    return in_px[sy * u_w + sx];
}

// One tap's product, and the end of an output: the two arithmetic steps.
float conv_product(float value, float weight)
{
    precise float product = value * weight;
    return product;
}

float conv_finish(float sum, float divisor)
{
    precise float result = sum / divisor;
    return result;
}

// One output from the nine values under the window. Mirrors conv_combine.
float conv_combine(float value[9])
{
    precise float sum = 0.0; // tap by tap, written out: constant indices, no loop to unroll
    sum += conv_product(value[0], u_weight[0]);
    sum += conv_product(value[1], u_weight[1]);
    sum += conv_product(value[2], u_weight[2]);
    sum += conv_product(value[3], u_weight[3]);
    sum += conv_product(value[4], u_weight[4]);
    sum += conv_product(value[5], u_weight[5]);
    sum += conv_product(value[6], u_weight[6]);
    sum += conv_product(value[7], u_weight[7]);
    sum += conv_product(value[8], u_weight[8]);
    return conv_finish(sum, u_divisor);
}

// conv_border_index for a coordinate at most one pixel past the image
// (i in [-1, n]: where a 3x3 tap can reach), the same index without a
// branch: on a GPU, and on a CPU renderer running invocations side by side
// in vector lanes, every lane then follows one path. Coordinates further
// out are first brought to -1 or n (their value is never used).
int conv_edge_index(int i, int n, int border)
{
    i = clamp(i, -1, n);
    bool low = i < 0;
    int clamped = low ? 0 : n - 1;
    int mirrored = n == 1 ? 0 : (low ? 1 : n - 2);
    int wrapped = low ? n - 1 : 0;
    int mapped = border == CONV_BORDER_CLAMP ? clamped
               : border == CONV_BORDER_MIRROR ? mirrored
               : border == CONV_BORDER_WRAP ? wrapped : -1;
    return (low || i >= n) ? mapped : i;
}

// The input at column sx, row sy (indices from conv_edge_index), or 0 where
// either is -1 (the zero rule). The load itself always stays in the buffer.
float conv_read(int sx, int sy)
{
    float v = in_px[max(sy, 0) * u_w + max(sx, 0)];
    return (sx < 0 || sy < 0) ? 0.0 : v;
}

