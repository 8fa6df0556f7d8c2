/* lab.h - the kernel lab: a learner's GLSL compute shader for the 3x3
 * convolution, compiled after convis's own common part (shaders/conv3x3.glsl)
 * and the lab's accessors (shaders/lab.glsl: lab_in counts every global
 * read of a work group, lab_out writes, lab_combine adds the nine products
 * as the reference does), run on an image, every output compared with the
 * reference bit for bit, the reads counted per work group, the run timed.
 * It needs a current OpenGL 4.3 context (the gl engine's); a shader that
 * loops for ever or crashes the driver takes the process with it, so the
 * app runs this in a child process of its own, bounded in time (app/lab.c). */
#ifndef CONVIS_LAB_H
#define CONVIS_LAB_H

#include <stdbool.h>
#include <stddef.h>

#include "core/conv.h"
#include "core/image.h"

#define LAB_MAX_ERRORS 16

/* One message of the compiler, at the learner's line (0: none given). */
typedef struct lab_message {
    int line, column;
    char text[256];
} lab_message;

typedef struct lab_result {
    bool compiled, ran; /* ran: on a device (the CUDA lab compiles only where there is none) */
    bool failed;        /* compiled, but the device could not load or run it (note says why) */
    char note[256];     /* why it did not run, when it compiled and did not ("no CUDA device here") */
    lab_message errors[LAB_MAX_ERRORS];
    int error_count;
    char log[2048];   /* the compiler's whole log, as it gave it */
    int group_w, group_h; /* the work group the shader declares */
    long groups_x, groups_y;
    long long outputs, wrong; /* outputs compared, and those whose bits differ from the reference */
    unsigned char *wrong_map; /* w*h: 1 where the output is wrong (malloc'd; NULL when it did not run) */
    long long reads_max, reads_interior; /* global reads of one work group: the most, and an interior one's */
    double ms[3]; /* the three timed runs, wall clock closed by glFinish */
    double median_ms;
    char renderer[128];
} lab_result;

/* Compiles `source` (the learner's file, without #version) and, when it
 * compiles, runs it on `in` with filter p (3x3, plain geometry) into out
 * (w*h, made here): false with a sentence in err_msg() only when OpenGL
 * itself fails; a shader that does not compile is r->compiled false with
 * its messages. */
bool eng_gl_lab_run(const char *source, const img_plane *in, const conv_params *p, img_plane *out, lab_result *r);

/* The same for a CUDA kernel (a .cu file), compiled by NVRTC and run
 * where there is a CUDA device (cuda_lab.c); false with a sentence where
 * convis has no CUDA or NVRTC is missing. */
bool eng_cuda_lab_run(const char *source, const img_plane *in, const conv_params *p, img_plane *out, lab_result *r);

/* The outputs against the reference, bit for bit (wrong, wrong_map), and the
 * reads of each work group (reads: groups_x * groups_y counts). */
void lab_check_outputs(const img_plane *in, const conv_params *p, const img_plane *out, const unsigned *reads,
                       lab_result *r);

/* Frees what a result holds. */
void lab_result_free(lab_result *r);

/* Reads the compiler's log into messages at the learner's lines: Mesa's
 * "0:12(5): error: ..." and NVIDIA's "0(12) : error C0000: ..." forms;
 * a line it cannot place stays in the log only. */
void lab_parse_log(const char *log, lab_result *r);

#endif
