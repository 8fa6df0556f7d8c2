/* test_separable.c - rank-1 factors, the two passes against hand-worked
 * numbers, ULP distances, and the comparison's count and map. */
#include <math.h>
#include <float.h>
#include <string.h>

#include "check.h"
#include "core/err.h"
#include "core/conv.h"
#include "core/filter.h"
#include "core/separable.h"

static conv_params params_of(const char *text, conv_border b)
{
    filt_kernel k;
    if (!filt_parse(text, &k))
        memset(&k, 0, sizeof k);
    return conv_params_make(&k, b, false);
}

static void test_factor(void)
{
    sep_factors f;
    conv_params p = params_of("gaussian", CONV_BORDER_ZERO);
    CHECK(sep_factor(&p, &f) && f.exact, "1 2 1 gaussian is exactly rank 1");
    CHECK(f.row[0] == 1 && f.row[1] == 2 && f.row[2] == 1 && f.col[0] == 1 && f.col[1] == 2 && f.col[2] == 1,
          "factors 1 2 1 by 1 2 1");
    p = params_of("sobel-x", CONV_BORDER_ZERO);
    CHECK(sep_factor(&p, &f) && f.exact, "sobel-x is rank 1");
    CHECK(f.row[0] == 1 && f.row[1] == 0 && f.row[2] == -1 && f.col[0] == -1 && f.col[1] == -2 && f.col[2] == -1,
          "sobel-x: row 1 0 -1 (first nonzero positive), col -1 -2 -1");
    p = params_of("box:7", CONV_BORDER_ZERO);
    CHECK(sep_factor(&p, &f) && f.exact && f.kw == 7, "box:7 is rank 1");
    conv_params_set_geometry(&p, 2, 1, CONV_PAD_SAME);
    CHECK(!sep_factor(&p, &f) && strstr(err_msg(), "stride 2"), "another geometry refused: %s", err_msg());
    p = params_of("motion:9", CONV_BORDER_ZERO);
    CHECK(sep_factor(&p, &f) && f.exact && f.kh == 1, "motion:9 is rank 1");
    p = params_of("2 4; 3 6; 1 2", CONV_BORDER_ZERO);
    CHECK(p.kw != 2 || !sep_factor(&p, &f), "even sides are refused by the parser");
    p = params_of("2 4 6; 3 6 9; 1 2 3", CONV_BORDER_ZERO);
    CHECK(sep_factor(&p, &f) && f.row[2] == 3 && f.col[1] == 3, "gcd taken out of the row: 1 2 3 by 2 3 1");
    p = params_of("sharpen", CONV_BORDER_ZERO);
    CHECK(!sep_factor(&p, &f), "sharpen is not rank 1");
    p = params_of("laplacian", CONV_BORDER_ZERO);
    CHECK(!sep_factor(&p, &f), "laplacian is not rank 1");
    p = params_of("1 2 1; 2 4 2; 1 2 2", CONV_BORDER_ZERO);
    CHECK(!sep_factor(&p, &f), "one weight off: not rank 1");
    p = params_of("gaussian:2", CONV_BORDER_ZERO);
    CHECK(sep_factor(&p, &f) && !f.exact && f.residual <= SEP_TOLERANCE, "gaussian:2 rank 1 within tolerance: %g",
          f.residual);
    printf("gaussian:2 largest residual %.3g of the largest weight\n", f.residual);
}

static void test_passes(void)
{
    float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, tmp[9], out[9], ref[9];
    img_plane pi = {3, 3, in}, pt = {3, 3, tmp}, po = {3, 3, out}, pr = {3, 3, ref};
    sep_factors f;
    conv_params p = params_of("gaussian", CONV_BORDER_ZERO);
    sep_diff d;
    CHECK(sep_factor(&p, &f), "factors");
    sep_run(&pi, &p, &f, &pt, &po);
    /* row pass, 1 2 1, zero border: row 0 is 0+2+2=4, 1+4+3=8, 2+6+0=8 */
    CHECK(tmp[0] == 4 && tmp[1] == 8 && tmp[2] == 8, "row pass: %g %g %g", tmp[0], tmp[1], tmp[2]);
    CHECK(tmp[3] == 13 && tmp[4] == 20 && tmp[5] == 17, "row pass row 1: %g %g %g", tmp[3], tmp[4], tmp[5]);
    /* column pass at the centre: 8 + 2*20 + 32 = 80, / 16 = 5 */
    CHECK(out[4] == 5.0f, "centre %g", out[4]);
    /* top-left: (0 + 2*4 + 13) / 16 = 21/16 */
    CHECK(out[0] == 21.0f / 16.0f, "corner %g", out[0]);
    conv_reference(&pi, &p, &pr);
    d = sep_compare(&po, &pr, NULL);
    CHECK(d.differ == 0 && d.max_ulp == 0, "small integers: equal bits (%ld differ)", d.differ);
    for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
        p = params_of("gaussian", (conv_border)b);
        sep_run(&pi, &p, &f, &pt, &po);
        conv_reference(&pi, &p, &pr);
        d = sep_compare(&po, &pr, NULL);
        CHECK(d.differ == 0, "border %d: integers give the reference's bits", b);
    }
}

static void test_ulp(void)
{
    float one = 1.0f, next = nextafterf(1.0f, 2.0f), m = -1.0f;
    CHECK(sep_ulp_distance(one, next) == 1, "adjacent floats are 1 apart");
    CHECK(sep_ulp_distance(one, one) == 0, "equal: 0");
    CHECK(sep_ulp_distance(0.0f, -0.0f) == 1, "+0 and -0: 1 apart");
    CHECK(sep_ulp_distance(-0.0f, -nextafterf(0.0f, 1.0f)) == 1, "-0 and the least negative: 1");
    CHECK(sep_ulp_distance(nextafterf(0.0f, 1.0f), -nextafterf(0.0f, 1.0f)) == 3, "across zero: 3");
    CHECK(sep_ulp_distance(m, nextafterf(m, -2.0f)) == 1, "adjacent negatives: 1");
    CHECK(sep_ulp_distance(NAN, NAN) == 0, "NaN, NaN: 0");
    CHECK(sep_ulp_distance(NAN, 1.0f) == SEP_ULP_NAN, "NaN, number: the NaN mark");
    CHECK(sep_ulp_distance(INFINITY, FLT_MAX) == 1, "inf and the largest: 1");
}

static void test_map(void)
{
    float a[4] = {1.0f, 0.0f, NAN, 2.0f}, b[4] = {1.0f, -0.0f, 3.0f, 0.0f}, m[4];
    img_plane pa = {2, 2, a}, pb = {2, 2, b}, pm = {2, 2, m};
    sep_diff d;
    b[0] = nextafterf(1.0f, 2.0f);
    b[3] = nextafterf(nextafterf(2.0f, 0.0f), 0.0f);
    d = sep_compare(&pa, &pb, &pm);
    CHECK(d.differ == 4 && d.total == 4, "four differ: %ld", d.differ);
    CHECK(m[0] == 1 && m[1] == 1 && isinf(m[2]) && m[3] == 2, "map %g %g %g %g", m[0], m[1], m[2], m[3]);
    CHECK(d.max_ulp == SEP_ULP_NAN, "a NaN against a number is the largest");
    b[2] = NAN;
    d = sep_compare(&pa, &pb, &pm);
    CHECK(d.differ == 3 && d.max_ulp == 2 && m[2] == 0, "NaN for NaN is the same: %ld", d.differ);
    for (int i = 0; i < 4; ++i)
        CHECK((m[i] == 0) == conv_same(a[i], b[i]), "map 0 exactly where conv_same, %d", i);
}

/* The passes, run a row at a time, against their definition one output at a
 * time (each sum in tap order from 0.0f, every read through conv_sample):
 * the same bits, for every border, filters of each shape, sizes the rows do
 * not divide and images smaller than the window. */
static void test_rows_equal_definition(void)
{
    static const char *const filters[] = {"box:7", "gaussian:1.5", "sobel-x", "motion:9", "1; 2; 1", "box:31"};
    static const int sizes[][2] = {{1, 1}, {37, 5}, {5, 37}, {64, 48}};
    long bad = 0, runs = 0;
    for (size_t fi = 0; fi < sizeof filters / sizeof filters[0]; ++fi)
        for (int b = 0; b < CONV_BORDER_COUNT; ++b)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
                conv_params p = params_of(filters[fi], (conv_border)b);
                int w = sizes[si][0], h = sizes[si][1], rx, ry;
                sep_factors f;
                img_plane in, tmp, out, want_tmp, want;
                if (!sep_factor(&p, &f))
                    continue;
                rx = f.kw / 2, ry = f.kh / 2;
                img_plane_alloc(&in, w, h), img_plane_alloc(&tmp, w, h), img_plane_alloc(&out, w, h);
                img_plane_alloc(&want_tmp, w, h), img_plane_alloc(&want, w, h);
                for (int i = 0; i < w * h; ++i)
                    in.px[i] = (float)((i * 7919) % 1000) / 7.0f - 60.0f; /* negatives, fractions */
                sep_run(&in, &p, &f, &tmp, &out);
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        float sum = 0.0f;
                        for (int i = 0; i < f.kw; ++i)
                            sum += conv_sample(in.px, w, h, x + i - rx, y, p.border) * f.row[i];
                        want_tmp.px[y * w + x] = sum;
                    }
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        float sum = 0.0f;
                        for (int j = 0; j < f.kh; ++j)
                            sum += conv_sample(want_tmp.px, w, h, x, y + j - ry, p.border) * f.col[j];
                        want.px[y * w + x] = sum / p.divisor;
                    }
                bad += memcmp(out.px, want.px, sizeof(float) * (size_t)(w * h)) != 0 ||
                       memcmp(tmp.px, want_tmp.px, sizeof(float) * (size_t)(w * h)) != 0;
                ++runs;
                img_plane_free(&in), img_plane_free(&tmp), img_plane_free(&out);
                img_plane_free(&want_tmp), img_plane_free(&want);
            }
    CHECK(bad == 0 && runs == 96, "the passes a row at a time equal their definition bit for bit: %ld of %ld differ",
          bad, runs);
}

int main(void)
{
    test_rows_equal_definition();
    test_factor();
    test_passes();
    test_ulp();
    test_map();
    return CHECK_SUMMARY();
}
