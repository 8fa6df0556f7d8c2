// conv3x3_poison.comp - fills a work group's shared memory with NaN, and
// nothing else. The gl engine dispatches it, with as many work groups as
// the convolution, just before the tiled shader without its barrier
// (CONVIS_NO_BARRIER): a tile cell read before its invocation has stored it
// then holds NaN, not what a work group of the previous identical dispatch
// may have left in the same place (the right value: the race would not
// show). Compiled after conv3x3.glsl, for its work-group size and buffers.
//
// The tile is declared as in conv3x3_tiled.comp, the same size: change one,
// change the other. The stores are kept by a read the compiler cannot rule
// out: u_w, the image's width, is never negative, but only the C side knows.

const int BDX = int(gl_WorkGroupSize.x);
const int BDY = int(gl_WorkGroupSize.y);
const int TILE_H = BDY + 2;
const int STRIDE = (BDX < 32 && (BDX & (BDX - 1)) == 0) ? 3 * BDX : BDX + 2;
const int WORDS = STRIDE * TILE_H;

shared float tile[WORDS];

void main()
{
    int first = int(gl_LocalInvocationIndex);
    for (int i = first; i < WORDS; i += BDX * BDY)
        tile[i] = uintBitsToFloat(0x7fc00000u); // a quiet NaN
    if (u_w < 0)
        out_px[first] = tile[(-u_w) % WORDS];
}
