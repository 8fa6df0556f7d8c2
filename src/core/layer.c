/* layer.c - a convolution layer's filters, presets and text form, and its
 * two ways of ours: direct and im2col + the ordered GEMM (layer.h). */
#define _POSIX_C_SOURCE 200809L
#include "layer.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv.h"
#include "err.h"
#include "tr.h"

#define LAYER_FILE_MAX (1L << 20)

bool layer_tensor_alloc(layer_tensor *t, int c, int w, int h)
{
    size_t n = (size_t)c * (size_t)w * (size_t)h;
    memset(t, 0, sizeof *t);
    if (c < 1 || w < 1 || h < 1)
        return err_set(_("A layer's tensor needs at least one channel and one pixel."));
    t->px = malloc(n * sizeof(float));
    if (!t->px)
        return err_set_kind(ERR_ENV, _("There is no memory for %d planes of %d x %d."), c, w, h);
    t->c = c, t->w = w, t->h = h;
    return true;
}

void layer_tensor_free(layer_tensor *t)
{
    free(t->px);
    memset(t, 0, sizeof *t);
}

bool layer_from_image(const img_image *img, bool colour, layer_tensor *out)
{
    int w = img->luma.w, h = img->luma.h;
    long n = (long)w * h;
    if (!colour || !img_is_colour(img)) {
        if (!layer_tensor_alloc(out, 1, w, h))
            return false;
        memcpy(out->px, img->luma.px, (size_t)n * sizeof(float));
        return true;
    }
    if (!layer_tensor_alloc(out, 3, w, h))
        return false;
    for (int c = 0; c < 3; ++c) {
        float *dst = layer_plane(out, c);
        for (long i = 0; i < n; ++i)
            dst[i] = (float)img->color.px[4 * i + c];
    }
    return true;
}

bool layer_filters_alloc(layer_filters *f, int c_in, int c_out, int k)
{
    memset(f, 0, sizeof *f);
    if (c_in < 1 || c_in > LAYER_MAX_CHANNELS || c_out < 1 || c_out > LAYER_MAX_CHANNELS)
        return err_set(_("A layer has 1 to %d input channels and 1 to %d filters."), LAYER_MAX_CHANNELS,
                       LAYER_MAX_CHANNELS);
    if (k < 1 || k > LAYER_MAX_K || k % 2 == 0)
        return err_set(_("A layer's filters are K x K with K odd, 1 to %d."), LAYER_MAX_K);
    f->w = calloc((size_t)c_out * c_in * k * k, sizeof(float));
    f->bias = calloc((size_t)c_out, sizeof(float));
    if (!f->w || !f->bias) {
        layer_filters_free(f);
        return err_set_kind(ERR_ENV, _("There is no memory for a layer's weights."));
    }
    f->c_in = c_in, f->c_out = c_out, f->k = k;
    return true;
}

void layer_filters_free(layer_filters *f)
{
    free(f->w);
    free(f->bias);
    memset(f, 0, sizeof *f);
}

bool layer_filters_copy(const layer_filters *f, layer_filters *out)
{
    if (!layer_filters_alloc(out, f->c_in, f->c_out, f->k))
        return false;
    memcpy(out->w, f->w, (size_t)f->c_out * f->c_in * f->k * f->k * sizeof(float));
    memcpy(out->bias, f->bias, (size_t)f->c_out * sizeof(float));
    memcpy(out->name, f->name, sizeof out->name);
    memcpy(out->out_name, f->out_name, sizeof out->out_name);
    return true;
}

/* ---- presets ---------------------------------------------------------------- */

/* Sobel at 0, 45, 90 and 135 degrees: the vertical edge, the diagonal, the
 * horizontal edge and the other diagonal. */
static const float sobel4[4][9] = {
    {-1, 0, 1, -2, 0, 2, -1, 0, 1},
    {0, 1, 2, -1, 0, 1, -2, -1, 0},
    {-1, -2, -1, 0, 0, 0, 1, 2, 1},
    {-2, -1, 0, -1, 0, 1, 0, 1, 2},
};
static const char *const sobel4_names[4] = {N_("edge 0°"), N_("edge 45°"), N_("edge 90°"), N_("edge 135°")};
static const float gauss3[9] = {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f, 0.125f, 0.0625f, 0.125f, 0.0625f};

static void copy_name(char *to, size_t size, const char *from);

static void set_name(layer_filters *f, const char *name)
{
    copy_name(f->name, sizeof f->name, name);
}

/* Centre of channel `centre` less the mean of its eight neighbours in the
 * channels `surround` (each weighed `share` of it). */
static void opponent(layer_filters *f, int o, int centre, const int *surround, int n)
{
    layer_weight(f, o, centre)[4] = 1.0f;
    for (int s = 0; s < n; ++s)
        for (int t = 0; t < 9; ++t)
            if (t != 4)
                layer_weight(f, o, surround[s])[t] -= 0.125f / (float)n;
}

bool layer_preset(const char *name, int c_in, layer_filters *out)
{
    char *end = NULL;
    long n = 0;
    if (strncmp(name, "random:", 7) == 0) {
        errno = 0;
        n = strtol(name + 7, &end, 10);
        if (*end != '\0' || end == name + 7 || errno != 0 || n < 1 || n > LAYER_MAX_CHANNELS)
            return err_set(_("A random layer is random:N, N from 1 to %d filters."), LAYER_MAX_CHANNELS);
    }
    if (strcmp(name, "edges") == 0) {
        if (!layer_filters_alloc(out, c_in, 4, 3))
            return false;
        for (int o = 0; o < 4; ++o) {
            for (int c = 0; c < c_in; ++c)
                memcpy(layer_weight(out, o, c), sobel4[o], sizeof sobel4[o]);
            snprintf(out->out_name[o], sizeof out->out_name[o], "%s", sobel4_names[o]);
        }
    } else if (strcmp(name, "opponent") == 0) {
        static const int red = 0, green = 1, blue = 2, red_green[2] = {0, 1};
        if (c_in != 3)
            return err_set(_("The layer 'opponent' compares colours: it needs a colour image (3 channels)."));
        if (!layer_filters_alloc(out, 3, 3, 3))
            return false;
        opponent(out, 0, red, &green, 1);
        opponent(out, 1, green, &red, 1);
        opponent(out, 2, blue, red_green, 2);
        snprintf(out->out_name[0], sizeof out->out_name[0], "%s", N_("red-green"));
        snprintf(out->out_name[1], sizeof out->out_name[1], "%s", N_("green-red"));
        snprintf(out->out_name[2], sizeof out->out_name[2], "%s", N_("blue-(red+green)"));
    } else if (strcmp(name, "blur") == 0) {
        static const char *const chan[3] = {N_("red blur"), N_("green blur"), N_("blue blur")};
        if (!layer_filters_alloc(out, c_in, c_in, 3))
            return false;
        for (int o = 0; o < c_in; ++o) {
            memcpy(layer_weight(out, o, o), gauss3, sizeof gauss3);
            snprintf(out->out_name[o], sizeof out->out_name[o], "%s", c_in == 3 ? chan[o] : N_("grey blur"));
        }
    } else if (n > 0) {
        unsigned long seed = 12345;
        if (!layer_filters_alloc(out, c_in, (int)n, 3))
            return false;
        for (long i = 0; i < n * c_in * 9; ++i) {
            seed = (seed * 1103515245UL + 12345UL) & 0xffffffffUL;
            out->w[i] = (float)(seed >> 8) / 8388608.0f - 1.0f; /* -1 .. 1 in steps of 2^-23: sums round */
        }
        for (int o = 0; o < (int)n; ++o)
            snprintf(out->out_name[o], sizeof out->out_name[o], "%d", o);
    } else {
        return err_set(_("'%1$s' is not a layer convis knows: %2$s, or a layer file."), name, layer_preset_names());
    }
    set_name(out, name);
    return true;
}

const char *layer_preset_names(void)
{
    return "edges, opponent, blur, random:N";
}

/* ---- text ------------------------------------------------------------------- */

typedef struct reader {
    const char *p, *name;
    int line, col;
    char tok[64];
    int tok_line, tok_col;
    bool too_long; /* the word read was longer than tok holds */
} reader;

/* The next word into r->tok; false at the end. */
static bool next_token(reader *r)
{
    size_t n = 0;
    for (;;) {
        if (*r->p == '#')
            while (*r->p && *r->p != '\n')
                ++r->p, ++r->col;
        if (*r->p == '\n')
            ++r->line, r->col = 1, ++r->p;
        else if (*r->p && isspace((unsigned char)*r->p))
            ++r->p, ++r->col;
        else
            break;
    }
    r->tok_line = r->line, r->tok_col = r->col;
    r->too_long = false;
    while (*r->p && !isspace((unsigned char)*r->p) && *r->p != '#') {
        if (n + 1 < sizeof r->tok)
            r->tok[n++] = *r->p;
        else
            r->too_long = true;
        ++r->p, ++r->col;
    }
    r->tok[n] = '\0';
    return n > 0;
}

static bool fail(reader *r, const char *what)
{
    return err_set("%s:%d:%d: %s", r->name, r->tok_line, r->tok_col, what);
}

static bool expect_word(reader *r, const char *word)
{
    char msg[160];
    if (next_token(r) && !r->too_long && strcmp(r->tok, word) == 0)
        return true;
    snprintf(msg, sizeof msg, _("expected '%s' here"), word);
    return fail(r, msg);
}

static bool read_number(reader *r, float *out)
{
    char *end;
    double v;
    if (!next_token(r))
        return fail(r, _("expected a number here, and the file ends"));
    if (r->too_long)
        return fail(r, _("this word is longer than 63 characters: no number of a layer is"));
    errno = 0;
    v = strtod(r->tok, &end);
    if (*end != '\0' || end == r->tok)
        return fail(r, _("expected a number here"));
    if (errno == ERANGE || !isfinite(v) || fabs(v) > 1e30)
        return fail(r, _("this number is out of range (a layer's numbers are finite, at most 1e30)"));
    if (v != 0 && fabs(v) < 1.1754944e-38)
        return fail(r, _("this number is below 1.2e-38, a float's least normal: a GPU may read it as 0"));
    *out = (float)v;
    return true;
}

static bool read_count(reader *r, const char *word, int lo, int hi, int *out)
{
    float v;
    char msg[200];
    if (!expect_word(r, word) || !read_number(r, &v))
        return false;
    if (v != floorf(v) || v < (float)lo || v > (float)hi) {
        snprintf(msg, sizeof msg, _("'%1$s' is a whole number from %2$d to %3$d"), word, lo, hi);
        return fail(r, msg);
    }
    *out = (int)v;
    return true;
}

/* `from` into `to`, cut at a UTF-8 character's start where it does not fit. */
static void copy_name(char *to, size_t size, const char *from)
{
    size_t n = strlen(from);
    if (n >= size) {
        n = size - 1;
        while (n > 0 && ((unsigned char)from[n] & 0xC0) == 0x80)
            --n;
    }
    memcpy(to, from, n);
    to[n] = '\0';
}

static bool parse_filter(reader *r, layer_filters *f, int o)
{
    int per = f->c_in * f->k * f->k;
    if (!expect_word(r, "filter"))
        return false;
    if (!next_token(r))
        return fail(r, _("expected 'bias' or a filter's name here, and the file ends"));
    if (strcmp(r->tok, "bias") != 0) {
        copy_name(f->out_name[o], sizeof f->out_name[o], r->tok);
        if (!expect_word(r, "bias"))
            return false;
    } else {
        snprintf(f->out_name[o], sizeof f->out_name[o], "%d", o);
    }
    if (!read_number(r, &f->bias[o]))
        return false;
    for (int i = 0; i < per; ++i)
        if (!read_number(r, &layer_weight(f, o, 0)[i]))
            return false;
    return true;
}

bool layer_parse(const char *text, const char *name, layer_filters *out)
{
    reader r = {.p = text, .name = name, .line = 1, .col = 1};
    int c_in, c_out, k;
    memset(out, 0, sizeof *out);
    if (!expect_word(&r, "layer") || !read_count(&r, "in", 1, LAYER_MAX_CHANNELS, &c_in) ||
        !read_count(&r, "out", 1, LAYER_MAX_CHANNELS, &c_out) || !read_count(&r, "k", 1, LAYER_MAX_K, &k))
        return false;
    if (k % 2 == 0)
        return fail(&r, _("a layer's K is odd: its window has a centre"));
    if (!layer_filters_alloc(out, c_in, c_out, k))
        return false;
    for (int o = 0; o < c_out; ++o)
        if (!parse_filter(&r, out, o)) {
            layer_filters_free(out);
            return false;
        }
    if (next_token(&r)) {
        layer_filters_free(out);
        return fail(&r, _("the layer has all its filters: nothing may follow them"));
    }
    set_name(out, name);
    return true;
}

bool layer_load(const char *path, layer_filters *out)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO does not block the open */
    struct stat st;
    FILE *fp;
    char *text;
    size_t n;
    const char *base = strrchr(path, '/');
    bool ok;
    memset(out, 0, sizeof *out);
    if (fd < 0)
        return err_set_kind(err_kind_of_errno(errno), _("Cannot open the layer file %1$s: %2$s."), path,
                            strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return err_set(_("The layer file %s is not a regular file (a directory, a device, a pipe?)."), path);
    }
    fp = fdopen(fd, "rb");
    if (!fp) {
        close(fd);
        return err_set_kind(ERR_ENV, _("Cannot open the layer file %1$s: %2$s."), path, strerror(errno));
    }
    text = malloc(LAYER_FILE_MAX + 1);
    if (!text) {
        fclose(fp);
        return err_set_kind(ERR_ENV, _("There is no memory to read %s."), path);
    }
    n = fread(text, 1, LAYER_FILE_MAX + 1, fp);
    if (ferror(fp)) {
        fclose(fp);
        free(text);
        return err_set(_("Cannot read the layer file %s."), path);
    }
    fclose(fp);
    if (n > LAYER_FILE_MAX) {
        free(text);
        return err_set(_("The layer file %s is larger than 1 MiB: it is not a layer."), path);
    }
    text[n] = '\0';
    if (strlen(text) != n) {
        free(text);
        return err_set(_("The layer file %s holds a zero byte: it is not text."), path);
    }
    ok = layer_parse(text, base ? base + 1 : path, out);
    free(text);
    return ok;
}

bool layer_named(const char *spec, int c_in, layer_filters *out)
{
    struct stat st;
    bool file = (stat(spec, &st) == 0 && S_ISREG(st.st_mode)) || strchr(spec, '/') || strchr(spec, '.');
    if (!(file ? layer_load(spec, out) : layer_preset(spec, c_in, out)))
        return false;
    if (out->c_in == c_in)
        return true;
    err_set(_("The layer '%1$s' takes %2$d channels; the image has %3$d (%4$s)."), out->name, out->c_in, c_in,
            c_in == 3 ? _("a colour image") : _("a grey image"));
    layer_filters_free(out);
    return false;
}

bool layer_format(const layer_filters *f, char *buf, size_t size)
{
    size_t at = 0;
    int n = snprintf(buf, size, "layer in %d out %d k %d\n", f->c_in, f->c_out, f->k);
    for (int o = 0; n >= 0 && (size_t)n < size - at && o < f->c_out; ++o) {
        at += (size_t)n;
        char name[sizeof f->out_name[o]];
        snprintf(name, sizeof name, "%s", f->out_name[o][0] && strcmp(f->out_name[o], "bias") ? f->out_name[o] : "-");
        for (char *c = name; *c; ++c)
            *c = isspace((unsigned char)*c) || *c == '#' ? '_' : *c; /* one word, as layer_parse reads it */
        n = snprintf(buf + at, size - at, "filter %s bias %.9g\n", name, (double)f->bias[o]);
        for (int c = 0; n >= 0 && (size_t)n < size - at && c < f->c_in; ++c)
            for (int t = 0; n >= 0 && (size_t)n < size - at && t < f->k * f->k; ++t) {
                at += (size_t)n;
                n = snprintf(buf + at, size - at, "%.9g%s", (double)layer_weight(f, o, c)[t],
                             t + 1 == f->k * f->k ? "\n" : " ");
            }
    }
    return n >= 0 && (size_t)n < size - at;
}

/* ---- the arithmetic ---------------------------------------------------------- */

conv_params layer_params(const layer_filters *f, const conv_params *p)
{
    conv_params q = *p;
    q.kw = q.kh = f->k;
    q.divisor = 1.0f;
    conv_params_set_geometry(&q, p->stride, p->dilation, p->padding);
    return q;
}

void layer_out_size(const layer_filters *f, const conv_params *p, int in_w, int in_h, int *ow, int *oh)
{
    conv_params q = layer_params(f, p);
    *ow = conv_out_w(&q, in_w);
    *oh = conv_out_h(&q, in_h);
}

double layer_flops(const layer_filters *f, int ow, int oh)
{
    return (2.0 * f->c_in * f->k * f->k + 1.0) * f->c_out * (double)ow * oh;
}

long long layer_im2col_bytes(const layer_filters *f, int ow, int oh)
{
    return (long long)f->c_in * f->k * f->k * ow * oh * (long long)sizeof(float);
}

/* One output: the products of every channel's window, in order, then the
 * bias. A window inside the image reads its taps where they are; one over
 * the edge through the border rule (the same values either way). */
static float direct_one(const layer_tensor *in, const layer_filters *f, const conv_params *q, int o, int x, int y)
{
    float sum = 0.0f;
    int x0 = x * q->stride - q->pad_x, y0 = y * q->stride - q->pad_y, d = q->dilation, reach = (f->k - 1) * d;
    bool inside = x0 >= 0 && y0 >= 0 && x0 + reach < in->w && y0 + reach < in->h;
    for (int c = 0; c < f->c_in; ++c) {
        const float *w = layer_weight(f, o, c), *plane = layer_plane(in, c);
        if (inside) {
            const float *top = plane + (long)y0 * in->w + x0;
            for (int j = 0, t = 0; j < f->k; ++j)
                for (int i = 0; i < f->k; ++i, ++t)
                    sum += conv_product(top[(long)j * d * in->w + i * d], w[t]);
            continue;
        }
        for (int j = 0, t = 0; j < f->k; ++j)
            for (int i = 0; i < f->k; ++i, ++t)
                sum += conv_product(conv_sample(plane, in->w, in->h, x0 + i * d, y0 + j * d, q->border), w[t]);
    }
    return sum + f->bias[o];
}

void layer_direct_rows(const layer_tensor *in, const layer_filters *f, const conv_params *p, layer_tensor *out,
                       long first, long last)
{
    conv_params q = layer_params(f, p);
    for (long r = first; r < last; ++r) {
        int o = (int)(r / out->h), y = (int)(r % out->h);
        float *dst = layer_plane(out, o) + (long)y * out->w;
        for (int x = 0; x < out->w; ++x)
            dst[x] = direct_one(in, f, &q, o, x, y);
    }
}

void layer_direct(const layer_tensor *in, const layer_filters *f, const conv_params *p, layer_tensor *out)
{
    layer_direct_rows(in, f, p, out, 0, (long)out->c * out->h);
}

/* Row (c, tap di, dj) of the unrolled matrix, columns q0..q0+n-1: output
 * row y, outputs x0.. on. Inside the image a strided copy, else the
 * border rule one value at a time. */
static void im2col_run(const float *plane, int w, int h, const conv_params *q, int di, int dj, int y, int x0, long n,
                       float *restrict dst)
{
    int sy = y * q->stride - q->pad_y + dj, sx0 = x0 * q->stride - q->pad_x + di;
    long sx1 = sx0 + (n - 1) * q->stride;
    if (sy >= 0 && sy < h && sx0 >= 0 && sx1 < w) {
        const float *restrict src = plane + (long)sy * w + sx0;
        if (q->stride == 1)
            memcpy(dst, src, (size_t)n * sizeof(float));
        else
            for (long k = 0; k < n; ++k)
                dst[k] = src[k * q->stride];
        return;
    }
    for (long k = 0; k < n; ++k)
        dst[k] = conv_sample(plane, w, h, sx0 + (int)k * q->stride, sy, q->border);
}

void layer_im2col(const layer_tensor *in, const layer_filters *f, const conv_params *p, float *col, long first,
                  long last)
{
    conv_params q = layer_params(f, p);
    int ow = conv_out_w(&q, in->w), kk = f->k * f->k;
    long n = (long)ow * conv_out_h(&q, in->h);
    for (long at = first; at < last;) {
        int y = (int)(at / ow), x0 = (int)(at % ow);
        long run = ow - x0 < last - at ? ow - x0 : last - at; /* to the end of output row y, or of the share */
        for (int c = 0; c < f->c_in; ++c)
            for (int t = 0; t < kk; ++t)
                im2col_run(layer_plane(in, c), in->w, in->h, &q, (t % f->k) * q.dilation, (t / f->k) * q.dilation, y,
                           x0, run, col + ((long)c * kk + t) * n + at);
        at += run;
    }
}

/* Columns a block: 27 rows of them (3 channels, 3x3) are 216 KiB, in the
 * cache for every filter in turn. */
#define GEMM_BLOCK 2048

void layer_gemm(const layer_filters *f, const float *col, long n, float *out, int o0, int o1, long q0, long q1)
{
    long rows = (long)f->c_in * f->k * f->k;
    for (long b0 = q0; b0 < q1; b0 += GEMM_BLOCK) {
        long b1 = b0 + GEMM_BLOCK < q1 ? b0 + GEMM_BLOCK : q1;
        for (int o = o0; o < o1; ++o) {
            float *restrict acc = out + (long)o * n;
            const float *w = layer_weight(f, o, 0);
            for (long q = b0; q < b1; ++q)
                acc[q] = 0.0f;
            for (long r = 0; r < rows; ++r) {
                const float wr = w[r], *restrict src = col + r * n;
                for (long q = b0; q < b1; ++q)
                    acc[q] += conv_product(src[q], wr);
            }
            for (long q = b0; q < b1; ++q)
                acc[q] += f->bias[o];
        }
    }
}

static double gamma_n(double n, double u)
{
    return n * u / (1.0 - n * u);
}

double layer_tolerance(const layer_tensor *in, const layer_filters *f, const conv_params *p, int o, int x, int y,
                       double input_u, double input_abs)
{
    conv_params q = layer_params(f, p);
    int x0 = x * q.stride - q.pad_x, y0 = y * q.stride - q.pad_y, d = q.dilation;
    double mag = fabs((double)f->bias[o]), spread = 0, n = (double)f->c_in * f->k * f->k + 1.0;
    double u = ldexp(1.0, -24), u_sum = input_u > 0 ? ldexp(1.0, -23) : u;
    for (int c = 0; c < f->c_in; ++c) {
        const float *w = layer_weight(f, o, c), *plane = layer_plane(in, c);
        for (int j = 0, t = 0; j < f->k; ++j)
            for (int i = 0; i < f->k; ++i, ++t) {
                double v = conv_sample(plane, in->w, in->h, x0 + i * d, y0 + j * d, q.border);
                mag += fabs((double)w[t] * v);
                spread += fabs((double)w[t]) + fabs(v);
            }
    }
    return (gamma_n(n, u) + gamma_n(n, u_sum)) * mag + (2.0 * input_u + input_u * input_u) * mag * (1.0 + gamma_n(n, u_sum)) +
           (input_abs * spread * (1.0 + input_u) + input_abs * input_abs * (n - 1.0)) * (1.0 + gamma_n(n, u_sum));
}

long layer_compare(const layer_tensor *in, const layer_filters *f, const conv_params *p, const layer_tensor *ref,
                   const layer_tensor *got, double input_u, double input_abs, double *max_diff, long *over)
{
    long differ = 0, past = 0;
    double most = 0;
    for (int o = 0; o < ref->c; ++o)
        for (int y = 0; y < ref->h; ++y)
            for (int x = 0; x < ref->w; ++x) {
                long i = ((long)o * ref->h + y) * ref->w + x;
                float a = ref->px[i], b = got->px[i];
                double diff = fabs((double)a - (double)b);
                if (conv_same(a, b))
                    continue;
                ++differ;
                if (!(diff <= most))
                    most = isnan(diff) ? INFINITY : diff > most ? diff : most;
                if (over && !(diff <= layer_tolerance(in, f, p, o, x, y, input_u, input_abs)))
                    ++past;
            }
    if (max_diff)
        *max_diff = most;
    if (over)
        *over = past;
    return differ;
}
