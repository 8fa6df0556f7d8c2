#define _POSIX_C_SOURCE 200809L
#include "image.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode.h"
#include "err.h"
#include "tr.h"
#include "sandbox.h"
#include "stb_config.h"

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
        return err_set_kind(ERR_ENV, "out of memory for a %dx%d image", w, h);
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

bool img_plane_scaled(const img_plane *src, int w, int h, img_plane *out)
{
    if (!img_plane_alloc(out, w, h))
        return false;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            out->px[(long)y * w + x] = src->px[(long)((long)y * src->h / h) * src->w + (long)x * src->w / w];
    return true;
}

void img_free(img_image *img)
{
    img_plane_free(&img->luma);
    free(img->color.px);
    img->color.px = NULL;
    img->color.w = img->color.h = 0;
    img->bits = 0;
}

/* ---- display mapping ---------------------------------------------------- */

static const char *const display_names[IMG_DISPLAY_COUNT] = {NC_("display", "clamp"), NC_("display", "abs"),
                                                             NC_("display", "signed")};

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
    case IMG_DISPLAY_ABS: g = fabsf(v); break;
    case IMG_DISPLAY_SIGNED: g = 127.5f + 0.5f * v; break;
    default: g = v; break;
    }
    if (g <= 0.0f)
        return 0;
    if (g >= 255.0f)
        return 255;
    return (uint8_t)(g + 0.5f);
}

/* ---- loading ------------------------------------------------------------
 * The file is opened without blocking (a FIFO or a device would block) and
 * refused unless it is a regular file of a size convis reads; its first
 * bytes name its format before the rest is read; then it is decoded in a
 * sandboxed child (sandbox.h). */

static bool open_error(const char *path, int e)
{
    if (e == ENOENT || e == ENOTDIR)
        return err_set("cannot open '%s': no such file; give the path of a %s image", path, img_accepted());
    if (e == EACCES)
        return err_set("cannot open '%s': permission denied; give a %s image you can read", path, img_accepted());
    if (e == ELOOP)
        return err_set("cannot open '%s': it is a symbolic link that leads round in a loop", path);
    return err_set("cannot open '%s': %s", path, strerror(e));
}

/* Reads up to `n` bytes; the count read, or -1 with errno. */
static ssize_t read_some(int fd, unsigned char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, buf + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (ssize_t)got;
}

/* Reads the image file `path` into memory: a regular file, of at most
 * IMG_MAX_FILE_BYTES, whose first bytes are those of a format convis reads. */
static bool read_image_file(const char *path, unsigned char **data, size_t *size)
{
    unsigned char head[64], *buf;
    struct stat st;
    ssize_t got, rest;
    size_t want;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

    if (fd < 0)
        return open_error(path, errno);
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return open_error(path, e);
    }
    if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode))
            return err_set("'%s' is a directory, not an image file; give a %s image", path, img_accepted());
        return err_set("'%s' is not a regular file (a pipe, a device or a socket); give a %s image file", path,
                       img_accepted());
    }
    if (st.st_size == 0) {
        close(fd);
        return err_set("'%s' is empty (0 bytes); give a %s image", path, img_accepted());
    }
    if ((long long)st.st_size > IMG_MAX_FILE_BYTES) {
        close(fd);
        return err_set("'%s' is %lld bytes, larger than the %lld bytes convis reads", path, (long long)st.st_size,
                       (long long)IMG_MAX_FILE_BYTES);
    }
    got = read_some(fd, head, sizeof head);
    if (got < 0) {
        int e = errno;
        close(fd);
        return err_set("cannot read '%s': %s", path, strerror(e));
    }
    if (img_identify(head, (size_t)got) == IMG_FORMAT_UNKNOWN) {
        close(fd);
        if (got >= 2 && head[0] == 'P' && head[1] >= '1' && head[1] <= '4')
            return err_set("'%s' is a text or one-bit PNM (P%c); convis reads binary PGM and PPM (P5, P6): convert "
                           "it first",
                           path, head[1]);
        return err_set("'%s' is not an image convis can read: its first bytes are not those of a %s file", path,
                       img_accepted());
    }
    /* the rest, up to the cap: a file that grew since fstat is read no further */
    want = (size_t)st.st_size;
    buf = malloc(want + 1);
    if (!buf) {
        close(fd);
        return err_set_kind(ERR_ENV, "out of memory reading '%s' (%lld bytes)", path, (long long)st.st_size);
    }
    memcpy(buf, head, (size_t)got);
    rest = (size_t)got < want ? read_some(fd, buf + got, want + 1 - (size_t)got) : 0;
    close(fd);
    if (rest < 0 || (size_t)got + (size_t)rest < want) {
        free(buf);
        return err_set("cannot read '%s': %s", path, rest < 0 ? strerror(errno) : "the file shrank while it was read");
    }
    if ((size_t)got + (size_t)rest > want && want + 1 > (size_t)IMG_MAX_FILE_BYTES) {
        free(buf);
        return err_set("'%s' grew past the %lld bytes convis reads while it was read", path,
                       (long long)IMG_MAX_FILE_BYTES);
    }
    *data = buf;
    *size = want; /* what fstat said: a byte the file gained meanwhile is not part of it */
    return true;
}

static bool load(const char *path, const img_limits *limits, bool color, img_image *out)
{
    unsigned char *data = NULL;
    size_t size = 0;
    img_limits def = img_default_limits();
    bool ok;

    memset(out, 0, sizeof *out);
    if (!limits)
        limits = &def;
    if (!read_image_file(path, &data, &size))
        return false;
    ok = color ? sbx_decode(path, data, size, limits, out) : sbx_decode_luma(path, data, size, limits, out);
    free(data);
    return ok;
}

bool img_load(const char *path, const img_limits *limits, img_image *out)
{
    return load(path, limits, true, out);
}

bool img_load_luma(const char *path, const img_limits *limits, img_image *out)
{
    return load(path, limits, false, out);
}

bool img_alloc(img_image *out, int w, int h)
{
    memset(out, 0, sizeof *out);
    if (!img_plane_alloc(&out->luma, w, h))
        return false;
    out->color.px = malloc((size_t)w * (size_t)h * 4);
    if (!out->color.px) {
        img_plane_free(&out->luma);
        return err_set_kind(ERR_ENV, "out of memory for a %dx%d image", w, h);
    }
    out->color.w = w;
    out->color.h = h;
    return true;
}

bool img_from_plane(const img_plane *plane, img_image *out)
{
    size_t n = (size_t)plane->w * (size_t)plane->h;
    if (!img_alloc(out, plane->w, plane->h))
        return false;
    memcpy(out->luma.px, plane->px, n * sizeof *plane->px);
    for (size_t i = 0; i < n; ++i) {
        memset(out->color.px + 4 * i, img_display_byte(plane->px[i], IMG_DISPLAY_CLAMP), 3);
        out->color.px[4 * i + 3] = 255;
    }
    return true;
}

bool img_copy(const img_image *img, img_image *out)
{
    size_t n = (size_t)img->luma.w * (size_t)img->luma.h;
    if (!img_alloc(out, img->luma.w, img->luma.h))
        return false;
    memcpy(out->luma.px, img->luma.px, n * sizeof *img->luma.px);
    memcpy(out->color.px, img->color.px, n * 4);
    out->bits = img->bits;
    return true;
}

/* ---- writing ------------------------------------------------------------ */

typedef enum { OUT_PNG, OUT_PFM } out_format;

/* The format the extension of `path` names; false for none. */
static bool format_named(const char *path, out_format *fmt)
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
    return false;
}

static bool output_format(const char *path, out_format *fmt)
{
    if (format_named(path, fmt))
        return true;
    return err_set("output '%s' has no known extension; convis writes .png (for display) or .pfm (exact values)", path);
}

bool img_output_name_ok(const char *path)
{
    out_format fmt;
    return output_format(path, &fmt);
}

int img_output_bits(const char *path)
{
    out_format fmt;
    if (!format_named(path, &fmt))
        return 0;
    return fmt == OUT_PNG ? 8 : 32;
}

static void stb_to_file(void *ctx, void *data, int size)
{
    /* A short write sets the stream's error flag, which the caller checks. */
    fwrite(data, 1, (size_t)size, (FILE *)ctx);
}

/* n planes (1: grey, 3: red, green, blue) of one size. */
static bool write_png(FILE *f, const img_plane *plane, int n, img_display display)
{
    size_t count = (size_t)plane->w * (size_t)plane->h;
    uint8_t *bytes = malloc(count * (size_t)n);
    int ok;
    if (!bytes)
        return err_set_kind(ERR_ENV, "out of memory converting a %dx%d result to PNG", plane->w, plane->h);
    for (size_t i = 0; i < count; ++i)
        for (int c = 0; c < n; ++c)
            bytes[i * (size_t)n + (size_t)c] = img_display_byte(plane[c].px[i], display);
    ok = stbi_write_png_to_func(stb_to_file, f, plane->w, plane->h, n, bytes, plane->w * n);
    free(bytes);
    return ok ? true : err_set("the PNG encoder failed");
}

/* "Pf" for one plane, "PF" for three (red, green, blue interleaved). */
static bool write_pfm(FILE *f, const img_plane *plane, int n)
{
    unsigned char *row = malloc((size_t)plane->w * 4 * (size_t)n);
    if (!row)
        return err_set_kind(ERR_ENV, "out of memory writing a %dx%d PFM", plane->w, plane->h);
    fprintf(f, "%s\n%d %d\n-1.0\n", n == 3 ? "PF" : "Pf", plane->w, plane->h);
    for (int y = plane->h - 1; y >= 0; --y) {
        for (int x = 0; x < plane->w; ++x)
            for (int c = 0; c < n; ++c) {
                uint32_t u;
                unsigned char *b = row + 4 * ((size_t)x * (size_t)n + (size_t)c);
                memcpy(&u, &plane[c].px[(size_t)y * plane->w + x], sizeof u);
                b[0] = (unsigned char)(u), b[1] = (unsigned char)(u >> 8);
                b[2] = (unsigned char)(u >> 16), b[3] = (unsigned char)(u >> 24);
            }
        fwrite(row, 4, (size_t)plane->w * (size_t)n, f);
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

/* The temporary file being written now, for img_remove_partial_write (a
 * signal handler): set while it exists. */
static char partial_path[4200];
static volatile sig_atomic_t partial_set;

void img_remove_partial_write(void)
{
    if (partial_set)
        unlink(partial_path);
}

/* img_write_file: writes through `fn` to a temporary file beside `path` (a short name in
 * the same folder, so a long file name still fits), then renames it into
 * place; on any failure the temporary file is removed and `path` untouched.
 * An existing `path` keeps its permissions (not set-user-ID and the like),
 * and one whose mode lets nobody write it is refused. It is replaced, not
 * written through: a hard link to it keeps the old contents, a symbolic
 * link at `path` becomes the file. With `exclusive`, the file is
 * linked into place instead, which fails when `path` exists: nothing is
 * ever replaced. */
int img_place_new(const char *from, const char *to)
{
    int fd;
    if (link(from, to) == 0)
        return 0;
    if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS && errno != EMLINK)
        return -1;
    fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600); /* the name, ours alone */
    if (fd < 0)
        return -1;
    close(fd);
    if (rename(from, to) != 0) {
        int e = errno;
        unlink(to);
        errno = e;
        return -1;
    }
    return 0;
}

bool img_write_file(const char *path, img_write_fn fn, const void *ctx, bool exclusive)
{
    const char *slash = strrchr(path, '/');
    struct stat st;
    bool exists = stat(path, &st) == 0;
    int fd;
    FILE *f;
    bool ok;
    mode_t mask;

    if (exists && !exclusive && S_ISREG(st.st_mode) && !(st.st_mode & 0222))
        return err_set("'%s' is read-only; convis does not replace it (give another name, or make it writable)", path);
    if (strlen(path) + 16 > sizeof partial_path)
        return err_set("cannot write '%s': the path is too long", path);
    partial_set = 0;
    snprintf(partial_path, sizeof partial_path, "%.*s.convis-XXXXXX", slash ? (int)(slash - path + 1) : 0, path);
    fd = mkstemp(partial_path);
    if (fd < 0)
        return err_set_kind(err_kind_of_errno(errno), "cannot write '%s': %s", path, strerror(errno));
    partial_set = 1;
    /* mkstemp makes the file 0600: give it the mode the file it replaces
     * has, or the mode a new file gets */
    mask = umask(0);
    umask(mask);
    fchmod(fd, exists && !exclusive && S_ISREG(st.st_mode) ? st.st_mode & 0777 : 0666 & ~mask);
    f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(partial_path);
        partial_set = 0;
        return err_set("cannot write '%s': %s", path, strerror(e));
    }
    errno = 0;
    ok = fn(f, ctx);
    if (ok && (fflush(f) != 0 || ferror(f)))
        ok = err_set_kind(err_kind_of_errno(errno), "cannot write '%s': %s", path, strerror(errno));
    if (fclose(f) != 0 && ok)
        ok = err_set_kind(err_kind_of_errno(errno), "cannot write '%s': %s", path, strerror(errno));
    if (ok && exclusive) {
        if (img_place_new(partial_path, path) != 0)
            ok = errno == EEXIST ? err_set_kind(ERR_EXISTS, "'%s' already exists; convis does not overwrite it", path)
                                 : err_set("cannot write '%s': %s", path, strerror(errno));
        unlink(partial_path);
    } else if (ok && rename(partial_path, path) != 0) {
        ok = err_set("cannot write '%s': %s", path, strerror(errno));
    }
    if (!ok)
        unlink(partial_path);
    partial_set = 0;
    return ok;
}

typedef struct plane_ctx {
    const img_plane *plane;
    int n;
    img_display display;
} plane_ctx;

static bool write_png_plane(FILE *f, const void *ctx)
{
    const plane_ctx *c = ctx;
    return write_png(f, c->plane, c->n, c->display);
}

static bool write_pfm_plane(FILE *f, const void *ctx)
{
    const plane_ctx *c = ctx;
    return write_pfm(f, c->plane, c->n);
}

bool img_write(const char *path, const img_plane *plane, img_display display, const char *input_path)
{
    return img_write_planes(path, plane, 1, display, input_path);
}

bool img_write_planes(const char *path, const img_plane *plane, int n, img_display display, const char *input_path)
{
    out_format fmt = OUT_PNG;
    struct stat st;
    plane_ctx ctx = {plane, n, display};

    if (!output_format(path, &fmt))
        return false;
    if (input_path && (strcmp(path, input_path) == 0 || same_file(path, input_path)))
        return err_set("output '%s' is the input file; convis never overwrites its input, give another name", path);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return err_set("output '%s' is a directory; give a file name ending in .png or .pfm", path);
    if (n != 1 && n != 3)
        return err_set("an image file holds 1 or 3 channels, not %d", n);
    for (int c = 1; c < n; ++c)
        if (plane[c].w != plane->w || plane[c].h != plane->h)
            return err_set("the channels written to '%s' differ in size", path);
    return img_write_file(path, fmt == OUT_PNG ? write_png_plane : write_pfm_plane, &ctx, false);
}

static bool write_rgba(FILE *f, const void *ctx)
{
    const img_rgba *img = ctx;
    size_t n = (size_t)img->w * (size_t)img->h;
    uint8_t *rgb = malloc(n * 3);
    int ok;
    if (!rgb)
        return err_set_kind(ERR_ENV, "out of memory converting a %dx%d picture to PNG", img->w, img->h);
    for (size_t i = 0; i < n; ++i)
        memcpy(rgb + 3 * i, img->px + 4 * i, 3);
    ok = stbi_write_png_to_func(stb_to_file, f, img->w, img->h, 3, rgb, img->w * 3);
    free(rgb);
    return ok ? true : err_set("the PNG encoder failed");
}

bool img_write_rgba_png(const char *path, const img_rgba *img, bool no_overwrite)
{
    return img_write_file(path, write_rgba, img, no_overwrite);
}

bool img_is_colour(const img_image *img)
{
    size_t n = (size_t)img->color.w * (size_t)img->color.h;
    const uint8_t *p = img->color.px;
    if (!p)
        return false;
    for (size_t i = 0; i < n; ++i, p += 4)
        if (p[0] != p[1] || p[1] != p[2])
            return true;
    return false;
}
