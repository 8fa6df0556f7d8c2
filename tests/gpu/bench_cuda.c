/* bench_cuda - how fast the CUDA engine is, as ratios measured in one run
 * (docs/ARCHITECTURE.md, section 6: speed is printed by a benchmark, never asserted by a
 * timed test). Each figure is the median of repetitions after a warm-up,
 * timed with cudaEvents (the engine's phases are cudaEvents too).
 *
 *   1. 8192x8192 floats: the copy kernel's bandwidth (out[i] = in[i], 8 bytes
 *      moved per element) and the tiled kernel's effective bandwidth (8 bytes
 *      per pixel: one read, one write) as a fraction of it (aim >= 0.85); the
 *      naive kernel against the tiled one; both in 16x16 and 32x8 blocks.
 *   2. 4096x4096, in a hidden window's OpenGL context: the interop tax,
 *      time(map + kernel + unmap) / time(the same kernel into a plain device
 *      buffer) (aim <= 1.15), from the engine's present and compute phases;
 *      and the copy path (download, then the GL upload) beside it. Skipped,
 *      with the reason, where there is no GL context or it is not on the
 *      CUDA device.
 *   3. 1024x1024: the per-pixel copy path's download (extrapolated from its
 *      capped run, and labelled so) against one bulk copy, and cpu-seq's
 *      whole convolution beside them: the trap that makes a naive GPU port
 *      slower than the CPU.
 *
 * Prints one summary table at the end. Exits 77 without a CUDA device, 1 when
 * a measurement fails; never on a figure below its aim (that is the table's
 * verdict column). Built only with CUDA; not a ctest test.
 *
 * Usage: bench_cuda [--reps N] (default 20) */
#define _POSIX_C_SOURCE 200809L
#include <GL/glew.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/conv3x3.h"
#include "../unit/independent.h"
#include "compute/engine.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/timing.h"
#include "platform/platform.h"

#define BIG 8192
#define MID 4096
#define SMALL 1024
#define WARMUP 3
#define MAX_ROWS 24

typedef struct row {
    char what[80], value[64], aim[24], verdict[48];
} row;

static row rows[MAX_ROWS];
static int nrows;
static int reps = 20;

static void add_row(const char *what, const char *value, const char *aim, const char *verdict)
{
    if (nrows >= MAX_ROWS)
        return;
    snprintf(rows[nrows].what, sizeof rows[nrows].what, "%s", what);
    snprintf(rows[nrows].value, sizeof rows[nrows].value, "%s", value);
    snprintf(rows[nrows].aim, sizeof rows[nrows].aim, "%s", aim);
    snprintf(rows[nrows].verdict, sizeof rows[nrows].verdict, "%s", verdict);
    ++nrows;
}

#define CK(call)                                                                                                       \
    do {                                                                                                               \
        cudaError_t e_ = (call);                                                                                       \
        if (e_ != cudaSuccess) {                                                                                       \
            fprintf(stderr, "bench_cuda: %s failed at %s:%d: %s\n", #call, __FILE__, __LINE__,                         \
                    cudaGetErrorString(e_));                                                                           \
            return false;                                                                                              \
        }                                                                                                              \
    } while (0)

/* ---- 1. kernels against the copy kernel ----------------------------------- */

enum { K_COPY, K_TILED, K_NAIVE, K_FILTER }; /* K_FILTER: conv3x3_set_filter alone */

static bool launch_one(int kind, const float *d_in, float *d_out, int w, int h, const conv_params *p, int bx, int by)
{
    int e = kind == K_COPY     ? conv3x3_launch_copy(d_in, d_out, (size_t)w * (size_t)h, 256, 0)
            : kind == K_TILED  ? conv3x3_launch_tiled(d_in, d_out, w, h, bx, by, 0)
            : kind == K_FILTER ? conv3x3_set_filter(p, 0)
                               : conv3x3_launch_naive(d_in, d_out, w, h, p, bx, by, 0);
    CK((cudaError_t)e);
    return true;
}

/* Median milliseconds of one launch of `kind`, each timed by its own pair
 * of events, after WARMUP untimed launches. The tiled kernel's filter goes
 * to the device once, before (as the engine sends it only when it changed);
 * K_FILTER times that upload itself (a 44-byte copy from pageable memory to
 * __constant__: what the engine's upload phase pays when the filter changed). */
static bool time_kernel(int kind, const float *d_in, float *d_out, int w, int h, const conv_params *p, int bx, int by,
                        double *median)
{
    cudaEvent_t a, b;
    double *ms = malloc(sizeof *ms * (size_t)reps);
    bool ok = ms != NULL;

    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    if (kind == K_TILED)
        CK((cudaError_t)conv3x3_set_filter(p, 0));
    for (int i = 0; ok && i < WARMUP; ++i)
        ok = launch_one(kind, d_in, d_out, w, h, p, bx, by);
    for (int i = 0; ok && i < reps; ++i) {
        float f = 0;
        ok = cudaEventRecord(a, 0) == cudaSuccess && launch_one(kind, d_in, d_out, w, h, p, bx, by) &&
             cudaEventRecord(b, 0) == cudaSuccess && cudaEventSynchronize(b) == cudaSuccess &&
             cudaEventElapsedTime(&f, a, b) == cudaSuccess;
        if (ok)
            ms[i] = f;
    }
    if (ok)
        *median = tim_stats_of(ms, (size_t)reps).median;
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    free(ms);
    return ok;
}

static bool bench_kernels(void)
{
    const int w = BIG, h = BIG;
    size_t n = (size_t)w * h, bytes = n * sizeof(float);
    float *h_in = malloc(bytes), *d_in = NULL, *d_out = NULL;
    conv_params p;
    filt_kernel k;
    double copy_ms = 0, gbs_copy, upload_ms = 0;
    char value[64], what[80], verdict[48];
    static const int shapes[][2] = {{16, 16}, {32, 8}};

    if (!h_in)
        return false;
    ind_fill(h_in, n, 1);
    filt_parse("gaussian", &k);
    p = conv_params_make(&k, CONV_BORDER_CLAMP, false);
    CK(cudaMalloc((void **)&d_in, bytes));
    CK(cudaMalloc((void **)&d_out, bytes));
    CK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    free(h_in);

    if (!time_kernel(K_COPY, d_in, d_out, w, h, &p, 0, 0, &copy_ms))
        return false;
    gbs_copy = 8.0 * (double)n / (copy_ms * 1e-3) / 1e9;
    snprintf(value, sizeof value, "%.3f ms, %.0f GB/s", copy_ms, gbs_copy);
    add_row("8192x8192 copy kernel (8 B/element)", value, "yardstick", "");
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        int bx = shapes[s][0], by = shapes[s][1];
        double tiled = 0, naive = 0, frac;
        if (!time_kernel(K_TILED, d_in, d_out, w, h, &p, bx, by, &tiled) ||
            !time_kernel(K_NAIVE, d_in, d_out, w, h, &p, bx, by, &naive))
            return false;
        frac = copy_ms / tiled; /* = effective bandwidth of tiled (8 B/pixel) / copy bandwidth */
        snprintf(what, sizeof what, "8192x8192 tiled %dx%d: bandwidth / copy's", bx, by);
        snprintf(value, sizeof value, "%.3f (%.3f ms, %.0f GB/s)", frac, tiled, 8.0 * (double)n / (tiled * 1e-3) / 1e9);
        snprintf(verdict, sizeof verdict, "%s", frac >= 0.85 ? "meets aim" : "below aim");
        add_row(what, value, ">= 0.85", verdict);
        snprintf(what, sizeof what, "8192x8192 naive %dx%d / tiled %dx%d time", bx, by, bx, by);
        snprintf(value, sizeof value, "%.3f (%.3f ms vs %.3f ms)", naive / tiled, naive, tiled);
        add_row(what, value, "(teaching)", "");
    }
    if (!time_kernel(K_FILTER, d_in, d_out, w, h, &p, 0, 0, &upload_ms))
        return false;
    snprintf(value, sizeof value, "%.4f ms", upload_ms);
    add_row("filter to __constant__ (conv3x3_set_filter)", value, "(upload phase)", "");
    cudaFree(d_in);
    cudaFree(d_out);
    return true;
}

/* ---- 2. the interop tax ----------------------------------------------------- */

static double median_of(double *v, int n)
{
    return tim_stats_of(v, (size_t)n).median;
}

/* Presents `reps` frames after a warm-up; medians of the present phase and,
 * on the copy path, of compute + download + present. */
static bool time_present(eng_engine *e, const eng_job *job, GLuint buf, double *present_ms, double *whole_ms)
{
    double *a = malloc(sizeof *a * (size_t)reps), *b = malloc(sizeof *b * (size_t)reps);
    eng_timing t;
    bool ok = a && b;
    for (int i = 0; ok && i < WARMUP; ++i)
        ok = eng_present(e, job, buf, &t);
    for (int i = 0; ok && i < reps; ++i) {
        ok = eng_present(e, job, buf, &t);
        a[i] = t.ms[ENG_PRESENT];
        b[i] = t.ms[ENG_COMPUTE] + t.ms[ENG_DOWNLOAD] + t.ms[ENG_PRESENT];
    }
    if (ok) {
        *present_ms = median_of(a, reps);
        *whole_ms = median_of(b, reps);
    } else {
        fprintf(stderr, "bench_cuda: present: %s\n", err_msg());
    }
    free(a);
    free(b);
    return ok;
}

static bool bench_interop(void)
{
    const int w = MID, h = MID;
    size_t n = (size_t)w * h;
    plat_window *win;
    eng_engine *e;
    eng_device_info info;
    eng_options o;
    eng_timing t;
    img_plane in, out;
    eng_job job;
    GLuint buf = 0;
    double interop = 0, plain = 0, copy_present = 0, copy_whole = 0, dummy;
    char value[96], why[200];
    bool ok = false;

    win = plat_open("bench_cuda", 64, 64, PLAT_WINDOW_HIDDEN | PLAT_WINDOW_OFFSCREEN);
    if (!win) {
        snprintf(why, sizeof why, "skipped: no GL context: %.60s", err_msg());
        add_row("4096x4096 interop tax", why, "<= 1.15", "not run");
        return true;
    }
    glewExperimental = GL_TRUE;
    glewInit();
    glGetError();
    printf("OpenGL %s on %s, through SDL's %s video driver\n", (const char *)glGetString(GL_VERSION),
           (const char *)glGetString(GL_RENDERER), plat_video_driver());
    e = eng_open(eng_find("cuda"));
    if (!e) {
        fprintf(stderr, "bench_cuda: cuda engine in a GL context: %s\n", err_msg());
        goto close_window;
    }
    if (!eng_device(e, &info)) {
        fprintf(stderr, "bench_cuda: device: %s\n", err_msg());
        goto close_engine;
    }
    if (info.present != ENG_PRESENT_INTEROP) {
        snprintf(why, sizeof why, "skipped: %.80s", info.present_why);
        add_row("4096x4096 interop tax", why, "<= 1.15", "not run");
        printf("interop not possible here: %s (GL renderer %s)\n", info.present_why, glGetString(GL_RENDERER));
        ok = true;
        goto close_engine;
    }
    img_plane_alloc(&in, w, h);
    img_plane_alloc(&out, w, h);
    ind_fill(in.px, n, 2);
    job = (eng_job){&in, &out, conv_params_make(filt_preset(1), CONV_BORDER_CLAMP, false)};
    /* immutable storage, as the window's buffer: registered with CUDA once */
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferStorage(GL_ARRAY_BUFFER, (GLsizeiptr)(n * sizeof(float)), NULL, GL_DYNAMIC_STORAGE_BIT);
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    memset(&o, 0, sizeof o);
    o.result = ENG_RESULT_INTEROP;
    if (!eng_set_options(e, &o) || !time_present(e, &job, buf, &interop, &dummy))
        goto free_all;
    o.result = ENG_RESULT_BULK;
    if (!eng_set_options(e, &o) || !eng_measure(e, &job, reps, &t)) {
        fprintf(stderr, "bench_cuda: run: %s\n", err_msg());
        goto free_all;
    }
    plain = t.ms[ENG_COMPUTE];
    if (!time_present(e, &job, buf, &copy_present, &copy_whole)) /* BULK present: the copy path */
        goto free_all;
    snprintf(value, sizeof value, "%.3f (%.3f ms vs %.3f ms)", interop / plain, interop, plain);
    add_row("4096x4096 interop tax: map+kernel+unmap / kernel", value, "<= 1.15",
            interop / plain <= 1.15 ? "meets aim" : "above aim");
    snprintf(value, sizeof value, "%.3f ms (GL upload %.3f ms)", copy_whole, copy_present);
    add_row("4096x4096 copy path: kernel+download+GL upload", value, "(teaching)", "");
    ok = true;
free_all:
    eng_forget_buffer(e, buf);
    glDeleteBuffers(1, &buf);
    img_plane_free(&in);
    img_plane_free(&out);
close_engine:
    eng_close(e);
close_window:
    plat_close(win);
    return ok;
}

/* ---- 3. the per-pixel trap ------------------------------------------------- */

static bool bench_per_pixel(void)
{
    const int w = SMALL, h = SMALL;
    eng_engine *e = eng_open(eng_find("cuda")), *seq = eng_open(eng_find("cpu-seq"));
    img_plane in, out;
    eng_job job;
    eng_timing bulk, pp, cpu;
    eng_options o;
    char value[128];
    bool ok = false;

    if (!e || !seq) {
        fprintf(stderr, "bench_cuda: %s\n", err_msg());
        goto close;
    }
    img_plane_alloc(&in, w, h);
    img_plane_alloc(&out, w, h);
    ind_fill(in.px, (size_t)w * h, 3);
    job = (eng_job){&in, &out, conv_params_make(filt_preset(1), CONV_BORDER_CLAMP, false)};
    memset(&o, 0, sizeof o);
    if (!eng_measure(e, &job, reps, &bulk))
        goto fail;
    o.result = ENG_RESULT_PER_PIXEL;
    if (!eng_set_options(e, &o) || !eng_measure(e, &job, 3, &pp) || !eng_measure(seq, &job, 3, &cpu))
        goto fail;
    snprintf(value, sizeof value, "%.3f ms (%.2f us/pixel)", bulk.ms[ENG_DOWNLOAD],
             1000.0 * bulk.ms[ENG_DOWNLOAD] / ((double)w * h));
    add_row("1024x1024 bulk download", value, "", "");
    snprintf(value, sizeof value, "%.1f ms (%s from %lld px)", pp.ms[ENG_DOWNLOAD],
             pp.extrapolated ? "extrapolated" : "measured", pp.measured_px);
    add_row("1024x1024 per-pixel download", value, "", "");
    snprintf(value, sizeof value, "%.0f x", pp.ms[ENG_DOWNLOAD] / bulk.ms[ENG_DOWNLOAD]);
    add_row("1024x1024 per-pixel / bulk download", value, "(teaching)", "");
    snprintf(value, sizeof value, "GPU bulk %.2f, GPU per-pixel %.1f, cpu-seq %.2f", eng_total_ms(&bulk),
             eng_total_ms(&pp), eng_total_ms(&cpu));
    add_row("1024x1024 whole ms", value, "(teaching)", "");
    ok = true;
    goto free_planes;
fail:
    fprintf(stderr, "bench_cuda: per-pixel: %s\n", err_msg());
free_planes:
    img_plane_free(&in);
    img_plane_free(&out);
close:
    eng_close(e);
    eng_close(seq);
    return ok;
}

static void print_table(const char *device)
{
    printf("\nbench_cuda on %s, median of %d after %d warm-up\n", device, reps, WARMUP);
    printf("%-52s  %-44s  %-10s  %s\n", "MEASUREMENT", "VALUE", "AIM", "VERDICT");
    for (int i = 0; i < nrows; ++i)
        printf("%-52s  %-44s  %-10s  %s\n", rows[i].what, rows[i].value, rows[i].aim, rows[i].verdict);
}

int main(int argc, char **argv)
{
    char why[256];
    struct cudaDeviceProp prop;
    bool ok;

    if (argc == 3 && strcmp(argv[1], "--reps") == 0)
        reps = atoi(argv[2]) > 0 ? atoi(argv[2]) : reps;
    if (!eng_probe(eng_find("cuda"), why, sizeof why)) {
        printf("skipped: cuda unavailable: %s\n", why);
        return 77;
    }
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
        snprintf(prop.name, sizeof prop.name, "?");
    ok = bench_kernels();
    ok = bench_interop() && ok;
    ok = bench_per_pixel() && ok;
    print_table(prop.name);
    return ok ? 0 : 1;
}
