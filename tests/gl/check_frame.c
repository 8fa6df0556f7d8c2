/* check_frame - reads a screenshot back and checks what the window drew.
 * Usage: check_frame FILE WIDTH HEIGHT banner|no-banner
 * Checks the size, that the input panel's blue frame and the output panel's
 * green frame are there (left and right halves), that the output panel holds
 * an image that is not flat, and whether the error banner is shown. */
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
#include "core/err.h"
#include "core/image.h"

static long count_color(const img_rgba *f, int x0, int x1, int r, int g, int b)
{
    long n = 0;
    for (int y = 0; y < f->h; ++y)
        for (int x = x0; x < x1; ++x) {
            const uint8_t *p = f->px + 4 * ((size_t)y * f->w + x);
            n += abs(p[0] - r) <= 8 && abs(p[1] - g) <= 8 && abs(p[2] - b) <= 8;
        }
    return n;
}

int main(int argc, char **argv)
{
    img_image img;
    int w, h;
    bool banner;
    long blue_left, blue_right, green_left, green_right, red, levels = 0;
    int seen[256] = {0};

    if (argc != 5) {
        fprintf(stderr, "usage: check_frame FILE WIDTH HEIGHT banner|no-banner\n");
        return 2;
    }
    w = atoi(argv[2]);
    h = atoi(argv[3]);
    banner = strcmp(argv[4], "banner") == 0;
    if (!img_load(argv[1], NULL, &img)) {
        fprintf(stderr, "%s\n", err_msg());
        return 1;
    }
    CHECK(img.color.w == w && img.color.h == h, "size %dx%d, want %dx%d", img.color.w, img.color.h, w, h);
    /* the colours of window.c: input blue (0.35, 0.62, 1.0), output green
     * (0.40, 0.85, 0.45), banner red (0.55, 0.12, 0.10) over the background */
    blue_left = count_color(&img.color, 0, w / 2, 89, 158, 255);
    blue_right = count_color(&img.color, w / 2, w, 89, 158, 255);
    green_left = count_color(&img.color, 0, w / 2, 102, 217, 115);
    green_right = count_color(&img.color, w / 2, w, 102, 217, 115);
    red = count_color(&img.color, 0, w, 141, 33, 28);
    CHECK(blue_left > 1000 && blue_right < blue_left / 10, "blue input frame on the left (%ld left, %ld right)",
          blue_left, blue_right);
    CHECK(green_right > 1000 && green_left < green_right / 10, "green output frame on the right (%ld, %ld)",
          green_left, green_right);
    /* the output panel's middle: many grey levels, not one flat colour */
    for (int y = h / 3; y < 2 * h / 3; ++y)
        for (int x = w / 2 + w / 8; x < w - w / 8; ++x)
            seen[img.color.px[4 * ((size_t)y * w + x)]] = 1;
    for (int i = 0; i < 256; ++i)
        levels += seen[i];
    CHECK(levels > 20, "output panel shows an image (%ld grey levels)", levels);
    if (banner)
        CHECK(red > 5000, "error banner shown (%ld pixels)", red);
    else
        CHECK(red < 100, "no error banner (%ld pixels)", red);
    img_free(&img);
    return CHECK_SUMMARY();
}
