/* cpu_par.c - the fair CPU: every core, vectorised.
 *
 * The image's outputs, in raster order, are split into one band per online
 * CPU (rows, or parts of rows when the image has fewer rows than CPUs), or
 * fewer where a band would hold less than MIN_BAND_OUTPUTS (a small image
 * runs on fewer threads, one when it is tiny: handing work to a thread
 * costs more than it saves there); the threads take the bands one at a
 * time (below). Inside a band, the pixels away from the border are computed
 * by a loop the compiler vectorises: the nine neighbours are plain loads from
 * three rows, and conv_combine (core/conv_pixel.h) does the arithmetic, lane
 * by lane, in the same order as the scalar code, so the result equals the
 * reference exactly. The one-pixel frame goes through conv_pixel and its
 * border rule. On x86-64 the band loop is built twice (AVX2 and the SSE2
 * baseline) and the CPU picks one at load time.
 *
 * The threads are started once, when the engine first runs, and parked
 * between runs (a pool); after its bands a thread watches for the next run
 * for SPIN_US before it parks, so runs in a row start without a wake-up. The calling thread works too: it and the pool's
 * threads take bands, one at a time, until none is left. So a thread that
 * the system does not schedule in time (other programs busy on every core:
 * a new or woken thread may then wait for the scheduler's next tick, 4 ms
 * where the kernel ticks 250 times a second) finds no band left and
 * parks again, and the run never waits for it: its bands ran on the
 * threads that were there.
 *
 * Phases: compute is the busiest thread's time (threads run side by side);
 * overhead is the rest of the wall time: handing out the bands, waking
 * the threads and waiting for the last band. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/err.h"
#include "core/tr.h"
#include "core/timing.h"
#include "engines.h"

#define MAX_THREADS ENG_MAX_BANDS
/* A band of fewer outputs costs more to hand to another thread than it
 * saves: waking a parked thread takes tens of microseconds, the vector loop
 * does 64 Ki outputs in about as long. Small images use fewer threads. */
#define MIN_BAND_OUTPUTS 65536
/* How long a pool thread that finished its bands watches for the next run
 * before it parks: runs in a row (a measurement's repetitions, the sweep)
 * then start at once, without a wake-up each. */
#define SPIN_US 200.0

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VECTOR_CLONES
#endif

typedef struct band {
    const eng_job *job;
    long i0, i1; /* outputs [i0, i1) in raster order */
    double ms;   /* this band's compute time */
    int runner;  /* who ran it: 0 the caller, k the pool's thread k */
} band;

typedef struct par_state par_state;

typedef struct worker {
    par_state *owner;
    int id; /* 1 .. threads-1 */
    pthread_t tid;
} worker;

struct par_state {
    int threads; /* bands a run: one per online CPU (1 for cpu-simd) */
    /* the pool: threads-1 threads, started at the first run */
    int started; /* pool threads running */
    worker workers[MAX_THREADS];
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    unsigned long generation; /* counts runs handed out */
    bool quit;
    /* the run under way (under lock) */
    band bands[MAX_THREADS];
    int count;   /* bands of this run */
    int next;    /* the next band to take */
    int running; /* bands taken and not finished */
};

/* n outputs whose whole window is inside the image, into dst[0..n): r0,
 * r1, r2 point at the first output's column in the rows above, at and
 * below it. */
VECTOR_CLONES
static void interior_run(const float *restrict r0, const float *restrict r1, const float *restrict r2,
                         float *restrict dst, int n, const conv_params *p)
{
    float k[9], div = p->divisor;
    for (int t = 0; t < 9; ++t)
        k[t] = p->weight[t];
    for (int i = 0; i < n; ++i) {
        float v[9] = {r0[i - 1], r0[i], r0[i + 1], r1[i - 1], r1[i], r1[i + 1], r2[i - 1], r2[i], r2[i + 1]};
        dst[i] = conv_combine(v, k, div);
    }
}

/* Pixels of row y in [x0, x1) whose whole window is inside the image. */
static void interior_row(const float *in, float *out, int w, int y, int x0, int x1, const conv_params *p)
{
    const float *r1 = in + (long)y * w;
    interior_run(r1 - w + x0, r1 + x0, r1 + w + x0, out + (long)y * w + x0, x1 - x0, p);
}

/* Eight floats in one vector register (GCC's and clang's vector types: AVX2
 * in the avx2 clone, two SSE registers in the default one), loaded from
 * anywhere by a copy (never passed or returned: no ABI of its own). */
typedef float v8f __attribute__((vector_size(32)));

/* The same for a window of any size and geometry: n outputs side by side
 * of one output row, `top` the first one's top-left tap and `row_step` the
 * floats from one row of taps to the next (dilation rows of the image, or
 * one row of a gathered edge: edge_run); at stride 1 LANES * VECS at a time
 * in vector registers (enough of them that each add need not wait for the
 * one before), each lane's products added in tap order from 0 as
 * conv_pixel adds them; the last few, and every output at a larger stride
 * (its inputs are not side by side), one by one in the same order. */
#define LANES 8
#define VECS 4
VECTOR_CLONES
static void interior_run_any(const float *top, long row_step, int n, float *restrict dst, const conv_params *p)
{
    int st = p->stride, d = p->dilation, i = 0;
    for (; st == 1 && i + LANES * VECS <= n; i += LANES * VECS) {
        v8f acc[VECS] = {{0}};
        for (int j = 0, t = 0; j < p->kh; ++j) {
            const float *row = top + (long)j * row_step + i;
            for (int c = 0; c < p->kw; ++c, ++t)
                for (int v = 0; v < VECS; ++v) {
                    v8f x;
                    memcpy(&x, row + c * d + v * LANES, sizeof x);
                    acc[v] += x * p->weight[t];
                }
        }
        for (int v = 0; v < VECS; ++v) {
            acc[v] /= p->divisor;
            memcpy(dst + i + v * LANES, &acc[v], sizeof acc[v]);
        }
    }
    for (; i < n; ++i) {
        const float *first = top + (long)i * st;
        float sum = 0.0f;
        for (int j = 0, t = 0; j < p->kh; ++j)
            for (int c = 0; c < p->kw; ++c, ++t)
                sum += conv_product(first[(long)j * row_step + c * d], p->weight[t]);
        dst[i] = conv_finish(sum, p->divisor);
    }
}

/* The floats edge_run gathers for outputs [x0, x1) of a row: kh rows of
 * the columns their windows cover. */
static long edge_words(int x0, int x1, const conv_params *p)
{
    return (long)p->kh * ((long)(x1 - x0 - 1) * p->stride + (long)p->dilation * (p->kw - 1) + 1);
}

/* Outputs [x0, x1) of output row y whose windows reach past the image (a
 * window other than the plain 3x3): the inputs they read gathered into buf
 * (edge_words of them) by the border rule (0 where it reads zero), kh rows
 * of the columns they cover, then the vector loop over them: the same
 * values multiplied and added in the same order as conv_pixel_any, whose
 * one output at a time, each tap through the border rule, took most of a
 * large window's time on a few edge pixels. */
static void edge_run(const eng_job *job, int y, int x0, int x1, float *buf)
{
    const img_plane *in = job->in;
    const conv_params *p = &job->params;
    int c0 = x0 * p->stride - p->pad_x, y0 = y * p->stride - p->pad_y;
    long span = edge_words(x0, x1, p) / p->kh;
    for (int j = 0; j < p->kh; ++j)
        for (long c = 0; c < span; ++c)
            buf[(long)j * span + c] = conv_sample(in->px, in->w, in->h, c0 + (int)c, y0 + j * p->dilation, p->border);
    interior_run_any(buf, span, x1 - x0, job->out->px + (long)y * job->out->w + x0, p);
}

static void border_pixel(const eng_job *job, int x, int y)
{
    const img_plane *in = job->in;
    job->out->px[(long)y * job->out->w + x] = conv_pixel(in->px, in->w, in->h, x, y, &job->params);
}

/* The outputs along an axis of n inputs (k taps, pad before) whose whole
 * window is inside: [*lo, *hi). */
static void interior_span(int n, int k, int pad, const conv_params *p, int *lo, int *hi)
{
    int extent = p->dilation * (k - 1) + 1, last = n - extent + pad; /* the last output's first tap */
    *lo = (pad + p->stride - 1) / p->stride;
    *hi = last < 0 ? 0 : last / p->stride + 1;
}

static void run_band(band *b)
{
    const img_plane *in = b->job->in;
    const conv_params *p = &b->job->params;
    int w = in->w, ow = b->job->out->w, ix0, ix1, iy0, iy1;
    bool three = p->kw == 3 && p->kh == 3 && conv_plain(p);
    double t0 = tim_now_ms();
    /* a large window's edges, gathered (edge_run); the plain 3x3's one-pixel ring stays one by one */
    float *edge = three ? NULL : malloc(sizeof(float) * (size_t)edge_words(0, ow, p));

    interior_span(w, p->kw, p->pad_x, p, &ix0, &ix1);
    interior_span(in->h, p->kh, p->pad_y, p, &iy0, &iy1);
    for (long row_start = b->i0 - b->i0 % ow; row_start < b->i1; row_start += ow) {
        int y = (int)(row_start / ow);
        int x0 = row_start < b->i0 ? (int)(b->i0 - row_start) : 0;
        int x1 = row_start + ow > b->i1 ? (int)(b->i1 - row_start) : ow;
        int lo = x0 > ix0 ? x0 : ix0, hi = x1 < ix1 ? x1 : ix1;
        if (y < iy0 || y >= iy1 || lo >= hi) { /* a border row: every pixel through the border rule */
            if (edge)
                edge_run(b->job, y, x0, x1, edge);
            for (int x = x0; !edge && x < x1; ++x)
                border_pixel(b->job, x, y);
            continue;
        }
        if (edge && x0 < lo) /* the left edge */
            edge_run(b->job, y, x0, lo, edge);
        for (int x = x0; !edge && x < lo; ++x)
            border_pixel(b->job, x, y);
        if (three)
            interior_row(in->px, b->job->out->px, w, y, lo, hi, p);
        else
            interior_run_any(in->px + (long)(y * p->stride - p->pad_y) * w + (long)lo * p->stride - p->pad_x,
                             (long)p->dilation * w, hi - lo, b->job->out->px + (long)y * ow + lo, p);
        if (edge && hi < x1) /* the right edge */
            edge_run(b->job, y, hi, x1, edge);
        for (int x = hi; !edge && x < x1; ++x)
            border_pixel(b->job, x, y);
    }
    free(edge);
    b->ms = tim_now_ms() - t0;
}

/* Takes and runs bands of the run under way until none is left; `runner`
 * says who. Called with the lock held; returns with it held. */
static void take_bands(par_state *s, int runner)
{
    while (s->next < s->count) {
        band *b = &s->bands[s->next++];
        ++s->running;
        b->runner = runner;
        pthread_mutex_unlock(&s->lock);
        run_band(b);
        pthread_mutex_lock(&s->lock);
        __atomic_store_n(&s->running, s->running - 1, __ATOMIC_RELEASE); /* seen by a watching caller */
        if (s->running == 0 && s->next >= s->count)
            pthread_cond_signal(&s->done);
    }
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("pause");
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* Watches for a run after `seen` for SPIN_US, without the lock. */
static void spin_for_next(par_state *s, unsigned long seen)
{
    double until = tim_now_ms() + SPIN_US / 1000.0;
    while (__atomic_load_n(&s->generation, __ATOMIC_ACQUIRE) == seen && !__atomic_load_n(&s->quit, __ATOMIC_ACQUIRE)) {
        for (int i = 0; i < 64; ++i)
            cpu_relax();
        if (tim_now_ms() > until)
            break;
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    par_state *s = w->owner;
    unsigned long seen = 0;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        if (s->generation == seen && !s->quit) { /* a moment's watch, then parked */
            pthread_mutex_unlock(&s->lock);
            spin_for_next(s, seen);
            pthread_mutex_lock(&s->lock);
        }
        while (!s->quit && s->generation == seen)
            pthread_cond_wait(&s->go, &s->lock);
        if (s->quit)
            break;
        seen = s->generation;
        take_bands(s, w->id); /* none left when it woke late: back to watching */
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Starts the pool's threads (those that can start: fewer only makes the
 * caller do more). */
static void start_pool(par_state *s)
{
    for (int i = 1; i < s->threads && s->started == i - 1; ++i) {
        s->workers[i].owner = s;
        s->workers[i].id = i;
        if (pthread_create(&s->workers[i].tid, NULL, worker_main, &s->workers[i]) != 0)
            break;
        s->started = i;
    }
}

/* One thread per online CPU, or CONVIS_CPU_THREADS (1 to 256) where set:
 * to compare thread counts, or to test the pool with more threads than
 * the machine has cores. */
int eng_par_threads(void)
{
    const char *env = getenv("CONVIS_CPU_THREADS");
    long n = env && atol(env) > 0 ? atol(env) : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    if (n > MAX_THREADS)
        n = MAX_THREADS;
    return (int)n;
}

static void *par_open(void)
{
    par_state *s = calloc(1, sizeof *s);
    if (!s) {
        err_set("out of memory");
        return NULL;
    }
    s->threads = eng_par_threads();
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->go, NULL);
    pthread_cond_init(&s->done, NULL);
    return s;
}

/* cpu-simd: the same vectorised loop on one thread, so the vector lanes'
 * gain and the cores' gain are measured apart (cpu-seq -> cpu-simd ->
 * cpu-par). */
static void *simd_open(void)
{
    par_state *s = par_open();
    if (s)
        s->threads = 1;
    return s;
}

static void par_close(void *state)
{
    par_state *s = state;
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    __atomic_store_n(&s->quit, true, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&s->go);
    pthread_mutex_unlock(&s->lock);
    for (int i = 1; i <= s->started; ++i)
        pthread_join(s->workers[i].tid, NULL);
    pthread_cond_destroy(&s->go);
    pthread_cond_destroy(&s->done);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static bool par_run(void *state, const eng_job *job, eng_timing *timing)
{
    par_state *s = state;
    long total = (long)job->out->w * job->out->h;
    long by_size = (total + MIN_BAND_OUTPUTS - 1) / MIN_BAND_OUTPUTS; /* bands worth a thread */
    int n = s->threads < by_size ? s->threads : (int)by_size;
    double t0 = tim_now_ms(), busy[MAX_THREADS] = {0}, busiest = 0.0, wall;
    int number[MAX_THREADS]; /* a runner's number in this run, by its first band; -1 none */
    int used = 0;

    if (n > 1 && s->started == 0)
        start_pool(s);
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < n; ++i) {
        s->bands[i].job = job;
        s->bands[i].i0 = eng_band_first(total, n, i);
        s->bands[i].i1 = eng_band_first(total, n, i + 1);
        s->bands[i].ms = 0.0;
        s->bands[i].runner = 0;
    }
    s->count = n;
    s->next = 0;
    s->running = 0;
    if (n > 1 && s->started > 0) {
        __atomic_store_n(&s->generation, s->generation + 1, __ATOMIC_RELEASE); /* seen by a watching thread */
        pthread_cond_broadcast(&s->go);
    }
    take_bands(s, 0);     /* the caller works too, until no band is left */
    if (s->running > 0) { /* only bands a pool thread is running: watched a moment, then waited for */
        double until = tim_now_ms() + SPIN_US / 1000.0;
        pthread_mutex_unlock(&s->lock);
        while (__atomic_load_n(&s->running, __ATOMIC_ACQUIRE) > 0 && tim_now_ms() < until)
            for (int i = 0; i < 64; ++i)
                cpu_relax();
        pthread_mutex_lock(&s->lock);
    }
    while (s->running > 0)
        pthread_cond_wait(&s->done, &s->lock);
    s->count = 0;
    pthread_mutex_unlock(&s->lock);
    wall = tim_now_ms() - t0;

    for (int i = 0; i <= s->started; ++i)
        number[i] = -1;
    for (int i = 0; i < n; ++i) {
        int r = s->bands[i].runner;
        busy[r] += s->bands[i].ms;
        if (number[r] < 0)
            number[r] = used++;
        timing->launch.band_thread[i] = (unsigned char)number[r];
    }
    for (int i = 0; i <= s->started; ++i) /* the caller and every pool thread (one may run a band > n) */
        if (busy[i] > busiest)
            busiest = busy[i];
    timing->ms[ENG_COMPUTE] = busiest;
    timing->ms[ENG_OVERHEAD] = wall > busiest ? wall - busiest : 0.0;
    timing->has[ENG_COMPUTE] = timing->has[ENG_OVERHEAD] = true;
    timing->clock = N_("monotonic clock");
    timing->launch.bands = n;
    timing->threads = used;
    return true;
}

long eng_par_band_outputs(void)
{
    return MIN_BAND_OUTPUTS;
}

static const char *vector_isa(void)
{
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? "AVX2" : "SSE2";
#elif defined(__x86_64__)
    return "SSE2";
#elif defined(__aarch64__)
    return "NEON";
#else
    return "vectorised";
#endif
}

static void par_describe(void *state, char *buf, size_t size)
{
    par_state *s = state;
    snprintf(buf, size, ngettext("CPU, %d thread, %s", "CPU, %d threads, %s", (unsigned long)s->threads), s->threads,
             vector_isa());
}

/* What one run did: the threads that really ran its bands. */
static void par_describe_run(void *state, const eng_timing *t, char *buf, size_t size)
{
    par_state *s = state;
    int n = t->threads > 0 ? t->threads : s->threads;
    if (n < s->threads)
        snprintf(buf, size, _("CPU, %d of its %d threads, %s"), n, s->threads, vector_isa());
    else
        snprintf(buf, size, ngettext("CPU, %d thread, %s", "CPU, %d threads, %s", (unsigned long)n), n, vector_isa());
}

static bool par_roofs(void *state, eng_roofs *out)
{
    return eng_cpu_roofs(((par_state *)state)->threads, true, out);
}

/* A layer on the pool's count of threads (cpu-simd has none: cpu-seq's one thread runs them). */
static bool par_layer(void *state, const eng_layer_job *job, eng_layer_timing *timing)
{
    return eng_cpu_layer(((par_state *)state)->threads, job, timing);
}

const eng_class eng_cpu_par_class = {
    .name = "cpu-par",
    .any_size = true,
    .any_geometry = true,
    .summary = N_("every CPU core, one band of rows each, vectorised"),
    .open = par_open,
    .close = par_close,
    .run = par_run,
    .describe = par_describe,
    .describe_run = par_describe_run,
    .roofs = par_roofs,
    .layer_ways = ENG_CPU_LAYER_WAYS,
    .layer = par_layer,
};

const eng_class eng_cpu_simd_class = {
    .name = "cpu-simd",
    .any_size = true,
    .any_geometry = true,
    .summary = N_("one CPU core, the loop vectorised as cpu-par's: the vector lanes' gain alone"),
    .open = simd_open,
    .close = par_close,
    .run = par_run,
    .describe = par_describe,
    .roofs = par_roofs,
};
