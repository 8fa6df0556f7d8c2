/* stb_impl.c - the one translation unit that compiles stb's implementations,
 * with the options of stb_config.h. Third-party code: built without the
 * project's warning flags (see CMakeLists.txt). */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include "stb_config.h"
