/* libFuzzer harness: the filter text parser (filt_parse: a preset name or
 * a 3x3 matrix with a divisor) on any text. Built by `./do.sh fuzz` (clang). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    filt_kernel k;
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    filt_parse(text, &k);
    free(text);
    return 0;
}
