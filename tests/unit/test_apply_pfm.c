/* `convis apply` to PFM, for every preset x border mode x flip on odd sizes,
 * against the independent convolution: the whole command line path, from a
 * PGM file on disk to exact floats on disk. Usage: test_apply_pfm CONVIS */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/conv.h"
#include "core/filter.h"
#include "independent.h"

static const int sizes[][2] = {{1, 1}, {2, 2}, {3, 3}, {17, 33}, {1, 4097}, {4097, 1}};
static const char *borders[] = {"zero", "clamp", "mirror", "wrap"};

/* Runs argv, output to /dev/null; returns the exit status or -1. */
static int run(char *const argv[])
{
    pid_t pid = fork();
    int status;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A PFM reader of its own: header, then little-endian rows bottom-up. */
static float *read_pfm(const char *path, int w, int h)
{
    FILE *f = fopen(path, "rb");
    char magic[3] = {0};
    int fw, fh;
    double scale;
    float *px;
    if (!f)
        return NULL;
    if (fscanf(f, "%2s %d %d %lf", magic, &fw, &fh, &scale) != 4 || strcmp(magic, "Pf") || fw != w || fh != h ||
        scale >= 0 || fgetc(f) != '\n') {
        fclose(f);
        return NULL;
    }
    px = malloc(sizeof *px * (size_t)w * h);
    for (int y = h - 1; y >= 0; --y) {
        for (int x = 0; x < w; ++x) {
            unsigned char b[4];
            uint32_t u;
            if (fread(b, 1, 4, f) != 4) {
                free(px);
                fclose(f);
                return NULL;
            }
            u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            memcpy(&px[(size_t)y * w + x], &u, 4);
        }
    }
    fclose(f);
    return px;
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/convis-test-apply-XXXXXX", in_path[256], out_path[256];
    if (argc != 2 || !mkdtemp(dir)) {
        fprintf(stderr, "usage: test_apply_pfm CONVIS\n");
        return 2;
    }
    snprintf(in_path, sizeof in_path, "%s/in.pgm", dir);
    snprintf(out_path, sizeof out_path, "%s/out.pfm", dir);

    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        size_t n = (size_t)w * h;
        float *in = malloc(sizeof *in * n), *want = malloc(sizeof *want * n);
        unsigned char *bytes = malloc(n);
        FILE *f = fopen(in_path, "wb");
        /* 8-bit grey values: the PGM holds them exactly */
        ind_fill(in, n, (unsigned)s + 11);
        for (size_t i = 0; i < n; ++i) {
            bytes[i] = (unsigned char)in[i];
            in[i] = bytes[i];
        }
        fprintf(f, "P5\n%d %d\n255\n", w, h);
        fwrite(bytes, 1, n, f);
        fclose(f);

        for (size_t k = 0; k < filt_preset_count(); ++k) {
            const filt_kernel *kern = filt_preset(k);
            for (int b = 0; b < 4; ++b) {
                for (int flip = 0; flip < 2; ++flip) {
                    char *args[] = {
                        argv[1],  "apply", in_path, "-k",     (char *)kern->name,     "--border", (char *)borders[b],
                        "--reps", "1",     "-o",    out_path, flip ? "--flip" : NULL, NULL};
                    int rc = run(args);
                    float *got;
                    long bad = 0;
                    CHECK(rc == 0, "%dx%d %s %s flip %d: exit %d", w, h, kern->name, borders[b], flip, rc);
                    got = read_pfm(out_path, w, h);
                    CHECK(got != NULL, "%dx%d %s: output PFM unreadable", w, h, kern->name);
                    if (!got)
                        continue;
                    ind_convolve(in, w, h, kern->weight, kern->divisor, b, flip, want);
                    for (size_t i = 0; i < n; ++i)
                        bad += fabsf(got[i] - want[i]) > 1e-5f * fmaxf(1.0f, fabsf(want[i]));
                    CHECK(bad == 0, "%dx%d %s border %s flip %d: %ld pixels differ", w, h, kern->name, borders[b], flip,
                          bad);
                    free(got);
                    unlink(out_path);
                }
            }
        }
        free(in);
        free(want);
        free(bytes);
    }
    unlink(in_path);
    rmdir(dir);
    return CHECK_SUMMARY();
}
