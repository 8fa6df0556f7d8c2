#!/usr/bin/env bash
# make_hostile.sh - writes the hostile files that tests/unit/test_hostile.sh
# feeds to convis: each made to break a decoder or exhaust a machine the way
# a stranger's file could. Run once from anywhere; the files are committed
# (all small), so the tests need no Python. Deterministic: the same bytes
# every run.
#
#   pgm16.pgm        a 16-bit PGM, 300x280 (stb_image 2.27 overflows on it:
#                    CVE-2021-42716); convis reads it itself
#   ppm16.ppm        a 16-bit PPM, 64x48, with a comment in its header
#   pnm-overflow.pgm a PGM header whose width and height overflow 32 bits
#   tga-truncated.tga a 64x64 24-bit TGA cut off after 100 bytes of pixels
#                    (CVE-2023-45663: uninitialised memory in the result)
#   bmp-short-palette.bmp  an 8-bit BMP with a one-entry palette whose
#                    pixels index entries past it (uninitialised stack)
#   bmp-offset-in-header.bmp  an 8-bit BMP whose pixels start inside its
#                    header: stb reads no palette and indexes only the stack
#   png-short-plte.png  a paletted PNG with a two-entry PLTE whose pixels
#                    index entries past it (uninitialised stack)
#   png-bomb.png     a grey PNG of 8192x8192 zeros in a few tens of kilobytes
#   png-empty-idat.png  a PNG whose IDAT chunks are empty
#   png-huge.png     a PNG header (valid CRC) claiming 100000x100000
#   tga-rle-17mp.tga a run-length TGA of 4096x4096 in a few hundred bytes
#   jpeg-bad-huffman.jpg a baseline JPEG whose Huffman table has codes that
#                    index past its value table
#   pfm-nan.pfm      a grey little-endian PFM, 5x4, with a NaN at x 3, y 1
#                    (counted from the top; the file's rows go bottom up)
#   pfm-inf.pfm      an RGB big-endian PFM, 4x3, whose green at x 0, y 2 is
#                    +infinity
#   lesson-escape.yaml   a lesson whose image climbs out of its folder
#   lesson-absolute.yaml a lesson whose image is an absolute path
#   lesson-title-control.yaml a lesson whose title holds a terminal's escape
#                    sequences (retitle, clear the screen)
#   record-version-string.json, record-version-hex.json,
#   record-version-fraction.json records whose version is "1", 0x1, 1.9
#   record-size-fraction.json a record whose run has a size of 4.9
#   record-control.json a record whose engine's name holds escape sequences
#                    and whose run's times do not hold together (so that a
#                    sentence quotes the name)
#   record-long-name.json a record whose engine's name is 20 "é" (40 bytes,
#                    more than a name holds) and whose run's times do not
#                    hold together
#   (the deep and the large records are made by test_hostile.sh)
set -eu
cd "$(dirname "$0")"
PYTHONPATH=.. PYTHONDONTWRITEBYTECODE=1 python3 - <<'PY'
import struct, zlib
from png_chunks import SIG, chunk, ihdr as png_ihdr

def ihdr(w, h):
    return png_ihdr(w, h, colour=0)  # grey

def write(name, data):
    with open(name, "wb") as f:
        f.write(data)

# 16-bit PGM and PPM
w, h = 300, 280
write("pgm16.pgm", b"P5\n%d %d\n65535\n" % (w, h) +
      b"".join(struct.pack(">H", (x * 211 + y * 97) % 65536) for y in range(h) for x in range(w)))
w, h = 64, 48
write("ppm16.ppm", b"P6\n# sixteen bits\n%d %d\n65535\n" % (w, h) +
      b"".join(struct.pack(">HHH", x * 1000, y * 1300, (x * y * 17) % 65536) for y in range(h) for x in range(w)))
write("pnm-overflow.pgm", b"P5\n4294967297 4294967297\n255\n" + b"\0" * 64)

# TGA: uncompressed 24-bit 64x64, cut short
hdr = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, 64, 64, 24, 0x20)
write("tga-truncated.tga", hdr + bytes((i * 7) % 256 for i in range(100)))

# TGA: run-length 24-bit 4096x4096: packets of 128 pixels, but only a few present
hdr = struct.pack("<BBBHHBHHHHBB", 0, 0, 10, 0, 0, 0, 0, 0, 4096, 4096, 24, 0x20)
write("tga-rle-17mp.tga", hdr + (b"\xff\x10\x20\x30" * 35))

# BMP: 8 bits a pixel, 16x16, a palette of one entry, pixels 0..255
w = h = 16
pixels = bytes((x * 16 + y) % 256 for y in range(h) for x in range(w))
palette = b"\x40\x80\xc0\x00"
offset = 14 + 40 + len(palette)
info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 8, 0, len(pixels), 2835, 2835, 1, 1)
write("bmp-short-palette.bmp", b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + palette + pixels)

# BMP: 8 bits a pixel, 16x16, its pixel offset (20) inside its 40-byte header
info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 8, 0, len(pixels), 2835, 2835, 0, 0)
body = info + pixels
write("bmp-offset-in-header.bmp", b"BM" + struct.pack("<IHHI", 14 + len(body), 0, 0, 20) + body)

# PNG: paletted 16x16, a PLTE of two entries, pixels 0..255
raw = b"".join(b"\0" + bytes((x * 16 + y) % 256 for x in range(w)) for y in range(h))
write("png-short-plte.png", SIG + png_ihdr(w, h, 8, 3) + chunk(b"PLTE", b"\x10\x20\x30\x40\x50\x60") +
      chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

# PNG: a bomb of zeros, 8192x8192 grey
w = h = 8192
raw = zlib.compressobj(9)
row = b"\0" * (w + 1)
idat = b"".join(raw.compress(row) for _ in range(h)) + raw.flush()
write("png-bomb.png", SIG + ihdr(w, h) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))

# PNG: empty IDAT chunks, then the data
w, h = 8, 8
data = zlib.compress(b"".join(b"\0" + bytes(range(w)) for _ in range(h)), 9)
write("png-empty-idat.png", SIG + ihdr(w, h) + chunk(b"IDAT", b"") + chunk(b"IDAT", b"") + chunk(b"IDAT", data) +
      chunk(b"IEND", b""))

# PNG: a header claiming 100000x100000
write("png-huge.png", SIG + ihdr(100000, 100000) + chunk(b"IEND", b""))

# JPEG: SOI, a DQT, a SOF0 of 8x8 grey, a DHT whose counts promise more
# codes than values follow, SOS, a little scan data, EOI
dqt = b"\xff\xdb" + struct.pack(">H", 67) + b"\x00" + bytes([1] * 64)
sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 8, 8, 1) + b"\x01\x11\x00"
counts = bytes([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255])
dht = b"\xff\xc4" + struct.pack(">H", 2 + 1 + 16 + 4) + b"\x00" + counts + b"\x01\x02\x03\x04"
dht_ac = b"\xff\xc4" + struct.pack(">H", 2 + 1 + 16 + 4) + b"\x10" + counts + b"\x01\x02\x03\x04"
sos = b"\xff\xda" + struct.pack(">H", 8) + b"\x01\x01\x00\x00\x3f\x00"
write("jpeg-bad-huffman.jpg", b"\xff\xd8" + dqt + sof + dht + dht_ac + sos + b"\xff\x00" * 64 + b"\xff\xd9")

# PFM: pixels that are not finite numbers; rows are stored from the bottom up
w, h = 5, 4
rows = [[float(x + 10 * y) for x in range(w)] for y in range(h)]
rows[1][3] = float("nan")
write("pfm-nan.pfm", b"Pf\n%d %d\n-1.0\n" % (w, h) +
      b"".join(struct.pack("<f", v) for row in reversed(rows) for v in row))
w, h = 4, 3
rgb = [[(1.0, 2.0, 3.0) for x in range(w)] for y in range(h)]
rgb[2][0] = (1.0, float("inf"), 3.0)
write("pfm-inf.pfm", b"PF\n%d %d\n1.0\n" % (w, h) +
      b"".join(struct.pack(">fff", *c) for row in reversed(rgb) for c in row))

# lessons whose images leave their folder
write("lesson-escape.yaml", b"title: a lesson from a stranger\nimage: ../../../etc/passwd\nsteps:\n  - say: hello\n")
write("lesson-absolute.yaml", b"title: a lesson from a stranger\nsteps:\n  - say: hello\n    image: /etc/passwd\n")
write("lesson-title-control.yaml", b'title: "\\e]0;owned\\a\\e[2JT"\nsteps:\n  - say: hello\n')

# records from strangers: one thing wrong in each
def record(version=b"1", size=b"4", name=b"cpu-seq", median=b"1"):
    return (b'{"convis_record": ' + version + b', "convis": "0.1.0", "date": "2026-11-30T23:40:00Z",\n'
            b' "machine": {"cpu": "a CPU", "cores": 2, "gpu": "none", "gpu_kind": "none"},\n'
            b' "filter": "gaussian", "border": "clamp",\n'
            b' "engines": [{"name": "' + name + b'", "description": "d", "runs": [\n'
            b'  {"size": ' + size + b', "median_ms": ' + median + b', "min_ms": 0.5, "max_ms": 2, "reps": 9}]}]}\n')
write("record-version-string.json", record(version=b'"1"'))
write("record-version-hex.json", record(version=b"0x1"))
write("record-version-fraction.json", record(version=b"1.9"))
write("record-size-fraction.json", record(size=b"4.9"))
write("record-control.json", record(name=b"\\u001b]0;owned\\u0007\\u001b[2J", median=b"0.1"))
write("record-long-name.json", record(name="\u00e9".encode() * 20, median=b"0.1"))
PY
ls -l
