/* layer_cpu.c - a convolution layer on the CPU engines, on `threads`
 * threads (engines.h): the direct loop split by rows of outputs; im2col
 * split by columns, then our GEMM split by columns (each thread every
 * filter over its columns); the library way the same matrix through
 * OpenBLAS's cblas_sgemm on as many threads, where the build has it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "core/tr.h"
#include "engines.h"

#ifdef CONVIS_HAVE_BLAS
#include <cblas.h>
#endif

typedef struct share {
    const eng_layer_job *job;
    float *col;
    long n; /* columns: outputs a plane */
    int part, parts;
    int stage; /* 0 direct, 1 im2col, 2 GEMM */
} share;

static void *run_share(void *arg)
{
    const share *s = arg;
    const eng_layer_job *j = s->job;
    long rows = (long)j->out->c * j->out->h, first, last;
    if (s->stage == 0) {
        first = rows * s->part / s->parts, last = rows * (s->part + 1) / s->parts;
        layer_direct_rows(j->in, j->f, &j->params, j->out, first, last);
        return NULL;
    }
    first = s->n * s->part / s->parts, last = s->n * (s->part + 1) / s->parts;
    if (s->stage == 1)
        layer_im2col(j->in, j->f, &j->params, s->col, first, last);
    else
        layer_gemm(j->f, s->col, s->n, j->out->px, 0, j->f->c_out, first, last);
    return NULL;
}

/* One stage on `threads` threads (this one among them); false with a
 * sentence when a thread cannot start (what started has finished). */
static bool fan_out(const eng_layer_job *job, float *col, long n, int stage, int threads)
{
    pthread_t tid[ENG_MAX_BANDS];
    share sh[ENG_MAX_BANDS];
    int started = 0;
    bool ok = true;
    threads = threads < 1 ? 1 : threads > ENG_MAX_BANDS ? ENG_MAX_BANDS : threads;
    for (int i = 0; i < threads; ++i)
        sh[i] = (share){job, col, n, i, threads, stage};
    for (int i = 1; i < threads && ok; ++i)
        if (pthread_create(&tid[i], NULL, run_share, &sh[i]) == 0)
            ++started;
        else
            ok = false;
    if (ok)
        run_share(&sh[0]);
    for (int i = 1; i <= started; ++i)
        pthread_join(tid[i], NULL);
    return ok || err_set_kind(ERR_ENV, _("A thread for the layer could not start."));
}

#ifdef CONVIS_HAVE_BLAS
static void library_gemm(const eng_layer_job *job, const float *col, long n, int threads, eng_layer_timing *t)
{
    const layer_filters *f = job->f;
    int rows = f->c_in * f->k * f->k;
    openblas_set_num_threads(threads);
    threads = openblas_get_num_threads(); /* what it took (a serial build keeps 1) */
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, f->c_out, (int)n, rows, 1.0f, f->w, rows, col, (int)n,
                0.0f, job->out->px, (int)n);
    for (int o = 0; o < f->c_out; ++o) {
        float *dst = job->out->px + (long)o * n;
        for (long q = 0; q < n; ++q)
            dst[q] += f->bias[o];
    }
    const char *v = OPENBLAS_VERSION; /* " OpenBLAS 0.3.21 " */
    size_t len;
    while (*v == ' ')
        ++v;
    len = strlen(v);
    while (len > 0 && v[len - 1] == ' ')
        --len;
    snprintf(t->how, sizeof t->how, "%.*s sgemm, %d %s", (int)len, v, threads, threads == 1 ? "thread" : "threads");
}
#endif

bool eng_cpu_layer(int threads, const eng_layer_job *job, eng_layer_timing *t)
{
    long n = (long)job->out->w * job->out->h;
    double t0 = tim_now_ms(), t1;
    float *col;
    bool ok;
    t->t.clock = N_("monotonic clock");
    t->t.threads = threads;
    t->t.has[ENG_COMPUTE] = true;
    t->t.launch.bands = threads;
    if (job->way == ENG_LAYER_DIRECT) {
        snprintf(t->how, sizeof t->how, "direct loop, %d %s", threads, threads == 1 ? "thread" : "threads");
        ok = fan_out(job, NULL, n, 0, threads);
        t->t.ms[ENG_COMPUTE] = tim_now_ms() - t0;
        return ok;
    }
    t->extra_bytes = layer_im2col_bytes(job->f, job->out->w, job->out->h);
    col = malloc((size_t)t->extra_bytes);
    if (!col)
        return err_set_kind(ERR_ENV, _("There is no memory for the unrolled matrix (%.1f MB)."),
                            (double)t->extra_bytes / 1e6);
    /* its pages mapped before the clock starts, as a workspace kept from run to run would be (the GPU
     * engines' buffers are made outside their phases too) */
    memset(col, 0, (size_t)t->extra_bytes);
    t0 = tim_now_ms();
    ok = fan_out(job, col, n, 1, threads);
    t1 = tim_now_ms();
    t->unroll_ms = t1 - t0;
    if (ok && job->way == ENG_LAYER_IM2COL) {
        snprintf(t->how, sizeof t->how, "im2col + our GEMM, %d %s", threads, threads == 1 ? "thread" : "threads");
        ok = fan_out(job, col, n, 2, threads);
    }
#ifdef CONVIS_HAVE_BLAS
    else if (ok)
        library_gemm(job, col, n, threads, t);
#endif
    t->t.ms[ENG_COMPUTE] = tim_now_ms() - t0;
    free(col);
    return ok;
}
