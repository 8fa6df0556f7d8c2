/* test_bound.c - bounds (src/app/bound.h): the datasheets' table as built
 * from records/datasheets.json, the work counted for a run, the least time
 * worked out from both, and the words that label it a bound. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "check.h"
#include "i18n.h"
#include "scene.h"

/* The shipped file's text, to hold the table to it. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = calloc(1, (size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n)
        buf[0] = '\0';
    fclose(f);
    return buf;
}

static void test_table(const char *json_path)
{
    char *json = read_text(json_path);
    bool h200 = false, desktop = false, laptop = false;
    CHECK(json != NULL, "read %s", json_path);
    CHECK(bound_gpu_count() >= 3, "%d GPUs", bound_gpu_count());
    for (int i = 0; i < bound_gpu_count(); ++i) {
        const bound_gpu *g = bound_gpu_at(i);
        char quoted[160];
        CHECK(g->memory_gb_s > 0 && g->fp32_tflops > 0 && g->host_link_gb_s > 0, "%s: figures", g->name);
        CHECK(strstr(g->source, "nvidia.com") != NULL, "%s names where its figures come from: %s", g->name, g->source);
        snprintf(quoted, sizeof quoted, "\"%s\"", g->name);
        CHECK(json && strstr(json, quoted), "%s is the file's", g->name);
        h200 |= strstr(g->name, "H200") != NULL;
        desktop |= strcmp(g->class_key, "desktop") == 0;
        laptop |= strcmp(g->class_key, "laptop") == 0;
    }
    CHECK(h200 && desktop && laptop, "an H200, a desktop GPU and a laptop GPU");
    CHECK(bound_gpu_at(-1) == NULL && bound_gpu_at(bound_gpu_count()) == NULL, "outside the table: none");
    free(json);
}

static void test_work(void)
{
    bound_work w = bound_conv_work(16, BOUND_TAPS_3X3, true), in_only = bound_conv_work(16, BOUND_TAPS_3X3, false);
    CHECK(w.outputs == 16 && w.device_bytes == 128 && w.flops == 19 * 16 && w.link_bytes == 128,
          "4x4: %g outputs, %g bytes, %g flops, %g over the link", w.outputs, w.device_bytes, w.flops, w.link_bytes);
    CHECK(in_only.link_bytes == 64 && in_only.device_bytes == 128, "no copy back: only the image goes over the link");
    w = bound_conv_work(-5, BOUND_TAPS_3X3, true);
    CHECK(w.outputs == 0 && w.link_bytes == 0, "no outputs, no work");
}

static void test_time(void)
{
    bound_gpu g = {"test GPU", "test", "desktop", 100, 1, 10, "nvidia.com"};
    bound_work w = bound_conv_work(4096LL * 4096, BOUND_TAPS_3X3, true);
    bound_time t = bound_time_of(&g, &w);
    double bytes = 2.0 * 4 * 4096.0 * 4096;
    CHECK_NEAR(t.memory_ms, bytes / 100e9 * 1e3, 1e-9, "memory %g ms", t.memory_ms);
    CHECK_NEAR(t.arith_ms, 19.0 * 4096 * 4096 / 1e12 * 1e3, 1e-9, "arithmetic %g ms", t.arith_ms);
    CHECK_NEAR(t.link_ms, bytes / 10e9 * 1e3, 1e-9, "link %g ms", t.link_ms);
    CHECK(t.kernel_limit == BOUND_BY_MEMORY, "memory sets a 3x3 kernel's part");
    CHECK_NEAR(t.ms, t.memory_ms + t.link_ms, 1e-12, "the larger of memory and arithmetic, plus the link");
    g.fp32_tflops = 0.001; /* a GPU that computes slowly */
    t = bound_time_of(&g, &w);
    CHECK(t.kernel_limit == BOUND_BY_ARITHMETIC && t.ms == t.arith_ms + t.link_ms, "arithmetic sets it");
    /* the shipped H200: 128 MiB through a 4.8 TB/s memory, and over a 64 GB/s link */
    for (int i = 0; i < bound_gpu_count(); ++i)
        if (strcmp(bound_gpu_at(i)->short_name, "H200") == 0) {
            t = bound_time_of(bound_gpu_at(i), &w);
            CHECK_NEAR(t.memory_ms, 0.02796, 1e-3, "H200 memory %g ms", t.memory_ms);
            CHECK_NEAR(t.link_ms, 2.0972, 1e-3, "H200 link %g ms", t.link_ms);
        }
}

static void test_words(void)
{
    bound_work big = bound_conv_work(4096LL * 4096, BOUND_TAPS_3X3, true);
    bound_work tiny = bound_conv_work(16, BOUND_TAPS_3X3, false);
    char buf[1024];
    bound_row_text(bound_gpu_at(0), bound_time_of(bound_gpu_at(0), &big).ms, buf, sizeof buf);
    CHECK(strstr(buf, " datasheet, not measured") && strstr(buf, bound_gpu_at(0)->short_name),
          "the chart's row, labelled: %s", buf);
    bound_time_text(bound_time_of(bound_gpu_at(0), &tiny).ms, buf, sizeof buf);
    CHECK(strcmp(buf, "1.0 ns") == 0, "a tiny bound in nanoseconds, never rounded up: %s", buf);
    bound_time_text(2.1258, buf, sizeof buf);
    CHECK(strcmp(buf, "2.13 ms") == 0, "a bound of milliseconds as every time is written: %s", buf);
    bound_sentence(&big, buf, sizeof buf);
    CHECK(strstr(buf, "at least 2.13 ms on the H200, ") == buf, "a sentence: %s", buf);
    CHECK(strstr(buf, "not measured") && strstr(buf, "launch"), "labelled, and says what it leaves out: %s", buf);
    CHECK(strstr(buf, "the copies across the host link are ") != NULL, "copies set a big image's bound: %s", buf);
    bound_sentence(&tiny, buf, sizeof buf);
    CHECK(strstr(buf, "memory traffic") != NULL || strstr(buf, "host link") != NULL, "what sets it: %s", buf);
}

/* The scene's words: the path sets what crosses the link, the sweep's
 * largest size is set against each bound, both ways, whole. */
static void test_scene_words(void)
{
    static scene s; /* zeroed: no GPU engine, no sweep */
    char buf[1024];
    const bound_gpu *who;
    CHECK(bound_stands_in(&s), "no GPU engine: bounds stand in");
    CHECK(bound_least(&s, &who) == 0 && !who, "no image, no bound");
    s.gpu.eng.engine = (eng_engine *)&s; /* an engine, never called here */
    s.gpu.eng.hardware = ENG_HW_SOFTWARE;
    CHECK(bound_stands_in(&s), "a software GPU: bounds stand in");
    s.gpu.eng.hardware = ENG_HW_VIRTUAL;
    CHECK(bound_stands_in(&s), "a virtual GPU: bounds stand in");
    s.gpu.eng.hardware = ENG_HW_GPU;
    s.img.luma.w = s.img.luma.h = 16;
    CHECK(!bound_stands_in(&s) && bound_least(&s, &who) == 0 && !who, "a real GPU: measured, no bound stands in");
    s.gpu.eng.engine = NULL;
    s.img.luma.w = 512, s.img.luma.h = 384;
    s.opt.kernel.kw = s.opt.kernel.kh = 5;
    CHECK(bound_scene_work(&s).flops == 51.0 * 512 * 384, "the scene's filter counts: 25 multiply-adds and one");
    s.opt.kernel.kw = s.opt.kernel.kh = 3;
    s.gpu.result = ENG_RESULT_INTEROP;
    CHECK(bound_scene_work(&s).link_bytes == 4.0 * 512 * 384 && bound_scene_work(&s).copies == 1,
          "no copy back: the image goes in, nothing comes back");
    bound_scene_sentence(&s, buf, sizeof buf);
    CHECK(strstr(buf, "the image's upload across the host link is ") != NULL, "no copy back: the upload: %s", buf);
    CHECK(bound_least(&s, &who) > 0 && who && strcmp(who->short_name, "H200") == 0,
          "the least bound is the fastest GPU's: %s", who ? who->short_name : "none");
    s.gpu.result = ENG_RESULT_PER_PIXEL;
    CHECK(bound_least(&s, &who) == 0 && !who, "one copy per pixel: no bound of bytes beside it");
    CHECK(bound_scene_work(&s).link_bytes == 8.0 * 512 * 384 && bound_scene_work(&s).copies == 1 + 512 * 384,
          "one copy per pixel: the bulk copy's bytes in %lld copies", bound_scene_work(&s).copies);
    bound_scene_sentence(&s, buf, sizeof buf);
    CHECK(strstr(buf, "196,608 copies back, each with a cost of its own") != NULL, "per pixel: %s", buf);
    bound_sweep_sentence(&s, buf, sizeof buf);
    CHECK(strstr(buf, "press W") != NULL, "no sweep: %s", buf);
    s.sweep.count = 6;
    for (int i = 0, n = 4; i < 6; ++i, n *= 4)
        s.sweep.size[i] = n, s.sweep.ms[SWEEP_PAR][i] = 1000.0; /* slower than every bound */
    bound_sweep_sentence(&s, buf, sizeof buf);
    CHECK(strstr(buf, "At 4096\xC3\x97") == buf && strstr(buf, "every one lies below") &&
              strstr(buf, "less than the gap") && strlen(buf) > 255,
          "every bound below cpu-par's time, the sentence whole (%zu bytes): %s", strlen(buf), buf);
    s.sweep.ms[SWEEP_PAR][5] = 1e-3; /* faster than every bound */
    bound_sweep_sentence(&s, buf, sizeof buf);
    CHECK(strstr(buf, "cannot beat") && strstr(buf, "however fast its arithmetic"), "a bound above: %s", buf);
    s.sweep.ms[SWEEP_PAR][5] = -1; /* the largest not measured: the one before */
    bound_sweep_sentence(&s, buf, sizeof buf);
    CHECK(strstr(buf, "At 1024\xC3\x97") == buf, "the largest measured size: %s", buf);
}

int main(int argc, char **argv)
{
    i18n_set_lang("en");
    test_table(argc > 1 ? argv[1] : "records/datasheets.json");
    test_work();
    test_time();
    test_words();
    test_scene_words();
    return CHECK_SUMMARY();
}
