/* engine.h - one interface for every way convis computes a convolution.
 *
 * An engine is a class (eng_class: a name and a table of operations) and,
 * once opened, an instance (eng_engine). Every engine fills the same timing
 * record, in phases (docs/ARCHITECTURE.md, section 2):
 *
 *   upload    host -> device copies
 *   compute   the convolution itself
 *   download  device -> host copies           (for results the host reads)
 *   present   map, compute into a GL buffer, unmap (for results shown on screen)
 *   overhead  launch, synchronisation, thread start-up
 *
 * A CPU engine has only compute and overhead. Each engine times its phases
 * with the clock that fits its hardware and names it in the record: the
 * monotonic clock on the CPU, cudaEvents for CUDA, GL timer queries for GL
 * (the monotonic clock on a CPU renderer such as llvmpipe, whose timer
 * queries do not see compute work; see gl_compute.c).
 * The overlays, the lessons and the benchmark read this record; none of them
 * times anything on its own.
 *
 * An engine whose hardware is missing stays in the list and says why:
 * eng_probe() returns false with "unavailable: <reason>"-style text.
 *
 * GPU engines also say how they launched the last run (eng_launch): the grid
 * of thread blocks (CUDA) or work groups (GL compute) and the threads in
 * each, for the window's thread view and the overlay.
 *
 * Teaching switches (eng_options, set on an open engine with
 * eng_set_options; all zero = the defaults): which kernel a GPU engine
 * launches (tiled or naive) and which path the result takes (one bulk copy,
 * one copy per pixel, or CUDA-GL interop). An engine uses what it has and
 * ignores the rest: the CPU engines ignore all of it; the gl engine runs
 * either kernel and copies per pixel on request, but has no interop of its
 * own (it computes in GL itself); the timing record says what really ran.
 * GPU engines also describe their device (eng_device). */
#ifndef CONVIS_ENGINE_H
#define CONVIS_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/conv.h"
#include "core/image.h"
#include "core/layer.h"

typedef enum eng_phase {
    ENG_UPLOAD = 0,
    ENG_COMPUTE,
    ENG_DOWNLOAD,
    ENG_PRESENT,
    ENG_OVERHEAD,
    ENG_PHASE_COUNT
} eng_phase;

/* How a GPU engine split the image into parallel work: grid_x x grid_y
 * blocks (CUDA thread blocks, GL work groups) of block_x x block_y threads
 * (invocations) each, one thread per output; the grid is rounded up to whole
 * blocks, so the threads past the image's right and bottom edges do nothing.
 * All zero for CPU engines. */
#define ENG_MAX_BANDS 256 /* and threads of a CPU engine */
typedef struct eng_launch {
    int grid_x, grid_y;
    int block_x, block_y;
    /* CPU engines: the bands of outputs the run was split into (1 for
     * cpu-seq, at most ENG_MAX_BANDS); 0 on a GPU. Band i holds the outputs
     * from eng_band_first(total, bands, i) to the next band's first. A
     * thread may run more than one band (eng_timing.threads counts those
     * that ran any). */
    int bands;
    /* ... and the thread that ran band i: 0 .. eng_timing.threads - 1, the
     * run's threads numbered in the order of their first band (band 0's is
     * thread 0). */
    unsigned char band_thread[ENG_MAX_BANDS];
} eng_launch;

/* The first output (raster order) of band i of `bands` over `total`
 * outputs; eng_band_of is the band an output falls in. */
long eng_band_first(long total, int bands, int i);
int eng_band_of(long total, int bands, long index);

/* Which kernel a GPU engine launches (eng_options.kernel). */
typedef enum eng_kernel {
    ENG_KERNEL_TILED = 0, /* the default: a shared-memory tile with its halo
                               (CUDA: the filter in constant memory; gl: in
                               uniforms, as for the naive shader) */
    ENG_KERNEL_NAIVE,     /* one thread per output, nine reads from global memory */
    ENG_KERNEL_COUNT
} eng_kernel;

/* The path a GPU engine's result takes (eng_options.result, and in
 * eng_timing.result what a run really did).
 *
 *   ENG_RESULT_BULK       the default: one bulk copy device -> host
 *                         (phases upload, compute, download, overhead).
 *   ENG_RESULT_PER_PIXEL  one device -> host copy per output pixel: the
 *                         trap of reading a GPU array element by element
 *                         from the host. It runs for real on the first
 *                         pixels, at most eng_options.per_pixel_max of them
 *                         or for per_pixel_budget_ms; the download phase is
 *                         their measured cost per pixel times all pixels,
 *                         and the record says so (extrapolated,
 *                         measured_px). The pixels past the cap come back in
 *                         one untimed bulk copy, so the result is whole.
 *   ENG_RESULT_INTEROP    eng_present only: the kernel writes straight into
 *                         the caller's GL buffer, mapped into CUDA (phases
 *                         upload, present = map + kernel + unmap, overhead).
 *                         Where interop is not possible here (eng_device
 *                         says why), the copy path runs instead: bulk copy
 *                         to the host, then into the GL buffer. eng_run,
 *                         whose result goes to host memory, treats it as
 *                         BULK. (The gl engine's present reports INTEROP
 *                         too: its shader writes the buffer in place.)
 *
 * eng_present with BULK or PER_PIXEL also takes the copy path: device ->
 * host (that way) -> GL buffer, the last step timed as the present phase. */
typedef enum eng_result { ENG_RESULT_BULK = 0, ENG_RESULT_PER_PIXEL, ENG_RESULT_INTEROP, ENG_RESULT_COUNT } eng_result;

/* Per-pixel copies made for real at most, and the time spent on them at
 * most, before the cost is extrapolated (eng_options, when zero). */
#define ENG_PER_PIXEL_MAX 20000
#define ENG_PER_PIXEL_BUDGET_MS 300.0
#define ENG_DEFAULT_BLOCK 16

/* The teaching switches of an engine. Zero in a field means its default:
 * the tiled kernel, the bulk result, 16x16 threads a block, the per-pixel
 * limits above. Engines ignore what they do not have (see the top). */
typedef struct eng_options {
    eng_kernel kernel;
    /* The tiled kernel without its barrier (__syncthreads, barrier()): its
     * warps may read tile cells before they are written, a race. Only to
     * show what the barrier does (engines with race_demo); never for a
     * result anyone uses. */
    bool no_barrier;
    eng_result result;
    int block_x, block_y;       /* threads a block (CUDA); 0 = 16 */
    long long per_pixel_max;    /* ENG_RESULT_PER_PIXEL: copies made for real, at most */
    double per_pixel_budget_ms; /* ... and for at most this long */
} eng_options;

typedef struct eng_timing {
    double ms[ENG_PHASE_COUNT];  /* milliseconds per phase */
    bool has[ENG_PHASE_COUNT];   /* which phases this run had */
    int reps;                    /* runs behind each figure: 1 = a single run,
                                       more = the median of that many */
    double total_min, total_max; /* the spread of the runs' totals (eng_measure); a
                                       single run: both 0 (eng_total_min/max then give its total) */
    double total_median;         /* the median run's total (eng_measure; 0 for a single run) */
    const char *clock;           /* what measured it: "monotonic clock", ... */
    eng_launch launch;           /* the run's launch geometry; zero on the CPU */
    /* CPU engines: the threads that really computed (ran a band), which may
     * be fewer than the engine has (cpu-par runs a small image on one; a
     * pool thread the system did not schedule in time runs none); 0 on a
     * GPU. After eng_measure, the last run's. */
    int threads;
    /* The path the result took, when the run had a download or present
     * phase (meaningless without one: CPU engines leave it BULK). */
    eng_result result;
    /* True when a phase is not wholly measured: ms[ENG_DOWNLOAD] is then the
     * cost of the measured_px per-pixel copies that really ran, scaled to
     * total_px (PER_PIXEL with more pixels than its cap or budget). */
    bool extrapolated;
    long long measured_px; /* pixels copied one by one for real (PER_PIXEL) */
    long long total_px;    /* pixels of the image */
    /* The kernel alone, measured by the CUDA engine after the run and apart
     * from its phases, which it leaves as they were (false everywhere else).
     * The compute phase is one launch, and a kernel of microseconds spends
     * most of it waiting for its launch to reach the GPU. So the same kernel
     * runs again on the idle stream: once, timed between two events
     * (kernel_one_ms: a launch after idle, its latency and the kernel), then
     * kernel_launches times back to back, their events' span divided by
     * their number (kernel_ms: each launch's latency hidden behind the
     * kernel before it; where the kernel is shorter than a launch's cost on
     * the host, the launch rate bounds it, so it is at most the kernel's own
     * time plus that). kernel_one_ms - kernel_ms is the latency of one
     * launch. Not measured when the run's kernel took so long that its
     * launch's microseconds are lost in it (see cuda.c), nor without the
     * barrier. After eng_measure, the medians of the runs that had it. */
    bool has_kernel;
    int kernel_launches;  /* launches timed back to back (2..20) */
    double kernel_ms;     /* their time per launch */
    double kernel_one_ms; /* one launch after idle */
} eng_timing;

/* One convolution: `in` to `out` (not aliased) with `params`; `out` has the
 * output's size, conv_out_w x conv_out_h (the input's on the plain
 * geometry). */
typedef struct eng_job {
    const img_plane *in;
    img_plane *out;
    conv_params params;
} eng_job;

/* How an engine's eng_present gets its result into the GL buffer. */
typedef enum eng_present_path {
    ENG_PRESENT_NONE = 0, /* it cannot (CPU engines) */
    ENG_PRESENT_NATIVE,   /* it computes in the GL context itself (gl) */
    ENG_PRESENT_INTEROP,  /* CUDA writes the GL buffer, mapped: no copy */
    ENG_PRESENT_COPY,     /* device -> host -> GL buffer: interop is not
                               possible here, and present_why says why */
} eng_present_path;

/* What an engine's "device" really is. A GL renderer may be software on
 * this CPU (Mesa's llvmpipe, softpipe and swrast, lavapipe, SwiftShader,
 * Microsoft Basic Render Driver) or a virtual GPU of a virtual machine
 * (virgl, VMware's SVGA3D, VirtualBox, Parallels...), whose real hardware
 * is unknown: never a GPU to teach with as if it were one. */
typedef enum eng_hardware {
    ENG_HW_CPU = 0,  /* a CPU engine */
    ENG_HW_GPU,      /* a real GPU */
    ENG_HW_SOFTWARE, /* a software renderer on this CPU */
    ENG_HW_VIRTUAL,  /* a virtual GPU */
} eng_hardware;

/* Classifies a GL renderer string (GL_RENDERER); a name not known as
 * software or virtual is a GPU. */
eng_hardware eng_renderer_kind(const char *renderer);

/* "GPU", "software on the CPU", "virtual GPU", "CPU". */
const char *eng_hardware_name(eng_hardware h);

/* The device an engine computes on, for the overlay ("NVIDIA H200, 132 SMs,
 * 1.0 GiB used by convis, 139 GiB free of 140 GiB; CUDA-GL interop"). */
typedef struct eng_device_info {
    char name[128];           /* "NVIDIA H200" */
    int compute_units;        /* streaming multiprocessors (CUDA); 0 = not known */
    const char *unit_name;    /* "SM"; NULL when compute_units is 0 */
    int blocks_per_unit;      /* blocks of the kernel and shape set that one unit holds at once
                                       (CUDA's occupancy calculator); 0 = not known */
    long long memory_total;   /* bytes of device memory; -1 = not known */
    long long memory_free;    /* bytes free on the device now; -1 = not known */
    long long memory_engine;  /* bytes this engine holds on the device */
    long long max_buffer;     /* bytes one device buffer may hold (a driver limit); -1 = none known */
    int subgroup;             /* threads that execute one instruction together: a warp (CUDA's
                                       warpSize), or the subgroup size a GL driver reports
                                       (GL_KHR_shader_subgroup); 0 = not reported */
    eng_hardware hardware;    /* what the device really is */
    eng_present_path present; /* how eng_present delivers ... */
    char present_why[256];    /* ... and why, as one sentence for the overlay */
} eng_device_info;

/* ---- a convolution layer (core/layer.h) on an engine: three ways ---------- */

/* direct: a loop (a thread) per output; im2col: the input unrolled into a
 * matrix of C_in*K*K rows (extra memory) and our GEMM over it, the same
 * sums in the same order (the direct loop's bits); library: the same
 * matrix through a library's GEMM (OpenBLAS's cblas_sgemm on the CPU,
 * cuBLAS on CUDA), its own order of sums, compared with a tolerance. */
typedef enum eng_layer_way { ENG_LAYER_DIRECT = 0, ENG_LAYER_IM2COL, ENG_LAYER_LIBRARY, ENG_LAYER_WAY_COUNT } eng_layer_way;
/* The library's arithmetic: FP32, or the inputs rounded to TF32 or FP16
 * for tensor cores (sums in FP32 still), where the device has them. */
typedef enum eng_layer_math { ENG_MATH_FP32 = 0, ENG_MATH_TF32, ENG_MATH_FP16, ENG_MATH_COUNT } eng_layer_math;

typedef struct eng_layer_job {
    const layer_tensor *in; /* c_in planes */
    const layer_filters *f;
    conv_params params;     /* the geometry and border (its weights unused) */
    layer_tensor *out;      /* c_out planes of layer_out_size */
    eng_layer_way way;
    eng_layer_math math;     /* the library way only; the others are FP32 */
    long long budget_bytes; /* the most the unrolled matrix may take (0: no limit) */
} eng_layer_job;

typedef struct eng_layer_timing {
    eng_timing t;          /* its phases (compute: the whole layer's work on the CPU) */
    double unroll_ms;      /* of the compute phase, the unrolling (im2col); 0 for direct */
    long long extra_bytes; /* memory beyond the input, the weights and the output: the unrolled matrix */
    double input_u;        /* the unit roundoff the library's inputs were narrowed to (0: FP32's own; layer.h) */
    double input_abs;      /* ... and the absolute error a narrowed value may have besides (FP16's subnormals) */
    char how[128];         /* what ran ("OpenBLAS 0.3.21 sgemm, 2 threads") */
} eng_layer_timing;

typedef struct eng_roofs eng_roofs; /* below */

/* What an engine implements. Operations an engine does not have are NULL. */
typedef struct eng_class {
    const char *name;    /* for the command line: "cpu-seq" */
    const char *summary; /* one line for people */
    /* It has the tiled and the naive kernel (eng_options.kernel). */
    bool kernel_choice;
    /* It can run the tiled kernel without its barrier (eng_options.no_barrier). */
    bool race_demo;
    /* It runs filters of every size (conv_params.kw, kh); else 3x3 ones
     * only, and eng_run refuses the others in a sentence. */
    bool any_size;
    /* It runs every geometry (conv_params: stride, dilation, padding), the
     * output then of conv_out_w x conv_out_h; else the plain one only, and
     * eng_run refuses the others in a sentence. */
    bool any_geometry;
    /* Computes with the OpenGL context current on the calling thread, which
     * the app provides: the window's, or a hidden window's on the command
     * line. Such an engine's probe fails when no context is current. */
    bool needs_gl_context;
    /* Can this engine run here? On false, writes the reason into why. */
    bool (*probe)(char *why, size_t size);
    /* Opens an instance; NULL with err_msg() on failure. */
    void *(*open)(void);
    void (*close)(void *state);
    /* Computes job->out from job->in, host memory to host memory, filling
     * every phase the run had. */
    bool (*run)(void *state, const eng_job *job, eng_timing *timing);
    /* Says what runs, as the overlay shows it ("CPU, 2 threads, AVX2"). */
    void (*describe)(void *state, char *buf, size_t size);
    /* Says what one run did, from its timing record ("CPU, 1 thread, AVX2"
     * where cpu-par ran a small image on one); NULL where describe says it. */
    void (*describe_run)(void *state, const eng_timing *timing, char *buf, size_t size);
    /* Computes into a GL buffer object of w*h floats instead of job->out
     * (the present phase); NULL for engines that cannot. */
    bool (*present)(void *state, const eng_job *job, unsigned gl_buffer, eng_timing *timing);
    /* Takes new options, defaults already filled in (eng_set_options); false
     * with a reason when this engine cannot use them (the old ones stay).
     * NULL for engines that have no switches: they ignore options. */
    bool (*configure)(void *state, const eng_options *opt);
    /* Describes the device; NULL for engines without one. */
    bool (*device)(void *state, eng_device_info *info);
    /* Lets go of anything held for GL buffer `gl_buffer` (a CUDA
     * registration); NULL when nothing is held. */
    void (*forget_buffer)(void *state, unsigned gl_buffer);
    /* Lets go of the image buffers on the device; NULL when it holds none. */
    void (*trim)(void *state);
    /* Measures the roofs of a roofline on its device (eng_roofs); NULL: none. */
    bool (*roofs)(void *state, eng_roofs *out);
    /* The ways of a layer it runs (bits 1 << eng_layer_way) and its run of
     * one (eng_layer_run has checked the job); 0 and NULL: none. */
    unsigned layer_ways;
    /* The arithmetic its library way has besides fp32 (bits 1 << eng_layer_math); 0: fp32 only. */
    unsigned layer_maths;
    bool (*layer)(void *state, const eng_layer_job *job, eng_layer_timing *timing);
} eng_class;

typedef struct eng_engine eng_engine;

/* The two roofs of a roofline, measured on an engine's own device with its
 * own clock (roofs_cpu.c, gl_roofs.c, cuda_roofs.c), the best of a few runs:
 * - memory: a copy of a buffer larger than the caches (CPU: memcpy on the
 *   engine's threads; gl: glCopyBufferSubData; cuda: cudaMemcpy device to
 *   device), its bytes read plus written a second;
 * - compute: a short kernel of the convolution's arithmetic, x = x * a + b
 *   (a multiply, then an add, never fused) in enough independent chains to
 *   fill the device (CPU: at the engine's vector width, on its threads),
 *   two operations each. */
struct eng_roofs {
    double memory_gb_s;    /* 10^9 bytes a second */
    double compute_gflops; /* 10^9 operations a second */
    double copy_bytes;     /* the copy's buffer */
    int threads, lanes;    /* CPU: threads and vector lanes the kernels ran on; 0 on a GPU */
    const char *clock;     /* what timed them */
    char how[200];         /* the method in a line ("memcpy of 64 MiB on 2 threads; 12 chains x 8 lanes") */
};

/* Measures the roofs on e's device (a GL engine needs its context current);
 * false with a reason (err_msg) when the engine has none or it fails. Takes
 * about a tenth of a second on a CPU. */
bool eng_measure_roofs(eng_engine *e, eng_roofs *out);

/* What the engine computes on (a CPU engine: ENG_HW_CPU). */
eng_hardware eng_hardware_of(eng_engine *e);

/* The engines convis knows, in a fixed order, available here or not. */
size_t eng_count(void);
const eng_class *eng_class_at(size_t i);
const eng_class *eng_find(const char *name); /* NULL when unknown */

/* A comma-separated list of every engine name, for messages. */
const char *eng_names(void);

/* Whether an OpenGL context is current on the calling thread: what an
 * engine with needs_gl_context computes with. */
bool eng_gl_context_current(void);

/* Where the engines find their GLSL files (the shaders/ folder that the app
 * locates; see app_data_dir in src/app/data.h). The app sets it before
 * opening an engine that loads shaders; the text is copied. Until it is set,
 * such an engine fails to open and says so. */
void eng_set_shader_dir(const char *dir);
const char *eng_shader_dir(void); /* NULL when not set */

/* Whether `cls` can run on this machine; on false `why` holds the reason. */
bool eng_probe(const eng_class *cls, char *why, size_t size);

/* Opens an engine. NULL with err_msg() set when it is unavailable or fails;
 * the message then reads "engine 'x' is unavailable: <reason>". */
eng_engine *eng_open(const eng_class *cls);

/* eng_open that also leaves the bare reason ("no CUDA device") in `why`. */
eng_engine *eng_open_reason(const eng_class *cls, char *why, size_t size);
void eng_close(eng_engine *e);
const eng_class *eng_class_of(const eng_engine *e);

/* What ran, for the overlay and messages. */
const char *eng_description(eng_engine *e);

/* What the run behind `timing` did, in the words of eng_description: the
 * threads it really used where the engine says (cpu-par), else the same as
 * eng_description. The text stays until the next call for this engine. */
const char *eng_run_description(eng_engine *e, const eng_timing *timing);

/* The threads cpu-par has: one per online CPU, or CONVIS_CPU_THREADS. */
int eng_par_threads(void);

/* The outputs one cpu-par band holds at least: an image of up to this many
 * runs on one thread; another thread is woken only for more. */
long eng_par_band_outputs(void);

/* The second-core check (cores.c): a fixed few milliseconds of arithmetic
 * on one thread, then the same on each of `threads` threads at once. */
typedef struct eng_cores {
    int threads;    /* threads that ran at once */
    double worth;   /* the cores' worth of work they gave: threads x one
                       thread's time / their wall time, 1 to threads */
    double one_ms;  /* the work on one thread (median of 3) */
    double wall_ms; /* the same on each thread at once (median of 3 rounds) */
} eng_cores;

/* Measures; threads is clamped to 1..256. True (fewer threads when some
 * could not start: out->threads says). */
bool eng_cores_check(int threads, eng_cores *out);

/* One run, timed. */
bool eng_run(eng_engine *e, const eng_job *job, eng_timing *timing);

/* Whether the engine class runs a filter of p's size (any_size, or 3x3)
 * and p's geometry (any_geometry, or the plain one). */
bool eng_runs_size(const eng_class *cls, const conv_params *p);

/* One run, timed, into the GL buffer object `gl_buffer` (at least w*h floats)
 * instead of job->out, for showing on screen: the present phase. The GL
 * context that owns the buffer must be current. job->out may be NULL; the
 * CUDA engine's copy path (see eng_result) fills it when given, since the
 * result passes through host memory there. False with a reason when the
 * engine cannot (its class has no present operation). */
bool eng_present(eng_engine *e, const eng_job *job, unsigned gl_buffer, eng_timing *timing);

/* Lets the engine forget GL buffer `gl_buffer`: call it before deleting the
 * buffer after it went to eng_present, with its GL context current (a new
 * buffer may get the same id). The CUDA engine registers a buffer with
 * immutable storage (glBufferStorage) once, on its first eng_present, and
 * keeps the registration until then or eng_close; a buffer with mutable
 * storage (glBufferData) it registers at every eng_present, since its
 * storage may have been replaced. Harmless for a buffer the engine never
 * saw. */
void eng_forget_buffer(eng_engine *e, unsigned gl_buffer);

/* Lets go of the engine's image buffers on the device, so that the next
 * run holds only what it needs (before tiles under a memory budget, which
 * must not sit beside buffers of the whole image). Harmless for CPU
 * engines. A GL engine needs its context current. */
void eng_trim(eng_engine *e);

/* Sets the engine's teaching switches (eng_options; zero fields mean their
 * defaults). False with a reason when a value is out of range or this engine
 * cannot use it (a block of more threads than the device allows); the
 * previous options then stay. Engines without switches take any options and
 * ignore them. The description (eng_description) follows the change. */
bool eng_set_options(eng_engine *e, const eng_options *opt);

/* The options in force, defaults filled in. */
eng_options eng_options_of(const eng_engine *e);

/* Whether the engine has the teaching switches at all (false: it ignores
 * eng_set_options). */
bool eng_has_options(const eng_class *cls);

/* Whether it has a choice of kernels, tiled and naive (CUDA, and the gl
 * engine with a shader for each); the others ignore eng_options.kernel. */
bool eng_has_kernels(const eng_class *cls);

/* `opt` with every zero field replaced by its default. */
eng_options eng_options_resolved(const eng_options *opt);

/* Names for the command line and the overlay: "tiled", "naive"; "bulk",
 * "per-pixel", "interop"; "none", "native", "interop", "copy". Parsing
 * returns false with a sentence that lists the accepted names. */
const char *eng_kernel_name(eng_kernel k);
const char *eng_result_name(eng_result r);
const char *eng_present_path_name(eng_present_path p);
bool eng_kernel_parse(const char *text, eng_kernel *k);
bool eng_result_parse(const char *text, eng_result *r);

/* Fills `info` with the engine's device; false with a reason for an engine
 * that has none (the CPU engines). Memory figures are read now. */
bool eng_device(eng_engine *e, eng_device_info *info);

/* One untimed warm-up run, then `reps` timed runs; each phase in `timing` is
 * the median of its samples, and timing->reps says how many. The launch
 * geometry, result path and extrapolation fields are the last run's. */
bool eng_measure(eng_engine *e, const eng_job *job, int reps, eng_timing *timing);

/* How long to measure: after the warm-up, at least min_reps runs and at
 * most max_reps; then stop when another run would pass budget_ms, or when
 * three or more runs agree within `steady` of their median (0: never
 * early). A slow run thus gets one repetition, a steady fast one three,
 * a noisy one as many as the budget holds: the time a stable median needs
 * and no more. */
typedef struct eng_plan {
    int min_reps, max_reps;
    double budget_ms;
    double steady; /* (max - min) / median, e.g. 0.1 */
} eng_plan;

/* The warm-up, then runs as `plan` says (eng_present into gl_buffer when it
 * is not 0); the figures as eng_measure's. */
bool eng_measure_plan(eng_engine *e, const eng_job *job, unsigned gl_buffer, const eng_plan *plan, eng_timing *timing);

/* Whether the engine can compute into a GL buffer (eng_present). */
bool eng_can_present(const eng_engine *e);

/* The run's total: after eng_measure the median of the runs' totals (which
 * lies between total_min and total_max), else the sum of its phases. The
 * phases' own medians need not add up to it: they split a bar, they do not
 * make its length. */
double eng_total_ms(const eng_timing *t);

/* The fastest and slowest of the measured runs' totals; a single run's
 * total for both when it was one run. */
double eng_total_min(const eng_timing *t);
double eng_total_max(const eng_timing *t);

/* A measurement as a comparison reads it: the median (or the single run),
 * the fastest and slowest runs, and how many runs there were. */
typedef struct eng_spread {
    double ms, lo, hi;
    int runs;
} eng_spread;

eng_spread eng_spread_of(const eng_timing *t);

/* What may be said of two measurements, the one rule the chart, the
 * narration and bench all word:
 * - ENG_SAME, "about the same": their runs overlap, or the gap is within
 *   ENG_SAME_SHARE of the faster or within the steadier one's own spread
 *   (a gap the runs themselves vary by says nothing);
 * - ENG_FASTER / ENG_SLOWER (a against b): from ENG_FEW_RUNS runs each, any
 *   gap beyond that; from fewer, only a gap of at least ENG_FEW_RUNS_GAP
 *   times, and the words then say how many runs it came from;
 * - ENG_UNSURE: fewer runs than that, and a gap too small to be sure of. */
typedef enum eng_verdict_kind { ENG_SAME, ENG_FASTER, ENG_SLOWER, ENG_UNSURE } eng_verdict_kind;

#define ENG_SAME_SHARE 0.05
#define ENG_FEW_RUNS 3
#define ENG_FEW_RUNS_GAP 2.0

typedef struct eng_verdict {
    eng_verdict_kind kind;
    double ratio; /* the slower's time over the faster's: at least 1 */
    int runs;     /* the fewer runs of the two (1: a single run) */
} eng_verdict;

eng_verdict eng_verdict_of(eng_spread a, eng_spread b);
eng_verdict eng_compare_timings(const eng_timing *a, const eng_timing *b);

const char *eng_phase_name(eng_phase p);

/* ---- layers (layer_engine.c) ---- */
const char *eng_layer_way_name(eng_layer_way w);   /* "direct", "im2col", "library" */
bool eng_layer_way_parse(const char *text, eng_layer_way *out);
const char *eng_layer_math_name(eng_layer_math m); /* "fp32", "tf32", "fp16" */
bool eng_layer_math_parse(const char *text, eng_layer_math *out);
/* Whether the engine runs the way (and math); false with the sentence that
 * says why (naming the engines that do). */
bool eng_layer_runs(const eng_engine *e, eng_layer_way way, eng_layer_math math);
/* One run of a layer, its figures in *timing; false with a sentence (a way
 * or math it lacks, sizes that disagree, an unrolled matrix past the
 * budget, no memory). */
bool eng_layer_run(eng_engine *e, const eng_layer_job *job, eng_layer_timing *timing);
/* `reps` runs: the figures of the median run's total (its spread in t). */
bool eng_layer_measure(eng_engine *e, const eng_layer_job *job, int reps, eng_layer_timing *timing);

#endif
