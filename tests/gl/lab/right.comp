// A right tiled kernel: the halo loaded, the barrier, nine reads of the tile.
layout(local_size_x = 16, local_size_y = 16) in;
const int TILE = 18;
shared float tile[TILE * TILE];
void main()
{
    int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    int x0 = int(gl_WorkGroupID.x) * 16 - 1, y0 = int(gl_WorkGroupID.y) * 16 - 1;
    for (int row = ty; row < TILE; row += 16)
        for (int col = tx; col < TILE; col += 16)
            tile[row * TILE + col] = lab_in(x0 + col, y0 + row);
    barrier();
    float value[9];
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            value[dy * 3 + dx] = tile[(ty + dy) * TILE + tx + dx];
    lab_out(x0 + tx + 1, y0 + ty + 1, lab_combine(value));
}
