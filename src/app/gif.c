/* gif.c - animated GIFs (gif.h). */
#define _POSIX_C_SOURCE 200809L
#include "gif.h"

#include <errno.h>
#include <fcntl.h>
#include <gif_lib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/image.h"

#define CACHE_BITS 5   /* the colour lookup: 5 bits a channel, 32768 entries */
#define PARTIAL_MOST 4 /* GIFs written at once, whose temporary files a signal removes */
#define PATH_MOST 4200

/* The temporary files of the GIFs being written, for
 * gif_remove_partial_writes (a signal handler): a slot is set while its
 * file exists. */
static char partial_path[PARTIAL_MOST][PATH_MOST];
static volatile sig_atomic_t partial_set[PARTIAL_MOST];

typedef struct gif_writer gif_writer;
static bool release(gif_writer *g, bool remove);

struct gif_writer {
    GifFileType *file;
    char *path; /* where the GIF goes once it is whole */
    int slot;   /* its temporary file's slot in partial_path */
    int w, h, delay_cs, frames;
    bool failed;
    ColorMapObject *map;
    int16_t cache[1 << (3 * CACHE_BITS)]; /* palette index for a 15-bit colour; -1 unknown */
    uint8_t *index, *previous;            /* this frame and the last in palette indices */
};

/* Whether giflib's error `code` is a write the system refused (errno says why). */
static bool write_refused(int code)
{
    return code == E_GIF_ERR_WRITE_FAILED || code == E_GIF_ERR_DISK_IS_FULL || code == E_GIF_ERR_CLOSE_FAILED;
}

static bool fail(gif_writer *g, const char *what, int code)
{
    int e = errno; /* a failed write leaves the system's reason there */
    bool written = write_refused(code);
    g->failed = true;
    return err_set_kind(written ? err_kind_of_errno(e) : ERR_OTHER, "cannot write the GIF '%s' (%s): %s", g->path, what,
                        written && e ? strerror(e) : GifErrorString(code));
}

void gif_remove_partial_writes(void)
{
    for (int i = 0; i < PARTIAL_MOST; ++i)
        if (partial_set[i])
            unlink(partial_path[i]);
}

/* A temporary file beside `path` (a short name in the same folder, so that
 * linking it into place stays on one file system), with the mode a new
 * file gets; its slot in *slot. -1 with err_msg() when it cannot be made. */
static int make_partial(const char *path, int *slot)
{
    const char *slash = strrchr(path, '/');
    mode_t mask;
    int fd, i;
    for (i = 0; i < PARTIAL_MOST && partial_set[i]; ++i)
        ;
    if (i == PARTIAL_MOST) {
        err_set("cannot write '%s': %d GIFs are being written already", path, PARTIAL_MOST);
        return -1;
    }
    if (strlen(path) + 16 > PATH_MOST) {
        err_set("cannot write '%s': the path is too long", path);
        return -1;
    }
    snprintf(partial_path[i], PATH_MOST, "%.*s.convis-XXXXXX", slash ? (int)(slash - path + 1) : 0, path);
    fd = mkstemp(partial_path[i]);
    if (fd < 0) {
        err_set_kind(err_kind_of_errno(errno), "cannot make '%s': %s", path, strerror(errno));
        return -1;
    }
    partial_set[i] = 1;
    mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask); /* mkstemp makes it 0600 */
    *slot = i;
    return fd;
}

/* Removes the temporary file of slot `slot` and frees the slot. */
static void drop_partial(int slot)
{
    if (slot < 0)
        return;
    unlink(partial_path[slot]);
    partial_set[slot] = 0;
}

gif_writer *gif_open(const char *path, int w, int h, int delay_ms)
{
    gif_writer *g;
    struct stat st;
    int fd, slot = -1, error = 0;
    if (w < 1 || h < 1 || w > 65535 || h > 65535) {
        err_set("a GIF of %dx%d pixels is not possible", w, h);
        return NULL;
    }
    /* said now, not after the recording (gif_close links the file into
     * place, which refuses an existing one again, for sure) */
    if (lstat(path, &st) == 0) {
        err_set_kind(ERR_EXISTS, "'%s' already exists; convis does not overwrite it", path);
        return NULL;
    }
    fd = make_partial(path, &slot);
    if (fd < 0)
        return NULL;
    g = calloc(1, sizeof *g);
    if (g) {
        g->path = strdup(path);
        g->index = malloc((size_t)w * (size_t)h);
        g->previous = malloc((size_t)w * (size_t)h);
    }
    if (!g || !g->path || !g->index || !g->previous) {
        if (g) {
            free(g->path);
            free(g->index);
            free(g->previous);
            free(g);
        }
        close(fd);
        drop_partial(slot);
        err_set_kind(ERR_ENV, "out of memory for a GIF of %dx%d pixels", w, h);
        return NULL;
    }
    g->slot = slot;
    g->w = w;
    g->h = h;
    g->delay_cs = (delay_ms + 5) / 10 < 2 ? 2 : (delay_ms + 5) / 10;
    memset(g->cache, 0xff, sizeof g->cache);
    g->file = EGifOpenFileHandle(fd, &error);
    if (!g->file) {
        close(fd);
        fail(g, "opening it", error);
        release(g, true);
        return NULL;
    }
    return g;
}

/* The palette from the first frame (giflib's median cut), and the file's
 * header with it and the loop. */
static bool start(gif_writer *g, const uint8_t *rgba)
{
    size_t n = (size_t)g->w * (size_t)g->h;
    GifByteType *r = malloc(n), *gr = malloc(n), *b = malloc(n);
    GifColorType colors[256];
    int size = 256;
    static const unsigned char loop[3] = {1, 0, 0}; /* play forever */
    bool ok = r && gr && b;
    for (size_t i = 0; ok && i < n; ++i) {
        r[i] = rgba[4 * i];
        gr[i] = rgba[4 * i + 1];
        b[i] = rgba[4 * i + 2];
    }
    if (ok && GifQuantizeBuffer((unsigned)g->w, (unsigned)g->h, &size, r, gr, b, g->index, colors) != GIF_OK)
        ok = err_set("cannot make the GIF's palette");
    free(r);
    free(gr);
    free(b);
    if (!ok) {
        g->failed = true;
        return false;
    }
    g->map = GifMakeMapObject(256, NULL);
    if (!g->map) {
        g->failed = true;
        return err_set("out of memory for the GIF's palette");
    }
    for (int i = 0; i < 256; ++i)
        g->map->Colors[i] = i < size ? colors[i] : colors[0];
    EGifSetGifVersion(g->file, true); /* GIF89a: frames with their times */
    if (EGifPutScreenDesc(g->file, g->w, g->h, 8, 0, g->map) != GIF_OK)
        return fail(g, "its header", g->file->Error);
    if (EGifPutExtensionLeader(g->file, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(g->file, 11, "NETSCAPE2.0") != GIF_OK ||
        EGifPutExtensionBlock(g->file, 3, loop) != GIF_OK || EGifPutExtensionTrailer(g->file) != GIF_OK)
        return fail(g, "its loop", g->file->Error);
    return true;
}

/* The palette index nearest a colour, through the cache. */
static uint8_t nearest(gif_writer *g, uint8_t r, uint8_t gr, uint8_t b)
{
    int key =
        (r >> (8 - CACHE_BITS)) << (2 * CACHE_BITS) | (gr >> (8 - CACHE_BITS)) << CACHE_BITS | (b >> (8 - CACHE_BITS));
    if (g->cache[key] < 0) {
        int best = 0;
        long best_d = -1;
        for (int i = 0; i < g->map->ColorCount; ++i) {
            const GifColorType *c = &g->map->Colors[i];
            long dr = c->Red - r, dg = c->Green - gr, db = c->Blue - b;
            long d = dr * dr * 3 + dg * dg * 4 + db * db * 2;
            if (best_d < 0 || d < best_d)
                best = i, best_d = d;
        }
        g->cache[key] = (int16_t)best;
    }
    return (uint8_t)g->cache[key];
}

/* Writes the rectangle x0..x1, y0..y1 of g->index as one frame. */
static bool put(gif_writer *g, int x0, int y0, int x1, int y1)
{
    unsigned char gce[4] = {1 << 2 /* keep this frame under the next */, (unsigned char)(g->delay_cs & 0xff),
                            (unsigned char)(g->delay_cs >> 8), 0};
    if (EGifPutExtension(g->file, GRAPHICS_EXT_FUNC_CODE, 4, gce) != GIF_OK ||
        EGifPutImageDesc(g->file, x0, y0, x1 - x0, y1 - y0, false, NULL) != GIF_OK)
        return fail(g, "a frame", g->file->Error);
    for (int y = y0; y < y1; ++y)
        if (EGifPutLine(g->file, g->index + (size_t)y * g->w + x0, x1 - x0) != GIF_OK)
            return fail(g, "a frame's pixels", g->file->Error);
    return true;
}

bool gif_frame(gif_writer *g, const uint8_t *rgba)
{
    size_t n = (size_t)g->w * (size_t)g->h;
    int x0 = g->w, y0 = g->h, x1 = 0, y1 = 0;
    if (g->failed)
        return err_set("the GIF '%s' failed before", g->path);
    if (g->frames == 0 && !start(g, rgba))
        return false;
    for (size_t i = 0; i < n; ++i)
        g->index[i] = nearest(g, rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]);
    if (g->frames == 0) {
        x0 = y0 = 0, x1 = g->w, y1 = g->h;
    } else {
        /* only what changed since the last frame */
        for (int y = 0; y < g->h; ++y) {
            const uint8_t *a = g->index + (size_t)y * g->w, *b = g->previous + (size_t)y * g->w;
            if (memcmp(a, b, (size_t)g->w) == 0)
                continue;
            if (y < y0)
                y0 = y;
            y1 = y + 1;
            for (int x = 0; x < g->w; ++x)
                if (a[x] != b[x]) {
                    if (x < x0)
                        x0 = x;
                    if (x + 1 > x1)
                        x1 = x + 1;
                }
        }
        if (x1 <= x0) /* nothing changed: one pixel as it was, to keep the frame's time */
            x0 = y0 = 0, x1 = y1 = 1;
    }
    if (!put(g, x0, y0, x1, y1))
        return false;
    memcpy(g->previous, g->index, n);
    ++g->frames;
    return true;
}

int gif_frames(const gif_writer *g)
{
    return g->frames;
}

/* Closes the temporary file and, unless `remove` or anything failed, links
 * it into place (never over a file that came meanwhile); the temporary file
 * is removed whatever happens, and the writer freed. False when anything
 * failed. */
static bool release(gif_writer *g, bool remove)
{
    int error = 0;
    bool ok = !g->failed;
    errno = 0;
    if (g->file && EGifCloseFile(g->file, &error) != GIF_OK && ok) {
        int e = errno;
        ok = err_set_kind(err_kind_of_errno(e), "cannot finish the GIF '%s': %s", g->path,
                          write_refused(error) && e ? strerror(e) : GifErrorString(error));
    }
    if (ok && !remove && img_place_new(partial_path[g->slot], g->path) != 0)
        ok = errno == EEXIST
                 ? err_set_kind(ERR_EXISTS, "'%s' already exists; convis does not overwrite it", g->path)
                 : err_set_kind(err_kind_of_errno(errno), "cannot write '%s': %s", g->path, strerror(errno));
    drop_partial(g->slot);
    GifFreeMapObject(g->map);
    free(g->index);
    free(g->previous);
    free(g->path);
    free(g);
    return ok;
}

bool gif_close(gif_writer *g)
{
    if (!g)
        return false;
    if (g->frames == 0 && !g->failed) {
        err_set("the GIF '%s' has no frame", g->path);
        g->failed = true;
    }
    return release(g, false);
}

void gif_abort(gif_writer *g)
{
    if (g)
        release(g, true);
}
