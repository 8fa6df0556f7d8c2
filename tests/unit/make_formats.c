/* make_formats.c - make_formats DIR: writes one small grey picture in each
 * format whose type the desktop entry (data/convis.desktop) says convis
 * opens: DIR/tiny.png, .jpg, .bmp, .tga (with stb_image_write, as convis's
 * core compiles it), .pgm, .ppm and .pnm (binary PGM and PPM, by hand).
 * test_install.sh opens each with the installed convis; the lossless ones
 * must give the same pixels. */
#include <stdio.h>
#include <string.h>

#include "core/stb_config.h"

enum { W = 7, H = 5 };

static void to_file(void *context, void *data, int size)
{
    fwrite(data, 1, (size_t)size, (FILE *)context);
}

/* Opens DIR/NAME for writing; NULL (and a sentence) when it cannot. */
static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f)
        fprintf(stderr, "make_formats: cannot write '%s'\n", path);
    return f;
}

/* A binary PGM (P5) or PPM (P6) of the picture, each grey value repeated
 * in R, G and B for the PPM. */
static int write_pnm(FILE *f, const unsigned char *grey, int channels)
{
    fprintf(f, "P%d\n%d %d\n255\n", channels == 1 ? 5 : 6, W, H);
    for (int i = 0; i < W * H; ++i)
        for (int c = 0; c < channels; ++c)
            fputc(grey[i], f);
    return 1;
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"tiny.png", "tiny.jpg", "tiny.bmp", "tiny.tga",
                                        "tiny.pgm", "tiny.ppm", "tiny.pnm"};
    unsigned char grey[W * H];
    int failed = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: make_formats DIR\n");
        return 1;
    }
    for (int y = 0; y < H; ++y) /* no symmetry: a flip or a shift shows */
        for (int x = 0; x < W; ++x)
            grey[y * W + x] = (unsigned char)((x * 37 + y * 91 + 13) % 256);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        FILE *f = open_out(argv[1], names[i]);
        const char *ext = strrchr(names[i], '.') + 1;
        int ok;
        if (!f) {
            failed = 1;
            continue;
        }
        if (strcmp(ext, "png") == 0)
            ok = stbi_write_png_to_func(to_file, f, W, H, 1, grey, W);
        else if (strcmp(ext, "jpg") == 0)
            ok = stbi_write_jpg_to_func(to_file, f, W, H, 1, grey, 100);
        else if (strcmp(ext, "bmp") == 0)
            ok = stbi_write_bmp_to_func(to_file, f, W, H, 1, grey);
        else if (strcmp(ext, "tga") == 0)
            ok = stbi_write_tga_to_func(to_file, f, W, H, 1, grey);
        else
            ok = write_pnm(f, grey, strcmp(ext, "pgm") == 0 ? 1 : 3);
        if (fclose(f) != 0 || !ok) {
            fprintf(stderr, "make_formats: writing '%s/%s' failed\n", argv[1], names[i]);
            failed = 1;
        }
    }
    return failed;
}
