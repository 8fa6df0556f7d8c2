// lab.glsl - what a kernel written in the kernel lab may call, compiled
// after conv3x3.glsl (the image's buffers, the weights, the border rule)
// and before the learner's file (convis lab, src/compute/gl_lab.c).
//
// lab_in(x, y): the input at (x, y) through the border rule: one read of
//   global memory, counted for the work group that makes it (a tap outside
//   the image under the zero border reads nothing, and is not counted). The
//   lab builds the file twice: with LAB_COUNTED defined for the run whose
//   reads it counts, without it for the runs it times (the count's atomic
//   adds would cost more than the reads).
// lab_out(x, y, v): the output at (x, y); nothing outside the image.
// lab_combine(value): the nine products of the filter, added in tap order
//   as the reference adds them (conv_combine), so a right kernel's outputs
//   equal convis's bit for bit. value[t] is tap t: t = 3 * (dy + 1) + dx + 1.

layout(std430, binding = 2) restrict buffer lab_counts { uint lab_reads[]; };

float lab_in(int x, int y)
{
    int sx = conv_border_index(x, u_w, u_border);
    int sy = conv_border_index(y, u_h, u_border);
    if (sx < 0 || sy < 0)
        return 0.0;
#ifdef LAB_COUNTED
    atomicAdd(lab_reads[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x], 1u);
#endif
    return in_px[sy * u_w + sx];
}

void lab_out(int x, int y, float v)
{
    if (x >= 0 && y >= 0 && x < u_w && y < u_h)
        out_px[y * u_w + x] = v;
}

float lab_combine(float value[9])
{
    return conv_combine(value);
}
