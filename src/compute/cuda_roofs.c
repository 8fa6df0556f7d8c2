/* cuda_roofs.c - the roofs of a roofline on the CUDA engine's device
 * (engine.h, eng_roofs), on its stream, timed between cudaEvents as the
 * engine times its phases (cuda.c):
 *
 * memory   cudaMemcpyAsync device to device of a buffer larger than the L2
 *          cache (256 MiB, or a quarter of the free memory when that is
 *          less): bytes read plus written, a second;
 * compute  kernels/roofs.cu: 8 blocks an SM of 256 threads, ROOFS_CHAINS
 *          chains of x = x * a + b a thread (multiply then add, never
 *          fused), the steps sized so a launch takes about 20 ms, where its
 *          latency is lost; 2 operations a chain a step.
 * Each the fastest of ROOF_CUDA_RUNS after a warm-up. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "../../kernels/roofs.h"
#include "core/err.h"
#include "core/tr.h"
#include "engines.h"

#define ROOF_CUDA_BYTES ((size_t)256 << 20)
#define ROOF_CUDA_RUNS 3
#define ROOF_CUDA_THREADS 256
#define ROOF_CUDA_BLOCKS_PER_SM 8
#define ROOF_CUDA_TARGET_MS 20.0

typedef struct roof_events {
    cudaStream_t stream;
    cudaEvent_t a, b;
} roof_events;

static bool failed(cudaError_t e, const char *doing)
{
    return e != cudaSuccess && (err_set("CUDA could not %s for the roofs: %s", doing, cudaGetErrorString(e)), true);
}

/* The ms between the two events, after the work between them. */
static double span(const roof_events *ev)
{
    float ms = -1;
    if (cudaEventSynchronize(ev->b) != cudaSuccess || cudaEventElapsedTime(&ms, ev->a, ev->b) != cudaSuccess)
        return -1;
    return ms;
}

static bool memory_roof(const roof_events *ev, eng_roofs *out)
{
    size_t free_b = 0, total_b = 0, bytes = ROOF_CUDA_BYTES;
    void *src = NULL, *dst = NULL;
    double best = -1;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess && free_b / 4 < bytes)
        bytes = free_b / 4 & ~(size_t)255;
    if (bytes < ((size_t)1 << 20))
        return err_set("the CUDA device has too little free memory for the memory roof's copy");
    if (failed(cudaMalloc(&src, bytes), "allocate the copy") || failed(cudaMalloc(&dst, bytes), "allocate the copy")) {
        cudaFree(src);
        return false;
    }
    for (int r = 0; r <= ROOF_CUDA_RUNS; ++r) {
        double ms;
        cudaEventRecord(ev->a, ev->stream);
        cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, ev->stream);
        cudaEventRecord(ev->b, ev->stream);
        ms = span(ev);
        if (r > 0 && ms > 0 && (best < 0 || ms < best))
            best = ms;
    }
    cudaFree(src);
    cudaFree(dst);
    if (best <= 0)
        return err_set("CUDA could not time the memory roof's copy: %s", cudaGetErrorString(cudaGetLastError()));
    out->copy_bytes = (double)bytes;
    out->memory_gb_s = 2.0 * (double)bytes / (best * 1e-3) / 1e9;
    return true;
}

static double launch(const roof_events *ev, float *sink, int blocks, int steps)
{
    cudaEventRecord(ev->a, ev->stream);
    if (roofs_launch_mul_add(sink, blocks, ROOF_CUDA_THREADS, steps, 0.999f, 0.001f, ev->stream) != 0)
        return -1;
    cudaEventRecord(ev->b, ev->stream);
    return span(ev);
}

static bool compute_roof(const roof_events *ev, eng_roofs *out)
{
    struct cudaDeviceProp prop;
    int device = 0, blocks, steps = 64;
    float *sink = NULL;
    double best = -1, ms;
    memset(&prop, 0, sizeof prop);
    if (failed(cudaGetDevice(&device), "find the device") ||
        failed(cudaGetDeviceProperties(&prop, device), "read the device"))
        return false;
    blocks = (prop.multiProcessorCount > 0 ? prop.multiProcessorCount : 1) * ROOF_CUDA_BLOCKS_PER_SM;
    if (failed(cudaMalloc((void **)&sink, sizeof(float) * (size_t)blocks * ROOF_CUDA_THREADS), "allocate the sink"))
        return false;
    ms = launch(ev, sink, blocks, steps); /* the warm-up, and the pace */
    if (ms > 0)
        steps = (int)(steps * (ROOF_CUDA_TARGET_MS / ms)) + 1;
    steps = steps < 64 ? 64 : steps > (1 << 24) ? 1 << 24 : steps;
    for (int r = 0; r < ROOF_CUDA_RUNS && ms > 0; ++r) {
        ms = launch(ev, sink, blocks, steps);
        if (ms > 0 && (best < 0 || ms < best))
            best = ms;
    }
    cudaFree(sink);
    if (best <= 0)
        return err_set("CUDA could not time the compute roof's kernel: %s", cudaGetErrorString(cudaGetLastError()));
    out->compute_gflops = 2.0 * (double)steps * ROOFS_CHAINS * (double)blocks * ROOF_CUDA_THREADS / (best * 1e-3) / 1e9;
    snprintf(out->how, sizeof out->how,
             _("cudaMemcpy device to device of %.0f MiB; %d blocks of %d threads, %d chains of multiply then add"),
             out->copy_bytes / (1 << 20), blocks, ROOF_CUDA_THREADS, ROOFS_CHAINS);
    return true;
}

bool eng_cuda_roofs(void *stream, eng_roofs *out)
{
    roof_events ev = {(cudaStream_t)stream, NULL, NULL};
    bool ok;
    memset(out, 0, sizeof *out);
    if (failed(cudaEventCreate(&ev.a), "create an event") || failed(cudaEventCreate(&ev.b), "create an event")) {
        if (ev.a)
            cudaEventDestroy(ev.a);
        return false;
    }
    ok = memory_roof(&ev, out) && compute_roof(&ev, out);
    cudaEventDestroy(ev.a);
    cudaEventDestroy(ev.b);
    cudaGetLastError();
    out->clock = N_("cudaEvents");
    return ok;
}
