/* cuda_mock.c - a CPU stand-in for the part of the CUDA runtime that
 * src/compute/cuda.c calls, and for the launchers of kernels/conv3x3.cu, so
 * the CUDA engine's host code (options, result paths, extrapolation, the
 * present path and its fallbacks, error sentences) runs in tests on a machine
 * without a GPU: sokol's "dummy backend" (DESIGN.md section 7).
 *
 * It implements the functions with the CUDA headers' own declarations and
 * links in place of cudart. Device memory is host memory; every call is
 * synchronous; an event records the monotonic clock. The launchers walk the
 * whole grid through the very bodies of kernels/conv3x3_body.h, one block
 * after another (the tiled kernel through a tile per block, loaded by all its
 * threads before any computes, as __syncthreads orders it). GL interop maps a
 * GL buffer to a host copy and writes it back into the buffer on unmap.
 *
 * What it proves is the host side; the kernels' device code runs only on a
 * GPU (tests/gpu). Knobs, from the environment:
 *   CONVIS_MOCK_CUDA=none|no-driver|old-driver  no device, no driver, a
 *                                       driver older than the runtime
 *   CONVIS_MOCK_CUDA_MEMORY=BYTES       device memory (default 1 GiB)
 *   CONVIS_MOCK_CUDA_GL=shared|other|none  which device cudaGLGetDevices
 *                                       names: 0 (default), 1 (of two), none
 *   CONVIS_MOCK_CUDA_REGISTER=fail      cudaGraphicsGLRegisterBuffer fails */
#include <GL/glew.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/conv3x3.h"
#include "../../kernels/conv3x3_body.h"
#include "core/timing.h"

struct CUstream_st {
    int unused;
};

struct CUevent_st {
    double t;
    int recorded;
};

struct cudaGraphicsResource {
    GLuint id;
    float *shadow;      /* the mapped "device" copy */
    size_t bytes;
    int mapped;
};

/* A device allocation: a header before the memory, to know its size. */
typedef struct block_header {
    size_t bytes;
    double align; /* keeps the memory after it aligned */
} block_header;

static cudaError_t last_error = cudaSuccess;
static size_t used_bytes;
static int current_device;

static const char *knob(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && v[0] ? v : fallback;
}

static cudaError_t fail(cudaError_t e)
{
    last_error = e;
    return e;
}

static int device_count(void)
{
    return strcmp(knob("CONVIS_MOCK_CUDA_GL", "shared"), "other") == 0 ? 2 : 1;
}

static size_t memory_total(void)
{
    return (size_t)strtoull(knob("CONVIS_MOCK_CUDA_MEMORY", "1073741824"), NULL, 10);
}

/* ---- devices --------------------------------------------------------------- */

cudaError_t cudaGetDeviceCount(int *count)
{
    const char *mode = knob("CONVIS_MOCK_CUDA", "");
    *count = 0;
    if (strcmp(mode, "none") == 0)
        return fail(cudaErrorNoDevice);
    if (strcmp(mode, "no-driver") == 0 || strcmp(mode, "old-driver") == 0)
        return fail(cudaErrorInsufficientDriver);
    *count = device_count();
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *v)
{
    const char *mode = knob("CONVIS_MOCK_CUDA", "");
    *v = strcmp(mode, "no-driver") == 0 ? 0 : strcmp(mode, "old-driver") == 0 ? 11080 : CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
    *v = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    *device = current_device;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    if (device < 0 || device >= device_count())
        return fail(cudaErrorInvalidDevice);
    current_device = device;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (device < 0 || device >= device_count())
        return fail(cudaErrorInvalidDevice);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "CPU stand-in for CUDA %d (tests only)", device);
    prop->multiProcessorCount = 4;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->sharedMemPerBlock = 48 * 1024;
    prop->totalGlobalMem = memory_total();
    prop->major = 9;
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotMapped: return "resource not mapped";
    case cudaErrorAlreadyMapped: return "resource already mapped";
    case cudaErrorNotReady: return "device not ready";
    default: return "unknown error";
    }
}

/* ---- memory ------------------------------------------------------------------ */

cudaError_t cudaMalloc(void **p, size_t bytes)
{
    block_header *b;
    *p = NULL;
    if (bytes > memory_total() - used_bytes)
        return fail(cudaErrorMemoryAllocation);
    b = malloc(sizeof *b + bytes);
    if (!b)
        return fail(cudaErrorMemoryAllocation);
    b->bytes = bytes;
    used_bytes += bytes;
    *p = b + 1;
    return cudaSuccess;
}

cudaError_t cudaFree(void *p)
{
    block_header *b;
    if (!p)
        return cudaSuccess;
    b = (block_header *)p - 1;
    used_bytes -= b->bytes;
    free(b);
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b)
{
    *total_b = memory_total();
    *free_b = *total_b - used_bytes;
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    (void)kind;
    memmove(dst, src, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy(dst, src, bytes, kind);
}

/* ---- streams and events ---------------------------------------------------------- */

cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    *s = calloc(1, sizeof **s);
    return *s ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    free(s);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    (void)s;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = calloc(1, sizeof **e);
    return *e ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    free(e);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    (void)s;
    e->t = tim_now_ms();
    e->recorded = 1;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    return e->recorded ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    if (!a->recorded || !b->recorded)
        return fail(cudaErrorInvalidResourceHandle);
    *ms = (float)(b->t - a->t);
    return cudaSuccess;
}

/* ---- OpenGL interop ---------------------------------------------------------------- */

cudaError_t cudaGLGetDevices(unsigned *count, int *devices, unsigned size, enum cudaGLDeviceList list)
{
    const char *gl = knob("CONVIS_MOCK_CUDA_GL", "shared");
    (void)list;
    *count = 0;
    if (strcmp(gl, "none") == 0)
        return fail(cudaErrorNoDevice);
    if (size > 0)
        devices[0] = strcmp(gl, "other") == 0 ? 1 : 0;
    *count = 1;
    return cudaSuccess;
}

static GLint64 gl_size(GLuint id)
{
    GLint saved = 0;
    GLint64 size = -1;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &saved);
    glBindBuffer(GL_COPY_READ_BUFFER, id);
    glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)saved);
    return glGetError() == GL_NO_ERROR ? size : -1;
}

cudaError_t cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **res, GLuint id, unsigned flags)
{
    (void)flags;
    *res = NULL;
    if (strcmp(knob("CONVIS_MOCK_CUDA_REGISTER", ""), "fail") == 0)
        return fail(cudaErrorUnknown);
    if (!glIsBuffer(id))
        return fail(cudaErrorInvalidValue);
    *res = calloc(1, sizeof **res);
    if (!*res)
        return fail(cudaErrorMemoryAllocation);
    (*res)->id = id;
    return cudaSuccess;
}

cudaError_t cudaGraphicsUnregisterResource(struct cudaGraphicsResource *res)
{
    if (res && res->mapped)
        return fail(cudaErrorAlreadyMapped);
    free(res);
    return cudaSuccess;
}

cudaError_t cudaGraphicsMapResources(int count, struct cudaGraphicsResource **res, cudaStream_t s)
{
    (void)s;
    for (int i = 0; i < count; ++i) {
        GLint64 size = gl_size(res[i]->id);
        if (res[i]->mapped)
            return fail(cudaErrorAlreadyMapped);
        if (size < 0)
            return fail(cudaErrorInvalidResourceHandle);
        res[i]->bytes = (size_t)size;
        res[i]->shadow = calloc(1, res[i]->bytes ? res[i]->bytes : 1); /* write-discard: old contents gone */
        if (!res[i]->shadow)
            return fail(cudaErrorMemoryAllocation);
        res[i]->mapped = 1;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphicsResourceGetMappedPointer(void **p, size_t *bytes, struct cudaGraphicsResource *res)
{
    if (!res->mapped)
        return fail(cudaErrorNotMapped);
    *p = res->shadow;
    *bytes = res->bytes;
    return cudaSuccess;
}

cudaError_t cudaGraphicsUnmapResources(int count, struct cudaGraphicsResource **res, cudaStream_t s)
{
    (void)s;
    for (int i = 0; i < count; ++i) {
        GLint saved = 0;
        if (!res[i]->mapped)
            return fail(cudaErrorNotMapped);
        glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &saved);
        glBindBuffer(GL_COPY_WRITE_BUFFER, res[i]->id);
        glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)res[i]->bytes, res[i]->shadow);
        glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)saved);
        free(res[i]->shadow);
        res[i]->shadow = NULL;
        res[i]->mapped = 0;
    }
    return cudaSuccess;
}

/* ---- the launchers of kernels/conv3x3.cu ---------------------------------------------- */

static cudaError_t check_grid(int w, int h, int bx, int by)
{
    if (bx < 1 || by < 1 || bx * by > 1024 || conv3x3_blocks(h, by) > 65535 || w < 1 || h < 1)
        return fail(cudaErrorInvalidConfiguration);
    return cudaSuccess;
}

int conv3x3_launch_naive(const float *d_in, float *d_out, int w, int h, const conv_params *p, int block_x,
                         int block_y, void *stream)
{
    cudaError_t e = check_grid(w, h, block_x, block_y);
    (void)stream;
    if (e != cudaSuccess)
        return (int)e;
    for (int by = 0; by < conv3x3_blocks(h, block_y); ++by)
        for (int bx = 0; bx < conv3x3_blocks(w, block_x); ++bx)
            for (int ty = 0; ty < block_y; ++ty)
                for (int tx = 0; tx < block_x; ++tx)
                    conv3x3_naive_body(bx, by, tx, ty, block_x, block_y, d_in, d_out, w, h, p);
    return (int)cudaSuccess;
}

size_t conv3x3_tiled_shared_bytes(int block_x, int block_y)
{
    return sizeof(float) * (size_t)conv3x3_tile_slots(block_x, block_y);
}

int conv3x3_launch_tiled(const float *d_in, float *d_out, int w, int h, const conv_params *p, int block_x,
                         int block_y, void *stream)
{
    cudaError_t e = check_grid(w, h, block_x, block_y);
    conv_params c = *p; /* the __constant__ copy */
    float *tile;
    (void)stream;
    if (e != cudaSuccess)
        return (int)e;
    if (conv3x3_tiled_shared_bytes(block_x, block_y) > 48 * 1024)
        return (int)fail(cudaErrorInvalidConfiguration);
    tile = malloc(conv3x3_tiled_shared_bytes(block_x, block_y));
    if (!tile)
        return (int)fail(cudaErrorMemoryAllocation);
    for (int by = 0; by < conv3x3_blocks(h, block_y); ++by)
        for (int bx = 0; bx < conv3x3_blocks(w, block_x); ++bx) {
            for (int ty = 0; ty < block_y; ++ty)
                for (int tx = 0; tx < block_x; ++tx)
                    conv3x3_tile_load_body(bx, by, tx, ty, block_x, block_y, d_in, w, h, c.border, tile);
            /* __syncthreads() */
            for (int ty = 0; ty < block_y; ++ty)
                for (int tx = 0; tx < block_x; ++tx)
                    conv3x3_tile_compute_body(bx, by, tx, ty, block_x, block_y, tile, d_out, w, h, c.weight,
                                              c.divisor);
        }
    free(tile);
    return (int)cudaSuccess;
}

int conv3x3_launch_copy(const float *d_in, float *d_out, size_t n, int block, void *stream)
{
    (void)stream;
    if (block < 1)
        return (int)fail(cudaErrorInvalidConfiguration);
    memcpy(d_out, d_in, n * sizeof(float));
    return (int)cudaSuccess;
}
