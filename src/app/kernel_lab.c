/* kernel_lab.c - the kernel lab in the window (kernel_lab.h). */
#define _POSIX_C_SOURCE 200809L
#include "kernel_lab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/err.h"
#include "core/filter.h"
#include "core/timing.h"
#include "data.h"
#include "format.h"
#include "i18n.h"

#define LOOK_EVERY_MS 300.0

typedef struct text_file {
    const char *text;
    size_t n;
} text_file;

static bool write_text(FILE *f, const void *ctx)
{
    const text_file *t = ctx;
    return fwrite(t->text, 1, t->n, f) == t->n || err_set_kind(ERR_ENV, "%s", strerror(errno));
}

/* The learner's own copy of the starter, in their data folder: made once
 * (linked into place whole, or not at all), never written over: their work
 * is in it. False with the note said. */
static bool own_copy(app *a)
{
    char start[4200];
    struct stat st;
    FILE *in;
    text_file t = {NULL, 0};
    bool ok;
    if (!app_user_file("lab/tiled.comp", true, a->lab.path, sizeof a->lab.path)) {
        snprintf(a->lab.note, sizeof a->lab.note, "%s",
                 _("No folder of yours to copy the starter into: give your kernel with --lab FILE"));
        return false;
    }
    if (stat(a->lab.path, &st) == 0)
        return true; /* there from before: the learner's */
    snprintf(start, sizeof start, "%s/lab/tiled.comp", app_data_dir());
    if ((in = fopen(start, "rb"))) {
        char *text = malloc(1 << 20);
        t.n = text ? fread(text, 1, 1 << 20, in) : 0;
        t.text = text;
        fclose(in);
    }
    ok = t.n && img_write_file(a->lab.path, write_text, &t, true);
    if (ok)
        snprintf(a->lab.note, sizeof a->lab.note, _("Your kernel is %s, a copy of the starter: open it in an editor"),
                 a->lab.path);
    else
        snprintf(a->lab.note, sizeof a->lab.note, _("Cannot copy the starter %s to %s: %s"), start, a->lab.path,
                 t.n ? err_msg() : strerror(errno));
    free((char *)t.text);
    return ok;
}

void app_lab_toggle(app *a)
{
    app_lab *l = &a->lab;
    if (l->shown) {
        lab_job_end(&l->job);
        l->running = false;
        l->shown = false;
        return;
    }
    l->note[0] = '\0';
    if (!l->path[0] && !own_copy(a))
        l->path[0] = '\0';
    l->checked_gen = a->s.measure_gen;
    l->shown = true;
    l->seen_ns = -1;
    l->next_look = 0;
}

/* A check of the file on the image and filter shown: started, the image
 * given to the child as a PFM (its floats exactly). */
static void start_check(app *a)
{
    app_lab *l = &a->lab;
    char input[128], kernel[512];
    filt_format(&a->s.opt.kernel, kernel, sizeof kernel);
    if (!filt_is_3x3(&a->s.opt.kernel)) {
        snprintf(l->note, sizeof l->note, "%s", _("The lab's kernels compute 3\xC3\x97" "3 filters: pick one (1 to 9)"));
        return;
    }
    if (!lab_job_dir(&l->job)) {
        snprintf(l->note, sizeof l->note, "%s", err_msg());
        return;
    }
    snprintf(input, sizeof input, "%s/input.pfm", l->job.dir);
    if (!img_write(input, &a->s.img.luma, IMG_DISPLAY_CLAMP, NULL) ||
        !lab_job_run(&l->job, l->path, NULL, kernel, APP_LAB_LIMIT_S, tim_now_ms())) {
        snprintf(l->note, sizeof l->note, "%s", err_msg());
        l->status = LAB_UNAVAILABLE;
        lab_job_end(&l->job);
        return;
    }
    l->running = true;
}

static void finish_check(app *a, int status)
{
    app_lab *l = &a->lab;
    char log[512];
    free(l->wrong);
    l->wrong = NULL;
    l->status = status;
    l->has_report = status >= 0 && lab_job_report(&l->job, &l->report, &l->wrong, log, sizeof log);
    if (!l->has_report && status >= 0)
        snprintf(l->note, sizeof l->note, "%s", log[0] ? log : _("the lab's check did not run"));
    lab_job_end(&l->job);
    l->running = false;
    ++l->generation;
    l->right_news = l->has_report && l->report.ran && l->report.wrong == 0; /* app_lab_news tells */
}

bool app_lab_work(app *a)
{
    app_lab *l = &a->lab;
    double now = tim_now_ms(); /* the wall clock: a check's limit holds while a GIF's own clock stands */
    struct stat st;
    if (!l->shown)
        return false;
    if (l->running) {
        int status = lab_job_poll(&l->job, now);
        if (status != LAB_RUNNING)
            finish_check(a, status);
        return true;
    }
    if (now < l->next_look || !l->path[0])
        return false;
    l->next_look = now + LOOK_EVERY_MS;
    if (stat(l->path, &st) != 0) {
        snprintf(l->note, sizeof l->note, _("Cannot read your kernel %s: %s"), l->path, strerror(errno));
        return false;
    }
    if ((long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec != l->seen_ns ||
        a->s.measure_gen != l->checked_gen) { /* the file saved, or another filter or image */
        l->seen_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
        l->checked_gen = a->s.measure_gen;
        start_check(a);
    }
    return l->running;
}

void app_lab_settle(app *a)
{
    while (app_lab_work(a))
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
}

void app_lab_free(app *a)
{
    lab_job_end(&a->lab.job);
    free(a->lab.wrong);
    a->lab.wrong = NULL;
}

void lab_paint(const float *ref, const unsigned char *wrong, long long n, unsigned char *rgba)
{
    for (long long i = 0; i < n; ++i) {
        float v = ref ? (ref[i] < 0 ? -ref[i] : ref[i]) : 0;
        unsigned char g = (unsigned char)((v > 255 ? 255 : v) * 0.5f + 40), *o = rgba + 4 * i;
        o[0] = wrong[i] ? 255 : g, o[1] = wrong[i] ? 217 : g, o[2] = wrong[i] ? 64 : g, o[3] = 255; /* the window's amber */
    }
}

void app_lab_status(const app *a, char *buf, size_t size)
{
    const app_lab *l = &a->lab;
    const lab_report *r = &l->report;
    char n[32], bad[32];
    if (l->running)
        snprintf(buf, size, "%s", _("Checking your kernel..."));
    else if (l->status == LAB_UNAVAILABLE)
        snprintf(buf, size, "%s", l->note);
    else if (l->status == LAB_TIMED_OUT)
        snprintf(buf, size, _("Stopped after %.0f s: the kernel did not finish (a loop that never ends?)"),
                 APP_LAB_LIMIT_S);
    else if (l->status <= LAB_SIGNALLED)
        snprintf(buf, size, _("The kernel ended the driver's process (signal %d): an index past the end of an array?"),
                 LAB_SIGNALLED - l->status);
    else if (!l->has_report)
        snprintf(buf, size, "%s", _("Save your kernel to check it"));
    else if (r->failed)
        snprintf(buf, size, _("Compiles, but did not run: %s"), r->note);
    else if (r->compiled && !r->ran)
        snprintf(buf, size, _("Compiles; not run: %s"), r->note);
    else if (!r->compiled)
        snprintf(buf, size, ngettext("Does not compile: %d error", "Does not compile: %d errors", (unsigned long)r->errors),
                 r->errors);
    else {
        fmt_count(r->outputs, n, sizeof n);
        fmt_count(r->wrong, bad, sizeof bad);
        if (r->wrong)
            snprintf(buf, size, _("Wrong: %s of %s outputs differ from convis's, bit for bit (amber)"), bad, n);
        else
            snprintf(buf, size, _("Right: all %s outputs equal convis's, bit for bit"), n);
    }
}

void app_lab_result(const app *a, char *buf, size_t size)
{
    const lab_report *r = &a->lab.report;
    char n[32], bad[32];
    if (a->lab.running || !a->lab.has_report || !r->compiled || !r->ran || r->failed) {
        app_lab_status(a, buf, size); /* a sentence of its own */
        return;
    }
    fmt_count(r->outputs, n, sizeof n);
    fmt_count(r->wrong, bad, sizeof bad);
    if (r->wrong)
        snprintf(buf, size, _("%s of its %s outputs differ from convis's, bit for bit"), bad, n);
    else
        snprintf(buf, size, _("all its %s outputs equal convis's, bit for bit"), n);
}

void app_lab_reads(const app *a, char *buf, size_t size)
{
    const lab_report *r = &a->lab.report;
    char n[32], bound[32];
    if (!a->lab.has_report || !r->compiled || !r->ran) {
        snprintf(buf, size, "%s", _("(the lab has not run a kernel yet: Shift+L)"));
        return;
    }
    fmt_count(r->reads_interior, n, sizeof n);
    fmt_count((long long)(r->group_w + 2) * (r->group_h + 2), bound, sizeof bound);
    snprintf(buf, size, _("%s global reads for a work group of %d\xC3\x97%d, whose tile has %s cells"), n, r->group_w,
             r->group_h, bound);
}

void app_lab_file(const app *a, char *buf, size_t size)
{
    snprintf(buf, size, "%s", a->lab.path[0] ? a->lab.path : _("(no kernel file yet: Shift+L)"));
}

bool app_lab_checked(const app *a, char *why, size_t size, bool *never)
{
    *never = a->lab.status == LAB_UNAVAILABLE || !lab_job_possible();
    if (*never) {
        snprintf(why, size, "%s", a->lab.note[0] ? a->lab.note : _("the kernel lab's checks run in convis itself, not here"));
        return false;
    }
    if (a->lab.running)
        return snprintf(why, size, "%s", _("the lab is checking your kernel")) < 0;
    if (a->lab.has_report && a->lab.report.compiled && !a->lab.report.ran && !a->lab.report.failed) { /* compiled only, for good */
        *never = true;
        snprintf(why, size, "%s", a->lab.report.note);
        return false;
    }
    if (!a->lab.has_report || !a->lab.report.compiled) {
        snprintf(why, size, "%s",
                 a->lab.has_report ? _("your kernel does not compile") : _("the lab has not run your kernel (Shift+L, then save it)"));
        return false;
    }
    return true;
}
