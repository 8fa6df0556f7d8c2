/* libFuzzer harness: the image decoder through its sandbox (sbx_decode):
 * the child's protocol, the parent's checks of what comes back, and every
 * way a child can end. Each input forks, so it runs fewer inputs a second
 * than fuzz_image. Built by `./do.sh fuzz` (clang). */
#include <stddef.h>
#include <stdint.h>

#include "core/image.h"
#include "core/sandbox.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    img_limits lim = {1024, 1 << 18};
    img_image img;
    if (sbx_decode("fuzz", data, size, &lim, &img))
        img_free(&img);
    return 0;
}
