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
    return p;
}

void conv_reference(const img_plane *in, const conv_params *p, img_plane *out)
{
    if (p->kw == 3 && p->kh == 3) { /* the window's filters: the loop the teaching baseline times */
        for (int y = 0; y < in->h; ++y)
            for (int x = 0; x < in->w; ++x)
                out->px[(long)y * in->w + x] = conv_pixel_3x3(in->px, in->w, in->h, x, y, p);
        return;
    }
    for (int y = 0; y < in->h; ++y)
        for (int x = 0; x < in->w; ++x)
            out->px[(long)y * in->w + x] = conv_pixel_any(in->px, in->w, in->h, x, y, p);
}

long conv_count_different(const float *a, const float *b, long n)
{
    long different = 0;
    for (long i = 0; i < n; ++i)
        different += !conv_same(a[i], b[i]);
    return different;
}
