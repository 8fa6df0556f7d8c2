/* decode.h - turning the bytes of an image file into an image, in the
 * process that calls it. img_load (image.h) runs this in a sandboxed child
 * (sandbox.h); the fuzzers call it directly.
 *
 * The formats: PNG, JPEG, BMP and TGA through stb_image, which allocates
 * through zeroing wrappers here, so no uninitialised byte can reach an
 * image (a 16-bit PNG through its 16-bit path, every level kept); binary
 * PGM/PPM (P5/P6, 8 or 16 bits a sample) and PFM through readers of our
 * own. Each sets the image's depth (bits, image.h). */
#ifndef CONVIS_DECODE_H
#define CONVIS_DECODE_H

#include <stdbool.h>
#include <stddef.h>

#include "image.h"

typedef enum img_format {
    IMG_FORMAT_UNKNOWN = 0,
    IMG_FORMAT_PNG,
    IMG_FORMAT_JPEG,
    IMG_FORMAT_BMP,
    IMG_FORMAT_TGA,
    IMG_FORMAT_PNM, /* P5 (grey) or P6 (colour), binary */
    IMG_FORMAT_PFM,
} img_format;

/* What the formats convis reads are called, for sentences (in the current
 * language). */
const char *img_accepted(void);

/* The format of a file from its first bytes (n of them, as many as there
 * are up to 64): a signature, or for TGA, which has none, a plausible
 * header. IMG_FORMAT_UNKNOWN when none fits. */
img_format img_identify(const unsigned char *head, size_t n);

/* Decodes `size` bytes of the file called `name` (for sentences), refusing
 * sizes over `lim` before decoding pixels. False with one sentence. */
bool img_decode(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out);

/* The size the file's header states (its first n bytes), read by small
 * readers of our own (for JPEG, a walk of the segments to the first frame
 * header). False when the bytes do not say. */
bool img_header_size(const unsigned char *data, size_t n, long long *w, long long *h);

/* Whether w x h is within the limits; false with the sentence. */
bool img_check_limits(const char *name, long long w, long long h, const img_limits *lim);

#endif
