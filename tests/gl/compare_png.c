/* compare_png - compares a screenshot with a golden image, within a tolerance.
 *
 * Usage: compare_png GOT.png GOLDEN.png [--mask x,y,w,h]... [--tolerance N]
 *                    [--max-fraction F]
 *
 * Both files are read with convis's own loader (img_load). The sizes must be
 * equal. A pixel differs when any of its channels differs by more than N
 * (default 24); pixels inside a mask (a rectangle that shows something
 * measured live, such as a time) are not compared. The check fails when the
 * differing pixels are more than the fraction F (default 0.002) of the
 * pixels compared. On failure a picture of the differences is written beside
 * GOT as GOT.diff.png (GOT's name without .png, then .diff.png): the golden
 * dimmed, differing pixels in magenta, masks in dark blue.
 *
 * Exit 0 when the images match, 1 when they do not or cannot be read, 2 on a
 * usage error. The last line is "N passed, M failed". */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
#include "core/err.h"
#include "core/image.h"

#define MAX_MASKS 64

typedef struct mask {
    int x, y, w, h;
} mask;

static int usage(const char *why)
{
    fprintf(stderr, "compare_png: %s\n", why);
    fprintf(stderr, "usage: compare_png GOT.png GOLDEN.png [--mask x,y,w,h]... [--tolerance N] "
                    "[--max-fraction F]\n");
    return 2;
}

static bool parse_mask(const char *text, mask *m)
{
    char extra;
    return sscanf(text, "%d,%d,%d,%d%c", &m->x, &m->y, &m->w, &m->h, &extra) == 4 && m->w > 0 && m->h > 0;
}

static bool masked(const mask *masks, int n, int x, int y)
{
    for (int i = 0; i < n; ++i)
        if (x >= masks[i].x && x < masks[i].x + masks[i].w && y >= masks[i].y && y < masks[i].y + masks[i].h)
            return true;
    return false;
}

/* "shot.png" -> "shot.diff.png"; "shot" -> "shot.diff.png" */
static void diff_name(const char *got, char *out, size_t size)
{
    size_t n = strlen(got);
    if (n >= 4 && strcmp(got + n - 4, ".png") == 0)
        n -= 4;
    snprintf(out, size, "%.*s.diff.png", (int)n, got);
}

int main(int argc, char **argv)
{
    const char *got_path = NULL, *golden_path = NULL;
    mask masks[MAX_MASKS];
    int nmasks = 0, tolerance = 24, max_seen = 0;
    double max_fraction = 0.002, fraction;
    img_image got, golden;
    img_rgba diff = {0, 0, NULL};
    long compared = 0, differing = 0, in_masks = 0;
    int bx0 = 0, by0 = 0, bx1 = -1, by1 = -1;

    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--mask") == 0 || strcmp(a, "--tolerance") == 0 || strcmp(a, "--max-fraction") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : NULL;
            char *end;
            if (!v)
                return usage("an option needs a value");
            if (strcmp(a, "--mask") == 0) {
                if (nmasks == MAX_MASKS)
                    return usage("too many masks");
                if (!parse_mask(v, &masks[nmasks]))
                    return usage("a mask is x,y,w,h with w and h above 0");
                ++nmasks;
            } else if (strcmp(a, "--tolerance") == 0) {
                long t;
                errno = 0;
                t = strtol(v, &end, 10);
                if (end == v || *end || errno || t < 0 || t > 255)
                    return usage("--tolerance takes a whole number from 0 to 255");
                tolerance = (int)t;
            } else {
                errno = 0;
                max_fraction = strtod(v, &end);
                if (end == v || *end || errno || !(max_fraction >= 0 && max_fraction <= 1))
                    return usage("--max-fraction takes a number from 0 to 1");
            }
        } else if (a[0] == '-' && a[1]) {
            return usage("unknown option");
        } else if (!got_path) {
            got_path = a;
        } else if (!golden_path) {
            golden_path = a;
        } else {
            return usage("two images, no more");
        }
    }
    if (!golden_path)
        return usage("two images are needed");

    if (!img_load(got_path, NULL, &got)) {
        fprintf(stderr, "compare_png: %s\n", err_msg());
        return 1;
    }
    if (!img_load(golden_path, NULL, &golden)) {
        fprintf(stderr, "compare_png: %s\n", err_msg());
        img_free(&got);
        return 1;
    }
    printf("compare_png: %s (%dx%d) against %s (%dx%d)\n", got_path, got.color.w, got.color.h, golden_path,
           golden.color.w, golden.color.h);
    CHECK(got.color.w == golden.color.w && got.color.h == golden.color.h, "sizes differ: %dx%d, golden %dx%d",
          got.color.w, got.color.h, golden.color.w, golden.color.h);
    if (check_failed) {
        img_free(&got);
        img_free(&golden);
        return CHECK_SUMMARY();
    }

    diff.w = got.color.w;
    diff.h = got.color.h;
    diff.px = malloc((size_t)diff.w * diff.h * 4);
    for (int y = 0; y < got.color.h; ++y)
        for (int x = 0; x < got.color.w; ++x) {
            size_t o = 4 * ((size_t)y * got.color.w + x);
            const uint8_t *p = got.color.px + o, *q = golden.color.px + o;
            int worst = 0;
            if (masked(masks, nmasks, x, y)) {
                ++in_masks;
                if (diff.px)
                    diff.px[o] = 0, diff.px[o + 1] = 0, diff.px[o + 2] = 90, diff.px[o + 3] = 255;
                continue;
            }
            ++compared;
            for (int c = 0; c < 4; ++c) {
                int d = abs((int)p[c] - (int)q[c]);
                worst = d > worst ? d : worst;
            }
            max_seen = worst > max_seen ? worst : max_seen;
            if (worst > tolerance) {
                ++differing;
                if (bx1 < 0)
                    bx0 = bx1 = x, by0 = by1 = y;
                bx0 = x < bx0 ? x : bx0;
                bx1 = x > bx1 ? x : bx1;
                by0 = y < by0 ? y : by0;
                by1 = y > by1 ? y : by1;
                if (diff.px)
                    diff.px[o] = 255, diff.px[o + 1] = 0, diff.px[o + 2] = 255, diff.px[o + 3] = 255;
            } else if (diff.px) {
                uint8_t g = (uint8_t)((q[0] * 30 + q[1] * 59 + q[2] * 11) / 100 / 3);
                diff.px[o] = diff.px[o + 1] = diff.px[o + 2] = g;
                diff.px[o + 3] = 255;
            }
        }
    fraction = compared ? (double)differing / (double)compared : 0.0;
    printf("compare_png: %ld pixels compared, %ld masked, %ld differ by more than %d (fraction %.5f, limit "
           "%.5f); largest channel difference %d\n",
           compared, in_masks, differing, tolerance, fraction, max_fraction, max_seen);
    if (differing)
        printf("compare_png: the differing pixels lie in x %d..%d, y %d..%d\n", bx0, bx1, by0, by1);
    CHECK(fraction <= max_fraction, "%ld of %ld pixels differ (%.5f > %.5f)", differing, compared, fraction,
          max_fraction);
    if (check_failed && diff.px) {
        char name[4096];
        diff_name(got_path, name, sizeof name);
        if (img_write_rgba_png(name, &diff, false))
            printf("compare_png: the differences are drawn in %s\n", name);
        else
            fprintf(stderr, "compare_png: cannot write the difference picture: %s\n", err_msg());
    }
    free(diff.px);
    img_free(&got);
    img_free(&golden);
    return CHECK_SUMMARY();
}
