/* engines.h - the engine classes, one per file in src/compute/. Private to
 * the compute layer: everything else goes through engine.h. */
#ifndef CONVIS_ENGINES_H
#define CONVIS_ENGINES_H

#include "engine.h"

extern const eng_class eng_cpu_seq_class;  /* cpu_seq.c */
extern const eng_class eng_cpu_par_class;  /* cpu_par.c */
extern const eng_class eng_cpu_simd_class; /* cpu_par.c, one thread */
extern const eng_class eng_gl_class;       /* gl_compute.c */
extern const eng_class eng_cuda_class;     /* cuda.c, or cuda_absent.c without CUDA */

/* The roofs on the CPU (roofs_cpu.c): on `threads` threads, the compute
 * kernel in vectors of 8 floats or scalar; the second for cpu-seq's class. */
bool eng_cpu_roofs(int threads, bool vector, eng_roofs *out);
bool eng_cpu_roofs_scalar(void *state, eng_roofs *out);
/* The gl engine's (gl_roofs.c), with its context current, and the CUDA
 * engine's (cuda_roofs.c) on the current device and `stream`. */
bool eng_gl_roofs(void *state, eng_roofs *out);
bool eng_cuda_roofs(void *stream, eng_roofs *out);

/* The engine's own state, for the compute layer's other files (layer_engine.c). */
void *eng_state_of(eng_engine *e);

/* A layer on the CPU (layer_cpu.c) on `threads` threads, every way the
 * build has (the library where OpenBLAS is built in); cpu-seq's class runs
 * it on one. The ways it runs. */
bool eng_cpu_layer(int threads, const eng_layer_job *job, eng_layer_timing *timing);
#ifdef CONVIS_HAVE_BLAS
#define ENG_CPU_LAYER_WAYS (1u << ENG_LAYER_DIRECT | 1u << ENG_LAYER_IM2COL | 1u << ENG_LAYER_LIBRARY)
#else
#define ENG_CPU_LAYER_WAYS (1u << ENG_LAYER_DIRECT | 1u << ENG_LAYER_IM2COL)
#endif

/* What the gl engine (gl_compute.c) shares with its layer (gl_layer.c),
 * its state the engine's: a program of conv3x3.glsl, `defines` and `file`
 * (from the shaders folder; false with the driver's log), the check of GL
 * errors, how its phases are timed, its storage buffers' limit, and where
 * it keeps the layer's objects. eng_gl_layer runs a layer with the
 * engine's context current; eng_gl_layer_free lets go of its objects. */
typedef struct eng_gl_layer_ctx eng_gl_layer_ctx;
bool eng_gl_build(void *state, const char *file, const char *defines, unsigned *program);
bool eng_gl_check(void *state, const char *doing);
void eng_gl_take_errors(void);
bool eng_gl_host_timed(const void *state);
/* A shader's text, read whole (at most 1 MiB; NULL with the sentence in err_msg()). */
char *eng_shader_text(const char *path);
/* Whether a renderer's timer queries miss compute work (a software renderer):
 * then the host clock closed by glFinish times a dispatch. */
bool eng_gl_queries_blind(const char *renderer);
const char *eng_gl_clock(const void *state);
long long eng_gl_max_buffer(const void *state);
eng_gl_layer_ctx **eng_gl_layer_slot(void *state);
bool eng_gl_layer(void *state, const eng_layer_job *job, eng_layer_timing *timing);
void eng_gl_layer_free(eng_gl_layer_ctx *ctx);

/* A layer on the CUDA engine's device (cuda_layer.c), on its stream: `ctx`
 * holds what runs keep (cuBLAS's handle), made on first need (*ctx NULL)
 * and freed with eng_cuda_layer_free. prop: the device's properties (a
 * struct cudaDeviceProp), for its tensor cores. */
typedef struct eng_cuda_layer_ctx eng_cuda_layer_ctx;
struct cudaDeviceProp;
bool eng_cuda_layer(eng_cuda_layer_ctx **ctx, void *stream, const struct cudaDeviceProp *prop,
                    const eng_layer_job *job, eng_layer_timing *timing);
void eng_cuda_layer_free(eng_cuda_layer_ctx *ctx);
void eng_cuda_layer_forget(eng_cuda_layer_ctx *ctx); /* after a device reset: its handle is gone, not destroyed */

#endif
