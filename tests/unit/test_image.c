/* Loading, limits, the luma plane, PNG and PFM writing, and the rules that
 * protect the user's files. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/err.h"
#include "core/image.h"

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
