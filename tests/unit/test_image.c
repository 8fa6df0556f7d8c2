/* Loading, limits, the luma plane, files deeper than 8 bits, PNG and PFM
 * writing, and the rules that protect the user's files. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/err.h"
#include "core/image.h"
#include "png_write.h"

static char dir[256];

static const char *in_dir(const char *name)
{
    static char path[2][512];
    static int which;
    which ^= 1;
    snprintf(path[which], sizeof path[which], "%s/%s", dir, name);
    return path[which];
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, n, f);
    fclose(f);
}

static int count_temporaries(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)))
        n += strstr(e->d_name, ".tmp-") != NULL;
    closedir(d);
    return n;
}

static void test_pgm_and_ppm(void)
{
    unsigned char pgm[] = "P5\n3 2\n255\n\x00\x10\x80\xff\x7f\x01";
    unsigned char ppm[64];
    int n = snprintf((char *)ppm, sizeof ppm, "P6\n2 1\n255\n");
    img_image img;

    write_bytes(in_dir("g.pgm"), pgm, sizeof pgm - 1);
    CHECK(img_load(in_dir("g.pgm"), NULL, &img), "%s", err_msg());
    CHECK(img.luma.w == 3 && img.luma.h == 2, "size");
    CHECK(img.luma.px[0] == 0 && img.luma.px[1] == 16 && img.luma.px[2] == 128 && img.luma.px[3] == 255 &&
              img.luma.px[4] == 127 && img.luma.px[5] == 1,
          "grey values kept exactly");
    CHECK(img.color.px[4 * 2] == 128 && img.color.px[4 * 2 + 3] == 255, "colour for display");
    img_free(&img);
    /* the luma plane alone (what apply loads): the same values, no colours */
    CHECK(img_load_luma(in_dir("g.pgm"), NULL, &img), "%s", err_msg());
    CHECK(img.luma.w == 3 && img.luma.h == 2 && img.luma.px[2] == 128 && img.luma.px[5] == 1 && !img.color.px,
          "luma only: %dx%d, colours %p", img.luma.w, img.luma.h, (void *)img.color.px);
    img_free(&img);

    /* (200, 100, 50): 0.299*200 + 0.587*100 + 0.114*50 = 59.8 + 58.7 + 5.7 = 124.2; (90, 90, 90) stays 90 */
    memcpy(ppm + n, "\xc8\x64\x32\x5a\x5a\x5a", 6);
    write_bytes(in_dir("c.ppm"), ppm, (size_t)n + 6);
    CHECK(img_load(in_dir("c.ppm"), NULL, &img), "%s", err_msg());
    CHECK_NEAR(img.luma.px[0], 124.2, 1e-5, "BT.601 luma: %g", img.luma.px[0]);
    CHECK(img.luma.px[1] == 90.0f, "grey pixel exact");
    CHECK(img.color.px[0] == 200 && img.color.px[1] == 100 && img.color.px[2] == 50, "colour kept");
    img_free(&img);
}

/* ---- files deeper than 8 bits --------------------------------------------------- */

/* Whether f is the float nearest s * 255 / top (no other float nearer): in
 * double, f * top and s * 255 are exact, so is their difference, and so
 * for f's two neighbours. Apart from the decoder's own arithmetic. */
static bool nearest_level(float f, long s, long top)
{
    double want = (double)s * 255.0, off = fabs((double)f * (double)top - want);
    return off <= fabs((double)nextafterf(f, INFINITY) * (double)top - want) &&
           off <= fabs((double)nextafterf(f, -INFINITY) * (double)top - want);
}

static int distinct_values(const img_plane *p)
{
    int n = 0;
    for (long i = 0; i < (long)p->w * p->h; ++i) {
        bool seen = false;
        for (long j = 0; j < i && !seen; ++j)
            seen = p->px[j] == p->px[i];
        n += !seen;
    }
    return n;
}

/* The 16-bit gradient of the deep-file tests: 512 levels across the first
 * row (0 ... 65535), and on the second, multiples of 257 (k * 257 is the
 * level k exactly on the 0..255 scale). */
#define GRAD_W 512
static void gradient16(uint16_t *s)
{
    for (int x = 0; x < GRAD_W; ++x) {
        s[x] = (uint16_t)((long)x * 65535 / (GRAD_W - 1));
        s[GRAD_W + x] = (uint16_t)(257 * (x % 256));
    }
}

/* Every pixel of a decoded gradient16 image: the nearest float to its
 * level, more than 256 distinct values (8 bits hold 256), the depth 16. */
static void check_gradient(const char *what, const img_image *img, const uint16_t *s)
{
    int wrong = 0, first = -1;
    CHECK(img->luma.w == GRAD_W && img->luma.h == 2, "%s: %dx%d", what, img->luma.w, img->luma.h);
    if (img->luma.w != GRAD_W || img->luma.h != 2)
        return;
    for (int i = 0; i < 2 * GRAD_W; ++i)
        if (!nearest_level(img->luma.px[i], s[i], 65535)) {
            wrong += 1;
            first = first < 0 ? i : first;
        }
    CHECK(wrong == 0, "%s: %d pixels not the nearest float to s*255/65535, the first %d: level %u gave %.9g", what,
          wrong, first, first >= 0 ? s[first] : 0, first >= 0 ? img->luma.px[first] : 0.0);
    CHECK(distinct_values(&img->luma) > 256, "%s: %d distinct values, more than 8 bits hold", what,
          distinct_values(&img->luma));
    /* by hand: 0, 65535 is 255, 257 k is k, 128 is 0.498 (half a level below 0.5) */
    CHECK(img->luma.px[0] == 0.0f && img->luma.px[GRAD_W - 1] == 255.0f && img->luma.px[GRAD_W + 1] == 1.0f &&
              img->luma.px[GRAD_W + 128] == 128.0f && img->luma.px[2 * GRAD_W - 1] == 255.0f,
          "%s: levels 0, 65535, 257, 128*257: %g %g %g %g", what, img->luma.px[0], img->luma.px[GRAD_W - 1],
          img->luma.px[GRAD_W + 1], img->luma.px[GRAD_W + 128]);
    CHECK_NEAR(img->luma.px[1], 128.0 * 255.0 / 65535.0, 1e-7, "%s: level 128: %.9g", what, img->luma.px[1]);
    CHECK(img->bits == 16, "%s: depth %d bits, not 16", what, img->bits);
    if (img->color.px)
        CHECK(img->color.px[4 * (GRAD_W + 128)] == 128 && img->color.px[4 * (GRAD_W - 1)] == 255 &&
                  img->color.px[4 * (GRAD_W - 1) + 3] == 255,
              "%s: colours for display rounded to 8 bits", what);
}

static void test_deep_png(void)
{
    static uint16_t s[2 * GRAD_W];
    uint16_t rgb[2 * 3] = {65535, 0, 0, 25700, 25700, 25700}, ga[2] = {25700, 32768};
    size_t n;
    unsigned char *png;
    img_image img;

    gradient16(s);
    png = png_encode(GRAD_W, 2, 16, 0, s, &n);
    write_bytes(in_dir("grad16.png"), png, n);
    free(png);
    CHECK(img_load(in_dir("grad16.png"), NULL, &img), "%s", err_msg()); /* in the sandbox, as always */
    check_gradient("16-bit grey PNG", &img, s);
    img_free(&img);
    CHECK(img_load_luma(in_dir("grad16.png"), NULL, &img), "%s", err_msg());
    check_gradient("16-bit grey PNG, luma alone", &img, s);
    img_free(&img);

    /* RGB: pure red is 0.299 * 255 in float arithmetic; grey 25700 = 257 * 100 is 100 */
    png = png_encode(2, 1, 16, 2, rgb, &n);
    write_bytes(in_dir("rgb16.png"), png, n);
    free(png);
    CHECK(img_load(in_dir("rgb16.png"), NULL, &img), "%s", err_msg());
    CHECK(img.luma.px && img.luma.px[0] == 0.299f * 255.0f && img.luma.px[1] == 100.0f, "16-bit RGB: luma %g, %g",
          img.luma.px ? img.luma.px[0] : -1, img.luma.px ? img.luma.px[1] : -1);
    CHECK(img.color.px && img.color.px[0] == 255 && img.color.px[1] == 0 && img.color.px[4] == 100 && img.bits == 16,
          "16-bit RGB: colours, depth %d", img.bits);
    img_free(&img);
    /* grey and alpha: the grey level, the alpha kept for display */
    png = png_encode(1, 1, 16, 4, ga, &n);
    write_bytes(in_dir("ga16.png"), png, n);
    free(png);
    CHECK(img_load(in_dir("ga16.png"), NULL, &img), "%s", err_msg());
    CHECK(img.luma.px && img.luma.px[0] == 100.0f && img.color.px[3] == 128, "16-bit grey and alpha: %g, alpha %d",
          img.luma.px ? img.luma.px[0] : -1, img.color.px ? img.color.px[3] : -1);
    img_free(&img);
    /* a 16-bit PNG whose RGBA buffer is over INT_MAX bytes (2^29 pixels: stb's
     * unchecked size would wrap to 0), under limits raised for it: refused
     * before stb's 16-bit path sizes it (the header alone says the size) */
    {
        unsigned char big[8 + 25 + 12];
        img_limits lim = {1 << 16, 1LL << 40};
        png = png_encode(1, 1, 16, 0, (const uint16_t[]){1}, &n);
        memcpy(big, png, 8 + 25);
        free(png);
        big[16] = big[17] = big[20] = big[21] = 0;
        big[18] = big[22] = 0x5a;
        big[19] = big[23] = 0x83; /* 23171 x 23171 */
        {
            uint32_t crc = png_crc(big + 12, 17);
            for (int k = 0; k < 4; ++k)
                big[29 + k] = (unsigned char)(crc >> (24 - 8 * k));
        }
        memcpy(big + 33, "\0\0\0\0IEND\xae\x42\x60\x82", 12);
        write_bytes(in_dir("huge16.png"), big, sizeof big);
        CHECK(!img_load(in_dir("huge16.png"), &lim, &img) && strstr(err_msg(), "too large for its decoder"),
              "a 23171x23171 16-bit PNG: %s", err_msg());
    }
    /* an 8-bit PNG through the same writer: 8 bits, whole values */
    png = png_encode(3, 1, 8, 0, (const uint16_t[]){0, 77, 255}, &n);
    write_bytes(in_dir("grey8.png"), png, n);
    free(png);
    CHECK(img_load(in_dir("grey8.png"), NULL, &img) && img.luma.px[1] == 77.0f && img.bits == 8,
          "8-bit grey PNG: %g, depth %d (%s)", img.luma.px ? img.luma.px[1] : -1, img.bits, err_msg());
    img_free(&img);
}

static void test_deep_pnm(void)
{
    static uint16_t s[2 * GRAD_W];
    static unsigned char pgm[64 + 4 * GRAD_W];
    unsigned char ppm[64];
    int head = snprintf((char *)pgm, 64, "P5\n%d 2\n65535\n", GRAD_W), k;
    img_image img;

    gradient16(s);
    for (int i = 0; i < 2 * GRAD_W; ++i) { /* most significant byte first */
        pgm[head + 2 * i] = (unsigned char)(s[i] >> 8);
        pgm[head + 2 * i + 1] = (unsigned char)s[i];
    }
    write_bytes(in_dir("grad16.pgm"), pgm, (size_t)head + 4 * GRAD_W);
    CHECK(img_load(in_dir("grad16.pgm"), NULL, &img), "%s", err_msg());
    check_gradient("16-bit PGM", &img, s);
    img_free(&img);

    /* 10 bits (maxval 1023): 341 is 85 exactly, 1023 is 255; the depth 10 */
    k = snprintf((char *)ppm, sizeof ppm, "P6\n2 1\n1023\n");
    memcpy(ppm + k, "\x01\x55\x01\x55\x01\x55\x03\xff\x03\xff\x03\xff", 12);
    write_bytes(in_dir("c10.ppm"), ppm, (size_t)k + 12);
    CHECK(img_load(in_dir("c10.ppm"), NULL, &img), "%s", err_msg());
    CHECK(img.luma.px && img.luma.px[0] == 85.0f && img.luma.px[1] == 255.0f && img.bits == 10,
          "10-bit PPM: %g %g, depth %d", img.luma.px ? img.luma.px[0] : -1, img.luma.px ? img.luma.px[1] : -1,
          img.bits);
    img_free(&img);
}

/* A BMP with 10-bit channels (bit fields 0x3ff00000, 0xffc00, 0x3ff): its
 * decoder reads 8 bits a channel at most, so it is refused, saying so,
 * never read with fewer bits (its decoder called it corrupt). */
static void test_deep_bmp(void)
{
    unsigned char bmp[66 + 8] = {'B', 'M', 74, 0, 0, 0, 0, 0, 0, 0,  66, 0, 0, 0, 40, 0, 0, 0, 2,
                                 0,   0,   0,  1, 0, 0, 0, 1, 0, 32, 0,  3, 0, 0, 0,  8, 0, 0, 0};
    static const unsigned char masks[12] = {0, 0, 0xf0, 0x3f, 0, 0xfc, 0x0f, 0, 0xff, 0x03, 0, 0};
    img_image img;
    memcpy(bmp + 54, masks, 12);
    memset(bmp + 66, 0x7f, 8);
    write_bytes(in_dir("deep.bmp"), bmp, sizeof bmp);
    CHECK(!img_load(in_dir("deep.bmp"), NULL, &img) && strstr(err_msg(), "10-bit channels") &&
              strstr(err_msg(), "deep.bmp"),
          "a 10-bit BMP: %s", err_msg());
}

static void test_limits(void)
{
    unsigned char pgm[256];
    int n = snprintf((char *)pgm, sizeof pgm, "P5\n20 10\n255\n");
    img_limits lim = {16, 1000};
    img_image img;

    memset(pgm + n, 7, 200);
    write_bytes(in_dir("wide.pgm"), pgm, (size_t)n + 200);
    CHECK(!img_load(in_dir("wide.pgm"), &lim, &img), "side limit");
    CHECK(strstr(err_msg(), "20x10") && strstr(err_msg(), "wide.pgm"), "message: %s", err_msg());
    lim.max_side = 100;
    lim.max_pixels = 199;
    CHECK(!img_load(in_dir("wide.pgm"), &lim, &img), "pixel limit");
    lim.max_pixels = 200;
    CHECK(img_load(in_dir("wide.pgm"), &lim, &img), "at the limit: %s", err_msg());
    img_free(&img);
    CHECK(img_default_limits().max_side == 16384 && img_default_limits().max_pixels == 64LL << 20, "defaults");
}

static void test_pfm_round_trip(void)
{
    float px[6] = {-3.25f, 0.0f, 1e-7f, 255.5f, -0.0f, 1234567.0f};
    img_plane p = {3, 2, px};
    img_image back;
    FILE *f;
    char head[16] = {0};

    CHECK(img_write(in_dir("r.pfm"), &p, IMG_DISPLAY_CLAMP, NULL), "%s", err_msg());
    f = fopen(in_dir("r.pfm"), "rb");
    CHECK(fread(head, 1, 12, f) == 12 && memcmp(head, "Pf\n3 2\n-1.0\n", 12) == 0, "PFM header");
    fclose(f);
    CHECK(img_load(in_dir("r.pfm"), NULL, &back), "%s", err_msg());
    CHECK(back.luma.w == 3 && back.luma.h == 2 && memcmp(back.luma.px, px, sizeof px) == 0,
          "PFM round trip is exact (rows bottom-up on disk, top-down in memory)");
    img_free(&back);

    /* a truncated PFM and a broken header are refused with a sentence */
    write_bytes(in_dir("short.pfm"), "Pf\n3 2\n-1.0\n\0\0\0\0", 16);
    CHECK(!img_load(in_dir("short.pfm"), NULL, &back) && strstr(err_msg(), "truncated"), "%s", err_msg());
    write_bytes(in_dir("head.pfm"), "Pf\nthree 2\n-1.0\n", 16);
    CHECK(!img_load(in_dir("head.pfm"), NULL, &back) && strstr(err_msg(), "PFM"), "%s", err_msg());
    write_bytes(in_dir("huge.pfm"), "Pf\n100000 1\n-1.0\n", 18);
    CHECK(!img_load(in_dir("huge.pfm"), NULL, &back) && strstr(err_msg(), "100000x1"), "%s", err_msg());
}

static void test_png_write(void)
{
    float px[4] = {-20.0f, 0.0f, 100.0f, 300.0f};
    img_plane p = {2, 2, px};
    img_image back;

    CHECK(img_write(in_dir("o.PNG"), &p, IMG_DISPLAY_ABS, NULL), "%s", err_msg());
    CHECK(img_load(in_dir("o.PNG"), NULL, &back), "%s", err_msg());
    CHECK(back.luma.px[0] == 20 && back.luma.px[1] == 0 && back.luma.px[2] == 100 && back.luma.px[3] == 255,
          "abs display in the PNG");
    img_free(&back);
    CHECK(img_write(in_dir("s.png"), &p, IMG_DISPLAY_SIGNED, NULL), "%s", err_msg());
    CHECK(img_load(in_dir("s.png"), NULL, &back), "%s", err_msg());
    CHECK(back.luma.px[0] == 118 && back.luma.px[1] == 128, "signed display: %g %g", back.luma.px[0], back.luma.px[1]);
    img_free(&back);
}

static void test_protection(void)
{
    float px[1] = {1};
    img_plane p = {1, 1, px};
    img_rgba rgba = {1, 1, (uint8_t[]){1, 2, 3, 255}};
    struct stat st;
    char same[600];
    unsigned char before[64], after[64];
    FILE *f;
    size_t n;

    write_bytes(in_dir("keep.pfm"), "Pf\n1 1\n-1.0\n\0\0\x80\x3f", 16);
    f = fopen(in_dir("keep.pfm"), "rb");
    n = fread(before, 1, sizeof before, f);
    fclose(f);
    CHECK(!img_write(in_dir("keep.pfm"), &p, IMG_DISPLAY_CLAMP, in_dir("keep.pfm")), "same path refused");
    CHECK(strstr(err_msg(), "input"), "%s", err_msg());
    snprintf(same, sizeof same, "%s/./keep.pfm", dir);
    CHECK(!img_write(same, &p, IMG_DISPLAY_CLAMP, in_dir("keep.pfm")), "same file by another path refused");
    f = fopen(in_dir("keep.pfm"), "rb");
    CHECK(fread(after, 1, sizeof after, f) == n && memcmp(before, after, n) == 0, "input untouched");
    fclose(f);

    CHECK(!img_output_name_ok("x.jpg") && !img_output_name_ok("png") && !img_output_name_ok("dir.png/x"),
          "unknown extensions");
    CHECK(img_output_name_ok("x.png") && img_output_name_ok("x.PFM"), "known extensions");
    CHECK(!img_write(in_dir("x.jpg"), &p, IMG_DISPLAY_CLAMP, NULL), "jpg refused");
    mkdir(in_dir("adir.png"), 0755);
    CHECK(!img_write(in_dir("adir.png"), &p, IMG_DISPLAY_CLAMP, NULL) && strstr(err_msg(), "directory"), "%s",
          err_msg());
    CHECK(!img_write(in_dir("missing/x.png"), &p, IMG_DISPLAY_CLAMP, NULL), "missing folder");
    CHECK(count_temporaries() == 0, "no temporary file left after failures");

    umask(022);
    CHECK(img_write(in_dir("mode.png"), &p, IMG_DISPLAY_CLAMP, NULL), "%s", err_msg());
    CHECK(stat(in_dir("mode.png"), &st) == 0 && (st.st_mode & 0777) == 0644, "new file mode %o",
          (unsigned)(st.st_mode & 0777));

    CHECK(img_write_rgba_png(in_dir("shot.png"), &rgba, true), "%s", err_msg());
    stat(in_dir("shot.png"), &st);
    CHECK(!img_write_rgba_png(in_dir("shot.png"), &rgba, true) && strstr(err_msg(), "exists"),
          "screenshots never overwrite: %s", err_msg());
    CHECK(count_temporaries() == 0, "no temporary file left");
}

static void test_bad_files(void)
{
    img_image img;
    CHECK(!img_load(in_dir("nope.png"), NULL, &img) && strstr(err_msg(), "no such file"), "%s", err_msg());
    CHECK(!img_load(dir, NULL, &img) && strstr(err_msg(), "directory"), "%s", err_msg());
    write_bytes(in_dir("empty.png"), "", 0);
    CHECK(!img_load(in_dir("empty.png"), NULL, &img) && strstr(err_msg(), "empty"), "%s", err_msg());
    write_bytes(in_dir("text.png"), "hello, world\n", 13);
    CHECK(!img_load(in_dir("text.png"), NULL, &img) && strstr(err_msg(), "not an image"), "%s", err_msg());
    CHECK(img.luma.px == NULL && img.color.px == NULL, "nothing left allocated");
    CHECK(!img_load("/dev/null", NULL, &img) && strstr(err_msg(), "not a regular file"), "%s", err_msg());
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/convis-test-image-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_pgm_and_ppm();
    test_deep_png();
    test_deep_pnm();
    test_deep_bmp();
    test_limits();
    test_pfm_round_trip();
    test_png_write();
    test_protection();
    test_bad_files();
    {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
    }
    return CHECK_SUMMARY();
}
