#include "format.h"

#include "compute/engine.h"
#include "i18n.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fmt_ms(double ms, char *buf, size_t size)
{
    if (ms >= 1000)
        snprintf(buf, size, "%.2f s", ms / 1000);
    else if (ms >= 10)
        snprintf(buf, size, "%.1f ms", ms);
    else if (ms >= 0.1)
        snprintf(buf, size, "%.2f ms", ms);
    else
        snprintf(buf, size, "%.1f \xC2\xB5s", ms * 1000);
}

void fmt_bytes(long long bytes, char *buf, size_t size)
{
    if (bytes >= (1LL << 30))
        snprintf(buf, size, "%.1f GiB", (double)bytes / (double)(1LL << 30));
    else if (bytes >= (10LL << 20))
        snprintf(buf, size, "%.0f MiB", (double)bytes / (double)(1LL << 20));
    else if (bytes >= (1LL << 20))
        snprintf(buf, size, "%.1f MiB", (double)bytes / (double)(1LL << 20));
    else
        snprintf(buf, size, "%.0f KiB", (double)bytes / 1024.0);
}

void fmt_count(long long n, char *buf, size_t size)
{
    char raw[32];
    int len, out = 0;
    if (size == 0)
        return;
    snprintf(raw, sizeof raw, "%lld", n < 0 ? -n : n);
    len = (int)strlen(raw);
    if (n < 0 && out + 1 < (int)size)
        buf[out++] = '-';
    for (int i = 0; i < len && out + 2 < (int)size; ++i) {
        buf[out++] = raw[i];
        if ((len - i - 1) % 3 == 0 && i < len - 1)
            buf[out++] = ',';
    }
    buf[out] = '\0';
}

void fmt_ratio(double slow_ms, double fast_ms, char *buf, size_t size)
{
    double r = fast_ms > 0 ? slow_ms / fast_ms : 0.0;
    if (r < 1 && r > 0)
        r = 1 / r;
    /* near 1, a second decimal: a verdict of "slower" never reads "1.0x slower" */
    snprintf(buf, size, r < 1.095 ? "%.2f\xC3\x97" : "%.1f\xC3\x97", r);
}

/* Whole values plainly; others with one decimal while under `limit` in
 * size, rounded from there; never "-0". */
static void fmt_decimal(float v, float limit, char *buf, size_t size)
{
    if (v == floorf(v) && fabsf(v) < 1e7f)
        snprintf(buf, size, "%.0f", (double)v);
    else if (fabsf(v) >= limit)
        snprintf(buf, size, "%.0f", (double)v);
    else
        snprintf(buf, size, "%.1f", (double)v);
    if (strcmp(buf, "-0") == 0 || strcmp(buf, "-0.0") == 0)
        snprintf(buf, size, "0");
}

void fmt_value(float v, char *buf, size_t size)
{
    fmt_decimal(v, 1000.0f, buf, size);
}

void fmt_cell(float v, char *buf, size_t size)
{
    fmt_decimal(v, 9.95f, buf, size); /* 9.96 would print as "10.0" */
}

/* How many runs a verdict came from, where that is fewer than a verdict
 * needs: " (from a single run)"; "" from enough runs. */
const char *fmt_runs_note(const eng_verdict *v)
{
    if (v->runs >= ENG_FEW_RUNS)
        return "";
    return v->runs <= 1 ? _(" (from a single run)") : _(" (from two runs)");
}

void fmt_verdict(fmt_style style, const char *a_name, const char *b_name, const eng_verdict *v, char *buf, size_t size)
{
    char r[32], said[192];
    const bool few = v->runs < ENG_FEW_RUNS;
    fmt_ratio(v->ratio, 1.0, r, sizeof r);
    if (style == FMT_COLUMN) {
        if (v->kind == ENG_SAME)
            snprintf(buf, size, "%s", _("about the same"));
        else if (v->kind == ENG_UNSURE)
            snprintf(buf, size, "%s", _("too few runs"));
        else
            snprintf(buf, size, v->kind == ENG_FASTER ? _("%.1fx faster") : _("%.1fx slower"), v->ratio);
        return;
    }
    switch (v->kind) {
    case ENG_SAME:
        if (style == FMT_SENTENCE)
            snprintf(said, sizeof said,
                     few ? _("%s and %s took about the same time")
                         : _("%s and %s took about the same time (the gap is within how much their runs vary)"),
                     a_name, b_name);
        else
            snprintf(said, sizeof said,
                     few ? _("%s \xE2\x89\x88 %s") : _("%s \xE2\x89\x88 %s (within their runs' spread)"), a_name,
                     b_name);
        break;
    case ENG_UNSURE:
        snprintf(said, sizeof said,
                 style == FMT_SENTENCE ? _("%s and %s were %s apart, too few runs to tell which was faster")
                                       : _("%s vs %s: %s apart, too few runs to tell"),
                 a_name, b_name, r);
        break;
    default:
        if (style == FMT_SENTENCE)
            snprintf(said, sizeof said,
                     v->kind == ENG_FASTER ? _("%s was %s faster than %s") : _("%s was %s slower than %s"), a_name, r,
                     b_name);
        else
            snprintf(said, sizeof said, v->kind == ENG_FASTER ? _("%s %s faster than %s") : _("%s %s slower than %s"),
                     a_name, r, b_name);
        break;
    }
    snprintf(buf, size, "%s%s", said, fmt_runs_note(v));
}

void fmt_compare(const char *a_name, const eng_timing *a, const char *b_name, const eng_timing *b, char *buf,
                 size_t size)
{
    eng_verdict v = eng_compare_timings(a, b);
    fmt_verdict(FMT_SENTENCE, a_name, b_name, &v, buf, size);
}
