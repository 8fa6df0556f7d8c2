/* lab_check.h - one check of a kernel lab file (compute/lab.h) in a child
 * process of its own (`convis lab --child DIR FILE IMAGE`, lab.c): started,
 * watched without blocking, stopped at its time limit, its results read
 * back from DIR. `convis lab` waits for it; the window's lab view
 * (kernel_lab.c) polls it between frames. */
#ifndef CONVIS_LAB_CHECK_H
#define CONVIS_LAB_CHECK_H

#include <stdbool.h>
#include <sys/types.h>

#include "compute/lab.h"

#define LAB_REPORT_ERRORS LAB_MAX_ERRORS

/* What the child found (its result.txt). */
typedef struct lab_report {
    bool compiled, ran; /* ran: on a device (the CUDA lab compiles only where there is none) */
    bool failed;        /* compiled, but the device could not load or run it */
    char note[256];     /* why it did not run */
    int errors, group_w, group_h, w, h;
    int error_line[LAB_REPORT_ERRORS], error_column[LAB_REPORT_ERRORS];
    char error_text[LAB_REPORT_ERRORS][256];
    char error_source[LAB_REPORT_ERRORS][160]; /* the learner's line it is at */
    char renderer[128];
    long groups_x, groups_y;
    long long outputs, wrong, reads_max, reads_interior;
    double ms, tiled_ms, naive_ms;
} lab_report;

/* The end of a check (lab_job_poll). */
enum { LAB_RUNNING = -100, LAB_UNAVAILABLE = -99, LAB_TIMED_OUT = -1, LAB_SIGNALLED = -2 /* - the signal */ };

typedef struct lab_job {
    pid_t pid;        /* the child; 0: none */
    char dir[64];     /* its results' folder */
    double started, limit_ms;
    int status;       /* LAB_RUNNING, LAB_TIMED_OUT, LAB_SIGNALLED - signal, or the child's exit status */
} lab_job;

/* The program a check runs as its child: convis itself ("/proc/self/exe",
 * set by main); until it is set (a test linking the model), no check
 * starts and lab_job_run says so. */
void lab_set_program(const char *path);
bool lab_job_possible(void); /* the program is set */

/* Starts a check of `file` on the image file `image` (NULL: DIR/input.pfm,
 * which the caller writes between lab_job_dir and lab_job_run), with
 * filter `kernel` as -k takes it (NULL: the default), stopped after
 * limit_s. False with a sentence in err_msg(). */
bool lab_job_dir(lab_job *j);
bool lab_job_run(lab_job *j, const char *file, const char *image, const char *kernel, double limit_s, double now_ms);

/* Where the check is at `now_ms`: LAB_RUNNING, or its end (the child stopped
 * past its limit, killed by a signal, or its exit status). */
int lab_job_poll(lab_job *j, double now_ms);

/* The child's results; false when it wrote none (its log in `log`). The
 * wrong outputs' map (w*h bytes, 1: wrong) into *wrong when asked and
 * written (malloc'd), else NULL. */
bool lab_job_report(const lab_job *j, lab_report *r, unsigned char **wrong, char *log, size_t size);

/* From a signal handler: the folder of the check under way removed (only
 * async-signal-safe calls). */
void lab_remove_on_signal(void);

/* Stops a check under way and removes its folder. */
void lab_job_end(lab_job *j);

#endif
