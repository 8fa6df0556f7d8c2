/* cuda_lab.c - the kernel lab in CUDA (lab.h): the learner's .cu file
 * compiled at run time by NVRTC (loaded with dlopen: the toolkit's
 * libnvrtc, where it is installed) after shaders/lab.cuh, "#line 1" before
 * it; where there is a CUDA device, the PTX loaded through the runtime's
 * libraries (cudaLibraryLoadData), run with its reads counted once and as
 * written three times (cudaEvents), the last run's outputs compared with the
 * reference. Without a device it is compiled only, and said so. */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "core/tr.h"
#include "engine.h"
#include "lab.h"

#define LAB_PRELUDE "lab.cuh"
#define LAB_BLOCK 16

/* The few NVRTC calls convis makes, from libnvrtc. */
typedef struct nvrtc_fns {
    int (*create)(void **prog, const char *src, const char *name, int n, const char *const *headers,
                  const char *const *names);
    int (*compile)(void *prog, int n, const char *const *options);
    int (*log_size)(void *prog, size_t *size);
    int (*log)(void *prog, char *log);
    int (*ptx_size)(void *prog, size_t *size);
    int (*ptx)(void *prog, char *ptx);
    int (*destroy)(void **prog);
} nvrtc_fns;

static nvrtc_fns nv;

static bool load_nvrtc(void)
{
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                                        "/usr/local/cuda/lib64/libnvrtc.so"};
    static const char *const sym[7] = {"nvrtcCreateProgram", "nvrtcCompileProgram", "nvrtcGetProgramLogSize",
                                       "nvrtcGetProgramLog", "nvrtcGetPTXSize",     "nvrtcGetPTX",
                                       "nvrtcDestroyProgram"};
    void **slot[7] = {(void **)&nv.create, (void **)&nv.compile, (void **)&nv.log_size, (void **)&nv.log,
                      (void **)&nv.ptx_size, (void **)&nv.ptx, (void **)&nv.destroy};
    void *lib = NULL;
    if (nv.create)
        return true;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; ++i)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return err_set(_("NVRTC is not installed here (libnvrtc.so of the CUDA toolkit): the CUDA lab needs it to "
                         "compile your kernel"));
    for (int i = 0; i < 7; ++i)
        if (!(*slot[i] = dlsym(lib, sym[i]))) {
            memset(&nv, 0, sizeof nv);
            dlclose(lib);
            return err_set(_("This NVRTC has no %s"), sym[i]);
        }
    return true;
}

static char *read_prelude(void)
{
    char path[4200];
    FILE *f;
    char *text = malloc(1 << 16);
    size_t n = 0;
    snprintf(path, sizeof path, "%s/%s", eng_shader_dir() ? eng_shader_dir() : ".", LAB_PRELUDE);
    if (text && (f = fopen(path, "rb"))) {
        n = fread(text, 1, (1 << 16) - 1, f);
        fclose(f);
    }
    if (!text || !n) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

/* PTX of the learner's file, counted or not, for compute capability
 * major.minor; NULL when it does not compile (the log in r). */
static char *compile(const char *source, bool counted, int major, int minor, lab_result *r)
{
    char arch[48], *prelude = read_prelude(), *text, *ptx = NULL;
    const char *options[4] = {arch, "--fmad=false", counted ? "-DLAB_COUNTED=1" : "-DLAB_AS_WRITTEN=1", "-std=c++17"};
    void *prog = NULL;
    size_t n = 0, size;
    if (!prelude) {
        snprintf(r->log, sizeof r->log, "convis's own %s is missing from %s", LAB_PRELUDE,
                 eng_shader_dir() ? eng_shader_dir() : ".");
        return NULL;
    }
    size = strlen(prelude) + strlen(source) + 32;
    text = malloc(size);
    if (text)
        snprintf(text, size, "%s\n#line 1\n%s", prelude, source);
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d%d", major, minor);
    if (text && nv.create(&prog, text, "kernel.cu", 0, NULL, NULL) == 0) {
        int rc = nv.compile(prog, 4, options);
        if (nv.log_size(prog, &n) == 0 && n > 1) {
            char *log = malloc(n);
            if (log && nv.log(prog, log) == 0)
                snprintf(r->log, sizeof r->log, "%s", log);
            free(log);
        }
        if (rc == 0 && nv.ptx_size(prog, &n) == 0 && (ptx = malloc(n)) && nv.ptx(prog, ptx) != 0) {
            free(ptx);
            ptx = NULL;
        }
        nv.destroy(&prog);
    }
    free(text);
    free(prelude);
    return ptx;
}

typedef struct lab_image_c { /* shaders/lab.cuh's lab_image, as the kernel takes it */
    const float *in_px;
    float *out_px;
    unsigned *lab_reads;
    int w, h;
    float weight[9];
    float divisor;
    int border;
} lab_image_c;

/* One launch of `kernel`, its outputs NaN and counts 0 first: its time. */
static double launch(cudaKernel_t kernel, lab_image_c *img, size_t bytes, size_t groups, dim3 grid)
{
    dim3 block = {LAB_BLOCK, LAB_BLOCK, 1};
    void *args[1] = {img};
    cudaEvent_t a, b;
    float ms = -1;
    unsigned *nan = malloc(bytes);
    if (nan) {
        for (size_t i = 0; i < bytes / 4; ++i)
            nan[i] = 0x7fc00000u;
        cudaMemcpy(img->out_px, nan, bytes, cudaMemcpyHostToDevice);
        free(nan);
    }
    cudaMemset(img->lab_reads, 0, groups * sizeof(unsigned));
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, 0);
    if (cudaLaunchKernel((const void *)kernel, grid, block, args, 0, 0) == cudaSuccess) {
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms;
}

/* A kernel that a device could not load or run: failed, every output
 * counted wrong (none was made). */
static void failed(lab_result *r, const img_plane *in)
{
    r->failed = true;
    r->outputs = r->wrong = (long long)in->w * in->h;
}

static bool run(const char *ptx_counted, const char *ptx_timed, const img_plane *in, const conv_params *p,
                img_plane *out, lab_result *r)
{
    cudaLibrary_t lib[2] = {0, 0};
    cudaKernel_t k[2];
    size_t bytes = (size_t)in->w * in->h * sizeof(float), groups = (size_t)(r->groups_x * r->groups_y);
    dim3 grid = {(unsigned)r->groups_x, (unsigned)r->groups_y, 1};
    lab_image_c img = {NULL, NULL, NULL, in->w, in->h, {0}, p->divisor, (int)p->border};
    unsigned *reads = calloc(groups, sizeof *reads);
    bool ok = reads && img_plane_alloc(out, in->w, in->h);
    memcpy(img.weight, p->weight, sizeof img.weight);
    for (int i = 0; ok && i < 2; ++i)
        ok = cudaLibraryLoadData(&lib[i], i ? ptx_timed : ptx_counted, NULL, NULL, 0, NULL, NULL, 0) == cudaSuccess &&
             cudaLibraryGetKernel(&k[i], lib[i], "lab_kernel") == cudaSuccess;
    if (!ok) {
        snprintf(r->note, sizeof r->note, _("the CUDA runtime could not load the kernel lab_kernel: %s"),
                 cudaGetErrorString(cudaGetLastError()));
        failed(r, in);
        free(reads);
        return true;
    }
    ok = cudaMalloc((void **)&img.in_px, bytes) == cudaSuccess && cudaMalloc((void **)&img.out_px, bytes) == cudaSuccess &&
         cudaMalloc((void **)&img.lab_reads, groups * sizeof *reads) == cudaSuccess &&
         cudaMemcpy((void *)img.in_px, in->px, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
    if (ok) {
        launch(k[0], &img, bytes, groups, grid);
        ok = cudaMemcpy(reads, img.lab_reads, groups * sizeof *reads, cudaMemcpyDeviceToHost) == cudaSuccess;
        for (int run = 0; ok && run < 3; ++run)
            r->ms[run] = launch(k[1], &img, bytes, groups, grid);
        ok = ok && cudaMemcpy(out->px, img.out_px, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
    }
    if (ok) {
        r->ran = true;
        r->median_ms = tim_stats_of(r->ms, 3).median;
        lab_check_outputs(in, p, out, reads, r);
    } else {
        snprintf(r->note, sizeof r->note, _("the kernel failed on the GPU: %s"), cudaGetErrorString(cudaGetLastError()));
        failed(r, in);
    }
    cudaFree((void *)img.in_px);
    cudaFree(img.out_px);
    cudaFree(img.lab_reads);
    for (int i = 0; i < 2; ++i)
        if (lib[i])
            cudaLibraryUnload(lib[i]);
    free(reads);
    return true;
}

bool eng_cuda_lab_run(const char *source, const img_plane *in, const conv_params *p, img_plane *out, lab_result *r)
{
    int devices = 0, major = 7, minor = 5;
    struct cudaDeviceProp prop;
    char *counted, *timed;
    memset(r, 0, sizeof *r);
    if (!load_nvrtc())
        return false;
    if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0 && cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
        major = prop.major;
        minor = prop.minor;
        snprintf(r->renderer, sizeof r->renderer, "%s", prop.name);
    } else {
        devices = 0;
        snprintf(r->renderer, sizeof r->renderer, "NVRTC");
    }
    if (!(counted = compile(source, true, major, minor, r))) {
        lab_parse_log(r->log, r);
        return true;
    }
    timed = compile(source, false, major, minor, r);
    r->compiled = true;
    r->group_w = r->group_h = LAB_BLOCK;
    r->groups_x = (in->w + LAB_BLOCK - 1) / LAB_BLOCK;
    r->groups_y = (in->h + LAB_BLOCK - 1) / LAB_BLOCK;
    if (!devices)
        snprintf(r->note, sizeof r->note, "%s", _("there is no CUDA device here to run it on"));
    else
        run(counted, timed ? timed : counted, in, p, out, r);
    free(counted);
    free(timed);
    return true;
}
