// tiled.comp - the kernel lab's starter: the tiled 3x3 convolution, with two
// parts left for you to write. In the window, Shift+L copies it into your data
// folder (the lab says where) and checks your copy each time you save it; in a
// terminal, `convis lab YOUR-COPY.comp --watch` does the same. On each save
// convis compiles it, runs it on the image, compares every output with its
// own, bit for bit, counts the global reads of each work group and times it
// beside its own kernels.
//
// The work group of 16x16 invocations computes a 16x16 block of outputs.
// Each output needs the 3x3 inputs around it, so the block needs an 18x18
// tile: its own 16x16 inputs and a one-cell halo around them. The tile goes
// in shared memory, loaded once; then every invocation reads its nine
// values from there, not from global memory.
//
// What you may call: lab_in(x, y) reads the input (counted), lab_out(x, y, v)
// writes an output, lab_combine(value) adds the nine products (value[t] is
// tap t, row by row). u_w and u_h are the image's width and height.

layout(local_size_x = 16, local_size_y = 16) in;

const int TILE = 18; // 16 + 2: the block and its halo

shared float tile[TILE * TILE];

void main()
{
    int tx = int(gl_LocalInvocationID.x);
    int ty = int(gl_LocalInvocationID.y);
    int x0 = int(gl_WorkGroupID.x) * 16 - 1; // the image column of the tile's cell (0, 0)
    int y0 = int(gl_WorkGroupID.y) * 16 - 1;

    // 1. Load: each invocation stores the input under its own output, at
    //    cell (tx + 1, ty + 1) of the tile.
    tile[(ty + 1) * TILE + tx + 1] = lab_in(x0 + tx + 1, y0 + ty + 1);
    // TODO 1: the halo. The ring of cells around the block (row 0, row 17,
    //    column 0, column 17) is still empty. Have some invocations load it:
    //    cell (col, row) of the tile holds lab_in(x0 + col, y0 + row).

    // TODO 2: wait. No invocation may read the tile before every one has
    //    written its part of it.

    // 3. Compute: the nine cells around (tx + 1, ty + 1).
    float value[9];
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            value[dy * 3 + dx] = tile[(ty + dy) * TILE + tx + dx];
    lab_out(x0 + tx + 1, y0 + ty + 1, lab_combine(value));
}
