/* engine.h - one interface for every way convis computes a convolution.
 *
 * An engine is a class (eng_class: a name and a table of operations) and,
 * once opened, an instance (eng_engine). Every engine fills the same timing
 * record, in phases (DESIGN.md section 2):
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
 * each, for the window's thread view and the overlay. */
#ifndef CONVIS_ENGINE_H
#define CONVIS_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/conv.h"
#include "../core/image.h"

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
typedef struct eng_launch {
    int grid_x, grid_y;
    int block_x, block_y;
} eng_launch;

typedef struct eng_timing {
    double ms[ENG_PHASE_COUNT];     /* milliseconds per phase */
    bool has[ENG_PHASE_COUNT];      /* which phases this run had */
    int reps;                       /* runs behind each figure: 1 = a single run,
                                       more = the median of that many */
    const char *clock;              /* what measured it: "monotonic clock", ... */
    eng_launch launch;              /* the run's launch geometry; zero on the CPU */
} eng_timing;

/* One convolution: `in` to `out` (same size, not aliased) with `params`. */
typedef struct eng_job {
    const img_plane *in;
    img_plane *out;
    conv_params params;
} eng_job;

/* What an engine implements. Operations an engine does not have are NULL. */
typedef struct eng_class {
    const char *name;       /* for the command line: "cpu-seq" */
    const char *summary;    /* one line for people */
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
    /* Computes into a GL buffer object of w*h floats instead of job->out
     * (the present phase); NULL for engines that cannot. */
    bool (*present)(void *state, const eng_job *job, unsigned gl_buffer, eng_timing *timing);
} eng_class;

typedef struct eng_engine eng_engine;

/* The engines convis knows, in a fixed order, available here or not. */
size_t eng_count(void);
const eng_class *eng_class_at(size_t i);
const eng_class *eng_find(const char *name);   /* NULL when unknown */

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
const char *eng_shader_dir(void);   /* NULL when not set */

/* Whether `cls` can run on this machine; on false `why` holds the reason. */
bool eng_probe(const eng_class *cls, char *why, size_t size);

/* Opens an engine. NULL with err_msg() set when it is unavailable or fails;
 * the message then reads "engine 'x' is unavailable: <reason>". */
eng_engine *eng_open(const eng_class *cls);
void eng_close(eng_engine *e);
const eng_class *eng_class_of(const eng_engine *e);

/* What ran, for the overlay and messages. */
const char *eng_description(eng_engine *e);

/* One run, timed. */
bool eng_run(eng_engine *e, const eng_job *job, eng_timing *timing);

/* One run, timed, into the GL buffer object `gl_buffer` (at least w*h floats)
 * instead of job->out, for showing on screen: the present phase. False with
 * a reason when the engine cannot (its class has no present operation). */
bool eng_present(eng_engine *e, const eng_job *job, unsigned gl_buffer, eng_timing *timing);

/* One untimed warm-up run, then `reps` timed runs; each phase in `timing` is
 * the median of its samples, and timing->reps says how many. The launch
 * geometry is the last run's. */
bool eng_measure(eng_engine *e, const eng_job *job, int reps, eng_timing *timing);

/* Sum of the phases the run had. */
double eng_total_ms(const eng_timing *t);
const char *eng_phase_name(eng_phase p);

#endif
