// The naive kernel: right, but nine global reads an output.
layout(local_size_x = 16, local_size_y = 16) in;
void main()
{
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    float value[9];
    for (int t = 0; t < 9; ++t)
        value[t] = lab_in(x + t % 3 - 1, y + t / 3 - 1);
    lab_out(x, y, lab_combine(value));
}
