/* pfm_equal A.pfm B.pfm [TOL] - whether two grey PFM files hold the same
 * image: the same header, and every value the same result (conv_same: equal
 * bits, or NaN in both) or within TOL relative (|a - b| <= TOL * max(1, |b|);
 * default 1e-5; 0: the same result only, so 0.0 and -0.0 differ). Prints
 * "byte-equal", "bit-equal (...)" when only NaNs' bits differ, "equal
 * within TOL (...)" or where they differ; exits 0 when equal, 1 when not,
 * 2 when a file cannot be read. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/conv.h"

typedef struct pfm {
    int w, h;
    long header; /* bytes before the values */
    unsigned char *bytes;
    long size;
} pfm;

static int read_pfm(const char *path, pfm *p)
{
    FILE *f = fopen(path, "rb");
    char magic[3] = {0};
    double scale;
    if (!f) {
        fprintf(stderr, "pfm_equal: cannot open '%s'\n", path);
        return 0;
    }
    if (fscanf(f, "%2s %d %d %lf", magic, &p->w, &p->h, &scale) != 4 || strcmp(magic, "Pf") || p->w < 1 || p->h < 1 ||
        scale >= 0 || fgetc(f) != '\n') {
        fprintf(stderr, "pfm_equal: '%s' is not a little-endian grey PFM\n", path);
        fclose(f);
        return 0;
    }
    p->header = ftell(f);
    fseek(f, 0, SEEK_END);
    p->size = ftell(f);
    rewind(f);
    p->bytes = malloc((size_t)p->size);
    if (!p->bytes || fread(p->bytes, 1, (size_t)p->size, f) != (size_t)p->size ||
        p->size != p->header + 4L * p->w * p->h) {
        fprintf(stderr, "pfm_equal: '%s' is truncated or unreadable\n", path);
        free(p->bytes);
        p->bytes = NULL;
        fclose(f);
        return 0;
    }
    fclose(f);
    return 1;
}

static float value(const pfm *p, long i)
{
    const unsigned char *b = p->bytes + p->header + 4 * i;
    uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static int compare(const pfm *a, const pfm *b, double tol);

int main(int argc, char **argv)
{
    pfm a = {0}, b = {0};
    double tol = argc > 3 ? atof(argv[3]) : 1e-5;
    int rc = 2;

    if (argc < 3) {
        fprintf(stderr, "usage: pfm_equal A.pfm B.pfm [TOL]\n");
        return 2;
    }
    if (read_pfm(argv[1], &a) && read_pfm(argv[2], &b))
        rc = compare(&a, &b, tol);
    free(a.bytes);
    free(b.bytes);
    return rc;
}

/* 0 equal, 1 not, printing which. */
static int compare(const pfm *ap, const pfm *bp, double tol)
{
    const pfm a = *ap, b = *bp;
    double worst = 0.0;
    long off = 0, n, worst_at = 0, nans = 0, unlike = 0;

    if (a.w != b.w || a.h != b.h) {
        printf("differ: %dx%d against %dx%d\n", a.w, a.h, b.w, b.h);
        return 1;
    }
    if (a.size == b.size && memcmp(a.bytes, b.bytes, (size_t)a.size) == 0) {
        printf("byte-equal\n");
        return 0;
    }
    n = (long)a.w * a.h;
    for (long i = 0; i < n; ++i) {
        double x = value(&a, i), y = value(&b, i), rel;
        if (conv_same(value(&a, i), value(&b, i))) {
            nans += isnan(x) != 0;
            continue;
        }
        ++unlike;
        rel = fabs(x - y) / fmax(1.0, fabs(y));
        if (tol == 0 || !(rel <= tol))
            ++off;
        if (!(rel <= worst)) {
            worst = rel;
            worst_at = i;
        }
    }
    if (!unlike) {
        printf("bit-equal, NaN for NaN (%ld NaNs, their bits not all the same)\n", nans);
        return 0;
    }
    if (off) {
        printf("differ: %ld of %ld values beyond %g relative; worst %g at value %ld\n", off, n, tol, worst, worst_at);
        return 1;
    }
    printf("equal within %g relative (largest difference %g)\n", tol, worst);
    return 0;
}
