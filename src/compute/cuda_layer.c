/* cuda_layer.c - a convolution layer on the CUDA engine's device, on its
 * stream (engines.h): the input, weights and biases up, the layer one of
 * three ways, the outputs down, each phase between cudaEvents as the
 * engine times its runs (cuda.c).
 *
 *   direct   kernels/layer.cu: a thread per output, every channel's window
 *            read from global memory
 *   im2col   the unrolled matrix (a thread per element), then our ordered
 *            GEMM (a thread per output, its filter's weights in shared
 *            memory): the direct loop's bits
 *   library  the same matrix through cuBLAS: cublasSgemm in FP32, on TF32
 *            tensor cores (cublasSetMathMode), or cublasGemmEx on FP16
 *            inputs with FP32 sums; then the biases added
 *
 * The buffers are the run's own: allocated before the first event, freed
 * after the last (outside the phases).
 *
 * cuBLAS is not linked: convis runs where only the driver is installed. Its
 * functions are found when the library way first runs: linked in already
 * (weak references: the CUDA stand-in's), else in libcublas.so.13 (or .12,
 * or libcublas.so) opened then; without it the library way says so. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/layer.h"
#include "core/err.h"
#include "core/tr.h"
#include "engines.h"

#define LAYER_EVENTS 5 /* before upload, after it, after the unrolling, after compute, after download */

#pragma weak cublasCreate_v2
#pragma weak cublasDestroy_v2
#pragma weak cublasGetVersion_v2
#pragma weak cublasSetStream_v2
#pragma weak cublasSetMathMode
#pragma weak cublasGetStatusString
#pragma weak cublasSgemm_v2
#pragma weak cublasGemmEx

/* cuBLAS's functions, found at run time. */
typedef struct blas_fns {
    cublasStatus_t (*create)(cublasHandle_t *);
    cublasStatus_t (*destroy)(cublasHandle_t);
    cublasStatus_t (*version)(cublasHandle_t, int *);
    cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
    cublasStatus_t (*set_math)(cublasHandle_t, cublasMath_t);
    const char *(*status)(cublasStatus_t);
    cublasStatus_t (*sgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float *,
                            const float *, int, const float *, int, const float *, float *, int);
    cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
                              const void *, cudaDataType, int, const void *, cudaDataType, int, const void *, void *,
                              cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
} blas_fns;

struct eng_cuda_layer_ctx {
    cublasHandle_t blas; /* made on first use of the library way */
    int blas_version;
};

static blas_fns blas;

/* Fills `blas` once; false with a sentence where there is no cuBLAS. */
static bool load_blas(void)
{
    static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so",
                                        "/usr/local/cuda/lib64/libcublas.so.13", "/usr/local/cuda/lib64/libcublas.so"};
    static const char *const sym[8] = {"cublasCreate_v2",       "cublasDestroy_v2", "cublasGetVersion_v2",
                                       "cublasSetStream_v2",    "cublasSetMathMode", "cublasGetStatusString",
                                       "cublasSgemm_v2",        "cublasGemmEx"};
    void **slot[8] = {(void **)&blas.create,     (void **)&blas.destroy,  (void **)&blas.version,
                      (void **)&blas.set_stream, (void **)&blas.set_math, (void **)&blas.status,
                      (void **)&blas.sgemm,      (void **)&blas.gemm_ex};
    void *lib = NULL;
    if (blas.create)
        return true;
    if (cublasCreate_v2) { /* linked in */
        blas = (blas_fns){cublasCreate_v2,       cublasDestroy_v2, cublasGetVersion_v2, cublasSetStream_v2,
                          cublasSetMathMode,     cublasGetStatusString, cublasSgemm_v2, cublasGemmEx};
        return true;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; ++i)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return err_set(_("cuBLAS is not installed here (libcublas.so.13 of the CUDA toolkit): the library way needs "
                         "it; direct and im2col run without it."));
    for (int i = 0; i < 8; ++i)
        if (!(*slot[i] = dlsym(lib, sym[i]))) {
            memset(&blas, 0, sizeof blas);
            dlclose(lib);
            return err_set(_("This cuBLAS has no %s: the library way needs CUDA 11 or later."), sym[i]);
        }
    return true;
}

typedef struct run_buffers {
    float *in, *w, *bias, *out, *col;
    void *col_half, *w_half;
} run_buffers;

static bool failed(cudaError_t e, const char *doing)
{
    return e != cudaSuccess && (err_set(_("CUDA could not %1$s for the layer: %2$s"), doing, cudaGetErrorString(e)),
                                cudaGetLastError(), true);
}

static bool blas_failed(cublasStatus_t st, const char *doing)
{
    return st != CUBLAS_STATUS_SUCCESS && (err_set(_("cuBLAS could not %1$s: %2$s"), doing, blas.status(st)), true);
}

void eng_cuda_layer_free(eng_cuda_layer_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->blas)
        blas.destroy(ctx->blas);
    free(ctx);
}

void eng_cuda_layer_forget(eng_cuda_layer_ctx *ctx)
{
    free(ctx);
}

static void free_buffers(run_buffers *b)
{
    cudaFree(b->in), cudaFree(b->w), cudaFree(b->bias), cudaFree(b->out), cudaFree(b->col);
    cudaFree(b->col_half), cudaFree(b->w_half);
    cudaGetLastError();
    memset(b, 0, sizeof *b);
}

static bool alloc(void **p, size_t bytes, const char *what)
{
    cudaError_t e = cudaMalloc(p, bytes);
    if (e == cudaSuccess)
        return true;
    cudaGetLastError();
    *p = NULL;
    return err_set_kind(ERR_ENV, _("The GPU has no room for the layer's %1$s (%2$.1f MB): %3$s."), what,
                        (double)bytes / 1e6, cudaGetErrorString(e));
}

/* Whether the device has the tensor cores `math` rounds its inputs for. */
static bool math_runs(const struct cudaDeviceProp *prop, eng_layer_math math)
{
    int need = math == ENG_MATH_TF32 ? 8 : math == ENG_MATH_FP16 ? 7 : 0;
    if (prop->major >= need)
        return true;
    return err_set(_("%1$s on tensor cores needs a GPU of compute capability %2$d.0 or later; %3$s is %4$d.%5$d."),
                   eng_layer_math_name(math), need, prop->name, prop->major, prop->minor);
}

/* FP16 holds magnitudes up to 65504: a larger input or weight would become
 * infinity, which no tolerance covers. */
static bool fits_fp16(const eng_layer_job *job)
{
    const layer_filters *f = job->f;
    long n = (long)job->in->c * job->in->w * job->in->h, m = (long)f->c_out * f->c_in * f->k * f->k;
    double most = 0;
    for (long i = 0; i < n; ++i)
        most = fabs((double)job->in->px[i]) > most ? fabs((double)job->in->px[i]) : most;
    for (long i = 0; i < m; ++i)
        most = fabs((double)f->w[i]) > most ? fabs((double)f->w[i]) : most;
    if (most <= LAYER_FP16_MAX)
        return true;
    return err_set(_("fp16 holds values up to 65504; this layer's inputs or weights reach %g: use fp32 or tf32."), most);
}

static layer_shape shape_of(const eng_layer_job *job)
{
    layer_shape s = {job->f->c_in, job->f->c_out, job->f->k, job->in->w, job->in->h, job->out->w, job->out->h,
                     layer_params(job->f, &job->params)};
    return s;
}

/* The library way: C (n x c_out, column-major: our c_out x n, row-major) =
 * col (n x rows) times W (rows x c_out). */
static bool library_gemm(eng_cuda_layer_ctx *ctx, void *stream, const eng_layer_job *job, const layer_shape *s,
                         run_buffers *b, eng_layer_timing *t)
{
    const float one = 1.0f, zero = 0.0f;
    int rows = s->c_in * s->k * s->k, n = s->ow * s->oh;
    if (!load_blas())
        return false;
    if (!ctx->blas && (blas_failed(blas.create(&ctx->blas), "start") ||
                       blas_failed(blas.version(ctx->blas, &ctx->blas_version), "say its version")))
        return false;
    if (blas_failed(blas.set_stream(ctx->blas, (cudaStream_t)stream), "take the engine's stream") ||
        blas_failed(blas.set_math(ctx->blas, job->math == ENG_MATH_TF32 ? CUBLAS_TF32_TENSOR_OP_MATH
                                                                             : CUBLAS_DEFAULT_MATH),
                    "set its arithmetic"))
        return false;
    if (job->math == ENG_MATH_FP16) {
        if (failed((cudaError_t)layer_launch_to_half(b->col, b->col_half, (size_t)rows * n, stream), "round to fp16") ||
            failed((cudaError_t)layer_launch_to_half(b->w, b->w_half, (size_t)rows * s->c_out, stream),
                   "round to fp16") ||
            blas_failed(blas.gemm_ex(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, s->c_out, rows, &one, b->col_half,
                                     CUDA_R_16F, n, b->w_half, CUDA_R_16F, rows, &zero, b->out, CUDA_R_32F, n,
                                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                        "multiply in fp16"))
            return false;
    } else if (blas_failed(blas.sgemm(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, s->c_out, rows, &one, b->col, n, b->w,
                                       rows, &zero, b->out, n),
                           "multiply")) {
        return false;
    }
    t->input_u = job->math == ENG_MATH_TF32 ? LAYER_U_TF32 : job->math == ENG_MATH_FP16 ? LAYER_U_FP16 : 0.0;
    t->input_abs = job->math == ENG_MATH_FP16 ? LAYER_ABS_FP16 : 0.0;
    snprintf(t->how, sizeof t->how, "cuBLAS %d.%d %s (%s%s)", ctx->blas_version / 10000,
             ctx->blas_version / 100 % 100, job->math == ENG_MATH_FP16 ? "cublasGemmEx" : "cublasSgemm",
             eng_layer_math_name(job->math), job->math == ENG_MATH_FP32 ? "" : " tensor cores, sums in fp32");
    return !failed((cudaError_t)layer_launch_add_bias(b->bias, b->out, s, stream), "add the biases");
}

static bool compute(eng_cuda_layer_ctx *ctx, void *stream, const eng_layer_job *job, const layer_shape *s,
                    run_buffers *b, cudaEvent_t unrolled, eng_layer_timing *t)
{
    if (job->way == ENG_LAYER_DIRECT) {
        snprintf(t->how, sizeof t->how, "direct kernel, a thread per output");
        return !failed((cudaError_t)layer_launch_direct(b->in, b->w, b->bias, b->out, s, stream), "launch direct") &&
               !failed(cudaEventRecord(unrolled, (cudaStream_t)stream), "record an event");
    }
    if (failed((cudaError_t)layer_launch_im2col(b->in, b->col, s, stream), "unroll (im2col)") ||
        failed(cudaEventRecord(unrolled, (cudaStream_t)stream), "record an event"))
        return false;
    if (job->way == ENG_LAYER_LIBRARY)
        return library_gemm(ctx, stream, job, s, b, t);
    snprintf(t->how, sizeof t->how, "im2col kernel + our GEMM kernel, a thread per output");
    return !failed((cudaError_t)layer_launch_gemm(b->w, b->col, b->bias, b->out, s, stream), "launch the GEMM");
}

static bool alloc_all(const eng_layer_job *job, const layer_shape *s, run_buffers *b)
{
    size_t in = (size_t)s->c_in * s->w * s->h, rows = (size_t)s->c_in * s->k * s->k, n = (size_t)s->ow * s->oh;
    memset(b, 0, sizeof *b);
    if (!alloc((void **)&b->in, in * 4, _("input")) || !alloc((void **)&b->w, rows * s->c_out * 4, _("weights")) ||
        !alloc((void **)&b->bias, (size_t)s->c_out * 4, _("biases")) ||
        !alloc((void **)&b->out, n * s->c_out * 4, _("outputs")))
        return false;
    if (job->way != ENG_LAYER_DIRECT && !alloc((void **)&b->col, rows * n * 4, _("unrolled matrix")))
        return false;
    if (job->way == ENG_LAYER_LIBRARY && job->math == ENG_MATH_FP16 &&
        (!alloc(&b->col_half, rows * n * 2, _("unrolled matrix in fp16")) ||
         !alloc(&b->w_half, rows * s->c_out * 2, _("weights in fp16"))))
        return false;
    return true;
}

static bool run(eng_cuda_layer_ctx *ctx, void *stream, const eng_layer_job *job, run_buffers *b, cudaEvent_t *ev,
                eng_layer_timing *t)
{
    layer_shape s = shape_of(job);
    cudaStream_t st = (cudaStream_t)stream;
    size_t in = (size_t)s.c_in * s.w * s.h, rows = (size_t)s.c_in * s.k * s.k, n = (size_t)s.ow * s.oh;
    float ms[LAYER_EVENTS - 1];
    if (!alloc_all(job, &s, b))
        return false;
    if (failed(cudaEventRecord(ev[0], st), "record an event") ||
        failed(cudaMemcpyAsync(b->in, job->in->px, in * 4, cudaMemcpyHostToDevice, st), "upload the input") ||
        failed(cudaMemcpyAsync(b->w, job->f->w, rows * s.c_out * 4, cudaMemcpyHostToDevice, st), "upload weights") ||
        failed(cudaMemcpyAsync(b->bias, job->f->bias, (size_t)s.c_out * 4, cudaMemcpyHostToDevice, st),
               "upload biases") ||
        failed(cudaEventRecord(ev[1], st), "record an event") || !compute(ctx, stream, job, &s, b, ev[2], t) ||
        failed(cudaEventRecord(ev[3], st), "record an event") ||
        failed(cudaMemcpyAsync(job->out->px, b->out, n * s.c_out * 4, cudaMemcpyDeviceToHost, st),
               "download the outputs") ||
        failed(cudaEventRecord(ev[4], st), "record an event") || failed(cudaEventSynchronize(ev[4]), "finish"))
        return false;
    /* upload, the unrolling, the whole compute phase (the unrolling in it), download */
    if (failed(cudaEventElapsedTime(&ms[0], ev[0], ev[1]), "time a phase") ||
        failed(cudaEventElapsedTime(&ms[1], ev[1], ev[2]), "time a phase") ||
        failed(cudaEventElapsedTime(&ms[2], ev[1], ev[3]), "time a phase") ||
        failed(cudaEventElapsedTime(&ms[3], ev[3], ev[4]), "time a phase"))
        return false;
    t->t.ms[ENG_UPLOAD] = ms[0], t->t.ms[ENG_COMPUTE] = ms[2], t->t.ms[ENG_DOWNLOAD] = ms[3];
    t->t.has[ENG_UPLOAD] = t->t.has[ENG_COMPUTE] = t->t.has[ENG_DOWNLOAD] = true;
    t->unroll_ms = job->way == ENG_LAYER_DIRECT ? 0 : ms[1];
    t->extra_bytes = job->way == ENG_LAYER_DIRECT ? 0 : (long long)(rows * n * 4);
    if (job->way == ENG_LAYER_LIBRARY && job->math == ENG_MATH_FP16)
        t->extra_bytes += (long long)((rows * n + rows * s.c_out) * 2);
    t->t.clock = N_("cudaEvent");
    return true;
}

bool eng_cuda_layer(eng_cuda_layer_ctx **ctx, void *stream, const struct cudaDeviceProp *prop,
                    const eng_layer_job *job, eng_layer_timing *t)
{
    cudaEvent_t ev[LAYER_EVENTS] = {0};
    run_buffers b = {0};
    bool ok = true;
    if (job->way == ENG_LAYER_LIBRARY && job->math != ENG_MATH_FP32 &&
        (!math_runs(prop, job->math) || (job->math == ENG_MATH_FP16 && !fits_fp16(job))))
        return false;
    if (!*ctx && !(*ctx = calloc(1, sizeof **ctx)))
        return err_set_kind(ERR_ENV, "out of memory");
    for (int i = 0; i < LAYER_EVENTS && ok; ++i)
        ok = !failed(cudaEventCreate(&ev[i]), "make an event");
    ok = ok && run(*ctx, stream, job, &b, ev, t);
    free_buffers(&b);
    for (int i = 0; i < LAYER_EVENTS; ++i)
        if (ev[i])
            cudaEventDestroy(ev[i]);
    cudaGetLastError();
    return ok;
}
