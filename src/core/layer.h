/* layer.h - a convolution layer: C_in input channels, C_out filters of
 * C_in x K x K weights and a bias each, and the two ways of computing it
 * that are ours: direct (a loop per output) and im2col + GEMM (the input
 * unrolled into a matrix, then one matrix product).
 *
 * Output o at (x, y) is
 *     sum over c in 0..C_in-1, j in 0..K-1, i in 0..K-1 (in that order) of
 *         w[o][c][j][i] * in_c(window tap (i, j))
 * added from 0.0f, then the bias added: C_in * K^2 products. The taps and
 * the border rule are conv_params' (stride, dilation, padding, border), as
 * for one channel. The GEMM adds the same products in the same order (row
 * k = c*K*K + j*K + i of the unrolled matrix), so its outputs are the
 * direct loop's bits, by construction; a library's GEMM adds them in its
 * own order and is compared with a tolerance (layer_tolerance). */
#ifndef CONVIS_LAYER_H
#define CONVIS_LAYER_H

#include <stdbool.h>
#include <stddef.h>

#include "conv_pixel.h"
#include "image.h"

#define LAYER_MAX_CHANNELS 64 /* C_in and C_out, at most */
#define LAYER_MAX_K 7         /* K, odd, 1..7 */
#define LAYER_NAME 48

/* C planes of w x h floats, one after another: plane c at px + c*w*h. */
typedef struct layer_tensor {
    int c, w, h;
    float *px;
} layer_tensor;

typedef struct layer_filters {
    char name[LAYER_NAME]; /* "edges", "opponent", "blur", "random:16", a file's name */
    int c_in, c_out, k;
    float *w;    /* c_out x c_in x k x k: w[((o*c_in + c)*k + j)*k + i] */
    float *bias; /* c_out */
    char out_name[LAYER_MAX_CHANNELS][24]; /* what each output shows ("edge 0°", "red-green"), untranslated */
} layer_filters;

bool layer_tensor_alloc(layer_tensor *t, int c, int w, int h);
void layer_tensor_free(layer_tensor *t);
static inline float *layer_plane(const layer_tensor *t, int c)
{
    return t->px + (long)c * t->w * t->h;
}

/* The image's channels: with `colour` and a colour image (img_is_colour),
 * three planes, red, green and blue, the colour pixels' 8-bit values
 * (0..255); else one, the luma plane, with every bit of the file. False
 * with a sentence when there is no room. */
bool layer_from_image(const img_image *img, bool colour, layer_tensor *out);

/* Room for c_out filters of c_in x k x k, every weight and bias 0. False
 * with a sentence when a count is out of range or there is no room. */
bool layer_filters_alloc(layer_filters *f, int c_in, int c_out, int k);
void layer_filters_free(layer_filters *f);
bool layer_filters_copy(const layer_filters *f, layer_filters *out);
static inline float *layer_weight(const layer_filters *f, int o, int c)
{
    return f->w + ((long)o * f->c_in + c) * f->k * f->k;
}

/* The presets, for c_in channels (3 for a colour image, 1 for a grey one):
 *   edges     4 outputs: Sobel at 0, 45, 90 and 135 degrees on every channel
 *   opponent  3 outputs (colour only): red centre less green surround,
 *             green centre less red surround, blue centre less the mean of
 *             red and green around it (what the eye calls blue against yellow)
 *   blur      c_in outputs: each channel through the 3x3 Gaussian, alone
 *   random:N  N outputs (1..LAYER_MAX_CHANNELS) of 3x3 weights in -1..1
 *             of 24 bits (their sums round, so an order of sums shows),
 *             the same for every run (the benchmark's layers)
 * False with a sentence for an unknown name or one that needs colour. */
bool layer_preset(const char *name, int c_in, layer_filters *out);
const char *layer_preset_names(void); /* "edges, opponent, blur, random:N" */

/* A layer written as text (a file's contents, `name` for messages):
 *     # a comment, to the end of the line
 *     layer in C_IN out C_OUT k K
 *     filter [NAME] bias B
 *     w w w ... (C_IN x K x K numbers: channel by channel, row by row)
 *     filter ...
 * exactly C_OUT filters. On failure a sentence "name:line:column: ..." in
 * err_msg. */
bool layer_parse(const char *text, const char *name, layer_filters *out);
/* The same, read from a file (at most 1 MiB). */
bool layer_load(const char *path, layer_filters *out);
/* What --layer names: a regular file of that name (or a name with '/' or
 * '.': a file), else a preset for c_in channels; false with a sentence for
 * no such layer, or one whose channels are not c_in. */
bool layer_named(const char *spec, int c_in, layer_filters *out);
/* Writes the layer as layer_parse reads it (a name's spaces as '_'). */
bool layer_format(const layer_filters *f, char *buf, size_t size);

/* The parameters of the taps: the window K x K, the geometry and border of
 * `p` (its weights are not used). */
conv_params layer_params(const layer_filters *f, const conv_params *p);

/* The output's size for an input of in_w x in_h. */
void layer_out_size(const layer_filters *f, const conv_params *p, int in_w, int in_h, int *ow, int *oh);

/* Operations, as the roofline counts them: a multiply and an add a product
 * and one add a bias, for each of the c_out x ow x oh outputs. */
double layer_flops(const layer_filters *f, int ow, int oh);

/* The unrolled matrix's size: C_in*K*K rows of ow*oh columns, in bytes. */
long long layer_im2col_bytes(const layer_filters *f, int ow, int oh);

/* The reference: every output by the direct loop, one after another. `out`
 * must be c_out x ow x oh. */
void layer_direct(const layer_tensor *in, const layer_filters *f, const conv_params *p, layer_tensor *out);
/* The direct loop over outputs [first, last) of the c_out*oh rows of the
 * output (row r is output r / oh's line r % oh): a thread's share. */
void layer_direct_rows(const layer_tensor *in, const layer_filters *f, const conv_params *p, layer_tensor *out,
                       long first, long last);

/* im2col: column q = y*ow + x of `col` (rows C_in*K*K, ld = ow*oh) holds
 * what output (x, y)'s window reads, row c*K*K + j*K + i its tap (i, j) of
 * channel c, through the border rule. Columns [first, last) only. */
void layer_im2col(const layer_tensor *in, const layer_filters *f, const conv_params *p, float *col, long first,
                  long last);
/* The ordered GEMM: out[o][q] = (sum over r of w[o][r] * col[r][q], r in
 * order, from 0.0f) + bias[o], for outputs o in [o0, o1) and columns q in
 * [q0, q1): the direct loop's bits. */
void layer_gemm(const layer_filters *f, const float *col, long n, float *out, int o0, int o1, long q0, long q1);

/* The largest difference a sum of the same products in any other order (a
 * library's GEMM) may have from the ordered one at output o of (x, y):
 * (gamma_n(u) + gamma_n(u_sum)) * S, S = the sum of |w * x| and |bias|,
 * gamma_n(u) = n u / (1 - n u), n = C_in*K*K + 1 additions, u = 2^-24 for
 * single precision (the classic bound of a sum's rounding, for each of the
 * two orders). With `input_u` > 0 the library's inputs and weights were
 * first narrowed for tensor cores to a format of that unit roundoff
 * (LAYER_U_TF32, LAYER_U_FP16), which adds (2 input_u + input_u^2) S, and
 * its sums are taken as no better than truncated (u_sum = 2^-23); with
 * `input_abs` > 0 (FP16's subnormals: LAYER_ABS_FP16), each narrowed value
 * may also be off by that much, which adds input_abs (|w| + |x|) (1 +
 * input_u) + input_abs^2 a product. A value outside the narrow format's
 * range is no matter of tolerance: the engine refuses it first. */
#define LAYER_U_TF32 (1.0 / 1024.0)        /* 10 bits after the point, truncated or rounded */
#define LAYER_U_FP16 (1.0 / 2048.0)        /* 10 bits after the point, rounded to nearest */
#define LAYER_ABS_FP16 (1.0 / 33554432.0)  /* half FP16's least subnormal, 2^-25 */
#define LAYER_FP16_MAX 65504.0
double layer_tolerance(const layer_tensor *in, const layer_filters *f, const conv_params *p, int o, int x, int y,
                       double input_u, double input_abs);

/* Compares `got` with the reference `ref` (both c_out x ow x oh): how many
 * outputs are not its bits, the largest |difference|, and how many are past
 * the tolerance of layer_tolerance (with input_u), into *over (NULL: not
 * counted: the comparison is then bit for bit only). */
long layer_compare(const layer_tensor *in, const layer_filters *f, const conv_params *p, const layer_tensor *ref,
                   const layer_tensor *got, double input_u, double input_abs, double *max_diff, long *over);

#endif
