/* bound.c - bounds (bound.h): the GPUs' published figures, the work counted
 * for a run, and the least time that work could take on each GPU, worded
 * for the chart and the lessons. */
#include "bound.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "i18n.h"
#include "scene.h"

#include "datasheets.h" /* BOUND_DATASHEETS, from records/datasheets.json */

int bound_gpu_count(void)
{
    return (int)(sizeof BOUND_DATASHEETS / sizeof BOUND_DATASHEETS[0]);
}

const bound_gpu *bound_gpu_at(int i)
{
    return i >= 0 && i < bound_gpu_count() ? &BOUND_DATASHEETS[i] : NULL;
}

bound_work bound_conv_work_copies(long long outputs, int taps, long long copies_back)
{
    double n = outputs > 0 ? (double)outputs : 0.0, bytes = 4.0 * n;
    return (bound_work){.outputs = n,
                        .device_bytes = 2.0 * bytes,             /* each input read once, each output written once */
                        .flops = (2.0 * (double)taps + 1.0) * n, /* a multiply-add a weight, one for the divisor */
                        .link_bytes = copies_back > 0 ? 2.0 * bytes : bytes,
                        .copies = n > 0 ? 1 + (copies_back > 0 ? copies_back : 0) : 0};
}

bound_work bound_conv_work(long long outputs, int taps, bool copy_back)
{
    return bound_conv_work_copies(outputs, taps, copy_back ? 1 : 0);
}

bound_time bound_time_of(const bound_gpu *g, const bound_work *w)
{
    bound_time t = {0};
    t.memory_ms = w->device_bytes / (g->memory_gb_s * 1e9) * 1e3;
    t.arith_ms = w->flops / (g->fp32_tflops * 1e12) * 1e3;
    t.link_ms = w->link_bytes / (g->host_link_gb_s * 1e9) * 1e3;
    t.kernel_limit = t.arith_ms > t.memory_ms ? BOUND_BY_ARITHMETIC : BOUND_BY_MEMORY;
    t.ms = fmax(t.memory_ms, t.arith_ms) + t.link_ms;
    return t;
}

bool bound_stands_in(const scene *s)
{
    return !s->gpu.eng.engine || s->gpu.eng.hardware != ENG_HW_GPU;
}

bound_work bound_scene_work(const scene *s)
{
    long long n = (long long)s->img.luma.w * s->img.luma.h;
    return bound_conv_work_copies(n, s->opt.kernel.kw * s->opt.kernel.kh,
                                  s->gpu.result == ENG_RESULT_INTEROP    ? 0
                                  : s->gpu.result == ENG_RESULT_PER_PIXEL ? n
                                                                          : 1);
}

void bound_time_text(double ms, char *buf, size_t size)
{
    if (ms < 1e-4)
        snprintf(buf, size, "%.1f ns", floor(ms * 1e7) / 10);
    else
        fmt_ms(ms, buf, size);
}

double bound_least(const scene *s, const bound_gpu **who)
{
    bound_work w = bound_scene_work(s);
    double least = 0;
    *who = NULL;
    if (s->gpu.result == ENG_RESULT_PER_PIXEL) /* bytes alone would hide each call's own cost */
        return 0;
    for (int g = 0; bound_stands_in(s) && w.outputs > 0 && g < bound_gpu_count(); ++g) {
        double ms = bound_time_of(bound_gpu_at(g), &w).ms;
        if (!*who || ms < least)
            least = ms, *who = bound_gpu_at(g);
    }
    return least;
}

void bound_row_text(const bound_gpu *g, double ms, char *buf, size_t size)
{
    char t[32];
    bound_time_text(ms, t, sizeof t);
    snprintf(buf, size, _("\xE2\x89\xA5 %s, %s datasheet, not measured"), t, g->short_name);
}

/* What sets the bounds, for the sentence. */
static void bound_reason(const bound_work *w, char *buf, size_t size)
{
    double lo = 1, hi = 0;
    int arith = 0;
    for (int i = 0; i < bound_gpu_count(); ++i) {
        bound_time t = bound_time_of(bound_gpu_at(i), w);
        double share = t.ms > 0 ? t.link_ms / t.ms : 0;
        lo = fmin(lo, share), hi = fmax(hi, share);
        arith += t.kernel_limit == BOUND_BY_ARITHMETIC;
    }
    if (lo >= 0.5 && w->copies == 1) /* the no-copy path: the image goes in, nothing comes back */
        snprintf(buf, size, _("the image's upload across the host link is %.0f%% to %.0f%% of each"), 100 * lo,
                 100 * hi);
    else if (lo >= 0.5)
        snprintf(buf, size, _("the copies across the host link are %.0f%% to %.0f%% of each"), 100 * lo, 100 * hi);
    else if (arith)
        snprintf(buf, size, "%s", _("the arithmetic sets the kernel's part"));
    else
        snprintf(buf, size, "%s", _("the device's memory traffic sets the kernel's part"));
}

/* Each GPU's bound of `w` in a list: "2.13 ms on the H200, 8.99 ms on the
 * RTX 4060 Ti, …". */
static void gpu_list(const bound_work *w, char *list, size_t size)
{
    size_t n = 0;
    list[0] = '\0';
    for (int i = 0; i < bound_gpu_count() && n < size; ++i) {
        const bound_gpu *g = bound_gpu_at(i);
        char ms[32];
        bound_time_text(bound_time_of(g, w).ms, ms, sizeof ms);
        if (i)
            n += (size_t)snprintf(list + n, size - n, "%s", C_("list", ", "));
        /* TRANSLATORS: one GPU's bound in a list: a time, then the GPU's name (H200, RTX 4060 Ti) */
        if (n < size)
            n += (size_t)snprintf(list + n, size - n, _("%s on the %s"), ms, g->short_name);
    }
}

void bound_sentence(const bound_work *w, char *buf, size_t size)
{
    char list[512], reason[256];
    gpu_list(w, list, sizeof list);
    bound_reason(w, reason, sizeof reason);
    if (w->copies > 2) { /* one copy per pixel: the bytes are the bulk copy's, the calls are not */
        char c[32];
        size_t r = strlen(reason);
        fmt_count(w->copies - 1, c, sizeof c);
        snprintf(reason + r, sizeof reason - r, _(", and %s copies back, each with a cost of its own"), c);
    }
    snprintf(buf, size,
             _("at least %s (bounds, from the datasheets, not measured: %s, copies and kernel one after the other as "
               "convis runs them; a launch and the wait for it, which no datasheet gives, come on top)"),
             list, reason);
}

void bound_scene_sentence(const scene *s, char *buf, size_t size)
{
    bound_work w = bound_scene_work(s);
    bound_sentence(&w, buf, size);
}

void bound_sweep_sentence(const scene *s, char *buf, size_t size)
{
    int i = s->sweep.count - 1, above = 0;
    char par[32], list[512], x[48];
    bound_work w;
    while (i >= 0 && s->sweep.ms[SWEEP_PAR][i] <= 0)
        --i;
    if (i < 0) {
        snprintf(buf, size, "%s", _("(no sweep measured yet: press W)"));
        return;
    }
    fmt_ms(s->sweep.ms[SWEEP_PAR][i], par, sizeof par);
    w = bound_conv_work((long long)s->sweep.size[i] * s->sweep.size[i], s->opt.kernel.kw * s->opt.kernel.kh, true);
    gpu_list(&w, list, sizeof list);
    for (int g = 0; g < bound_gpu_count(); ++g)
        above += bound_time_of(bound_gpu_at(g), &w).ms > s->sweep.ms[SWEEP_PAR][i];
    snprintf(x, sizeof x, "%d\xC3\x97%d", s->sweep.size[i], s->sweep.size[i]);
    snprintf(buf, size,
             above ? _("At %s, cpu-par took %s here; the bounds, copies included, are %s. Where a bound lies above "
                       "cpu-par's time, that GPU cannot beat this machine's cores at this size while the image crosses its "
                       "host link, however fast its arithmetic")
                   : _("At %s, cpu-par took %s here; the bounds, copies included, are %s: every one lies below "
                       "cpu-par's time, so each of these GPUs can win, if its launch costs less than the gap"),
             x, par, list);
}
