/* cpu_seq.c - the teaching baseline: one scalar output after another.
 *
 * It runs the reference loop (core/conv.c) on one thread. That file is built
 * with -fno-tree-vectorize -fno-tree-slp-vectorize (CMakeLists.txt), so the
 * compiler keeps it scalar: each output is nine loads through the border
 * rule, nine multiplies, eight adds and a divide, one output at a time. */
#include <stdio.h>

#include "core/timing.h"
#include "core/tr.h"
#include "engines.h"

static bool seq_run(void *state, const eng_job *job, eng_timing *timing)
{
    double t0;
    (void)state;
    t0 = tim_now_ms();
    conv_reference(job->in, &job->params, job->out);
    timing->ms[ENG_COMPUTE] = tim_now_ms() - t0;
    timing->has[ENG_COMPUTE] = true;
    timing->clock = N_("monotonic clock");
    timing->launch.bands = 1;
    timing->threads = 1;
    return true;
}

static void seq_describe(void *state, char *buf, size_t size)
{
    (void)state;
    snprintf(buf, size, _("CPU, 1 thread, scalar"));
}

static bool seq_layer(void *state, const eng_layer_job *job, eng_layer_timing *timing)
{
    (void)state;
    return eng_cpu_layer(1, job, timing);
}

const eng_class eng_cpu_seq_class = {
    .name = "cpu-seq",
    .any_size = true,
    .any_geometry = true,
    .summary = N_("one scalar output after another on one CPU thread, every tap through the border rule (the "
                  "baseline: what a plain loop does)"),
    .run = seq_run,
    .describe = seq_describe,
    .roofs = eng_cpu_roofs_scalar,
    .layer_ways = ENG_CPU_LAYER_WAYS,
    .layer = seq_layer,
};
