// lab.cuh - what a CUDA kernel written in the kernel lab may call, compiled
// before the learner's file by NVRTC at run time (convis lab FILE.cu,
// src/compute/cuda_lab.c). The learner writes
//   extern "C" __global__ void lab_kernel(lab_image img)
// launched on blocks of 16x16 threads over the image.
//
// lab_in(img, x, y): the input at (x, y) through the border rule: one read
//   of global memory, counted for the block that makes it (with LAB_COUNTED
//   defined; convis builds the file twice, counted and as written).
// lab_out(img, x, y, v): the output at (x, y); nothing outside the image.
// lab_combine(img, value): the nine products added in tap order from 0, then
//   divided by the divisor, rounded as convis's reference rounds them (no
//   fused multiply-add), so a right kernel's outputs equal convis's bit for
//   bit. value[t] is tap t: t = 3 * (dy + 1) + dx + 1.

struct lab_image {
    const float *in_px; // the learner's kernel does not name these three:
    float *out_px;      // it reads and writes through lab_in and lab_out,
    unsigned *lab_reads; // one count a block (convis refuses a file that does)
    int w, h;
    float weight[9];
    float divisor;
    int border; // 0 zero, 1 clamp, 2 mirror, 3 wrap
};

__device__ inline int lab_border_index(int i, int n, int border)
{
    if (i >= 0 && i < n)
        return i;
    if (border == 1)
        return i < 0 ? 0 : n - 1;
    if (border == 2) {
        if (n == 1)
            return 0;
        int period = 2 * (n - 1);
        i %= period;
        if (i < 0)
            i += period;
        return i < n ? i : period - i;
    }
    if (border == 3) {
        i %= n;
        return i < 0 ? i + n : i;
    }
    return -1;
}

__device__ inline float lab_in(const lab_image &img, int x, int y)
{
    int sx = lab_border_index(x, img.w, img.border), sy = lab_border_index(y, img.h, img.border);
    if (sx < 0 || sy < 0)
        return 0.0f;
#ifdef LAB_COUNTED
    atomicAdd(&img.lab_reads[blockIdx.y * gridDim.x + blockIdx.x], 1u);
#endif
    return img.in_px[sy * img.w + sx];
}

__device__ inline void lab_out(const lab_image &img, int x, int y, float v)
{
    if (x >= 0 && y >= 0 && x < img.w && y < img.h)
        img.out_px[y * img.w + x] = v;
}

__device__ inline float lab_combine(const lab_image &img, const float value[9])
{
    float sum = 0.0f;
    for (int t = 0; t < 9; ++t)
        sum = __fadd_rn(sum, __fmul_rn(value[t], img.weight[t]));
    return __fdiv_rn(sum, img.divisor);
}
