/* cuda_absent.c - the CUDA engine's entry in a build without a CUDA compiler:
 * listed, and unavailable with the reason. */
#include <stdio.h>

#include <string.h>

#include "core/err.h"
#include "engines.h"
#include "lab.h"
#include "core/tr.h"

static bool absent_probe(char *why, size_t size)
{
    snprintf(why, size, _("convis was built without CUDA (no CUDA compiler was found when it was built)"));
    return false;
}

bool eng_cuda_lab_run(const char *source, const img_plane *in, const conv_params *p, img_plane *out, lab_result *r)
{
    (void)source, (void)in, (void)p, (void)out;
    memset(r, 0, sizeof *r);
    return err_set("%s", _("convis was built without CUDA, so its lab compiles GLSL kernels (.comp) only"));
}

const eng_class eng_cuda_class = {
    .name = "cuda",
    .summary = N_("a CUDA kernel, one GPU thread per output"),
    .probe = absent_probe,
};
