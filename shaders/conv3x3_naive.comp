// conv3x3_naive.comp - the naive kernel: every invocation reads its nine
// inputs from the storage buffer (global memory) itself. Compiled after
// conv3x3.glsl, which holds what both shaders share.
//
// The three columns and three rows the window covers are mapped by the
// border rule once (conv_edge_index: nothing to do away from the edge, and
// no branch either way), then the nine values are read in tap order:
// exactly what conv_fetch reads, so the result equals the reference bit for
// bit.

void main()
{
    int x = int(gl_GlobalInvocationID.x);
    int y = int(gl_GlobalInvocationID.y);
    float value[9];

    // The dispatch is rounded up to whole work groups: the invocations past
    // the right and bottom edges have no output.
    if (x >= u_w || y >= u_h)
        return;
    int c0 = conv_edge_index(x - 1, u_w, u_border), c2 = conv_edge_index(x + 1, u_w, u_border);
    int r0 = conv_edge_index(y - 1, u_h, u_border), r2 = conv_edge_index(y + 1, u_h, u_border);
    value[0] = conv_read(c0, r0);
    value[1] = conv_read(x, r0);
    value[2] = conv_read(c2, r0);
    value[3] = conv_read(c0, y);
    value[4] = conv_read(x, y);
    value[5] = conv_read(c2, y);
    value[6] = conv_read(c0, r2);
    value[7] = conv_read(x, r2);
    value[8] = conv_read(c2, r2);
    out_px[y * u_w + x] = conv_combine(value);
}
