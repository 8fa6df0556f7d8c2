#include "settings.h"

#include <stdio.h>
#include <string.h>

#include "core/tr.h"

void app_options_default(app_options *o, const char *kernel_name)
{
    memset(o, 0, sizeof *o);
    filt_parse(kernel_name, &o->kernel);
    o->border = CONV_BORDER_CLAMP;
    o->display = IMG_DISPLAY_CLAMP;
    o->limits = img_default_limits();
    o->stride = o->dilation = 1;
    o->padding = CONV_PAD_SAME;
}

conv_params app_options_params(const app_options *o)
{
    conv_params p = conv_params_make(&o->kernel, o->border, o->flip);
    conv_params_set_geometry(&p, o->stride, o->dilation, o->padding);
    return p;
}

void app_geometry_text(const app_options *o, char *buf, size_t size)
{
    if (o->stride == 1 && o->dilation == 1 && o->padding == CONV_PAD_SAME)
        snprintf(buf, size, "%s", "");
    else
        snprintf(buf, size, _("stride %d, dilation %d, %s padding"), o->stride, o->dilation,
                 C_("padding", conv_padding_name(o->padding)));
}
