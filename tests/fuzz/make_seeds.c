/* make_seeds - writes a small seed corpus for the fuzzers into DIR/image,
 * DIR/lesson and DIR/filter: an 8x8 (and a 3x2 grey) picture in every
 * format convis reads, through stb_image_write for PNG, BMP, TGA and JPEG,
 * through png_write.h for 16-bit PNGs (grey, grey and alpha, RGB, RGBA:
 * stb's 16-bit path) and by hand for PGM/PPM (8 and 16 bits), PFM and a
 * BMP with 10-bit channels (refused); lesson texts from lessons/; filter
 * texts. Deterministic. Usage: make_seeds DIR LESSONS_DIR */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/png_write.h"
#include "core/stb_config.h"

static char dir[4096];

static void put(const char *sub, const char *name, const void *data, size_t n)
{
    char path[4400];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
    f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n) {
        perror(path);
        exit(1);
    }
    fclose(f);
}

typedef struct buf {
    unsigned char data[1 << 16];
    size_t n;
} buf;

static void to_buf(void *ctx, void *data, int size)
{
    buf *b = ctx;
    if (b->n + (size_t)size <= sizeof b->data) {
        memcpy(b->data + b->n, data, (size_t)size);
        b->n += (size_t)size;
    }
}

int main(int argc, char **argv)
{
    static const char *const filters[] = {
        "sobel-x", "gaussian", "1 2 1; 2 4 2; 1 2 1 / 16", "-1 0 1; -2 0 2; -1 0 1", "0.5 0 0; 0 0 0; 0 0 -0.5 / 0.25",
        "emboss", "box:5", "gaussian:1.5", "motion:9"};
    unsigned char rgb[8 * 8 * 3], grey[3 * 2] = {0, 64, 128, 192, 255, 7};
    char text[256];
    buf b;
    DIR *d;
    struct dirent *e;

    if (argc != 3) {
        fprintf(stderr, "usage: make_seeds DIR LESSONS_DIR\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    mkdir(dir, 0777);
    for (const char *const *s = (const char *const[]){"image", "lesson", "filter", NULL}; *s; ++s) {
        snprintf(text, sizeof text, "%s/%s", dir, *s);
        mkdir(text, 0777);
    }
    for (int i = 0; i < 8 * 8 * 3; ++i)
        rgb[i] = (unsigned char)(i * 37 + i / 3);
#define WRITE(name, call)                                                                                              \
    do {                                                                                                               \
        b.n = 0;                                                                                                       \
        call;                                                                                                          \
        put("image", name, b.data, b.n);                                                                               \
    } while (0)
    WRITE("rgb.png", stbi_write_png_to_func(to_buf, &b, 8, 8, 3, rgb, 8 * 3));
    WRITE("grey.png", stbi_write_png_to_func(to_buf, &b, 3, 2, 1, grey, 3));
    WRITE("rgb.bmp", stbi_write_bmp_to_func(to_buf, &b, 8, 8, 3, rgb));
    WRITE("rgb.tga", stbi_write_tga_to_func(to_buf, &b, 8, 8, 3, rgb));
    stbi_write_tga_with_rle = 0;
    WRITE("rgb-raw.tga", stbi_write_tga_to_func(to_buf, &b, 8, 8, 3, rgb));
    WRITE("rgb.jpg", stbi_write_jpg_to_func(to_buf, &b, 8, 8, 3, rgb, 90));
    WRITE("grey.jpg", stbi_write_jpg_to_func(to_buf, &b, 3, 2, 1, grey, 50));
    {
        unsigned char pnm[64];
        int n = snprintf((char *)pnm, sizeof pnm, "P5\n3 2\n255\n");
        memcpy(pnm + n, grey, 6);
        put("image", "grey8.pgm", pnm, (size_t)n + 6);
        n = snprintf((char *)pnm, sizeof pnm, "P5\n# 16 bits\n3 1\n65535\n");
        memcpy(pnm + n, "\x00\x00\xff\xff\x80\x00", 6);
        put("image", "grey16.pgm", pnm, (size_t)n + 6);
        n = snprintf((char *)pnm, sizeof pnm, "P6\n2 1\n1023\n");
        memcpy(pnm + n, "\x03\xff\x00\x00\x02\x00\x00\x10\x01\x00\x00\x00", 12);
        put("image", "rgb10.ppm", pnm, (size_t)n + 12);
        n = snprintf((char *)pnm, sizeof pnm, "Pf\n2 1\n-1.0\n");
        memcpy(pnm + n, "\x00\x00\x80\x3f\x00\x00\x00\xc0", 8);
        put("image", "grey.pfm", pnm, (size_t)n + 8);
    }
    { /* 16 bits a sample: each colour type stb's 16-bit path converts */
        static const int colours[] = {0, 4, 2, 6};
        static const char *const names[] = {"grey16.png", "grey-alpha16.png", "rgb16.png", "rgba16.png"};
        uint16_t s16[8 * 8 * 4];
        for (int i = 0; i < 8 * 8 * 4; ++i)
            s16[i] = (uint16_t)((unsigned)i * 1031u + (unsigned)i * (unsigned)i * 7u);
        for (int k = 0; k < 4; ++k) {
            size_t n;
            unsigned char *png = png_encode(8, 8, 16, colours[k], s16, &n);
            put("image", names[k], png, n);
            free(png);
        }
    }
    { /* a BMP with bit fields of 10 bits a channel (refused), and one of 5-6-5 (read) */
        unsigned char bmp[66 + 8] = {'B', 'M', 74, 0, 0, 0, 0, 0, 0, 0,  66, 0, 0, 0, 40, 0, 0, 0, 2,
                                     0,   0,   0,  1, 0, 0, 0, 1, 0, 32, 0,  3, 0, 0, 0,  8, 0, 0, 0};
        static const unsigned char deep[12] = {0, 0, 0xf0, 0x3f, 0, 0xfc, 0x0f, 0, 0xff, 0x03, 0, 0};
        static const unsigned char rgb565[12] = {0, 0xf8, 0, 0, 0xe0, 0x07, 0, 0, 0x1f, 0, 0, 0};
        memcpy(bmp + 54, deep, 12);
        memcpy(bmp + 66, "\x01\x02\x03\x04\xff\xff\xff\x3f", 8);
        put("image", "deep10.bmp", bmp, sizeof bmp);
        bmp[28] = 16;
        memcpy(bmp + 54, rgb565, 12);
        put("image", "rgb565.bmp", bmp, sizeof bmp);
    }
    for (size_t i = 0; i < sizeof filters / sizeof filters[0]; ++i) {
        snprintf(text, sizeof text, "filter-%zu", i);
        put("filter", text, filters[i], strlen(filters[i]));
    }
    /* the lessons themselves (English and Chinese) */
    for (const char *const *lang = (const char *const[]){"en", "zh", NULL}; *lang; ++lang) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", argv[2], *lang);
        if (!(d = opendir(path)))
            continue;
        while ((e = readdir(d))) {
            char file[4700], *data;
            FILE *f;
            long n;
            if (!strstr(e->d_name, ".yaml"))
                continue;
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            if (!(f = fopen(file, "rb")))
                continue;
            fseek(f, 0, SEEK_END);
            n = ftell(f);
            rewind(f);
            data = malloc((size_t)n);
            if (data && fread(data, 1, (size_t)n, f) == (size_t)n) {
                snprintf(text, sizeof text, "%s-%s", *lang, e->d_name);
                put("lesson", text, data, (size_t)n);
            }
            free(data);
            fclose(f);
        }
        closedir(d);
    }
    printf("seeds in %s\n", dir);
    return 0;
}
