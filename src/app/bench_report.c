/* bench_report.c - the figures of `convis bench`, derived from its measured
 * cells (bench.c says how they are measured): Mpixel/s, GB/s, the share of
 * the copy and the ratio to cpu-seq, printed as a table, as CSV or as JSON. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_fft.h"
#include "bench_internal.h"
#include "bench_roofline.h"
#include "bound.h"
#include "cli.h"
#include "compute/engine.h"
#include "format.h"
#include "i18n.h"
#include "measure.h"
#include "record.h"

/* cpu-seq's cell at size i, NULL when it did not run. */
static const bench_cell *seq_cell(const bench *b, int i)
{
    for (int k = 0; k < b->engine_count; ++k)
        if (strcmp(b->cls[k]->name, "cpu-seq") == 0 && b->cell[k][i].ran)
            return &b->cell[k][i];
    return NULL;
}

typedef struct derived {
    double mpx_s, gb_s, copy_share, vs_seq; /* vs_seq < 0: no cpu-seq figure */
} derived;

static eng_spread spread_of(const bench_cell *c)
{
    eng_spread s = {c->median, c->lo, c->hi, c->reps};
    return s;
}

static derived derive(const bench *b, int i, const bench_cell *c)
{
    double px = (double)b->sizes[i] * b->sizes[i];
    const bench_cell *seq = seq_cell(b, i);
    derived d;
    d.mpx_s = c->median > 0 ? px / c->median / 1e3 : 0;
    d.gb_s = c->median > 0 ? 8.0 * px / c->median / 1e6 : 0;
    d.copy_share = c->median > 0 ? b->copy[i].median / c->median : 0;
    d.vs_seq = seq && c->median > 0 ? seq->median / c->median : -1;
    return d;
}

static const char *phase_key(int p)
{
    return eng_phase_name((eng_phase)p);
}

/* The second-core check, one line: what cpu-par's threads can add here. */
static void print_cores(const bench *b)
{
    char text[160], note[320];
    if (b->cores.threads < 1)
        return;
    scene_cores_text(&b->cores, text, sizeof text);
    scene_cores_note(&b->cores, note, sizeof note);
    printf(_("  cores: %s, a few ms of arithmetic on every thread at once; %s\n"), text, note);
}

/* GPU g's bound at size i, as bench's GPU engines run it: the image in and
 * the result back. */
static bound_time bench_bound(const bench *b, int g, int i)
{
    bound_work w = bound_conv_work((long long)b->sizes[i] * b->sizes[i], b->opt.kernel.kw * b->opt.kernel.kh, true);
    return bound_time_of(bound_gpu_at(g), &w);
}

/* Under the table: the bounds of each size on the datasheets' GPUs, never
 * mixed with the measured rows. */
static void print_bounds(const bench *b)
{
    printf(_("\nBounds, from the datasheets, not measured: the least time each GPU could take, its memory and arithmetic "
             "at\ntheir peak and the image in and the result back over its host link, with no launch (README: "
             "Bounds).\n"));
    app_put_column(stdout, _("size"), 10, false);
    for (int g = 0; g < bound_gpu_count(); ++g)
        app_put_column(stdout, bound_gpu_at(g)->short_name, 30, true);
    putchar('\n');
    for (int i = 0; i < b->size_count; ++i) {
        char size[32];
        snprintf(size, sizeof size, "%dx%d", b->sizes[i], b->sizes[i]);
        app_put_column(stdout, size, 10, false);
        for (int g = 0; g < bound_gpu_count(); ++g) {
            bound_time t = bench_bound(b, g, i);
            char all[32], kernel[32], cell[96];
            bound_time_text(t.ms, all, sizeof all);
            bound_time_text(fmax(t.memory_ms, t.arith_ms), kernel, sizeof kernel);
            snprintf(cell, sizeof cell, _("%s (kernel %s)"), all, kernel);
            app_put_column(stdout, cell, 30, true);
        }
        putchar('\n');
    }
}

/* One filter's table: its headings, a row for each engine and size, and
 * the bounds under them. */
static void print_table(const bench *b);

void bench_print_text(const bench *runs, int count)
{
    const bench *b = &runs[0];
    char cpu[128];
    rec_cpu_model(cpu, sizeof cpu);
    printf(_("convis bench: %s, border %s%s; %s, %ld cores\n"), b->opt.kernel.name,
           C_("border", conv_border_name(b->opt.border)), b->opt.flip ? _(", flipped") : "", cpu,
           sysconf(_SC_NPROCESSORS_ONLN));
    for (int k = 0; k < b->engine_count; ++k)
        printf("  %-11s %s\n", b->label[k], b->unavailable[k][0] ? b->unavailable[k] : b->description[k]);
    print_cores(b);
    printf(_("Each figure: the median of timed runs after a warm-up (reps), the spread their fastest and slowest;\n"
             "GB/s counts 8 bytes a pixel (4 read, 4 written); \"of copy\" is a memcpy of the same bytes in this run\n"
             "divided by the engine's time (1.00: as fast as moving the bytes); \"threads\" counts the CPU threads\n"
             "that ran a band in the last run at that size (a small image runs on fewer than the engine has).\n\n"));
    for (int r = 0; r < count; ++r) {
        if (count > 1) /* --ksize: a table a filter size */
            printf(_("%sfilter %s, %d\xC3\x97%d:\n"), r ? "\n" : "", runs[r].opt.kernel.name, runs[r].opt.kernel.kw,
                   runs[r].opt.kernel.kh);
        print_table(&runs[r]);
    }
    if (b->fft)
        bench_print_fft(runs, count);
}

static void print_table(const bench *b)
{
    {
        /* the headings, in the columns of the figures below them */
        static const char *const heading[] = {N_("engine"),   N_("size"),      N_("median ms"), N_("spread (ms)"),
                                              N_("reps"),     N_("threads"),   N_("upload"),    N_("compute"),
                                              N_("download"), N_("overhead"),  N_("Mpx/s"),     N_("GB/s"),
                                              N_("of copy"),  N_("vs cpu-seq")};
        static const int width[] = {11, 10, 11, 22, 6, 8, 10, 10, 10, 10, 10, 10, 9, 18};
        for (size_t i = 0; i < sizeof heading / sizeof heading[0]; ++i)
            app_put_column(stdout, _(heading[i]), width[i], i >= 2);
        putchar('\n');
    }
    for (int i = 0; i < b->size_count; ++i) {
        char size[32];
        snprintf(size, sizeof size, "%dx%d", b->sizes[i], b->sizes[i]);
        for (int k = -1; k < b->engine_count; ++k) {
            const bench_cell *c = k < 0 ? &b->copy[i] : &b->cell[k][i];
            const char *name = k < 0 ? _("copy") : b->label[k];
            char spread[48], vs[48];
            derived d;
            if (k >= 0 && b->unavailable[k][0])
                continue;
            if (!c->ran) { /* the reason after the size, never run into it */
                app_put_column(stdout, name, 11, false);
                app_put_column(stdout, size, 10, false);
                printf(_(" failed: %s\n"), c->why);
                continue;
            }
            d = derive(b, i, c);
            snprintf(spread, sizeof spread, "%.4g-%.4g", c->lo, c->hi);
            /* against cpu-seq by the one rule: "26.8x faster", "about the same" */
            if (k < 0 || d.vs_seq <= 0 || strcmp(b->cls[k]->name, "cpu-seq") == 0) {
                snprintf(vs, sizeof vs, "-");
            } else {
                const bench_cell *seq = seq_cell(b, i);
                eng_verdict v = eng_verdict_of(spread_of(c), spread_of(seq));
                fmt_verdict(FMT_COLUMN, "", "", &v, vs, sizeof vs);
            }
            printf("%-11s%-10s%11.4g%22s%6d", name, size, c->median, spread, c->reps);
            if (c->threads > 0) /* counted: the threads that ran this size's bands */
                printf("%8d", c->threads);
            else
                printf("%8s", "-");
            for (int p = 0; p < ENG_PHASE_COUNT; ++p) {
                if (p == ENG_PRESENT)
                    continue; /* bench runs with a download, never a present */
                if (c->phase[p] >= 0)
                    printf("%10.4g", c->phase[p]);
                else
                    printf("%10s", "-");
            }
            printf("%10.1f%10.2f%9.2f", d.mpx_s, d.gb_s, d.copy_share);
            app_put_column(stdout, vs, 18, true);
            putchar('\n');
        }
    }
    print_bounds(b);
    bench_print_roofline(b);
}

/* Why the cell of engine row k at size i has no figures: its engine did
 * not run here, or this run failed; "" when it ran. */
static const char *cell_failure(const bench *b, int k, int i)
{
    if (k < 0 || b->cell[k][i].ran)
        return "";
    if (b->unavailable[k][0])
        return b->unavailable[k];
    return b->cell[k][i].why[0] ? b->cell[k][i].why : _("it failed, saying nothing");
}

/* `text` as one CSV field: quoted, its quotes doubled, a line break a space. */
static void csv_field(const char *text)
{
    putchar('"');
    for (const char *p = text; *p; ++p) {
        if (*p == '"')
            putchar('"');
        putchar(*p == '\n' || *p == '\r' ? ' ' : *p);
    }
    putchar('"');
}

/* A name in a CSV field: as it is, or quoted where it holds a comma, a
 * quote or a line's end. */
static void csv_name(const char *text)
{
    if (strpbrk(text, ",\"\r\n"))
        csv_field(text);
    else
        fputs(text, stdout);
}

/* The CSV's rows of one filter's bench. */
static void csv_rows(const bench *b)
{
    for (int i = 0; i < b->size_count; ++i)
        for (int k = -1; k < b->engine_count; ++k) {
            const bench_cell *c = k < 0 ? &b->copy[i] : &b->cell[k][i];
            const char *kernel = k >= 0 && b->kernel[k] >= 0 ? eng_kernel_name((eng_kernel)b->kernel[k]) : "";
            derived d;
            csv_name(b->opt.kernel.name);
            if (!c->ran) { /* a failed cell: no figures, its reason */
                printf(",%s,%s,%d,,,,,", k < 0 ? "copy" : b->cls[k]->name, kernel, b->sizes[i]);
                for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                    printf(",");
                printf(",,,,,");
                csv_field(cell_failure(b, k, i));
                printf("\n");
                continue;
            }
            d = derive(b, i, c);
            printf(",%s,%s,%d,%.6g,%.6g,%.6g,%d", k < 0 ? "copy" : b->cls[k]->name, kernel, b->sizes[i], c->median,
                   c->lo, c->hi, c->reps);
            if (c->threads > 0)
                printf(",%d", c->threads);
            else
                printf(",");
            for (int p = 0; p < ENG_PHASE_COUNT; ++p) {
                if (c->phase[p] >= 0)
                    printf(",%.6g", c->phase[p]);
                else
                    printf(",");
            }
            printf(",%.6g,%.6g,%.6g,", d.mpx_s, d.gb_s, d.copy_share);
            if (d.vs_seq > 0 && k >= 0)
                printf("%.6g", d.vs_seq);
            printf(",\n");
        }
}

void bench_print_csv(const bench *runs, int count)
{
    printf("filter,engine,kernel,size,median_ms,min_ms,max_ms,reps,threads");
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        printf(",%s_ms", phase_key(p));
    printf(",mpx_s,gb_s,copy_share,vs_cpu_seq,error\n");
    for (int r = 0; r < count; ++r)
        csv_rows(&runs[r]);
}

/* The JSON's runs of one filter's bench, each named with its filter. */
static void json_runs(const bench *b, bool *first_run)
{
    bool first = *first_run;
    for (int i = 0; i < b->size_count; ++i)
        for (int k = -1; k < b->engine_count; ++k) {
            const bench_cell *c = k < 0 ? &b->copy[i] : &b->cell[k][i];
            derived d;
            bool any = false;
            if (k >= 0 && b->unavailable[k][0])
                continue; /* the engines' list says why it did not run */
            printf("%s\n    {\"filter\": ", first ? "" : ",");
            rec_json_string(stdout, b->opt.kernel.name);
            printf(", \"engine\": \"%s\", ", k < 0 ? "copy" : b->cls[k]->name);
            if (k >= 0 && b->kernel[k] >= 0)
                printf("\"kernel\": \"%s\", ", eng_kernel_name((eng_kernel)b->kernel[k]));
            first = false;
            if (!c->ran) { /* a failed cell: its reason, no figures */
                printf("\"size\": %d, \"error\": ", b->sizes[i]);
                rec_json_string(stdout, cell_failure(b, k, i));
                printf("}");
                continue;
            }
            d = derive(b, i, c);
            printf("\"size\": %d, \"median_ms\": %.6g, \"min_ms\": %.6g, \"max_ms\": %.6g, \"reps\": %d, ", b->sizes[i],
                   c->median, c->lo, c->hi, c->reps);
            if (c->threads > 0) /* counted: the threads that ran this size's bands */
                printf("\"threads\": %d, ", c->threads);
            printf("\"phases\": {");
            for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                if (c->phase[p] >= 0) {
                    printf("%s\"%s\": %.6g", any ? ", " : "", phase_key(p), c->phase[p]);
                    any = true;
                }
            printf("}, \"mpx_s\": %.6g, \"gb_s\": %.6g, \"copy_share\": %.6g", d.mpx_s, d.gb_s, d.copy_share);
            if (d.vs_seq > 0 && k >= 0)
                printf(", \"vs_cpu_seq\": %.6g", d.vs_seq);
            printf("}");
        }
    *first_run = first;
}

/* The JSON's bounds of one filter's bench (not measured: README, Bounds). */
static void json_bounds(const bench *b, bool *first_bound)
{
    for (int i = 0; i < b->size_count; ++i)
        for (int g = 0; g < bound_gpu_count(); ++g) {
            bound_time t = bench_bound(b, g, i);
            printf("%s\n    {\"filter\": ", *first_bound ? "" : ",");
            *first_bound = false;
            rec_json_string(stdout, b->opt.kernel.name);
            printf(", \"gpu\": ");
            rec_json_string(stdout, bound_gpu_at(g)->name);
            printf(", \"size\": %d, \"ms\": %.6g, \"memory_ms\": %.6g, \"arithmetic_ms\": %.6g, \"link_ms\": %.6g}",
                   b->sizes[i], t.ms, t.memory_ms, t.arith_ms, t.link_ms);
        }
}

void bench_print_json(const bench *runs, int count)
{
    const bench *b = &runs[0];
    char cpu[128], date[32];
    time_t now = time(NULL);
    struct tm tm;
    bool first = true;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    rec_cpu_model(cpu, sizeof cpu);
    printf("{\n  \"convis_bench\": 1,\n  \"convis\": ");
    rec_json_string(stdout, CONVIS_VERSION);
    printf(",\n  \"date\": ");
    rec_json_string(stdout, date);
    printf(",\n  \"machine\": {\"cpu\": ");
    rec_json_string(stdout, cpu);
    printf(", \"cores\": %ld},\n  \"filter\": ", sysconf(_SC_NPROCESSORS_ONLN));
    rec_json_string(stdout, b->opt.kernel.name);
    printf(",\n  \"border\": ");
    rec_json_string(stdout, conv_border_name(b->opt.border));
    printf(",\n  \"budget_ms\": %g,\n", b->budget_ms);
    if (b->cores.threads > 0)
        printf("  \"cores_check\": {\"threads\": %d, \"worth\": %.3f, \"one_ms\": %.4f, \"wall_ms\": %.4f},\n",
               b->cores.threads, b->cores.worth, b->cores.one_ms, b->cores.wall_ms);
    printf("  \"engines\": [");
    for (int k = 0; k < b->engine_count; ++k) {
        printf("%s\n    {\"name\": ", k ? "," : "");
        rec_json_string(stdout, b->cls[k]->name);
        if (b->kernel[k] >= 0)
            printf(", \"kernel\": \"%s\"", eng_kernel_name((eng_kernel)b->kernel[k]));
        printf(", \"available\": %s, \"%s\": ", b->unavailable[k][0] ? "false" : "true",
               b->unavailable[k][0] ? "why" : "description");
        rec_json_string(stdout, b->unavailable[k][0] ? b->unavailable[k] : b->description[k]);
        printf("}");
    }
    printf("\n  ],\n  \"runs\": [");
    for (int r = 0; r < count; ++r)
        json_runs(&runs[r], &first);
    printf("\n  ],\n  \"bounds\": [");
    first = true;
    for (int r = 0; r < count; ++r)
        json_bounds(&runs[r], &first);
    printf("\n  ],\n  \"roofline\": [");
    first = true;
    for (int r = 0; r < count; ++r)
        bench_json_roofline(&runs[r], &first);
    printf("\n  ]");
    if (b->fft)
        bench_json_fft(runs, count);
    printf("\n}\n");
}
