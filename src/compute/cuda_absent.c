/* cuda_absent.c - the CUDA engine's entry in a build without a CUDA compiler:
 * listed, and unavailable with the reason. */
#include <stdio.h>

#include "engines.h"
#include "core/tr.h"

static bool absent_probe(char *why, size_t size)
{
    snprintf(why, size, _("convis was built without CUDA (no CUDA compiler was found when it was built)"));
    return false;
}

const eng_class eng_cuda_class = {
    .name = "cuda",
    .summary = N_("a CUDA kernel, one GPU thread per output"),
    .probe = absent_probe,
};
