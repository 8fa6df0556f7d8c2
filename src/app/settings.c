#include "settings.h"

#include <string.h>

void app_options_default(app_options *o, const char *kernel_name)
{
    memset(o, 0, sizeof *o);
    filt_parse(kernel_name, &o->kernel);
    o->border = CONV_BORDER_CLAMP;
    o->display = IMG_DISPLAY_CLAMP;
    o->limits = img_default_limits();
}
