/* state.c - the app's state as key=value lines: what --print-state prints
 * and what tests compare. */
#include "state.h"

#include <stdio.h>

#include "narration.h"
#include "scene.h"

/* Inside the GPU: the block's stage, what its load has stored, the
 * counted traffic of both kernels and the simulated missing barrier. */
static void print_inside(const scene *s, FILE *f)
{
    static const char *const stages[SCENE_BLOCK_STAGES] = {"load", "barrier", "compute", "no-barrier",
                                                           "no-barrier-gpu"};
    int bdx, bdy, rd, r, cd, c;
    kw_counts k;
    scene_block_dims(s, &bdx, &bdy);
    fprintf(f, "inside=%d\nblock_shape=%dx%d\n", s->area == SCENE_AREA_INSIDE, bdx, bdy);
    if (s->area != SCENE_AREA_INSIDE)
        return;
    scene_block_loading(s, &rd, &r, &cd, &c);
    fprintf(f, "block_stage=%s\nblock=%d,%d\nblock_thread=%d\nblock_warp=%d\n", stages[s->inside.stage], s->inside.bx,
            s->inside.by, s->inside.thread, s->inside.thread / KW_WARP);
    fprintf(f, "block_requests=%d/%d\nblock_cells_loaded=%d/%d\nblock_waiting=%d\n", rd, r, cd, c,
            s->inside.stage == SCENE_BLOCK_BARRIER ? bdx * bdy : 0);
    if (s->img.luma.px && kw_count(s->img.luma.w, s->img.luma.h, bdx, bdy, s->opt.border, &k)) {
        fprintf(f, "count_blocks=%lld\ncount_warps=%lld\ncount_wasted=%lld\n", k.blocks, k.warps, k.wasted);
        fprintf(f, "count_naive_loads_per_output=%.4f\ncount_tiled_loads_per_output=%.4f\n",
                (double)k.naive.loads / (double)k.outputs, (double)k.tiled.loads / (double)k.outputs);
        fprintf(f, "count_naive_sectors_per_request=%.4f\ncount_tiled_sectors_per_request=%.4f\n",
                k.naive.requests ? (double)k.naive.sectors / (double)k.naive.requests : 0.0,
                k.tiled.requests ? (double)k.tiled.sectors / (double)k.tiled.requests : 0.0);
        fprintf(f, "count_naive_bytes=%lld\ncount_tiled_bytes=%lld\ncount_min_bytes=%lld\n", k.naive.sectors * KW_SECTOR,
                k.tiled.sectors * KW_SECTOR, 4 * k.outputs);
        fprintf(f, "count_shared_read_passes=%d\ncount_shared_store_passes=%d\n", k.tiled.worst_read_passes,
                k.tiled.worst_store_passes);
    }
    if (s->inside.stage == SCENE_BLOCK_NO_BARRIER)
        fprintf(f, "race_seed=%u\nrace_can=%d\nrace_raced=%d\n", s->inside.race_seed, s->inside.race.can_count,
                s->inside.race.raced_count);
    if (s->inside.stage == SCENE_BLOCK_NO_BARRIER_GPU) {
        fprintf(f, "race_gpu_runs=%d\nrace_gpu_wrong=", s->inside.gpu_runs);
        for (int i = 0; i < s->inside.gpu_runs; ++i)
            fprintf(f, "%s%lld", i ? "," : "", s->inside.gpu_wrong[i]);
        fprintf(f, "\nrace_gpu_why=%s\n", s->inside.gpu_why);
    }
}

void app_print_state(const app *a, FILE *f)
{
    const scene *s = &a->s;
    int fx, fy;
    bool from_stepper;
    char title[320];
    scene_focus(s, &fx, &fy, &from_stepper);
    scene_title(s, title, sizeof title);
    fprintf(f, "phase=%s\n", s->phase == SCENE_PHASE_GPU ? "gpu" : "cpu");
    fprintf(f, "area=%s\nchart=%s\n", scene_area_name(s->area), s->chart == SCENE_CHART_CHAIN ? "chain" : "timing");
    fprintf(f, "output=%ld\nx=%d\ny=%d\ntaps=%d\n", s->stepper.index, conv_stepper_x(&s->stepper),
           conv_stepper_y(&s->stepper), s->stepper.taps);
    fprintf(f, "done=%ld\ntotal=%ld\n", scene_cpu_done(s), (long)s->img.luma.w * s->img.luma.h);
    fprintf(f, "playing=%d\nspeed=%g\n", s->playing, s->speed);
    fprintf(f, "image=%s\nwidth=%d\nheight=%d\n", title, s->img.luma.w, s->img.luma.h);
    fprintf(f, "filter=%s\nborder=%s\nflip=%d\ndisplay=%s\n", s->opt.kernel.name, conv_border_name(s->opt.border),
           s->opt.flip, img_display_name(s->opt.display));
    fprintf(f, "weights=");
    for (int t = 0; t < 9; ++t)
        fprintf(f, "%g%s", (double)s->opt.kernel.weight[t], t < 8 ? "," : "\n");
    fprintf(f, "thread_view=%d\nview_x=%d\nview_y=%d\nview_cells=%d\n", s->thread_view, s->view_x, s->view_y,
           s->view_cells);
    fprintf(f, "focus_x=%d\nfocus_y=%d\nhovering=%d\npinned=%d\n", fx, fy, s->hovering, s->pinned);
    fprintf(f, "gpu_engine=%s\ngpu_available=%d\ngpu_measured=%d\n", s->gpu.name, s->gpu.engine != NULL,
           s->gpu.measured);
    if (s->gpu.engine)
        fprintf(f, "gpu_description=%s\n", eng_description(s->gpu.engine));
    fprintf(f, "gpu_kernel=%s\ngpu_result=%s\ngpu_presented=%d\ngpu_extrapolated=%d\n", eng_kernel_name(s->gpu_kernel),
           eng_result_name(s->gpu_result), s->gpu_presented, s->gpu.measured && s->gpu.timing.extrapolated);
    { /* the kernel alone, measured apart from the phases (CUDA); -1 and 0 when not */
        bool k = s->gpu.measured && s->gpu.timing.has_kernel;
        fprintf(f, "gpu_kernel_alone_ms=%.4f\ngpu_kernel_launches=%d\ngpu_kernel_one_launch_ms=%.4f\n",
                k ? s->gpu.timing.kernel_ms : -1.0, k ? s->gpu.timing.kernel_launches : 0,
                k ? s->gpu.timing.kernel_one_ms : -1.0);
    }
    if (s->gpu_device_known)
        fprintf(f, "gpu_device=%s\ngpu_present_path=%s\n", s->gpu_device.name,
               eng_present_path_name(s->gpu_device.present));
    fprintf(f, "cpu_seq_measured=%d\ncpu_par_measured=%d\ncpu_bands=%d\n", s->seq.measured, s->par.measured,
           s->cpu_bands);
    fprintf(f, "cpu_simd_measured=%d\n", s->simd.measured);
    fprintf(f, "cpu_seq_ms=%.4f\ncpu_simd_ms=%.4f\ncpu_par_ms=%.4f\ngpu_ms=%.4f\n",
            s->seq.measured ? eng_total_ms(&s->seq.timing) : -1.0, s->simd.measured ? eng_total_ms(&s->simd.timing) : -1.0,
            s->par.measured ? eng_total_ms(&s->par.timing) : -1.0, s->gpu.measured ? eng_total_ms(&s->gpu.timing) : -1.0);
    fprintf(f, "mem_budget=%lld\nimage_bytes=%lld\ntiles=%d\ntiles_done=%d\ntile_w=%d\ntile_h=%d\n", s->mem_budget,
            scene_image_bytes(s), s->tiles.on ? tile_count(&s->tiles.plan) : 0, s->tiles.on ? s->tiles.done : 0,
            s->tiles.on ? s->tiles.plan.tile_w : 0, s->tiles.on ? s->tiles.plan.tile_h : 0);
    if (s->gpu_device_known)
        fprintf(f, "gpu_memory_total=%lld\ngpu_memory_free=%lld\ngpu_memory_engine=%lld\ngpu_max_buffer=%lld\n"
                   "gpu_subgroup=%d\n",
                s->gpu_device.memory_total, s->gpu_device.memory_free, s->gpu_device.memory_engine,
                s->gpu_device.max_buffer, s->gpu_device.subgroup);
    fprintf(f, "passes=%d\nchain_shown=%d\nchain_cpu_ms=%.3f\nchain_gpu_ms=%.3f\n", s->passes, s->chart == SCENE_CHART_CHAIN,
           s->chain.ms[0], s->chain.ms[1]);
    fprintf(f, "sweep_shown=%d\nsweep_sizes=%d\nsweep_crossover=%d\nbusy=%d\n", s->area == SCENE_AREA_SWEEP, s->sweep.count,
           scene_sweep_crossover(s), scene_busy(s));
    print_inside(s, f);
    fprintf(f, "menu=%d\nlessons_found=%d\nlang=%s\n", a->menu, a->lesson_count, app_lang(a));
    if (app_in_lesson(a)) {
        char hint[256];
        app_hint(a, hint, sizeof hint);
        fprintf(f, "lesson=%s\nlesson_step=%d\nlesson_steps=%d\nlesson_waiting=%d\nhint=%s\n", a->lesson_path,
                a->player.step + 1, a->player.lesson.step_count, a->player.waiting, hint);
    }
    fprintf(f, "help=%d\nblank=%d\ntext_scale=%d\nedit_tap=%d\n", a->help, a->blank, a->text_scale, a->edit_tap);
    fprintf(f, "banner=%s\nnotice=%s\n", s->banner, s->notice);
}
