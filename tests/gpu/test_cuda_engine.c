/* The CUDA engine on a CUDA device, against the reference:
 *   - the naive and the tiled kernel, in 16x16 and 32x8 blocks, for every
 *     preset x border mode x flip on odd sizes: every run equal to the
 *     reference bit for bit (the README's claim; within 1e-5 is counted
 *     apart, so a miss says how far); phases, clock, launch geometry;
 *   - filters of every size, 1x1 to 31x31, both kernels, every border and
 *     flip, images smaller than the window among them: bit for bit; what
 *     the tiled kernel refuses of them, in a sentence (any_size_check.h);
 *   - every geometry (stride, dilation, padding), both kernels: bit for bit
 *     (geometry_check.h), and a tile too large for a block refused;
 *   - block shapes 1x1, 3x1, 7x5, 8x32, 32x32, 1024x1, 1x1024, 64x16 for
 *     both kernels, bit for bit;
 *   - filter changes between tiled runs (A, B, A, A, B), each exact; with
 *     the CPU stand-in, one upload to __constant__ per change and none for
 *     a repeat;
 *   - the per-pixel result path: the same result as bulk, and a download
 *     phase that says it was extrapolated, from how many pixels;
 *   - the options' checks, the description, the device information;
 *   - eng_present with no OpenGL context: a sentence, no crash;
 *   - outputs that overflow to infinity and NaN: the reference's result, NaN
 *     for NaN (conv_same), whatever bits the device's NaN has;
 *   - the kernel alone, measured after a run (eng_timing.kernel_ms): filled
 *     and finite, and on a GPU no slower a launch back to back than one
 *     launch after idle, within a margin;
 *   - the engine used from another thread than the one that opened it (on
 *     the stand-in, opened on its second device: the other thread's current
 *     device is not the engine's until the engine makes it so);
 *   - a layer (C_in -> C_out) every way, direct and im2col bit for bit,
 *     cuBLAS in fp32, tf32 and fp16 within their tolerance (layer_check.h);
 *   - an injected allocation failure (CONVIS_CUDA_FAIL_ALLOC=1): a sentence
 *     with the sizes and the free memory, and the engine still usable after;
 *   - with the CPU stand-in only: no device, no driver, an old driver, a full
 *     device, a grid too tall; a fault that breaks the context (reset and
 *     reopened, or "restart" when that does not mend it); a kernel whose own
 *     block limit is below the device's; the tiled kernel without its
 *     barrier on a grid of one wave: no output wrong in runs 2 to 5 when
 *     nothing poisons shared memory between them, outputs wrong in every
 *     run when something does (as the engine does). ctest runs the stand-in build twice,
 *     the second time with CONVIS_MOCK_CUDA_ASYNC=1 (work runs only when
 *     synchronised), so a missing synchronisation reads stale memory.
 * Exits 77 (ctest: skipped) when this machine has no CUDA device, saying why. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
#include "../unit/independent.h"
#include "any_size_check.h"
#include "../unit/geometry_check.h"
#include "../unit/layer_check.h"
#include "../unit/race_check.h"
#include "../unit/tiles_check.h"
#include "compute/engine.h"
#include "core/conv.h"
#include "core/err.h"
#ifdef CONVIS_CUDA_MOCK
#include <cuda_runtime.h>

#include "../../kernels/conv3x3.h"
#include "../mock/cuda_mock.h"
#endif

#define TOL 1e-5f

static const int sizes[][2] = {{1, 1},   {2, 2},   {3, 3},    {16, 16},  {17, 33},
                               {33, 17}, {64, 48}, {1, 4097}, {4097, 1}, {1000, 777}};

typedef struct config {
    eng_kernel kernel;
    int bx, by;
} config;

static const config configs[] = {
    {ENG_KERNEL_NAIVE, 16, 16},
    {ENG_KERNEL_TILED, 16, 16},
    {ENG_KERNEL_NAIVE, 32, 8},
    {ENG_KERNEL_TILED, 32, 8},
};
#define NCONFIGS (sizeof configs / sizeof configs[0])

static bool set_options(eng_engine *e, eng_kernel kernel, eng_result result, int bx, int by)
{
    eng_options o;
    memset(&o, 0, sizeof o);
    o.kernel = kernel;
    o.result = result;
    o.block_x = bx;
    o.block_y = by;
    if (!eng_set_options(e, &o)) {
        CHECK(false, "options %s %dx%d: %s", eng_kernel_name(kernel), bx, by, err_msg());
        return false;
    }
    return true;
}

static long count_off(const float *got, const float *want, long n)
{
    long bad = 0;
    for (long i = 0; i < n; ++i)
        bad += !(fabsf(got[i] - want[i]) <= TOL * fmaxf(1.0f, fabsf(want[i])));
    return bad;
}

/* Runs `job` (into job->out, first filled with a value no output has, so
 * every pixel must be written) with `kernel` in blocks of bx x by; counts
 * the run and whether it equals `ref` bit for bit. False, with a failed
 * check, when the options or the run fail. `what` names the case. */
static bool run_counted(eng_engine *e, const eng_job *job, const img_plane *ref, eng_kernel kernel, int bx, int by,
                        const char *what, eng_timing *t, long *runs, long *exact)
{
    long n = (long)job->in->w * job->in->h;
    if (!set_options(e, kernel, ENG_RESULT_BULK, bx, by))
        return false;
    for (long i = 0; i < n; ++i)
        job->out->px[i] = -12345.0f;
    if (!eng_run(e, job, t)) {
        CHECK(false, "%s: run: %s", what, err_msg());
        return false;
    }
    ++*runs;
    *exact += conv_count_different(job->out->px, ref->px, (long)n) == 0;
    return true;
}

/* Every kernel and block shape x preset x border x flip x size. */
static void check_kernels(eng_engine *e)
{
    long runs = 0, exact = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        long n = (long)w * h;
        img_plane in, ref, out;
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&out, w, h);
        ind_fill(in.px, (size_t)n, (unsigned)s + 40);
        for (size_t k = 0; k < filt_preset_count(); ++k)
            for (int b = 0; b < CONV_BORDER_COUNT; ++b)
                for (int flip = 0; flip < 2; ++flip) {
                    eng_job job = {&in, &out, conv_params_make(filt_preset(k), (conv_border)b, flip)};
                    conv_reference(&in, &job.params, &ref);
                    for (size_t c = 0; c < NCONFIGS; ++c) {
                        const config *cf = &configs[c];
                        eng_timing t;
                        long bad;
                        char what[96];
                        snprintf(what, sizeof what, "%dx%d %s %dx%d", w, h, eng_kernel_name(cf->kernel), cf->bx,
                                 cf->by);
                        if (!run_counted(e, &job, &ref, cf->kernel, cf->bx, cf->by, what, &t, &runs, &exact))
                            continue;
                        CHECK(t.has[ENG_UPLOAD] && t.has[ENG_COMPUTE] && t.has[ENG_DOWNLOAD] && t.has[ENG_OVERHEAD] &&
                                  !t.has[ENG_PRESENT] && t.clock && strcmp(t.clock, "cudaEvent") == 0 &&
                                  t.result == ENG_RESULT_BULK && !t.extrapolated,
                              "%dx%d: phases, clock, bulk result", w, h);
                        CHECK(t.launch.grid_x == (w + cf->bx - 1) / cf->bx &&
                                  t.launch.grid_y == (h + cf->by - 1) / cf->by && t.launch.block_x == cf->bx &&
                                  t.launch.block_y == cf->by,
                              "%dx%d: launch %dx%d blocks of %dx%d, expected blocks of %dx%d", w, h, t.launch.grid_x,
                              t.launch.grid_y, t.launch.block_x, t.launch.block_y, cf->bx, cf->by);
                        bad = count_off(out.px, ref.px, n);
                        CHECK(bad == 0, "%dx%d %s border %d flip %d, %s kernel %dx%d: %ld pixels off", w, h,
                              filt_preset(k)->name, b, flip, eng_kernel_name(cf->kernel), cf->bx, cf->by, bad);
                    }
                }
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
    }
    printf("%ld runs within %g of the reference, %ld of them equal bit for bit\n", runs, (double)TOL, exact);
    CHECK(exact == runs,
          "every run equals the reference bit for bit (no fused multiply-add, the same rounding): "
          "%ld of %ld",
          exact, runs);
}

/* Block shapes from one thread to 1024 in a row or a column, odd ones, and
 * the largest square, for both kernels: every output bit for bit the
 * reference's, on sizes that leave partial blocks on both sides. */
static void check_block_shapes(eng_engine *e)
{
    static const int shapes[][2] = {{1, 1}, {3, 1}, {7, 5}, {8, 32}, {32, 32}, {1024, 1}, {1, 1024}, {64, 16}};
    static const int dims[][2] = {{1, 1}, {2, 3}, {33, 17}, {1030, 3}, {3, 1030}, {200, 150}};
    static const char *const filters[] = {"sobel-x", "0.1 -0.7 1.3; 2.9 -0.3 0.45; -1.1 0.6 0.77 / 7"};
    long runs = 0, exact = 0;

    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d) {
        int w = dims[d][0], h = dims[d][1];
        long n = (long)w * h;
        img_plane in, ref, out;
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&out, w, h);
        ind_fill(in.px, (size_t)n, (unsigned)d + 90);
        for (size_t f = 0; f < sizeof filters / sizeof filters[0]; ++f)
            for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
                filt_kernel k;
                eng_job job = {&in, &out, {1.0f, 0, 3, 3, 1, 1, CONV_PAD_SAME, 1, 1, {0}}};
                CHECK(filt_parse(filters[f], &k), "filter '%s'", filters[f]);
                job.params = conv_params_make(&k, (conv_border)b, f == 1);
                conv_reference(&in, &job.params, &ref);
                for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh)
                    for (int kernel = 0; kernel < 2; ++kernel) {
                        eng_kernel kv = kernel ? ENG_KERNEL_TILED : ENG_KERNEL_NAIVE;
                        eng_timing t;
                        char what[96];
                        snprintf(what, sizeof what, "%dx%d %s kernel, blocks %dx%d", w, h, eng_kernel_name(kv),
                                 shapes[sh][0], shapes[sh][1]);
                        if (!run_counted(e, &job, &ref, kv, shapes[sh][0], shapes[sh][1], what, &t, &runs, &exact))
                            continue;
                        CHECK(conv_count_different(out.px, ref.px, (long)n) == 0,
                              "%dx%d %s kernel, blocks %dx%d, filter %zu, border %d: %ld pixels off", w, h,
                              eng_kernel_name(kv), shapes[sh][0], shapes[sh][1], f, b, count_off(out.px, ref.px, n));
                    }
            }
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
    }
    printf("block shapes: %ld runs, %ld of them equal to the reference bit for bit\n", runs, exact);
    set_options(e, ENG_KERNEL_TILED, ENG_RESULT_BULK, 0, 0);
}

/* The tiled kernel's filter lives in __constant__ memory and goes there only
 * when it changed: runs with filters A, B, A, A, each exact; and (with the
 * CPU stand-in, which counts) one upload per change, none for a repeat or
 * for the naive kernel. */
static void check_filter_changes(eng_engine *e)
{
    int w = 67, h = 45;
    long n = (long)w * h;
    img_plane in, ref, out;
    eng_timing t;
    conv_params a = conv_params_make(filt_preset(1), CONV_BORDER_MIRROR, false);
    conv_params b = conv_params_make(filt_preset(5), CONV_BORDER_ZERO, true);
    const conv_params *order[] = {&a, &b, &a, &a, &b};
#ifdef CONVIS_CUDA_MOCK
    static const long uploads_since_first[] = {0, 1, 2, 2, 3};
    long before = 0;
#endif

    img_plane_alloc(&in, w, h);
    img_plane_alloc(&ref, w, h);
    img_plane_alloc(&out, w, h);
    ind_fill(in.px, (size_t)n, 31);
    set_options(e, ENG_KERNEL_NAIVE, ENG_RESULT_BULK, 0, 0);
    {
        eng_job job = {&in, &out, b};
        CHECK(eng_run(e, &job, &t), "naive run: %s", err_msg());
    }
    set_options(e, ENG_KERNEL_TILED, ENG_RESULT_BULK, 0, 0);
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i) {
        eng_job job = {&in, &out, *order[i]};
        conv_reference(&in, &job.params, &ref);
        CHECK(eng_run(e, &job, &t), "run %zu: %s", i, err_msg());
        CHECK(conv_count_different(out.px, ref.px, (long)n) == 0, "run %zu (filter %s): bit for bit", i,
              order[i] == &a ? "A" : "B");
#ifdef CONVIS_CUDA_MOCK
        if (i == 0)
            before = cuda_mock_count(CUDA_MOCK_FILTER_UPLOADS);
        CHECK(cuda_mock_count(CUDA_MOCK_FILTER_UPLOADS) - before == uploads_since_first[i],
              "run %zu: %ld filter uploads since the first run, %ld expected", i,
              cuda_mock_count(CUDA_MOCK_FILTER_UPLOADS) - before, uploads_since_first[i]);
#endif
    }
    img_plane_free(&in);
    img_plane_free(&ref);
    img_plane_free(&out);
}

/* The trap: one copy per pixel. Same result as bulk; the record says how
 * many pixels were copied for real and that the rest is extrapolated. */
static void check_per_pixel(eng_engine *e)
{
    static const int dims[][2] = {{300, 200}, {17, 33}};
    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d) {
        int w = dims[d][0], h = dims[d][1];
        long long n = (long long)w * h;
        img_plane in, bulk, pp;
        eng_job job;
        eng_timing tb, tp;
        eng_options o;

        img_plane_alloc(&in, w, h);
        img_plane_alloc(&bulk, w, h);
        img_plane_alloc(&pp, w, h);
        ind_fill(in.px, (size_t)n, 77);
        job = (eng_job){&in, &bulk, conv_params_make(filt_preset(3), CONV_BORDER_CLAMP, false)};
        set_options(e, ENG_KERNEL_TILED, ENG_RESULT_BULK, 0, 0);
        CHECK(eng_run(e, &job, &tb), "bulk: %s", err_msg());
        /* another filter first, so the device's output buffer holds other
         * values: a copy that ran before the kernel would read those */
        job.params = conv_params_make(filt_preset(0), CONV_BORDER_ZERO, false);
        job.out = &pp;
        CHECK(eng_run(e, &job, &tp), "bulk, another filter: %s", err_msg());
        job.params = conv_params_make(filt_preset(3), CONV_BORDER_CLAMP, false);
        set_options(e, ENG_KERNEL_TILED, ENG_RESULT_PER_PIXEL, 0, 0);
        CHECK(strstr(eng_description(e), "one copy per pixel") != NULL, "description '%s' says per pixel",
              eng_description(e));
        job.out = &pp;
        CHECK(eng_run(e, &job, &tp), "per-pixel: %s", err_msg());
        CHECK(conv_count_different(bulk.px, pp.px, (long)n) == 0, "%dx%d: per-pixel result equals bulk", w, h);
        CHECK(tp.result == ENG_RESULT_PER_PIXEL && tp.has[ENG_DOWNLOAD] && tp.ms[ENG_DOWNLOAD] > 0.0,
              "%dx%d: per-pixel record", w, h);
        CHECK(tp.total_px == n && tp.measured_px >= 1 && tp.measured_px <= ENG_PER_PIXEL_MAX && tp.measured_px <= n &&
                  tp.extrapolated == (tp.measured_px < n),
              "%dx%d: measured %lld of %lld, extrapolated %d", w, h, tp.measured_px, tp.total_px, tp.extrapolated);
        if (n <= ENG_PER_PIXEL_MAX)
            CHECK(tp.measured_px == n || tp.extrapolated, "%dx%d: all pixels measured unless the budget ran out", w, h);
        printf("%dx%d: bulk download %.3f ms; per pixel %.3f ms (%s, %lld of %lld pixels copied one by one)\n", w, h,
               tb.ms[ENG_DOWNLOAD], tp.ms[ENG_DOWNLOAD], tp.extrapolated ? "extrapolated" : "measured", tp.measured_px,
               tp.total_px);

        /* a cap of 100 pixels, and eng_measure keeping the fields */
        o = eng_options_of(e);
        o.per_pixel_max = 100;
        CHECK(eng_set_options(e, &o), "cap 100: %s", err_msg());
        CHECK(eng_measure(e, &job, 3, &tp), "measure per-pixel: %s", err_msg());
        CHECK(conv_count_different(bulk.px, pp.px, (long)n) == 0, "%dx%d cap 100: result equals bulk", w, h);
        CHECK(tp.reps == 3 && tp.result == ENG_RESULT_PER_PIXEL && tp.measured_px <= 100 && tp.extrapolated,
              "%dx%d cap 100: reps %d, measured %lld, extrapolated %d", w, h, tp.reps, tp.measured_px, tp.extrapolated);
        img_plane_free(&in);
        img_plane_free(&bulk);
        img_plane_free(&pp);
    }
    set_options(e, ENG_KERNEL_TILED, ENG_RESULT_BULK, 0, 0);
}

/* Two CUDA engines in one program share the CUDA context, and with it the
 * tiled kernel's __constant__ filter: A with filter X, B with filter Y, A
 * with X again must upload X again. Each result exact. */
static void check_two_engines(const eng_class *cls)
{
    int w = 37, h = 29;
    long n = (long)w * h;
    img_plane in, ref_x, ref_y, out;
    eng_timing t;
    conv_params x = conv_params_make(filt_preset(1), CONV_BORDER_CLAMP, false);
    conv_params y = conv_params_make(filt_preset(6), CONV_BORDER_WRAP, true);
    eng_engine *a = eng_open(cls), *b = eng_open(cls);

    CHECK(a && b, "two engines open: %s", err_msg());
    if (!a || !b) {
        eng_close(a);
        eng_close(b);
        return;
    }
    img_plane_alloc(&in, w, h);
    img_plane_alloc(&ref_x, w, h);
    img_plane_alloc(&ref_y, w, h);
    img_plane_alloc(&out, w, h);
    ind_fill(in.px, (size_t)w * h, 44);
    conv_reference(&in, &x, &ref_x);
    conv_reference(&in, &y, &ref_y);
    {
        eng_job jx = {&in, &out, x}, jy = {&in, &out, y};
        CHECK(eng_run(a, &jx, &t) && conv_count_different(out.px, ref_x.px, n) == 0, "A, filter X: %s", err_msg());
        CHECK(eng_run(b, &jy, &t) && conv_count_different(out.px, ref_y.px, n) == 0, "B, filter Y: %s", err_msg());
        CHECK(eng_run(a, &jx, &t) && conv_count_different(out.px, ref_x.px, n) == 0,
              "A, filter X again, after B changed the device's filter: %s", err_msg());
#ifdef CONVIS_CUDA_MOCK
        /* a fault in A resets the device; B's stream, events and buffers went
         * with the old context, and B makes them again */
        setenv("CONVIS_MOCK_CUDA_FAULT", "launch", 1);
        CHECK(!eng_run(a, &jx, &t) && strstr(err_msg(), "reset the device"), "A faults: '%s'", err_msg());
        unsetenv("CONVIS_MOCK_CUDA_FAULT");
        CHECK(eng_run(b, &jy, &t) && conv_count_different(out.px, ref_y.px, n) == 0, "B after A reset the device: %s",
              err_msg());
        CHECK(eng_run(a, &jx, &t) && conv_count_different(out.px, ref_x.px, n) == 0, "A after its reset: %s",
              err_msg());
#endif
    }
    eng_close(a);
    eng_close(b);
    img_plane_free(&in);
    img_plane_free(&ref_x);
    img_plane_free(&ref_y);
    img_plane_free(&out);
}

static void check_options_and_device(eng_engine *e)
{
    eng_options o, before = eng_options_of(e);
    eng_device_info info;

    memset(&o, 0, sizeof o);
    o.block_x = 64;
    o.block_y = 32; /* 2048 threads: more than any CUDA device allows */
    CHECK(!eng_set_options(e, &o) && strstr(err_msg(), "threads"), "a 64x32 block is refused: '%s'", err_msg());
    o = eng_options_of(e);
    CHECK(o.block_x == before.block_x && o.block_y == before.block_y, "refused options leave the old ones");
    memset(&o, 0, sizeof o);
    o.kernel = (eng_kernel)7;
    CHECK(!eng_set_options(e, &o), "kernel variant 7 is refused");
    memset(&o, 0, sizeof o);
    CHECK(eng_set_options(e, &o), "zero options: %s", err_msg());
    o = eng_options_of(e);
    CHECK(o.kernel == ENG_KERNEL_TILED && o.result == ENG_RESULT_BULK && o.block_x == 16 && o.block_y == 16,
          "zero options are tiled, bulk, 16x16");
    CHECK(strstr(eng_description(e), "tiled kernel") && strstr(eng_description(e), "16x16"), "description '%s'",
          eng_description(e));
    set_options(e, ENG_KERNEL_NAIVE, ENG_RESULT_BULK, 32, 8);
    CHECK(strstr(eng_description(e), "naive kernel") && strstr(eng_description(e), "32x8"),
          "description follows the options: '%s'", eng_description(e));
    set_options(e, ENG_KERNEL_TILED, ENG_RESULT_BULK, 0, 0);

    CHECK(eng_device(e, &info), "device: %s", err_msg());
    CHECK(info.name[0] && info.compute_units > 0 && info.unit_name && strcmp(info.unit_name, "SM") == 0,
          "device '%s', %d %s", info.name, info.compute_units, info.unit_name ? info.unit_name : "?");
    CHECK(info.memory_total > 0 && info.memory_free >= 0 && info.memory_free <= info.memory_total,
          "memory %lld free of %lld", info.memory_free, info.memory_total);
    CHECK(info.subgroup == 32, "a warp of %d threads (warpSize)", info.subgroup);
    CHECK(info.blocks_per_unit >= 1 && info.blocks_per_unit <= 32,
          "the runtime's occupancy: %d blocks of 16x16 at once an SM", info.blocks_per_unit);
    CHECK(info.memory_engine >= 2LL * 4 * 1000 * 777, "the engine holds %lld bytes after a 1000x777 run",
          info.memory_engine);
    CHECK(info.present == ENG_PRESENT_COPY && strstr(info.present_why, "no OpenGL context"),
          "with no GL context at open: copy path, '%s'", info.present_why);
    printf("device: %s, %d SMs, %lld MiB free of %lld MiB, engine holds %lld KiB; present: %s (%s)\n", info.name,
           info.compute_units, info.memory_free >> 20, info.memory_total >> 20, info.memory_engine >> 10,
           eng_present_path_name(info.present), info.present_why);
}

static void check_present_without_gl(eng_engine *e)
{
    float px[4] = {1, 2, 3, 4};
    img_plane in = {2, 2, px};
    eng_job job = {&in, NULL, conv_params_make(filt_preset(0), CONV_BORDER_ZERO, false)};
    eng_timing t;
    CHECK(!eng_present(e, &job, 1, &t) && strstr(err_msg(), "OpenGL context"),
          "present with no GL context is refused: '%s'", err_msg());
}

static void check_alloc_failure(const eng_class *cls)
{
    img_plane in, out;
    eng_job job;
    eng_timing t;
    eng_engine *e;

    img_plane_alloc(&in, 64, 48);
    img_plane_alloc(&out, 64, 48);
    ind_fill(in.px, 64 * 48, 3);
    job = (eng_job){&in, &out, conv_params_make(filt_preset(1), CONV_BORDER_MIRROR, false)};
    setenv("CONVIS_CUDA_FAIL_ALLOC", "1", 1);
    e = eng_open(cls);
    CHECK(e != NULL, "open with CONVIS_CUDA_FAIL_ALLOC=1: %s", err_msg());
    if (e) {
        CHECK(!eng_run(e, &job, &t), "run with the allocation failing fails");
        CHECK(strstr(err_msg(), "64x48") && strstr(err_msg(), "free of") &&
                  strstr(err_msg(), "CONVIS_CUDA_FAIL_ALLOC") && !strchr(err_msg(), '\n'),
              "the sentence names the size, the free memory and the injection: '%s'", err_msg());
        printf("injected: %s\n", err_msg());
        unsetenv("CONVIS_CUDA_FAIL_ALLOC");
        CHECK(eng_run(e, &job, &t), "the same engine runs once allocations work again: %s", err_msg());
        eng_close(e);
    }
    unsetenv("CONVIS_CUDA_FAIL_ALLOC");
    img_plane_free(&in);
    img_plane_free(&out);
}

#ifdef CONVIS_CUDA_MOCK
/* Cases only the CPU stand-in for CUDA (tests/mock/cuda_mock.c) can make:
 * the probe's reasons for no device, no driver and an old driver; a device
 * too small for the image (a real allocation failure, not an injected one);
 * a grid taller than the device launches. */
static void check_mock_only(const eng_class *cls)
{
    static const struct {
        const char *mode, *why;
    } probes[] = {
        {"none", "no CUDA device was found"},
        {"no-driver", "no NVIDIA driver is installed"},
        {"old-driver", "the NVIDIA driver supports CUDA 11.8, older than the CUDA"},
    };
    char why[256];
    img_plane in, out;
    eng_job job;
    eng_timing t;
    eng_engine *e;

    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; ++i) {
        setenv("CONVIS_MOCK_CUDA", probes[i].mode, 1);
        CHECK(!eng_probe(cls, why, sizeof why) && strstr(why, probes[i].why), "%s: '%s'", probes[i].mode, why);
        CHECK(!eng_open(cls) && strstr(err_msg(), "engine 'cuda' is unavailable: ") && strstr(err_msg(), probes[i].why),
              "open, %s: '%s'", probes[i].mode, err_msg());
    }
    setenv("CONVIS_MOCK_CUDA", "none", 1);
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    CHECK(!eng_probe(cls, why, sizeof why) && strstr(why, "CUDA_VISIBLE_DEVICES"), "hidden devices: '%s'", why);
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("CONVIS_MOCK_CUDA");

    setenv("CONVIS_MOCK_CUDA_MEMORY", "1000000", 1);
    e = eng_open(cls);
    CHECK(e != NULL, "open with 1 MB of device memory: %s", err_msg());
    if (e) {
        img_plane_alloc(&in, 1000, 777);
        img_plane_alloc(&out, 1000, 777);
        ind_fill(in.px, 1000 * 777, 4);
        job = (eng_job){&in, &out, conv_params_make(filt_preset(1), CONV_BORDER_CLAMP, false)};
        CHECK(!eng_run(e, &job, &t) &&
                  strstr(err_msg(), "a 1000x777 image needs two device buffers of 3.0 MiB (5.9 MiB)") &&
                  strstr(err_msg(), "which has 976.6 KiB free of 976.6 KiB: out of memory") &&
                  !strstr(err_msg(), "injected"),
              "a device too small: '%s'", err_msg());
        img_plane_free(&in);
        img_plane_free(&out);
        img_plane_alloc(&in, 64, 48);
        img_plane_alloc(&out, 64, 48);
        job.in = &in;
        job.out = &out;
        CHECK(eng_run(e, &job, &t), "a smaller image after the failure: %s", err_msg());
        img_plane_free(&in);
        img_plane_free(&out);

        img_plane_alloc(&in, 1, 1048577);
        img_plane_alloc(&out, 1, 1048577);
        job.in = &in;
        job.out = &out;
        CHECK(!eng_run(e, &job, &t) && strstr(err_msg(), "needs 1x65537 blocks of 16x16 threads") &&
                  strstr(err_msg(), "launches at most"),
              "a grid too tall: '%s'", err_msg());
        img_plane_free(&in);
        img_plane_free(&out);
        eng_close(e);
    }
    unsetenv("CONVIS_MOCK_CUDA_MEMORY");
}

/* What makes a missing barrier go quiet on a GPU, on the stand-in's block
 * slots (kept between launches, as a GPU's shared memory): a 64x48 grid of
 * 16x16 blocks (12) fits in one wave of its 4 SMs x 8 slots, so each block
 * of a second run without the barrier finds its own tile from the first
 * and reads the right values too early: no output wrong in runs 2 to 5.
 * With the poison launched before each run, every run has outputs wrong;
 * and the engine launches the poison itself. */
static void check_quiet_race(eng_engine *e)
{
    enum { W = 64, H = 48, RUNS = 5 };
    size_t bytes = sizeof(float) * W * H;
    img_plane in, ref, out;
    float *d_in = NULL, *d_out = NULL;
    conv_params p = conv_params_make(filt_preset(2), CONV_BORDER_CLAMP, false);
    long quiet[RUNS], poisoned[RUNS], poisons = cuda_mock_count(CUDA_MOCK_POISONS);
    bool ok;

    img_plane_alloc(&in, W, H);
    img_plane_alloc(&ref, W, H);
    img_plane_alloc(&out, W, H);
    ind_fill(in.px, (size_t)W * H, 23);
    conv_reference(&in, &p, &ref);
    ok = cudaMalloc((void **)&d_in, bytes) == cudaSuccess && cudaMalloc((void **)&d_out, bytes) == cudaSuccess &&
         cudaMemcpy(d_in, in.px, bytes, cudaMemcpyHostToDevice) == cudaSuccess && conv3x3_set_filter(&p, NULL) == 0;
    CHECK(ok, "the launchers' buffers and filter");
    for (int r = 0; ok && r < 2 * RUNS; ++r) {
        bool poison = r >= RUNS;
        ok = (!poison || conv3x3_launch_poison_shared(16, 16, 4 * 8, NULL) == 0) &&
             conv3x3_launch_tiled_unsynced(d_in, d_out, W, H, 16, 16, NULL) == 0 &&
             cudaMemcpy(out.px, d_out, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
        CHECK(ok, "run %d without the barrier%s", r % RUNS + 1, poison ? ", after the poison" : "");
        (poison ? poisoned : quiet)[r % RUNS] = race_wrong(&out, &ref);
    }
    if (ok) {
        printf("without the barrier on the stand-in, one wave, no poison: %ld, %ld, %ld, %ld, %ld of %d outputs "
               "wrong\n",
               quiet[0], quiet[1], quiet[2], quiet[3], quiet[4], W * H);
        printf("the same after the poison each time: %ld, %ld, %ld, %ld, %ld of %d outputs wrong\n", poisoned[0],
               poisoned[1], poisoned[2], poisoned[3], poisoned[4], W * H);
        for (int r = 0; r < RUNS; ++r) {
            CHECK(r == 0 || quiet[r] == 0, "no poison, run %d: each block's own tile was left there (%ld wrong)", r + 1,
                  quiet[r]);
            CHECK(poisoned[r] > 0, "after the poison, run %d: outputs wrong (%ld)", r + 1, poisoned[r]);
        }
    }
    CHECK(conv3x3_launch_poison_shared(0, 16, 1, NULL) == cudaErrorInvalidConfiguration &&
              conv3x3_launch_poison_shared(16, 16, 0, NULL) == cudaErrorInvalidConfiguration &&
              conv3x3_launch_poison_shared(2048, 1, 1, NULL) == cudaErrorInvalidConfiguration,
          "the poison launcher's shape checks");
    cudaGetLastError();
    cudaFree(d_in);
    cudaFree(d_out);
    check_no_barrier(e, W, H, "the stand-in, one wave, through the engine");
    CHECK(cuda_mock_count(CUDA_MOCK_POISONS) - poisons == RUNS + 3,
          "the engine poisoned before each of its 3 runs (%ld poisons)", cuda_mock_count(CUDA_MOCK_POISONS) - poisons);
    img_plane_free(&in);
    img_plane_free(&ref);
    img_plane_free(&out);
}

/* A fault that breaks the CUDA context (the stand-in's launch failure,
 * surfacing at the next synchronisation and sticking): the run fails with a
 * sentence that says the device was reset, and the next run works. When the
 * reset does not mend it, every later run says to restart. A kernel whose
 * own limit is below the device's refuses larger blocks. */
static void check_faults(const eng_class *cls)
{
    int w = 40, h = 30;
    img_plane in, ref, out;
    eng_job job;
    eng_timing t;
    eng_options o;
    long resets;
    eng_engine *e = eng_open(cls);

    CHECK(e != NULL, "open: %s", err_msg());
    if (!e)
        return;
    img_plane_alloc(&in, w, h);
    img_plane_alloc(&ref, w, h);
    img_plane_alloc(&out, w, h);
    ind_fill(in.px, (size_t)w * h, 12);
    job = (eng_job){&in, &out, conv_params_make(filt_preset(2), CONV_BORDER_WRAP, false)};
    conv_reference(&in, &job.params, &ref);
    CHECK(eng_run(e, &job, &t), "a run before the fault: %s", err_msg());

    resets = cuda_mock_count(CUDA_MOCK_RESETS);
    setenv("CONVIS_MOCK_CUDA_FAULT", "launch", 1);
    CHECK(!eng_run(e, &job, &t), "a run whose kernel faults fails");
    CHECK(strstr(err_msg(), "unspecified launch failure") && strstr(err_msg(), "reset the device") &&
              strstr(err_msg(), "next run starts afresh") && !strchr(err_msg(), '\n'),
          "the sentence names the fault and the reset: '%s'", err_msg());
    CHECK(cuda_mock_count(CUDA_MOCK_RESETS) == resets + 1, "the device was reset once");
    printf("fault: %s\n", err_msg());
    unsetenv("CONVIS_MOCK_CUDA_FAULT");
    memset(out.px, 0, sizeof(float) * (size_t)w * h);
    CHECK(eng_run(e, &job, &t), "the run after the reset works: %s", err_msg());
    CHECK(conv_count_different(out.px, ref.px, (long)w * h) == 0, "and is exact (the filter sent again)");
    o = eng_options_of(e);
    o.result = ENG_RESULT_PER_PIXEL;
    CHECK(eng_set_options(e, &o) && eng_run(e, &job, &t) && conv_count_different(out.px, ref.px, (long)w * h) == 0,
          "the per-pixel path after the reset: %s", err_msg());
    o.result = ENG_RESULT_BULK;
    eng_set_options(e, &o);

    setenv("CONVIS_MOCK_CUDA_FAULT", "stuck", 1);
    CHECK(!eng_run(e, &job, &t) && strstr(err_msg(), "did not mend it") && strstr(err_msg(), "restart convis"),
          "a fault the reset does not mend: '%s'", err_msg());
    unsetenv("CONVIS_MOCK_CUDA_FAULT");
    CHECK(!eng_run(e, &job, &t) && strstr(err_msg(), "restart convis") && !strstr(err_msg(), "failed at"),
          "later runs say so, and only that: '%s'", err_msg());
    eng_close(e);
    cudaDeviceReset(); /* the stand-in's context, for what follows */

    setenv("CONVIS_MOCK_CUDA_KERNEL_THREADS", "256", 1);
    e = eng_open(cls);
    CHECK(e != NULL, "open: %s", err_msg());
    if (e) {
        memset(&o, 0, sizeof o);
        o.block_x = 32;
        o.block_y = 16;
        CHECK(!eng_set_options(e, &o) && strstr(err_msg(), "512 threads") &&
                  strstr(err_msg(), "at most 256 threads a block"),
              "a block over the kernel's own limit: '%s'", err_msg());
        o.block_y = 8;
        CHECK(eng_set_options(e, &o), "a block within it: %s", err_msg());
        eng_close(e);
    }
    unsetenv("CONVIS_MOCK_CUDA_KERNEL_THREADS");
    img_plane_free(&in);
    img_plane_free(&ref);
    img_plane_free(&out);
}
#endif

/* Outputs that overflow to infinity and NaN (a filter applied again and
 * again, or inputs near the float's largest): the engine's result is the
 * reference's by the rule results are compared by (conv_same), though a GPU
 * writes its own NaN, 0x7fffffff, where the CPU writes 0xffc00000 (the
 * stand-in writes the GPU's too): compared by their bits alone, those
 * outputs would be called wrong. */
static void check_overflow(eng_engine *e)
{
    int w = 37, h = 23;
    long n = (long)w * h;
    img_plane in, ref, out;
    filt_kernel k;
    eng_timing t;

    CHECK(filt_parse("4 1 0; 0 1 0; 0 1 -4", &k), "the filter: %s", err_msg());
    img_plane_alloc(&in, w, h);
    img_plane_alloc(&ref, w, h);
    img_plane_alloc(&out, w, h);
    for (long i = 0; i < n; ++i) { /* large on some squares of a checkerboard, small elsewhere */
        long x = i % w, y = i / w;
        in.px[i] = (x + y) % 2 == 0 && x % 7 < 4 && y % 5 < 3 ? 3e38f : (float)(i % 7) - 3.0f;
    }
    for (int kernel = 0; kernel < ENG_KERNEL_COUNT; ++kernel)
        for (int border = 0; border < CONV_BORDER_COUNT; ++border) {
            eng_job job = {&in, &out, conv_params_make(&k, (conv_border)border, false)};
            long nan = 0, inf = 0, finite = 0, bits = 0;
            conv_reference(&in, &job.params, &ref);
            for (long i = 0; i < n; ++i) {
                nan += isnan(ref.px[i]) != 0;
                inf += isinf(ref.px[i]) != 0;
                finite += isfinite(ref.px[i]) != 0;
            }
            if (!set_options(e, (eng_kernel)kernel, ENG_RESULT_BULK, 16, 16))
                continue;
            CHECK(eng_run(e, &job, &t), "overflow, %s, %s border: %s", eng_kernel_name((eng_kernel)kernel),
                  conv_border_name((conv_border)border), err_msg());
            for (long i = 0; i < n; ++i)
                bits += memcmp(&out.px[i], &ref.px[i], sizeof(float)) != 0;
            CHECK(nan > 0 && inf > 0 && finite > 0,
                  "the reference has NaN (%ld), infinities (%ld) and finite outputs "
                  "(%ld)",
                  nan, inf, finite);
            CHECK(conv_count_different(out.px, ref.px, n) == 0,
                  "overflow, %s kernel, %s border: the reference's result, NaN for NaN (%ld outputs differ)",
                  eng_kernel_name((eng_kernel)kernel), conv_border_name((conv_border)border),
                  conv_count_different(out.px, ref.px, n));
#ifdef CONVIS_CUDA_MOCK
            CHECK(bits > 0, "the stand-in writes a GPU's NaN: bits differ at some of the %ld NaN outputs", nan);
#endif
            if (kernel == 0 && border == 0)
                printf("overflow: %ld NaN, %ld infinite, %ld finite outputs; %ld differ from the CPU's by their bits, "
                       "none by conv_same\n",
                       nan, inf, finite, bits);
        }
    set_options(e, ENG_KERNEL_TILED, ENG_RESULT_BULK, 0, 0);
    img_plane_free(&in);
    img_plane_free(&ref);
    img_plane_free(&out);
}

/* The kernel alone (eng_timing.kernel_ms): on a small image, whose kernel
 * takes microseconds, a run measures it after its phases: a few launches
 * back to back and one after idle, finite; eng_measure gives their medians;
 * without the barrier it is not measured. On a GPU the back-to-back time a
 * launch is at most the one after idle, within a margin wide enough for a
 * busy machine; on the stand-in, whose kernels run on the CPU and whose
 * events read the host clock, the figures are only filled and finite. */
static void check_kernel_alone(eng_engine *e)
{
    int w = 16, h = 12;
    img_plane in, out;
    eng_job job;
    eng_timing t;
    eng_options o;

    img_plane_alloc(&in, w, h);
    img_plane_alloc(&out, w, h);
    ind_fill(in.px, (size_t)w * h, 31);
    job = (eng_job){&in, &out, conv_params_make(filt_preset(2), CONV_BORDER_CLAMP, false)};
    for (int kernel = 0; kernel < ENG_KERNEL_COUNT; ++kernel) {
        const char *name = eng_kernel_name((eng_kernel)kernel);
        if (!set_options(e, (eng_kernel)kernel, ENG_RESULT_BULK, 0, 0))
            continue;
        CHECK(eng_run(e, &job, &t), "%s: a run: %s", name, err_msg());
        CHECK(t.has[ENG_UPLOAD] && t.has[ENG_COMPUTE] && t.has[ENG_DOWNLOAD] && t.has[ENG_OVERHEAD],
              "%s: the phases as before", name);
        /* timed again only when the phase leaves room for two launches in
         * cuda.c's budget (a phase of at most 0.5 ms): on a busy machine the
         * stand-in's phase may not, and then nothing is measured */
        CHECK(t.has_kernel || t.ms[ENG_COMPUTE] > 0.5, "%s: the kernel alone measured after a compute phase of %.4f ms",
              name, t.ms[ENG_COMPUTE]);
        CHECK(!t.has_kernel || (t.kernel_launches >= 2 && t.kernel_launches <= 20 && isfinite(t.kernel_ms) &&
                                t.kernel_ms >= 0 && isfinite(t.kernel_one_ms) && t.kernel_one_ms >= 0),
              "%s: the kernel alone: %d launches, %g ms each, one after idle %g ms", name, t.kernel_launches,
              t.kernel_ms, t.kernel_one_ms);
        CHECK(eng_measure(e, &job, 5, &t), "%s: measured: %s", name, err_msg());
        CHECK(!t.has_kernel || (t.kernel_launches >= 2 && isfinite(t.kernel_ms) && isfinite(t.kernel_one_ms)),
              "%s: eng_measure keeps the kernel alone", name);
#ifndef CONVIS_CUDA_MOCK
        CHECK(!t.has_kernel || (t.kernel_ms > 0 && t.kernel_one_ms > 0), "%s: the kernel takes time", name);
#endif
        printf("%s kernel on %dx%d: compute phase %.4f ms; kernel alone, %d back-to-back launches: %.4f ms each; one "
               "launch after idle: %.4f ms\n",
               name, w, h, t.ms[ENG_COMPUTE], t.kernel_launches, t.kernel_ms, t.kernel_one_ms);
    }
    set_options(e, ENG_KERNEL_TILED, ENG_RESULT_BULK, 0, 0);
    o = eng_options_of(e);
    o.no_barrier = true;
    CHECK(eng_set_options(e, &o) && eng_run(e, &job, &t) && !t.has_kernel,
          "without the barrier the kernel alone is not measured");
    o.no_barrier = false;
    eng_set_options(e, &o);
    img_plane_free(&in);
    img_plane_free(&out);
}

/* What a thread other than the one that opened the engine does with it (the
 * window's worker, bench, record): the runtime's current device is the
 * thread's own, and the engine makes its own current there. */
typedef struct elsewhere {
    eng_engine *e;
    eng_job job;
    const img_plane *ref;
    bool options, ran, same, device, ran_after_trim;
    char why[512];
} elsewhere;

static void *run_elsewhere(void *arg)
{
    elsewhere *x = arg;
    eng_timing t;
    eng_device_info info;
    eng_options o = eng_options_of(x->e);
    long n = (long)x->job.in->w * x->job.in->h;

    x->options = eng_set_options(x->e, &o);
    x->ran = eng_run(x->e, &x->job, &t);
    if (!x->ran)
        snprintf(x->why, sizeof x->why, "%s", err_msg());
    x->same = x->ran && conv_count_different(x->job.out->px, x->ref->px, n) == 0;
    x->device = eng_device(x->e, &info);
    eng_trim(x->e);
    x->ran_after_trim = eng_run(x->e, &x->job, &t) && conv_count_different(x->job.out->px, x->ref->px, n) == 0;
    return NULL;
}

/* The engine opened on this thread, used from another, closed here. With
 * the stand-in it is opened on its second device, so that the other
 * thread's current device (0, its own) is not the engine's: a launch there
 * without the engine making its device current fails, as on a GPU. */
static void check_other_thread(const eng_class *cls)
{
    int w = 45, h = 31;
    img_plane in, ref, out;
    elsewhere x;
    pthread_t thread;
    eng_engine *e;

#ifdef CONVIS_CUDA_MOCK
    setenv("CONVIS_MOCK_CUDA_DEVICES", "2", 1);
    CHECK(cudaSetDevice(1) == cudaSuccess, "the stand-in's second device");
#endif
    e = eng_open(cls);
#ifdef CONVIS_CUDA_MOCK
    cudaSetDevice(0); /* this thread goes on with the first */
    CHECK(e && strstr(eng_description(e), "CUDA 1"), "the engine on device 1: %s", e ? eng_description(e) : err_msg());
#endif
    CHECK(e != NULL, "open: %s", err_msg());
    if (e) {
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&out, w, h);
        ind_fill(in.px, (size_t)w * h, 61);
        memset(&x, 0, sizeof x);
        x.e = e;
        x.job = (eng_job){&in, &out, conv_params_make(filt_preset(3), CONV_BORDER_MIRROR, true)};
        x.ref = &ref;
        conv_reference(&in, &x.job.params, &ref);
        CHECK(pthread_create(&thread, NULL, run_elsewhere, &x) == 0 && pthread_join(thread, NULL) == 0,
              "another thread");
        CHECK(x.options && x.ran && x.same, "from another thread: options, a run, the reference's result: %s", x.why);
        CHECK(x.device && x.ran_after_trim, "from another thread: the device, a trim, a run after it");
        eng_close(e); /* here, where another device is current */
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
    }
#ifdef CONVIS_CUDA_MOCK
    cudaSetDevice(0);
    unsetenv("CONVIS_MOCK_CUDA_DEVICES");
#endif
}

int main(void)
{
    char why[256];
    const eng_class *cls = eng_find("cuda");
    eng_engine *e;

    if (!eng_probe(cls, why, sizeof why)) {
        printf("skipped: cuda unavailable: %s\n", why);
        return 77;
    }
    CHECK(eng_has_options(cls), "the cuda engine has options");
    e = eng_open(cls);
    CHECK(e != NULL, "open: %s", err_msg());
    if (!e)
        return CHECK_SUMMARY();
    printf("running on %s\n", eng_description(e));
    check_kernels(e);
    check_any_size(e);
    printf("%ld runs of other geometries equal to the reference\n", check_geometry_on(e));
    check_geometry_too_wide(e);
    check_block_shapes(e);
    check_filter_changes(e);
    check_per_pixel(e);
    check_options_and_device(e);
    check_present_without_gl(e);
    check_overflow(e);
    check_kernel_alone(e);
    check_no_barrier(e, 1000, 777, "cuda");
    check_no_barrier(e, 64, 48, "cuda, a grid of 12 blocks: one wave");
#ifdef CONVIS_CUDA_MOCK
    check_quiet_race(e);
#endif
    check_tiles_on(e);
    printf("%ld layer outputs of every way, arithmetic, border and geometry compared\n", check_layer_on(e, "cuda"));
    eng_close(e);
    check_two_engines(cls);
    check_alloc_failure(cls);
    check_other_thread(cls);
#ifdef CONVIS_CUDA_MOCK
    check_mock_only(cls);
    check_faults(cls);
#endif
    return CHECK_SUMMARY();
}
