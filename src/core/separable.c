/* separable.c - rank-1 filters as two passes, and ULP distances. */
#include "separable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conv.h"
#include "err.h"

static bool all_integers(const float *w, int n)
{
    for (int t = 0; t < n; ++t)
        if (w[t] != floorf(w[t]) || fabsf(w[t]) > 16777216.0f)
            return false;
    return true;
}

static long long gcd_ll(long long a, long long b)
{
    a = a < 0 ? -a : a, b = b < 0 ? -b : b;
    while (b) {
        long long r = a % b;
        a = b, b = r;
    }
    return a;
}

/* Integers: the first nonzero row divided by the gcd of its entries is the
 * row vector; each row must be an integer multiple of it. */
static bool factor_exact(const conv_params *p, sep_factors *f)
{
    int kw = p->kw, kh = p->kh, pr = -1, pk = -1;
    long long row[CONV_MAX_SIDE], g = 0;
    for (int t = 0; t < kw * kh && pr < 0; ++t)
        if (p->weight[t] != 0.0f)
            pr = t / kw;
    if (pr < 0)
        return err_set("the filter is all zeros: it has no rank-1 factors");
    for (int i = 0; i < kw; ++i) {
        row[i] = (long long)p->weight[pr * kw + i];
        g = gcd_ll(g, row[i]);
        if (pk < 0 && row[i] != 0)
            pk = i;
    }
    if (row[pk] < 0)
        g = -g;
    for (int i = 0; i < kw; ++i)
        row[i] /= g, f->row[i] = (float)row[i];
    for (int j = 0; j < kh; ++j) {
        long long v = (long long)p->weight[j * kw + pk];
        long long c = v / row[pk];
        if (c * row[pk] != v)
            return err_set("row %d of the filter is not a multiple of row %d: its rank is above 1", j + 1, pr + 1);
        for (int i = 0; i < kw; ++i)
            if (c * row[i] != (long long)p->weight[j * kw + i])
                return err_set("row %d of the filter is not a multiple of row %d: its rank is above 1", j + 1, pr + 1);
        f->col[j] = (float)c;
    }
    f->exact = true;
    f->residual = 0.0;
    return true;
}

/* Others: the row and the column through the largest weight, in double. */
static bool factor_near(const conv_params *p, sep_factors *f)
{
    int kw = p->kw, kh = p->kh, best = 0;
    double big, worst = 0.0;
    for (int t = 1; t < kw * kh; ++t)
        if (fabsf(p->weight[t]) > fabsf(p->weight[best]))
            best = t;
    big = fabs((double)p->weight[best]);
    if (big == 0.0)
        return err_set("the filter is all zeros: it has no rank-1 factors");
    for (int i = 0; i < kw; ++i)
        f->row[i] = (float)((double)p->weight[(best / kw) * kw + i] / p->weight[best]);
    for (int j = 0; j < kh; ++j)
        f->col[j] = p->weight[j * kw + best % kw];
    for (int t = 0; t < kw * kh; ++t) {
        double r = fabs((double)f->col[t / kw] * f->row[t % kw] - p->weight[t]) / big;
        worst = r > worst ? r : worst;
    }
    f->exact = false;
    f->residual = worst;
    if (worst > SEP_TOLERANCE)
        return err_set("the filter is not of rank 1: its best outer product misses a weight by %.3g of the "
                       "largest (the tolerance is %g)",
                       worst, SEP_TOLERANCE);
    return true;
}

bool sep_factor(const conv_params *p, sep_factors *out)
{
    memset(out, 0, sizeof *out);
    out->kw = p->kw, out->kh = p->kh;
    if (!conv_plain(p))
        return err_set("separable passes run stride 1, dilation 1 and 'same' padding only; this is stride %d, "
                       "dilation %d, '%s'",
                       p->stride, p->dilation, conv_padding_name((conv_padding)p->padding));
    if (all_integers(p->weight, p->kw * p->kh))
        return factor_exact(p, out);
    return factor_near(p, out);
}

/* The passes keep each output's sum as the doc says (tap order, from
 * 0.0f) but run it for a whole row at once, so the loops over x are plain
 * loads the compiler vectorises, and the column pass reads rows, not
 * columns: the row pass reads a row extended by the border rule, the
 * column pass adds whole rows of tmp (a zero row for a tap past a zero
 * border, its products 0 as conv_sample's are). */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "default"))) /* 8 lanes where the CPU has them; the same sums */
#endif
void sep_run(const img_plane *in, const conv_params *p, const sep_factors *f, img_plane *tmp, img_plane *out)
{
    int w = in->w, h = in->h, rx = f->kw / 2, ry = f->kh / 2;
    float *ext = malloc(sizeof(float) * (size_t)(w + f->kw - 1)), *acc = malloc(sizeof(float) * (size_t)w),
          *zero = calloc((size_t)w, sizeof(float));
    if (!ext || !acc || !zero) { /* no room for a row: one output at a time */
        free(ext), free(acc), free(zero);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                float sum = 0.0f;
                for (int i = 0; i < f->kw; ++i)
                    sum += conv_product(conv_sample(in->px, w, h, x + i - rx, y, p->border), f->row[i]);
                tmp->px[(long)y * w + x] = sum;
            }
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                float sum = 0.0f;
                for (int j = 0; j < f->kh; ++j)
                    sum += conv_product(conv_sample(tmp->px, w, h, x, y + j - ry, p->border), f->col[j]);
                out->px[(long)y * w + x] = conv_finish(sum, p->divisor);
            }
        return;
    }
    for (int y = 0; y < h; ++y) {
        float *row = tmp->px + (long)y * w;
        for (int x = 0; x < w + f->kw - 1; ++x) /* the row's own pixels copied, the border by its rule */
            if (x - rx >= 0 && x - rx < w) {
                memcpy(ext + x, in->px + (long)y * w + (x - rx), sizeof(float) * (size_t)w);
                x += w - 1;
            } else
                ext[x] = conv_sample(in->px, w, h, x - rx, y, p->border);
        for (int x = 0; x < w; ++x)
            acc[x] = 0.0f;
        for (int i = 0; i < f->kw; ++i) {
            const float *src = ext + i, weight = f->row[i];
            for (int x = 0; x < w; ++x)
                acc[x] += conv_product(src[x], weight);
        }
        memcpy(row, acc, sizeof(float) * (size_t)w);
    }
    for (int y = 0; y < h; ++y) {
        float *row = out->px + (long)y * w;
        for (int x = 0; x < w; ++x)
            acc[x] = 0.0f;
        for (int j = 0; j < f->kh; ++j) {
            int sy = conv_border_index(y + j - ry, h, p->border);
            const float *src = sy < 0 ? zero : tmp->px + (long)sy * w, weight = f->col[j];
            for (int x = 0; x < w; ++x)
                acc[x] += conv_product(src[x], weight);
        }
        for (int x = 0; x < w; ++x)
            row[x] = conv_finish(acc[x], p->divisor);
    }
    free(ext), free(acc), free(zero);
}

static int64_t ordered(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u & 0x80000000u ? -(int64_t)(u & 0x7fffffffu) - 1 : (int64_t)u; /* -0 is -1, +0 is 0 */
}

uint64_t sep_ulp_distance(float a, float b)
{
    int64_t x, y;
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b) ? 0 : SEP_ULP_NAN;
    x = ordered(a), y = ordered(b);
    return (uint64_t)(x > y ? x - y : y - x);
}

sep_diff sep_compare(const img_plane *a, const img_plane *b, img_plane *map)
{
    sep_diff d = {0, 0, (long)a->w * a->h, 0.0};
    for (long i = 0; i < d.total; ++i) {
        uint64_t u = sep_ulp_distance(a->px[i], b->px[i]);
        d.differ += !conv_same(a->px[i], b->px[i]);
        if (u > d.max_ulp)
            d.max_ulp = u;
        if (u != SEP_ULP_NAN && !isnan(a->px[i]) && fabs((double)a->px[i] - b->px[i]) > d.max_abs)
            d.max_abs = fabs((double)a->px[i] - b->px[i]);
        if (map)
            map->px[i] = u == SEP_ULP_NAN ? INFINITY : (float)u;
    }
    return d;
}
