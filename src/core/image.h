/* image.h - images: loading untrusted files, the luma plane, writing results.
 *
 * A loaded image keeps two forms: the colour pixels (RGBA, 8 bits a channel)
 * for display, and one float channel, luma, for the convolution.
 *
 * Luma is on a 0..255 scale whatever the file's depth: a sample s of a file
 * whose samples run to m (255 for 8 bits, 65535 for a 16-bit PNG, a PGM/PPM's
 * maxval) is s * 255 / m, rounded once to the nearest float, so an 8-bit file
 * keeps its whole values and a 16-bit one its 65536 levels. Colour pixels
 * use the ITU-R BT.601 weights on those values: Y = 0.299 R + 0.587 G +
 * 0.114 B. A grey pixel (R = G = B) keeps its value exactly, so a greyscale
 * file convolves its own values. PFM files (the portable float map) are read
 * and written exactly. */
#ifndef CONVIS_IMAGE_H
#define CONVIS_IMAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Defaults for the size a user's image may have; a flag changes them.
 * 64 megapixels is 64 x 2^20 pixels, so 8192 x 8192 fits. */
#define IMG_DEFAULT_MAX_SIDE 16384
#define IMG_DEFAULT_MAX_PIXELS (64LL * 1024 * 1024)
/* Files larger than this are refused before they are read. */
#define IMG_MAX_FILE_BYTES (1LL << 30)

typedef struct img_limits {
    int max_side;         /* pixels, either side */
    long long max_pixels; /* width * height */
} img_limits;

/* A single float channel, row-major, index y*w + x. */
typedef struct img_plane {
    int w, h;
    float *px;
} img_plane;

/* Colour for display: RGBA, 4 bytes a pixel, row-major, top row first. */
typedef struct img_rgba {
    int w, h;
    uint8_t *px;
} img_rgba;

/* `bits`: the depth of the file's samples, every bit of which the luma
 * plane keeps: 8 for 8 bits or fewer (JPEG, BMP, TGA, most PNGs), 16 for a
 * 16-bit PNG, up to 16 for a PGM/PPM by its maxval, 32 for PFM's floats;
 * 0 for an image not read from a file. (A file deeper than its decoder
 * reads, such as a BMP with 10-bit channels, is refused with a sentence,
 * never read with fewer bits.) */
typedef struct img_image {
    img_rgba color;
    img_plane luma;
    int bits;
} img_image;

/* How a float result becomes an 8-bit grey for display or PNG. */
typedef enum img_display {
    IMG_DISPLAY_CLAMP = 0, /* v clamped to 0..255 */
    IMG_DISPLAY_ABS,       /* |v| clamped to 0..255 */
    IMG_DISPLAY_SIGNED,    /* 127.5 + v/2: zero is mid grey, -255..255 fits */
    IMG_DISPLAY_COUNT
} img_display;

img_limits img_default_limits(void);

/* Loads an image file (PNG, JPEG, BMP, TGA, binary PGM/PPM, PFM), from a
 * stranger as likely as not: only a regular file of at most
 * IMG_MAX_FILE_BYTES is read, its first bytes must name a format convis
 * reads, and it is decoded in a sandboxed child (sandbox.h), which refuses
 * sizes over `limits` (NULL: the defaults) before decoding pixels. On
 * failure returns false with one sentence in err_msg() naming the file and
 * the problem; *out is left empty. */
bool img_load(const char *path, const img_limits *limits, img_image *out);
/* img_load without the colours (out->color empty): the luma plane alone,
 * 4 bytes a pixel, for a result computed and written rather than shown. */
bool img_load_luma(const char *path, const img_limits *limits, img_image *out);

void img_free(img_image *img);

/* An image of w x h, its pixels not set. False with a sentence. */
bool img_alloc(img_image *out, int w, int h);

/* Builds an image from a plane: luma copied, colour by the clamp display. */
bool img_from_plane(const img_plane *plane, img_image *out);

/* A copy of `img` in new memory; false with a reason when there is no room. */
bool img_copy(const img_image *img, img_image *out);

bool img_plane_alloc(img_plane *p, int w, int h);
void img_plane_free(img_plane *p);

/* A w x h plane made from `src` by nearest sampling (larger or smaller):
 * the size sweep's and the benchmark's square images. False with a
 * sentence when there is no room. */
bool img_plane_scaled(const img_plane *src, int w, int h, img_plane *out);

const char *img_display_name(img_display d);
bool img_display_parse(const char *text, img_display *out);
uint8_t img_display_byte(float v, img_display d);

/* Whether `path` ends in an extension img_write knows (.png, .pfm). */
bool img_output_name_ok(const char *path);

/* The bits a sample the output file `path` keeps, by its extension: 8 for
 * .png (grey levels for display), 32 for .pfm (floats); 0 for a name
 * img_write refuses. */
int img_output_bits(const char *path);

/* Writes a plane to `path`: .png (8-bit grey through `display`) or .pfm
 * (exact floats), chosen by the extension, case-insensitive. The file is
 * written to a temporary name beside it and renamed into place, so a failure
 * never leaves a half-written file. A path that is the same file as
 * `input_path` (when not NULL) is refused. */
bool img_write(const char *path, const img_plane *plane, img_display display, const char *input_path);

/* The same for n planes of one size: 1 (as img_write) or 3, red, green and
 * blue: an RGB .png (each channel through `display`) or a colour .pfm
 * ("PF", the floats exactly). */
bool img_write_planes(const char *path, const img_plane *plane, int n, img_display display, const char *input_path);

/* Whether the image's colours are not all grey (some pixel with R, G and B
 * not equal): it has three channels to convolve, not one. */
bool img_is_colour(const img_image *img);

/* Writes colour pixels as an RGB PNG (screenshots), through a temporary file
 * renamed into place. With `no_overwrite`, an existing `path` is refused. */
bool img_write_rgba_png(const char *path, const img_rgba *img, bool no_overwrite);

/* Writes any file as the images above are written: through `fn` (which
 * returns false with err_set on failure) to a temporary name beside `path`,
 * then renamed into place, or with `exclusive` linked into place, which
 * refuses an existing `path` (ERR_EXISTS). A failure, a full disk included
 * (ERR_ENV), leaves no file; img_remove_partial_write removes it on a
 * signal. Records are written so. */
typedef bool (*img_write_fn)(FILE *f, const void *ctx);
bool img_write_file(const char *path, img_write_fn fn, const void *ctx, bool exclusive);

/* Puts the whole file `from` at the new name `to` (same folder), never
 * over a file there: a hard link, or where the file system has none (FAT,
 * exFAT, some network and FUSE mounts) the name taken with O_EXCL and
 * `from` renamed onto it. 0, or -1 with errno (EEXIST: `to` exists).
 * `from` may be left to unlink. */
int img_place_new(const char *from, const char *to);

/* Removes the temporary file of a write in progress, if any: for a signal
 * handler that ends the program (async-signal-safe: one unlink). */
void img_remove_partial_write(void);

#endif
