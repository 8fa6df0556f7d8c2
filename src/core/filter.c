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
             "of a size (box:5, gaussian:1.5, motion:9), or rows of numbers such as \"-1 0 1; -2 0 2; -1 0 1\": "
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

/* A preset of a size: "box:5", "gaussian:1.5", "motion:9"; false when the
 * text is none (why ""), or with why set when its size is wrong. */
static bool parse_sized(const char *text, filt_kernel *out, char *why, size_t why_size)
{
    const char *colon = strchr(text, ':');
    char *end;
    double v;
    why[0] = '\0';
    if (!colon)
        return false;
    errno = 0;
    v = strtod(colon + 1, &end);
    if (end == colon + 1 || *skip_space(end) || errno == ERANGE)
        return false;
    memset(out, 0, sizeof *out);
    out->divisor = 1.0f;
    if (strncasecmp(text, "box:", 4) == 0 || strncasecmp(text, "motion:", 7) == 0) {
        bool box = tolower((unsigned char)text[0]) == 'b';
        /* the range first: a size past int's range (box:23e33) or NaN has no int to cast to */
        int k = v >= 1.0 && v <= CONV_MAX_SIDE ? (int)v : 0;
        if (v != k || k % 2 == 0) {
            snprintf(why, why_size, _("%s takes an odd size from 1 to %d, as in %s:5"), box ? "box" : "motion",
                     CONV_MAX_SIDE, box ? "box" : "motion");
            return false;
        }
        out->kw = k, out->kh = box ? k : 1;
        for (int t = 0; t < out->kw * out->kh; ++t)
            out->weight[t] = 1.0f;
        out->divisor = (float)(out->kw * out->kh);
        snprintf(out->name, sizeof out->name, "%s:%d", box ? "box" : "motion", k);
        snprintf(out->title, sizeof out->title, "%s", box ? N_("Box blur of a size") : N_("Motion blur (horizontal)"));
        return true;
    }
    if (strncasecmp(text, "gaussian:", 9) == 0) {
        int r;
        if (!(v >= 0.2 && v <= 5.0)) {
            snprintf(why, why_size, "%s", _("gaussian takes a standard deviation from 0.2 to 5, as in gaussian:1.5"));
            return false;
        }
        r = (int)ceil(3.0 * v);
        out->kw = out->kh = 2 * r + 1; /* 31 at most: 3 x 5 = 15 a side of the centre */
        out->divisor = 0.0f;
        for (int t = 0; t < out->kw * out->kh; ++t) {
            int dx = t % out->kw - r, dy = t / out->kw - r;
            out->weight[t] = (float)exp(-(dx * dx + dy * dy) / (2.0 * v * v));
            out->divisor += out->weight[t];
        }
        snprintf(out->name, sizeof out->name, "gaussian:%g", v);
        snprintf(out->title, sizeof out->title, "%s", N_("Gaussian blur of a width"));
        return true;
    }
    return false;
}

const char *filt_kind_title(const filt_kernel *k)
{
    if (strncmp(k->name, "box", 3) == 0)
        return presets[1].title;
    if (strncmp(k->name, "gaussian", 8) == 0)
        return presets[2].title;
    if (strncmp(k->name, "motion", 6) == 0)
        return N_("Motion blur (horizontal)");
    return k->title;
}

bool filt_of_size(const filt_kernel *kind, int k, filt_kernel *out)
{
    char text[48];
    if (k < 1 || k > CONV_MAX_SIDE || k % 2 == 0)
        return err_set(_("a filter's side is odd, from 1 to %d; not %d"), CONV_MAX_SIDE, k);
    if (strncmp(kind->name, "box", 3) == 0 || strncmp(kind->name, "motion", 6) == 0)
        snprintf(text, sizeof text, "%s:%d", kind->name[0] == 'b' ? "box" : "motion", k);
    else if (strncmp(kind->name, "gaussian", 8) == 0 && k >= 3)
        snprintf(text, sizeof text, "gaussian:%.17g", (k - 1) / 6.0);
    else if (strncmp(kind->name, "gaussian", 8) == 0)
        return err_set("%s", _("a gaussian is 3 a side or more"));
    else
        return err_set(_("'%s' has one size; box, gaussian and motion come in every odd size"), kind->name);
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
