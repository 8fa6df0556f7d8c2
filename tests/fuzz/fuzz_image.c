/* libFuzzer harness: the image decoder in-process (img_decode, decode.c),
 * for coverage: every format convis reads, stb_image's and our own readers.
 * Limits are small (256 Kpx) so that each input decodes fast; what a bigger
 * one would do is the same code. Built by `./do.sh fuzz` (clang). */
#include <stddef.h>
#include <stdint.h>

#include "core/decode.h"
#include "core/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    img_limits lim = {1024, 1 << 18};
    img_image img;
    if (img_decode("fuzz", data, size, &lim, &img))
        img_free(&img);
    return 0;
}
