/* lab.c - `convis lab FILE.comp [IMAGE]`: the kernel lab (README.md, "The
 * kernel lab"). The learner's GLSL kernel is compiled, run on the image,
 * compared with the reference bit for bit, its global reads counted per work
 * group against the tiled kernel's bound, and timed beside convis's own
 * kernels (compute/lab.h). Each check runs in a child process of its own
 * (`convis lab --child DIR ...`, its results written into DIR), so that a
 * kernel that never ends is stopped at --timeout and one that crashes the
 * driver is said in a sentence; --watch checks again each time the file is
 * saved. Contents: the child · the parent's report · the command. */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "compute/lab.h"
#include "core/err.h"
#include "core/timing.h"
#include "data.h"
#include "engine_host.h"
#include "format.h"
#include "kernel_lab.h"
#include "lab_check.h"
#include "i18n.h"
#include "settings.h"

#define LAB_MOST_SOURCE (256 * 1024)
#define LAB_DEFAULT_TIMEOUT_S 10.0

typedef struct lab_args {
    const char *file, *image, *wrong_map, *child_dir, *kernel; /* kernel: -k as given, or NULL */
    double timeout_s;
    bool watch;
    app_options opt;
} lab_args;

/* ---- the child ------------------------------------------------------------------ */

/* Whether `file` is a CUDA kernel (.cu), else GLSL. */
static bool lab_is_cuda(const char *file)
{
    size_t n = strlen(file);
    return n > 3 && !strcmp(file + n - 3, ".cu");
}

/* Whether `word` appears in text as a whole identifier. */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        bool before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return true;
    }
    return false;
}

/* What a learner's kernel may not name: the buffers and the count, and
 * convis's own readers, which read past lab_in (uncounted). */
static const char *const hidden[] = {"in_px", "out_px", "lab_reads", "conv_fetch", "conv_read", NULL};

/* The learner's file: at most 256 KiB of text, no #version (convis gives it),
 * no reading of the buffers past lab_in (the reads would go uncounted). */
static char *read_kernel(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = malloc(LAB_MOST_SOURCE + 1);
    size_t n = 0;
    if (!f || !text) {
        free(text);
        if (f)
            fclose(f);
        err_set("%s: cannot read the kernel: %s", path, strerror(errno));
        return NULL;
    }
    n = fread(text, 1, LAB_MOST_SOURCE + 1, f);
    fclose(f);
    text[n > LAB_MOST_SOURCE ? LAB_MOST_SOURCE : n] = '\0';
    if (n > LAB_MOST_SOURCE || strlen(text) != n) {
        free(text);
        err_set("%s: is not a kernel convis reads (over 256 KiB, or not text)", path);
        return NULL;
    }
    for (int i = 0; hidden[i]; ++i)
        if (has_word(text, hidden[i])) {
            err_set("%s: names %s, which reads or writes the image past the lab's accessors (uncounted); read with "
                    "lab_in(x, y), write with lab_out(x, y, v)",
                    path, hidden[i]);
            free(text);
            return NULL;
        }
    if (strstr(text, "#version")) {
        free(text);
        err_set("%s: names a #version; leave it to convis, which compiles the file after its own part", path);
        return NULL;
    }
    return text;
}

/* convis's own kernel on the same image: its median of 3 runs, or -1. */
static double own_ms(eng_engine *gl, const img_plane *in, const conv_params *p, eng_kernel k)
{
    eng_options o = {.kernel = k};
    img_plane out = {0};
    eng_job job = {in, &out, *p};
    double ms[3];
    eng_timing t;
    if (!gl || !eng_set_options(gl, &o) || !img_plane_alloc(&out, in->w, in->h))
        return -1;
    for (int i = 0; i < 3; ++i)
        ms[i] = eng_run(gl, &job, &t) ? t.ms[ENG_COMPUTE] : -1; /* the kernel alone, as the lab times the learner's */
    img_plane_free(&out);
    return tim_stats_of(ms, 3).median;
}

/* Line `n` (1-based) of text, its spaces before trimmed, into buf. */
static void source_line(const char *text, int n, char *buf, size_t size)
{
    for (int i = 1; i < n && text; ++i)
        text = (text = strchr(text, '\n')) ? text + 1 : NULL;
    buf[0] = '\0';
    if (!text)
        return;
    text += strspn(text, " \t");
    snprintf(buf, size, "%.*s", (int)strcspn(text, "\r\n"), text);
}

static bool write_results(const char *dir, const lab_result *r, const img_plane *in, double tiled, double naive,
                          const char *source)
{
    char at[160];
    char path[4200];
    FILE *f;
    snprintf(path, sizeof path, "%s/result.txt", dir);
    if (!(f = fopen(path, "w")))
        return false;
    fprintf(f, "compiled %d\nran %d\nfailed %d\nrenderer %s\nerrors %d\n", r->compiled, r->ran, r->failed, r->renderer,
            r->error_count);
    if (r->note[0])
        fprintf(f, "note %s\n", r->note);
    for (int i = 0; i < r->error_count; ++i)
    {
        fprintf(f, "error %d %d %s\n", r->errors[i].line, r->errors[i].column, r->errors[i].text);
        source_line(source, r->errors[i].line, at, sizeof at);
        fprintf(f, "at %s\n", at); /* the learner's own line, shown under the message */
    }
    fprintf(f, "group %d %d\ngroups %ld %ld\nsize %d %d\noutputs %lld\nwrong %lld\nreads %lld %lld\n", r->group_w,
            r->group_h, r->groups_x, r->groups_y, in->w, in->h, r->outputs, r->wrong, r->reads_max,
            r->reads_interior);
    fprintf(f, "ms %.6f\nown %.6f %.6f\n", r->median_ms, tiled, naive);
    if (fclose(f) != 0)
        return false;
    if (r->wrong_map) {
        snprintf(path, sizeof path, "%s/wrong.bin", dir);
        if (!(f = fopen(path, "wb")))
            return false;
        fwrite(r->wrong_map, 1, (size_t)r->outputs, f);
        return fclose(f) == 0;
    }
    return true;
}

static int child(const lab_args *a)
{
    char why[512], *source;
    img_image img = {0};
    img_plane out = {0};
    lab_result r;
    eng_engine *own; /* the engine whose own kernels are timed beside the learner's */
    conv_params p = app_options_params(&a->opt);
    int rc = APP_EXIT_ENV;
    if (!(source = read_kernel(a->file))) {
        app_error("%s", err_msg());
        return APP_EXIT_INPUT;
    }
    if (!img_load_luma(a->image, &a->opt.limits, &img)) {
        app_error("%s", err_msg());
        free(source);
        return APP_EXIT_INPUT;
    }
    if (lab_is_cuda(a->file)) { /* NVRTC; run where there is a device; convis's own CUDA kernels beside it */
        own = app_host_open_engine(NULL, "cuda", why, sizeof why);
        if (!eng_cuda_lab_run(source, &img.luma, &p, &out, &r)) {
            app_error("%s", err_msg());
            goto done;
        }
    } else if (!(own = app_host_open_engine(NULL, "gl", why, sizeof why))) {
        app_error("the lab needs OpenGL 4.3 compute shaders: %s", why);
        goto done;
    } else if (!eng_gl_lab_run(source, &img.luma, &p, &out, &r)) {
        app_error("%s", err_msg());
        goto done;
    }
    {
        double tiled = r.ran ? own_ms(own, &img.luma, &p, ENG_KERNEL_TILED) : -1;
        double naive = r.ran ? own_ms(own, &img.luma, &p, ENG_KERNEL_NAIVE) : -1;
        rc = write_results(a->child_dir, &r, &img.luma, tiled, naive, source) ? APP_EXIT_OK : APP_EXIT_ENV;
        lab_result_free(&r);
    }
done:
    if (own)
        eng_close(own);
    img_plane_free(&out);
    img_free(&img);
    free(source);
    app_engine_host_close();
    return rc;
}

/* ---- the parent: a check in a child, bounded in time ------------------------------ */

/* The wrong outputs painted as the inside view's race does: amber on the
 * reference's grey, the right ones grey. */
static bool map_written; /* --wrong-map written by this run: --watch writes it again */

static bool paint_wrong(const lab_args *a, const lab_report *rp, const unsigned char *wrong)
{
    img_image img = {0};
    img_plane ref = {0};
    img_rgba pic = {rp->w, rp->h, NULL};
    conv_params p = app_options_params(&a->opt);
    bool ok = wrong && img_load_luma(a->image, &a->opt.limits, &img) && img.luma.w == rp->w && img.luma.h == rp->h &&
              img_plane_alloc(&ref, rp->w, rp->h) && (pic.px = malloc((size_t)rp->outputs * 4));
    if (ok) {
        conv_reference(&img.luma, &p, &ref);
        lab_paint(ref.px, wrong, rp->outputs, pic.px);
        ok = img_write_rgba_png(a->wrong_map, &pic, !map_written); /* --watch: this run's map, again */
        map_written = map_written || ok;
        if (!ok)
            app_error("%s", err_msg());
    }
    free(pic.px);
    img_plane_free(&ref);
    img_free(&img);
    return ok;
}

/* The report of one check: its status (0: the kernel is right). */
static int report(const lab_args *a, lab_job *j, int status)
{
    lab_report rp;
    unsigned char *wrong = NULL;
    char n[32], bad[32], bound[32], ms[32], own[32], log[1024];
    if (status == LAB_TIMED_OUT) {
        printf(_("%s: stopped after %.0f s: the kernel did not finish (a loop that never ends?)\n"), a->file,
               a->timeout_s);
        return APP_EXIT_INPUT;
    }
    if (status <= LAB_SIGNALLED) {
        printf(_("%s: the kernel ended the driver's process (signal %d): an index past the end of an array?\n"),
               a->file, LAB_SIGNALLED - status);
        return APP_EXIT_INPUT;
    }
    if (!lab_job_report(j, &rp, a->wrong_map ? &wrong : NULL, log, sizeof log)) {
        fputs(log[0] ? log : "convis: the lab's check did not run\n", stderr);
        return status ? status : APP_EXIT_ENV;
    }
    if (rp.failed) {
        printf(_("%s: compiles on %s, but did not run there: %s\n"), a->file, rp.renderer, rp.note);
        return APP_EXIT_INPUT;
    }
    if (rp.compiled && !rp.ran) {
        printf(_("%s: compiles on %s; not run: %s\n"), a->file, rp.renderer, rp.note);
        return APP_EXIT_OK;
    }
    if (!rp.compiled) {
        printf(_("%s: does not compile on %s:\n"), a->file, rp.renderer);
        for (int i = 0; i < rp.errors; ++i)
        {
            if (rp.error_column[i]) /* file:line:column: as editors read it */
                printf("  %s:%d:%d: %s\n", a->file, rp.error_line[i], rp.error_column[i], rp.error_text[i]);
            else
                printf("  %s:%d: %s\n", a->file, rp.error_line[i], rp.error_text[i]);
            if (rp.error_source[i][0])
                printf("      %s\n", rp.error_source[i]);
        }
        return APP_EXIT_INPUT;
    }
    fmt_count(rp.outputs, n, sizeof n);
    fmt_count(rp.wrong, bad, sizeof bad);
    fmt_count((long long)(rp.group_w + 2) * (rp.group_h + 2), bound, sizeof bound);
    fmt_ms(rp.ms, ms, sizeof ms);
    printf(_("%s on %s: %d\xC3\x97%d, work groups of %d\xC3\x97%d\n"), a->file, rp.renderer, rp.w, rp.h, rp.group_w,
           rp.group_h);
    if (rp.wrong)
        printf(_("  wrong: %s of %s outputs differ from convis's, bit for bit\n"), bad, n);
    else
        printf(_("  right: all %s outputs equal convis's, bit for bit\n"), n);
    printf(_("  global reads of an interior work group: %lld (counted); a tiled kernel's bound: %s, its tile "
             "(%d+2)\xC3\x97(%d+2)%s\n"),
           rp.reads_interior, bound, rp.group_w, rp.group_h,
           rp.reads_interior <= (rp.group_w + 2) * (rp.group_h + 2) ? _(": within it") : _(": over it"));
    fmt_ms(rp.tiled_ms, own, sizeof own);
    printf(_("  time of the kernel: %s (the median of 3 runs, measured); convis's tiled kernel %s"), ms, own);
    fmt_ms(rp.naive_ms, own, sizeof own);
    printf(_(", its naive kernel %s\n"), own);
    if (rp.wrong && a->wrong_map && paint_wrong(a, &rp, wrong))
        printf(_("  the wrong outputs, in amber: %s\n"), a->wrong_map);
    free(wrong);
    return rp.wrong ? APP_EXIT_INPUT : APP_EXIT_OK;
}

/* One check: a fresh folder for the child's results, the child, the report. */
static int check_once(const lab_args *a)
{
    lab_job j;
    int status = LAB_RUNNING, rc;
    if (!lab_job_dir(&j) || !lab_job_run(&j, a->file, a->image, a->kernel, a->timeout_s, tim_now_ms())) {
        app_error("%s", err_msg());
        lab_job_end(&j);
        return APP_EXIT_ENV;
    }
    while ((status = lab_job_poll(&j, tim_now_ms())) == LAB_RUNNING)
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    rc = report(a, &j, status);
    fflush(stdout);
    lab_job_end(&j);
    return rc;
}

/* --watch: a check now and again each time the file is saved, until stopped. */
static void watch(const lab_args *a)
{
    struct stat st;
    struct timespec seen = {0, 0};
    printf(_("watching %s: save it to check it again (Ctrl+C stops)\n"), a->file);
    for (;;) {
        if (stat(a->file, &st) == 0 && (st.st_mtim.tv_sec != seen.tv_sec || st.st_mtim.tv_nsec != seen.tv_nsec)) {
            seen = st.st_mtim;
            nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL); /* an editor's save, finished */
            check_once(a);
            printf("\n");
            fflush(stdout);
        }
        nanosleep(&(struct timespec){0, 250 * 1000 * 1000}, NULL);
    }
}

static int parse(int argc, char **argv, lab_args *a)
{
    memset(a, 0, sizeof *a);
    app_options_default(&a->opt, "gaussian");
    a->timeout_s = LAB_DEFAULT_TIMEOUT_S;
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(arg, "--wrong-map") || !strcmp(arg, "--timeout") || !strcmp(arg, "--child") ||
                     !strcmp(arg, "-k") || !strcmp(arg, "--kernel") || !strcmp(arg, "--lang");
        if (takes && !v) {
            app_error("lab: option '%s' needs a value", arg);
            return APP_EXIT_USAGE;
        }
        if (!strcmp(arg, "--watch"))
            a->watch = true;
        else if (!strcmp(arg, "--wrong-map"))
            a->wrong_map = v, ++i;
        else if (!strcmp(arg, "--child"))
            a->child_dir = v, ++i;
        else if (!strcmp(arg, "--lang"))
            ++i; /* in force already */
        else if (!strcmp(arg, "--timeout")) {
            char *end;
            a->timeout_s = strtod(v, &end);
            if (*end || !(a->timeout_s >= 1 && a->timeout_s <= 600)) {
                app_error("lab: --timeout takes seconds from 1 to 600, not '%s'", v);
                return APP_EXIT_USAGE;
            }
            ++i;
        } else if (!strcmp(arg, "-k") || !strcmp(arg, "--kernel")) {
            if (app_take_shared_option(app_option_named("--kernel", APP_FOR_ALL), v, &a->opt) < 0)
                return APP_EXIT_USAGE;
            a->kernel = v, ++i;
        } else if (arg[0] == '-') {
            app_error("lab: unknown option '%s'; it takes --watch, --wrong-map FILE.png, --timeout S and -k FILTER",
                      arg);
            return APP_EXIT_USAGE;
        } else if (!a->file)
            a->file = arg;
        else if (!a->image)
            a->image = arg;
        else {
            app_error("lab: takes a kernel file and at most one image, not '%s' too", arg);
            return APP_EXIT_USAGE;
        }
    }
    if (!a->file) {
        app_error("lab: no kernel; usage: convis lab FILE.comp [IMAGE] [--watch] (the starter: lab/tiled.comp)");
        return APP_EXIT_USAGE;
    }
    if (a->opt.kernel.kw != 3 || a->opt.kernel.kh != 3) {
        app_error("lab: the lab's kernels compute 3\xC3\x97" "3 filters, and %s is %d\xC3\x97%d", a->kernel,
                  a->opt.kernel.kw, a->opt.kernel.kh);
        return APP_EXIT_USAGE;
    }
    return APP_EXIT_OK;
}

int app_lab_main(int argc, char **argv)
{
    lab_args a;
    char sample[4096];
    struct stat st;
    int rc = parse(argc, argv, &a);
    if (rc != APP_EXIT_OK)
        return rc;
    snprintf(sample, sizeof sample, "%s/assets/sample.png", app_data_dir());
    if (!a.image)
        a.image = sample;
    if (a.child_dir)
        return child(&a);
    if (stat(a.file, &st) != 0 || !S_ISREG(st.st_mode)) {
        app_error("lab: cannot read the kernel '%s'; the starter is %s/lab/tiled.comp", a.file, app_data_dir());
        return APP_EXIT_INPUT;
    }
    if (a.wrong_map && stat(a.wrong_map, &st) == 0) {
        app_error("lab: '%s' already exists; convis does not overwrite it", a.wrong_map);
        return APP_EXIT_INPUT;
    }
    if (a.watch)
        watch(&a); /* until stopped */
    return check_once(&a);
}
