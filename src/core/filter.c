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

static const filt_kernel presets[] = {
    {NC_("filter", "identity"), N_("Identity"), {0, 0, 0, 0, 1, 0, 0, 0, 0}, 1},
    {NC_("filter", "box"), N_("Box blur"), {1, 1, 1, 1, 1, 1, 1, 1, 1}, 9},
    {NC_("filter", "gaussian"), N_("Gaussian blur"), {1, 2, 1, 2, 4, 2, 1, 2, 1}, 16},
    {NC_("filter", "sharpen"), N_("Sharpen"), {0, -1, 0, -1, 5, -1, 0, -1, 0}, 1},
    {NC_("filter", "laplacian"), N_("Laplacian edges"), {0, -1, 0, -1, 4, -1, 0, -1, 0}, 1},
    {NC_("filter", "sobel-x"), N_("Sobel X (vertical edges)"), {-1, 0, 1, -2, 0, 2, -1, 0, 1}, 1},
    {NC_("filter", "sobel-y"), N_("Sobel Y (horizontal edges)"), {-1, -2, -1, 0, 0, 0, 1, 2, 1}, 1},
    {NC_("filter", "emboss"), N_("Emboss"), {-2, -1, 0, -1, 1, 1, 0, 1, 2}, 1},
    {NC_("filter", "outline"), N_("Outline"), {-1, -1, -1, -1, 8, -1, -1, -1, -1}, 1},
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
    return _("a preset (identity, box, gaussian, sharpen, laplacian, sobel-x, sobel-y, emboss, outline) "
             "or three rows of three numbers such as \"-1 0 1; -2 0 2; -1 0 1\", "
             "optionally followed by a divisor as in \"1 2 1; 2 4 2; 1 2 1 / 16\"");
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

static bool parse_matrix(const char *text, filt_kernel *out)
{
    const char *p = text;
    int n = 0;

    memset(out, 0, sizeof *out);
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col) {
            p = skip_space(p);
            if (col > 0 && *p == ',')
                p = skip_space(p + 1);
            if (!(p = read_number(p, &out->weight[n])))
                return false;
            ++n;
        }
        p = skip_space(p);
        if (row < 2) {
            if (*p != ';')
                return false;
            ++p;
        }
    }
    out->divisor = 1.0f;
    if (*p == '/') {
        p = skip_space(p + 1);
        if (!(p = read_number(p, &out->divisor)) || out->divisor == 0.0f)
            return false;
        p = skip_space(p);
    }
    if (*p)
        return false;
    snprintf(out->name, sizeof out->name, "custom");
    snprintf(out->title, sizeof out->title, "%s", N_("Custom kernel"));
    return true;
}

bool filt_parse(const char *text, filt_kernel *out)
{
    for (size_t i = 0; i < PRESET_COUNT; ++i) {
        if (strcasecmp(text, presets[i].name) == 0) {
            *out = presets[i];
            return true;
        }
    }
    if (parse_matrix(text, out))
        return true;
    return err_set("kernel '%.80s' is not understood; give %s", text, filt_expected_form());
}

filt_kernel filt_flipped(const filt_kernel *k)
{
    filt_kernel f = *k;
    for (int t = 0; t < 9; ++t)
        f.weight[t] = k->weight[8 - t];
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
    for (int t = 0; t < 9 && used < size; ++t) {
        format_number(k->weight[t], num, sizeof num);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", num, t == 8 ? "" : (t % 3 == 2 ? "; " : " "));
    }
    if (k->divisor != 1.0f && used < size) {
        format_number(k->divisor, num, sizeof num);
        snprintf(buf + used, size - used, " / %s", num);
    }
}
