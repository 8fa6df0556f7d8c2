#include "stepper.h"

#include <string.h>

/* Makes output `index` current with no tap done and loads its window. */
static void enter_output(conv_stepper *s, long index)
{
    int w = s->in->w, h = s->in->h;
    int x = (int)(index % w), y = (int)(index / w);
    s->index = index;
    s->taps = 0;
    s->sum = 0.0f;
    memset(s->product, 0, sizeof s->product);
    for (int t = 0; t < s->count; ++t)
        s->value[t] = conv_window_fetch(s->in->px, w, h, x, y, t, s->params.kw, s->params.kh, s->params.border);
}

void conv_stepper_init(conv_stepper *s, const img_plane *in, const conv_params *p, img_plane *out)
{
    s->in = in;
    s->out = out;
    s->params = *p;
    s->count = p->kw * p->kh;
    s->total = (long)in->w * in->h;
    enter_output(s, 0);
}

long conv_stepper_done_count(const conv_stepper *s)
{
    return s->index + (s->taps == s->count);
}

bool conv_stepper_done(const conv_stepper *s)
{
    return conv_stepper_done_count(s) == s->total;
}

int conv_stepper_x(const conv_stepper *s)
{
    return (int)(s->index % s->in->w);
}

int conv_stepper_y(const conv_stepper *s)
{
    return (int)(s->index / s->in->w);
}

bool conv_stepper_tap(conv_stepper *s)
{
    int t;
    if (conv_stepper_done(s))
        return false;
    if (s->taps == s->count)
        enter_output(s, s->index + 1);
    t = s->taps++;
    s->product[t] = conv_product(s->value[t], s->params.weight[t]);
    s->sum += s->product[t];
    if (s->taps == s->count)
        s->out->px[s->index] = conv_finish(s->sum, s->params.divisor);
    return true;
}

bool conv_stepper_output(conv_stepper *s)
{
    if (conv_stepper_done(s))
        return false;
    if (s->taps == s->count)
        enter_output(s, s->index + 1);
    while (s->taps < s->count)
        conv_stepper_tap(s);
    return true;
}

bool conv_stepper_back(conv_stepper *s)
{
    if (s->taps > 0) {
        enter_output(s, s->index);
        return true;
    }
    if (s->index == 0)
        return false;
    enter_output(s, s->index - 1);
    return true;
}

void conv_stepper_finish(conv_stepper *s)
{
    while (conv_stepper_output(s))
        ;
}

void conv_stepper_restart(conv_stepper *s)
{
    enter_output(s, 0);
}
