/* Every preset under every border mode, flipped and not, on a small image,
 * against values worked out apart from the C code (hand_values.inc); the
 * filter text parser; the display mapping; timing statistics. */
#include <string.h>

#include "check.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/separable.h"
#include "core/stepper.h"
#include "core/timing.h"
#include "hand_values.inc"

static const float image[12] = {1, 2, 4, 8, 3, 5, 7, 9, 0, 6, 2, 1}; /* 4 x 3 */

static void test_hand_values(void)
{
    float in_px[12], out_px[12];
    img_plane in = {4, 3, in_px}, out = {4, 3, out_px};
    memcpy(in_px, image, sizeof in_px);
    CHECK(filt_preset_count() == 9, "nine presets, got %zu", filt_preset_count());
    for (size_t k = 0; k < filt_preset_count(); ++k) {
        for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
            for (int flip = 0; flip < 2; ++flip) {
                conv_params p = conv_params_make(filt_preset(k), (conv_border)b, flip);
                conv_reference(&in, &p, &out);
                for (int i = 0; i < 12; ++i)
                    CHECK_NEAR(out_px[i], expected[k][b][flip][i], 1e-6,
                               "%s border %s flip %d pixel %d: got %g want %g", filt_preset(k)->name,
                               conv_border_name((conv_border)b), flip, i, out_px[i], expected[k][b][flip][i]);
            }
        }
    }
}

/* A few outputs worked on paper, to anchor the generated table. */
static void test_worked_examples(void)
{
    float in_px[12], out_px[12];
    img_plane in = {4, 3, in_px}, out = {4, 3, out_px};
    filt_kernel k;
    conv_params p;
    memcpy(in_px, image, sizeof in_px);

    /* Sobel X at (0,0), zero border. Window:  0 0 0 / 0 1 2 / 0 3 5
     * -1*0 + 0*0 + 1*0 + -2*0 + 0*1 + 2*2 + -1*0 + 0*3 + 1*5 = 9 */
    filt_parse("sobel-x", &k);
    p = conv_params_make(&k, CONV_BORDER_ZERO, false);
    conv_reference(&in, &p, &out);
    CHECK(out_px[0] == 9.0f, "sobel-x (0,0) zero: got %g", out_px[0]);
    /* Same with clamp: window 1 1 2 / 1 1 2 / 3 3 5 -> -1+2 -2+4 -3+5 = 5 */
    p = conv_params_make(&k, CONV_BORDER_CLAMP, false);
    conv_reference(&in, &p, &out);
    CHECK(out_px[0] == 5.0f, "sobel-x (0,0) clamp: got %g", out_px[0]);
    /* Flipped (true convolution) Sobel X is minus Sobel X: -5 */
    p = conv_params_make(&k, CONV_BORDER_CLAMP, true);
    conv_reference(&in, &p, &out);
    CHECK(out_px[0] == -5.0f, "sobel-x flipped (0,0) clamp: got %g", out_px[0]);
    /* Box at (1,1): 1+2+4+3+5+7+0+6+2 = 30, / 9 */
    filt_parse("box", &k);
    p = conv_params_make(&k, CONV_BORDER_ZERO, false);
    conv_reference(&in, &p, &out);
    CHECK(out_px[5] == 30.0f / 9.0f, "box (1,1): got %g", out_px[5]);
    /* Wrap at (3,0) with the identity-shifted kernel "0 0 0; 0 0 1; 0 0 0":
     * reads (4,0), which wraps to (0,0) = 1 */
    CHECK(filt_parse("0 0 0; 0 0 1; 0 0 0", &k), "%s", err_msg());
    p = conv_params_make(&k, CONV_BORDER_WRAP, false);
    conv_reference(&in, &p, &out);
    CHECK(out_px[3] == 1.0f, "wrap (3,0): got %g", out_px[3]);
    /* Mirror at (3,0) reads (4,0) -> (2,0) = 4 */
    p = conv_params_make(&k, CONV_BORDER_MIRROR, false);
    conv_reference(&in, &p, &out);
    CHECK(out_px[3] == 4.0f, "mirror (3,0): got %g", out_px[3]);
}

static void test_parse(void)
{
    filt_kernel k;
    char text[160];

    CHECK(filt_parse("SOBEL-X", &k) && strcmp(k.name, "sobel-x") == 0, "preset names ignore case");
    CHECK(filt_parse("-1 0 1; -2 0 2; -1 0 1", &k), "matrix: %s", err_msg());
    CHECK(k.weight[0] == -1 && k.weight[5] == 2 && k.divisor == 1 && strcmp(k.name, "custom") == 0, "matrix values");
    CHECK(filt_parse(" 1,2,1 ; 2,4,2 ; 1,2,1 / 16 ", &k) && k.divisor == 16 && k.weight[4] == 4, "commas, divisor");
    CHECK(filt_parse("0.5 -0.25 1e-1; 0 0 0; 0 0 0", &k) && k.weight[0] == 0.5f && k.weight[2] == 0.1f, "decimals");
    filt_format(filt_preset(2), text, sizeof text);
    CHECK(strcmp(text, "1 2 1; 2 4 2; 1 2 1 / 16") == 0, "format gaussian: %s", text);
    CHECK(filt_parse(text, &k) && memcmp(k.weight, filt_preset(2)->weight, sizeof k.weight) == 0 && k.divisor == 16,
          "formatted text reads back");

    const char *bad[] = {"",
                         "blur",
                         "1 2; 3 4; 5 6",
                         "1 2 3; 4 5 6",
                         "1 2 3; 4 5 6; 7 8 9; 1 2 3",
                         "1 2 3; 4 5 6; 7 8 9 / 0",
                         "1 2 3; 4 5 6; 7 8 x",
                         "1 2 3; 4 5 6; 7 8 9 /",
                         "nan 0 0; 0 0 0; 0 0 0",
                         "inf 0 0; 0 0 0; 0 0 0",
                         "1e99 0 0; 0 0 0; 0 0 0",
                         "1 2 3 4; 5 6 7; 8 9 1",
                         "1 2 3; 4 5 6; 7 8 9 / 2 3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        CHECK(!filt_parse(bad[i], &k), "'%s' must be refused", bad[i]);
        CHECK(strstr(err_msg(), "-1 0 1; -2 0 2; -1 0 1") != NULL, "message shows the form: %s", err_msg());
    }

    filt_kernel f = filt_flipped(filt_preset(7)); /* emboss */
    for (int t = 0; t < 9; ++t)
        CHECK(f.weight[t] == filt_preset(7)->weight[8 - t], "flip tap %d", t);
    CHECK(filt_is_3x3(filt_preset(0)) && filt_is_3x3(&f), "the presets are 3x3");
}

/* Filters of any odd size: matrices square and not, the presets that take a
 * size, their text read back, flipped, and what is refused says why. */
static void test_parse_sizes(void)
{
    filt_kernel k, back;
    char text[4096];
    CHECK(filt_parse("1 2 3", &k) && k.kw == 3 && k.kh == 1 && !filt_is_3x3(&k), "a row: %dx%d", k.kw, k.kh);
    CHECK(filt_parse("1; 2; 3; 4; 5 / 15", &k) && k.kw == 1 && k.kh == 5 && k.weight[4] == 5 && k.divisor == 15,
          "a column: %dx%d", k.kw, k.kh);
    CHECK(filt_parse("7", &k) && k.kw == 1 && k.kh == 1 && k.weight[0] == 7, "one number is a 1x1 filter");
    CHECK(filt_parse("box:5", &k) && k.kw == 5 && k.kh == 5 && k.divisor == 25 && k.weight[24] == 1 &&
              strcmp(k.name, "box:5") == 0,
          "box:5 (%s)", err_msg());
    CHECK(filt_parse("Motion:9", &k) && k.kw == 9 && k.kh == 1 && k.divisor == 9, "motion:9, any case");
    CHECK(filt_parse("gaussian:1.5", &k) && k.kw == 11 && k.kh == 11 && k.weight[60] == 1.0f &&
              k.weight[0] < k.weight[1] && k.weight[0] == k.weight[120] && k.divisor > 1,
          "gaussian:1.5 is 11x11 (2 ceil(4.5) + 1), peaked at its centre, symmetric: %dx%d", k.kw, k.kh);
    CHECK(filt_parse("gaussian:5", &k) && k.kw == 31, "gaussian:5 is the largest: 31x31");
    CHECK(filt_parse("box:31", &k) && k.kw == 31, "box:31");
    filt_format(&k, text, sizeof text);
    CHECK(filt_parse(text, &back) && back.kw == 31 && back.kh == 31 && back.divisor == 961 &&
              memcmp(back.weight, k.weight, sizeof k.weight) == 0,
          "a 31x31 filter's text reads back (%zu characters)", strlen(text));
    CHECK(filt_parse("1 2 3; 4 5 6; 7 8 9; 1 2 3; 4 5 6", &k) && k.kw == 3 && k.kh == 5, "3x5");
    back = filt_flipped(&k);
    CHECK(back.weight[0] == 6 && back.weight[14] == 1 && back.kw == 3 && back.kh == 5, "3x5 flipped: %g %g",
          (double)back.weight[0], (double)back.weight[14]);
    filt_format(&k, text, sizeof text);
    CHECK(strcmp(text, "1 2 3; 4 5 6; 7 8 9; 1 2 3; 4 5 6") == 0, "3x5 formatted by rows: %s", text);
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"1 2", "is 2\xC3\x97" "1"},
        {"1 2 3; 4 5", "row 2 has 2 numbers"},
        {"box:4", "odd size from 1 to 31"},
        {"box:33", "odd size from 1 to 31"},
        {"motion:2.5", "odd size"},
        /* past int's range or not a number: refused before any cast (UBSan caught box:23e33) */
        {"box:23e33", "odd size from 1 to 31"},
        {"motion:-1e300", "odd size from 1 to 31"},
        {"box:nan", "odd size from 1 to 31"},
        {"box:-5", "odd size from 1 to 31"},
        {"gaussian:nan", "from 0.2 to 5"},
        {"gaussian:0.1", "from 0.2 to 5"},
        {"gaussian:6", "from 0.2 to 5"},
        {"1 2 3 / 0", "other than 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(!filt_parse(bad[i].text, &k) && strstr(err_msg(), bad[i].why), "'%s': %s", bad[i].text, err_msg());
    {
        char big[8192];
        size_t n = 0;
        for (int r = 0; r < 33 && n < sizeof big - 8; ++r)
            n += (size_t)snprintf(big + n, sizeof big - n, "%s1", r ? "; " : "");
        CHECK(!filt_parse(big, &k) && strstr(err_msg(), "at most 31 rows"), "33 rows: %s", err_msg());
        n = 0;
        for (int c = 0; c < 33 && n < sizeof big - 8; ++c)
            n += (size_t)snprintf(big + n, sizeof big - n, "%s1", c ? " " : "");
        CHECK(!filt_parse(big, &k) && strstr(err_msg(), "at most 31 rows of 31 numbers"), "33 columns: %s",
              err_msg());
    }
}

static void test_display(void)
{
    CHECK(img_display_byte(-10, IMG_DISPLAY_CLAMP) == 0, "clamp negative");
    CHECK(img_display_byte(300, IMG_DISPLAY_CLAMP) == 255, "clamp high");
    CHECK(img_display_byte(100.4f, IMG_DISPLAY_CLAMP) == 100, "clamp rounds");
    CHECK(img_display_byte(-100, IMG_DISPLAY_ABS) == 100, "abs");
    CHECK(img_display_byte(0, IMG_DISPLAY_SIGNED) == 128, "signed zero is mid grey");
    CHECK(img_display_byte(-255, IMG_DISPLAY_SIGNED) == 0, "signed -255 black");
    CHECK(img_display_byte(255, IMG_DISPLAY_SIGNED) == 255, "signed 255 white");
    CHECK(img_display_byte(0.0f / 0.0f, IMG_DISPLAY_CLAMP) == 0, "NaN is black");
}

static void test_timing(void)
{
    double s[] = {5, 1, 4, 2, 3};
    tim_stats st = tim_stats_of(s, 5);
    CHECK(st.n == 5 && st.min == 1 && st.max == 5 && st.median == 3 && st.p95 == 5, "stats of 1..5");
    double e[] = {4, 1, 3, 2};
    st = tim_stats_of(e, 4);
    CHECK(st.median == 2.5, "even median: %g", st.median);
    double many[100];
    for (int i = 0; i < 100; ++i)
        many[i] = 100 - i; /* 1..100 */
    st = tim_stats_of(many, 100);
    CHECK(st.p95 == 95 && st.median == 50.5, "p95 %g median %g", st.p95, st.median);
    CHECK(many[0] == 100, "samples untouched");
    st = tim_stats_of(NULL, 0);
    CHECK(st.n == 0 && st.median == 0, "empty");
    double t0 = tim_now_ms(), t1 = tim_now_ms();
    CHECK(t1 >= t0, "monotonic");
}

/* The presets of a side beyond box and motion (Sobel of any side as OpenCV
 * makes it, written out here by hand for 5) and of a deviation (the
 * Laplacian of Gaussian, the unsharp mask), and ] and ['s kinds. */
static void test_sized_kinds(void)
{
    static const float sobel5[25] = {-1, -2,  0, 2,  1, -4, -8,  0, 8,  4, -6, -12, 0, 12, 6,
                                     -4, -8,  0, 8,  4, -1, -2,  0, 2,  1};
    filt_kernel k, y, p;
    conv_params cp;
    sep_factors f;
    double sum = 0, pos = 0;
    CHECK(filt_parse("sobel-x:5", &k) && k.kw == 5 && k.kh == 5 && k.divisor == 1 &&
              memcmp(k.weight, sobel5, sizeof sobel5) == 0 && strcmp(k.name, "sobel-x:5") == 0,
          "sobel-x:5 is OpenCV's (%s)", err_msg());
    CHECK(filt_parse("sobel-y:5", &y), "sobel-y:5");
    for (int t = 0; t < 25; ++t)
        CHECK(y.weight[t] == k.weight[t % 5 * 5 + t / 5], "sobel-y:5 is sobel-x:5 transposed, tap %d", t);
    CHECK(filt_parse("sobel-x:3", &k) && memcmp(k.weight, filt_preset(5)->weight, 9 * sizeof(float)) == 0,
          "sobel-x:3 is the sobel-x preset");
    CHECK(filt_parse("sobel-x:15", &k) && k.kw == 15 && k.weight[7] == 0 && k.weight[7 * 15 + 14] == 3432.0f,
          "sobel-x:15: %g at the middle row's end (binomial(14, 7) times the derivative's end, 1)",
          (double)k.weight[7 * 15 + 14]);
    cp = conv_params_make(&k, CONV_BORDER_CLAMP, false);
    CHECK(sep_factor(&cp, &f) && f.exact, "sobel-x:15 is exactly of rank 1");
    CHECK(!filt_parse("sobel-x:17", &k) && strstr(err_msg(), "odd size from 3 to 15"), "sobel-x:17: %s", err_msg());
    CHECK(!filt_parse("sobel-y:1", &k) && strstr(err_msg(), "odd size from 3 to 15"), "sobel-y:1: %s", err_msg());

    CHECK(filt_parse("log:1.4", &k) && k.kw == 11 && k.kh == 11 && k.divisor == 1, "log:1.4 is 11x11");
    for (int t = 0; t < 121; ++t) {
        sum += k.weight[t], pos += k.weight[t] > 0 ? k.weight[t] : 0;
        CHECK(k.weight[t] == k.weight[120 - t] && k.weight[t] <= k.weight[60], "log: symmetric, peaked, tap %d", t);
    }
    CHECK(sum > -1e-5 && sum < 1e-5 && pos > 3.9999 && pos < 4.0001, "log adds up to 0 (%g), its positives to 4 (%g)",
          sum, pos);
    CHECK(k.weight[0] < 0 && k.weight[5] < 0, "log is negative far from its centre");
    cp = conv_params_make(&k, CONV_BORDER_CLAMP, false);
    CHECK(!sep_factor(&cp, &f), "log is not of rank 1");

    CHECK(filt_parse("unsharp:1", &k) && k.kw == 7 && k.weight[24] > 1, "unsharp:1 is 7x7, its centre above 1");
    sum = 0;
    for (int t = 0; t < 49; ++t) {
        sum += k.weight[t];
        CHECK(t == 24 || k.weight[t] < 0, "unsharp: the blur taken away, tap %d", t);
    }
    CHECK(sum > 0.99999 && sum < 1.00001, "unsharp adds up to 1: %g", sum);

    CHECK(filt_of_size(filt_preset(5), 7, &k) && k.kw == 7 && strcmp(k.name, "sobel-x:7") == 0,
          "] on the sobel-x preset: sobel-x:7 (%s)", err_msg());
    CHECK(strcmp(filt_kind_title(&k), "Sobel X (vertical edges)") == 0, "its kind's title: %s", filt_kind_title(&k));
    CHECK(filt_parse("log:1", &p) && filt_of_size(&p, 9, &k) && k.kw == 9 && strncmp(k.name, "log:", 4) == 0,
          "log at 9 a side: %s", k.name);
    CHECK(filt_parse("unsharp:1", &p) && filt_of_size(&p, 3, &k) && k.kw == 3, "unsharp at 3 a side");
    CHECK(!filt_of_size(filt_preset(3), 5, &k) && strstr(err_msg(), "has one size"), "sharpen: %s", err_msg());
    CHECK(!filt_of_size(filt_preset(5), 17, &k) && strstr(err_msg(), "from 3 to 15"), "sobel at 17: %s", err_msg());
}

int main(void)
{
    test_hand_values();
    test_worked_examples();
    test_parse();
    test_parse_sizes();
    test_sized_kinds();
    test_display();
    test_timing();
    return CHECK_SUMMARY();
}
