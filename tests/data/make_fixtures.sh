#!/usr/bin/env bash
# make_fixtures.sh - writes the small input files that tests/unit/test_cli.sh
# feeds to `convis apply`. Run once from anywhere; the files are committed, so
# the tests themselves never need Python. Deterministic: the same bytes every
# run (zlib level 9, no timestamps, pixel values from fixed formulas).
#
#   empty.png        0 bytes
#   text.png         a few lines of plain text under a .png name
#   truncated.png    a valid 16x16 RGB PNG cut off in the middle of its IDAT
#   huge_header.png  a valid IHDR (correct CRC) claiming 100000x1 pixels, then IEND
#   ramp.pgm         a binary (P5) 7x5 PGM, values 0..255, no symmetry
#   tiny.png         a valid 5x4 RGB PNG
#   grad16.png       a 16-bit grey 512x2 PNG: 512 levels 0..65535 across the
#                    top row, multiples of 257 (whole values 0..255) below
#   grad16.pgm       the same image as a binary PGM of maxval 65535
set -eu
cd "$(dirname "$0")"
PYTHONPATH=. PYTHONDONTWRITEBYTECODE=1 python3 - <<'EOF'
import struct, zlib
from png_chunks import SIG, chunk, ihdr

def rgb_png(w, h, pixel):
    raw = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))
    idat = zlib.compress(raw, 9)
    return SIG + ihdr(w, h) + chunk(b"IDAT", idat) + chunk(b"IEND", b""), idat

def write(name, data):
    assert len(data) < 4096, name
    with open(name, "wb") as f:
        f.write(data)

write("empty.png", b"")

write("text.png", b"This is not an image.\n"
                  b"It is plain text in a file whose name ends in .png;\n"
                  b"convis must refuse it with one clear line.\n")

# tiny.png: 5x4 RGB, every pixel a different colour.
tiny, _ = rgb_png(5, 4, lambda x, y: ((x * 61 + y * 17) % 256, (x * 23 + y * 71 + 40) % 256,
                                      (255 - x * 47 - y * 29) % 256))
write("tiny.png", tiny)

# truncated.png: 16x16 of LCG noise (so the IDAT is long and incompressible),
# cut halfway through the IDAT data: no rest of IDAT, no CRC, no IEND.
state = [12345]
def noise(x, y):
    out = []
    for _ in range(3):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(state[0] >> 23)
    return out
full, idat = rgb_png(16, 16, noise)
idat_data_start = len(SIG) + 25 + 8  # signature, IHDR chunk, IDAT length and type
cut = idat_data_start + len(idat) // 2
assert full[idat_data_start - 4:idat_data_start] == b"IDAT"
write("truncated.png", full[:cut])

# huge_header.png: a header only, 100000x1 RGB, then IEND; no pixel data.
write("huge_header.png", SIG + ihdr(100000, 1) + chunk(b"IEND", b""))

# ramp.pgm: 7x5, a horizontal ramp bent by the row and a product term, so
# no filter result is trivially zero or symmetric. Includes 0 and 255.
W, H = 7, 5
vals = []
for y in range(H):
    for x in range(W):
        vals.append(min(255, (x * 37 + y * 11 + (x * y * 7) % 23) % 256))
vals[0] = 0
vals[-1] = 255
write("ramp.pgm", b"P5\n%d %d\n255\n" % (W, H) + bytes(vals))

# grad16.png, grad16.pgm: more levels than 8 bits hold (the top row), and
# levels whose value on the 0..255 scale is whole (257 k is k: the row below).
W = 512
levels = [x * 65535 // (W - 1) for x in range(W)] + [257 * (x % 256) for x in range(W)]
rows = b"".join(b"\x00" + b"".join(struct.pack(">H", v) for v in levels[y * W:(y + 1) * W]) for y in range(2))
write("grad16.png", SIG + ihdr(W, 2, depth=16, colour=0) + chunk(b"IDAT", zlib.compress(rows, 9)) +
      chunk(b"IEND", b""))
write("grad16.pgm", b"P5\n%d 2\n65535\n" % W + b"".join(struct.pack(">H", v) for v in levels))
EOF
