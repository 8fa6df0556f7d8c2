/* The CUDA engine's present path, in a hidden window's OpenGL context: a
 * frame computed into a GL buffer, read back with glGetBufferSubData, equals
 * the reference.
 *
 * Where the context runs on the CUDA device (an NVIDIA GL driver), present
 * maps the buffer (interop): phases upload and present, no copy. Elsewhere
 * (Mesa under Xvfb, another GPU) the engine says why and takes the copy path:
 * upload, compute, download, present. Both are checked, whichever this
 * machine has; the copy path also when forced by CONVIS_CUDA_INTEROP=0, and
 * by the bulk and per-pixel result paths. Also: frames repeated into one
 * buffer (registered once), a buffer given new storage (registered again),
 * a buffer too small (refused), the caller's bindings kept; after each
 * present, the kernel alone measured (eng_timing.kernel_ms) where it is
 * short.
 *
 * Exits 77 (skipped) without a CUDA device, or when no GL context can be
 * made (on the display, or offscreen through EGL where there is none:
 * tests/gpu/device_check.sh runs it so on a headless GPU server). */
#define _POSIX_C_SOURCE 200809L
#include <GL/glew.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
#include "../unit/independent.h"
#include "compute/engine.h"
#include "core/conv.h"
#include "core/err.h"
#include "platform/platform.h"
#ifdef CONVIS_CUDA_MOCK
#include "../mock/cuda_mock.h"
#endif

static const int sizes[][2] = {{1, 1}, {33, 17}, {17, 33}, {1, 4097}, {1000, 777}};

/* Gives GL buffer `b` new (mutable) storage of `bytes`, as glBufferData does
 * behind a registration's back. */
static void new_storage(GLuint b, size_t bytes)
{
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

/* A GL buffer of `bytes`: mutable storage (glBufferData), or immutable
 * (glBufferStorage) as the window's, which the engine registers once. */
static GLuint make_buffer_of(size_t bytes, bool immutable)
{
    GLuint b = 0;
    glGenBuffers(1, &b);
    if (!immutable) {
        new_storage(b, bytes);
        return b;
    }
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferStorage(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_STORAGE_BIT);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return b;
}

static GLuint make_buffer(size_t bytes)
{
    return make_buffer_of(bytes, false);
}

static GLuint make_immutable_buffer(size_t bytes)
{
    return make_buffer_of(bytes, true);
}

static void read_buffer(GLuint b, float *px, size_t n)
{
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glGetBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(n * sizeof(float)), px);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

/* Pixels that differ from the reference's, bit for bit: every path (the
 * kernel into the mapped buffer, or the copies) moves the same floats. */
static long count_off(const float *got, const float *want, long n)
{
    long bad = 0;
    for (long i = 0; i < n; ++i)
        bad += !conv_same(got[i], want[i]);
    return bad;
}

/* Set when the GL context is NVIDIA's: then a frame asked to go by interop
 * that went by the copy path (a registration that failed, say) is a
 * failure, not a fallback. */
static bool require_interop;

/* The phases a present had, by the path it took. */
static void check_phases(const eng_timing *t, eng_present_path path, eng_result asked, const char *what)
{
    CHECK((t->result == ENG_RESULT_INTEROP) == (path == ENG_PRESENT_INTEROP && asked == ENG_RESULT_INTEROP),
          "%s: asked %s, the engine's path %s, the frame went %s", what, eng_result_name(asked),
          eng_present_path_name(path), eng_result_name(t->result));
    if (t->result == ENG_RESULT_INTEROP) {
        CHECK(t->result == ENG_RESULT_INTEROP && t->has[ENG_UPLOAD] && t->has[ENG_COMPUTE] && t->has[ENG_PRESENT] &&
                  t->has[ENG_OVERHEAD] && !t->has[ENG_DOWNLOAD] && strcmp(t->clock, "cudaEvent") == 0,
              "%s: interop phases upload, compute (the kernel), present (map + unmap), overhead", what);
    } else {
        eng_result want = asked == ENG_RESULT_PER_PIXEL ? ENG_RESULT_PER_PIXEL : ENG_RESULT_BULK;
        CHECK(t->result == want && t->has[ENG_UPLOAD] && t->has[ENG_COMPUTE] && t->has[ENG_DOWNLOAD] &&
                  t->has[ENG_PRESENT] && t->has[ENG_OVERHEAD] && strstr(t->clock, "monotonic"),
              "%s: copy path (%s) phases upload, compute, download, present, clock '%s'", what, eng_result_name(want),
              t->clock);
    }
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        CHECK(t->ms[p] >= 0.0 && t->ms[p] < 60000.0, "%s: %s %.3f ms", what, eng_phase_name((eng_phase)p), t->ms[p]);
    if (t->has_kernel)
        CHECK(t->kernel_launches >= 2 && t->kernel_launches <= 20 && isfinite(t->kernel_ms) && t->kernel_ms >= 0 &&
                  isfinite(t->kernel_one_ms) && t->kernel_one_ms >= 0,
              "%s: the kernel alone, %d launches back to back, %g ms each, one after idle %g ms", what,
              t->kernel_launches, t->kernel_ms, t->kernel_one_ms);
}

/* Frames of every size, each into a buffer of its own, and five frames with
 * different filters into one buffer; all read back against the reference.
 * The path each frame took is the one the engine says it has (asked after
 * the frame: a failed registration changes it). */
static void check_frames(eng_engine *e, eng_result asked, const char *label)
{
    eng_device_info info;
    eng_options o = eng_options_of(e);

    o.result = asked;
    CHECK(eng_set_options(e, &o), "%s: options: %s", label, err_msg());
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        size_t n = (size_t)w * h;
        img_plane in, ref, back;
        GLuint buf = make_buffer(n * sizeof(float));
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&back, w, h);
        ind_fill(in.px, n, 100 + (unsigned)s);
        for (int frame = 0; frame < 5; ++frame) {
            eng_job job = {&in, NULL,
                           conv_params_make(filt_preset((size_t)frame % filt_preset_count()),
                                            (conv_border)(frame % CONV_BORDER_COUNT), frame & 1)};
            eng_timing t;
            char what[96];
            long bad;
            snprintf(what, sizeof what, "%s %dx%d frame %d", label, w, h, frame);
            conv_reference(&in, &job.params, &ref);
            if (!eng_present(e, &job, buf, &t)) {
                CHECK(false, "%s: present: %s", what, err_msg());
                continue;
            }
            CHECK(eng_device(e, &info), "%s: device: %s", what, err_msg());
            read_buffer(buf, back.px, n);
            bad = count_off(back.px, ref.px, (long)n);
            CHECK(bad == 0, "%s: %ld of %zu pixels read back from the GL buffer differ from the reference", what, bad,
                  n);
            check_phases(&t, info.present, asked, what);
            if (n == 1) { /* a kernel of microseconds, on every path, timed again when its phase leaves
                           * room for two launches in cuda.c's budget (at most 0.5 ms; a busy machine may not) */
                double phase = t.ms[ENG_COMPUTE];
                CHECK(t.has_kernel || phase > 0.5, "%s: the kernel alone measured after a phase of %.4f ms", what,
                      phase);
            }
            if (require_interop && asked == ENG_RESULT_INTEROP)
                CHECK(t.result == ENG_RESULT_INTEROP, "%s: on NVIDIA's GL, the frame went by interop, not %s (%s)",
                      what, eng_result_name(t.result), info.present_why);
            CHECK(glGetError() == GL_NO_ERROR, "%s: a GL error after present", what);
            if (s == sizeof sizes / sizeof sizes[0] - 1 && frame == 4)
                printf("%s %dx%d: upload %.3f, compute %.3f, download %.3f, present %.3f, overhead %.3f ms (%s)\n",
                       label, w, h, t.ms[ENG_UPLOAD], t.ms[ENG_COMPUTE], t.ms[ENG_DOWNLOAD], t.ms[ENG_PRESENT],
                       t.ms[ENG_OVERHEAD], eng_result_name(t.result));
        }
        eng_forget_buffer(e, buf);
        glDeleteBuffers(1, &buf);
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&back);
    }
}

/* New storage for a buffer (larger), with and without eng_forget_buffer; a
 * buffer too small; the caller's bindings kept. */
static void check_buffer_changes(eng_engine *e)
{
    int w = 64, h = 48;
    size_t n = (size_t)w * h;
    img_plane in, ref, back;
    GLuint buf = make_buffer(n * sizeof(float)), small = make_buffer(16), fixed = 0;
    GLint bound = -1, copy_bound = -1;
    eng_timing t;
    eng_job job;
    eng_options o = eng_options_of(e);

    o.result = ENG_RESULT_INTEROP;
    eng_set_options(e, &o);
    img_plane_alloc(&in, w, h);
    img_plane_alloc(&ref, w, h);
    img_plane_alloc(&back, w, h);
    ind_fill(in.px, n, 8);
    job = (eng_job){&in, NULL, conv_params_make(filt_preset(2), CONV_BORDER_WRAP, true)};
    conv_reference(&in, &job.params, &ref);

    CHECK(eng_present(e, &job, buf, &t), "present: %s", err_msg());
    /* new storage, the engine not told: it sees the size change */
    new_storage(buf, 2 * n * sizeof(float));
    CHECK(eng_present(e, &job, buf, &t), "present after glBufferData (larger): %s", err_msg());
    read_buffer(buf, back.px, n);
    CHECK(count_off(back.px, ref.px, (long)n) == 0, "the resized buffer holds the frame");
    /* new storage of the same size, the engine not told, and another filter:
     * a registration kept from before would send the frame to the old
     * storage, and the new one would read back as zeros */
    job.params = conv_params_make(filt_preset(4), CONV_BORDER_CLAMP, false);
    conv_reference(&in, &job.params, &ref);
    new_storage(buf, 2 * n * sizeof(float));
    CHECK(eng_present(e, &job, buf, &t), "present after glBufferData (same size): %s", err_msg());
    read_buffer(buf, back.px, n);
    CHECK(count_off(back.px, ref.px, (long)n) == 0, "new storage of the same size holds the frame");
    /* new storage of the same size, the engine told first */
    eng_forget_buffer(e, buf);
    new_storage(buf, 2 * n * sizeof(float));
    CHECK(eng_present(e, &job, buf, &t), "present after eng_forget_buffer and glBufferData: %s", err_msg());
    read_buffer(buf, back.px, n);
    CHECK(count_off(back.px, ref.px, (long)n) == 0, "the re-registered buffer holds the frame");

    /* immutable storage: frames into it, read back */
    glDeleteBuffers(1, &fixed);
    fixed = make_immutable_buffer(n * sizeof(float));
    for (int frame = 0; frame < 3; ++frame) {
        job.params = conv_params_make(filt_preset((size_t)frame), CONV_BORDER_MIRROR, frame == 1);
        conv_reference(&in, &job.params, &ref);
        CHECK(eng_present(e, &job, fixed, &t), "present into immutable storage: %s", err_msg());
        read_buffer(fixed, back.px, n);
        CHECK(count_off(back.px, ref.px, (long)n) == 0, "immutable storage, frame %d, holds the frame", frame);
    }
    eng_forget_buffer(e, fixed);
    glDeleteBuffers(1, &fixed);

    CHECK(!eng_present(e, &job, small, &t) && strstr(err_msg(), "cannot take"),
          "present into a 16-byte buffer is refused: '%s'", err_msg());
    CHECK(!eng_present(e, &job, 999999u, &t) && strstr(err_msg(), "not a GL buffer"),
          "present into no buffer is refused: '%s'", err_msg());

    glBindBuffer(GL_ARRAY_BUFFER, small);
    glBindBuffer(GL_COPY_WRITE_BUFFER, small);
    CHECK(eng_present(e, &job, buf, &t), "present with bindings: %s", err_msg());
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &bound);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &copy_bound);
    CHECK(bound == (GLint)small && copy_bound == (GLint)small, "the caller's bindings after present: %d, %d (were %u)",
          bound, copy_bound, small);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glGetError();

    eng_forget_buffer(e, buf);
    glDeleteBuffers(1, &buf);
    glDeleteBuffers(1, &small);
    img_plane_free(&in);
    img_plane_free(&ref);
    img_plane_free(&back);
}

#ifdef CONVIS_CUDA_MOCK
/* Cases only the CPU stand-in for CUDA (tests/mock/cuda_mock.c) can make:
 * registering a buffer fails; mapping a registered one fails; the GL
 * context is on no CUDA device; it is on another CUDA device than the
 * default one. */
static void check_mock_fallbacks(const eng_class *cls)
{
    eng_device_info info;
    eng_engine *e;

    setenv("CONVIS_MOCK_CUDA_REGISTER", "fail", 1);
    e = eng_open(cls);
    CHECK(e && eng_device(e, &info) && info.present == ENG_PRESENT_INTEROP, "before a registration: interop");
    if (e) {
        check_frames(e, ENG_RESULT_INTEROP, "registration fails");
        CHECK(eng_device(e, &info) && info.present == ENG_PRESENT_COPY &&
                  strstr(info.present_why, "registering GL buffer") && strstr(info.present_why, "unknown error"),
              "a failed registration: the copy path, saying why: '%s'", info.present_why);
        eng_close(e);
    }
    unsetenv("CONVIS_MOCK_CUDA_REGISTER");

    /* a registered buffer that cannot be mapped: the frame goes on by the
     * copy path, whole, and so do the frames after it; the reason is said
     * once, as the engine's present path */
    setenv("CONVIS_MOCK_CUDA_MAP", "fail", 1);
    e = eng_open(cls);
    CHECK(e && eng_device(e, &info) && info.present == ENG_PRESENT_INTEROP, "before a map: interop");
    if (e) {
        int w = 33, h = 17;
        size_t n = (size_t)w * h;
        img_plane in, ref, back;
        GLuint buf = make_buffer(n * sizeof(float));
        eng_options o = eng_options_of(e);
        eng_job job;
        eng_timing t;
        long before = cuda_mock_count(CUDA_MOCK_REGISTRATIONS);

        o.result = ENG_RESULT_INTEROP;
        CHECK(eng_set_options(e, &o), "options: %s", err_msg());
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&back, w, h);
        ind_fill(in.px, n, 77);
        job = (eng_job){&in, NULL, conv_params_make(filt_preset(4), CONV_BORDER_MIRROR, false)};
        conv_reference(&in, &job.params, &ref);
        CHECK(eng_present(e, &job, buf, &t), "the frame whose map failed is presented all the same: %s", err_msg());
        read_buffer(buf, back.px, n);
        CHECK(count_off(back.px, ref.px, (long)n) == 0 && t.result == ENG_RESULT_BULK && t.has[ENG_DOWNLOAD] &&
                  t.has[ENG_PRESENT],
              "that frame went by the copy path, whole (%s)", eng_result_name(t.result));
        CHECK(eng_device(e, &info) && info.present == ENG_PRESENT_COPY &&
                  strstr(info.present_why, "mapping GL buffer") &&
                  strstr(info.present_why, "mapping of buffer object failed") && !strchr(info.present_why, '\n'),
              "a failed map: the copy path from now on, saying why in one sentence: '%s'", info.present_why);
        CHECK(strstr(eng_description(e), "copy path"), "the description says so: '%s'", eng_description(e));
        check_frames(e, ENG_RESULT_INTEROP, "map fails");
        CHECK(cuda_mock_count(CUDA_MOCK_REGISTRATIONS) - before == 1,
              "one registration, none after the map failed (%ld)", cuda_mock_count(CUDA_MOCK_REGISTRATIONS) - before);
        eng_forget_buffer(e, buf);
        glDeleteBuffers(1, &buf);
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&back);
        eng_close(e);
    }
    unsetenv("CONVIS_MOCK_CUDA_MAP");

    setenv("CONVIS_MOCK_CUDA_GL", "none", 1);
    e = eng_open(cls);
    CHECK(e && eng_device(e, &info) && info.present == ENG_PRESENT_COPY && strstr(info.present_why, "cannot share") &&
              strstr(info.present_why, (const char *)glGetString(GL_RENDERER)),
          "GL on no CUDA device: the copy path, naming the renderer: '%s'", e ? info.present_why : err_msg());
    if (e) {
        check_frames(e, ENG_RESULT_INTEROP, "GL elsewhere");
        eng_close(e);
    }

    setenv("CONVIS_MOCK_CUDA_GL", "other", 1);
    e = eng_open(cls);
    CHECK(e && eng_device(e, &info) && info.present == ENG_PRESENT_INTEROP && strstr(info.name, "CUDA 1"),
          "GL on CUDA device 1: the engine computes there, by interop: '%s'", e ? info.name : err_msg());
    if (e) {
        check_frames(e, ENG_RESULT_INTEROP, "GL on device 1");
        eng_close(e);
    }
    unsetenv("CONVIS_MOCK_CUDA_GL");
}

/* Registrations, counted by the stand-in: a buffer with immutable storage
 * is registered once however many frames go into it; one with mutable
 * storage at every frame (glBufferData may have replaced its storage); with
 * more buffers than the engine keeps, the least recently used registration
 * goes, not a busy one. */
static void check_registrations(const eng_class *cls)
{
    enum { KEEP = 8 }; /* cuda.c's MAX_GL_BUFFERS */
    int w = 16, h = 8;
    size_t n = (size_t)w * h;
    float px[16 * 8];
    img_plane in = {w, h, px};
    eng_job job = {&in, NULL, conv_params_make(filt_preset(1), CONV_BORDER_CLAMP, false)};
    GLuint fixed[KEEP + 1], loose = make_buffer(n * sizeof(float));
    eng_timing t;
    long before;
    eng_options o;
    eng_engine *e = eng_open(cls);

    CHECK(e != NULL, "open: %s", err_msg());
    if (!e)
        return;
    o = eng_options_of(e);
    o.result = ENG_RESULT_INTEROP;
    CHECK(eng_set_options(e, &o), "options: %s", err_msg());
    ind_fill(px, n, 5);
    for (int i = 0; i <= KEEP; ++i)
        fixed[i] = make_immutable_buffer(n * sizeof(float));

    before = cuda_mock_count(CUDA_MOCK_REGISTRATIONS);
    for (int frame = 0; frame < 5; ++frame)
        CHECK(eng_present(e, &job, fixed[0], &t), "present: %s", err_msg());
    CHECK(cuda_mock_count(CUDA_MOCK_REGISTRATIONS) - before == 1, "5 frames into immutable storage: %ld registrations",
          cuda_mock_count(CUDA_MOCK_REGISTRATIONS) - before);

    before = cuda_mock_count(CUDA_MOCK_REGISTRATIONS);
    for (int frame = 0; frame < 3; ++frame)
        CHECK(eng_present(e, &job, loose, &t), "present: %s", err_msg());
    CHECK(cuda_mock_count(CUDA_MOCK_REGISTRATIONS) - before == 3, "3 frames into mutable storage: %ld registrations",
          cuda_mock_count(CUDA_MOCK_REGISTRATIONS) - before);
    eng_forget_buffer(e, loose);

    /* fill the slots with 0..7, use 0 again, then bring 8: 1 is the least
     * recently used and goes; 0 stays registered */
    for (int i = 0; i < KEEP; ++i)
        eng_present(e, &job, fixed[i], &t);
    eng_present(e, &job, fixed[0], &t);
    before = cuda_mock_count(CUDA_MOCK_REGISTRATIONS);
    eng_present(e, &job, fixed[KEEP], &t);
    eng_present(e, &job, fixed[0], &t);
    CHECK(cuda_mock_count(CUDA_MOCK_REGISTRATIONS) - before == 1,
          "a ninth buffer evicts the least recently used, not the busy one: %ld registrations for 2 frames",
          cuda_mock_count(CUDA_MOCK_REGISTRATIONS) - before);
    eng_present(e, &job, fixed[1], &t);
    CHECK(cuda_mock_count(CUDA_MOCK_REGISTRATIONS) - before == 2, "the evicted buffer is registered again on use");

    for (int i = 0; i <= KEEP; ++i)
        eng_forget_buffer(e, fixed[i]);
    eng_close(e);
    glDeleteBuffers(KEEP + 1, fixed);
    glDeleteBuffers(1, &loose);
}
#endif

int main(void)
{
    const eng_class *cls = eng_find("cuda");
    plat_window *win;
    eng_engine *e;
    eng_device_info info;
    const char *vendor;
    char why[256];
    GLenum glew;

    if (!eng_probe(cls, why, sizeof why)) {
        printf("skipped: cuda unavailable: %s\n", why);
        return 77;
    }
    /* on the display, or offscreen through EGL where there is none (a
     * headless GPU server) */
    win = plat_open("test_cuda_interop", 64, 64, PLAT_WINDOW_HIDDEN | PLAT_WINDOW_OFFSCREEN);
    if (!win) {
        printf("skipped: cannot open a hidden window with an OpenGL context: %s\n", err_msg());
        return 77;
    }
    glewExperimental = GL_TRUE;
    glew = glewInit();
    CHECK(glew == GLEW_OK || glew == GLEW_ERROR_NO_GLX_DISPLAY, "glewInit: %s", glewGetErrorString(glew));
    glGetError();
    vendor = (const char *)glGetString(GL_VENDOR);
    printf("OpenGL %s on %s (%s), through SDL's %s video driver\n", glGetString(GL_VERSION), glGetString(GL_RENDERER),
           vendor ? vendor : "?", plat_video_driver());

    e = eng_open(cls);
    CHECK(e != NULL, "open: %s", err_msg());
    if (!e) {
        plat_close(win);
        return CHECK_SUMMARY();
    }
    CHECK(eng_device(e, &info), "device: %s", err_msg());
    CHECK(info.present == ENG_PRESENT_INTEROP || info.present == ENG_PRESENT_COPY, "a present path");
    CHECK(info.present_why[0] != '\0', "the present path says why");
    require_interop = vendor && strstr(vendor, "NVIDIA");
    if (require_interop)
        CHECK(info.present == ENG_PRESENT_INTEROP, "an NVIDIA GL context on a CUDA machine presents by interop: %s",
              info.present_why);

    check_frames(e, ENG_RESULT_INTEROP, "interop");
    require_interop = false;
    /* the path the frames took, as the engine says after them (a failed
     * registration would have turned it to the copy path) */
    CHECK(eng_device(e, &info), "device: %s", err_msg());
    printf("%s; present path: %s: %s\n", eng_description(e), eng_present_path_name(info.present), info.present_why);
    check_frames(e, ENG_RESULT_BULK, "bulk copy");
    check_frames(e, ENG_RESULT_PER_PIXEL, "per-pixel copy");
    check_buffer_changes(e);
    eng_close(e);

    setenv("CONVIS_CUDA_INTEROP", "0", 1);
    e = eng_open(cls);
    CHECK(e != NULL, "open with CONVIS_CUDA_INTEROP=0: %s", err_msg());
    if (e) {
        CHECK(eng_device(e, &info) && info.present == ENG_PRESENT_COPY &&
                  strstr(info.present_why, "CONVIS_CUDA_INTEROP"),
              "CONVIS_CUDA_INTEROP=0: the copy path, saying why: '%s'", info.present_why);
        check_frames(e, ENG_RESULT_INTEROP, "interop off");
        eng_close(e);
    }
    unsetenv("CONVIS_CUDA_INTEROP");
#ifdef CONVIS_CUDA_MOCK
    check_mock_fallbacks(cls);
    check_registrations(cls);
#endif
    plat_close(win);
    return CHECK_SUMMARY();
}
