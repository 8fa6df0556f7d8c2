/* stb_config.h - the one set of options under which convis compiles stb_image
 * and stb_image_write (in stb_impl.c) and declares them (in decode.c and
 * image.c).
 *
 * Only the formats convis decodes with stb are compiled in: PGM/PPM has a
 * reader of our own (decode.c), since stb_image 2.27's overflows on 16-bit
 * files (CVE-2021-42716). Files are read into memory by image.c itself
 * (after a size check), so stb's stdio paths are off; the GIF-animation and
 * flip-on-load APIs are never used. stb allocates through decode.c's
 * zeroing wrappers, so what it leaves unwritten in a damaged file's pixels
 * is zeros. */
#ifndef CONVIS_STB_CONFIG_H
#define CONVIS_STB_CONFIG_H

#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_MAX_DIMENSIONS (1 << 24)
#define STBI_FAILURE_USERMSG

#include <stddef.h>
void *convis_stbi_malloc(size_t n);
void *convis_stbi_realloc_sized(void *p, size_t old_n, size_t n);
void convis_stbi_free(void *p);
#define STBI_MALLOC(n) convis_stbi_malloc(n)
#define STBI_REALLOC_SIZED(p, old_n, n) convis_stbi_realloc_sized(p, old_n, n)
#define STBI_FREE(p) convis_stbi_free(p)

#define STBI_WRITE_NO_STDIO

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#endif
