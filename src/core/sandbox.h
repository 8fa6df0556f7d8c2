/* sandbox.h - decoding an image file in a child process that can do nothing
 * but decode (docs/ARCHITECTURE.md, section 4: images come from strangers).
 *
 * sbx_decode forks. The child lowers its limits (no core file, no files
 * written, CPU seconds, address space for the largest image the limits
 * allow), installs a seccomp filter that lets it only allocate memory, write
 * to its end of a pipe and exit (Linux on x86-64 and arm64), then runs
 * img_decode (decode.h) on the bytes it inherited and sends back the size,
 * the depth (bits a sample), the luma plane (floats: every level of a 16-bit
 * file) and the colour pixels. The parent reads them with a wall-clock
 * deadline and checks the size against the limits again and the depth for
 * one a decoder gives. A child that crashes, is stopped by the filter, runs
 * out of memory or time, or sends less than it said, becomes one sentence;
 * nothing of it reaches the caller.
 *
 * The child closes every descriptor it inherited but its pipe and stderr
 * before it decodes; the filter lets it map memory only anonymous and
 * never executable. A child the filter stopped is the file's doing, unless
 * the filter stops even a child that decodes nothing (as under valgrind,
 * whose own calls it does not allow): then the sentence says the sandbox
 * does not work here.
 *
 * CONVIS_DECODE_SECONDS (default 20) sets the deadline and the CPU limit.
 * CONVIS_DECODE_IN_PROCESS=1 decodes in the calling process, without the
 * sandbox, for memory checkers and debuggers (never the default; said once
 * on stderr). CONVIS_SANDBOX_TEST=crash|syscall|spin|hog|exec-map|
 * exec-protect|map-file|unfit makes the child misbehave on purpose, and
 * =fds makes it list the descriptors it holds, for the tests that show each
 * containment. */
#ifndef CONVIS_SANDBOX_H
#define CONVIS_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "image.h"

/* img_decode in a sandboxed child. False with one sentence naming `name`. */
bool sbx_decode(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out);

/* sbx_decode of the luma plane alone (out->color left empty): for a result
 * computed and written, not shown, at 4 bytes a pixel less. */
bool sbx_decode_luma(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out);

/* A decoder: img_decode, or another with its contract (tests run a known
 * crashing decoder through the sandbox to show it contained). */
typedef bool (*sbx_decoder)(const char *name, const unsigned char *data, size_t size, const img_limits *lim,
                            img_image *out);

/* sbx_decode with `decode` in the child instead of img_decode. */
bool sbx_decode_with(sbx_decoder decode, const char *name, const unsigned char *data, size_t size,
                     const img_limits *lim, img_image *out);

/* Whether this build and system confine the child with a seccomp filter
 * (false on other systems and architectures, and in AddressSanitizer
 * builds, whose runtime makes calls of its own: the other limits and the
 * deadline still hold). */
bool sbx_filtered(void);

/* Whether the child's address space is limited (false in AddressSanitizer
 * builds, which reserve terabytes of it). */
bool sbx_limits_memory(void);

#endif
