/* Animated GIFs (src/app/gif.c): frames written and read back with giflib
 * (count, size, the colours of the last frame once each frame's rectangle
 * is laid over the ones before), a mostly still animation kept small, an
 * existing file never replaced, and a failed or empty write leaving
 * nothing behind. With `--info FILE` it prints "FRAMES WxH" of a GIF
 * instead (for test_lessons.sh); with `--frame N FILE OUT.ppm` it writes
 * what the GIF shows at frame N (from 0). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <gif_lib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/app/gif.h"
#include "check.h"
#include "core/err.h"

/* The GIF's frames laid one over the other up to frame `upto` (all of them
 * when it is past the last): that picture, as RGB. */
static bool read_upto(const char *path, int upto, int *frames, int *w, int *h, unsigned char **rgb)
{
    int error = 0;
    GifFileType *f = DGifOpenFileName(path, &error);
    if (!f || DGifSlurp(f) != GIF_OK)
        return false;
    *frames = f->ImageCount;
    *w = f->SWidth;
    *h = f->SHeight;
    *rgb = calloc((size_t)*w * (size_t)*h, 3);
    for (int i = 0; i < f->ImageCount && i <= upto; ++i) {
        const SavedImage *im = &f->SavedImages[i];
        const ColorMapObject *map = im->ImageDesc.ColorMap ? im->ImageDesc.ColorMap : f->SColorMap;
        for (int y = 0; y < im->ImageDesc.Height; ++y)
            for (int x = 0; x < im->ImageDesc.Width; ++x) {
                const GifColorType *c = &map->Colors[im->RasterBits[y * im->ImageDesc.Width + x]];
                unsigned char *o =
                    *rgb + 3 * ((size_t)(im->ImageDesc.Top + y) * (size_t)*w + (size_t)(im->ImageDesc.Left + x));
                o[0] = c->Red, o[1] = c->Green, o[2] = c->Blue;
            }
    }
    DGifCloseFile(f, &error);
    return true;
}

static bool read_back(const char *path, int *frames, int *w, int *h, unsigned char **rgb)
{
    return read_upto(path, 1 << 30, frames, w, h, rgb);
}

/* A test picture: a dark screen, a grey ramp, and a bright square at x. */
static void picture(unsigned char *rgba, int w, int h, int x_square)
{
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            unsigned char *p = rgba + 4 * ((size_t)y * w + x);
            unsigned char g = y < h / 2 ? 26 : (unsigned char)(x * 255 / (w - 1));
            bool square = x >= x_square && x < x_square + 8 && y >= 4 && y < 12;
            p[0] = square ? 250 : g, p[1] = square ? 200 : g, p[2] = square ? 40 : g, p[3] = 255;
        }
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The files in folder `dir` whose names begin ".convis-" (temporary ones). */
static int temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += strncmp(e->d_name, ".convis-", 8) == 0;
    if (d)
        closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    char path[64], tmpl[] = "/tmp/convis-gif-XXXXXX";
    int w = 160, h = 90, frames, rw, rh;
    unsigned char *rgba = malloc((size_t)w * h * 4), *rgb = NULL;
    gif_writer *g;
    if (argc == 3 && strcmp(argv[1], "--info") == 0) {
        if (!read_back(argv[2], &frames, &rw, &rh, &rgb))
            return 1;
        printf("%d %dx%d\n", frames, rw, rh);
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "--frame") == 0) { /* frame N of a GIF as a PPM, to look at */
        FILE *out;
        if (!read_upto(argv[3], atoi(argv[2]), &frames, &rw, &rh, &rgb) || !(out = fopen(argv[4], "wb")))
            return 1;
        fprintf(out, "P6\n%d %d\n255\n", rw, rh);
        fwrite(rgb, 3, (size_t)rw * rh, out);
        return fclose(out) == 0 ? 0 : 1;
    }
    if (!mkdtemp(tmpl))
        return 1;
    snprintf(path, sizeof path, "%s/a.gif", tmpl);

    /* 20 frames, the square moving, then still */
    g = gif_open(path, w, h, 100);
    CHECK(g != NULL, "open: %s", err_msg());
    for (int i = 0; g && i < 20; ++i) {
        picture(rgba, w, h, i < 10 ? 4 + 10 * i : 94);
        CHECK(gif_frame(g, rgba), "frame %d: %s", i, err_msg());
    }
    CHECK(g && gif_frames(g) == 20 && gif_close(g), "closed: %s", err_msg());
    CHECK(read_back(path, &frames, &rw, &rh, &rgb) && frames == 20 && rw == w && rh == h,
          "read back: %d frames of %dx%d", frames, rw, rh);
    if (rgb) {
        /* the last picture, from the rectangles: the square at 94, the ramp */
        const unsigned char *sq = rgb + 3 * ((size_t)6 * w + 96), *old = rgb + 3 * ((size_t)6 * w + 6);
        const unsigned char *ramp = rgb + 3 * ((size_t)(h - 1) * w + w / 2);
        CHECK(sq[0] > 200 && sq[1] > 150 && sq[2] < 100, "the square where it ended: %d %d %d", sq[0], sq[1], sq[2]);
        CHECK(old[0] < 60 && old[1] < 60, "not where it began: %d %d", old[0], old[1]);
        CHECK(abs(ramp[0] - 127) < 20, "the ramp's middle grey: %d", ramp[0]);
        free(rgb);
    }
    CHECK(file_size(path) < 20 * 3000, "frames that change little are small: %ld bytes", file_size(path));
    CHECK(temporaries(tmpl) == 0, "no temporary file left once the GIF is whole");
    unlink(path);

    /* while it is written, only a temporary file is there, never a part of
     * the GIF at its name; what a signal's handler calls removes it */
    g = gif_open(path, w, h, 100);
    picture(rgba, w, h, 4);
    CHECK(g && gif_frame(g, rgba), "a frame: %s", err_msg());
    CHECK(access(path, F_OK) != 0 && temporaries(tmpl) == 1, "writing: no file at its name, one temporary file (%d)",
          temporaries(tmpl));
    gif_remove_partial_writes();
    CHECK(temporaries(tmpl) == 0 && access(path, F_OK) != 0, "on a signal: the temporary file removed, no GIF");
    gif_abort(g);
    CHECK(temporaries(tmpl) == 0 && access(path, F_OK) != 0, "given up after it: nothing there");
    g = gif_open(path, w, h, 100);
    CHECK(g && gif_frame(g, rgba) && gif_close(g) && file_size(path) > 0 && temporaries(tmpl) == 0,
          "a GIF written after it: whole, at its name (%s)", err_msg());

    /* never over an existing file, which stays as it was */
    {
        long before = file_size(path);
        CHECK(gif_open(path, w, h, 100) == NULL && err_last_kind() == ERR_EXISTS, "an existing file: %s", err_msg());
        CHECK(file_size(path) == before, "it is untouched");
    }
    unlink(path);
    {
        /* a file that came at its name while the GIF was written stays */
        FILE *other;
        g = gif_open(path, w, h, 100);
        CHECK(g && gif_frame(g, rgba), "a frame: %s", err_msg());
        other = fopen(path, "w");
        if (other) {
            fputs("theirs", other);
            fclose(other);
        }
        CHECK(g && !gif_close(g) && err_last_kind() == ERR_EXISTS && file_size(path) == 6 && temporaries(tmpl) == 0,
              "a file made meanwhile at its name: kept, the GIF refused, no temporary left (%s)", err_msg());
    }
    unlink(path);

    /* nothing behind: no frame, a give-up, a write that fails */
    g = gif_open(path, w, h, 100);
    CHECK(g && !gif_close(g) && access(path, F_OK) != 0, "no frame: an error and no file (%s)", err_msg());
    g = gif_open(path, w, h, 100);
    if (g) {
        picture(rgba, w, h, 4);
        gif_frame(g, rgba);
        gif_abort(g);
    }
    CHECK(access(path, F_OK) != 0 && temporaries(tmpl) == 0, "given up: no file, no temporary one");
    {
        struct rlimit old, small = {4096, 4096};
        bool failed = false;
        signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &old);
        small.rlim_max = old.rlim_max;
        setrlimit(RLIMIT_FSIZE, &small);
        g = gif_open(path, w, h, 100);
        for (int i = 0; g && i < 40 && !failed; ++i) {
            for (size_t k = 0; k < (size_t)w * h * 4; ++k)
                rgba[k] = (unsigned char)(k * 7919 + (size_t)i * 104729); /* noise: no compression helps */
            failed = !gif_frame(g, rgba);
        }
        if (g)
            failed = failed ? (gif_abort(g), true) : !gif_close(g);
        setrlimit(RLIMIT_FSIZE, &old);
        CHECK(failed && access(path, F_OK) != 0 && temporaries(tmpl) == 0,
              "a write that fails (file size limit): an error, no file, no temporary one");
        CHECK(err_last_kind() == ERR_ENV, "... and the machine's refusal (ERR_ENV): %s", err_msg());
    }
    rmdir(tmpl);
    free(rgba);
    return CHECK_SUMMARY();
}
