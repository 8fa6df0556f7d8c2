/* cuda.c - the CUDA engine, host side.
 *
 * Uploads the image, launches the naive kernel (kernels/conv3x3.cu), and
 * downloads the result, each phase timed with cudaEvents on one stream.
 * Every CUDA runtime call goes through CUDA_CHECK; every launch is followed
 * by a check of its error. Device buffers are kept between runs and grown
 * when a larger image comes. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/conv3x3.h"
#include "../../kernels/conv3x3_body.h"
#include "../core/err.h"
#include "../core/timing.h"
#include "engines.h"

#define BLOCK_X 16
#define BLOCK_Y 16

/* Leaves "CALL failed at FILE:LINE: reason" and returns false on error. */
#define CUDA_CHECK(call) cuda_check((call), #call, __FILE__, __LINE__)

static bool cuda_check(cudaError_t e, const char *text, const char *file, int line)
{
    if (e == cudaSuccess)
        return true;
    return err_set("%s failed at %s:%d: %s", text, file, line, cudaGetErrorString(e));
}

enum { EV_START, EV_UPLOADED, EV_COMPUTED, EV_DOWNLOADED, EV_COUNT };

typedef struct cuda_state {
    int device;
    struct cudaDeviceProp prop;
    cudaStream_t stream;
    cudaEvent_t ev[EV_COUNT];
    float *d_in, *d_out;
    size_t capacity;        /* pixels the device buffers hold */
} cuda_state;

static void version_text(int v, char *buf, size_t size)
{
    snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

static bool cuda_probe(char *why, size_t size)
{
    int count = 0, driver = 0, runtime = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    char dv[16], rv[16];

    if (e == cudaSuccess && count > 0)
        return true;
    cudaGetLastError(); /* clear the sticky error for later calls */
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    version_text(driver, dv, sizeof dv);
    version_text(runtime, rv, sizeof rv);
    if (e == cudaErrorInsufficientDriver && driver == 0)
        snprintf(why, size, "no NVIDIA driver is installed");
    else if (e == cudaErrorInsufficientDriver)
        snprintf(why, size, "the NVIDIA driver supports CUDA %s, older than the CUDA %s runtime convis was built with",
                 dv, rv);
    else if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0))
        snprintf(why, size, "no CUDA device was found%s",
                 getenv("CUDA_VISIBLE_DEVICES") ? " (CUDA_VISIBLE_DEVICES hides them all?)" : "");
    else
        snprintf(why, size, "%s", cudaGetErrorString(e));
    return false;
}

static void cuda_close(void *state)
{
    cuda_state *s = state;
    if (!s)
        return;
    cudaFree(s->d_in);
    cudaFree(s->d_out);
    for (int i = 0; i < EV_COUNT; ++i)
        if (s->ev[i])
            cudaEventDestroy(s->ev[i]);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    free(s);
}

static void *cuda_open(void)
{
    cuda_state *s = calloc(1, sizeof *s);
    if (!s) {
        err_set("out of memory");
        return NULL;
    }
    if (!CUDA_CHECK(cudaGetDevice(&s->device)) ||
        !CUDA_CHECK(cudaGetDeviceProperties(&s->prop, s->device)) ||
        !CUDA_CHECK(cudaStreamCreate(&s->stream)))
        goto fail;
    for (int i = 0; i < EV_COUNT; ++i)
        if (!CUDA_CHECK(cudaEventCreate(&s->ev[i])))
            goto fail;
    return s;
fail:
    cuda_close(s);
    return NULL;
}

/* Makes the device buffers hold at least n pixels. */
static bool ensure_capacity(cuda_state *s, size_t n)
{
    size_t free_b = 0, total_b = 0;
    if (n <= s->capacity)
        return true;
    cudaFree(s->d_in);
    cudaFree(s->d_out);
    s->d_in = s->d_out = NULL;
    s->capacity = 0;
    if (cudaMalloc((void **)&s->d_in, n * sizeof(float)) != cudaSuccess ||
        cudaMalloc((void **)&s->d_out, n * sizeof(float)) != cudaSuccess) {
        cudaGetLastError();
        cudaFree(s->d_in);
        s->d_in = NULL;
        cudaMemGetInfo(&free_b, &total_b);
        return err_set("the image needs %zu MiB on %s, which has %zu MiB free of %zu MiB", 2 * n * sizeof(float) >> 20,
                       s->prop.name, free_b >> 20, total_b >> 20);
    }
    s->capacity = n;
    return true;
}

static bool cuda_run(void *state, const eng_job *job, eng_timing *timing)
{
    cuda_state *s = state;
    int w = job->in->w, h = job->in->h;
    size_t bytes = (size_t)w * (size_t)h * sizeof(float);
    float up = 0, comp = 0, down = 0;
    double t0, wall;
    int launch;

    if (!ensure_capacity(s, (size_t)w * (size_t)h))
        return false;
    t0 = tim_now_ms();
    if (!CUDA_CHECK(cudaEventRecord(s->ev[EV_START], s->stream)) ||
        !CUDA_CHECK(cudaMemcpyAsync(s->d_in, job->in->px, bytes, cudaMemcpyHostToDevice, s->stream)) ||
        !CUDA_CHECK(cudaEventRecord(s->ev[EV_UPLOADED], s->stream)))
        return false;
    launch = conv3x3_launch_naive(s->d_in, s->d_out, w, h, &job->params, BLOCK_X, BLOCK_Y, s->stream);
    if (!CUDA_CHECK((cudaError_t)launch) ||
        !CUDA_CHECK(cudaEventRecord(s->ev[EV_COMPUTED], s->stream)) ||
        !CUDA_CHECK(cudaMemcpyAsync(job->out->px, s->d_out, bytes, cudaMemcpyDeviceToHost, s->stream)) ||
        !CUDA_CHECK(cudaEventRecord(s->ev[EV_DOWNLOADED], s->stream)) ||
        !CUDA_CHECK(cudaEventSynchronize(s->ev[EV_DOWNLOADED])))
        return false;
    wall = tim_now_ms() - t0;
    if (!CUDA_CHECK(cudaEventElapsedTime(&up, s->ev[EV_START], s->ev[EV_UPLOADED])) ||
        !CUDA_CHECK(cudaEventElapsedTime(&comp, s->ev[EV_UPLOADED], s->ev[EV_COMPUTED])) ||
        !CUDA_CHECK(cudaEventElapsedTime(&down, s->ev[EV_COMPUTED], s->ev[EV_DOWNLOADED])))
        return false;
    timing->ms[ENG_UPLOAD] = up;
    timing->ms[ENG_COMPUTE] = comp;
    timing->ms[ENG_DOWNLOAD] = down;
    timing->ms[ENG_OVERHEAD] = wall > up + comp + down ? wall - (up + comp + down) : 0.0;
    timing->has[ENG_UPLOAD] = timing->has[ENG_COMPUTE] = timing->has[ENG_DOWNLOAD] = true;
    timing->has[ENG_OVERHEAD] = true;
    timing->clock = "cudaEvent";
    timing->launch = (eng_launch){conv3x3_blocks(w, BLOCK_X), conv3x3_blocks(h, BLOCK_Y), BLOCK_X, BLOCK_Y};
    return true;
}

static void cuda_describe(void *state, char *buf, size_t size)
{
    cuda_state *s = state;
    snprintf(buf, size, "CUDA on %s (%d SMs), naive kernel, %dx%d threads a block", s->prop.name,
             s->prop.multiProcessorCount, BLOCK_X, BLOCK_Y);
}

const eng_class eng_cuda_class = {
    .name = "cuda",
    .summary = "a CUDA kernel, one GPU thread per output",
    .probe = cuda_probe,
    .open = cuda_open,
    .close = cuda_close,
    .run = cuda_run,
    .describe = cuda_describe,
};
