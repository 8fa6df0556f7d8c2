/* channels.c - the channels view (Shift+C), in the grids' place: a piece of
 * the image in colour and as its channels, the piece's windows unrolled
 * into a matrix (im2col) with one input pixel lit in every place it was
 * copied, one output as the sum over the channels, the layer's outputs as
 * pictures of the whole image, and each engine's three ways measured. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"

static const rnd_color CHANNEL_HUE[3] = {{1.0f, 0.35f, 0.30f, 1}, {0.35f, 0.85f, 0.40f, 1}, {0.40f, 0.60f, 1.0f, 1}};
static const rnd_color GREY_HUE = {0.85f, 0.85f, 0.85f, 1};

static rnd_color hue_of(const channels_state *g, int c)
{
    return g->in.c == 3 ? CHANNEL_HUE[c] : GREY_HUE;
}

/* Whether the layer's outputs are the red, green and blue of a picture (the
 * colour layer and the blur of a colour image: one filter a channel). */
static bool outputs_are_colour(const channels_state *g)
{
    return g->f.c_out == 3 && g->in.c == 3 && (g->layer == 0 || g->layer == 3);
}

/* The pictures: the input in colour, and each output (or the three as one). */
static void make_pictures(view *v, const scene *s)
{
    const channels_state *g = &s->channels;
    img_rgba pic;
    long n;
    if (v->chan_made == g->made && v->chan_display == (int)s->opt.display)
        return;
    v->chan_made = g->made, v->chan_display = (int)s->opt.display;
    pic.w = g->in.w, pic.h = g->in.h, n = (long)pic.w * pic.h;
    pic.px = malloc((size_t)n * 4);
    if (!pic.px)
        return;
    for (long i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            pic.px[4 * i + c] = (uint8_t)fminf(255, fmaxf(0, layer_plane(&g->in, g->in.c == 3 ? c : 0)[i] + 0.5f)),
            pic.px[4 * i + 3] = 255;
    rnd_texture_set(&v->chan_in, &pic);
    for (int o = 0; g->out.px && o < g->out.c && (long)g->out.w * g->out.h <= n; ++o) {
        img_rgba one = {g->out.w, g->out.h, pic.px};
        for (long i = 0; i < (long)one.w * one.h; ++i)
            for (int c = 0; c < 3; ++c)
                one.px[4 * i + c] = img_display_byte(layer_plane(&g->out, outputs_are_colour(g) ? c : o)[i], s->opt.display),
                one.px[4 * i + 3] = 255;
        rnd_texture_set(&v->chan_out[o], &one);
        if (outputs_are_colour(g))
            break;
    }
    free(pic.px);
}

/* The piece: its inputs in colour, the lit pixel amber; each channel below. */
static void draw_piece(view *v, const scene *s, float x, float y, float c)
{
    const channels_state *g = &s->channels;
    int n = CHAN_PIECE + g->f.k - 1;
    float small = (float)n * c / (float)(3 * n + 2), cy = y + (float)n * c + 0.4f * v->L.pad;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            float val[3];
            rnd_color fill;
            for (int ch = 0; ch < g->in.c; ++ch)
                val[ch] = conv_sample(layer_plane(&g->in, ch), g->in.w, g->in.h, g->px + i, g->py + j, s->opt.border);
            fill = g->in.c == 3 ? (rnd_color){val[0] / 255, val[1] / 255, val[2] / 255, 1}
                                : (rnd_color){val[0] / 255, val[0] / 255, val[0] / 255, 1};
            rnd_rect(x + (float)i * c, y + (float)j * c, c - 1, c - 1, fill);
            for (int ch = 0; ch < g->in.c; ++ch)
                rnd_rect(x + (float)ch * ((float)n * small + small) + (float)i * small, cy + (float)j * small,
                         small - 1, small - 1, vw_cell_color(img_display_byte(val[ch], IMG_DISPLAY_CLAMP), hue_of(g, ch)));
        }
    rnd_frame(x + (float)g->pick_x * c, y + (float)g->pick_y * c, c - 1, c - 1, fmaxf(2, c * 0.1f), WINDOW);
    rnd_frame(x + (float)(g->f.k / 2) * c - 1, y + (float)(g->f.k / 2) * c - 1, CHAN_PIECE * c + 1, CHAN_PIECE * c + 1,
              1, GREEN);
    vw_click_add(v, (vw_click){.r = {x, y, (float)n * c, (float)n * c},
                               .action = app_action_of(ACT_CHANNEL_PICK),
                               .map = VW_MAP_CELL,
                               .cols = n,
                               .rows = n,
                               .cell = c});
}

/* The piece's matrix: a row a channel's tap, a column an output; the lit
 * pixel's copies framed. Returns how many copies it has. */
static int draw_matrix(const scene *s, rect r)
{
    const channels_state *g = &s->channels;
    int k = g->f.k, kk = k * k, copies = 0;
    float c = fminf(r.w / CHAN_COL_COLS, r.h / (float)g->col_rows);
    for (int row = 0; row < g->col_rows; ++row)
        for (int q = 0; q < CHAN_COL_COLS; ++q) {
            float val = g->col[row * CHAN_COL_COLS + q], cx = r.x + (float)q * c, cy = r.y + (float)row * c;
            int t = row % kk, ix = q % CHAN_PIECE + t % k, iy = q / CHAN_PIECE + t / k;
            rnd_rect(cx, cy, fmaxf(1, c - 1), fmaxf(1, c - 1),
                     vw_cell_color(img_display_byte(val, IMG_DISPLAY_CLAMP), hue_of(g, row / kk)));
            if (ix == g->pick_x && iy == g->pick_y) {
                rnd_frame(cx, cy, fmaxf(1, c - 1), fmaxf(1, c - 1), fmaxf(1.5f, c * 0.18f), WINDOW);
                ++copies;
            }
        }
    for (int ch = 1; ch < g->f.c_in; ++ch)
        rnd_rect(r.x, r.y + (float)(ch * kk) * c - 1, (float)CHAN_COL_COLS * c, 2, TEXT);
    return copies;
}

/* Output 0 at the piece's centre: each channel's K² products, then the bias. */
static void sum_line(view *v, const scene *s, float x, float y, float w)
{
    const channels_state *g = &s->channels;
    int k = g->f.k, q = (CHAN_PIECE / 2) * CHAN_PIECE + CHAN_PIECE / 2;
    char buf[600], part[64];
    size_t at;
    float total = 0;
    at = (size_t)snprintf(buf, sizeof buf, _("%1$s at the piece's centre = "), vw_T(v, g->f.out_name[0]));
    for (int ch = 0; ch < g->f.c_in && at < sizeof buf; ++ch) {
        float sum = 0;
        for (int t = 0; t < k * k; ++t)
            sum += g->col[(ch * k * k + t) * CHAN_COL_COLS + q] * layer_weight(&g->f, 0, ch)[t];
        total += sum;
        fmt_cell(sum, part, sizeof part);
        static const char *const names[3] = {N_("red"), N_("green"), N_("blue")};
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s %s", ch ? " + " : "",
                               vw_T(v, g->in.c == 3 ? names[ch] : N_("grey")), part);
    }
    {
        int ox = g->px + k / 2 + CHAN_PIECE / 2, oy = g->py + k / 2 + CHAN_PIECE / 2;
        bool inside = ox < g->out.w && oy < g->out.h; /* a piece larger than a small image: its centre outside */
        /* the output itself, as the direct loop added it, where there is one */
        fmt_cell(inside ? layer_plane(&g->out, 0)[(long)oy * g->out.w + ox] : total + g->f.bias[0], part, sizeof part);
    }
    if (at < sizeof buf)
        snprintf(buf + at, sizeof buf - at, _(" + bias %1$g = %2$s: %3$d channels of %4$d products"),
                 (double)g->f.bias[0], part, g->f.c_in, k * k);
    vw_text_fit(v, v->small, buf, x, y, w, TEXT);
}

static void cell_text(const channels_state *g, int k, int w, const scene *s, char *buf, size_t size)
{
    char ms[32], extra[32];
    double flops = layer_flops(&g->f, g->out.w, g->out.h);
    if (g->ms[k][w] < 0) {
        snprintf(buf, size, "%s", g->cell_why[k][w][0] ? g->cell_why[k][w] : _("measuring\xE2\x80\xA6"));
        return;
    }
    fmt_ms(g->ms[k][w], ms, sizeof ms);
    if (g->extra[k][w] > 0)
        snprintf(extra, sizeof extra, "%.1f MB", (double)g->extra[k][w] / 1e6);
    else
        snprintf(extra, sizeof extra, "\xE2\x80\x94");
    if (g->differ[k][w] == 0)
        snprintf(buf, size, _("%1$s \xC2\xB7 %2$.2f \xC2\xB7 %3$s \xC2\xB7 same bits"), ms, flops / g->ms[k][w] / 1e6,
                 extra);
    else
        snprintf(buf, size, _("%1$s \xC2\xB7 %2$.2f \xC2\xB7 %3$s \xC2\xB7 %4$ld differ, \xE2\x89\xA4 %5$.1g (%6$s)"), ms,
                 flops / g->ms[k][w] / 1e6, extra, g->differ[k][w], g->max_diff[k][w],
                 g->over[k][w] == 0 ? _("within the tolerance") : _("past the tolerance"));
    (void)s;
}

/* The lit pixel's values, one a channel: "(200, 120, 30)", or "(57)" on a grey image. */
static void pixel_values(const channels_state *g, const scene *s, char *buf, size_t size)
{
    size_t at = (size_t)snprintf(buf, size, "(");
    for (int c = 0; c < g->in.c && at < size; ++c) {
        char one[32];
        fmt_cell(conv_sample(layer_plane(&g->in, c), g->in.w, g->in.h, g->px + g->pick_x, g->py + g->pick_y,
                             s->opt.border),
                 one, sizeof one);
        at += (size_t)snprintf(buf + at, size - at, "%s%s", c ? ", " : "", one);
    }
    if (at < size)
        snprintf(buf + at, size - at, ")");
}

static void draw_table(view *v, const scene *s, float x, float y, float w)
{
    const channels_state *g = &s->channels;
    float ls = vw_lh(v->small) * 1.12f, name_w = 6.5f * ls, col = (w - name_w) / ENG_LAYER_WAY_COUNT;
    char buf[400];
    vw_text_fit(v, v->small,
                _("each: the median time \xC2\xB7 GFLOP/s \xC2\xB7 the memory it adds \xC2\xB7 its outputs against the "
                  "direct loop's"),
                x, y, w, DIM);
    y += ls;
    static const char *const ways[ENG_LAYER_WAY_COUNT] = {N_("direct: a loop per output"), N_("im2col + our GEMM"),
                                                          N_("a library's GEMM")};
    for (int way = 0; way < ENG_LAYER_WAY_COUNT; ++way)
        vw_text_fit(v, v->small, vw_T(v, ways[way]), x + name_w + (float)way * col, y, col - 0.5f * ls, DIM);
    for (int k = 0; k < CHAN_ENGINES; ++k) {
        float ly = y + (float)(k + 1) * ls;
        vw_text_fit(v, v->small, scene_channels_engine(s, k), x, ly, name_w, TEXT);
        for (int way = 0; way < ENG_LAYER_WAY_COUNT; ++way) {
            cell_text(g, k, way, s, buf, sizeof buf);
            vw_text_fit(v, v->small, buf, x + name_w + (float)way * col, ly, col - 0.5f * ls,
                        g->over[k][way] > 0 ? WINDOW : g->ms[k][way] < 0 ? FAINT : TEXT);
        }
    }
}

/* The filters: a row each, a K x K square a channel, positive weights in
 * the channel's hue, negative ones dim, zero the panel. */
static void draw_filters(view *v, const scene *s, rect r)
{
    const channels_state *g = &s->channels;
    int k = g->f.k;
    float ls = vw_lh(v->small), most = 0;
    float cell = fminf((r.w - ls * 5) / (float)(g->f.c_in * (k + 1)), (r.h - ls) / (float)(g->f.c_out * (k + 1)));
    if (cell < 2)
        return;
    for (long i = 0; i < (long)g->f.c_out * g->f.c_in * k * k; ++i)
        most = fmaxf(most, fabsf(g->f.w[i]));
    vw_text_fit(v, v->small, vw_T(v, "filters (framed: negative)"), r.x, r.y, r.w, DIM);
    for (int o = 0; o < g->f.c_out; ++o)
        for (int c = 0; c < g->f.c_in; ++c)
            for (int t = 0; t < k * k; ++t) {
                float wt = layer_weight(&g->f, o, c)[t], a = most > 0 ? sqrtf(fabsf(wt) / most) : 0;
                float cx = r.x + (float)(c * (k + 1) + t % k) * cell, cy = r.y + ls + (float)(o * (k + 1) + t / k) * cell;
                rnd_rect(cx, cy, cell - 1, cell - 1, wt > 0 ? vw_mix(PANEL, hue_of(g, c), a) : vw_mix(PANEL, BLACK, 0.7f * a));
                if (wt < 0) /* a negative weight: dark, framed in its channel's hue */
                    rnd_frame(cx, cy, cell - 1, cell - 1, fmaxf(1, cell * 0.12f), vw_mix(PANEL, hue_of(g, c), a));
            }
}

static void draw_outputs(view *v, const scene *s, rect r)
{
    const channels_state *g = &s->channels;
    int n = outputs_are_colour(g) ? 1 : g->out.c, across = n <= 2 ? n : 2, down = (n + across - 1) / across;
    float ls = vw_lh(v->small), cw, ch;
    if (r.h / (float)down < 2.5f * ls) /* no room for two rows of labels and pictures: one row */
        across = n, down = 1;
    cw = r.w / (float)across, ch = r.h / (float)down - ls;
    float scale = fminf(cw / (float)g->out.w, ch / (float)g->out.h) * 0.95f;
    for (int o = 0; o < n; ++o) {
        float x = r.x + (float)(o % across) * cw, y = r.y + (float)(o / across) * (ch + ls);
        char label[96];
        rnd_image(&v->chan_out[o], x, y + ls, (float)g->out.w * scale, (float)g->out.h * scale, WHITE, false);
        if (n == 1 && outputs_are_colour(g))
            snprintf(label, sizeof label, "%s", vw_T(v, "the three outputs as one colour picture"));
        else
            snprintf(label, sizeof label, "%d: %s", o, vw_T(v, g->f.out_name[o]));
        vw_text_fit(v, v->small, label, x, y, cw - 0.3f * v->L.pad, DIM);
    }
}

static void header(view *v, const scene *s, float x, float y, float w)
{
    const channels_state *g = &s->channels;
    char buf[700];
    long long plane = (long long)g->in.w * g->in.h * 4;
    snprintf(buf, sizeof buf,
             _("Channels (Shift+C: the next layer; Esc: back): layer %1$s, %2$d channels in \xE2\x86\x92 %3$d filters of "
               "%4$d\xC3\x97%4$d\xC3\x97%2$d, %5$d products an output"),
             vw_T(v, g->f.name), g->f.c_in, g->f.c_out, g->f.k, g->f.c_in * g->f.k * g->f.k);
    vw_text_fit(v, v->small, buf, x, y, w, TEXT);
    snprintf(buf, sizeof buf,
             _("the image, %1$d\xC3\x97%2$d, %3$s; unrolled for a matrix product it takes %4$.2f MB, %5$d times its "
               "%6$.2f MB%7$s"),
             g->in.w, g->in.h, g->in.c == 3 ? _("in colour: red, green and blue, each a plane") : _("grey: one channel"),
             (double)layer_im2col_bytes(&g->f, g->out.w, g->out.h) / 1e6, g->f.k * g->f.k * g->f.c_in / g->in.c,
             (double)plane * g->in.c / 1e6, s->gpu.budget > 0 ? _(", counted against the GPU's memory budget") : "");
    vw_text_fit(v, v->small, buf, x, y + vw_lh(v->small) * 1.1f, w, DIM);
}

void vw_draw_channels(view *v, const app *a, rect box)
{
    const scene *s = &a->s;
    const channels_state *g = &s->channels;
    const layout *L = &v->L;
    float ls = vw_lh(v->small), x = box.x + 0.5f * L->pad, w = box.w - L->pad, top = box.y + 0.3f * L->pad;
    float table_h = ls * 1.12f * (CHAN_ENGINES + 2), body, c, y0 = top + ls * 4.5f;
    int n = CHAN_PIECE + g->f.k - 1, copies;
    char buf[400], value[96];
    rnd_rect(box.x, box.y, box.w, box.h, PANEL);
    if (!g->f.w || !g->out.px) {
        snprintf(buf, sizeof buf, _("Channels (Shift+C: the next layer; Esc: back): %s"),
                 g->why[0] ? g->why : _("no image"));
        vw_text_fit(v, v->small, buf, x, top, w, TEXT);
        return;
    }
    make_pictures(v, s);
    header(v, s, x, top, w);
    body = box.y + box.h - table_h - ls * 1.4f - y0;
    c = fminf(body / ((float)n * 1.45f + 0.4f), w * 0.22f / (float)n);
    draw_piece(v, s, x, y0, c);
    {
        rect m = {x + (float)n * c + L->pad, y0, w * 0.30f, body};
        float fx = m.x + m.w + L->pad, fw = w * 0.16f;
        copies = draw_matrix(s, m);
        snprintf(buf, sizeof buf, _("unrolled (im2col): %1$d rows \xC3\x97 %2$d columns"), g->col_rows, CHAN_COL_COLS);
        vw_text_fit(v, v->small, buf, m.x, y0 - ls * 2.1f, fx + fw - m.x, DIM);
        pixel_values(g, s, value, sizeof value);
        snprintf(buf, sizeof buf, _("a column an output: %1$d channels \xC3\x97 %2$d taps; the amber pixel %3$s: %4$d copies"),
                 g->f.c_in, g->f.k * g->f.k, value, copies);
        vw_text_fit(v, v->small, buf, m.x, y0 - ls * 1.1f, fx + fw - m.x, DIM);
        draw_filters(v, s, (rect){fx, y0, fw, body});
        draw_outputs(v, s, (rect){fx + fw + L->pad, y0 - ls * 1.1f, x + w - (fx + fw + L->pad), body + ls});
    }
    sum_line(v, s, x, box.y + box.h - table_h - ls * 1.2f, w);
    draw_table(v, s, x, box.y + box.h - table_h, w);
}
