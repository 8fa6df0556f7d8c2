// A loop that never ends: its count never changes.
layout(local_size_x = 16, local_size_y = 16) in;
void main()
{
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    float v = 0.0;
    for (int i = 0; i < 10; i += 0)
        v += lab_in(x, y);
    lab_out(x, y, v);
}
