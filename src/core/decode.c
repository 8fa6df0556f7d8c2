#define _DEFAULT_SOURCE /* explicit_bzero */
/* decode.c - the bytes of an image file to an image. See decode.h. */
#include "decode.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "tr.h"
#include "stb_config.h"

/* ---- stb's allocator: zeroed memory ----------------------------------------
 * stb_image leaves parts of its buffers unwritten on some damaged files (a
 * truncated TGA, CVE-2023-45663): with calloc and a zeroing realloc, what it
 * leaves is zeros, never another allocation's old bytes. */

void *convis_stbi_malloc(size_t n)
{
    return calloc(1, n ? n : 1);
}

void *convis_stbi_realloc_sized(void *p, size_t old_n, size_t n)
{
    unsigned char *q = realloc(p, n ? n : 1);
    if (q && n > old_n)
        memset(q + old_n, 0, n - old_n);
    return q;
}

void convis_stbi_free(void *p)
{
    free(p);
}

/* ---- formats ------------------------------------------------------------------ */

const char *img_accepted(void)
{
    return _("PNG, JPEG, BMP, TGA, PGM/PPM or PFM");
}

static const char *const format_names[] = {"unknown", "PNG", "JPEG", "BMP", "TGA", "PGM/PPM", "PFM"};

/* The format's name ("PNG", ...). */
static const char *img_format_name(img_format f)
{
    return (unsigned)f < sizeof format_names / sizeof format_names[0] ? format_names[f] : "unknown";
}

/* TGA has no signature: a header whose fields hold what stb_image's TGA
 * reader accepts (colour map 0 or 1, an image type it decodes, a size,
 * 8 to 32 bits a pixel). */
static bool tga_header(const unsigned char *h, size_t n)
{
    int cmap = h[1], type = h[2], bits = h[16], w = h[12] | h[13] << 8, rows = h[14] | h[15] << 8;
    if (n < 18 || cmap > 1 || w == 0 || rows == 0)
        return false;
    if (cmap == 1 && type != 1 && type != 9)
        return false;
    if (type != 1 && type != 2 && type != 3 && type != 9 && type != 10 && type != 11)
        return false;
    if (cmap == 1)
        bits = h[7]; /* the colour map's entries */
    return bits == 8 || bits == 15 || bits == 16 || bits == 24 || bits == 32;
}

img_format img_identify(const unsigned char *h, size_t n)
{
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n >= 8 && memcmp(h, png, 8) == 0)
        return IMG_FORMAT_PNG;
    if (n >= 3 && h[0] == 0xff && h[1] == 0xd8 && h[2] == 0xff)
        return IMG_FORMAT_JPEG;
    if (n >= 2 && h[0] == 'B' && h[1] == 'M')
        return IMG_FORMAT_BMP;
    if (n >= 2 && h[0] == 'P' && (h[1] == 'f' || h[1] == 'F'))
        return IMG_FORMAT_PFM;
    if (n >= 3 && h[0] == 'P' && (h[1] == '5' || h[1] == '6') &&
        (h[2] == ' ' || h[2] == '\t' || h[2] == '\n' || h[2] == '\r' || h[2] == '#'))
        return IMG_FORMAT_PNM;
    if (n >= 18 && tga_header(h, n))
        return IMG_FORMAT_TGA;
    return IMG_FORMAT_UNKNOWN;
}

/* ---- common -------------------------------------------------------------------- */

bool img_check_limits(const char *name, long long w, long long h, const img_limits *lim)
{
    if (w <= 0 || h <= 0)
        return err_set("'%s' claims a size of %lldx%lld pixels, which is not an image", name, w, h);
    if (w > lim->max_side || h > lim->max_side || w * h > lim->max_pixels)
        return err_set("'%s' is %lldx%lld pixels, over the limit of %d pixels a side and %lld pixels "
                       "in all (--max-side and --max-pixels raise it)",
                       name, w, h, lim->max_side, lim->max_pixels);
    return true;
}

static unsigned long long be32(const unsigned char *p)
{
    return (unsigned long long)p[0] << 24 | (unsigned long long)p[1] << 16 | (unsigned long long)p[2] << 8 | p[3];
}

static unsigned long long le32(const unsigned char *p)
{
    return (unsigned long long)p[3] << 24 | (unsigned long long)p[2] << 16 | (unsigned long long)p[1] << 8 | p[0];
}

/* The size a PNG, BMP or TGA header states, read here so that a size over
 * the limits is named as such before stb_image sees the file (it calls a
 * 100000x100000 PNG "not an image"). False when the header is too short
 * to say; JPEG, whose size comes after other segments, is left to stb. */
static bool header_size(img_format f, const unsigned char *d, size_t n, long long *w, long long *h)
{
    if (f == IMG_FORMAT_PNG && n >= 24 && memcmp(d + 12, "IHDR", 4) == 0) {
        *w = (long long)be32(d + 16);
        *h = (long long)be32(d + 20);
        return true;
    }
    if (f == IMG_FORMAT_BMP && n >= 26) {
        if (le32(d + 14) == 12) { /* OS/2 header: 16-bit sizes */
            *w = d[18] | d[19] << 8;
            *h = d[20] | d[21] << 8;
        } else {
            *w = (long long)(int32_t)le32(d + 18);
            *h = llabs((long long)(int32_t)le32(d + 22)); /* negative: rows top down */
        }
        return true;
    }
    if (f == IMG_FORMAT_TGA && n >= 18) {
        *w = d[12] | d[13] << 8;
        *h = d[14] | d[15] << 8;
        return true;
    }
    return false;
}

/* A sample s of samples that run from 0 to `top`, on the 0..255 scale:
 * s * 255 / top as the nearest float (s * 255 is exact in double, the
 * quotient rounded once there, finely enough that rounding it again to float
 * gives the float nearest the exact quotient). s itself when top is 255. */
static float scaled(long s, long top)
{
    return (float)((double)s * 255.0 / (double)top);
}

/* BT.601 luma of three values on the 0..255 scale; a grey one exactly. */
static float luma3(float r, float g, float b)
{
    if (r == g && g == b)
        return r;
    return 0.299f * r + 0.587f * g + 0.114f * b;
}

static float luma_of(const uint8_t *rgb)
{
    return luma3(rgb[0], rgb[1], rgb[2]);
}

/* The bits samples that run to `top` need; 8 for 8 or fewer. */
static int bits_for(long top)
{
    int b = 0;
    while (b < 31 && top >> b)
        ++b;
    return b < 8 ? 8 : b;
}

static uint8_t byte_of(float v)
{
    return v <= 0.0f ? 0 : v >= 255.0f ? 255 : (uint8_t)(v + 0.5f);
}

static bool is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* ---- PFM ------------------------------------------------------------------------ */

/* Skips whitespace, then reads one token of at most size-1 characters. */
static const unsigned char *pfm_token(const unsigned char *p, const unsigned char *end, char *tok, size_t size)
{
    size_t n = 0;
    while (p < end && is_space(*p))
        ++p;
    while (p < end && !is_space(*p) && n + 1 < size)
        tok[n++] = (char)*p++;
    tok[n] = '\0';
    return n ? p : NULL;
}

static bool parse_int(const char *s, int *out)
{
    char *end;
    long v;
    v = strtol(s, &end, 10);
    if (*end || end == s || v <= 0 || v > INT_MAX)
        return false;
    *out = (int)v;
    return true;
}

static float pfm_float(const unsigned char *b, bool little)
{
    uint32_t u = little ? (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24
                        : (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* PFM: "Pf" (grey) or "PF" (RGB), width height, scale (negative: little
 * endian), then rows of floats from the bottom row up. A pixel that is not
 * finite (NaN, infinity) is refused, naming the first in raster order from
 * the top: a filter would carry it into every neighbour's output, and a NaN
 * has no one bit pattern that engines would agree on. */
static bool load_pfm(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out)
{
    const unsigned char *p = data + 2, *end = data + size;
    char tok[32];
    int w, h, channels = data[1] == 'f' ? 1 : 3;
    double scale;
    char *scale_end;
    size_t need;

    if (!(p = pfm_token(p, end, tok, sizeof tok)) || !parse_int(tok, &w) || !(p = pfm_token(p, end, tok, sizeof tok)) ||
        !parse_int(tok, &h))
        return err_set("'%s' has a broken PFM header (expected \"Pf\" or \"PF\", width, height, scale)", name);
    if (!img_check_limits(name, w, h, lim))
        return false;
    if (!(p = pfm_token(p, end, tok, sizeof tok)))
        return err_set("'%s' has a broken PFM header: the scale is missing", name);
    scale = strtod(tok, &scale_end);
    if (*scale_end || scale == 0.0 || !isfinite(scale))
        return err_set("'%s' has a broken PFM header: the scale '%s' is not a non-zero number", name, tok);
    if (p >= end)
        return err_set("'%s' is truncated: the PFM header has no pixel data after it", name);
    ++p; /* the single whitespace character that ends the header */
    need = (size_t)w * (size_t)h * (size_t)channels * 4;
    if ((size_t)(end - p) < need)
        return err_set("'%s' is truncated: a %dx%d PFM needs %zu bytes of pixels, the file has %zu", name, w, h, need,
                       (size_t)(end - p));
    if (!img_alloc(out, w, h))
        return false;
    for (int y = 0; y < h; ++y) {
        const unsigned char *row = p + (size_t)(h - 1 - y) * (size_t)w * (size_t)channels * 4;
        for (int x = 0; x < w; ++x) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            float v;
            if (channels == 1) {
                v = pfm_float(row + 4 * (size_t)x, scale < 0);
            } else {
                const unsigned char *c = row + 12 * (size_t)x;
                v = 0.299f * pfm_float(c, scale < 0) + 0.587f * pfm_float(c + 4, scale < 0) +
                    0.114f * pfm_float(c + 8, scale < 0);
            }
            if (!isfinite(v)) { /* NaN or infinity, or colours whose luma overflows */
                img_free(out);
                return err_set("'%s' has a pixel that is not a finite number (NaN or infinity) at x %d, y %d "
                               "(from the top left); convis computes with finite values only",
                               name, x, y);
            }
            out->luma.px[i] = v;
            memset(out->color.px + 4 * i, img_display_byte(v, IMG_DISPLAY_CLAMP), 3);
            out->color.px[4 * i + 3] = 255;
        }
    }
    out->bits = 32;
    return true;
}

/* ---- binary PGM/PPM ----------------------------------------------------------------
 * "P5" (grey) or "P6" (RGB), width, height, maxval (1..65535), each a
 * decimal after whitespace and "#" comments; one whitespace character; then
 * the samples, one byte each when maxval < 256, else two, most significant
 * first. Samples are scaled to 0..255 (scaled: whole values when maxval is
 * 255, every level of a 16-bit file kept); a sample over maxval counts as
 * maxval. */

static const unsigned char *pnm_number(const unsigned char *p, const unsigned char *end, long *v)
{
    long x = 0;
    for (;;) {
        while (p < end && is_space(*p))
            ++p;
        if (p < end && *p == '#') {
            while (p < end && *p != '\n' && *p != '\r')
                ++p;
            continue;
        }
        break;
    }
    if (p >= end || *p < '0' || *p > '9')
        return NULL;
    while (p < end && *p >= '0' && *p <= '9') {
        x = x * 10 + (*p++ - '0');
        if (x > INT_MAX)
            return NULL;
    }
    *v = x;
    return p;
}

static bool load_pnm(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out)
{
    const unsigned char *p = data + 2, *end = data + size;
    int channels = data[1] == '5' ? 1 : 3, wide;
    long w, h, maxval;
    size_t need, n;

    if (!(p = pnm_number(p, end, &w)) || !(p = pnm_number(p, end, &h)) || !(p = pnm_number(p, end, &maxval)))
        return err_set("'%s' has a broken PGM/PPM header (expected P5 or P6, width, height, maxval)", name);
    if (maxval < 1 || maxval > 65535)
        return err_set("'%s' has a maxval of %ld; PGM/PPM allows 1 to 65535", name, maxval);
    if (!img_check_limits(name, w, h, lim))
        return false;
    if (p >= end || !is_space(*p))
        return err_set("'%s' is truncated: the PGM/PPM header has no pixel data after it", name);
    ++p;
    wide = maxval > 255;
    n = (size_t)w * (size_t)h;
    need = n * (size_t)channels * (wide ? 2 : 1);
    if ((size_t)(end - p) < need)
        return err_set("'%s' is truncated: a %ldx%ld %d-bit %s needs %zu bytes of pixels, the file has %zu", name, w, h,
                       wide ? 16 : 8, channels == 1 ? "PGM" : "PPM", need, (size_t)(end - p));
    if (!img_alloc(out, (int)w, (int)h))
        return false;
    for (size_t i = 0; i < n; ++i) {
        float v[3];
        uint8_t *c = out->color.px + 4 * i;
        for (int k = 0; k < channels; ++k) {
            size_t at = i * (size_t)channels + (size_t)k;
            long s = wide ? (long)p[2 * at] << 8 | p[2 * at + 1] : p[at];
            if (s > maxval)
                s = maxval;
            v[k] = scaled(s, maxval);
        }
        if (channels == 1)
            v[1] = v[2] = v[0];
        out->luma.px[i] = luma3(v[0], v[1], v[2]);
        c[0] = byte_of(v[0]);
        c[1] = byte_of(v[1]);
        c[2] = byte_of(v[2]);
        c[3] = 255;
    }
    out->bits = bits_for(maxval);
    return true;
}

/* ---- stb_image: PNG, JPEG, BMP, TGA ------------------------------------------------- */

/* Zeroes the stack below the caller's frame, so that what stb_image reads of
 * its own uninitialised locals (its BMP palette past a short one) is zeros,
 * not what earlier calls left there. */
static void __attribute__((noinline)) scrub_stack(void)
{
    unsigned char pad[256 * 1024];
    explicit_bzero(pad, sizeof pad); /* a memset the compiler may not drop as a dead store */
}

/* stb_image reads a BMP's palette into a local array of 256 entries and
 * indexes it with each pixel: entries past a short palette hold whatever
 * the stack held. For a file whose palette is shorter than its 2^bits
 * entries, a copy with the palette padded with zeros (black), so those
 * pixels are black. NULL when the file needs none (or is not such a BMP);
 * the positions follow stb_image 2.27's reading of the header. *refuse is
 * set for a paletted BMP whose pixels start inside its header: stb would
 * read no palette at all and index only the stack. */
static unsigned char *bmp_full_palette(const unsigned char *d, size_t n, size_t *padded_n, bool *refuse)
{
    size_t hsz, offset, start, entry, have, full, pad;
    unsigned bits;
    unsigned char *c;

    if (n < 34)
        return NULL;
    hsz = (size_t)le32(d + 14);
    offset = (size_t)le32(d + 10);
    if (hsz == 12) {
        bits = d[24] | d[25] << 8;
        entry = 3;
        start = 14 + 24;
    } else if (hsz >= 40) {
        bits = d[28] | d[29] << 8;
        entry = 4;
        start = 14 + hsz + (hsz == 40 && le32(d + 30) == 3 ? 12 : 0);
    } else {
        return NULL;
    }
    *refuse = bits >= 1 && bits <= 8 && (offset < start || offset > n);
    if (bits < 1 || bits > 8 || offset < start || offset > n)
        return NULL;
    have = (offset - start) / entry;
    full = (size_t)1 << bits;
    if (have >= full)
        return NULL;
    pad = (full - have) * entry;
    c = calloc(1, n + pad);
    if (!c)
        return NULL;
    memcpy(c, d, offset);
    memcpy(c + offset + pad, d + offset, n - offset);
    offset += pad;
    c[10] = (unsigned char)offset;
    c[11] = (unsigned char)(offset >> 8);
    c[12] = (unsigned char)(offset >> 16);
    c[13] = (unsigned char)(offset >> 24);
    *padded_n = n + pad;
    return c;
}

/* A PNG's chunks, walked before stb_image reads them: one that claims more
 * bytes than the file has left is refused here (stb would first grow a
 * buffer to the size claimed, up to a gigabyte). */
static bool png_chunks_fit(const char *name, const unsigned char *d, size_t n)
{
    size_t at = 8;
    while (at + 8 <= n) { /* a chunk's length and type are there: stb reads on */
        unsigned long long len = be32(d + at);
        if (at + 12 > n || len > n - at - 12)
            return err_set("'%s' is damaged or truncated: a PNG chunk claims %llu bytes, the file has %zu left", name,
                           len, n - at - 8);
        if (memcmp(d + at + 4, "IEND", 4) == 0)
            break;
        at += 12 + (size_t)len;
    }
    return true;
}

/* CRC-32 (ISO 3309, as PNG chunks carry it), bit by bit: a palette's worth. */
static unsigned long crc32_of(const unsigned char *p, size_t n)
{
    unsigned long c = 0xffffffffUL;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = c & 1 ? 0xedb88320UL ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffUL;
}

/* The same for PNG: stb_image reads PLTE into a local array of 256 entries
 * and indexes it with each pixel. A copy with a short PLTE chunk padded to
 * 256 black entries (its CRC made again), or NULL when there is no short
 * PLTE. Chunks were checked to fit the file (png_chunks_fit). */
static unsigned char *png_full_palette(const unsigned char *d, size_t n, size_t *padded_n)
{
    size_t at = 8;
    while (at + 12 <= n) {
        size_t len = (size_t)be32(d + at);
        if (len > n - at - 12)
            return NULL;
        if (memcmp(d + at + 4, "PLTE", 4) == 0) {
            size_t pad = len < 768 ? 768 - len : 0;
            unsigned char *c;
            uint32_t crc;
            if (pad == 0)
                return NULL;
            c = calloc(1, n + pad);
            if (!c)
                return NULL;
            memcpy(c, d, at + 8 + len);                                                  /* up to the entries' end */
            memcpy(c + at + 8 + len + pad + 4, d + at + 8 + len + 4, n - at - 12 - len); /* after the CRC */
            c[at] = 0;
            c[at + 1] = 0;
            c[at + 2] = 3;
            c[at + 3] = 0; /* 768 */
            crc = (uint32_t)crc32_of(c + at + 4, 4 + 768);
            c[at + 8 + 768] = (unsigned char)(crc >> 24);
            c[at + 8 + 769] = (unsigned char)(crc >> 16);
            c[at + 8 + 770] = (unsigned char)(crc >> 8);
            c[at + 8 + 771] = (unsigned char)crc;
            *padded_n = n + pad;
            return c;
        }
        if (memcmp(d + at + 4, "IDAT", 4) == 0 || memcmp(d + at + 4, "IEND", 4) == 0)
            return NULL;
        at += 12 + len;
    }
    return NULL;
}

/* The widest channel of a BMP with bit fields (compression 3), in bits,
 * read where stb_image 2.27 reads its masks (after a 40-byte header, after
 * 16 bytes more for a 56-byte one, inside a V4 or V5 header, which holds an
 * alpha mask too); 8 for any other BMP. stb reads channels of 8 bits at
 * most: a wider one it calls corrupt. */
static int bmp_channel_bits(const unsigned char *d, size_t n)
{
    size_t hsz, at;
    int widest = 8, masks;
    if (n < 34)
        return 8;
    hsz = (size_t)le32(d + 14);
    if ((hsz != 40 && hsz != 56 && hsz != 108 && hsz != 124) || le32(d + 30) != 3)
        return 8;
    at = hsz == 56 ? 70 : 54;
    masks = hsz >= 108 ? 4 : 3;
    if (n < at + 4 * (size_t)masks)
        return 8;
    for (int k = 0; k < masks; ++k) {
        int bits = __builtin_popcountll(le32(d + at + 4 * (size_t)k));
        widest = bits > widest ? bits : widest;
    }
    return widest;
}

/* stb_image's 8-bit pixels (RGBA) become the image: its buffer is the colour
 * image as it is (its allocator is calloc, so img_free's free() releases
 * it), no copy of a big image; the luma plane from it. */
static bool adopt_8bit(unsigned char *px, int w, int h, img_image *out)
{
    size_t n = (size_t)w * (size_t)h;
    memset(out, 0, sizeof *out);
    if (!img_plane_alloc(&out->luma, w, h)) {
        stbi_image_free(px);
        return false;
    }
    out->color = (img_rgba){w, h, px};
    for (size_t i = 0; i < n; ++i)
        out->luma.px[i] = luma_of(px + 4 * i);
    out->bits = 8;
    return true;
}

/* stb_image's 16-bit pixels (RGBA, 16 bits a channel) become the image: the
 * luma plane from every level (scaled), the colours rounded to 8 bits for
 * display; stb's buffer freed. */
static bool adopt_16bit(stbi_us *px, int w, int h, img_image *out)
{
    size_t n = (size_t)w * (size_t)h;
    if (!img_alloc(out, w, h)) {
        stbi_image_free(px);
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        const stbi_us *p = px + 4 * i;
        float r = scaled(p[0], 65535), g = scaled(p[1], 65535), b = scaled(p[2], 65535);
        uint8_t *c = out->color.px + 4 * i;
        out->luma.px[i] = luma3(r, g, b);
        c[0] = byte_of(r);
        c[1] = byte_of(g);
        c[2] = byte_of(b);
        c[3] = byte_of(scaled(p[3], 65535));
    }
    stbi_image_free(px);
    out->bits = 16;
    return true;
}

/* stb_image on the file of w x h pixels (its header says), or on a copy
 * with its palette padded (BMP, PNG: see bmp_full_palette,
 * png_full_palette); a 16-bit PNG through stb's 16-bit path, every level
 * kept. That path sizes its RGBA buffer in 32 bits unchecked (stb_image
 * 2.27's stbi__convert_format16): more than INT_MAX bytes of it is refused
 * here first. */
static bool decode_stb(img_format f, const char *name, const unsigned char *data, size_t size, int w, int h,
                       img_image *out)
{
    int comp;
    size_t padded_n = 0;
    unsigned char *padded = NULL, *px = NULL;
    stbi_us *px16 = NULL;
    bool refuse = false, deep;

    if (f == IMG_FORMAT_BMP) {
        padded = bmp_full_palette(data, size, &padded_n, &refuse);
        if (refuse)
            return err_set("'%s' is a damaged BMP: its pixels start inside its header, where its palette should "
                           "be",
                           name);
        if (bmp_channel_bits(data, size) > 8) {
            free(padded);
            return err_set("'%s' is a BMP with %d-bit channels; convis reads BMP channels of 8 bits at most: save it "
                           "as a 16-bit PNG to keep its levels",
                           name, bmp_channel_bits(data, size));
        }
    } else if (f == IMG_FORMAT_PNG) {
        padded = png_full_palette(data, size, &padded_n);
    }
    if (padded && padded_n <= INT_MAX) {
        data = padded;
        size = padded_n;
    }
    deep = f == IMG_FORMAT_PNG && stbi_is_16_bit_from_memory(data, (int)size);
    if (deep && (unsigned long long)w * (unsigned long long)h * 8ULL > (unsigned long long)INT_MAX) {
        free(padded);
        return err_set("'%s' is a 16-bit PNG of %dx%d pixels, too large for its decoder (at most %d pixels)", name, w,
                       h, INT_MAX / 8);
    }
    scrub_stack();
    if (deep)
        px16 = stbi_load_16_from_memory(data, (int)size, &w, &h, &comp, 4);
    else
        px = stbi_load_from_memory(data, (int)size, &w, &h, &comp, 4);
    free(padded);
    if (!px && !px16) {
        const char *why = stbi_failure_reason();
        /* stb tries each format in turn: "Not a PNG" says nothing of a JPEG */
        bool said = why && strncmp(why, "Not a", 5) != 0;
        return err_set("'%s' could not be decoded as %s%s%s%s; the file may be truncated or damaged", name,
                       img_format_name(f), said ? " (" : "", said ? why : "", said ? ")" : "");
    }
    return px16 ? adopt_16bit(px16, w, h, out) : adopt_8bit(px, w, h, out);
}

static bool load_stb(img_format f, const char *name, const unsigned char *data, size_t size, const img_limits *lim,
                     img_image *out)
{
    int w, h, comp;
    long long hw, hh;

    if (img_header_size(data, size, &hw, &hh) && !img_check_limits(name, hw, hh, lim))
        return false;
    if (f == IMG_FORMAT_PNG && !png_chunks_fit(name, data, size))
        return false;
    if (size > INT_MAX)
        return err_set("'%s' is too large for the image decoder", name);
    if (!stbi_info_from_memory(data, (int)size, &w, &h, &comp))
        return err_set("'%s' is not an image convis can read (%s); give a %s image", name, stbi_failure_reason(),
                       img_accepted());
    if (!img_check_limits(name, w, h, lim))
        return false;
    return decode_stb(f, name, data, size, w, h, out);
}

bool img_decode(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out)
{
    img_format f = img_identify(data, size < 64 ? size : 64);
    memset(out, 0, sizeof *out);
    switch (f) {
    case IMG_FORMAT_PFM: return load_pfm(name, data, size, lim, out);
    case IMG_FORMAT_PNM: return load_pnm(name, data, size, lim, out);
    case IMG_FORMAT_UNKNOWN:
        return err_set("'%s' is not an image convis can read: its first bytes are not those of a %s file", name,
                       img_accepted());
    default: return load_stb(f, name, data, size, lim, out);
    }
}

/* A JPEG's size, from its first start-of-frame segment (SOF0..SOF15 but
 * DHT, JPG and DAC), walking the segments before it. */
static bool jpeg_size(const unsigned char *d, size_t n, long long *w, long long *h)
{
    size_t at = 2;
    while (at + 4 <= n) {
        unsigned marker;
        size_t len;
        if (d[at] != 0xff)
            return false;
        marker = d[at + 1];
        if (marker == 0xff) { /* fill byte */
            ++at;
            continue;
        }
        if (marker == 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01) { /* no length */
            at += 2;
            continue;
        }
        len = (size_t)d[at + 2] << 8 | d[at + 3];
        if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc) {
            if (at + 9 > n || len < 7)
                return false;
            *h = d[at + 5] << 8 | d[at + 6];
            *w = d[at + 7] << 8 | d[at + 8];
            return true;
        }
        if (marker == 0xd9 || marker == 0xda || len < 2) /* the end, or the scan, before any frame */
            return false;
        at += 2 + len;
    }
    return false;
}

bool img_header_size(const unsigned char *d, size_t n, long long *w, long long *h)
{
    img_format f = img_identify(d, n < 64 ? n : 64);
    long v[2];
    int iw, ih;
    const unsigned char *p, *end = d + n;
    char tok[32];

    if (f == IMG_FORMAT_JPEG)
        return jpeg_size(d, n, w, h);
    if (f == IMG_FORMAT_PNM) {
        if (!(p = pnm_number(d + 2, end, &v[0])) || !(p = pnm_number(p, end, &v[1])))
            return false;
        *w = v[0];
        *h = v[1];
        return true;
    }
    if (f == IMG_FORMAT_PFM) {
        if (!(p = pfm_token(d + 2, end, tok, sizeof tok)) || !parse_int(tok, &iw) ||
            !(p = pfm_token(p, end, tok, sizeof tok)) || !parse_int(tok, &ih))
            return false;
        *w = iw;
        *h = ih;
        return true;
    }
    return header_size(f, d, n, w, h);
}
