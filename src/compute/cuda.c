/* cuda.c - the CUDA engine, host side.
 *
 * It launches the kernels of kernels/conv3x3.cu as the engine's options ask
 * (engine.h, eng_options): the tiled kernel (the default) or the naive one,
 * in blocks of block_x x block_y threads, and brings the result back by one
 * of three paths (eng_result). Every phase is timed with cudaEvents on the
 * engine's one stream:
 *
 *   run, bulk           upload | compute | download (one copy)        | overhead
 *   run, per-pixel      upload | compute | download (one copy a pixel,
 *                                          extrapolated past the cap) | overhead
 *   present, interop    upload | compute (the kernel, into the mapped GL buffer) |
 *                       present (the map and the unmap around it)      | overhead
 *   present, copy path  upload | compute | download | present (the GL upload) | overhead
 *
 * overhead is the host's wall time from the first call to the result in
 * place, minus the time the events spanned: launch and synchronisation costs
 * the device never sees. The GL upload of the copy path is GL work, timed
 * by the monotonic clock and closed by glFinish (the record's clock says so).
 *
 * The compute phase is one launch, and a kernel of microseconds spends most
 * of it in the launch's latency. After the run, with the stream idle, the
 * same kernel runs again into d_out, timed apart from the phases (which stay
 * as they were): once after idle, then back to back (measure_kernel; the
 * kernel alone, eng_timing.kernel_ms).
 *
 * CUDA-GL interop (docs/ARCHITECTURE.md, section 2): at open, when an OpenGL context is
 * current, cudaGLGetDevices says which CUDA devices run it; the engine then
 * computes on that device and presents by interop. When none does (the
 * display on another GPU: hybrid laptops, remote desktops, WSL2; or a
 * software renderer), when no context is current, or when registering a
 * buffer or mapping it fails, it takes the copy path instead (device ->
 * host -> GL buffer; a present whose map failed goes on by it, so its frame
 * is not lost) and eng_device says which path runs and why. A GL buffer with
 * immutable storage (glBufferStorage, as the window's are) is registered
 * once (cudaGraphicsGLRegisterBuffer, write-discard) on its first present
 * and kept until eng_forget_buffer or close; one with mutable storage is
 * registered at every present (see link_for). Each present maps it, launches
 * the kernel into it and unmaps it; no GL call touches it while it is
 * mapped.
 *
 * The tiled kernel's filter goes to __constant__ memory in the upload
 * phase, and only when it differs from the one already there.
 *
 * Filters of every size and every geometry run (eng_class.any_size,
 * any_geometry; the output then conv_out_w x conv_out_h, a thread each):
 * the naive kernel through conv_pixel; the tiled kernel with a tile the
 * span of a block's windows (a halo of kw/2 columns and kh/2 rows on the
 * plain geometry), in dynamic shared memory. A tile that does not fit the
 * shared memory of a block is refused in a sentence before anything is
 * uploaded (fits_filter), as is the tiled kernel without its barrier for
 * any window but 3x3 at stride 1.
 *
 * Every CUDA runtime call goes through CUDA_CHECK, every launch is followed
 * by cudaGetLastError (in the launchers), except in clean-up, where a failure
 * has nobody to tell and must not replace the reason being returned. Device
 * buffers are kept between runs and grown when a larger image comes; a
 * failed allocation returns false with the sizes and the free memory. A
 * fault that breaks the CUDA context (an illegal address, a failed launch)
 * makes the engine reset the device and reopen itself, and the failed run's
 * reason says so (mend_if_broken); later runs start afresh.
 *
 * The runtime's current device belongs to the host thread: the window may
 * call the engine from another thread than the one that opened it (bench
 * and record too). Every entry point that calls CUDA first makes the
 * engine's device current on the calling thread (on_device).
 *
 * Environment, for tests and for trying the fallbacks on a machine where
 * everything works:
 *   CONVIS_CUDA_FAIL_ALLOC=1  every device allocation the engine makes fails
 *                             as if the device were full (the message says it
 *                             was injected).
 *   CONVIS_CUDA_INTEROP=0     never map GL buffers: present takes the copy
 *                             path, and says that this variable is why. */
#include <GL/glew.h> /* before cuda_gl_interop.h, which needs the GL types */
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/conv3x3.h"
#include "core/tr.h"
#include "../../kernels/conv3x3_body.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/timing.h"
#include "engines.h"

#define MAX_GL_BUFFERS 8
#define CLOCK_EVENTS N_("cudaEvent")
#define CLOCK_COPY_PATH N_("cudaEvent; the present phase (glBufferSubData) by the monotonic clock, closed by glFinish")

/* Leaves "CALL failed at FILE:LINE: reason" and returns false on error. */
#define CUDA_CHECK(call) cuda_check((call), #call, __FILE__, __LINE__)

/* The error that broke the CUDA context, seen by cuda_check since the
 * engine last mended it (cudaSuccess: none). One per process, as the
 * context is: the engine reads and clears it after each failed run. */
static cudaError_t context_broken;

/* What every engine of the process shares through the one CUDA context,
 * counted so that each engine can tell when another changed it: the tiled
 * kernel's __constant__ filter (uploads), and the context itself (resets,
 * after which every engine's stream, events, buffers and registrations are
 * gone). */
static unsigned long filter_uploads, device_resets;

/* Errors after which the context is unusable: every later call returns the
 * same error until the device is reset (the CUDA runtime API's "sticky"
 * errors: a kernel's illegal access, a launch that failed or timed out, a
 * hardware fault). */
static bool breaks_context(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed: return true;
    default: return false;
    }
}

static bool cuda_check(cudaError_t e, const char *text, const char *file, int line)
{
    if (e == cudaSuccess)
        return true;
    cudaGetLastError(); /* clear a non-sticky error so the next call starts clean */
    if (breaks_context(e) && context_broken == cudaSuccess)
        context_broken = e;
    return err_set("%s failed at %s:%d: %s", text, file, line, cudaGetErrorString(e));
}

/* Events of one run, in stream order. EV_DOWNLOADED closes the timed copies;
 * EV_END comes after everything (on the per-pixel path, after the untimed
 * bulk copy of the pixels past the cap). Then, for the kernel alone
 * (measure_kernel): EV_IDLE, one launch, EV_ONE, launches back to back,
 * EV_BACK_TO_BACK. */
enum {
    EV_START,
    EV_UPLOADED,
    EV_COMPUTED,
    EV_DOWNLOADED,
    EV_END,
    EV_IDLE,
    EV_ONE,
    EV_BACK_TO_BACK,
    EV_MAPPED,   /* interop: the GL buffer mapped, the kernel next */
    EV_LAUNCHED, /* interop: the kernel done, the unmap next */
    EV_COUNT
};

/* One GL buffer registered with CUDA. */
typedef struct gl_link {
    unsigned id;             /* 0 = unused slot */
    long long bytes;         /* its size when registered */
    bool immutable;          /* glBufferStorage: its storage cannot change */
    unsigned long long used; /* the engine's present count when last used */
    struct cudaGraphicsResource *res;
} gl_link;

typedef struct cuda_state {
    int device;
    struct cudaDeviceProp prop;
    cudaStream_t stream;
    cudaEvent_t ev[EV_COUNT];
    float *d_in, *d_out;
    size_t capacity;         /* pixels each device buffer holds */
    float *staging;          /* host memory of the copy path when job->out is NULL */
    size_t staging_capacity; /* pixels it holds */
    eng_options opt;
    conv_params filter;          /* the tiled kernel's filter this engine last uploaded */
    unsigned long filter_upload; /* filter_uploads after that upload: still there while equal */
    bool filter_on_device;       /* whether it uploaded one since its objects were made */
    unsigned long resets_seen;   /* device_resets when its objects were made */
    eng_present_path present;    /* INTEROP or COPY */
    char present_why[256];
    gl_link links[MAX_GL_BUFFERS];
    unsigned long long presents; /* link_for calls: the clock of least-recent use */
    char broken[512];            /* why CUDA cannot be used any more ("" while it can) */
    eng_cuda_layer_ctx *layer;   /* a layer's runs' cuBLAS handle (cuda_layer.c); NULL: none yet */
} cuda_state;

/* ---- small helpers ------------------------------------------------------- */

static void version_text(int v, char *buf, size_t size)
{
    snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* "512 B", "64.0 KiB", "256.0 MiB", "1.5 GiB". */
static void size_text(long long bytes, char *buf, size_t size)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    if (u == 0)
        snprintf(buf, size, "%lld B", bytes);
    else
        snprintf(buf, size, "%.1f %s", v, unit[u]);
}

static bool env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v && strcmp(v, value) == 0;
}

static float elapsed_ms(const cuda_state *s, int from, int to, bool *ok)
{
    float ms = 0.0f;
    if (*ok && !CUDA_CHECK(cudaEventElapsedTime(&ms, s->ev[from], s->ev[to])))
        *ok = false;
    return ms;
}

static bool record(cuda_state *s, int ev)
{
    return CUDA_CHECK(cudaEventRecord(s->ev[ev], s->stream));
}

/* Makes the engine's device current on the calling thread (see the top):
 * cudaGetDevice reads the thread's own, so this costs a call and, on a
 * thread that has another device current, one cudaSetDevice. An engine
 * broken for good says so instead. */
static bool on_device(cuda_state *s)
{
    int current = -1;
    if (s->device < 0)
        return true; /* not chosen yet: open works on the thread's own */
    if (s->broken[0])
        return err_set("%s", s->broken);
    if (cudaGetDevice(&current) == cudaSuccess && current == s->device)
        return true;
    cudaGetLastError();
    return CUDA_CHECK(cudaSetDevice(s->device));
}

/* on_device for clean-up, which has nobody to tell: err_msg() keeps the
 * reason being returned. */
static void on_device_quietly(cuda_state *s)
{
    int current = -1;
    if (s->device >= 0 && (cudaGetDevice(&current) != cudaSuccess || current != s->device))
        cudaSetDevice(s->device);
    cudaGetLastError();
}

/* ---- probe --------------------------------------------------------------- */

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
        snprintf(why, size, _("no NVIDIA driver is installed"));
    else if (e == cudaErrorInsufficientDriver)
        snprintf(why, size,
                 _("the NVIDIA driver supports CUDA %s, older than the CUDA %s runtime convis was built with"), dv, rv);
    else if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0))
        snprintf(why, size, _("no CUDA device was found%s"),
                 getenv("CUDA_VISIBLE_DEVICES") ? _(" (CUDA_VISIBLE_DEVICES hides them all?)") : "");
    else
        snprintf(why, size, "%s", cudaGetErrorString(e));
    return false;
}

/* ---- OpenGL -------------------------------------------------------------- */

/* Loads the GL entry points the copy path and the size check use, when the
 * app has not yet (the window's render layer and the gl engine do). */
static bool gl_load(void)
{
    GLenum e;
    if (glBufferSubData && glGetBufferParameteri64v)
        return true;
    glewExperimental = GL_TRUE;
    e = glewInit();
    /* GLEW built for GLX says NO_GLX_DISPLAY on an EGL context, after loading
     * the core entry points all the same. */
    if (e != GLEW_OK && e != GLEW_ERROR_NO_GLX_DISPLAY)
        return err_set("cannot load the OpenGL functions: %s", (const char *)glewGetErrorString(e));
    while (glGetError() != GL_NO_ERROR) /* glewInit asks for GL_EXTENSIONS, an error in a core context */
        ;
    if (!glBufferSubData || !glGetBufferParameteri64v)
        return err_set("the OpenGL driver lacks glBufferSubData or glGetBufferParameteri64v (OpenGL 3.2)");
    return true;
}

/* Drains the GL error flags (bounded: a lost context may report one on every
 * call); returns the first. */
static GLenum gl_take_errors(void)
{
    GLenum first = glGetError(), e = first;
    for (int i = 0; i < 16 && e != GL_NO_ERROR; ++i)
        e = glGetError();
    return first;
}

/* The size in bytes of GL buffer `id`, and whether its storage is
 * immutable (glBufferStorage, OpenGL 4.4: it can never be given new storage;
 * false on older contexts). The buffer is bound for a moment to
 * GL_COPY_WRITE_BUFFER, which is then restored. */
static bool gl_buffer_info(unsigned id, long long *bytes, bool *immutable)
{
    GLint saved = 0, fixed = GL_FALSE;
    GLint64 size = -1;
    GLenum e;

    gl_take_errors(); /* not ours: whatever the context's other users left */
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &saved);
    glBindBuffer(GL_COPY_WRITE_BUFFER, id);
    glGetBufferParameteri64v(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &size);
    e = gl_take_errors();
    if (e == GL_NO_ERROR && id != 0) {
        glGetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_IMMUTABLE_STORAGE, &fixed);
        if (gl_take_errors() != GL_NO_ERROR) /* a context older than 4.4 */
            fixed = GL_FALSE;
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)saved);
    if (e != GL_NO_ERROR || id == 0)
        return err_set("%u is not a GL buffer of the current context (GL error 0x%04x)", id, (unsigned)e);
    *bytes = (long long)size;
    *immutable = fixed == GL_TRUE;
    return true;
}

/* Copies `bytes` from host memory into GL buffer `id`, returning when GL is
 * done with it (glFinish closes the timed phase); the caller's binding of
 * GL_COPY_WRITE_BUFFER is restored. */
static bool gl_upload(unsigned id, const float *src, size_t bytes)
{
    GLint saved = 0;
    GLenum e;

    gl_take_errors();
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &saved);
    glBindBuffer(GL_COPY_WRITE_BUFFER, id);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)bytes, src);
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)saved);
    glFinish();
    e = gl_take_errors();
    if (e != GL_NO_ERROR)
        return err_set("OpenGL reported error 0x%04x copying the result (%zu bytes) into GL buffer %u", (unsigned)e,
                       bytes, id);
    return true;
}

/* ---- open, close, options ------------------------------------------------ */

/* Picks the device and the present path. With an OpenGL context current,
 * the device that runs it (cudaGLGetDevices) when there is one: interop;
 * otherwise the current device and the copy path, with the reason. */
static bool choose_device(cuda_state *s)
{
    unsigned n = 0;
    int devs[8], current = 0;
    cudaError_t e;
    const char *renderer;

    s->present = ENG_PRESENT_COPY;
    if (env_is("CONVIS_CUDA_INTEROP", "0")) {
        snprintf(s->present_why, sizeof s->present_why,
                 "CUDA-GL interop is turned off (CONVIS_CUDA_INTEROP=0): results go device -> host -> GL buffer");
        return true;
    }
    if (!eng_gl_context_current()) {
        snprintf(s->present_why, sizeof s->present_why,
                 "no OpenGL context was current when the CUDA engine opened: results go device -> host -> GL buffer");
        return true;
    }
    renderer = (const char *)glGetString(GL_RENDERER);
    e = cudaGLGetDevices(&n, devs, sizeof devs / sizeof devs[0], cudaGLDeviceListAll);
    if (e != cudaSuccess || n == 0) {
        cudaGetLastError();
        snprintf(s->present_why, sizeof s->present_why,
                 "the display's OpenGL runs on %s, which CUDA cannot share (cudaGLGetDevices: %s): results go "
                 "device -> host -> GL buffer",
                 renderer ? renderer : "an unknown renderer",
                 e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device");
        return true;
    }
    if (!CUDA_CHECK(cudaGetDevice(&current)))
        return false;
    for (unsigned i = 0; i < n && i < sizeof devs / sizeof devs[0]; ++i)
        if (devs[i] == current) {
            s->present = ENG_PRESENT_INTEROP;
            return true;
        }
    /* The display runs on another CUDA device than the default: compute there. */
    if (!CUDA_CHECK(cudaSetDevice(devs[0])))
        return false;
    s->present = ENG_PRESENT_INTEROP;
    return true;
}

static void unregister(gl_link *l)
{
    if (l->res)
        cudaGraphicsUnregisterResource(l->res); /* clean-up: nothing to report to */
    memset(l, 0, sizeof *l);
}

/* Drops the handles of the engine's objects on the device without
 * releasing them: they went with a context that another engine reset. */
static void forget_device_objects(cuda_state *s)
{
    memset(s->links, 0, sizeof s->links);
    memset(s->ev, 0, sizeof s->ev);
    s->stream = NULL;
    s->d_in = s->d_out = NULL;
    s->capacity = 0;
    s->filter_on_device = false;
    eng_cuda_layer_forget(s->layer); /* its handle went with the old context */
    s->layer = NULL;
}

/* Lets go of everything the engine holds on the device: registrations,
 * buffers, events, the stream. Clean-up: errors are ignored (after a fault
 * every call fails), there is nobody left to tell. */
static void release_device_objects(cuda_state *s)
{
    if (s->resets_seen != device_resets)
        forget_device_objects(s);
    if (s->stream)
        cudaStreamSynchronize(s->stream);
    for (int i = 0; i < MAX_GL_BUFFERS; ++i)
        unregister(&s->links[i]);
    cudaFree(s->d_in);
    cudaFree(s->d_out);
    s->d_in = s->d_out = NULL;
    s->capacity = 0;
    for (int i = 0; i < EV_COUNT; ++i)
        if (s->ev[i])
            cudaEventDestroy(s->ev[i]);
    memset(s->ev, 0, sizeof s->ev);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    s->stream = NULL;
    s->filter_on_device = false;
    eng_cuda_layer_free(s->layer);
    s->layer = NULL;
    cudaGetLastError();
}

/* The stream and the events of the runs, on the current device. */
static bool acquire_device_objects(cuda_state *s)
{
    s->resets_seen = device_resets;
    if (!CUDA_CHECK(cudaStreamCreate(&s->stream)))
        return false;
    for (int i = 0; i < EV_COUNT; ++i)
        if (!CUDA_CHECK(cudaEventCreate(&s->ev[i])))
            return false;
    return true;
}

static void cuda_close(void *state)
{
    cuda_state *s = state;
    if (!s)
        return;
    on_device_quietly(s);
    release_device_objects(s);
    free(s->staging);
    free(s);
}

static void *cuda_open(void)
{
    cuda_state *s = calloc(1, sizeof *s);
    if (!s) {
        err_set("out of memory");
        return NULL;
    }
    s->device = -1; /* chosen below */
    s->opt = eng_options_resolved(NULL);
    if (!choose_device(s) || !CUDA_CHECK(cudaGetDevice(&s->device)) ||
        !CUDA_CHECK(cudaGetDeviceProperties(&s->prop, s->device)) || !acquire_device_objects(s))
        goto fail;
    if (s->present == ENG_PRESENT_INTEROP)
        snprintf(s->present_why, sizeof s->present_why,
                 "CUDA and OpenGL share %s: the kernel writes the GL buffer, mapped, with no copy", s->prop.name);
    return s;
fail:
    cuda_close(s);
    return NULL;
}

/* After a failed run or present: when the failure broke the CUDA context
 * (a kernel's illegal access, a launch failure; see breaks_context), every
 * later call would fail with the same error. Reset the device, make the
 * engine's stream and events again (buffers and registrations come back on
 * the next run), and add to the reason being returned what happened, once.
 * When the reset does not mend it, the engine says so from now on. */
static void mend_if_broken(cuda_state *s)
{
    char reason[400];
    cudaError_t fault = context_broken, reset;

    if (fault == cudaSuccess)
        return;
    snprintf(reason, sizeof reason, "%s", err_msg());
    release_device_objects(s);
    reset = cudaDeviceReset();
    ++device_resets;
    cudaGetLastError();
    context_broken = cudaSuccess;
    if (reset == cudaSuccess && CUDA_CHECK(cudaSetDevice(s->device)) && acquire_device_objects(s) &&
        context_broken == cudaSuccess) {
        err_set("%s; that fault broke the CUDA context on %s, so convis reset the device and reopened the CUDA "
                "engine: the next run starts afresh",
                reason, s->prop.name);
        return;
    }
    release_device_objects(s);
    context_broken = cudaSuccess;
    snprintf(s->broken, sizeof s->broken,
             "the CUDA context on %s broke (%s) and resetting the device did not mend it%s%s: restart convis to use "
             "CUDA again",
             s->prop.name, cudaGetErrorString(fault), reset == cudaSuccess ? "" : ": ",
             reset == cudaSuccess ? "" : cudaGetErrorString(reset));
    err_set("%s; %s", reason, s->broken);
}

/* Whether `kernel` can run blocks of `threads` threads on this device: its
 * own limit (cudaFuncGetAttributes), which its registers may set below the
 * device's. */
static bool kernel_takes(cuda_state *s, eng_kernel kernel, bool any_window, int threads)
{
    int most = 0;
    if (!cuda_check((cudaError_t)conv3x3_max_block_threads(kernel == ENG_KERNEL_TILED ? 1 + any_window : 0, &most),
                    "conv3x3_max_block_threads", __FILE__, __LINE__))
        return false;
    if (threads > most)
        return err_set("a block of %d threads is more than the %s kernel can run on %s: at most %d threads a "
                       "block, as its registers and the device allow",
                       threads, eng_kernel_name(kernel), s->prop.name, most);
    return true;
}

/* Checks that this device can launch blocks of the asked size (and, for the
 * tiled kernel, give them their tile of shared memory). */
static bool cuda_configure(void *state, const eng_options *o)
{
    cuda_state *s = state;
    int threads = o->block_x * o->block_y;

    if (!on_device(s))
        return false;
    if (threads > s->prop.maxThreadsPerBlock || o->block_x > s->prop.maxThreadsDim[0] ||
        o->block_y > s->prop.maxThreadsDim[1])
        return err_set("a block of %dx%d threads does not fit %s: at most %d threads a block, %dx%d on a side",
                       o->block_x, o->block_y, s->prop.name, s->prop.maxThreadsPerBlock, s->prop.maxThreadsDim[0],
                       s->prop.maxThreadsDim[1]);
    if (!kernel_takes(s, o->kernel, false, threads))
        return false;
    if (o->kernel == ENG_KERNEL_TILED && conv3x3_tiled_shared_bytes(o->block_x, o->block_y) > s->prop.sharedMemPerBlock)
        return err_set("the tiled kernel's tile for %dx%d blocks needs %zu bytes of shared memory; %s gives a block "
                       "%zu",
                       o->block_x, o->block_y, conv3x3_tiled_shared_bytes(o->block_x, o->block_y), s->prop.name,
                       (size_t)s->prop.sharedMemPerBlock);
    s->opt = *o;
    return true;
}

static void cuda_describe(void *state, char *buf, size_t size)
{
    cuda_state *s = state;
    const char *path = "";
    if (s->opt.result == ENG_RESULT_PER_PIXEL)
        path = _(", one copy per pixel");
    else if (s->opt.result == ENG_RESULT_INTEROP)
        path = s->present == ENG_PRESENT_INTEROP ? _(", CUDA-GL interop") : _(", copy path (no interop here)");
    snprintf(buf, size,
             ngettext("CUDA on %s (%d SM), %s kernel, %dx%d threads a block%s",
                      "CUDA on %s (%d SMs), %s kernel, %dx%d threads a block%s",
                      (unsigned long)s->prop.multiProcessorCount),
             s->prop.name, s->prop.multiProcessorCount, C_("kernel", eng_kernel_name(s->opt.kernel)), s->opt.block_x,
             s->opt.block_y, path);
}

static bool cuda_device(void *state, eng_device_info *info)
{
    cuda_state *s = state;
    size_t free_b = 0, total_b = 0;

    if (!on_device(s))
        return false;
    snprintf(info->name, sizeof info->name, "%s", s->prop.name);
    info->hardware = ENG_HW_GPU;
    info->compute_units = s->prop.multiProcessorCount;
    info->subgroup = s->prop.warpSize;
    if (conv3x3_blocks_per_sm(s->opt.kernel == ENG_KERNEL_TILED, s->opt.block_x, s->opt.block_y,
                              &info->blocks_per_unit) != 0) {
        info->blocks_per_unit = 0; /* not known: the view says so */
        cudaGetLastError();
    }
    info->unit_name = "SM";
    info->memory_engine = 2 * (long long)(s->capacity * sizeof(float));
    info->present = s->present;
    snprintf(info->present_why, sizeof info->present_why, "%s", s->present_why);
    if (!CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b)))
        return false;
    info->memory_total = (long long)total_b;
    info->memory_free = (long long)free_b;
    return true;
}

/* ---- memory -------------------------------------------------------------- */

/* The outputs of a job: conv_out_w x conv_out_h (the input's pixels on the
 * plain geometry). */
static int out_w(const eng_job *job)
{
    return conv_out_w(&job->params, job->in->w);
}

static int out_h(const eng_job *job)
{
    return conv_out_h(&job->params, job->in->h);
}

static long long out_count(const eng_job *job)
{
    return (long long)out_w(job) * out_h(job);
}

/* Makes the device buffers hold a w x h image and its output (n floats
 * each, the larger of the two). A failure (the device is full, or
 * CONVIS_CUDA_FAIL_ALLOC=1) leaves a sentence with the sizes and the free
 * memory, and no buffers. */
static bool ensure_capacity(cuda_state *s, int w, int h, size_t n)
{
    size_t bytes = n * sizeof(float), free_b = 0, total_b = 0;
    bool injected = env_is("CONVIS_CUDA_FAIL_ALLOC", "1");
    char one[32], two[32], fr[32], tot[32];
    cudaError_t e;

    if (n <= s->capacity)
        return true;
    cudaFree(s->d_in); /* the old, smaller buffers: nothing in them is needed */
    cudaFree(s->d_out);
    s->d_in = s->d_out = NULL;
    s->capacity = 0;
    if (injected) {
        e = cudaErrorMemoryAllocation;
    } else {
        e = cudaMalloc((void **)&s->d_in, bytes);
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&s->d_out, bytes);
    }
    if (e == cudaSuccess) {
        s->capacity = n;
        return true;
    }
    cudaGetLastError();
    cudaFree(s->d_in); /* clean-up after the failure being reported */
    s->d_in = NULL;
    s->d_out = NULL;
    if (!CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b)))
        free_b = total_b = 0;
    size_text((long long)bytes, one, sizeof one);
    size_text(2 * (long long)bytes, two, sizeof two);
    size_text((long long)free_b, fr, sizeof fr);
    size_text((long long)total_b, tot, sizeof tot);
    return err_set("a %dx%d image needs two device buffers of %s (%s) on %s, which has %s free of %s: %s%s", w, h, one,
                   two, s->prop.name, fr, tot, cudaGetErrorString(e),
                   injected ? _(" (a failure injected by CONVIS_CUDA_FAIL_ALLOC=1)") : "");
}

/* Host memory for the copy path when the caller gave no job->out. */
static float *staging_for(cuda_state *s, size_t n)
{
    if (n > s->staging_capacity) {
        float *p = realloc(s->staging, n * sizeof *p);
        if (!p) {
            err_set("out of host memory for a %zu-pixel copy of the result", n);
            return NULL;
        }
        s->staging = p;
        s->staging_capacity = n;
    }
    return s->staging;
}

/* Whether a w x h output fits the device's grid with the current blocks. */
static bool fits_grid(const cuda_state *s, int w, int h)
{
    int gx = conv3x3_blocks(w, s->opt.block_x), gy = conv3x3_blocks(h, s->opt.block_y);
    if (gx > s->prop.maxGridSize[0] || gy > s->prop.maxGridSize[1])
        return err_set("a %dx%d output needs %dx%d blocks of %dx%d threads; %s launches at most %dx%d", w, h, gx, gy,
                       s->opt.block_x, s->opt.block_y, s->prop.name, s->prop.maxGridSize[0], s->prop.maxGridSize[1]);
    return true;
}

/* ---- the steps of a run -------------------------------------------------- */

/* EV_START, the input to the device and, for the tiled kernel, its filter
 * when it changed (to __constant__ memory: host-to-device work, so timed
 * here, not in compute, where the naive kernel pays nothing like it),
 * EV_UPLOADED. */
static bool upload(cuda_state *s, const eng_job *job)
{
    size_t bytes = (size_t)job->in->w * (size_t)job->in->h * sizeof(float);
    if (!record(s, EV_START) ||
        !CUDA_CHECK(cudaMemcpyAsync(s->d_in, job->in->px, bytes, cudaMemcpyHostToDevice, s->stream)))
        return false;
    if (s->opt.kernel == ENG_KERNEL_TILED && (!s->filter_on_device || s->filter_upload != filter_uploads ||
                                              memcmp(&s->filter, &job->params, sizeof s->filter) != 0)) {
        s->filter = job->params;
        s->filter_on_device = false;
        ++filter_uploads;
        if (!cuda_check((cudaError_t)conv3x3_set_filter(&s->filter, s->stream), "conv3x3_set_filter", __FILE__,
                        __LINE__))
            return false;
        s->filter_on_device = true;
        s->filter_upload = filter_uploads;
    }
    return record(s, EV_UPLOADED);
}

/* Before the tiled kernel without its barrier: the poison kernel fills the
 * shared memory of every block slot with NaN, on the engine's stream.
 * Otherwise each block of a grid that fits in one wave finds its own tile
 * from the previous identical run there, a cell read too early holds the
 * right value, and the race does not show. As many blocks as the
 * convolution's grid, and at least as many as the multiprocessors hold at
 * once (their count times the occupancy), up to the device's grid limit.
 * Its time is in the compute phase of that run, which is compared, not
 * timed. */
static bool poison_shared(cuda_state *s, int w, int h)
{
    int bx = s->opt.block_x, by = s->opt.block_y, per_sm = 0;
    long long grid = (long long)conv3x3_blocks(w, bx) * conv3x3_blocks(h, by), blocks;
    if (!cuda_check((cudaError_t)conv3x3_blocks_per_sm(1, bx, by, &per_sm), "conv3x3_blocks_per_sm", __FILE__,
                    __LINE__))
        return false;
    blocks = (long long)s->prop.multiProcessorCount * per_sm;
    blocks = blocks > grid ? blocks : grid;
    blocks = blocks < s->prop.maxGridSize[0] ? blocks : s->prop.maxGridSize[0];
    return cuda_check((cudaError_t)conv3x3_launch_poison_shared(bx, by, (int)blocks, s->stream),
                      "conv3x3_launch_poison_shared", __FILE__, __LINE__);
}

/* Launches the kernel the options name from d_in into `d_dst` (the
 * output's floats on the device), and says how. */
static bool launch(cuda_state *s, const eng_job *job, float *d_dst, eng_launch *l)
{
    int w = job->in->w, h = job->in->h, bx = s->opt.block_x, by = s->opt.block_y;
    bool naive = s->opt.kernel == ENG_KERNEL_NAIVE, unsynced = !naive && s->opt.no_barrier;
    int e;
    if (unsynced && !poison_shared(s, w, h))
        return false;
    e = naive      ? conv3x3_launch_naive(s->d_in, d_dst, w, h, &job->params, bx, by, s->stream)
        : unsynced ? conv3x3_launch_tiled_unsynced(s->d_in, d_dst, w, h, bx, by, s->stream)
                   : conv_launch_tiled_geo(s->d_in, d_dst, w, h, &job->params, bx, by, s->stream);
    if (!cuda_check((cudaError_t)e,
                    naive      ? "conv3x3_launch_naive"
                    : unsynced ? "conv3x3_launch_tiled_unsynced"
                               : "conv_launch_tiled_geo",
                    __FILE__, __LINE__))
        return false;
    *l = (eng_launch){
        .grid_x = conv3x3_blocks(out_w(job), bx), .grid_y = conv3x3_blocks(out_h(job), by), .block_x = bx, .block_y = by};
    return true;
}

/* The trap: one device -> host copy per output pixel, with cudaMemcpy, the
 * call a first port writes in a loop. Each returns only when its 4 bytes
 * have arrived. cudaMemcpy runs on the default stream, not the engine's, so
 * the engine's stream is synchronised first: the kernel has written every
 * output before the first copy, whatever the default stream's semantics
 * (legacy or per-thread). Runs for at most per_pixel_max pixels or
 * per_pixel_budget_ms of the host clock, whichever ends first; *done says
 * how many it copied. */
static bool copy_per_pixel(cuda_state *s, float *dst, long long n, long long *done)
{
    long long cap = n < s->opt.per_pixel_max ? n : s->opt.per_pixel_max, i = 0;
    double t0;

    if (!CUDA_CHECK(cudaStreamSynchronize(s->stream)))
        return false;
    t0 = tim_now_ms();
    while (i < cap) {
        if (!CUDA_CHECK(cudaMemcpy(dst + i, s->d_out + i, sizeof(float), cudaMemcpyDeviceToHost)))
            return false;
        ++i;
        if (tim_now_ms() - t0 >= s->opt.per_pixel_budget_ms)
            break;
    }
    *done = i;
    return true;
}

/* Brings the result from d_out into host memory `dst` by `path` (bulk or
 * per pixel), records EV_DOWNLOADED after the timed copies and EV_END after
 * everything, and waits for EV_END. Fills the download phase, the result
 * path and, per pixel, the extrapolation. */
static bool download(cuda_state *s, float *dst, long long n, eng_result path, eng_timing *timing)
{
    long long done = n;
    bool ok = true;
    float ms;

    if (path == ENG_RESULT_PER_PIXEL) {
        if (!copy_per_pixel(s, dst, n, &done) || !record(s, EV_DOWNLOADED))
            return false;
        /* The rest in one copy, untimed as a phase, so the result is whole. */
        if (done < n && !CUDA_CHECK(cudaMemcpyAsync(dst + done, s->d_out + done, (size_t)(n - done) * sizeof(float),
                                                    cudaMemcpyDeviceToHost, s->stream)))
            return false;
    } else {
        if (!CUDA_CHECK(cudaMemcpyAsync(dst, s->d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost, s->stream)) ||
            !record(s, EV_DOWNLOADED))
            return false;
    }
    if (!record(s, EV_END) || !CUDA_CHECK(cudaEventSynchronize(s->ev[EV_END])))
        return false;
    ms = elapsed_ms(s, EV_COMPUTED, EV_DOWNLOADED, &ok);
    if (!ok)
        return false;
    timing->ms[ENG_DOWNLOAD] = path == ENG_RESULT_PER_PIXEL ? (double)ms / (double)done * (double)n : (double)ms;
    timing->has[ENG_DOWNLOAD] = true;
    timing->result = path == ENG_RESULT_PER_PIXEL ? ENG_RESULT_PER_PIXEL : ENG_RESULT_BULK;
    timing->extrapolated = done < n;
    timing->measured_px = path == ENG_RESULT_PER_PIXEL ? done : 0;
    return true;
}

/* Upload, compute into d_out, download by `path` into `dst`: the run, and
 * the first half of the copy path. Fills every phase but overhead. */
static bool compute_to_host(cuda_state *s, const eng_job *job, float *dst, eng_result path, eng_timing *timing)
{
    long long n = out_count(job);
    bool ok = true;

    if (!upload(s, job) || !launch(s, job, s->d_out, &timing->launch) || !record(s, EV_COMPUTED) ||
        !download(s, dst, n, path, timing))
        return false;
    timing->ms[ENG_UPLOAD] = elapsed_ms(s, EV_START, EV_UPLOADED, &ok);
    timing->ms[ENG_COMPUTE] = elapsed_ms(s, EV_UPLOADED, EV_COMPUTED, &ok);
    timing->has[ENG_UPLOAD] = timing->has[ENG_COMPUTE] = true;
    return ok;
}

/* overhead = the host's wall time minus what the events spanned (and minus
 * `other_ms`, phases timed apart from the events). */
static bool finish_timing(cuda_state *s, double wall, double other_ms, const char *clock, eng_timing *timing)
{
    bool ok = true;
    double span = elapsed_ms(s, EV_START, EV_END, &ok) + other_ms;
    timing->ms[ENG_OVERHEAD] = wall > span ? wall - span : 0.0;
    timing->has[ENG_OVERHEAD] = true;
    timing->clock = clock;
    return ok;
}

/* The kernel alone: at most this many launches back to back, taking about
 * this much of the device's time. */
#define KERNEL_ALONE_LAUNCHES 20
#define KERNEL_ALONE_BUDGET_MS 1.0

/* The kernel alone (eng_timing.kernel_ms), after a run whose phase with the
 * kernel in it (compute; present on the interop path, with the map and the
 * unmap) took `phase_ms`: on the idle stream, EV_IDLE, one launch, EV_ONE,
 * n launches back to back, EV_BACK_TO_BACK, all from d_in into d_out (the
 * run's image is still in d_in; d_out gets the same result each time).
 * n is as many as KERNEL_ALONE_BUDGET_MS holds by the phase's time, at
 * most KERNEL_ALONE_LAUNCHES: 20 for a kernel of up to 50 us, fewer for a
 * longer one, so that a large image costs about a millisecond more and a
 * small one twenty launches of microseconds. A kernel whose phase took over
 * half the budget is not measured again (n would be under 2): a launch's
 * microseconds are lost in it, and the compute phase is the kernel's time.
 * Nor is the kernel without its barrier, whose runs are compared, not
 * timed. */
static bool time_kernel_alone(cuda_state *s, const eng_job *job, double phase_ms, eng_timing *timing)
{
    eng_launch l;
    int n = phase_ms * KERNEL_ALONE_LAUNCHES > KERNEL_ALONE_BUDGET_MS ? (int)(KERNEL_ALONE_BUDGET_MS / phase_ms)
                                                                      : KERNEL_ALONE_LAUNCHES;
    bool ok = true;
    double one, many;

    if (n < 2 || s->opt.no_barrier)
        return true;
    if (!record(s, EV_IDLE) || !launch(s, job, s->d_out, &l) || !record(s, EV_ONE))
        return false;
    for (int i = 0; i < n; ++i)
        if (!launch(s, job, s->d_out, &l))
            return false;
    if (!record(s, EV_BACK_TO_BACK) || !CUDA_CHECK(cudaEventSynchronize(s->ev[EV_BACK_TO_BACK])))
        return false;
    one = elapsed_ms(s, EV_IDLE, EV_ONE, &ok);
    many = elapsed_ms(s, EV_ONE, EV_BACK_TO_BACK, &ok);
    if (!ok)
        return false;
    timing->has_kernel = true;
    timing->kernel_launches = n;
    timing->kernel_one_ms = one;
    timing->kernel_ms = many / n;
    return true;
}

/* The kernel timed alone (time_kernel_alone), after the run's result is
 * already where it goes: a failure there costs the figure, not the frame,
 * unless it broke the context, which the caller then mends. */
static bool measure_kernel(cuda_state *s, const eng_job *job, double phase_ms, eng_timing *timing)
{
    if (time_kernel_alone(s, job, phase_ms, timing))
        return true;
    if (context_broken != cudaSuccess)
        return false;
    cudaGetLastError();
    timing->has_kernel = false;
    return true;
}

/* Whether the kernel the options name runs this filter's window and
 * geometry with the current blocks. The naive kernel runs every one. The
 * tiled kernel of a window other than 3x3 or a geometry other than the
 * plain one is another kernel, with its own limit of threads, and its tile
 * (the span of a block's windows) must fit the shared memory of a block;
 * the tiled kernel without its barrier is 3x3 at stride 1 only. */
static bool fits_filter(cuda_state *s, const conv_params *p)
{
    size_t bytes;
    if (s->opt.kernel != ENG_KERNEL_TILED || (p->kw == 3 && p->kh == 3 && conv_plain(p)))
        return true;
    if (s->opt.no_barrier)
        return err_set("the tiled kernel without its barrier runs 3\xC3\x97"
                       "3 filters at stride 1 only; this one is %d\xC3\x97%d at stride %d, dilation %d, '%s' (with "
                       "the barrier, or the naive kernel, it runs)",
                       p->kw, p->kh, p->stride, p->dilation, conv_padding_name((conv_padding)p->padding));
    bytes = conv_tiled_shared_bytes_geo(s->opt.block_x, s->opt.block_y, p);
    if (bytes > s->prop.sharedMemPerBlock) {
        char at[64] = "";
        if (!conv_plain(p))
            snprintf(at, sizeof at, _(" at stride %d and dilation %d"), p->stride, p->dilation);
        return err_set("the tiled kernel's tile of a %d\xC3\x97%d filter%s for %dx%d blocks needs %zu bytes of "
                       "shared memory; %s gives a block %zu (smaller blocks, or the naive kernel, run it)",
                       p->kw, p->kh, at, s->opt.block_x, s->opt.block_y, bytes, s->prop.name,
                       (size_t)s->prop.sharedMemPerBlock);
    }
    return kernel_takes(s, ENG_KERNEL_TILED, true, s->opt.block_x * s->opt.block_y);
}

static bool prepare(cuda_state *s, const eng_job *job)
{
    size_t in_n = (size_t)job->in->w * (size_t)job->in->h, out_n = (size_t)out_count(job);
    return fits_grid(s, out_w(job), out_h(job)) && fits_filter(s, &job->params) &&
           ensure_capacity(s, job->in->w, job->in->h, in_n > out_n ? in_n : out_n);
}

static bool run_once(cuda_state *s, const eng_job *job, eng_timing *timing)
{
    eng_result path = s->opt.result == ENG_RESULT_PER_PIXEL ? ENG_RESULT_PER_PIXEL : ENG_RESULT_BULK;
    double t0;

    if (!prepare(s, job))
        return false;
    t0 = tim_now_ms();
    if (!compute_to_host(s, job, job->out->px, path, timing) ||
        !finish_timing(s, tim_now_ms() - t0, 0.0, CLOCK_EVENTS, timing))
        return false;
    return measure_kernel(s, job, timing->ms[ENG_COMPUTE], timing);
}

/* Whether the engine can run: not broken for good, its device current on
 * the calling thread, and its objects made again when another engine reset
 * the device since (they went with the old context: forgotten, not
 * freed). */
static bool ready(cuda_state *s)
{
    if (s->broken[0])
        return err_set("%s", s->broken);
    if (!on_device(s))
        return false;
    if (s->resets_seen == device_resets)
        return true;
    forget_device_objects(s);
    return acquire_device_objects(s);
}

static bool cuda_run(void *state, const eng_job *job, eng_timing *timing)
{
    cuda_state *s = state;
    if (ready(s) && run_once(s, job, timing))
        return true;
    mend_if_broken(s);
    return false;
}

/* ---- present ------------------------------------------------------------- */

/* The registration of GL buffer `id` (of `bytes` now). A buffer with
 * immutable storage (glBufferStorage) is registered on first use and kept:
 * its storage cannot change under the registration. One with mutable
 * storage (glBufferData) is registered again at every present, since
 * glBufferData may have given it new storage since, of any size, which a
 * kept registration would not see. When all MAX_GL_BUFFERS slots are taken,
 * the least recently used registration goes. NULL when registering fails:
 * the engine then takes the copy path from now on and says why. */
static gl_link *link_for(cuda_state *s, unsigned id, long long bytes, bool immutable)
{
    gl_link *slot = NULL;
    cudaError_t e;

    ++s->presents;
    for (int i = 0; i < MAX_GL_BUFFERS; ++i) {
        gl_link *l = &s->links[i];
        if (l->id == id) {
            if (l->immutable && immutable && l->bytes == bytes) {
                l->used = s->presents;
                return l;
            }
            unregister(l); /* storage that may be new: register it again */
        }
        if (!slot && l->id == 0)
            slot = l;
    }
    if (!slot) { /* all taken: the least recently used goes */
        slot = &s->links[0];
        for (int i = 1; i < MAX_GL_BUFFERS; ++i)
            if (s->links[i].used < slot->used)
                slot = &s->links[i];
        unregister(slot);
    }
    e = cudaGraphicsGLRegisterBuffer(&slot->res, id, cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
        cudaGetLastError();
        slot->res = NULL;
        s->present = ENG_PRESENT_COPY;
        snprintf(s->present_why, sizeof s->present_why,
                 "registering GL buffer %u with CUDA failed (%s): results go device -> host -> GL buffer", id,
                 cudaGetErrorString(e));
        return NULL;
    }
    slot->id = id;
    slot->bytes = bytes;
    slot->immutable = immutable;
    slot->used = s->presents;
    return slot;
}

/* Upload, then map the GL buffer, launch the kernel into it, unmap it: the
 * present phase. Nothing between map and unmap touches GL. When the map
 * fails without breaking the context (the driver cannot map that buffer
 * now: another context holds it, its storage moved...), the engine takes
 * the copy path from now on, as when registering fails, and says why in
 * present_why; *unmappable tells the caller to present this frame by it. */
static bool present_interop(cuda_state *s, const eng_job *job, gl_link *l, bool *unmappable, eng_timing *timing)
{
    size_t bytes = (size_t)out_count(job) * sizeof(float), mapped_bytes = 0;
    void *mapped = NULL;
    double t0 = tim_now_ms();
    cudaError_t unmapped, e;
    bool ok = false;

    *unmappable = false;
    if (!upload(s, job))
        return false;
    e = cudaGraphicsMapResources(1, &l->res, s->stream);
    if (e != cudaSuccess && !breaks_context(e)) {
        cudaGetLastError();
        s->present = ENG_PRESENT_COPY;
        snprintf(s->present_why, sizeof s->present_why,
                 _("mapping GL buffer %u into CUDA failed (%s): results go device -> host -> GL buffer"), l->id,
                 cudaGetErrorString(e));
        unregister(l);
        *unmappable = true;
        return false;
    }
    if (!cuda_check(e, "cudaGraphicsMapResources(1, &l->res, s->stream)", __FILE__, __LINE__))
        return false;
    if (!CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&mapped, &mapped_bytes, l->res)))
        goto unmap;
    if (mapped_bytes < bytes) {
        err_set("GL buffer %u maps to %zu bytes in CUDA; a %dx%d result needs %zu", l->id, mapped_bytes, out_w(job),
                out_h(job), bytes);
        goto unmap;
    }
    ok = record(s, EV_MAPPED) && launch(s, job, mapped, &timing->launch) && record(s, EV_LAUNCHED);
unmap:
    unmapped = cudaGraphicsUnmapResources(1, &l->res, s->stream);
    if (ok)
        ok = CUDA_CHECK(unmapped);
    else
        cudaGetLastError(); /* the reason being returned is the earlier one */
    if (!ok || !record(s, EV_COMPUTED) || !record(s, EV_END) || !CUDA_CHECK(cudaEventSynchronize(s->ev[EV_END])))
        return false;
    timing->ms[ENG_UPLOAD] = elapsed_ms(s, EV_START, EV_UPLOADED, &ok);
    /* the kernel is the compute, as on every path; the map and the unmap
     * around it are what presenting by interop costs */
    timing->ms[ENG_COMPUTE] = elapsed_ms(s, EV_MAPPED, EV_LAUNCHED, &ok);
    timing->ms[ENG_PRESENT] = elapsed_ms(s, EV_UPLOADED, EV_MAPPED, &ok) + elapsed_ms(s, EV_LAUNCHED, EV_COMPUTED, &ok);
    timing->has[ENG_UPLOAD] = timing->has[ENG_COMPUTE] = timing->has[ENG_PRESENT] = true;
    timing->result = ENG_RESULT_INTEROP;
    return ok && finish_timing(s, tim_now_ms() - t0, 0.0, CLOCK_EVENTS, timing);
}

/* The copy path: compute, bring the result to host memory (bulk or per
 * pixel), copy it into the GL buffer (the present phase). */
static bool present_copy(cuda_state *s, const eng_job *job, unsigned gl_buffer, eng_result path, eng_timing *timing)
{
    size_t n = (size_t)out_count(job);
    float *host = job->out ? job->out->px : staging_for(s, n);
    double t0, tg, gl_ms;

    if (!host)
        return false;
    t0 = tim_now_ms();
    if (!compute_to_host(s, job, host, path, timing))
        return false;
    tg = tim_now_ms();
    if (!gl_upload(gl_buffer, host, n * sizeof(float)))
        return false;
    gl_ms = tim_now_ms() - tg;
    timing->ms[ENG_PRESENT] = gl_ms;
    timing->has[ENG_PRESENT] = true;
    return finish_timing(s, tim_now_ms() - t0, gl_ms, CLOCK_COPY_PATH, timing);
}

static bool present_once(cuda_state *s, const eng_job *job, unsigned gl_buffer, eng_timing *timing)
{
    long long bytes = out_count(job) * (long long)sizeof(float), have = 0;
    bool immutable = false;
    gl_link *l;

    if (!eng_gl_context_current())
        return err_set("presenting into GL buffer %u needs its OpenGL context current on this thread; none is",
                       gl_buffer);
    if (!gl_load() || !gl_buffer_info(gl_buffer, &have, &immutable))
        return false;
    if (have < bytes)
        return err_set("GL buffer %u cannot take a %dx%d result: it holds %lld bytes, %lld are needed", gl_buffer,
                       out_w(job), out_h(job), have, bytes);
    if (!prepare(s, job))
        return false;
    if (s->opt.result == ENG_RESULT_INTEROP && s->present == ENG_PRESENT_INTEROP) {
        bool unmappable = false;
        l = link_for(s, gl_buffer, have, immutable);
        if (l && present_interop(s, job, l, &unmappable, timing))
            return measure_kernel(s, job, timing->ms[ENG_COMPUTE], timing);
        if (l && !unmappable)
            return false;
        /* registering or mapping failed: the engine takes the copy path from now on, this frame too */
    }
    if (!present_copy(s, job, gl_buffer, s->opt.result == ENG_RESULT_PER_PIXEL ? ENG_RESULT_PER_PIXEL : ENG_RESULT_BULK,
                      timing))
        return false;
    return measure_kernel(s, job, timing->ms[ENG_COMPUTE], timing);
}

static bool cuda_present(void *state, const eng_job *job, unsigned gl_buffer, eng_timing *timing)
{
    cuda_state *s = state;
    if (ready(s) && present_once(s, job, gl_buffer, timing))
        return true;
    mend_if_broken(s);
    return false;
}

static void cuda_forget_buffer(void *state, unsigned gl_buffer)
{
    cuda_state *s = state;
    if (s->resets_seen != device_resets)
        return; /* its registrations went with the old context */
    on_device_quietly(s);
    for (int i = 0; i < MAX_GL_BUFFERS; ++i)
        if (s->links[i].id == gl_buffer && gl_buffer != 0)
            unregister(&s->links[i]);
}

/* Frees the image buffers, so the next run holds only what it needs (a
 * tile under a memory budget); the stream and registrations stay. */
static void cuda_trim(void *state)
{
    cuda_state *s = state;
    if (s->resets_seen != device_resets)
        return; /* its buffers went with the old context */
    on_device_quietly(s);
    if (s->stream)
        cudaStreamSynchronize(s->stream);
    cudaFree(s->d_in); /* clean-up: the next run allocates and reports */
    cudaFree(s->d_out);
    s->d_in = s->d_out = NULL;
    s->capacity = 0;
    cudaGetLastError();
}

/* A layer (cuda_layer.c) on the engine's stream. A failure that broke the
 * context mends it as a failed run does. */
static bool cuda_layer(void *state, const eng_layer_job *job, eng_layer_timing *timing)
{
    cuda_state *s = state;
    char reason[512];
    cudaError_t after;
    if (!ready(s))
        return false;
    if (eng_cuda_layer(&s->layer, s->stream, &s->prop, job, timing))
        return true;
    snprintf(reason, sizeof reason, "%s", err_msg());
    after = cudaDeviceSynchronize();
    if (after != cudaSuccess)
        cuda_check(after, "the layer's kernels", __FILE__, __LINE__);
    err_set("%s", reason);
    mend_if_broken(s);
    return false;
}

static bool cuda_roofs(void *state, eng_roofs *out) /* cuda_roofs.c */
{
    return ready(state) && eng_cuda_roofs(((cuda_state *)state)->stream, out);
}

const eng_class eng_cuda_class = {
    .name = "cuda",
    .summary = N_("a CUDA kernel (tiled or naive), one GPU thread per output"),
    .probe = cuda_probe,
    .open = cuda_open,
    .close = cuda_close,
    .run = cuda_run,
    .describe = cuda_describe,
    .kernel_choice = true,
    .race_demo = true, /* 3x3 filters only (fits_filter) */
    .any_size = true,
    .any_geometry = true,
    .present = cuda_present,
    .configure = cuda_configure,
    .device = cuda_device,
    .forget_buffer = cuda_forget_buffer,
    .trim = cuda_trim,
    .roofs = cuda_roofs,
    .layer_ways = 1u << ENG_LAYER_DIRECT | 1u << ENG_LAYER_IM2COL | 1u << ENG_LAYER_LIBRARY,
    .layer_maths = 1u << ENG_MATH_TF32 | 1u << ENG_MATH_FP16,
    .layer = cuda_layer,
};
