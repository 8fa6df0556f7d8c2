#include "filter.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "tr.h"

/* marks the titles for the app's catalogue (po/), which translates them where they are shown */

/* A 3x3 preset: its name, title, divisor and nine weights. */
#define P3(name, title, divisor, ...) {name, title, {__VA_ARGS__}, divisor, 3, 3}

static const filt_kernel presets[] = {
    P3(NC_("filter", "identity"), N_("Identity"), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0),
    P3(NC_("filter", "box"), N_("Box blur"), 9, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    P3(NC_("filter", "gaussian"), N_("Gaussian blur"), 16, 1, 2, 1, 2, 4, 2, 1, 2, 1),
    P3(NC_("filter", "sharpen"), N_("Sharpen"), 1, 0, -1, 0, -1, 5, -1, 0, -1, 0),
    P3(NC_("filter", "laplacian"), N_("Laplacian edges"), 1, 0, -1, 0, -1, 4, -1, 0, -1, 0),
    P3(NC_("filter", "sobel-x"), N_("Sobel X (vertical edges)"), 1, -1, 0, 1, -2, 0, 2, -1, 0, 1),
    P3(NC_("filter", "sobel-y"), N_("Sobel Y (horizontal edges)"), 1, -1, -2, -1, 0, 0, 0, 1, 2, 1),
    P3(NC_("filter", "emboss"), N_("Emboss"), 1, -2, -1, 0, -1, 1, 1, 0, 1, 2),
    P3(NC_("filter", "outline"), N_("Outline"), 1, -1, -1, -1, -1, 8, -1, -1, -1, -1),
};

#define PRESET_COUNT (sizeof presets / sizeof presets[0])

size_t filt_preset_count(void)
{
    return PRESET_COUNT;
}

const filt_kernel *filt_preset(size_t i)
{
    return i < PRESET_COUNT ? &presets[i] : NULL;
}

const char *filt_expected_form(void)
{
    return _("a preset (identity, box, gaussian, sharpen, laplacian, sobel-x, sobel-y, emboss, outline), a preset "
             "of a size (box:5, motion:9, sobel-x:5, sobel-y:5, gaussian:1.5, log:1.4, unsharp:1), or rows of numbers such as \"-1 0 1; -2 0 2; -1 0 1\": "
             "an odd number of rows and of columns, up to 31 each, optionally followed by a divisor as in "
             "\"1 2 1; 2 4 2; 1 2 1 / 16\"");
}

bool filt_is_3x3(const filt_kernel *k)
{
    return k->kw == 3 && k->kh == 3;
}

static const char *skip_space(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        ++p;
    return p;
}

/* Reads one finite number at p; returns the character after it or NULL. */
static const char *read_number(const char *p, float *out)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(p, &end);
    if (end == p || errno == ERANGE || !isfinite(v) || fabs(v) > 1e30)
        return NULL;
    *out = (float)v;
    return end;
}

/* Reads a matrix: rows parted by ';', every row as long, an odd number of
 * rows and of columns up to CONV_MAX_SIDE, an optional divisor. On failure
 * `why` says what is wrong ("" when the text is no matrix at all). */
static bool parse_matrix(const char *text, filt_kernel *out, char *why, size_t why_size)
{
    const char *p = skip_space(text);
    int n = 0, cols = 0, row_cols = 0;

    memset(out, 0, sizeof *out);
    why[0] = '\0';
    for (;;) {
        float v;
        const char *next = read_number(p, &v);
        if (!next)
            return false;
        if (n == CONV_MAX_TAPS || row_cols == CONV_MAX_SIDE) {
            snprintf(why, why_size, _("a kernel has at most %d rows of %d numbers"), CONV_MAX_SIDE, CONV_MAX_SIDE);
            return false;
        }
        out->weight[n++] = v;
        ++row_cols;
        p = skip_space(next);
        if (*p == ',')
            p = skip_space(p + 1);
        if (*p == ';' || *p == '/' || !*p) { /* a row ends */
            if (out->kh > 0 && row_cols != cols) {
                snprintf(why, why_size, _("row %d has %d numbers, and the rows before it %d: every row is as long"),
                         out->kh + 1, row_cols, cols);
                return false;
            }
            cols = row_cols, row_cols = 0;
            if (++out->kh > CONV_MAX_SIDE) {
                snprintf(why, why_size, _("a kernel has at most %d rows of %d numbers"), CONV_MAX_SIDE,
                         CONV_MAX_SIDE);
                return false;
            }
            if (*p != ';')
                break;
            p = skip_space(p + 1);
        }
    }
    out->kw = cols;
    if (out->kw % 2 == 0 || out->kh % 2 == 0) {
        snprintf(why, why_size,
                 _("this kernel is %d\xC3\x97%d; a kernel has an odd number of columns and of rows, so that it has "
                   "a centre"),
                 out->kw, out->kh);
        return false;
    }
    out->divisor = 1.0f;
    if (*p == '/') {
        p = skip_space(p + 1);
        if (!(p = read_number(p, &out->divisor)) || out->divisor == 0.0f) {
            snprintf(why, why_size, "%s", _("the divisor after '/' is a number other than 0"));
            return false;
        }
        p = skip_space(p);
    }
    if (*p)
        return false;
    snprintf(out->name, sizeof out->name, "custom");
    snprintf(out->title, sizeof out->title, "%s", N_("Custom kernel"));
    return true;
}

/* ---- the presets that take a size ------------------------------------------ */

/* The binomial coefficients of order n (n + 1 of them: 1 2 1 for n = 2),
 * and of order n - 2 convolved with -1 0 1 (the derivative: -1 0 1 for
 * n = 2, -1 -2 0 2 1 for n = 4). */
static void binomial(int n, double *out)
{
    out[0] = 1;
    for (int i = 1; i <= n; ++i) {
        out[i] = 0;
        for (int j = i; j > 0; --j)
            out[j] += out[j - 1];
    }
}

static void derivative(int n, double *out)
{
    double b[CONV_MAX_SIDE];
    binomial(n - 2, b);
    for (int i = 0; i <= n; ++i)
        out[i] = (i >= 2 ? b[i - 2] : 0) - (i <= n - 2 ? b[i] : 0);
}

/* Each kind makes its k x k (or 1 x k) filter from k or from sigma. */
static void make_box(filt_kernel *f, int k, double sigma, bool row)
{
    (void)sigma;
    f->kw = k, f->kh = row ? 1 : k;
    for (int t = 0; t < f->kw * f->kh; ++t)
        f->weight[t] = 1.0f;
    f->divisor = (float)(f->kw * f->kh);
}

/* Sobel of side k as OpenCV's getDerivKernels makes it: the binomial
 * smoothing across the edge times the derivative along it; integers, so
 * exactly of rank 1. */
static void make_sobel(filt_kernel *f, int k, double sigma, bool y)
{
    double smooth[CONV_MAX_SIDE], deriv[CONV_MAX_SIDE];
    (void)sigma;
    binomial(k - 1, smooth);
    derivative(k - 1, deriv);
    f->kw = f->kh = k;
    for (int t = 0; t < k * k; ++t)
        f->weight[t] = (float)(y ? deriv[t / k] * smooth[t % k] : smooth[t / k] * deriv[t % k]);
}

/* e^(-r^2 / 2 sigma^2) on 2*ceil(3 sigma)+1 a side: the gaussian's weights,
 * and what the Laplacian of Gaussian and the unsharp mask are made of. */
static double bell(int t, int side, double sigma, double *r2_over_2s2)
{
    int r = side / 2, dx = t % side - r, dy = t / side - r;
    *r2_over_2s2 = (dx * dx + dy * dy) / (2.0 * sigma * sigma);
    return exp(-*r2_over_2s2);
}

static void make_gaussian(filt_kernel *f, int k, double sigma, bool unsharp)
{
    double q, sum = 0;
    f->kw = f->kh = k;
    for (int t = 0; t < k * k; ++t)
        sum += bell(t, k, sigma, &q);
    f->divisor = unsharp ? 1.0f : (float)sum;
    for (int t = 0; t < k * k; ++t) /* unsharp: twice the pixel less its blur (sum 1) */
        f->weight[t] = unsharp ? (float)((t == k * k / 2 ? 2.0 : 0.0) - bell(t, k, sigma, &q) / sum)
                               : (float)bell(t, k, sigma, &q);
}

/* The Laplacian of Gaussian, negated as the laplacian preset is (its centre
 * positive): (1 - r^2/2s^2) e^(-r^2/2s^2), less its mean (a flat image
 * gives about 0), scaled so its positive weights add up to 4, as the 3x3
 * laplacian's do. */
static void make_log(filt_kernel *f, int k, double sigma, bool unused)
{
    double w[CONV_MAX_TAPS], q, mean = 0, pos = 0;
    (void)unused;
    f->kw = f->kh = k;
    for (int t = 0; t < k * k; ++t) {
        double b = bell(t, k, sigma, &q);
        w[t] = (1.0 - q) * b;
        mean += w[t] / (k * k);
    }
    for (int t = 0; t < k * k; ++t)
        pos += w[t] > mean ? w[t] - mean : 0;
    for (int t = 0; t < k * k; ++t)
        f->weight[t] = (float)((w[t] - mean) * 4.0 / pos);
}

typedef struct sized_kind {
    const char *prefix;
    const char *title;  /* the kind's, for its every size (marked for the catalogue) */
    bool by_sigma;      /* gaussian:S; else a side, box:K */
    int min_side, max_side;
    void (*make)(filt_kernel *f, int k, double sigma, bool variant);
    bool variant; /* box: a row (motion); sobel: y; gaussian: unsharp */
} sized_kind;

static const sized_kind sized_kinds[] = {
    {"box", N_("Box blur"), false, 1, CONV_MAX_SIDE, make_box, false},
    {"motion", N_("Motion blur (horizontal)"), false, 1, CONV_MAX_SIDE, make_box, true},
    /* 15 at most: its largest weight, binomial(14, 7) * 572, is an integer a float holds exactly;
     * at 17, 12870 * 2002 is past 2^24 */
    {"sobel-x", N_("Sobel X (vertical edges)"), false, 3, 15, make_sobel, false},
    {"sobel-y", N_("Sobel Y (horizontal edges)"), false, 3, 15, make_sobel, true},
    {"gaussian", N_("Gaussian blur"), true, 3, CONV_MAX_SIDE, make_gaussian, false},
    {"log", N_("Laplacian of Gaussian"), true, 3, CONV_MAX_SIDE, make_log, false},
    {"unsharp", N_("Unsharp mask (sharpen)"), true, 3, CONV_MAX_SIDE, make_gaussian, true},
};

#define SIZED_COUNT (sizeof sized_kinds / sizeof sized_kinds[0])

/* The sized kind a filter's name is of ("box" and "box:5" are box's). */
static const sized_kind *kind_of(const char *name)
{
    size_t n = strcspn(name, ":");
    for (size_t i = 0; i < SIZED_COUNT; ++i)
        if (strlen(sized_kinds[i].prefix) == n && strncasecmp(name, sized_kinds[i].prefix, n) == 0)
            return &sized_kinds[i];
    return NULL;
}

/* A preset of a size: "box:5", "gaussian:1.5", "sobel-x:5"; false when the
 * text is none (why ""), or with why set when its size is wrong. */
static bool parse_sized(const char *text, filt_kernel *out, char *why, size_t why_size)
{
    const char *colon = strchr(text, ':');
    const sized_kind *kind = colon ? kind_of(text) : NULL;
    char *end;
    double v;
    why[0] = '\0';
    if (!kind)
        return false;
    errno = 0;
    v = strtod(colon + 1, &end);
    if (end == colon + 1 || *skip_space(end) || errno == ERANGE)
        return false;
    memset(out, 0, sizeof *out);
    out->divisor = 1.0f;
    if (!kind->by_sigma) {
        /* the range first: a size past int's range (box:23e33) or NaN has no int to cast to */
        int k = v >= kind->min_side && v <= kind->max_side ? (int)v : 0;
        if (v != k || k % 2 == 0) {
            snprintf(why, why_size, _("%s takes an odd size from %d to %d, as in %s:5"), kind->prefix,
                     kind->min_side, kind->max_side, kind->prefix);
            return false;
        }
        kind->make(out, k, 0.0, kind->variant);
        snprintf(out->name, sizeof out->name, "%s:%d", kind->prefix, k);
    } else {
        if (!(v >= 0.2 && v <= 5.0)) {
            snprintf(why, why_size, _("%s takes a standard deviation from 0.2 to 5, as in %s:1.5"), kind->prefix,
                     kind->prefix);
            return false;
        }
        /* 31 at most: 3 x 5 = 15 a side of the centre */
        kind->make(out, 2 * (int)ceil(3.0 * v) + 1, v, kind->variant);
        snprintf(out->name, sizeof out->name, "%s:%g", kind->prefix, v);
    }
    snprintf(out->title, sizeof out->title, "%s", kind->title);
    return true;
}

const char *filt_kind_title(const filt_kernel *k)
{
    const sized_kind *kind = kind_of(k->name);
    return kind ? kind->title : k->title;
}

bool filt_of_size(const filt_kernel *k, int side, filt_kernel *out)
{
    const sized_kind *kind = kind_of(k->name);
    char text[48];
    if (side < 1 || side > CONV_MAX_SIDE || side % 2 == 0)
        return err_set(_("a filter's side is odd, from 1 to %d; not %d"), CONV_MAX_SIDE, side);
    if (!kind)
        return err_set(_("'%s' has one size; box, motion, sobel-x, sobel-y, gaussian, log and unsharp come in "
                         "every odd size"),
                       k->name);
    if (side < kind->min_side || side > kind->max_side)
        return err_set(_("%s comes in the odd sizes from %d to %d"), kind->prefix, kind->min_side, kind->max_side);
    if (kind->by_sigma)
        snprintf(text, sizeof text, "%s:%.17g", kind->prefix, (side - 1) / 6.0);
    else
        snprintf(text, sizeof text, "%s:%d", kind->prefix, side);
    return filt_parse(text, out);
}

bool filt_parse(const char *text, filt_kernel *out)
{
    char why[200];
    for (size_t i = 0; i < PRESET_COUNT; ++i) {
        if (strcasecmp(text, presets[i].name) == 0) {
            *out = presets[i];
            return true;
        }
    }
    if (parse_sized(text, out, why, sizeof why) || (!why[0] && parse_matrix(text, out, why, sizeof why)))
        return true;
    if (why[0])
        return err_set("kernel '%.80s' is not understood: %s; give %s", text, why, filt_expected_form());
    return err_set("kernel '%.80s' is not understood; give %s", text, filt_expected_form());
}

filt_kernel filt_flipped(const filt_kernel *k)
{
    filt_kernel f = *k;
    int n = k->kw * k->kh;
    for (int t = 0; t < n; ++t)
        f.weight[t] = k->weight[n - 1 - t];
    return f;
}

/* Shortest text that reads back as the same float. */
static void format_number(float v, char *buf, size_t size)
{
    for (int prec = 1; prec <= 9; ++prec) {
        snprintf(buf, size, "%.*g", prec, (double)v);
        if (strtof(buf, NULL) == v)
            return;
    }
}

void filt_format(const filt_kernel *k, char *buf, size_t size)
{
    size_t used = 0;
    char num[32];
    buf[0] = '\0';
    for (int t = 0, n = k->kw * k->kh; t < n && used < size; ++t) {
        format_number(k->weight[t], num, sizeof num);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", num,
                                 t == n - 1 ? "" : (t % k->kw == k->kw - 1 ? "; " : " "));
    }
    if (k->divisor != 1.0f && used < size) {
        format_number(k->divisor, num, sizeof num);
        snprintf(buf + used, size - used, " / %s", num);
    }
}
