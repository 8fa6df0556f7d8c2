/* libFuzzer harness: the lesson parser (lsn_parse, src/lesson) on any text:
 * a lesson or one sentence, never a crash. Built by `./do.sh fuzz` (clang). */
#include <stddef.h>
#include <stdint.h>

#include "lesson/lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lsn_lesson l;
    if (lsn_parse("fuzz.yaml", (const char *)data, size, &l))
        lsn_free(&l);
    return 0;
}
