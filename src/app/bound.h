/* bound.h - bounds: the least time a GPU could take for a convolution, made
 * from its maker's published peak figures (records/datasheets.json, turned
 * into a table when convis is built) and the work convis counts for the
 * kernel. The fourth kind of figure beside measured, recorded and counted:
 * never a measurement, always labelled "bound, from the datasheet, not
 * measured". A bound leaves out what no datasheet gives (a launch, the wait
 * for it, each small copy's fixed cost), so it says where a GPU cannot be
 * faster, on big images; on small ones only a measurement says more. */
#ifndef CONVIS_BOUND_H
#define CONVIS_BOUND_H

#include <stdbool.h>
#include <stddef.h>

#include "scene_types.h"

/* One GPU's published figures. */
typedef struct bound_gpu {
    const char *name;       /* "NVIDIA H200 SXM" */
    const char *short_name; /* "H200" */
    const char *class_key;  /* "data-centre", "desktop", "laptop" */
    double memory_gb_s;     /* device memory bandwidth, 10^9 bytes a second */
    double fp32_tflops;     /* 10^12 32-bit float operations a second (a multiply-add: two) */
    double host_link_gb_s;  /* the link to the host, one direction */
    const char *source;     /* where the figures come from, and how they are made */
} bound_gpu;

int bound_gpu_count(void);
const bound_gpu *bound_gpu_at(int i); /* i from 0 to bound_gpu_count() - 1 */

/* The work convis counts for one run: `outputs` pixels of a filter with
 * `taps` weights on 4-byte floats. The device's memory moves at least each
 * input once and each output once; each output costs a multiply-add per
 * weight and one multiply by the divisor; the host link carries the image
 * in and, when `copy_back`, the result out. */
typedef struct bound_work {
    double outputs, device_bytes, flops, link_bytes;
    long long copies; /* the copies across the link: each has a cost of its own no datasheet gives */
} bound_work;

#define BOUND_TAPS_3X3 9
bound_work bound_conv_work(long long outputs, int taps, bool copy_back);
/* The same, the result brought back in `copies_back` copies (0: none). */
bound_work bound_conv_work_copies(long long outputs, int taps, long long copies_back);

/* The least time for `w` on `g`: the kernel cannot beat its memory traffic
 * at the peak bandwidth nor its operations at the peak rate (the larger of
 * the two), and the copies cannot beat the link (added: convis waits for
 * each step before the next). */
typedef enum bound_limit { BOUND_BY_MEMORY, BOUND_BY_ARITHMETIC } bound_limit;
typedef struct bound_time {
    double memory_ms, arith_ms, link_ms, ms;
    bound_limit kernel_limit; /* which of the two sets the kernel's part */
} bound_time;
bound_time bound_time_of(const bound_gpu *g, const bound_work *w);

/* A bound's time: fmt_ms's, or in nanoseconds under 0.1 µs (never rounded
 * up: a bound read larger than it is would claim too much). */
void bound_time_text(double ms, char *buf, size_t size);

/* Whether bounds stand in for a GPU here: the GPU engine is software, a
 * virtual GPU or missing, so no GPU of this machine's was measured. */
bool bound_stands_in(const scene *s);

/* The work of the scene's image and filter on its GPU result path: the image goes in
 * on every path, and comes back on all but the no-copy one. */
bound_work bound_scene_work(const scene *s);

/* The least of the bounds of the scene's image on its result path, and
 * whose it is (*who); 0 and NULL where no bound stands in, and on the path
 * of one copy per pixel, where a bound of bytes would hide what each call
 * costs. */
double bound_least(const scene *s, const bound_gpu **who);

/* The chart's row for it, beside the word "bound": "≥ 24.9 µs, H200
 * datasheet, not measured". */
void bound_row_text(const bound_gpu *g, double ms, char *buf, size_t size);

/* The bounds of `w` on each GPU in a sentence for a lesson ({gpu_bound}): "at least 0.087 ms on an
 * NVIDIA H200 SXM (a data-centre GPU), … (bounds, from the datasheets, not
 * measured: …)", saying what sets them (copies across the host link, or the
 * device's memory). */
void bound_sentence(const bound_work *w, char *buf, size_t size);
/* bound_sentence of the scene's image on its GPU result path ({gpu_bound}). */
void bound_scene_sentence(const scene *s, char *buf, size_t size);

/* The sweep's largest size against the bounds ({sweep_bound}): "at
 * 4096×4096 cpu-par took 8.44 ms here; the bounds are 2.13 ms on the H200,
 * …: where a bound lies above cpu-par's time, that GPU cannot win, copies
 * included; below it, it can, if its launch costs less than the gap", or
 * why there is nothing to compare yet. */
void bound_sweep_sentence(const scene *s, char *buf, size_t size);

#endif
