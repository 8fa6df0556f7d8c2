#!/usr/bin/env bash
# Regenerates the synthetic sample image used by the convolution lessons.
#
#   usage: assets/make_sample.sh [output.png]      (default: assets/sample.png)
#
# The scene (sky gradient, sun, clouds, birds, snowy mountains, rolling hills,
# a house, a tree, a picket fence, a checkered picnic blanket, a sandy path,
# noisy grass and a dark foreground tree framing the top-left corner) is drawn procedurally by the embedded Python 3 script
# (standard library only) into a PPM, which ImageMagick turns into an 8-bit
# RGB PNG.  Everything is deterministic: the only randomness uses a fixed seed.
#
# Shapes are rendered at 3x3 supersampling and box-filtered down, so curved
# and diagonal edges are anti-aliased while axis-aligned edges (and the
# 4-pixel checkerboard) stay pixel-crisp.  The exception is the top-left
# corner, where the lessons' raster walk starts: the foreground tree is drawn
# there without anti-aliasing, so its vertical and diagonal edges are hard
# one-pixel steps of about 50 grey levels.  Distinct regions differ in
# brightness, not only in hue, so the picture also reads well in greyscale.
set -euo pipefail

OUT="${1:-assets/sample.png}"
CONVERT=/usr/bin/convert
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

python3 - "$TMP/sample.ppm" <<'PY'
import math, random, sys

W, H = 512, 384          # final size
S = 3                    # supersampling factor
SW, SH = W * S, H * S
R = [0.0] * (SW * SH)
G = [0.0] * (SW * SH)
B = [0.0] * (SW * SH)
rng = random.Random(20240531)


def put(idx, c, a=1.0):
    if a >= 1.0:
        R[idx], G[idx], B[idx] = c
    elif a > 0.0:
        R[idx] += (c[0] - R[idx]) * a
        G[idx] += (c[1] - G[idx]) * a
        B[idx] += (c[2] - B[idx]) * a


def rows(y0, y1):
    """Supersample rows whose centres lie in [y0, y1) (final coordinates)."""
    j0 = max(0, int(math.ceil(y0 * S - 0.5)))
    j1 = min(SH, int(math.ceil(y1 * S - 0.5)))
    for j in range(j0, j1):
        yield j, (j + 0.5) / S


def span(j, x0, x1, color):
    """Fill samples of row j whose centres lie in [x0, x1)."""
    i0 = max(0, int(math.ceil(x0 * S - 0.5)))
    i1 = min(SW, int(math.ceil(x1 * S - 0.5)))
    base = j * SW
    y = (j + 0.5) / S
    if callable(color):
        for i in range(i0, i1):
            put(base + i, color((i + 0.5) / S, y))
    else:
        for i in range(i0, i1):
            put(base + i, color)


def rect(x0, y0, x1, y1, color):
    for j, _ in rows(y0, y1):
        span(j, x0, x1, color)


def poly(pts, color):
    ys = [p[1] for p in pts]
    n = len(pts)
    for j, y in rows(min(ys), max(ys)):
        xs = []
        for k in range(n):
            (xa, ya), (xb, yb) = pts[k], pts[(k + 1) % n]
            if (ya <= y < yb) or (yb <= y < ya):
                xs.append(xa + (y - ya) * (xb - xa) / (yb - ya))
        xs.sort()
        for k in range(0, len(xs) - 1, 2):
            span(j, xs[k], xs[k + 1], color)


def circle(cx, cy, r, color):
    for j, y in rows(cy - r, cy + r):
        d = r * r - (y - cy) ** 2
        if d > 0:
            d = math.sqrt(d)
            span(j, cx - d, cx + d, color)


def below(f, x0, x1, ybot, color):
    """Fill the region between curve y=f(x) and ybot for x in [x0, x1)."""
    i0 = max(0, int(math.ceil(x0 * S - 0.5)))
    i1 = min(SW, int(math.ceil(x1 * S - 0.5)))
    for i in range(i0, i1):
        x = (i + 0.5) / S
        yt = f(x)
        j0 = max(0, int(math.ceil(yt * S - 0.5)))
        j1 = min(SH, int(math.ceil(ybot * S - 0.5)))
        for j in range(j0, j1):
            y = (j + 0.5) / S
            put(j * SW + i, color(x, y) if callable(color) else color)


def soft(x0, y0, x1, y1, alpha, color):
    """Alpha-blend color over a box, alpha(x, y) in [0, 1]."""
    for j, y in rows(y0, y1):
        i0 = max(0, int(math.ceil(x0 * S - 0.5)))
        i1 = min(SW, int(math.ceil(x1 * S - 0.5)))
        base = j * SW
        for i in range(i0, i1):
            x = (i + 0.5) / S
            put(base + i, color, alpha(x, y))


def seg_dist(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
    t = max(0.0, min(1.0, t))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def stroke(pts, width, color):
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    h = width / 2.0
    for j, y in rows(min(ys) - h, max(ys) + h):
        i0 = max(0, int(math.ceil((min(xs) - h) * S - 0.5)))
        i1 = min(SW, int(math.ceil((max(xs) + h) * S - 0.5)))
        for i in range(i0, i1):
            x = (i + 0.5) / S
            for k in range(len(pts) - 1):
                if seg_dist(x, y, *pts[k], *pts[k + 1]) <= h:
                    put(j * SW + i, color)
                    break


def lerp(a, b, t):
    t = max(0.0, min(1.0, t))
    return tuple(a[k] + (b[k] - a[k]) * t for k in range(3))


def smooth(e0, e1, v):
    t = max(0.0, min(1.0, (v - e0) / (e1 - e0)))
    return t * t * (3 - 2 * t)


# ---------------------------------------------------------------- sky
SKY_TOP, SKY_MID, SKY_LOW = (38, 86, 168), (110, 160, 215), (214, 230, 244)
def sky(x, y):
    t = y / 240.0
    return lerp(SKY_TOP, SKY_MID, t / 0.6) if t < 0.6 else lerp(SKY_MID, SKY_LOW, (t - 0.6) / 0.4)
rect(0, 0, W, H, sky)

# sun with a soft glow
SUN = (432.0, 68.0, 28.0)
soft(SUN[0] - 100, 0, SUN[0] + 80, SUN[1] + 100,
     lambda x, y: 0.42 * (1 - smooth(SUN[2] - 2, SUN[2] + 60, math.hypot(x - SUN[0], y - SUN[1]))),
     (255, 244, 200))
circle(SUN[0], SUN[1], SUN[2], (255, 238, 150))

# soft clouds: union of blobs with a feathered edge
def cloud(blobs, feather=7.0, a=0.95):
    x0 = min(b[0] - b[2] for b in blobs) - feather
    x1 = max(b[0] + b[2] for b in blobs) + feather
    y0 = min(b[1] - b[2] for b in blobs) - feather
    y1 = max(b[1] + b[2] for b in blobs) + feather
    def alpha(x, y):
        d = min(math.hypot(x - bx, y - by) - br for bx, by, br in blobs)
        return a * (1 - smooth(-feather, feather * 0.6, d))
    soft(x0, y0, x1, y1, alpha, (252, 252, 255))

cloud([(70, 70, 18), (95, 60, 24), (125, 66, 20), (148, 74, 13), (100, 78, 16)])
cloud([(250, 38, 13), (272, 30, 18), (296, 36, 14), (280, 44, 12)], feather=6, a=0.9)

# birds: two thin arcs each
def bird(cx, cy, s):
    left = [(cx - s + k * s / 4.0, cy - 0.35 * s * math.sin(math.pi * k / 4.0)) for k in range(5)]
    right = [(cx + k * s / 4.0, cy - 0.35 * s * math.sin(math.pi * k / 4.0)) for k in range(5)]
    stroke(left, 1.6, (40, 45, 60))
    stroke(right, 1.6, (40, 45, 60))
bird(200, 92, 9)
bird(222, 80, 7)
bird(186, 70, 6)

# ---------------------------------------------------------------- mountains
ridge = [(-10, 205), (40, 160), (85, 185), (165, 112), (232, 176), (282, 148),
         (345, 100), (410, 168), (455, 140), (522, 190)]
BASE = 262
MTN_LIT, MTN_SHADE, SNOW = (128, 138, 172), (84, 92, 128), (240, 244, 250)
poly(ridge + [(522, BASE), (-10, BASE)], MTN_LIT)
for k in range(1, len(ridge) - 1):
    (lx, ly), (px, py), (rx, ry) = ridge[k - 1], ridge[k], ridge[k + 1]
    if py < ly and py < ry:            # a peak: shade its right-hand face
        poly([(px, py), (rx, ry), (rx, BASE), (px + (rx - px) * 0.35, BASE)], MTN_SHADE)
        depth = (min(ly, ry) - py) * 0.33
        if depth > 14:                 # snow cap with a jagged lower edge
            yl = py + depth
            xl = px + (lx - px) * (depth / (ly - py))
            xr = px + (rx - px) * (depth / (ry - py))
            n = 6
            jag = []
            for m in range(1, n):
                t = m / n
                jag.append((xr + (xl - xr) * t, yl + (6 if m % 2 else -3)))
            poly([(px, py), (xr, yl)] + jag + [(xl, yl)], SNOW)

# ---------------------------------------------------------------- hills
FAR_HILL = (150, 192, 112)
NEAR_HILL = (104, 160, 74)
below(lambda x: 224 + 14 * math.sin(x / 70.0 + 0.8) + 6 * math.sin(x / 23.0), 0, W, H, FAR_HILL)
below(lambda x: 250 + 16 * math.sin(x / 95.0 + 2.6) + 4 * math.sin(x / 31.0 + 1.0), 0, W, H, NEAR_HILL)

# ---------------------------------------------------------------- meadow (noisy grass)
noise = [rng.gauss(0.0, 1.0) for _ in range(W * H)]
GRASS = (66, 128, 48)
def grass(x, y):
    n = noise[int(y) * W + int(x)]
    k = 1.0 + 0.11 * n + (y - 290) * 0.0012
    return (GRASS[0] * k, GRASS[1] * k, GRASS[2] * k)
meadow_top = lambda x: 286 + 7 * math.sin(x / 60.0 + 0.3)
below(meadow_top, 0, W, H, grass)

# grass blades: short thin strokes, darker and lighter
for _ in range(260):
    x = rng.uniform(0, W)
    y = rng.uniform(meadow_top(x) + 6, H + 4)
    h = rng.uniform(4, 9)
    lean = rng.uniform(-2.5, 2.5)
    c = (40, 92, 30) if rng.random() < 0.6 else (128, 186, 84)
    stroke([(x, y), (x + lean * 0.5, y - h * 0.5), (x + lean, y - h)], 1.0, c)

# small flowers dotted over the meadow
for _ in range(34):
    x = rng.uniform(6, 330)
    y = rng.uniform(meadow_top(x) + 10, H - 4)
    c = (250, 240, 120) if rng.random() < 0.55 else (250, 250, 250)
    circle(x, y, 1.6, c)

# ---------------------------------------------------------------- path to the door
def path_edges(y):
    t = (y - 300) / (H - 300)
    c = 152 - 40 * t * t + 10 * math.sin(t * 3.0)
    w = 12 + 46 * t
    return c - w, c + w
for j, y in rows(300, H):
    xl, xr = path_edges(y)
    span(j, xl, xr, (214, 190, 140))

# ---------------------------------------------------------------- house
WALL, ROOF, ROOF_LINE = (236, 216, 170), (152, 52, 42), (108, 34, 28)
rect(188, 146, 206, 190, (150, 78, 58))          # chimney
rect(185, 140, 209, 148, (120, 60, 45))          # chimney cap
rect(70, 205, 232, 302, WALL)                    # wall
rect(70, 296, 232, 302, (170, 150, 120))         # plinth
roof = [(56, 208), (151, 138), (246, 208)]
poly(roof, ROOF)
for yy in range(150, 208, 7):                    # shingle lines
    t0 = (yy - 138) / 70.0
    x0 = 151 - 95 * t0
    x1 = 151 + 95 * t0
    rect(x0 + 1.5, yy, x1 - 1.5, yy + 1.5, ROOF_LINE)
rect(56, 206, 246, 211, (96, 32, 26))            # eaves

# door with a round-arched top
DOOR = (92, 56, 32)
rect(136, 258, 166, 302, DOOR)
circle(151, 258, 15, DOOR)
circle(159, 281, 2.2, (235, 200, 80))            # knob

def window(x0, y0, x1, y1):
    rect(x0 - 3, y0 - 3, x1 + 3, y1 + 3, (250, 250, 246))   # frame
    rect(x0, y0, x1, y1, (66, 122, 182))                    # glass
    # a diagonal glint on the glass
    poly([(x0 + 4, y1 - 6), (x1 - 10, y0 + 2), (x1 - 4, y0 + 2), (x0 + 10, y1 - 6)], (120, 170, 220))
    mx, my = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    rect(mx - 1.5, y0, mx + 1.5, y1, (250, 250, 246))        # muntins
    rect(x0, my - 1.5, x1, my + 1.5, (250, 250, 246))
    rect(x0 - 5, y1 + 3, x1 + 5, y1 + 7, (200, 190, 170))  # sill
window(88, 226, 122, 260)
window(182, 226, 216, 260)

# ---------------------------------------------------------------- tree
TX = 296
BARK = (96, 62, 38)
poly([(TX - 8, 304), (TX - 6, 226), (TX + 6, 226), (TX + 8, 304)], BARK)    # trunk
poly([(TX - 8, 298), (TX + 8, 298), (TX + 15, 306), (TX - 15, 306)], BARK)  # flared base
poly([(TX + 2, 246), (TX + 26, 214), (TX + 31, 218), (TX + 6, 254)], BARK)  # branch
DARK_LEAF, LEAF, LIGHT_LEAF = (34, 86, 40), (50, 114, 52), (88, 152, 68)
for dx, cy, r in [(-26, 204, 25), (24, 206, 26), (0, 176, 34), (-24, 174, 22), (26, 172, 22), (0, 214, 20)]:
    circle(TX + dx, cy, r, DARK_LEAF)
for dx, cy, r in [(-8, 180, 24), (14, 168, 17), (-22, 198, 15), (18, 196, 12)]:
    circle(TX + dx, cy, r, LEAF)
for dx, cy, r in [(-12, 164, 9), (8, 158, 6), (-26, 190, 5)]:
    circle(TX + dx, cy, r, LIGHT_LEAF)

# ---------------------------------------------------------------- picket fence
FENCE = (246, 246, 240)
rect(334, 292, W, 297, FENCE)                    # rails
rect(334, 314, W, 319, FENCE)
for x in range(338, W + 8, 14):
    rect(x, 284, x + 8, 330, FENCE)
    poly([(x, 284), (x + 4, 277), (x + 8, 284)], FENCE)

# ---------------------------------------------------------------- checkered picnic blanket
BX0, BY0, BX1, BY1 = 352, 340, 484, 376
CHECK = 4
rect(BX0 - 3, BY0 - 3, BX1 + 3, BY1 + 3, (250, 250, 250))
for y in range(BY0, BY1, CHECK):
    for x in range(BX0, BX1, CHECK):
        if ((x - BX0) // CHECK + (y - BY0) // CHECK) % 2 == 0:
            rect(x, y, x + CHECK, y + CHECK, (196, 36, 40))
        else:
            rect(x, y, x + CHECK, y + CHECK, (252, 248, 240))

# ---------------------------------------------------------------- foreground tree (top-left)
# A dark, backlit tree at the left edge frames the scene.  The lessons walk the
# convolution in raster order from the top-left pixel, so this corner must not
# be flat sky: the trunk gives a vertical edge at x = 6 and a branch crosses
# the first rows diagonally, with leaf clumps beyond it.  Inside HARD every
# final pixel is tested once at its centre (no anti-aliasing), so those edges
# are pixel-sharp steps rather than ramps.
HARD = (0, 0, 40, 40)                            # x0, y0, x1, y1 (final pixels)
def shape(inside, x0, y0, x1, y1, color):
    i0 = max(0, int(math.ceil(x0 * S - 0.5)))
    i1 = min(SW, int(math.ceil(x1 * S - 0.5)))
    for j, y in rows(y0, y1):
        for i in range(i0, i1):
            x = (i + 0.5) / S
            px, py = int(x), int(y)
            if HARD[0] <= px < HARD[2] and HARD[1] <= py < HARD[3]:
                tx, ty = px + 0.5, py + 0.5
            else:
                tx, ty = x, y
            if inside(tx, ty):
                put(j * SW + i, color)

def in_poly(pts):
    def inside(x, y):
        c = False
        for k in range(len(pts)):
            (xa, ya), (xb, yb) = pts[k - 1], pts[k]
            if (ya <= y < yb or yb <= y < ya) and x < xa + (y - ya) * (xb - xa) / (yb - ya):
                c = not c
        return c
    return inside

def limb(pts, w0, w1, color):
    """A branch along a polyline, tapering from width w0 to w1."""
    lens = [math.hypot(pts[k + 1][0] - pts[k][0], pts[k + 1][1] - pts[k][1]) for k in range(len(pts) - 1)]
    tot = sum(lens)
    def inside(x, y):
        acc = 0.0
        for k in range(len(pts) - 1):
            (ax, ay), (bx, by) = pts[k], pts[k + 1]
            dx, dy = bx - ax, by - ay
            t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
            w = w0 + (w1 - w0) * (acc + t * lens[k]) / tot
            if math.hypot(x - ax - t * dx, y - ay - t * dy) <= w / 2.0:
                return True
            acc += lens[k]
        return False
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    h = max(w0, w1) / 2.0 + 1
    shape(inside, min(xs) - h, min(ys) - h, max(xs) + h, max(ys) + h, color)

def clump(cx, cy, r, color):
    shape(lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r, cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1, color)

FG_BARK, FG_LEAF, FG_LIT = (28, 24, 30), (18, 46, 30), (40, 88, 46)
trunk = [(-2, -1), (6, -1), (6, 110), (8, 200), (11, 280), (15, 330), (19, H + 1), (-2, H + 1)]
shape(in_poly(trunk), -2, -1, 20, H + 1, FG_BARK)
limb([(3, 13), (11, 5), (20, -3)], 6.0, 5.0, FG_BARK)            # diagonal branch
limb([(4, 50), (24, 36), (46, 27), (66, 24)], 6.0, 2.0, FG_BARK)  # long branch
limb([(30, 33), (38, 20), (44, 13)], 3.0, 1.5, FG_BARK)           # twig
for cx, cy, r in [(31, -3, 11), (45, -7, 12), (48, 3, 9), (60, -4, 11), (63, 6, 7), (76, -3, 10),
                  (89, -7, 9), (85, 3, 6), (44, 13, 6), (51, 11, 4), (70, 20, 8), (79, 24, 6),
                  (60, 27, 5), (68, 29, 4)]:
    clump(cx, cy, r, FG_LEAF)
for cx, cy, r in [(33, -4, 5), (62, -5, 5), (50, 2, 4), (78, -4, 4), (72, 18, 3.5), (45, 12, 2.5)]:
    clump(cx, cy, r, FG_LIT)                    # sunlit leaves, kept inside the dark clumps

# ---------------------------------------------------------------- downsample & write
out = bytearray()
inv = 1.0 / (S * S)
for y in range(H):
    for x in range(W):
        r = g = b = 0.0
        for dy in range(S):
            base = (y * S + dy) * SW + x * S
            for dx in range(S):
                r += R[base + dx]; g += G[base + dx]; b += B[base + dx]
        out += bytes((max(0, min(255, int(r * inv + 0.5))),
                      max(0, min(255, int(g * inv + 0.5))),
                      max(0, min(255, int(b * inv + 0.5)))))
with open(sys.argv[1], "wb") as f:
    f.write(b"P6\n%d %d\n255\n" % (W, H))
    f.write(out)
PY

mkdir -p "$(dirname "$OUT")"
"$CONVERT" "$TMP/sample.ppm" -strip -depth 8 -type TrueColor \
    -define png:color-type=2 -define png:bit-depth=8 "PNG24:$OUT"
echo "wrote $OUT"

# tiny.png: the sample's top-left 16x16 pixels, for the lesson where the
# image is too small for the GPU to pay off.
TINY="$(dirname "$OUT")/tiny.png"
"$CONVERT" "$OUT" -crop 16x16+40+40 +repage -strip -define png:color-type=2 "PNG24:$TINY"
echo "wrote $TINY"
