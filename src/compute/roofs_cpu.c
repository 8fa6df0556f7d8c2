/* roofs_cpu.c - the roofs of a roofline on the CPU engines (engine.h,
 * eng_roofs), measured on the engine's own threads and vector width.
 *
 * memory   memcpy of a buffer of ROOF_COPY_BYTES (larger than the caches of
 *          most CPUs) into another, each thread its own slice; the bytes
 *          read plus those written, a second.
 * compute  ROOF_CHAINS independent chains of x = x * a + b per thread (a
 *          multiply, then an add: the convolution's arithmetic, never fused:
 *          -ffp-contract=off), scalar for cpu-seq, in vectors of 8 floats
 *          (AVX2 where the CPU has it, as cpu-par's loop) for cpu-simd and
 *          cpu-par; two operations a lane a step.
 * Each is the fastest of ROOF_RUNS runs after a warm-up, timed by the
 * monotonic clock from before the threads start to after the last ends (a
 * roof is the most the machine does, so the best run, not the median).
 * This file is built without the compiler's vectoriser (CMakeLists.txt), so
 * the scalar chains stay scalar; the vector ones are written in vectors. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "core/tr.h"
#include "engines.h"

#define ROOF_COPY_BYTES ((size_t)64 << 20)
#define ROOF_CHAINS 12
#define ROOF_LANES 8
#define ROOF_RUNS 3
#define ROOF_TARGET_MS 15.0 /* a compute run's length on each thread */

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define ROOF_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define ROOF_CLONES
#endif

typedef float roof_v8f __attribute__((vector_size(32)));

typedef struct roof_share {
    bool vector;
    long steps;      /* compute: steps of every chain */
    const char *src; /* memory: this thread's slice */
    char *dst;
    size_t bytes;
    volatile float sink; /* the chains' sum, so that they are computed */
} roof_share;

static float chains_scalar(long steps)
{
    float x[ROOF_CHAINS], sum = 0;
    const float a = 0.999f, b = 0.001f;
    for (int c = 0; c < ROOF_CHAINS; ++c)
        x[c] = 1.0f + 0.001f * (float)c;
    for (long i = 0; i < steps; ++i)
        for (int c = 0; c < ROOF_CHAINS; ++c)
            x[c] = x[c] * a + b;
    for (int c = 0; c < ROOF_CHAINS; ++c)
        sum += x[c];
    return sum;
}

ROOF_CLONES
static float chains_vector(long steps)
{
    roof_v8f x[ROOF_CHAINS];
    const float a = 0.999f, b = 0.001f;
    float sum = 0;
    for (int c = 0; c < ROOF_CHAINS; ++c)
        for (int l = 0; l < ROOF_LANES; ++l)
            x[c][l] = 1.0f + 0.001f * (float)(c * ROOF_LANES + l);
    for (long i = 0; i < steps; ++i)
        for (int c = 0; c < ROOF_CHAINS; ++c)
            x[c] = x[c] * a + b;
    for (int c = 0; c < ROOF_CHAINS; ++c)
        for (int l = 0; l < ROOF_LANES; ++l)
            sum += x[c][l];
    return sum;
}

static void *share_run(void *arg)
{
    roof_share *r = arg;
    if (r->dst)
        memcpy(r->dst, r->src, r->bytes);
    else
        r->sink = r->vector ? chains_vector(r->steps) : chains_scalar(r->steps);
    return NULL;
}

/* One run on `threads` threads (the caller is the first), its wall time in
 * ms; -1 when a thread could not start (the ones that did are joined). */
static double run_once(roof_share *share, int threads)
{
    pthread_t tid[ENG_MAX_BANDS];
    int started = 0;
    bool ok = true;
    double t0 = tim_now_ms(), ms;
    for (int i = 1; i < threads && ok; ++i)
        if (pthread_create(&tid[i], NULL, share_run, &share[i]) == 0)
            ++started;
        else
            ok = false;
    share_run(&share[0]);
    for (int i = 1; i <= started; ++i)
        pthread_join(tid[i], NULL);
    ms = tim_now_ms() - t0;
    return ok ? ms : -1.0;
}

/* The best of ROOF_RUNS runs after a warm-up; -1 when threads fail. */
static double best_of(roof_share *share, int threads)
{
    double best = -1;
    for (int r = 0; r <= ROOF_RUNS; ++r) {
        double ms = run_once(share, threads);
        if (ms < 0)
            return -1;
        if (r > 0 && (best < 0 || ms < best))
            best = ms;
    }
    return best;
}

static bool memory_roof(int threads, eng_roofs *out)
{
    roof_share share[ENG_MAX_BANDS];
    char *src = malloc(ROOF_COPY_BYTES), *dst = malloc(ROOF_COPY_BYTES);
    size_t slice = ROOF_COPY_BYTES / (size_t)threads;
    double ms;
    if (!src || !dst) {
        free(src);
        free(dst);
        return err_set("out of memory for the copy of the memory roof (%zu MiB)", ROOF_COPY_BYTES >> 20);
    }
    memset(src, 1, ROOF_COPY_BYTES); /* the pages touched before timing */
    memset(dst, 0, ROOF_COPY_BYTES);
    memset(share, 0, sizeof share);
    for (int i = 0; i < threads; ++i) {
        share[i].src = src + (size_t)i * slice;
        share[i].dst = dst + (size_t)i * slice;
        share[i].bytes = i == threads - 1 ? ROOF_COPY_BYTES - (size_t)i * slice : slice;
    }
    ms = best_of(share, threads);
    free(src);
    free(dst);
    if (ms <= 0)
        return err_set("the memory roof's threads could not start");
    out->copy_bytes = (double)ROOF_COPY_BYTES;
    out->memory_gb_s = 2.0 * (double)ROOF_COPY_BYTES / (ms * 1e-3) / 1e9;
    return true;
}

static bool compute_roof(int threads, bool vector, eng_roofs *out)
{
    roof_share share[ENG_MAX_BANDS];
    long steps = 1 << 14;
    double ms, t0;
    memset(share, 0, sizeof share);
    t0 = tim_now_ms(); /* one thread's pace, to size the runs */
    share[0].vector = vector, share[0].steps = steps;
    share_run(&share[0]);
    ms = tim_now_ms() - t0;
    if (ms > 0)
        steps = (long)((double)steps * ROOF_TARGET_MS / ms) + 1;
    for (int i = 0; i < threads; ++i)
        share[i].vector = vector, share[i].steps = steps;
    ms = best_of(share, threads);
    if (ms <= 0)
        return err_set("the compute roof's threads could not start");
    out->compute_gflops = 2.0 * (double)steps * ROOF_CHAINS * (vector ? ROOF_LANES : 1) * threads / (ms * 1e-3) / 1e9;
    return true;
}

static const char *roof_isa(void)
{
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? "AVX2" : "SSE2";
#else
    return "vector";
#endif
}

bool eng_cpu_roofs(int threads, bool vector, eng_roofs *out)
{
    memset(out, 0, sizeof *out);
    threads = threads < 1 ? 1 : threads > ENG_MAX_BANDS ? ENG_MAX_BANDS : threads;
    if (!memory_roof(threads, out) || !compute_roof(threads, vector, out))
        return false;
    out->threads = threads;
    out->lanes = vector ? ROOF_LANES : 1;
    out->clock = N_("monotonic clock");
    if (vector)
        snprintf(out->how, sizeof out->how,
                 ngettext("memcpy of %zu MiB on %d thread; %d chains of multiply then add, %d lanes (%s), on %d "
                          "thread",
                          "memcpy of %zu MiB on %d threads; %d chains of multiply then add, %d lanes (%s), on %d "
                          "threads",
                          (unsigned long)threads),
                 ROOF_COPY_BYTES >> 20, threads, ROOF_CHAINS, ROOF_LANES, roof_isa(), threads);
    else
        snprintf(out->how, sizeof out->how, _("memcpy of %zu MiB on 1 thread; %d chains of multiply then add, scalar"),
                 ROOF_COPY_BYTES >> 20, ROOF_CHAINS);
    return true;
}

bool eng_cpu_roofs_scalar(void *state, eng_roofs *out)
{
    (void)state;
    return eng_cpu_roofs(1, false, out);
}
