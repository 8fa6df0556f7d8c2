/* narration.c - the placeholder table (name -> function) and the hint.
 * Contents: words in the lesson's language · one function per placeholder ·
 * the table · narration and hint. */
#include "narration.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_table.h"
#include "bound.h"
#include "chain_text.h"
#include "filter_text.h"
#include "format.h"
#include "i18n.h"
#include "quiz.h"
#include "kernel_lab.h"

typedef void (*value_fn)(const app *a, char *buf, size_t size);

/* The words a placeholder's value may contain, in the lesson's language. */
static const char *words(const app *a, const char *en)
{
    (void)a;
    return _(en);
}

static void engine_ms(const app *a, const scene_engine *e, char *buf, size_t size)
{
    if (!e->measured)
        snprintf(buf, size, "%s", words(a, "(not measured yet)"));
    else
        fmt_ms(eng_total_ms(&e->timing), buf, size);
}

/* How `x` compared with `y`, one way round ("cpu-par was 27.1× faster than
 * cpu-seq"), by the one rule (eng_verdict_of). */
static void compare(const app *a, const scene_engine *x, const scene_engine *y, char *buf, size_t size)
{
    if (!x->measured || !y->measured) {
        snprintf(buf, size, "%s", words(a, "(not measured yet)"));
        return;
    }
    (void)a;
    fmt_compare(scene_engine_label(x), &x->timing, scene_engine_label(y), &y->timing, buf, size);
}

static void v_cpu_seq_ms(const app *a, char *buf, size_t size)
{
    engine_ms(a, &a->s.cpu[SCENE_CPU_SEQ], buf, size);
}
static void v_cpu_par_ms(const app *a, char *buf, size_t size)
{
    engine_ms(a, &a->s.cpu[SCENE_CPU_PAR], buf, size);
}
static void v_cpu_simd_ms(const app *a, char *buf, size_t size)
{
    engine_ms(a, &a->s.cpu[SCENE_CPU_SIMD], buf, size);
}
static void v_ratio_simd_seq(const app *a, char *buf, size_t size)
{
    compare(a, &a->s.cpu[SCENE_CPU_SIMD], &a->s.cpu[SCENE_CPU_SEQ], buf, size);
}
static void v_ratio_par_simd(const app *a, char *buf, size_t size)
{
    compare(a, &a->s.cpu[SCENE_CPU_PAR], &a->s.cpu[SCENE_CPU_SIMD], buf, size);
}
static void v_gpu_ms(const app *a, char *buf, size_t size)
{
    engine_ms(a, &a->s.gpu.eng, buf, size);
}
static void v_ratio_par_seq(const app *a, char *buf, size_t size)
{
    compare(a, &a->s.cpu[SCENE_CPU_PAR], &a->s.cpu[SCENE_CPU_SEQ], buf, size);
}
static void v_ratio_gpu_par(const app *a, char *buf, size_t size)
{
    compare(a, &a->s.gpu.eng, &a->s.cpu[SCENE_CPU_PAR], buf, size);
}

/* What ran the GPU phase, or that nothing could and why: a phrase of its
 * own (it holds colons and brackets), for the end of a sentence. */
static void v_gpu_engine(const app *a, char *buf, size_t size)
{
    if (a->s.gpu.eng.engine)
        snprintf(buf, size, "%s", eng_description(a->s.gpu.eng.engine));
    else if (a->s.gpu.eng.why[0])
        snprintf(buf, size, _("no GPU engine here: %s"), a->s.gpu.eng.why);
    else
        snprintf(buf, size, "%s", words(a, "no GPU engine here"));
}

static void v_gpu_device(const app *a, char *buf, size_t size)
{
    snprintf(buf, size, "%s", a->s.gpu.device_known ? a->s.gpu.device.name : words(a, "(launch the GPU phase first)"));
}

static void v_image_size(const app *a, char *buf, size_t size)
{
    snprintf(buf, size, "%d\xC3\x97%d", a->s.img.luma.w, a->s.img.luma.h);
}

static void v_outputs(const app *a, char *buf, size_t size)
{
    fmt_count((long long)a->s.img.luma.w * a->s.img.luma.h, buf, size);
}

static void v_threads(const app *a, char *buf, size_t size)
{
    long gx, gy;
    int bx, by;
    scene_gpu_grid(&a->s, &gx, &gy, &bx, &by);
    fmt_count((long long)gx * gy * bx * by, buf, size);
}

static void v_blocks(const app *a, char *buf, size_t size)
{
    long gx, gy;
    int bx, by;
    scene_gpu_grid(&a->s, &gx, &gy, &bx, &by);
    snprintf(buf, size, "%ld\xC3\x97%ld", gx, gy);
}

static void v_block_size(const app *a, char *buf, size_t size)
{
    int bx, by;
    scene_block_size(&a->s, &bx, &by);
    snprintf(buf, size, "%d\xC3\x97%d", bx, by);
}

/* The threads cpu-par really ran on this image (a small one: one). */
static void v_cpu_threads(const app *a, char *buf, size_t size)
{
    const scene_engine *par = &a->s.cpu[SCENE_CPU_PAR];
    if (!par->measured || par->timing.threads < 1)
        snprintf(buf, size, "%s", words(a, "(not measured yet)"));
    else
        fmt_count(par->timing.threads, buf, size);
}

/* The second-core check: "2 threads at once gave 1.9 cores' worth of work (measured)". */
static void v_cpu_cores(const app *a, char *buf, size_t size)
{
    scene_cores_text(&a->s.measure.cores_check, buf, size);
}

/* What it means: "your second core gave 40% of a core (measured): the machine is busy or shared, ..." */
static void v_cpu_cores_note(const app *a, char *buf, size_t size)
{
    scene_cores_note(&a->s.measure.cores_check, buf, size);
}

/* The most outputs cpu-par runs on one thread (its least band): "65,536". */
static void v_par_band_outputs(const app *a, char *buf, size_t size)
{
    (void)a;
    fmt_count(eng_par_band_outputs(), buf, size);
}

static void v_gpu_result(const app *a, char *buf, size_t size)
{
    const scene *s = &a->s;
    if (!s->gpu.eng.measured) {
        snprintf(buf, size, "%s", words(a, "(launch the GPU phase first)"));
    } else if (s->gpu.eng.timing.result == ENG_RESULT_PER_PIXEL && s->gpu.eng.timing.extrapolated) {
        char m[32], n[32];
        fmt_count(s->gpu.eng.timing.measured_px, m, sizeof m);
        fmt_count(s->gpu.eng.timing.total_px, n, sizeof n);
        snprintf(buf, size, _("one copy per pixel, %2$s of the %1$s copies measured and the rest extrapolated"), n, m);
    } else if (s->gpu.eng.timing.result == ENG_RESULT_PER_PIXEL) {
        snprintf(buf, size, "%s", words(a, "one copy per pixel"));
    } else if (s->gpu.presented) {
        snprintf(buf, size, "%s", words(a, "straight into the picture, no copy"));
    } else {
        snprintf(buf, size, "%s", words(a, "one bulk copy back"));
    }
}

static void v_gpu_copy_ms(const app *a, char *buf, size_t size)
{
    const scene *s = &a->s;
    if (!s->gpu.eng.measured)
        snprintf(buf, size, "%s", words(a, "(not measured yet)"));
    else
        fmt_ms(s->gpu.eng.timing.has[ENG_DOWNLOAD] ? s->gpu.eng.timing.ms[ENG_DOWNLOAD] : 0.0, buf, size);
}

static void v_image_bytes(const app *a, char *buf, size_t size)
{
    char all[32], one[32];
    long long px = (long long)a->s.img.luma.w * a->s.img.luma.h;
    fmt_bytes(px * 8, all, sizeof all);
    fmt_bytes(px * 4, one, sizeof one);
    snprintf(buf, size, _("%s (two buffers of %s)"), all, one);
}

static void v_memory_budget(const app *a, char *buf, size_t size)
{
    if (a->s.gpu.budget <= 0)
        snprintf(buf, size, "%s", words(a, "no budget (all the device has)"));
    else
        fmt_bytes(a->s.gpu.budget, buf, size);
}

static void v_tiles(const app *a, char *buf, size_t size)
{
    const scene *s = &a->s;
    if (!s->gpu.eng.engine)
        snprintf(buf, size, "%s", words(a, "no GPU engine here"));
    else if (s->tiles.on)
        scene_tiles_text(s, buf, size);
    else if (scene_needs_tiles(s))
        snprintf(buf, size, "%s", words(a, "(launch the GPU phase first)"));
    else
        snprintf(buf, size, "%s", words(a, "(no tiles: the image fits)"));
}

/* Placeholders whose words their own feature writes from the scene. */
#define FROM_SCENE(name, fn)                                                                                           \
    static void v_##name(const app *a, char *buf, size_t size)                                                         \
    {                                                                                                                  \
        fn(&a->s, buf, size);                                                                                          \
    }
FROM_SCENE(tiles_vs_whole, scene_tiles_vs_whole)
FROM_SCENE(gpu_bound, bound_scene_sentence)
FROM_SCENE(sweep_bound, bound_sweep_sentence)
FROM_SCENE(cpu_threads_why, scene_cpu_threads_why)
FROM_SCENE(sweep_gpu_vs_seq, scene_sweep_gpu_vs_seq)

static void v_tile_ms(const app *a, char *buf, size_t size)
{
    const scene *s = &a->s;
    double lo = 1e300, hi = 0;
    char x[32], y[32];
    if (!s->tiles.on || s->tiles.done < 1) {
        if (s->tiles.on)
            snprintf(buf, size, "%s", words(a, "(launch the GPU phase first)"));
        else
            snprintf(buf, size, "%s", words(a, "(no tiles: the image fits)"));
        return;
    }
    for (int i = 0; i < s->tiles.done; ++i) {
        lo = s->tiles.ms[i] < lo ? s->tiles.ms[i] : lo;
        hi = s->tiles.ms[i] > hi ? s->tiles.ms[i] : hi;
    }
    fmt_ms(lo, x, sizeof x);
    fmt_ms(hi, y, sizeof y);
    snprintf(buf, size, _("%s to %s each"), x, y);
}

/* The threads that execute one instruction together on this GPU, as its
 * driver reports them. */
static void v_warp_size(const app *a, char *buf, size_t size)
{
    const scene *s = &a->s;
    if (!s->gpu.device_known)
        snprintf(buf, size, "%s", words(a, "(launch the GPU phase first)"));
    else if (s->gpu.device.subgroup > 0 && strcmp(s->gpu.eng.name, "cuda") == 0)
        snprintf(buf, size, _("warps of %d threads, as the device reports"), s->gpu.device.subgroup);
    else if (s->gpu.device.subgroup > 0)
        snprintf(buf, size, _("subgroups of %d invocations, as the driver reports"), s->gpu.device.subgroup);
    else
        snprintf(buf, size, "%s", words(a, "the driver reports no subgroup size"));
}

/* The GPU engine as the chart names it: "cuda", "gl (software)". */
static void v_gpu_label(const app *a, char *buf, size_t size)
{
    snprintf(buf, size, "%s", a->s.gpu.eng.engine ? scene_engine_label(&a->s.gpu.eng) : words(a, "no GPU engine here"));
}

/* Where the recorded run drawn came from: "recorded on ..., <date>". */
static void v_record(const app *a, char *buf, size_t size)
{
    if (a->has_record)
        rec_label(&a->record, buf, size);
    else
        snprintf(buf, size, "%s", words(a, "(no recorded run)"));
}

static void v_device_memory(const app *a, char *buf, size_t size)
{
    const eng_device_info *d = &a->s.gpu.device;
    char x[32], y[32];
    if (!a->s.gpu.device_known) {
        snprintf(buf, size, "%s", words(a, "(launch the GPU phase first)"));
    } else if (d->memory_total > 0 && d->memory_free >= 0) {
        fmt_bytes(d->memory_free, x, sizeof x);
        fmt_bytes(d->memory_total, y, sizeof y);
        snprintf(buf, size, _("%s free of %s"), x, y);
    } else if (d->max_buffer > 0) {
        fmt_bytes(d->max_buffer, x, sizeof x);
        snprintf(buf, size, _("not reported by the driver; one buffer may hold %s"), x);
    } else {
        snprintf(buf, size, "%s", words(a, "not reported by the driver"));
    }
}

static void v_largest_image(const app *a, char *buf, size_t size)
{
    if (!scene_gpu_largest_text(&a->s, buf, size))
        snprintf(buf, size, "%s", words(a, "(launch the GPU phase first)"));
}

static void v_passes(const app *a, char *buf, size_t size)
{
    snprintf(buf, size, "%d", a->s.passes);
}

static void v_crossover(const app *a, char *buf, size_t size)
{
    const scene *s = &a->s;
    int c = scene_sweep_crossover(s), last = s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0;
    if (!s->sweep.count)
        snprintf(buf, size, "%s", words(a, "(press W to measure first)"));
    else if (c)
        snprintf(buf, size, _("from %d×%d up"), c, c);
    else
        snprintf(buf, size, _("at no size up to %d×%d"), last, last);
}

static void v_race_wrong(const app *a, char *buf, size_t size)
{
    if (a->s.inside.gpu_runs == 0)
        snprintf(buf, size, "%s",
                 words(a, "(not run yet: press O up to the runs without the barrier on the GPU engine)"));
    else
        scene_race_summary(&a->s, buf, size);
}

/* The one table: a lesson's {name} is filled by its function. */
static const struct {
    const char *name;
    value_fn fn;
} placeholders[] = {
    {"cpu_seq_ms", v_cpu_seq_ms},
    {"cpu_par_ms", v_cpu_par_ms},
    {"gpu_ms", v_gpu_ms},
    {"gpu_engine", v_gpu_engine},
    {"gpu_device", v_gpu_device},
    {"ratio_par_seq", v_ratio_par_seq},
    {"ratio_gpu_par", v_ratio_gpu_par},
    {"image_size", v_image_size},
    {"outputs", v_outputs},
    {"threads", v_threads},
    {"blocks", v_blocks},
    {"block_size", v_block_size},
    {"cpu_threads", v_cpu_threads},
    {"gpu_result", v_gpu_result},
    {"gpu_copy_ms", v_gpu_copy_ms},
    {"crossover", v_crossover},
    {"passes", v_passes},
    {"chain_cpu_ms", app_chain_cpu_ms},
    {"chain_gpu_ms", app_chain_gpu_ms},
    {"chain_length", app_chain_length},
    {"image_bytes", v_image_bytes},
    {"device_memory", v_device_memory},
    {"largest_image", v_largest_image},
    {"cpu_simd_ms", v_cpu_simd_ms},
    {"ratio_simd_seq", v_ratio_simd_seq},
    {"ratio_par_simd", v_ratio_par_simd},
    {"memory_budget", v_memory_budget},
    {"tiles", v_tiles},
    {"tile_ms", v_tile_ms},
    {"warp_size", v_warp_size},
    {"record", v_record},
    {"gpu_label", v_gpu_label},
    {"cpu_cores", v_cpu_cores},
    {"cpu_cores_note", v_cpu_cores_note},
    {"par_band_outputs", v_par_band_outputs},
    {"tiles_vs_whole", v_tiles_vs_whole},
    {"race_wrong", v_race_wrong},
    {"chain_cpu_independent_ms", app_chain_cpu_independent_ms},
    {"chain_gpu_independent_ms", app_chain_gpu_independent_ms},
    {"chain_cpu_wait_ratio", app_chain_cpu_wait_ratio},
    {"chain_gpu_wait_ratio", app_chain_gpu_wait_ratio},
    {"gpu_bound", v_gpu_bound},
    {"sweep_bound", v_sweep_bound},
    {"cpu_threads_why", v_cpu_threads_why},
    {"sweep_gpu_vs_seq", v_sweep_gpu_vs_seq},
    {"filter", app_filter_name},
    {"taps", app_filter_taps},
    {"tile_reuse", app_tile_reuse},
    {"input_tile_idle", app_input_tile_idle},
    {"filter_sweep_growth", app_filter_sweep_growth},
    {"filter_sweep_separable", app_filter_sweep_separable},
    {"filter_sweep_roofline", app_filter_sweep_roofline},
    {"layer", app_layer},
    {"layer_copies", app_layer_copies},
    {"layer_ways", app_layer_ways},
    {"layer_library", app_layer_library},
    {"lab_result", app_lab_result},
    {"lab_reads", app_lab_reads},
    {"lab_file", app_lab_file},
};

#define PLACEHOLDER_COUNT (sizeof placeholders / sizeof placeholders[0])

size_t app_placeholder_count(void)
{
    return PLACEHOLDER_COUNT;
}

const char *app_placeholder_name(size_t i)
{
    return i < PLACEHOLDER_COUNT ? placeholders[i].name : NULL;
}

bool app_placeholder(const app *a, const char *name, char *buf, size_t size)
{
    for (size_t i = 0; i < PLACEHOLDER_COUNT; ++i)
        if (strcmp(placeholders[i].name, name) == 0) {
            placeholders[i].fn(a, buf, size);
            return true;
        }
    return false;
}

static bool lookup(const void *user, const char *name, char *buf, size_t size)
{
    return app_placeholder(user, name, buf, size);
}

lsn_variant app_machine(const app *a)
{
    const char *pretend = getenv("CONVIS_TEST_MACHINE"); /* tests: the other texts, here */
    if (pretend && (strcmp(pretend, "gpu") == 0 || strcmp(pretend, "virtual") == 0))
        return LSN_ON_GPU;
    if (pretend && strcmp(pretend, "software") == 0)
        return LSN_ON_SOFTWARE;
    if (pretend && strcmp(pretend, "no-gpu") == 0)
        return LSN_ON_NO_GPU;
    if (!a->s.gpu.eng.engine)
        return LSN_ON_NO_GPU;
    return a->s.gpu.eng.hardware == ENG_HW_SOFTWARE ? LSN_ON_SOFTWARE : LSN_ON_GPU;
}

/* Whether the GPU engine runs on a virtual GPU (or the tests pretend so). */
static bool on_virtual_gpu(const app *a)
{
    const char *pretend = getenv("CONVIS_TEST_MACHINE");
    if (pretend)
        return strcmp(pretend, "virtual") == 0;
    return a->s.gpu.eng.engine && a->s.gpu.eng.hardware == ENG_HW_VIRTUAL;
}

void app_notes(const app *a, int which, char *buf, size_t size)
{
    app_quiz_notes(a, (app_notes_of)which, lookup, buf, size);
}

/* The question's options, answer and why under the narration, and the
 * teacher's notes while they are asked for (Shift+N). */
static void add_quiz_and_notes(const app *a, char *buf, size_t size)
{
    char text[4096], notes[4096];
    app_quiz_text(a, lookup, text, sizeof text);
    app_paragraph(buf, size, text);
    if (a->notes) {
        app_notes(a, APP_NOTES_BOTH, text, sizeof text);
        if (text[0]) {
            snprintf(notes, sizeof notes, _("For the teacher: %s"), text);
            app_paragraph(buf, size, notes);
        }
    }
}

void app_narration(const app *a, char *buf, size_t size)
{
    /* A virtual GPU gets a real GPU's texts, said to be about a GPU whose
     * hardware is hidden: its figures are this machine's alone. */
    size_t n = 0;
    if (a->player.active && !a->player.waiting && a->said_step == a->player.step &&
        strcmp(a->said_lang, a->lang) == 0 && size > 0) { /* the words that asked for what was done */
        snprintf(buf, size, "%s", a->said);
        return;
    }
    if (on_virtual_gpu(a) && size > 0 && a->player.active)
        n = (size_t)snprintf(buf, size, "%s",
                             _("(A virtual GPU: the hardware behind it is hidden, so its figures are this "
                               "machine's alone.) "));
    if (n >= size)
        return;
    lsn_player_narration(&a->player, app_machine(a), lookup, a, buf + n, size - n);
    add_quiz_and_notes(a, buf, size);
}

void app_narration_keep(app *a)
{
    char now[sizeof a->said];
    a->said_step = -1; /* the words as made now, not as kept before */
    app_narration(a, now, sizeof now);
    memcpy(a->said, now, sizeof now);
    a->said_step = a->player.step;
    snprintf(a->said_lang, sizeof a->said_lang, "%s", a->lang);
}
