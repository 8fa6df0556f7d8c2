/* Damaged images and random kernel text: every call returns, either with a
 * result or with a sentence, never a crash. Deterministic (fixed seed), so a
 * failure reproduces. Usage: test_fuzz_inputs SAMPLE.png */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/check.h"
#include "../unit/png_write.h"
#include "core/err.h"
#include "core/filter.h"
#include "core/image.h"

static unsigned rng = 12345u;
static unsigned next(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long size;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)size);
    *n = fread(buf, 1, (size_t)size, f);
    fclose(f);
    return buf;
}

static void fuzz_file(const unsigned char *orig, size_t n, const char *tmp, int iterations, const char *what)
{
    unsigned char *buf = malloc(n);
    int loaded = 0, refused = 0;
    img_limits lim = {4096, 4096LL * 4096};
    for (int it = 0; it < iterations; ++it) {
        size_t len = n;
        FILE *f;
        img_image img;
        memcpy(buf, orig, n);
        switch (next() % 3) {
        case 0: /* flip a few bytes, mostly in the header */
            for (int k = 0, m = 1 + next() % 8; k < m; ++k)
                buf[(next() % 2 ? next() % (n < 64 ? n : 64) : next() % n)] = (unsigned char)next();
            break;
        case 1: /* truncate */ len = next() % n; break;
        default: /* both */
            buf[next() % n] ^= (unsigned char)(1u << next() % 8);
            len = n / 2 + next() % (n / 2);
            break;
        }
        f = fopen(tmp, "wb");
        fwrite(buf, 1, len, f);
        fclose(f);
        err_clear();
        if (img_load(tmp, &lim, &img)) {
            ++loaded;
            CHECK(img.luma.w > 0 && img.luma.h > 0 && img.luma.px && img.color.px, "%s: loaded but empty", what);
            img_free(&img);
        } else {
            ++refused;
            CHECK(err_msg()[0] != '\0' && strstr(err_msg(), tmp), "%s iteration %d: no sentence naming the file", what,
                  it);
        }
    }
    printf("%s: %d mutated files loaded, %d refused with a reason\n", what, loaded, refused);
    free(buf);
}

static void fuzz_kernels(int iterations)
{
    static const char alphabet[] = "0123456789 -+.;,/eE\tx";
    char text[48];
    int ok = 0;
    for (int it = 0; it < iterations; ++it) {
        filt_kernel k;
        if (it % 2) { /* random characters */
            size_t len = next() % (sizeof text - 1);
            for (size_t i = 0; i < len; ++i)
                text[i] = alphabet[next() % (sizeof alphabet - 1)];
            text[len] = '\0';
        } else { /* a valid kernel with a few characters changed, cut or grown */
            size_t len;
            snprintf(text, sizeof text, "%s", "-1 2.5 1; 2 -4 2; 1e1 2 1 / 16");
            len = strlen(text);
            for (int m = 0, nm = 1 + (int)(next() % 3); m < nm; ++m)
                text[next() % len] = alphabet[next() % (sizeof alphabet - 1)];
            if (next() % 4 == 0)
                text[next() % len] = '\0';
        }
        if (filt_parse(text, &k)) {
            ++ok;
            CHECK(k.divisor != 0.0f, "'%s' parsed with divisor 0", text);
            CHECK(k.kw % 2 == 1 && k.kh % 2 == 1 && k.kw <= CONV_MAX_SIDE && k.kh <= CONV_MAX_SIDE, "'%s' is %dx%d",
                  text, k.kw, k.kh);
            for (int t = 0; t < k.kw * k.kh; ++t)
                CHECK(k.weight[t] == k.weight[t] && k.weight[t] - k.weight[t] == 0.0f, "'%s' weight %d", text, t);
        } else {
            CHECK(strstr(err_msg(), "-1 0 1; -2 0 2; -1 0 1") != NULL, "'%s': %s", text, err_msg());
        }
    }
    printf("kernels: %d of %d random texts parsed\n", ok, iterations);
}

int main(int argc, char **argv)
{
    char tmp[] = "/tmp/convis-fuzz-XXXXXX";
    int fd;
    size_t n;
    unsigned char *png;
    static const unsigned char pgm[] = "P5\n4 3\n255\n\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c";
    static const unsigned char pfm[] = "Pf\n2 1\n-1.0\n\0\0\x80\x3f\0\0\0\x40";
    static const unsigned char pgm16[] = "P5\n3 2\n65535\n\x00\x01\x80\x00\xff\xff\x12\x34\x00\x00\x7f\xff";
    uint16_t s16[6 * 5 * 3];
    unsigned char *png16;
    size_t n16;

    if (argc != 2 || !(png = slurp(argv[1], &n))) {
        fprintf(stderr, "usage: test_fuzz_inputs SAMPLE.png\n");
        return 2;
    }
    for (int i = 0; i < 6 * 5 * 3; ++i)
        s16[i] = (uint16_t)((unsigned)i * 2207u);
    png16 = png_encode(6, 5, 16, 2, s16, &n16); /* stb's 16-bit path */
    fd = mkstemp(tmp);
    close(fd);
    fuzz_file(png, n, tmp, 300, "png");
    fuzz_file(png16, n16, tmp, 300, "16-bit png");
    fuzz_file(pgm16, sizeof pgm16 - 1, tmp, 300, "16-bit pgm");
    fuzz_file(pgm, sizeof pgm - 1, tmp, 300, "pgm");
    fuzz_file(pfm, sizeof pfm - 1, tmp, 300, "pfm");
    fuzz_kernels(20000);
    unlink(tmp);
    free(png);
    free(png16);
    return CHECK_SUMMARY();
}
