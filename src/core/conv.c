/* conv.c - the reference convolution.
 *
 * The reference is the plainest possible loop: every output, in raster order,
 * through conv_pixel. It is also the cpu-seq engine's loop, so this file is
 * compiled without auto-vectorisation (see CMakeLists.txt): what the teaching
 * baseline measures is one scalar output after another. */
#include "conv.h"

#include <strings.h>

#include "err.h"
#include "tr.h"

static const char *const border_names[CONV_BORDER_COUNT] = {NC_("border", "zero"), NC_("border", "clamp"),
                                                            NC_("border", "mirror"), NC_("border", "wrap")};

const char *conv_border_name(conv_border b)
{
    return (unsigned)b < CONV_BORDER_COUNT ? border_names[b] : "?";
}

bool conv_border_parse(const char *text, conv_border *out)
{
    for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
        if (strcasecmp(text, border_names[b]) == 0) {
            *out = (conv_border)b;
            return true;
        }
    }
    return err_set("border '%s' is not known; use zero, clamp, mirror or wrap", text);
}

static const char *const padding_names[CONV_PAD_COUNT] = {NC_("padding", "same"), NC_("padding", "valid"),
                                                          NC_("padding", "full")};

const char *conv_padding_name(conv_padding pad)
{
    return (unsigned)pad < CONV_PAD_COUNT ? padding_names[pad] : "?";
}

bool conv_padding_parse(const char *text, conv_padding *out)
{
    for (int q = 0; q < CONV_PAD_COUNT; ++q) {
        if (strcasecmp(text, padding_names[q]) == 0) {
            *out = (conv_padding)q;
            return true;
        }
    }
    return err_set("padding '%s' is not known; use same, valid or full", text);
}

bool conv_geometry_check(int stride, int dilation)
{
    if (stride < 1 || stride > CONV_MAX_STRIDE)
        return err_set("a stride of %d is not possible; use 1 to %d", stride, CONV_MAX_STRIDE);
    if (dilation < 1 || dilation > CONV_MAX_DILATION)
        return err_set("a dilation of %d is not possible; use 1 to %d", dilation, CONV_MAX_DILATION);
    return true;
}

void conv_params_set_geometry(conv_params *p, int stride, int dilation, conv_padding padding)
{
    int ex, ey;
    p->stride = stride < 1 ? 1 : stride > CONV_MAX_STRIDE ? CONV_MAX_STRIDE : stride;
    p->dilation = dilation < 1 ? 1 : dilation > CONV_MAX_DILATION ? CONV_MAX_DILATION : dilation;
    p->padding = (unsigned)padding < CONV_PAD_COUNT ? (int)padding : CONV_PAD_SAME;
    ex = p->dilation * (p->kw - 1) + 1, ey = p->dilation * (p->kh - 1) + 1;
    p->pad_x = p->padding == CONV_PAD_VALID ? 0 : p->padding == CONV_PAD_FULL ? ex - 1 : ex / 2;
    p->pad_y = p->padding == CONV_PAD_VALID ? 0 : p->padding == CONV_PAD_FULL ? ey - 1 : ey / 2;
}

conv_params conv_params_make(const filt_kernel *k, conv_border border, bool flip)
{
    conv_params p;
    filt_kernel applied = flip ? filt_flipped(k) : *k;
    memset(&p, 0, sizeof p);
    p.kw = applied.kw, p.kh = applied.kh;
    for (int t = 0; t < p.kw * p.kh; ++t)
        p.weight[t] = applied.weight[t];
    p.divisor = applied.divisor;
    p.border = (int)border;
    conv_params_set_geometry(&p, 1, 1, CONV_PAD_SAME);
    return p;
}

void conv_reference(const img_plane *in, const conv_params *p, img_plane *out)
{
    int ow = conv_out_w(p, in->w), oh = conv_out_h(p, in->h);
    if (p->kw == 3 && p->kh == 3 && conv_plain(p)) { /* the window's filters: the loop the baseline times */
        for (int y = 0; y < in->h; ++y)
            for (int x = 0; x < in->w; ++x)
                out->px[(long)y * in->w + x] = conv_pixel_3x3(in->px, in->w, in->h, x, y, p);
        return;
    }
    for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x)
            out->px[(long)y * ow + x] = conv_pixel_any(in->px, in->w, in->h, x, y, p);
}

bool conv_output_size(const conv_params *p, int in_w, int in_h, int *out_w, int *out_h)
{
    *out_w = conv_out_w(p, in_w), *out_h = conv_out_h(p, in_h);
    if (*out_w > 0 && *out_h > 0)
        return true;
    return err_set("a %dx%d window with dilation %d spans %dx%d pixels, more than the %dx%d image: 'valid' padding "
                   "leaves no output",
                   p->kw, p->kh, p->dilation, p->dilation * (p->kw - 1) + 1, p->dilation * (p->kh - 1) + 1, in_w, in_h);
}

long conv_count_different(const float *a, const float *b, long n)
{
    long different = 0;
    for (long i = 0; i < n; ++i)
        different += !conv_same(a[i], b[i]);
    return different;
}
