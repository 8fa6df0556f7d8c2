/* race_check.h - the check every GPU engine's test makes of the tiled
 * kernel without its barrier (eng_options.no_barrier, only ever to show the
 * race): it runs three times on a w x h image, how many outputs came out
 * wrong is printed, not asserted (a race may or may not show; on the CUDA
 * stand-in, CONVIS_CUDA_MOCK, where it always shows, asserted), with how
 * many of them are NaN (the engines fill shared memory with NaN before
 * each such run, so those read a cell too early), and with the barrier
 * back the result equals the reference bit for bit. Include after
 * check.h. */
#ifndef CONVIS_RACE_CHECK_H
#define CONVIS_RACE_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compute/engine.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/filter.h"
#include "independent.h"

static long race_wrong(const img_plane *got, const img_plane *want)
{
    return conv_count_different(got->px, want->px, (long)got->w * got->h);
}

static void check_no_barrier(eng_engine *e, int w, int h, const char *where)
{
    img_plane in, ref, out;
    eng_options o;
    eng_timing t;
    eng_job job;
    long wrong[3] = {0, 0, 0}, nan[3] = {0, 0, 0};
    img_plane_alloc(&in, w, h);
    img_plane_alloc(&ref, w, h);
    img_plane_alloc(&out, w, h);
    ind_fill(in.px, (size_t)w * h, 17);
    job = (eng_job){&in, &out, conv_params_make(filt_preset(2), CONV_BORDER_CLAMP, false)};
    conv_reference(&in, &job.params, &ref);
    memset(&o, 0, sizeof o);
    o.no_barrier = true;
    CHECK(eng_class_of(e)->race_demo && eng_set_options(e, &o), "the race demonstration: %s", err_msg());
    for (int r = 0; r < 3; ++r) {
        CHECK(eng_run(e, &job, &t), "a run without the barrier: %s", err_msg());
        wrong[r] = race_wrong(&out, &ref);
        for (long i = 0; i < (long)w * h; ++i) /* the reference has none: a cell the poison filled was read */
            nan[r] += isnan(out.px[i]) != 0;
#ifdef CONVIS_CUDA_MOCK
        /* certain on the CPU stand-in: its warps run in one order, each
         * reading cells a later warp stores, and the engine's poison left
         * NaN there */
        CHECK(wrong[r] > 0, "without the barrier on %s, run %d of 3: outputs wrong on the stand-in", where, r + 1);
#endif
    }
    printf("without the barrier on %s: %ld, %ld and %ld of %d outputs wrong in three runs (%ld, %ld and %ld NaN: "
           "read from shared memory the poison filled)\n",
           where, wrong[0], wrong[1], wrong[2], w * h, nan[0], nan[1], nan[2]);
    memset(&o, 0, sizeof o);
    eng_set_options(e, &o);
    CHECK(eng_run(e, &job, &t) && race_wrong(&out, &ref) == 0, "with the barrier again: equal to the reference");
    img_plane_free(&in);
    img_plane_free(&ref);
    img_plane_free(&out);
}

#endif
