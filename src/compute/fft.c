/* fft.c - the convolution through the FFT (fft.h). */
#include "fft.h"

#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "core/tr.h"

#ifdef CONVIS_HAVE_FFTW
#include <fftw3.h>

bool fft_available(char *why, size_t size)
{
    if (size)
        why[0] = '\0';
    return true;
}

const char *fft_version(void)
{
    return fftwf_version;
}

/* The transforms' buffers and plans; every pointer NULL where not made. */
typedef struct fft_work {
    float *image, *filter;
    fftwf_complex *image_f, *filter_f;
    fftwf_plan forward_image, forward_filter, inverse;
} fft_work;

static void work_free(fft_work *w)
{
    if (w->forward_image)
        fftwf_destroy_plan(w->forward_image);
    if (w->forward_filter)
        fftwf_destroy_plan(w->forward_filter);
    if (w->inverse)
        fftwf_destroy_plan(w->inverse);
    fftwf_free(w->image), fftwf_free(w->filter), fftwf_free(w->image_f), fftwf_free(w->filter_f);
}

static bool work_make(fft_work *w, int nw, int nh)
{
    size_t real = (size_t)nw * (size_t)nh, half = (size_t)(nw / 2 + 1) * (size_t)nh;
    memset(w, 0, sizeof *w);
    w->image = fftwf_alloc_real(real), w->filter = fftwf_alloc_real(real);
    w->image_f = fftwf_alloc_complex(half), w->filter_f = fftwf_alloc_complex(half);
    if (!w->image || !w->filter || !w->image_f || !w->filter_f)
        return false;
    w->forward_image = fftwf_plan_dft_r2c_2d(nh, nw, w->image, w->image_f, FFTW_ESTIMATE);
    w->forward_filter = fftwf_plan_dft_r2c_2d(nh, nw, w->filter, w->filter_f, FFTW_ESTIMATE);
    w->inverse = fftwf_plan_dft_c2r_2d(nh, nw, w->image_f, w->image, FFTW_ESTIMATE);
    return w->forward_image && w->forward_filter && w->inverse;
}

/* The smallest even n >= least whose only prime factors are 2 and 3:
 * sizes FFTW transforms fast (on this machine a 576-square transform took
 * 2.7 ms, 540 = 2^2 3^3 5 took 3.5, 525 = 3 5^2 7 about twice that). */
static int smooth(int least)
{
    for (int n = least + (least & 1);; n += 2) {
        int m = n;
        for (int f = 2; f <= 3; ++f)
            while (m % f == 0)
                m /= f;
        if (m == 1)
            return n;
    }
}

bool fft_convolve(const img_plane *in, const conv_params *p, img_plane *out, fft_timing *t)
{
    int rx = p->kw / 2, ry = p->kh / 2, nw = smooth(in->w + p->kw - 1), nh = smooth(in->h + p->kh - 1), cw = nw / 2 + 1;
    float scale = 1.0f / ((float)nw * (float)nh);
    double t0;
    fft_work w;
    memset(t, 0, sizeof *t);
    if (!conv_plain(p))
        return err_set("the FFT runs stride 1, dilation 1 and same padding only; not stride %d, dilation %d, '%s'",
                       p->stride, p->dilation, conv_padding_name((conv_padding)p->padding));
    if (out->w != in->w || out->h != in->h)
        return err_set("the FFT's output is %dx%d, its input %dx%d: they must be the same size", out->w, out->h, in->w,
                       in->h);
    t->nw = nw, t->nh = nh;
    t0 = tim_now_ms();
    if (!work_make(&w, nw, nh)) {
        work_free(&w);
        return err_set("no memory for the FFT's %dx%d transforms", nw, nh);
    }
    t->plan_ms = tim_now_ms() - t0;
    t0 = tim_now_ms();
    /* the image and its border, as the border rule reads it; past the
     * filter's reach, cells no output reads (the transform's wrap lands
     * there) */
    for (int y = 0; y < nh; ++y)
        for (int x = 0; x < nw; ++x)
            w.image[(size_t)y * nw + x] = conv_sample(in->px, in->w, in->h, x - rx, y - ry, p->border);
    memset(w.filter, 0, sizeof(float) * (size_t)nw * nh);
    for (int j = 0; j < p->kh; ++j) /* reversed: tap (i, j) at (-i, -j), so the product correlates */
        for (int i = 0; i < p->kw; ++i)
            w.filter[(size_t)((nh - j) % nh) * nw + (size_t)((nw - i) % nw)] = p->weight[j * p->kw + i];
    fftwf_execute(w.forward_image);
    fftwf_execute(w.forward_filter);
    for (size_t c = 0; c < (size_t)cw * nh; ++c) {
        float ar = w.image_f[c][0], ai = w.image_f[c][1], br = w.filter_f[c][0], bi = w.filter_f[c][1];
        w.image_f[c][0] = (ar * br - ai * bi) * scale;
        w.image_f[c][1] = (ar * bi + ai * br) * scale;
    }
    fftwf_execute(w.inverse);
    for (int y = 0; y < in->h; ++y)
        for (int x = 0; x < in->w; ++x)
            out->px[(size_t)y * out->w + x] = w.image[(size_t)y * nw + x] / p->divisor;
    t->run_ms = tim_now_ms() - t0;
    work_free(&w);
    return true;
}

#else

bool fft_available(char *why, size_t size)
{
    snprintf(why, size, "%s", _("this convis was built without FFTW (Debian: libfftw3-dev; CMake: CONVIS_FFTW)"));
    return false;
}

const char *fft_version(void)
{
    return "";
}

bool fft_convolve(const img_plane *in, const conv_params *p, img_plane *out, fft_timing *t)
{
    char why[160];
    (void)in, (void)p, (void)out;
    memset(t, 0, sizeof *t);
    fft_available(why, sizeof why);
    return err_set("%s", why);
}

#endif
