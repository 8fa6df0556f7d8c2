/* gif.h - animated GIFs of what the window shows, for slides: frames of
 * RGBA pixels in, one GIF file out (giflib). One palette of up to 256
 * colours, made from the first frame, serves every frame (the window's
 * colours hardly change); each frame after the first stores only the
 * rectangle that changed, so a mostly still screen stays small. The file
 * is written under a temporary name in the same folder and linked into
 * place once it is whole (an existing file is never replaced); a failure,
 * a give-up or a signal (gif_remove_partial_writes) removes the temporary
 * file, so no half-written GIF is ever left. */
#ifndef CONVIS_GIF_H
#define CONVIS_GIF_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gif_writer gif_writer;

/* Starts a GIF of w x h pixels, each frame shown `delay_ms` (rounded to
 * hundredths of a second, at least 0.02 s), looping forever. NULL with
 * err_msg() when the file exists or cannot be made. */
gif_writer *gif_open(const char *path, int w, int h, int delay_ms);

/* Adds a frame: w*h RGBA pixels, rows top to bottom. False with err_msg()
 * on a write error (the writer then only takes gif_abort). */
bool gif_frame(gif_writer *g, const uint8_t *rgba);

/* Finishes the file; false with err_msg() (and the file removed) on error. */
bool gif_close(gif_writer *g);

/* Gives up: the file is removed. */
void gif_abort(gif_writer *g);

/* Frames written so far. */
int gif_frames(const gif_writer *g);

/* Removes the temporary files of the GIFs being written, if any: for a
 * signal handler that ends the program (async-signal-safe: unlinks only). */
void gif_remove_partial_writes(void);

#endif
