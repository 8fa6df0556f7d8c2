/* cuda_mock.c - a CPU stand-in for the part of the CUDA runtime that
 * src/compute/cuda.c calls, and for the launchers of kernels/conv3x3.cu, so
 * the CUDA engine's host code (options, result paths, extrapolation, the
 * present path and its fallbacks, error sentences) runs in tests on a machine
 * without a GPU: a graphics library's dummy backend (docs/ARCHITECTURE.md, section 7).
 *
 * It implements the functions with the CUDA headers' own declarations and
 * links in place of cudart. Device memory is host memory; every call is
 * synchronous; an event records the monotonic clock. The launchers walk the
 * whole grid through the very bodies of kernels/conv3x3_body.h, one block
 * after another (the tiled kernel through a tile per block, loaded by all its
 * threads before any computes, as __syncthreads orders it); a NaN they
 * output is written as a GPU writes it, 0x7fffffff. GL interop maps a GL
 * buffer to a host copy and writes it back into the buffer on unmap. The
 * current device is kept for each host thread, as the runtime keeps it.
 *
 * Shared memory is modelled as a GPU keeps it: one tile per block slot, the
 * slots being the multiprocessors times the blocks each holds at once (as
 * conv3x3_blocks_per_sm answers); block b of a launch runs in slot
 * b % slots, and what it leaves there stays for the next block in that
 * slot, of the same launch or of a later one. So a grid that fits in one
 * wave finds, in a second identical launch, each block's own tile from the
 * first: the tiled kernel without its barrier then reads the right values
 * too early and shows no race, as on a GPU, unless
 * conv3x3_launch_poison_shared filled the slots with NaN in between.
 *
 * What it proves is the host side; the kernels' device code runs only on a
 * GPU (tests/gpu). Knobs, from the environment:
 *   CONVIS_MOCK_CUDA=none|no-driver|old-driver  no device, no driver, a
 *                                       driver older than the runtime
 *   CONVIS_MOCK_CUDA_MEMORY=BYTES       device memory (default 1 GiB)
 *   CONVIS_MOCK_CUDA_GL=shared|other|none  which device cudaGLGetDevices
 *                                       names: 0 (default), 1 (of two), none
 *   CONVIS_MOCK_CUDA_DEVICES=N          devices (default 1; 2 with GL=other)
 *   CONVIS_MOCK_CUDA_REGISTER=fail      cudaGraphicsGLRegisterBuffer fails
 *   CONVIS_MOCK_CUDA_MAP=fail           cudaGraphicsMapResources fails (a
 *                                       registered buffer that cannot be
 *                                       mapped: "mapping of buffer object
 *                                       failed")
 *   CONVIS_MOCK_CUDA_ASYNC=1            streams run their work only when
 *                                       synchronised (a stream, an event, the
 *                                       device), as a GPU runs it later; the
 *                                       default stream (cudaMemcpy) does not
 *                                       wait for them, as with per-thread
 *                                       default streams or non-blocking
 *                                       streams. Host code that forgets a
 *                                       synchronisation reads stale memory.
 *   CONVIS_MOCK_CUDA_FAULT=launch|stuck every kernel launched while it is set
 *                                       faults when it runs: the launch
 *                                       itself succeeds, the fault
 *                                       (cudaErrorLaunchFailure) surfaces at
 *                                       the next call and every call after,
 *                                       as a GPU's sticky errors do, until
 *                                       cudaDeviceReset; "stuck": the reset
 *                                       does not mend it either.
 *   CONVIS_MOCK_CUDA_KERNEL_THREADS=N   what cudaFuncGetAttributes says the
 *                                       kernels' limit is (default 1024)
 *   CONVIS_MOCK_CUDA_THREADS_PER_SM=N   threads one multiprocessor holds
 *                                       (default 2048): the occupancy, and
 *                                       so the block slots
 * and counters for tests (cuda_mock.h). */
#include <GL/glew.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/conv3x3.h"
#include "../../kernels/conv3x3_body.h"
#include "core/timing.h"
#include "cuda_mock.h"

/* Work queued on a stream in async mode, run in order when synchronised. */
typedef enum {
    OP_NONE,
    OP_COPY,
    OP_EVENT,
    OP_FILTER,
    OP_NAIVE,
    OP_TILED,
    OP_TILED_UNSYNCED,
    OP_POISON,
    OP_COPY_KERNEL
} op_kind;

typedef struct mock_op {
    op_kind kind;
    void *dst;
    void *src; /* OP_COPY: a snapshot of the source, owned */
    const float *in;
    size_t bytes;
    cudaEvent_t ev;
    int w, h, bx, by;
    int ow, oh; /* the kernels: the output's size */
    convk_geo g; /* OP_TILED: the window and its geometry */
    int blocks; /* OP_POISON: how many blocks */
    conv_params p;
} mock_op;

struct CUstream_st {
    unsigned long context; /* the context it was made in (see resets) */
    int device;            /* the device current when it was made */
    mock_op *ops;
    size_t count, cap;
    struct CUstream_st *next; /* every live stream, for cudaDeviceSynchronize */
};

struct CUevent_st {
    unsigned long context;
    double t;
    int recorded;         /* 1: done; 0: never recorded or still queued */
    cudaStream_t pending; /* the stream it is queued on, until it runs */
};

struct cudaGraphicsResource {
    GLuint id;
    float *shadow; /* the mapped "device" copy */
    size_t bytes;
    int mapped;
};

/* A device allocation: a header before the memory, to know its size and to
 * free every allocation on cudaDeviceReset. */
typedef struct block_header {
    size_t bytes;
    struct block_header *prev, *next;
    double align; /* keeps the memory after it aligned */
} block_header;

static cudaError_t last_error = cudaSuccess;
static cudaError_t sticky = cudaSuccess; /* a fault that broke the "context" */
static size_t used_bytes;
static block_header *blocks;
/* The current device, as the runtime keeps it: one for each host thread,
 * device 0 until the thread sets another. Work submitted to a stream of
 * another device than the calling thread's current one fails (see submit). */
static _Thread_local int current_device;
static struct CUstream_st *streams;
static conv_params constant_params; /* the tiled kernel's __constant__ */
static long counters[CUDA_MOCK_COUNTER_COUNT];
static unsigned long context = 1; /* made anew by cudaDeviceReset */
static float *shared_slots;       /* the block slots' shared memory (see the top) */
static size_t shared_words;       /* floats in shared_slots */

#define MOCK_SMS 4 /* the multiprocessors cudaGetDeviceProperties reports */

static const char *knob(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && v[0] ? v : fallback;
}

static bool knob_is(const char *name, const char *value)
{
    return strcmp(knob(name, ""), value) == 0;
}

static cudaError_t fail(cudaError_t e)
{
    last_error = e;
    return e;
}

/* Every call that touches the context starts with this: after a fault,
 * the fault is all it returns. */
#define STICKY()                                                                                                       \
    do {                                                                                                               \
        if (sticky != cudaSuccess)                                                                                     \
            return fail(sticky);                                                                                       \
    } while (0)

/* A stream or event made before the last reset is gone with its context. */
#define LIVE(object)                                                                                                   \
    do {                                                                                                               \
        if ((object) && (object)->context != context)                                                                  \
            return fail(cudaErrorInvalidResourceHandle);                                                               \
    } while (0)

long cuda_mock_count(cuda_mock_counter c)
{
    return (unsigned)c < CUDA_MOCK_COUNTER_COUNT ? counters[c] : 0;
}

static int device_count(void)
{
    int n = atoi(knob("CONVIS_MOCK_CUDA_DEVICES", "1"));
    if (knob_is("CONVIS_MOCK_CUDA_GL", "other") && n < 2)
        return 2;
    return n < 1 ? 1 : n;
}

static size_t memory_total(void)
{
    return (size_t)strtoull(knob("CONVIS_MOCK_CUDA_MEMORY", "1073741824"), NULL, 10);
}

static bool async_mode(void)
{
    return knob_is("CONVIS_MOCK_CUDA_ASYNC", "1");
}

/* ---- the kernels, run on the CPU ------------------------------------------------- */

/* Blocks of block_x x block_y threads one multiprocessor holds at once: as
 * threads and the 32 blocks an SM may hold allow (0 for a shape no SM runs). */
static int resident_blocks(int block_x, int block_y)
{
    int threads = block_x * block_y, most = atoi(knob("CONVIS_MOCK_CUDA_THREADS_PER_SM", "2048"));
    if (block_x < 1 || block_y < 1 || threads > 1024)
        return 0;
    return most / threads < 32 ? most / threads : 32;
}

/* The shared memory of the slot block `b` of a launch of block_x x block_y
 * blocks runs in: a tile's worth, kept between launches. NULL (and a
 * sticky launch failure) when there is no memory for the slots. */
static float *slot_tile(long b, int block_x, int block_y, const convk_geo *g)
{
    int per_sm = resident_blocks(block_x, block_y), slots = MOCK_SMS * (per_sm > 0 ? per_sm : 1);
    size_t words = (size_t)convg_tile_words(block_x, block_y, g), need = (size_t)slots * words;
    if (need > shared_words) {
        float *p = realloc(shared_slots, need * sizeof *p);
        if (!p) {
            sticky = cudaErrorLaunchOutOfResources;
            return NULL;
        }
        memset(p + shared_words, 0, (need - shared_words) * sizeof *p);
        shared_slots = p;
        shared_words = need;
    }
    return shared_slots + (size_t)(b % slots) * words;
}

static void run_naive(const float *in, float *out, int w, int h, const conv_params *p, int block_x, int block_y)
{
    for (int by = 0; by < conv3x3_blocks(conv_out_h(p, h), block_y); ++by)
        for (int bx = 0; bx < conv3x3_blocks(conv_out_w(p, w), block_x); ++bx)
            for (int ty = 0; ty < block_y; ++ty)
                for (int tx = 0; tx < block_x; ++tx)
                    conv3x3_naive_body(bx, by, tx, ty, block_x, block_y, in, out, w, h, p);
}

/* The tiled kernel of window and geometry g over an ow x oh output: the
 * 3x3 one (conv3x3_tiled) or the one of the others (conv_tiled_any), as the
 * launcher picks. */
static void run_tiled(const float *in, float *out, int w, int h, int ow, int oh, const conv_params *c, int block_x,
                      int block_y, const convk_geo *g)
{
    int gx = conv3x3_blocks(ow, block_x);
    bool three = g->kw == 3 && g->kh == 3 && g->stride == 1 && g->dilation == 1 && g->pad_x == 1 && g->pad_y == 1;
    for (int by = 0; by < conv3x3_blocks(oh, block_y); ++by)
        for (int bx = 0; bx < gx; ++bx) {
            float *tile = slot_tile((long)by * gx + bx, block_x, block_y, g);
            if (!tile)
                return;
            for (int ty = 0; ty < block_y; ++ty)
                for (int tx = 0; tx < block_x; ++tx)
                    if (three)
                        conv3x3_tile_load_body(bx, by, tx, ty, block_x, block_y, in, w, h, c->border, tile);
                    else
                        convg_tile_load_body(bx, by, tx, ty, block_x, block_y, g, in, w, h, c->border, tile);
            /* __syncthreads() */
            for (int ty = 0; ty < block_y; ++ty)
                for (int tx = 0; tx < block_x; ++tx)
                    if (three)
                        conv3x3_tile_compute_body(bx, by, tx, ty, block_x, block_y, tile, out, w, h, c->weight,
                                                  c->divisor);
                    else
                        convg_tile_compute_body(bx, by, tx, ty, block_x, block_y, g, tile, out, ow, oh, c->weight,
                                                c->divisor);
        }
}

/* The tiled kernel without its barrier, as a GPU may run it: each warp of
 * 32 threads loads its cells and goes straight on to compute, one warp
 * after the other, so early warps read cells later ones have not stored
 * yet: what the block's slot held before (the tile of the block that ran
 * there last, in this launch or an earlier one, or NaN after the poison). */
static void run_tiled_unsynced(const float *in, float *out, int w, int h, const conv_params *c, int block_x,
                               int block_y)
{
    int threads = block_x * block_y, gx = conv3x3_blocks(w, block_x);
    for (int by = 0; by < conv3x3_blocks(h, block_y); ++by)
        for (int bx = 0; bx < gx; ++bx) {
            convk_geo g3 = convk_geo_plain(3, 3);
            float *tile = slot_tile((long)by * gx + bx, block_x, block_y, &g3);
            if (!tile)
                return;
            for (int k = 0; k * 32 < threads; ++k) {
                for (int l = k * 32; l < threads && l < k * 32 + 32; ++l)
                    conv3x3_tile_load_body(bx, by, l % block_x, l / block_x, block_x, block_y, in, w, h, c->border,
                                           tile);
                for (int l = k * 32; l < threads && l < k * 32 + 32; ++l)
                    conv3x3_tile_compute_body(bx, by, l % block_x, l / block_x, block_x, block_y, tile, out, w, h,
                                              c->weight, c->divisor);
            }
        }
}

/* conv3x3_poison_shared, `count` blocks: block b fills its slot's tile with
 * NaN. */
static void run_poison(int block_x, int block_y, int count)
{
    int words = conv3x3_tile_words(block_x, block_y);
    convk_geo g3 = convk_geo_plain(3, 3);
    for (int b = 0; b < count; ++b) {
        float *tile = slot_tile(b, block_x, block_y, &g3);
        if (!tile)
            return;
        for (int i = 0; i < words; ++i)
            tile[i] = NAN;
    }
}

/* A GPU's arithmetic writes one NaN, 0x7fffffff, whatever made it, where
 * the CPU writes 0xffc00000 or keeps the bits of the NaN it was given: the
 * convolutions' outputs here are made so too, so that a comparison of
 * results by their bits alone fails on the stand-in as it would on a GPU
 * (conv_same, in src/core/conv.h, is the rule that holds on both). */
static void gpu_nans(float *out, size_t n)
{
    const uint32_t canonical = 0x7fffffffu;
    for (size_t i = 0; i < n; ++i)
        if (isnan(out[i]))
            memcpy(&out[i], &canonical, sizeof canonical);
}

/* One piece of stream work, now. A kernel launched while
 * CONVIS_MOCK_CUDA_FAULT is set faults here instead of running. */
static void run_op(mock_op *op)
{
    switch (op->kind) {
    case OP_NONE: break;
    case OP_COPY:
        memcpy(op->dst, op->src, op->bytes);
        free(op->src);
        break;
    case OP_EVENT:
        op->ev->t = tim_now_ms();
        op->ev->recorded = 1;
        op->ev->pending = NULL;
        break;
    case OP_FILTER: constant_params = op->p; break;
    case OP_NAIVE:
    case OP_TILED:
    case OP_TILED_UNSYNCED:
    case OP_POISON:
    case OP_COPY_KERNEL:
        if (sticky != cudaSuccess)
            break;
        if (knob_is("CONVIS_MOCK_CUDA_FAULT", "launch") || knob_is("CONVIS_MOCK_CUDA_FAULT", "stuck")) {
            sticky = cudaErrorLaunchFailure;
            break;
        }
        if (op->kind == OP_NAIVE)
            run_naive(op->in, op->dst, op->w, op->h, &op->p, op->bx, op->by);
        else if (op->kind == OP_TILED)
            run_tiled(op->in, op->dst, op->w, op->h, op->ow, op->oh, &constant_params, op->bx, op->by, &op->g);
        else if (op->kind == OP_TILED_UNSYNCED)
            run_tiled_unsynced(op->in, op->dst, op->w, op->h, &constant_params, op->bx, op->by);
        else if (op->kind == OP_POISON)
            run_poison(op->bx, op->by, op->blocks);
        else
            memcpy(op->dst, op->in, op->bytes);
        if (op->kind == OP_NAIVE || op->kind == OP_TILED || op->kind == OP_TILED_UNSYNCED)
            gpu_nans(op->dst, (size_t)op->ow * (size_t)op->oh);
        break;
    }
}

/* Queues `op` on `stream` in async mode; runs it at once otherwise, or on
 * the default stream. A kernel (or the filter's copy to __constant__ memory)
 * on a stream of another device than the calling thread's current one
 * fails, as a launch into such a stream does on a GPU: host code that runs
 * the engine on a thread where its device is not current finds out here. */
static cudaError_t submit(cudaStream_t stream, mock_op op)
{
    if (stream && stream->device != current_device && op.kind != OP_COPY && op.kind != OP_EVENT && op.kind != OP_NONE)
        return fail(cudaErrorInvalidResourceHandle);
    if (!stream || !async_mode()) {
        run_op(&op);
        return cudaSuccess;
    }
    if (stream->count == stream->cap) {
        size_t cap = stream->cap ? 2 * stream->cap : 16;
        mock_op *ops = realloc(stream->ops, cap * sizeof *ops);
        if (!ops) {
            if (op.kind == OP_COPY)
                free(op.src);
            return fail(cudaErrorMemoryAllocation);
        }
        stream->ops = ops;
        stream->cap = cap;
    }
    stream->ops[stream->count++] = op;
    return cudaSuccess;
}

static void drain(cudaStream_t stream)
{
    if (!stream)
        return;
    for (size_t i = 0; i < stream->count; ++i)
        run_op(&stream->ops[i]);
    stream->count = 0;
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
    STICKY();
    *device = current_device;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    STICKY();
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
    prop->multiProcessorCount = MOCK_SMS;
    prop->warpSize = 32;
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

/* The context is gone and made anew: every allocation freed, the fault
 * forgotten (unless CONVIS_MOCK_CUDA_FAULT=stuck). */
cudaError_t cudaDeviceReset(void)
{
    ++counters[CUDA_MOCK_RESETS];
    for (struct CUstream_st *st = streams; st; st = st->next) { /* the queued work is lost with the context */
        for (size_t i = 0; i < st->count; ++i)
            if (st->ops[i].kind == OP_COPY)
                free(st->ops[i].src);
        st->count = 0;
    }
    ++context;
    while (blocks) {
        block_header *b = blocks;
        blocks = b->next;
        free(b);
    }
    used_bytes = 0;
    memset(&constant_params, 0, sizeof constant_params);
    if (!knob_is("CONVIS_MOCK_CUDA_FAULT", "stuck"))
        sticky = cudaSuccess;
    last_error = cudaSuccess;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    STICKY();
    for (struct CUstream_st *st = streams; st; st = st->next)
        drain(st);
    STICKY();
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = sticky != cudaSuccess ? sticky : last_error;
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
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorMapBufferObjectFailed: return "mapping of buffer object failed";
    default: return "unknown error";
    }
}

/* ---- memory ------------------------------------------------------------------ */

cudaError_t cudaMalloc(void **p, size_t bytes)
{
    block_header *b;
    *p = NULL;
    STICKY();
    if (bytes > memory_total() - used_bytes)
        return fail(cudaErrorMemoryAllocation);
    b = malloc(sizeof *b + bytes);
    if (!b)
        return fail(cudaErrorMemoryAllocation);
    b->bytes = bytes;
    b->prev = NULL;
    b->next = blocks;
    if (blocks)
        blocks->prev = b;
    blocks = b;
    used_bytes += bytes;
    *p = b + 1;
    return cudaSuccess;
}

cudaError_t cudaFree(void *p)
{
    block_header *b;
    STICKY();
    if (!p)
        return cudaSuccess;
    b = (block_header *)p - 1;
    if (b->prev)
        b->prev->next = b->next;
    else
        blocks = b->next;
    if (b->next)
        b->next->prev = b->prev;
    used_bytes -= b->bytes;
    free(b);
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b)
{
    STICKY();
    *total_b = memory_total();
    *free_b = *total_b - used_bytes;
    return cudaSuccess;
}

/* The default stream's copy: now, without waiting for other streams (see
 * CONVIS_MOCK_CUDA_ASYNC). */
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    (void)kind;
    STICKY();
    memmove(dst, src, bytes);
    return cudaSuccess;
}

/* Host to device: the source is taken now (staged, as CUDA stages pageable
 * memory) and lands when the stream runs. Device to host: the stream runs
 * first, then the copy (CUDA returns from a copy into pageable memory when
 * it is done). */
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    mock_op op = {.kind = OP_COPY, .dst = dst, .bytes = bytes};
    STICKY();
    LIVE(stream);
    if (kind == cudaMemcpyDeviceToHost) {
        drain(stream);
        STICKY();
        memmove(dst, src, bytes);
        return cudaSuccess;
    }
    op.src = malloc(bytes ? bytes : 1);
    if (!op.src)
        return fail(cudaErrorMemoryAllocation);
    memcpy(op.src, src, bytes);
    return submit(stream, op);
}

/* ---- streams and events ---------------------------------------------------------- */

cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    STICKY();
    *s = calloc(1, sizeof **s);
    if (!*s)
        return fail(cudaErrorMemoryAllocation);
    (*s)->context = context;
    (*s)->device = current_device;
    (*s)->next = streams;
    streams = *s;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    struct CUstream_st **at = &streams;
    if (!s)
        return cudaSuccess;
    while (*at && *at != s)
        at = &(*at)->next;
    if (*at)
        *at = s->next;
    for (size_t i = 0; i < s->count; ++i)
        if (s->ops[i].kind == OP_COPY)
            free(s->ops[i].src);
    free(s->ops);
    free(s);
    STICKY();
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    STICKY();
    LIVE(s);
    drain(s);
    STICKY();
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    STICKY();
    *e = calloc(1, sizeof **e);
    if (!*e)
        return fail(cudaErrorMemoryAllocation);
    (*e)->context = context;
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    for (struct CUstream_st *st = streams; st; st = st->next)
        for (size_t i = 0; i < st->count; ++i)
            if (st->ops[i].kind == OP_EVENT && st->ops[i].ev == e)
                st->ops[i].kind = OP_NONE; /* its record is forgotten */
    free(e);
    STICKY();
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    STICKY();
    LIVE(e);
    LIVE(s);
    e->recorded = 0;
    e->pending = s && async_mode() ? s : NULL;
    return submit(s, (mock_op){.kind = OP_EVENT, .ev = e});
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    STICKY();
    LIVE(e);
    if (e->pending)
        drain(e->pending);
    STICKY();
    return e->recorded ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    STICKY();
    if (a->pending || b->pending)
        return fail(cudaErrorNotReady);
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
    STICKY();
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
    STICKY();
    if (knob_is("CONVIS_MOCK_CUDA_REGISTER", "fail"))
        return fail(cudaErrorUnknown);
    if (!glIsBuffer(id))
        return fail(cudaErrorInvalidValue);
    *res = calloc(1, sizeof **res);
    if (!*res)
        return fail(cudaErrorMemoryAllocation);
    (*res)->id = id;
    ++counters[CUDA_MOCK_REGISTRATIONS];
    return cudaSuccess;
}

cudaError_t cudaGraphicsUnregisterResource(struct cudaGraphicsResource *res)
{
    if (res && res->mapped)
        return fail(cudaErrorAlreadyMapped);
    if (res)
        free(res->shadow);
    free(res);
    STICKY();
    return cudaSuccess;
}

/* Mapping waits for the stream's earlier work; the mapped memory is a host
 * copy of the buffer's size, its old contents discarded (write-discard). */
cudaError_t cudaGraphicsMapResources(int count, struct cudaGraphicsResource **res, cudaStream_t s)
{
    STICKY();
    drain(s);
    if (knob_is("CONVIS_MOCK_CUDA_MAP", "fail"))
        return fail(cudaErrorMapBufferObjectFailed);
    for (int i = 0; i < count; ++i) {
        GLint64 size = gl_size(res[i]->id);
        if (res[i]->mapped)
            return fail(cudaErrorAlreadyMapped);
        if (size < 0)
            return fail(cudaErrorInvalidResourceHandle);
        res[i]->bytes = (size_t)size;
        res[i]->shadow = calloc(1, res[i]->bytes ? res[i]->bytes : 1);
        if (!res[i]->shadow)
            return fail(cudaErrorMemoryAllocation);
        res[i]->mapped = 1;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphicsResourceGetMappedPointer(void **p, size_t *bytes, struct cudaGraphicsResource *res)
{
    STICKY();
    if (!res->mapped)
        return fail(cudaErrorNotMapped);
    *p = res->shadow;
    *bytes = res->bytes;
    return cudaSuccess;
}

/* Unmapping waits for the stream's work into the buffer, then hands the
 * memory back to GL (written into the buffer). */
cudaError_t cudaGraphicsUnmapResources(int count, struct cudaGraphicsResource **res, cudaStream_t s)
{
    if (sticky == cudaSuccess)
        drain(s);
    for (int i = 0; i < count; ++i) {
        GLint saved = 0;
        if (!res[i]->mapped)
            return fail(cudaErrorNotMapped);
        if (sticky != cudaSuccess) { /* unmapped, its contents lost */
            free(res[i]->shadow);
            res[i]->shadow = NULL;
            res[i]->mapped = 0;
            continue;
        }
        glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &saved);
        glBindBuffer(GL_COPY_WRITE_BUFFER, res[i]->id);
        glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)res[i]->bytes, res[i]->shadow);
        glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)saved);
        free(res[i]->shadow);
        res[i]->shadow = NULL;
        res[i]->mapped = 0;
    }
    STICKY();
    return cudaSuccess;
}

/* ---- the launchers of kernels/conv3x3.cu ---------------------------------------------- */

/* The launchers' own checks (conv3x3.cu's shape_ok), then the device's. */
static cudaError_t check_grid(int w, int h, int bx, int by)
{
    if (w < 1 || h < 1 || bx < 1 || by < 1 || bx > 1024 || by > 1024 || conv3x3_blocks(h, by) > 65535)
        return fail(cudaErrorInvalidConfiguration);
    if (bx * by > 1024)
        return fail(cudaErrorInvalidConfiguration);
    return cudaSuccess;
}

int conv3x3_launch_naive(const float *d_in, float *d_out, int w, int h, const conv_params *p, int block_x, int block_y,
                         void *stream)
{
    int ow = conv_out_w(p, w), oh = conv_out_h(p, h);
    cudaError_t e = check_grid(w, h, block_x, block_y);
    if (e == cudaSuccess)
        e = check_grid(ow, oh, block_x, block_y);
    if (e != cudaSuccess)
        return (int)e;
    STICKY();
    LIVE((cudaStream_t)stream);
    ++counters[CUDA_MOCK_LAUNCHES];
    return (int)submit(stream, (mock_op){.kind = OP_NAIVE,
                                         .in = d_in,
                                         .dst = d_out,
                                         .w = w,
                                         .h = h,
                                         .ow = ow,
                                         .oh = oh,
                                         .bx = block_x,
                                         .by = block_y,
                                         .p = *p});
}

size_t conv3x3_tiled_shared_bytes(int block_x, int block_y)
{
    if (block_x < 1 || block_y < 1)
        return 0;
    return sizeof(float) * (size_t)conv3x3_tile_words(block_x, block_y);
}

int conv3x3_set_filter(const conv_params *p, void *stream)
{
    STICKY();
    LIVE((cudaStream_t)stream);
    ++counters[CUDA_MOCK_FILTER_UPLOADS];
    return (int)submit(stream, (mock_op){.kind = OP_FILTER, .p = *p});
}

static size_t shared_bytes(int block_x, int block_y, const convk_geo *g)
{
    if (block_x < 1 || block_y < 1 || block_x > 1024 || block_y > 1024 || !convk_geo_ok(g))
        return 0;
    return sizeof(float) * (size_t)convg_tile_words(block_x, block_y, g);
}

size_t conv3x3_tiled_shared_bytes_k(int block_x, int block_y, int kw, int kh)
{
    convk_geo g = convk_geo_plain(kw, kh);
    return shared_bytes(block_x, block_y, &g);
}

size_t conv_tiled_shared_bytes_geo(int block_x, int block_y, const conv_params *p)
{
    convk_geo g = convk_geo_of(p);
    return shared_bytes(block_x, block_y, &g);
}

/* The tiled kernel of window and geometry g over an ow x oh output, with
 * its barrier or without (kind, 3x3 only). A tile over 48 KiB fails as a
 * launch that asks a GPU for more dynamic shared memory than a block has. */
static int launch_tiled(op_kind kind, const float *d_in, float *d_out, int w, int h, int ow, int oh,
                        const convk_geo *g, int block_x, int block_y, void *stream)
{
    cudaError_t e = check_grid(w, h, block_x, block_y);
    if (e == cudaSuccess)
        e = check_grid(ow, oh, block_x, block_y);
    if (e != cudaSuccess)
        return (int)e;
    if (!convk_geo_ok(g))
        return (int)fail(cudaErrorInvalidValue);
    if (shared_bytes(block_x, block_y, g) > 48 * 1024)
        return (int)fail(cudaErrorInvalidConfiguration);
    STICKY();
    LIVE((cudaStream_t)stream);
    ++counters[CUDA_MOCK_LAUNCHES];
    return (int)submit(stream, (mock_op){.kind = kind,
                                         .in = d_in,
                                         .dst = d_out,
                                         .w = w,
                                         .h = h,
                                         .ow = ow,
                                         .oh = oh,
                                         .bx = block_x,
                                         .by = block_y,
                                         .g = *g});
}

int conv3x3_launch_tiled(const float *d_in, float *d_out, int w, int h, int block_x, int block_y, void *stream)
{
    convk_geo g = convk_geo_plain(3, 3);
    return launch_tiled(OP_TILED, d_in, d_out, w, h, w, h, &g, block_x, block_y, stream);
}

int conv3x3_launch_tiled_k(const float *d_in, float *d_out, int w, int h, int kw, int kh, int block_x, int block_y,
                           void *stream)
{
    convk_geo g = convk_geo_plain(kw, kh);
    return launch_tiled(OP_TILED, d_in, d_out, w, h, w, h, &g, block_x, block_y, stream);
}

int conv_launch_tiled_geo(const float *d_in, float *d_out, int w, int h, const conv_params *p, int block_x, int block_y,
                          void *stream)
{
    convk_geo g = convk_geo_of(p);
    return launch_tiled(OP_TILED, d_in, d_out, w, h, conv_out_w(p, w), conv_out_h(p, h), &g, block_x, block_y, stream);
}

int conv3x3_launch_tiled_unsynced(const float *d_in, float *d_out, int w, int h, int block_x, int block_y, void *stream)
{
    convk_geo g = convk_geo_plain(3, 3);
    return launch_tiled(OP_TILED_UNSYNCED, d_in, d_out, w, h, w, h, &g, block_x, block_y, stream);
}

int conv3x3_launch_poison_shared(int block_x, int block_y, int count, void *stream)
{
    if (block_x < 1 || block_y < 1 || block_x > 1024 || block_y > 1024 || count < 1 || block_x * block_y > 1024 ||
        conv3x3_tiled_shared_bytes(block_x, block_y) > 48 * 1024)
        return (int)fail(cudaErrorInvalidConfiguration);
    STICKY();
    LIVE((cudaStream_t)stream);
    ++counters[CUDA_MOCK_LAUNCHES];
    ++counters[CUDA_MOCK_POISONS];
    return (int)submit(stream, (mock_op){.kind = OP_POISON, .bx = block_x, .by = block_y, .blocks = count});
}

int conv3x3_max_block_threads(int tiled, int *threads)
{
    (void)tiled;
    *threads = 0;
    STICKY();
    *threads = atoi(knob("CONVIS_MOCK_CUDA_KERNEL_THREADS", "1024"));
    return cudaSuccess;
}

int conv3x3_blocks_per_sm(int tiled, int block_x, int block_y, int *resident)
{
    (void)tiled;
    *resident = 0;
    STICKY();
    if (block_x < 1 || block_y < 1 || block_x * block_y > 1024)
        return cudaErrorInvalidConfiguration;
    *resident = resident_blocks(block_x, block_y);
    return cudaSuccess;
}

int conv3x3_launch_copy(const float *d_in, float *d_out, size_t n, int block, void *stream)
{
    if (block < 1 || block > 1024)
        return (int)fail(cudaErrorInvalidConfiguration);
    STICKY();
    LIVE((cudaStream_t)stream);
    ++counters[CUDA_MOCK_LAUNCHES];
    return (int)submit(stream, (mock_op){.kind = OP_COPY_KERNEL, .in = d_in, .dst = d_out, .bytes = n * sizeof(float)});
}

/* ---- the kernel lab's CUDA path (src/compute/cuda_lab.c) ------------------------ */
/* PTX cannot run on the CPU: loading it fails as a driver that refuses it
 * would, and the lab says the kernel did not run. What the stand-in shows
 * there is NVRTC's compile and its messages, read at the learner's lines. */

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code, enum cudaJitOption *jitOptions,
                                void **jitOptionsValues, unsigned int numJitOptions,
                                enum cudaLibraryOption *libraryOptions, void **libraryOptionValues,
                                unsigned int numLibraryOptions)
{
    (void)code, (void)jitOptions, (void)jitOptionsValues, (void)numJitOptions, (void)libraryOptions,
        (void)libraryOptionValues, (void)numLibraryOptions;
    *library = NULL;
    return fail(cudaErrorNotSupported);
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *kernel, cudaLibrary_t library, const char *name)
{
    (void)library, (void)name;
    *kernel = NULL;
    return fail(cudaErrorNotSupported);
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
    (void)library;
    return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s)
{
    (void)func, (void)grid, (void)block, (void)args, (void)shared, (void)s;
    return fail(cudaErrorNotSupported);
}

cudaError_t cudaMemset(void *p, int value, size_t bytes)
{
    memset(p, value, bytes);
    return cudaSuccess;
}
