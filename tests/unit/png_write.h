/* png_write.h - a PNG encoder for tests, of any depth stb_image_write has
 * not (it writes 8 bits a channel only): 8 or 16 bits a sample, grey (colour
 * type 0), grey and alpha (4), RGB (2) or RGBA (6), the image data in stored
 * (uncompressed) deflate blocks. test_image, test_fuzz_inputs and the fuzzers'
 * seed maker use it for 16-bit PNGs. Header only: static functions. */
#ifndef CONVIS_TEST_PNG_WRITE_H
#define CONVIS_TEST_PNG_WRITE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct png_buf {
    unsigned char *data;
    size_t n, cap;
} png_buf;

static void png_put(png_buf *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = (b->n + n) * 2;
        unsigned char *d = realloc(b->data, cap);
        if (!d)
            abort();
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->n, p, n);
    b->n += n;
}

static void png_put32(png_buf *b, uint32_t v)
{
    unsigned char c[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                          (unsigned char)v};
    png_put(b, c, 4);
}

static uint32_t png_crc(const unsigned char *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

static void png_chunk(png_buf *b, const char *type, const unsigned char *data, size_t n)
{
    size_t at;
    png_put32(b, (uint32_t)n);
    at = b->n;
    png_put(b, type, 4);
    if (n)
        png_put(b, data, n);
    png_put32(b, png_crc(b->data + at, n + 4));
}

static int png_channels(int colour)
{
    return colour == 0 ? 1 : colour == 4 ? 2 : colour == 2 ? 3 : 4;
}

/* A w x h PNG of `depth` (8 or 16) bits a sample and colour type `colour`
 * (0, 2, 4, 6), its samples row by row (w * channels a row, each at most
 * 2^depth - 1). A malloc'd file of *n bytes. */
static unsigned char *png_encode(int w, int h, int depth, int colour, const uint16_t *samples, size_t *n)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t row = 1 + (size_t)w * (size_t)png_channels(colour) * (size_t)(depth / 8), raw_n = row * (size_t)h;
    unsigned char *raw = malloc(raw_n), ihdr[13];
    png_buf file = {0}, z = {0};
    uint32_t a = 1, bsum = 0;

    if (!raw)
        abort();
    for (int y = 0; y < h; ++y) {
        unsigned char *r = raw + (size_t)y * row;
        size_t per_row = (size_t)w * (size_t)png_channels(colour);
        r[0] = 0; /* filter: none */
        for (size_t j = 0; j < per_row; ++j) {
            uint16_t s = samples[(size_t)y * per_row + j];
            if (depth == 16) {
                r[1 + 2 * j] = (unsigned char)(s >> 8);
                r[2 + 2 * j] = (unsigned char)s;
            } else {
                r[1 + j] = (unsigned char)s;
            }
        }
    }
    /* zlib: a header, stored blocks of at most 65535 bytes, the Adler-32 */
    png_put(&z, "\x78\x01", 2);
    for (size_t at = 0;; at += 65535) { /* raw_n > 0: one block at least */
        size_t len = raw_n - at < 65535 ? raw_n - at : 65535;
        unsigned char head[5] = {at + len >= raw_n ? 1 : 0, (unsigned char)len, (unsigned char)(len >> 8),
                                 (unsigned char)~len, (unsigned char)(~len >> 8)};
        png_put(&z, head, 5);
        png_put(&z, raw + at, len);
        if (at + len >= raw_n)
            break;
    }
    for (size_t i = 0; i < raw_n; ++i) {
        a = (a + raw[i]) % 65521u;
        bsum = (bsum + a) % 65521u;
    }
    png_put32(&z, bsum << 16 | a);
    free(raw);

    png_put(&file, sig, 8);
    for (int k = 0; k < 4; ++k) {
        ihdr[k] = (unsigned char)((uint32_t)w >> (24 - 8 * k));
        ihdr[4 + k] = (unsigned char)((uint32_t)h >> (24 - 8 * k));
    }
    ihdr[8] = (unsigned char)depth;
    ihdr[9] = (unsigned char)colour;
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    png_chunk(&file, "IHDR", ihdr, 13);
    png_chunk(&file, "IDAT", z.data, z.n);
    png_chunk(&file, "IEND", NULL, 0);
    free(z.data);
    *n = file.n;
    return file.data;
}

#endif
