/* stb_config.h - the one set of options under which convis compiles stb_image
 * and stb_image_write (in stb_impl.c) and declares them (in image.c).
 *
 * Only the formats convis offers are compiled in. Files are read into memory
 * by image.c itself (after a size check), so stb's stdio paths are off; the
 * GIF-animation and flip-on-load APIs are never used. */
#ifndef CONVIS_STB_CONFIG_H
#define CONVIS_STB_CONFIG_H

#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#define STBI_ONLY_PNM
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_MAX_DIMENSIONS (1 << 24)
#define STBI_FAILURE_USERMSG

#define STBI_WRITE_NO_STDIO

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#endif
