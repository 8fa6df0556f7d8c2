/* The gl engine (shaders/conv3x3.glsl with conv3x3_tiled.comp or
 * conv3x3_naive.comp) against the reference, in a hidden window's OpenGL
 * context: both kernels, every preset x border mode x flip on odd sizes
 * (none a multiple of the work group), equal bit for bit; windows of other
 * sizes (1x1 to 31x31, 1x7, 7x1, 3x5, 5x3, on images smaller than the window
 * too) through shaders/convk_*.comp, both kernels, bit for bit; every
 * geometry (stride, dilation, padding: geometry_check.h) the same, and a
 * tile too large for the declared shared memory refused; its phases, clock
 * and launch geometry; eng_measure;
 * computing into a GL buffer (present); the caller's GL bindings kept; and
 * the sentences it gives without a context, without its shader and with a
 * broken one. Run under tests/gl/with_display.sh (Xvfb where there is no
 * display). */
#define _POSIX_C_SOURCE 200809L
#include <GL/glew.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/check.h"
#include "../unit/geometry_check.h"
#include "../unit/independent.h"
#include "../unit/layer_check.h"
#include "../unit/race_check.h"
#include "../unit/tiles_check.h"
#include "compute/engine.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/filter.h"
#include "platform/platform.h"

#define TOL 1e-5f
#define LOCAL 16 /* the work-group size in shaders/conv3x3.glsl */
#define CLOCK_QUERY "GL timer query"

static const int sizes[][2] = {{1, 1}, {2, 2}, {3, 3}, {17, 33}, {33, 17}, {1, 4097}, {4097, 1}, {64, 48}, {300, 200}};

typedef struct totals {
    long runs, exact; /* runs, and runs whose every value equals the reference bit for bit */
} totals;

static bool is_cpu_renderer(void)
{
    const char *r = (const char *)glGetString(GL_RENDERER);
    return r && (strstr(r, "llvmpipe") || strstr(r, "softpipe"));
}

/* The clock the engine should name: timer queries, except on Mesa's CPU
 * renderers (whose queries miss compute work) unless CONVIS_GL_TIMER=query. */
static bool expect_query_clock(void)
{
    const char *force = getenv("CONVIS_GL_TIMER");
    return (force && strcmp(force, "query") == 0) || !is_cpu_renderer();
}

static long count_off(const img_plane *got, const img_plane *want, bool *exact)
{
    long bad = 0;
    *exact = conv_count_different(got->px, want->px, (long)got->w * got->h) == 0;
    for (long i = 0; i < (long)got->w * got->h; ++i)
        bad += !(fabsf(got->px[i] - want->px[i]) <= TOL * fmaxf(1.0f, fabsf(want->px[i])));
    return bad;
}

/* A run has upload, compute, download; a present (download false) has no
 * download and no present phase either: the dispatch is the compute, and
 * the buffer it writes is the one drawn. */
static void check_timing(const eng_timing *t, int w, int h, bool download, const char *what)
{
    bool query = expect_query_clock();
    CHECK(t->has[ENG_UPLOAD] && t->has[ENG_COMPUTE] && t->has[ENG_OVERHEAD], "%s: phases upload, compute, overhead",
          what);
    CHECK(
        t->has[ENG_DOWNLOAD] == download && !t->has[ENG_PRESENT],
        "%s: a download only when run to host memory, and never a present phase (the dispatch writes the buffer drawn)",
        what);
    CHECK(t->clock && (query ? strcmp(t->clock, CLOCK_QUERY) == 0 : strncmp(t->clock, "monotonic clock", 15) == 0),
          "%s: clock '%s', expected %s", what, t->clock ? t->clock : "(null)",
          query ? CLOCK_QUERY : "the monotonic clock on a CPU renderer");
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        CHECK(t->ms[p] >= 0.0 && t->ms[p] < 60000.0, "%s: %s %.3f ms", what, eng_phase_name((eng_phase)p), t->ms[p]);
    CHECK(t->launch.grid_x == (w + LOCAL - 1) / LOCAL && t->launch.grid_y == (h + LOCAL - 1) / LOCAL &&
              t->launch.block_x == LOCAL && t->launch.block_y == LOCAL,
          "%s: launch %dx%d groups of %dx%d, expected %dx%d of %dx%d", what, t->launch.grid_x, t->launch.grid_y,
          t->launch.block_x, t->launch.block_y, (w + LOCAL - 1) / LOCAL, (h + LOCAL - 1) / LOCAL, LOCAL, LOCAL);
}

/* Every preset x border x flip on every size, through eng_run, with the
 * kernel (tiled or naive) the engine has. */
static void check_all(eng_engine *e, totals *tot)
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        img_plane in, ref, out;
        if (!img_plane_alloc(&in, w, h) || !img_plane_alloc(&ref, w, h) || !img_plane_alloc(&out, w, h)) {
            CHECK(false, "allocating %dx%d planes: %s", w, h, err_msg());
            return;
        }
        ind_fill(in.px, (size_t)w * h, (unsigned)s + 70);
        for (size_t k = 0; k < filt_preset_count(); ++k)
            for (int b = 0; b < CONV_BORDER_COUNT; ++b)
                for (int flip = 0; flip < 2; ++flip) {
                    eng_job job = {&in, &out, conv_params_make(filt_preset(k), (conv_border)b, flip)};
                    eng_timing t;
                    char what[96];
                    bool exact;
                    long bad;
                    snprintf(what, sizeof what, "%dx%d %s border %s%s", w, h, filt_preset(k)->name,
                             conv_border_name((conv_border)b), flip ? " flipped" : "");
                    conv_reference(&in, &job.params, &ref);
                    for (long i = 0; i < (long)w * h; ++i)
                        out.px[i] = -12345.0f; /* a value no output has: every pixel must be written */
                    if (!eng_run(e, &job, &t)) {
                        CHECK(false, "%s: run: %s", what, err_msg());
                        continue;
                    }
                    bad = count_off(&out, &ref, &exact);
                    CHECK(bad == 0, "%s: %ld of %d pixels differ from the reference by more than %g relative", what,
                          bad, w * h, (double)TOL);
                    CHECK(exact, "%s: not equal to the reference bit for bit", what);
                    check_timing(&t, w, h, true, what);
                    tot->runs++;
                    tot->exact += exact;
                }
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
    }
}

/* Windows of other sizes (shaders/convk_*.comp) with the kernel the engine
 * has, every border and flip, on odd sizes, some smaller than the window:
 * equal to the reference bit for bit. */
static void check_any_size(eng_engine *e, totals *tot)
{
    static const char *const filters[] = {"1 / 1", "1 2 3 4 5 6 7 / 28", "1; 2; 3; 4; 5; 6; 7 / 28", "box:5",
                                          "1 2 1; 0 1 0; -1 3 2; 4 0 1; 1 1 1 / 7", "1 0 2 0 1; 3 1 1 1 -2; 2 2 0 1 1",
                                          "gaussian:1.5", "box:31"};
    static const int dims[][2] = {{1, 1}, {2, 3}, {5, 4}, {17, 33}, {33, 17}, {47, 21}};
    for (size_t f = 0; f < sizeof filters / sizeof filters[0]; ++f) {
        filt_kernel k;
        CHECK(filt_parse(filters[f], &k), "'%s': %s", filters[f], err_msg());
        for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d) {
            int w = dims[d][0], h = dims[d][1];
            img_plane in, ref, out;
            img_plane_alloc(&in, w, h);
            img_plane_alloc(&ref, w, h);
            img_plane_alloc(&out, w, h);
            ind_fill(in.px, (size_t)w * h, 90 + (unsigned)(f * 7 + d));
            for (int b = 0; b < CONV_BORDER_COUNT; ++b)
                for (int flip = 0; flip < 2; ++flip) {
                    eng_job job = {&in, &out, conv_params_make(&k, (conv_border)b, flip)};
                    eng_timing t;
                    char what[128];
                    snprintf(what, sizeof what, "%s (%dx%d) on %dx%d, border %s%s", filters[f], k.kw, k.kh, w, h,
                             conv_border_name((conv_border)b), flip ? " flipped" : "");
                    conv_reference(&in, &job.params, &ref);
                    for (long i = 0; i < (long)w * h; ++i)
                        out.px[i] = -12345.0f;
                    if (!eng_run(e, &job, &t)) {
                        CHECK(false, "%s: run: %s", what, err_msg());
                        continue;
                    }
                    CHECK(conv_count_different(out.px, ref.px, (long)w * h) == 0,
                          "%s: not equal to the reference bit for bit", what);
                    check_timing(&t, w, h, true, what);
                    tot->runs++;
                    tot->exact += conv_count_different(out.px, ref.px, (long)w * h) == 0;
                }
            img_plane_free(&in);
            img_plane_free(&ref);
            img_plane_free(&out);
        }
    }
}

/* The race shown (the tiled kernel without its barrier) is 3x3 only: a
 * larger window is refused in a sentence, and runs again with the barrier. */
static void check_any_size_no_barrier(eng_engine *e)
{
    float px[25] = {0}, res[25];
    img_plane in = {5, 5, px}, out = {5, 5, res};
    filt_kernel k;
    eng_options o;
    eng_timing t;
    eng_job job;
    filt_parse("box:5", &k);
    job = (eng_job){&in, &out, conv_params_make(&k, CONV_BORDER_CLAMP, false)};
    memset(&o, 0, sizeof o);
    o.no_barrier = true;
    eng_set_options(e, &o);
    CHECK(!eng_run(e, &job, &t) && strstr(err_msg(), "3x3 windows at stride 1 only"), "a 5x5 window without the barrier: '%s'",
          err_msg());
    memset(&o, 0, sizeof o);
    eng_set_options(e, &o);
    CHECK(eng_run(e, &job, &t), "a 5x5 window with the barrier again: %s", err_msg());
}

/* eng_measure: a warm-up and the median of 5. */
static void check_measure(eng_engine *e)
{
    img_plane in, out;
    eng_timing t;
    eng_job job;
    img_plane_alloc(&in, 300, 200);
    img_plane_alloc(&out, 300, 200);
    ind_fill(in.px, 300 * 200, 5);
    job = (eng_job){&in, &out, conv_params_make(filt_preset(1), CONV_BORDER_MIRROR, false)};
    CHECK(eng_measure(e, &job, 5, &t), "measure: %s", err_msg());
    CHECK(t.reps == 5, "measure: reps %d", t.reps);
    check_timing(&t, 300, 200, true, "measure 300x200");
    CHECK(eng_total_ms(&t) > 0.0, "measure: total %.3f ms", eng_total_ms(&t));
    printf("300x200 box, median of 5: upload %.3f, compute %.3f, download %.3f, overhead %.3f ms, by %s\n",
           t.ms[ENG_UPLOAD], t.ms[ENG_COMPUTE], t.ms[ENG_DOWNLOAD], t.ms[ENG_OVERHEAD], t.clock);
    img_plane_free(&in);
    img_plane_free(&out);
}

/* present: the result lands in a GL buffer of ours, equal to the reference;
 * a buffer too small is refused. And the caller's bindings survive a run. */
static void check_present_and_bindings(eng_engine *e)
{
    int w = 33, h = 17;
    img_plane in, ref, back = {w, h, NULL};
    GLuint buf[2];
    GLint bound = 0, bound0 = 0, program = -1;
    eng_timing t;
    eng_job job;
    bool exact;

    img_plane_alloc(&in, w, h);
    img_plane_alloc(&ref, w, h);
    img_plane_alloc(&back, w, h);
    ind_fill(in.px, (size_t)w * h, 9);
    job = (eng_job){&in, NULL, conv_params_make(filt_preset(7), CONV_BORDER_WRAP, true)};
    conv_reference(&in, &job.params, &ref);

    glGenBuffers(2, buf);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[1]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, 16, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[0]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(sizeof(float) * (size_t)w * h), NULL, GL_DYNAMIC_DRAW);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf[1]);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[0]);

    CHECK(eng_present(e, &job, buf[0], &t), "present: %s", err_msg());
    check_timing(&t, w, h, false, "present 33x17");
    CHECK(t.result == ENG_RESULT_INTEROP, "present: no copy (result %s)", eng_result_name(t.result));
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &bound);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 0, &bound0);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    CHECK(bound == (GLint)buf[0] && bound0 == (GLint)buf[1] && program == 0,
          "the caller's bindings after a run: buffer %d (was %u), binding 0 %d (was %u), program %d (was 0)", bound,
          buf[0], bound0, buf[1], program);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(sizeof(float) * (size_t)w * h), back.px);
    CHECK(count_off(&back, &ref, &exact) == 0, "present: the GL buffer differs from the reference");
    CHECK(glGetError() == GL_NO_ERROR, "a GL error after present");

    CHECK(!eng_present(e, &job, buf[1], &t) && strstr(err_msg(), "cannot take"),
          "present into a 16-byte buffer is refused: '%s'", err_msg());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    glDeleteBuffers(2, buf);
    img_plane_free(&in);
    img_plane_free(&ref);
    img_plane_free(&back);
}

/* Opening without the shader, or with one that does not compile, fails with
 * a sentence naming the file (and the compiler's log). */
static void check_shader_errors(const eng_class *cls)
{
    char dir[] = "/tmp/convis-gl-XXXXXX", path[256];
    eng_engine *e;
    FILE *f;

    eng_set_shader_dir(NULL);
    e = eng_open(cls);
    CHECK(!e && strstr(err_msg(), "shaders folder"), "open with no shaders folder set: '%s'", err_msg());
    eng_close(e);

    if (!mkdtemp(dir)) {
        CHECK(false, "mkdtemp failed");
        return;
    }
    eng_set_shader_dir(dir);
    e = eng_open(cls);
    CHECK(!e && strstr(err_msg(), "conv3x3.glsl") && strstr(err_msg(), "cannot read"),
          "open with the shaders missing: '%s'", err_msg());
    eng_close(e);

    snprintf(path, sizeof path, "%s/conv3x3.glsl", dir);
    f = fopen(path, "w");
    if (f) {
        fputs("#version 430\nlayout(local_size_x = 16, local_size_y = 16) in;\n", f);
        fclose(f);
    }
    e = eng_open(cls);
    CHECK(!e && strstr(err_msg(), "conv3x3_tiled.comp") && strstr(err_msg(), "cannot read"),
          "open with a shader's own part missing: '%s'", err_msg());
    eng_close(e);
    {
        char main_path[256];
        snprintf(main_path, sizeof main_path, "%s/conv3x3_tiled.comp", dir);
        f = fopen(main_path, "w");
        if (f) {
            fputs("void main() { undeclared = 1; }\n", f);
            fclose(f);
        }
        e = eng_open(cls);
        CHECK(!e && strstr(err_msg(), "does not compile") && strstr(err_msg(), "undeclared") &&
                  !strchr(err_msg(), '\n'),
              "open with a broken shader gives the compiler's log on one line: '%s'", err_msg());
        eng_close(e);
        remove(main_path);
    }
    remove(path);
    rmdir(dir);
}

int main(void)
{
    const eng_class *cls = eng_find("gl");
    plat_window *win;
    eng_engine *e;
    totals tot = {0, 0};
    char why[256];

    CHECK(cls != NULL && cls->needs_gl_context, "the gl engine is listed and needs a GL context");
    if (!cls)
        return CHECK_SUMMARY();
    CHECK(!eng_gl_context_current(), "no context before the window opens");
    CHECK(!eng_probe(cls, why, sizeof why) && strstr(why, "no OpenGL context"), "probe with no context: '%s'", why);

    win = plat_open("test_gl_engine", 64, 64, PLAT_WINDOW_HIDDEN);
    CHECK(win != NULL, "hidden window: %s", err_msg());
    if (!win)
        return CHECK_SUMMARY();
    CHECK(eng_gl_context_current(), "a context after the window opens");
    if (!eng_probe(cls, why, sizeof why)) {
        CHECK(false, "gl unavailable in a hidden window: %s", why);
        plat_close(win);
        return CHECK_SUMMARY();
    }
    check_shader_errors(cls);

    eng_set_shader_dir(CONVIS_SHADER_DIR);
    e = eng_open(cls);
    CHECK(e != NULL, "open: %s", err_msg());
    if (!e) {
        plat_close(win);
        return CHECK_SUMMARY();
    }
    printf("running on %s (GL %s)\n", eng_description(e), glGetString(GL_VERSION));
    CHECK(strncmp(eng_description(e), "OpenGL compute on ", 18) == 0 &&
              strstr(eng_description(e), (const char *)glGetString(GL_RENDERER)) && strstr(eng_description(e), "16x16"),
          "description '%s' names the renderer and the work group", eng_description(e));

    { /* the device as the overlay shows it; two kernels; the result path per pixel: one
         * read-back call each, capped, extrapolated, the result whole */
        eng_device_info info;
        eng_options o;
        eng_timing t;
        img_plane in, ref, out;
        bool exact;
        int w = 301, h = 77;
        memset(&o, 0, sizeof o);
        o.kernel = ENG_KERNEL_NAIVE;
        o.result = ENG_RESULT_PER_PIXEL;
        o.per_pixel_max = 5000;
        CHECK(eng_has_options(cls) && eng_has_kernels(cls) && eng_set_options(e, &o) &&
                  strstr(eng_description(e), "one read-back call per pixel") && strstr(eng_description(e), "naive"),
              "the gl engine takes the per-pixel path and the naive kernel: '%s'", eng_description(e));
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&out, w, h);
        ind_fill(in.px, (size_t)w * h, 5);
        {
            eng_job job = {&in, &out, conv_params_make(filt_preset(5), CONV_BORDER_MIRROR, false)};
            conv_reference(&in, &job.params, &ref);
            CHECK(eng_run(e, &job, &t), "a per-pixel run: %s", err_msg());
            CHECK(count_off(&out, &ref, &exact) == 0, "per pixel: the whole result equals the reference");
            CHECK(t.result == ENG_RESULT_PER_PIXEL && t.has[ENG_DOWNLOAD] && t.measured_px >= 1 &&
                      t.measured_px <= 5000 && t.total_px == (long long)w * h && t.extrapolated,
                  "per pixel: %lld of %lld copies measured, extrapolated %d", t.measured_px, t.total_px,
                  t.extrapolated);
        }
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
        CHECK(eng_device(e, &info) && strcmp(info.name, (const char *)glGetString(GL_RENDERER)) == 0 &&
                  info.present == ENG_PRESENT_NATIVE && info.present_why[0] && info.compute_units == 0 &&
                  info.memory_engine > 0 && (info.memory_total == -1 || info.memory_free <= info.memory_total) &&
                  info.subgroup >= 0 && info.subgroup <= 128,
              "device: '%s', present %s, %lld bytes held, memory %lld of %lld", info.name,
              eng_present_path_name(info.present), info.memory_engine, info.memory_free, info.memory_total);
        memset(&o, 0, sizeof o);
        eng_set_options(e, &o);
    }
    check_all(e, &tot); /* tiled, the default */
    check_any_size(e, &tot);
    check_any_size_no_barrier(e);
    printf("%ld runs of other geometries equal to the reference\n", check_geometry_on(e));
    check_geometry_too_wide(e);
    printf("%ld layer outputs of every way, border and geometry compared\n", check_layer_on(e, "gl"));
    {
        eng_options o;
        memset(&o, 0, sizeof o);
        o.kernel = ENG_KERNEL_NAIVE;
        CHECK(eng_set_options(e, &o), "the naive kernel: %s", err_msg());
        check_all(e, &tot);
        check_any_size(e, &tot);
        memset(&o, 0, sizeof o);
        eng_set_options(e, &o);
    }
    check_no_barrier(e, 300, 200, (const char *)glGetString(GL_RENDERER));
    check_tiles_on(e);
    printf("%ld runs within %g of the reference, %ld of them equal bit for bit\n", tot.runs, (double)TOL, tot.exact);
    check_measure(e);
    check_present_and_bindings(e);
    eng_close(e);

    /* The timer-query path, forced on a CPU renderer too (elsewhere it is
     * the default): the same results, the phases by GL timer queries. */
    setenv("CONVIS_GL_TIMER", "query", 1);
    e = eng_open(cls);
    CHECK(e != NULL, "open with CONVIS_GL_TIMER=query: %s", err_msg());
    if (e) {
        totals q = {0, 0};
        check_all(e, &q);
        check_measure(e);
        eng_close(e);
    }
    unsetenv("CONVIS_GL_TIMER");

    plat_close(win);
    return CHECK_SUMMARY();
}
