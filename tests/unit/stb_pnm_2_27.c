/* stb_pnm_2_27.c - the system's stb_image (2.27 on Debian 12) with its PNM
 * reader, compiled here, static, for one test only: its overflow on 16-bit
 * files (CVE-2021-42716) is the decoder crash that test_sandbox shows the
 * sandbox containing. convis itself never compiles this reader (decode.c
 * reads PGM/PPM). Third-party code, built without warnings. */
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNM
#define STBI_NO_STDIO
#include <stb/stb_image.h>

#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/image.h"

/* A decoder with img_decode's contract that trusts stb 2.27's PNM reader. */
bool stb_pnm_decode(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out);

bool stb_pnm_decode(const char *name, const unsigned char *data, size_t size, const img_limits *lim, img_image *out)
{
    int w, h, comp;
    unsigned char *px;
    (void)lim;
    px = stbi_load_from_memory(data, (int)size, &w, &h, &comp, 4);
    if (!px)
        return err_set("'%s': stb could not decode it (%s)", name, stbi_failure_reason());
    if (!img_alloc(out, w, h)) {
        stbi_image_free(px);
        return false;
    }
    memcpy(out->color.px, px, (size_t)w * (size_t)h * 4);
    for (size_t i = 0; i < (size_t)w * (size_t)h; ++i)
        out->luma.px[i] = px[4 * i];
    stbi_image_free(px);
    return true;
}
