/* bench.c - `convis bench`: every engine that runs here, at a list of
 * sizes, in one run, beside a plain copy of the same bytes.
 *
 * Method (the README's performance section says the same):
 * - the image: the sample (or the image given), scaled to n x n by nearest
 *   sampling, as the size sweep makes its squares; the filter and border as
 *   given (gaussian, clamp by default);
 * - each engine at each size: one untimed warm-up run, then timed runs until
 *   the budget is spent (--budget-ms, per engine and size), three agree
 *   within 3%, or 25 have run (eng_measure_plan); the figures are medians,
 *   the spread the fastest and slowest run, each phase its engine's clock;
 * - the copy: memcpy of the input into the output, 8 bytes a pixel moved
 *   (4 read, 4 written), timed the same way by the monotonic clock: the
 *   memory bandwidth a one-pass filter cannot beat;
 * - derived: Mpixel/s = pixels / median; GB/s = 8 bytes a pixel / median;
 *   "of copy" = the copy's median / the engine's (1.00: as fast as moving
 *   the bytes); "x cpu-seq" = cpu-seq's median / the engine's.
 * The engines run one after another on an otherwise idle program; nothing
 * else of convis runs meanwhile. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "compute/engine.h"
#include "core/err.h"
#include "core/image.h"
#include "core/timing.h"
#include "data.h"
#include "engine_host.h"
#include "i18n.h"
#include "record.h"
#include "settings.h"

#define BENCH_MAX_SIZES 16
#define BENCH_MAX_ENGINES 12 /* rows: an engine, or an engine's kernel */
#define BENCH_MAX_REPS 25
#define BENCH_STEADY 0.03

typedef enum bench_format { BENCH_TEXT, BENCH_CSV, BENCH_JSON } bench_format;

/* One measured cell: an engine (or the copy) at one size. */
typedef struct bench_cell {
    bool ran;
    char why[256];          /* when it did not */
    double median, lo, hi;  /* ms */
    int reps;
    double phase[ENG_PHASE_COUNT]; /* ms; < 0: no such phase */
} bench_cell;

typedef struct bench {
    int sizes[BENCH_MAX_SIZES], size_count;
    const eng_class *cls[BENCH_MAX_ENGINES];
    int kernel[BENCH_MAX_ENGINES];  /* the eng_kernel of an engine with a choice, else -1 */
    char label[BENCH_MAX_ENGINES][40]; /* "cpu-par", "gl naive" */
    char description[BENCH_MAX_ENGINES][320];
    char unavailable[BENCH_MAX_ENGINES][256]; /* "" when it runs here */
    int engine_count;
    double budget_ms;
    bench_format format;
    app_options opt;
    const char *image;
    bench_cell copy[BENCH_MAX_SIZES];
    bench_cell cell[BENCH_MAX_ENGINES][BENCH_MAX_SIZES];
} bench;

/* ---- the command line ------------------------------------------------------------ */

static bool parse_sizes(const char *text, bench *b)
{
    const char *p = text;
    b->size_count = 0;
    while (*p) {
        char *end;
        long n = strtol(p, &end, 10);
        if (end == p || n < 1 || n > 16384 || (*end && (*end != ',' || !end[1])) || b->size_count == BENCH_MAX_SIZES) {
            app_error("bench: --sizes takes up to %d sides from 1 to 16384 parted by commas, such as "
                      "256,1024,4096, not '%s'",
                      BENCH_MAX_SIZES, text);
            return false;
        }
        b->sizes[b->size_count++] = (int)n;
        p = *end ? end + 1 : end;
    }
    return b->size_count > 0 || (app_error("bench: --sizes is empty"), false);
}

static bool parse_engines(const char *text, bench *b)
{
    char names[256];
    char *save = NULL;
    snprintf(names, sizeof names, "%s", text);
    b->engine_count = 0;
    for (char *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        const eng_class *cls = eng_find(name);
        if (!cls) {
            app_error("bench: no engine '%s'; the engines are %s", name, eng_names());
            return false;
        }
        for (int k = 0; k < b->engine_count; ++k)
            if (b->cls[k] == cls) {
                app_error("bench: --engines names '%s' twice", name);
                return false;
            }
        b->cls[b->engine_count++] = cls; /* distinct engines: at most eng_count(), two rows each at most */
    }
    return b->engine_count > 0 || (app_error("bench: --engines is empty"), false);
}

static int parse(int argc, char **argv, bench *b)
{
    static const int default_sizes[] = {256, 512, 1024, 2048, 4096};
    memset(b, 0, sizeof *b);
    app_options_default(&b->opt, "gaussian");
    b->budget_ms = 400;
    for (size_t i = 0; i < sizeof default_sizes / sizeof default_sizes[0]; ++i)
        b->sizes[b->size_count++] = default_sizes[i];
    for (size_t i = 0; i < eng_count(); ++i)
        b->cls[b->engine_count++] = eng_class_at(i);
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        const app_option *o;
        const char *v;
        long long n;
        int kind = app_next_option(argc, argv, &i, APP_FOR_ALL | APP_FOR_BENCH, &o, &v);
        if (kind < 0)
            return APP_EXIT_USAGE;
        if (kind == 1) {
            switch (o->id) {
            case OPT_CSV:
            case OPT_JSON:
                b->format = o->id == OPT_CSV ? BENCH_CSV : BENCH_JSON;
                break;
            case OPT_SIZES:
                if (!parse_sizes(v, b))
                    return APP_EXIT_USAGE;
                break;
            case OPT_ENGINES:
                if (!parse_engines(v, b))
                    return APP_EXIT_USAGE;
                break;
            case OPT_BUDGET_MS:
                if (!app_parse_count(o->name, v, 60000, &n))
                    return APP_EXIT_USAGE;
                b->budget_ms = (double)n;
                break;
            default:
                if (app_take_shared_option(o, v, &b->opt) < 0)
                    return APP_EXIT_USAGE;
                break;
            }
        } else if (!b->image) {
            b->image = a;
        } else {
            app_error("bench: takes at most one image, not '%s' too", a);
            return APP_EXIT_USAGE;
        }
    }
    for (int i = 0; i < b->size_count; ++i)
        if (b->sizes[i] > b->opt.limits.max_side || (long long)b->sizes[i] * b->sizes[i] > b->opt.limits.max_pixels) {
            app_error("bench: %dx%d is over the image limits (--max-side %d, --max-pixels %lld)", b->sizes[i],
                      b->sizes[i], b->opt.limits.max_side, (long long)b->opt.limits.max_pixels);
            return APP_EXIT_USAGE;
        }
    {
        /* an engine with a choice of kernels is measured with each: a row each */
        const eng_class *cls[BENCH_MAX_ENGINES];
        int n = b->engine_count;
        memcpy(cls, b->cls, sizeof cls);
        b->engine_count = 0;
        for (int k = 0; k < n; ++k)
            for (int kernel = 0; kernel < (eng_has_kernels(cls[k]) ? ENG_KERNEL_COUNT : 1) &&
                                 b->engine_count < BENCH_MAX_ENGINES;
                 ++kernel) {
                int r = b->engine_count++;
                b->cls[r] = cls[k];
                b->kernel[r] = eng_has_kernels(cls[k]) ? kernel : -1;
                snprintf(b->label[r], sizeof b->label[r], "%s%s%s", cls[k]->name, b->kernel[r] >= 0 ? " " : "",
                         b->kernel[r] >= 0 ? C_("kernel", eng_kernel_name((eng_kernel)kernel)) : "");
            }
    }
    return APP_EXIT_OK;
}

/* ---- measuring ------------------------------------------------------------------- */

static void fill_cell(bench_cell *c, const eng_timing *t)
{
    c->ran = true;
    c->median = eng_total_ms(t);
    c->lo = eng_total_min(t);
    c->hi = eng_total_max(t);
    c->reps = t->reps;
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        c->phase[p] = t->has[p] ? t->ms[p] : -1.0;
}

/* The copy: memcpy, by the plan an engine gets. */
static void measure_copy(const img_plane *in, img_plane *out, double budget_ms, bench_cell *c)
{
    double samples[BENCH_MAX_REPS], started;
    size_t bytes = sizeof(float) * (size_t)in->w * (size_t)in->h;
    int n = 0;
    memcpy(out->px, in->px, bytes); /* warm-up: the pages touched */
    started = tim_now_ms();
    while (n < BENCH_MAX_REPS) {
        double t0 = tim_now_ms(), spent;
        memcpy(out->px, in->px, bytes);
        samples[n++] = tim_now_ms() - t0;
        spent = tim_now_ms() - started;
        if (spent + spent / n > budget_ms)
            break;
        if (n >= 3) {
            tim_stats st = tim_stats_of(samples, (size_t)n);
            if (st.median > 0 && st.max - st.min <= BENCH_STEADY * st.median)
                break;
        }
    }
    {
        tim_stats st = tim_stats_of(samples, (size_t)n);
        c->ran = true;
        c->median = st.median;
        c->lo = st.min;
        c->hi = st.max;
        c->reps = n;
        for (int p = 0; p < ENG_PHASE_COUNT; ++p)
            c->phase[p] = -1.0;
    }
}

static bool measure_all(bench *b, const img_plane *source)
{
    eng_engine *engine[BENCH_MAX_ENGINES] = {0};
    eng_plan plan = {1, BENCH_MAX_REPS, b->budget_ms, BENCH_STEADY};
    for (int k = 0; k < b->engine_count; ++k) {
        char why[256] = "";
        if (!app_engine_probe(b->cls[k], why, sizeof why) ||
            !(engine[k] = app_engine_open_reason(b->cls[k], why, sizeof why))) {
            snprintf(b->unavailable[k], sizeof b->unavailable[k], "%s", why[0] ? why : _("unavailable"));
            continue;
        }
        if (b->kernel[k] >= 0) {
            eng_options o;
            memset(&o, 0, sizeof o);
            o.kernel = (eng_kernel)b->kernel[k];
            o.result = ENG_RESULT_BULK;
            if (!eng_set_options(engine[k], &o)) {
                snprintf(b->unavailable[k], sizeof b->unavailable[k], "%s", err_msg());
                eng_close(engine[k]);
                engine[k] = NULL;
                continue;
            }
        }
        snprintf(b->description[k], sizeof b->description[k], "%s", eng_description(engine[k]));
    }
    for (int i = 0; i < b->size_count; ++i) {
        int n = b->sizes[i];
        img_plane in, out;
        if (!img_plane_scaled(source, n, n, &in) || !img_plane_alloc(&out, n, n)) {
            img_plane_free(&in);
            for (int k = 0; k < b->engine_count; ++k)
                eng_close(engine[k]);
            app_engine_host_close();
            return false;
        }
        if (b->format == BENCH_TEXT)
            fprintf(stderr, _("convis: bench: %dx%d...\n"), n, n);
        measure_copy(&in, &out, b->budget_ms, &b->copy[i]);
        for (int k = 0; k < b->engine_count; ++k) {
            eng_job job = {&in, &out, conv_params_make(&b->opt.kernel, b->opt.border, b->opt.flip)};
            eng_timing t;
            if (!engine[k])
                continue;
            if (eng_measure_plan(engine[k], &job, 0, &plan, &t))
                fill_cell(&b->cell[k][i], &t);
            else
                snprintf(b->cell[k][i].why, sizeof b->cell[k][i].why, "%s", err_msg());
            eng_trim(engine[k]); /* a GPU engine lets go of this size's buffers */
        }
        img_plane_free(&in);
        img_plane_free(&out);
    }
    for (int k = 0; k < b->engine_count; ++k)
        eng_close(engine[k]);
    app_engine_host_close();
    return true;
}

/* ---- the figures ------------------------------------------------------------------- */

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

static void print_text(const bench *b)
{
    char cpu[128];
    rec_cpu_model(cpu, sizeof cpu);
    printf(_("convis bench: %s, border %s%s; %s, %ld cores\n"), b->opt.kernel.name,
           C_("border", conv_border_name(b->opt.border)), b->opt.flip ? _(", flipped") : "", cpu, sysconf(_SC_NPROCESSORS_ONLN));
    for (int k = 0; k < b->engine_count; ++k)
        printf("  %-11s %s\n", b->label[k], b->unavailable[k][0] ? b->unavailable[k] : b->description[k]);
    printf(_("Each figure: the median of timed runs after a warm-up (reps), the spread their fastest and slowest;\n"
             "GB/s counts 8 bytes a pixel (4 read, 4 written); \"of copy\" is a memcpy of the same bytes in this run\n"
             "divided by the engine's time (1.00: as fast as moving the bytes).\n\n"));
    {
        /* the headings, in the columns of the figures below them */
        static const char *const heading[] = {N_("engine"), N_("size"), N_("median ms"), N_("spread (ms)"), N_("reps"),
                                              N_("upload"), N_("compute"), N_("download"), N_("overhead"),
                                              N_("Mpx/s"), N_("GB/s"), N_("of copy"), N_("vs cpu-seq")};
        static const int width[] = {11, 10, 11, 22, 6, 10, 10, 10, 10, 10, 10, 9, 16};
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
            /* a ratio one way round: "26.8x faster", "2.0x slower" */
            if (k < 0 || d.vs_seq <= 0 || strcmp(b->cls[k]->name, "cpu-seq") == 0)
                snprintf(vs, sizeof vs, "-");
            else if (d.vs_seq >= 1.0)
                snprintf(vs, sizeof vs, _("%.1fx faster"), d.vs_seq);
            else
                snprintf(vs, sizeof vs, _("%.1fx slower"), 1.0 / d.vs_seq);
            printf("%-11s%-10s%11.4g%22s%6d", name, size, c->median, spread, c->reps);
            for (int p = 0; p < ENG_PHASE_COUNT; ++p) {
                if (p == ENG_PRESENT)
                    continue; /* bench runs with a download, never a present */
                if (c->phase[p] >= 0)
                    printf("%10.4g", c->phase[p]);
                else
                    printf("%10s", "-");
            }
            printf("%10.1f%10.2f%9.2f", d.mpx_s, d.gb_s, d.copy_share);
            app_put_column(stdout, vs, 16, true);
            putchar('\n');
        }
    }
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

static void print_csv(const bench *b)
{
    printf("engine,kernel,size,median_ms,min_ms,max_ms,reps");
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        printf(",%s_ms", phase_key(p));
    printf(",mpx_s,gb_s,copy_share,vs_cpu_seq,error\n");
    for (int i = 0; i < b->size_count; ++i)
        for (int k = -1; k < b->engine_count; ++k) {
            const bench_cell *c = k < 0 ? &b->copy[i] : &b->cell[k][i];
            const char *kernel = k >= 0 && b->kernel[k] >= 0 ? eng_kernel_name((eng_kernel)b->kernel[k]) : "";
            derived d;
            if (!c->ran) { /* a failed cell: no figures, its reason */
                printf("%s,%s,%d,,,,", k < 0 ? "copy" : b->cls[k]->name, kernel, b->sizes[i]);
                for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                    printf(",");
                printf(",,,,,");
                csv_field(cell_failure(b, k, i));
                printf("\n");
                continue;
            }
            d = derive(b, i, c);
            printf("%s,%s,%d,%.6g,%.6g,%.6g,%d", k < 0 ? "copy" : b->cls[k]->name, kernel, b->sizes[i], c->median,
                   c->lo, c->hi, c->reps);
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

static void print_json(const bench *b)
{
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
    printf(",\n  \"budget_ms\": %g,\n  \"engines\": [", b->budget_ms);
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
    for (int i = 0; i < b->size_count; ++i)
        for (int k = -1; k < b->engine_count; ++k) {
            const bench_cell *c = k < 0 ? &b->copy[i] : &b->cell[k][i];
            derived d;
            bool any = false;
            if (k >= 0 && b->unavailable[k][0])
                continue; /* the engines' list says why it did not run */
            printf("%s\n    {\"engine\": \"%s\", ", first ? "" : ",", k < 0 ? "copy" : b->cls[k]->name);
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
            printf("\"size\": %d, \"median_ms\": %.6g, \"min_ms\": %.6g, \"max_ms\": %.6g, \"reps\": %d, \"phases\": {",
                   b->sizes[i], c->median, c->lo, c->hi, c->reps);
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
    printf("\n  ]\n}\n");
}

int app_bench_main(int argc, char **argv)
{
    bench *b = malloc(sizeof *b);
    img_image img;
    char sample[4096];
    int rc;
    if (!b) {
        app_error("out of memory");
        return APP_EXIT_ENV;
    }
    rc = parse(argc, argv, b);
    if (rc != APP_EXIT_OK)
        goto done;
    snprintf(sample, sizeof sample, "%s/assets/sample.png", app_data_dir());
    if (!img_load_luma(b->image ? b->image : sample, &b->opt.limits, &img)) {
        app_error("%s", err_msg());
        rc = app_exit_of_error(APP_EXIT_INPUT);
        goto done;
    }
    if (!measure_all(b, &img.luma)) {
        app_error("%s", err_msg());
        rc = APP_EXIT_ENV; /* no memory for a size's squares */
    } else if (b->format == BENCH_CSV) {
        print_csv(b);
    } else if (b->format == BENCH_JSON) {
        print_json(b);
    } else {
        print_text(b);
    }
    img_free(&img);
done:
    free(b);
    return rc;
}
