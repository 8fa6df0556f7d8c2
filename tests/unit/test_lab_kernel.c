/* test_lab_kernel: the kernel lab's parts that need no GPU. The compilers'
 * logs read at the learner's lines (Mesa's, NVIDIA's GLSL, NVRTC's forms);
 * a run's outputs checked against the reference bit for bit and its reads
 * summed up; and, in a CUDA build linked with the CUDA stand-in
 * (test_lab_kernel_mock), the CUDA starter compiled for real by NVRTC, a
 * compile error at the learner's line, and the run said not made where the
 * device cannot take PTX. Usage: test_lab_kernel SOURCE_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compute/engine.h"
#include "compute/lab.h"
#include "core/err.h"
#include "core/filter.h"

static void test_logs(void)
{
    lab_result r;
    memset(&r, 0, sizeof r);
    lab_parse_log("0:12(5): error: `tile' undeclared\n0:30(1): warning: unused\nsomething else\n", &r);
    CHECK(r.error_count == 2 && r.errors[0].line == 12 && r.errors[0].column == 5 &&
              !strcmp(r.errors[0].text, "error: `tile' undeclared") && r.errors[1].line == 30,
          "Mesa's form: %d messages, the first at %d:%d '%s'", r.error_count, r.errors[0].line, r.errors[0].column,
          r.errors[0].text);
    memset(&r, 0, sizeof r);
    lab_parse_log("0(7) : error C1008: undefined variable \"tile\"\n", &r);
    CHECK(r.error_count == 1 && r.errors[0].line == 7 && r.errors[0].column == 0 &&
              !strncmp(r.errors[0].text, "error C1008", 11),
          "NVIDIA's GLSL form: line %d '%s'", r.errors[0].line, r.errors[0].text);
    memset(&r, 0, sizeof r);
    lab_parse_log("ERROR: 0:3: 'x' : undeclared identifier\n", &r);
    CHECK(r.error_count == 1 && r.errors[0].line == 3, "the ERROR: form: line %d", r.errors[0].line);
    memset(&r, 0, sizeof r);
    lab_parse_log("kernel.cu(11): error: expected a \";\"\n\n1 error detected in the compilation of \"kernel.cu\".\n",
                  &r);
    CHECK(r.error_count == 1 && r.errors[0].line == 11 && !strcmp(r.errors[0].text, "error: expected a \";\""),
          "NVRTC's form: %d messages, line %d '%s'", r.error_count, r.errors[0].line, r.errors[0].text);
    memset(&r, 0, sizeof r);
    lab_parse_log("0:0(0): error: nothing at line 0\nkernel.cu(x): error\n", &r);
    CHECK(r.error_count == 0, "no line, no message at a line: %d", r.error_count);
}

static void test_outputs(void)
{
    filt_kernel k;
    conv_params p;
    img_plane in = {0}, out = {0}, ref = {0};
    unsigned reads[4] = {324, 400, 324, 100};
    lab_result r;
    filt_parse("1 2 1; 2 4 2; 1 2 1 / 16", &k);
    p = conv_params_make(&k, CONV_BORDER_CLAMP, false);
    img_plane_alloc(&in, 32, 32);
    img_plane_alloc(&out, 32, 32);
    img_plane_alloc(&ref, 32, 32);
    for (int i = 0; i < 32 * 32; ++i)
        in.px[i] = (float)((i * 37) % 251);
    conv_reference(&in, &p, &ref);
    memcpy(out.px, ref.px, sizeof(float) * 32 * 32);
    out.px[5] = ref.px[5] + 1e-3f;    /* one output a little off */
    out.px[40] = -ref.px[40] - 1.0f;  /* and one far off */
    memset(&r, 0, sizeof r);
    r.groups_x = r.groups_y = 2;
    lab_check_outputs(&in, &p, &out, reads, &r);
    CHECK(r.outputs == 1024 && r.wrong == 2 && r.wrong_map && r.wrong_map[5] && r.wrong_map[40] && !r.wrong_map[6],
          "two outputs wrong, bit for bit: %lld of %lld", r.wrong, r.outputs);
    CHECK(r.reads_max == 400 && r.reads_interior == 100, "the reads: most %lld, the middle group's %lld", r.reads_max,
          r.reads_interior);
    lab_result_free(&r);
    img_plane_free(&in);
    img_plane_free(&out);
    img_plane_free(&ref);
}

#ifdef CONVIS_CUDA_MOCK
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *t = malloc(1 << 16);
    size_t n = f && t ? fread(t, 1, (1 << 16) - 1, f) : 0;
    if (f)
        fclose(f);
    if (t)
        t[n] = '\0';
    return t;
}

/* NVRTC for real, the runtime the stand-in: compiled, not run. */
static void test_cuda(const char *src)
{
    char path[4200], *text;
    filt_kernel k;
    conv_params p;
    img_plane in = {0}, out = {0};
    lab_result r;
    filt_parse("1 2 1; 2 4 2; 1 2 1 / 16", &k);
    p = conv_params_make(&k, CONV_BORDER_CLAMP, false);
    img_plane_alloc(&in, 64, 48);
    snprintf(path, sizeof path, "%s/lab/tiled.cu", src);
    text = read_text(path);
    if (!eng_cuda_lab_run(text, &in, &p, &out, &r)) {
        printf("# NVRTC not here, the CUDA lab not checked: %s\n", err_msg());
        free(text);
        img_plane_free(&in);
        return;
    }
    CHECK(r.compiled && r.error_count == 0, "the CUDA starter compiles with NVRTC: %s", r.log);
    CHECK(!r.ran && r.note[0], "the stand-in runs no PTX, and says so: '%s'", r.note);
    free(text);
    lab_result_free(&r);
    img_plane_free(&out);
    snprintf(path, sizeof path, "%s/tests/gl/lab/compile_error.cu", src);
    text = read_text(path);
    CHECK(eng_cuda_lab_run(text, &in, &p, &out, &r) && !r.compiled && r.error_count >= 1 && r.errors[0].line == 11,
          "a missing semicolon on line 10, said at line 11 (the next token): %d messages, line %d '%s'", r.error_count,
          r.errors[0].line, r.errors[0].text);
    free(text);
    lab_result_free(&r);
    img_plane_free(&out);
    img_plane_free(&in);
}
#endif

int main(int argc, char **argv)
{
    const char *src = argc > 1 ? argv[1] : ".";
    char shaders[4200];
    snprintf(shaders, sizeof shaders, "%s/shaders", src);
    eng_set_shader_dir(shaders);
    test_logs();
    test_outputs();
#ifdef CONVIS_CUDA_MOCK
    test_cuda(src);
#endif
    return CHECK_SUMMARY();
}
