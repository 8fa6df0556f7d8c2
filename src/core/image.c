#define _POSIX_C_SOURCE 200809L
#include "image.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "stb_config.h"

#define ACCEPTED "PNG, JPEG, BMP, TGA, PNM/PGM or PFM"

img_limits img_default_limits(void)
{
    img_limits l = {IMG_DEFAULT_MAX_SIDE, IMG_DEFAULT_MAX_PIXELS};
    return l;
}

bool img_plane_alloc(img_plane *p, int w, int h)
{
    p->w = p->h = 0;
    p->px = NULL;
    if (w <= 0 || h <= 0)
        return err_set("an image must be at least 1x1 pixels, not %dx%d", w, h);
    p->px = malloc((size_t)w * (size_t)h * sizeof *p->px);
    if (!p->px)
        return err_set("out of memory for a %dx%d image", w, h);
    p->w = w;
    p->h = h;
    return true;
}

void img_plane_free(img_plane *p)
{
    free(p->px);
    p->px = NULL;
    p->w = p->h = 0;
}

void img_free(img_image *img)
{
    img_plane_free(&img->luma);
    free(img->color.px);
    img->color.px = NULL;
    img->color.w = img->color.h = 0;
}

/* ---- display mapping ---------------------------------------------------- */

static const char *const display_names[IMG_DISPLAY_COUNT] = {"clamp", "abs", "signed"};

const char *img_display_name(img_display d)
{
    return (unsigned)d < IMG_DISPLAY_COUNT ? display_names[d] : "?";
}

bool img_display_parse(const char *text, img_display *out)
{
    for (int d = 0; d < IMG_DISPLAY_COUNT; ++d) {
        if (strcasecmp(text, display_names[d]) == 0) {
            *out = (img_display)d;
            return true;
        }
    }
    return err_set("display '%s' is not known; use clamp, abs or signed", text);
}

uint8_t img_display_byte(float v, img_display d)
{
    float g;
    if (v != v) /* NaN shows as black */
        return 0;
    switch (d) {
    case IMG_DISPLAY_ABS:
        g = fabsf(v);
        break;
    case IMG_DISPLAY_SIGNED:
        g = 127.5f + 0.5f * v;
        break;
    default:
        g = v;
        break;
    }
    if (g <= 0.0f)
        return 0;
    if (g >= 255.0f)
        return 255;
    return (uint8_t)(g + 0.5f);
}

/* ---- loading ------------------------------------------------------------ */

/* Reads a whole regular file into memory, refusing what is not one. */
static bool read_file(const char *path, unsigned char **data, size_t *size)
{
    struct stat st;
    FILE *f;
    unsigned char *buf;

    if (stat(path, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return err_set("cannot open '%s': no such file; give the path of a %s image", path, ACCEPTED);
        if (errno == EACCES)
            return err_set("cannot open '%s': permission denied; give a %s image you can read", path, ACCEPTED);
        return err_set("cannot open '%s': %s", path, strerror(errno));
    }
    if (S_ISDIR(st.st_mode))
        return err_set("'%s' is a directory, not an image file; give a %s image", path, ACCEPTED);
    if (!S_ISREG(st.st_mode))
        return err_set("'%s' is not a regular file; give a %s image file", path, ACCEPTED);
    if (st.st_size == 0)
        return err_set("'%s' is empty (0 bytes); give a %s image", path, ACCEPTED);
    if ((long long)st.st_size > IMG_MAX_FILE_BYTES)
        return err_set("'%s' is %lld bytes, larger than the %lld bytes convis reads", path,
                       (long long)st.st_size, (long long)IMG_MAX_FILE_BYTES);

    f = fopen(path, "rb");
    if (!f) {
        if (errno == EACCES)
            return err_set("cannot open '%s': permission denied; give a %s image you can read", path, ACCEPTED);
        return err_set("cannot open '%s': %s", path, strerror(errno));
    }
    buf = malloc((size_t)st.st_size);
    if (!buf) {
        fclose(f);
        return err_set("out of memory reading '%s' (%lld bytes)", path, (long long)st.st_size);
    }
    if (fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
        int e = errno;
        free(buf);
        fclose(f);
        return err_set("cannot read '%s': %s", path, e ? strerror(e) : "the file changed while it was read");
    }
    fclose(f);
    *data = buf;
    *size = (size_t)st.st_size;
    return true;
}

static bool check_limits(const char *path, int w, int h, const img_limits *lim)
{
    if (w <= 0 || h <= 0)
        return err_set("'%s' claims a size of %dx%d pixels, which is not an image", path, w, h);
    if (w > lim->max_side || h > lim->max_side || (long long)w * h > lim->max_pixels)
        return err_set("'%s' is %dx%d pixels, over the limit of %d pixels a side and %lld pixels "
                       "in all (--max-side and --max-pixels raise it)",
                       path, w, h, lim->max_side, lim->max_pixels);
    return true;
}

static bool alloc_image(img_image *out, int w, int h)
{
    memset(out, 0, sizeof *out);
    if (!img_plane_alloc(&out->luma, w, h))
        return false;
    out->color.px = malloc((size_t)w * (size_t)h * 4);
    if (!out->color.px) {
        img_plane_free(&out->luma);
        return err_set("out of memory for a %dx%d image", w, h);
    }
    out->color.w = w;
    out->color.h = h;
    return true;
}

static float luma_of(const uint8_t *rgb)
{
    if (rgb[0] == rgb[1] && rgb[1] == rgb[2])
        return (float)rgb[0];
    return 0.299f * rgb[0] + 0.587f * rgb[1] + 0.114f * rgb[2];
}

static void color_from_luma(img_image *img)
{
    size_t n = (size_t)img->luma.w * (size_t)img->luma.h;
    for (size_t i = 0; i < n; ++i) {
        uint8_t g = img_display_byte(img->luma.px[i], IMG_DISPLAY_CLAMP);
        img->color.px[4 * i + 0] = g;
        img->color.px[4 * i + 1] = g;
        img->color.px[4 * i + 2] = g;
        img->color.px[4 * i + 3] = 255;
    }
}

/* Skips whitespace, then reads one token of at most size-1 characters. */
static const char *pfm_token(const char *p, const char *end, char *tok, size_t size)
{
    size_t n = 0;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        ++p;
    while (p < end && !(*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') && n + 1 < size)
        tok[n++] = *p++;
    tok[n] = '\0';
    return n ? p : NULL;
}

static bool parse_int(const char *s, int *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || end == s || v <= 0 || v > INT_MAX)
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
 * endian), then rows of floats from the bottom row up. */
static bool load_pfm(const char *path, const unsigned char *data, size_t size,
                     const img_limits *lim, img_image *out)
{
    const char *p = (const char *)data, *end = p + size;
    char tok[32];
    int w, h, channels;
    double scale;
    char *scale_end;
    size_t need;

    channels = data[1] == 'f' ? 1 : 3;
    p += 2;
    if (!(p = pfm_token(p, end, tok, sizeof tok)) || !parse_int(tok, &w) ||
        !(p = pfm_token(p, end, tok, sizeof tok)) || !parse_int(tok, &h))
        return err_set("'%s' has a broken PFM header (expected \"Pf\" or \"PF\", width, height, scale)", path);
    if (!check_limits(path, w, h, lim))
        return false;
    if (!(p = pfm_token(p, end, tok, sizeof tok)))
        return err_set("'%s' has a broken PFM header: the scale is missing", path);
    scale = strtod(tok, &scale_end);
    if (*scale_end || scale == 0.0 || !isfinite(scale))
        return err_set("'%s' has a broken PFM header: the scale '%s' is not a non-zero number", path, tok);
    if (p >= end)
        return err_set("'%s' is truncated: the PFM header has no pixel data after it", path);
    ++p; /* the single whitespace character that ends the header */
    need = (size_t)w * (size_t)h * (size_t)channels * 4;
    if ((size_t)(end - p) < need)
        return err_set("'%s' is truncated: a %dx%d PFM needs %zu bytes of pixels, the file has %zu",
                       path, w, h, need, (size_t)(end - p));
    if (!alloc_image(out, w, h))
        return false;
    for (int y = 0; y < h; ++y) {
        const unsigned char *row = (const unsigned char *)p + (size_t)(h - 1 - y) * (size_t)w * channels * 4;
        for (int x = 0; x < w; ++x) {
            float v;
            if (channels == 1) {
                v = pfm_float(row + 4 * (size_t)x, scale < 0);
            } else {
                const unsigned char *c = row + 12 * (size_t)x;
                v = 0.299f * pfm_float(c, scale < 0) + 0.587f * pfm_float(c + 4, scale < 0) +
                    0.114f * pfm_float(c + 8, scale < 0);
            }
            out->luma.px[(size_t)y * w + x] = v;
        }
    }
    color_from_luma(out);
    return true;
}

static bool load_stb(const char *path, const unsigned char *data, size_t size,
                     const img_limits *lim, img_image *out)
{
    int w, h, comp;
    unsigned char *px;
    size_t n;

    if (size > INT_MAX)
        return err_set("'%s' is too large for the image decoder", path);
    if (!stbi_info_from_memory(data, (int)size, &w, &h, &comp))
        return err_set("'%s' is not an image convis can read (%s); give a %s image", path,
                       stbi_failure_reason(), ACCEPTED);
    if (!check_limits(path, w, h, lim))
        return false;
    px = stbi_load_from_memory(data, (int)size, &w, &h, &comp, 4);
    if (!px)
        return err_set("'%s' could not be decoded (%s); the file may be truncated or damaged", path,
                       stbi_failure_reason());
    /* stb's buffer becomes the colour image as it is (stb allocates with
     * malloc, so img_free's free() releases it): no copy of a big image */
    memset(out, 0, sizeof *out);
    if (!img_plane_alloc(&out->luma, w, h)) {
        stbi_image_free(px);
        return false;
    }
    out->color = (img_rgba){w, h, px};
    n = (size_t)w * (size_t)h;
    for (size_t i = 0; i < n; ++i)
        out->luma.px[i] = luma_of(px + 4 * i);
    return true;
}

bool img_load(const char *path, const img_limits *limits, img_image *out)
{
    unsigned char *data = NULL;
    size_t size = 0;
    img_limits def = img_default_limits();
    bool ok;

    memset(out, 0, sizeof *out);
    if (!limits)
        limits = &def;
    if (!read_file(path, &data, &size))
        return false;
    if (size >= 2 && data[0] == 'P' && (data[1] == 'f' || data[1] == 'F'))
        ok = load_pfm(path, data, size, limits, out);
    else
        ok = load_stb(path, data, size, limits, out);
    free(data);
    return ok;
}

bool img_from_plane(const img_plane *plane, img_image *out)
{
    if (!alloc_image(out, plane->w, plane->h))
        return false;
    memcpy(out->luma.px, plane->px, (size_t)plane->w * (size_t)plane->h * sizeof *plane->px);
    color_from_luma(out);
    return true;
}

/* ---- writing ------------------------------------------------------------ */

typedef enum { OUT_PNG, OUT_PFM } out_format;

static bool output_format(const char *path, out_format *fmt)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash)) {
        if (strcasecmp(dot, ".png") == 0) {
            *fmt = OUT_PNG;
            return true;
        }
        if (strcasecmp(dot, ".pfm") == 0) {
            *fmt = OUT_PFM;
            return true;
        }
    }
    return err_set("output '%s' has no known extension; convis writes .png (for display) or .pfm (exact values)",
                   path);
}

bool img_output_name_ok(const char *path)
{
    out_format fmt;
    return output_format(path, &fmt);
}

static void stb_to_file(void *ctx, void *data, int size)
{
    /* A short write sets the stream's error flag, which the caller checks. */
    fwrite(data, 1, (size_t)size, (FILE *)ctx);
}

static bool write_png(FILE *f, const img_plane *plane, img_display display)
{
    size_t n = (size_t)plane->w * (size_t)plane->h;
    uint8_t *grey = malloc(n);
    int ok;
    if (!grey)
        return err_set("out of memory converting a %dx%d result to PNG", plane->w, plane->h);
    for (size_t i = 0; i < n; ++i)
        grey[i] = img_display_byte(plane->px[i], display);
    ok = stbi_write_png_to_func(stb_to_file, f, plane->w, plane->h, 1, grey, plane->w);
    free(grey);
    return ok ? true : err_set("the PNG encoder failed");
}

static bool write_pfm(FILE *f, const img_plane *plane)
{
    unsigned char *row = malloc((size_t)plane->w * 4);
    if (!row)
        return err_set("out of memory writing a %dx%d PFM", plane->w, plane->h);
    fprintf(f, "Pf\n%d %d\n-1.0\n", plane->w, plane->h);
    for (int y = plane->h - 1; y >= 0; --y) {
        const float *src = plane->px + (size_t)y * plane->w;
        for (int x = 0; x < plane->w; ++x) {
            uint32_t u;
            memcpy(&u, &src[x], sizeof u);
            row[4 * x + 0] = (unsigned char)(u);
            row[4 * x + 1] = (unsigned char)(u >> 8);
            row[4 * x + 2] = (unsigned char)(u >> 16);
            row[4 * x + 3] = (unsigned char)(u >> 24);
        }
        fwrite(row, 4, (size_t)plane->w, f);
    }
    free(row);
    return true;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

typedef bool (*write_fn)(FILE *f, const void *ctx);

/* Writes through `fn` to a temporary file beside `path`, then renames it into
 * place; on any failure the temporary file is removed and `path` untouched.
 * With `exclusive`, the file is linked into place instead, which fails when
 * `path` exists: nothing is ever replaced. */
static bool write_atomically(const char *path, write_fn fn, const void *ctx, bool exclusive)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    int fd;
    FILE *f;
    bool ok;
    mode_t mask;

    if (!tmp)
        return err_set("out of memory");
    snprintf(tmp, len + 16, "%s.tmp-XXXXXX", path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return err_set("cannot write '%s': %s", path, strerror(e));
    }
    /* mkstemp makes the file 0600; give it the mode a new file gets. */
    mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        return err_set("cannot write '%s': %s", path, strerror(e));
    }
    ok = fn(f, ctx);
    if (ok && (fflush(f) != 0 || ferror(f)))
        ok = err_set("cannot write '%s': %s", path, strerror(errno));
    if (fclose(f) != 0 && ok)
        ok = err_set("cannot write '%s': %s", path, strerror(errno));
    if (ok && exclusive) {
        if (link(tmp, path) != 0)
            ok = errno == EEXIST ? err_set("'%s' already exists; convis does not overwrite it", path)
                                 : err_set("cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
    } else if (ok && rename(tmp, path) != 0) {
        ok = err_set("cannot write '%s': %s", path, strerror(errno));
    }
    if (!ok)
        unlink(tmp);
    free(tmp);
    return ok;
}

typedef struct plane_ctx {
    const img_plane *plane;
    img_display display;
} plane_ctx;

static bool write_png_plane(FILE *f, const void *ctx)
{
    const plane_ctx *c = ctx;
    return write_png(f, c->plane, c->display);
}

static bool write_pfm_plane(FILE *f, const void *ctx)
{
    const plane_ctx *c = ctx;
    return write_pfm(f, c->plane);
}

bool img_write(const char *path, const img_plane *plane, img_display display,
               const char *input_path)
{
    out_format fmt = OUT_PNG;
    struct stat st;
    plane_ctx ctx = {plane, display};

    if (!output_format(path, &fmt))
        return false;
    if (input_path && (strcmp(path, input_path) == 0 || same_file(path, input_path)))
        return err_set("output '%s' is the input file; convis never overwrites its input, give another name",
                       path);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return err_set("output '%s' is a directory; give a file name ending in .png or .pfm", path);
    return write_atomically(path, fmt == OUT_PNG ? write_png_plane : write_pfm_plane, &ctx, false);
}

static bool write_rgba(FILE *f, const void *ctx)
{
    const img_rgba *img = ctx;
    size_t n = (size_t)img->w * (size_t)img->h;
    uint8_t *rgb = malloc(n * 3);
    int ok;
    if (!rgb)
        return err_set("out of memory converting a %dx%d picture to PNG", img->w, img->h);
    for (size_t i = 0; i < n; ++i)
        memcpy(rgb + 3 * i, img->px + 4 * i, 3);
    ok = stbi_write_png_to_func(stb_to_file, f, img->w, img->h, 3, rgb, img->w * 3);
    free(rgb);
    return ok ? true : err_set("the PNG encoder failed");
}

bool img_write_rgba_png(const char *path, const img_rgba *img, bool no_overwrite)
{
    return write_atomically(path, write_rgba, img, no_overwrite);
}
