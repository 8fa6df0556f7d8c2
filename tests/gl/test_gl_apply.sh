#!/usr/bin/env bash
# The gl engine from the command line. On the display (run this under
# with_display.sh): `convis engines` lists it available, and
# `convis apply --engine gl` writes the PFM that `--engine cpu-seq` writes
# (byte-equal, or within 1e-5 relative; windows of other sizes such as
# box:5, gaussian:1.5, motion:9 and a 3x5 matrix bit-equal, both kernels). Without a display, the same in an
# offscreen context (EGL), and `engines` says so. Where no context can be
# made at all: `engines` says gl is unavailable and why, `apply --engine gl`
# exits 3 with one sentence, and the CPU engines work as before. And
# pfm_equal's rule: NaN for NaN whatever their bits, 0.0 and -0.0 apart.
# Usage: test_gl_apply.sh CONVIS PFM_EQUAL SOURCE_DIR
set -u
convis=$1 pfm_equal=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
no_display() { env -u DISPLAY -u WAYLAND_DISPLAY timeout 60 "$@"; }

# ---- on the display ------------------------------------------------------------
if timeout 60 "$convis" engines >"$tmp/out" 2>"$tmp/err" && grep -Eq '^gl +available +OpenGL compute on ' "$tmp/out"; then
  ok "engines: gl available ($(grep '^gl ' "$tmp/out" | tr -s ' ' | cut -c1-90))"
else
  bad "engines on the display: $(cat "$tmp/out" "$tmp/err")"
fi
[ ! -s "$tmp/err" ] && ok "engines: nothing on stderr" || bad "engines stderr: $(cat "$tmp/err")"

compare() { # NAME INPUT ARGS...: gl against cpu-seq (within $TOL relative, 1e-5 unless set)
  local name=$1 in=$2 verdict
  shift 2
  if timeout 60 "$convis" apply "$in" "$@" --engine gl --reps 1 -o "$tmp/$name-gl.pfm" >"$tmp/out" 2>"$tmp/err" &&
    grep -q 'engine: gl (OpenGL compute on' "$tmp/out" &&
    timeout 60 "$convis" apply "$in" "$@" --engine cpu-seq --reps 1 -o "$tmp/$name-seq.pfm" >/dev/null 2>>"$tmp/err"; then
    if verdict=$("$pfm_equal" "$tmp/$name-gl.pfm" "$tmp/$name-seq.pfm" "${TOL:-1e-5}"); then
      ok "$name: gl equals cpu-seq: $verdict"
    else
      bad "$name: gl differs from cpu-seq: $verdict"
    fi
  else
    bad "$name: apply failed: $(cat "$tmp/err")"
  fi
}
compare sample-sobel-x "$src/assets/sample.png" -k sobel-x
for b in zero clamp mirror wrap; do
  compare "ramp-gaussian-$b" "$src/tests/data/ramp.pgm" -k gaussian --border "$b"
  compare "tiny-emboss-$b-flip" "$src/tests/data/tiny.png" -k emboss --border "$b" --flip
done
compare sample-box-mirror "$src/assets/sample.png" -k box --border mirror
# windows of other sizes (shaders/convk_*.comp): bit-equal, both kernels
for b in zero clamp mirror wrap; do
  TOL=0 compare "sample-box5-$b" "$src/assets/sample.png" -k box:5 --border "$b"
  TOL=0 compare "tiny-motion9-$b-naive" "$src/tests/data/tiny.png" -k motion:9 --border "$b" --flip --gpu-kernel naive
done
TOL=0 compare sample-gaussian1.5-naive "$src/assets/sample.png" -k gaussian:1.5 --border mirror --gpu-kernel naive
TOL=0 compare ramp-3x5-tiled "$src/tests/data/ramp.pgm" -k "1 2 1; 0 1 0; -1 3 2; 4 0 1; 1 1 1 / 7" --border wrap --flip

# ---- without a display: offscreen through EGL --------------------------------------
no_display "$convis" engines >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -Eq '^gl +available +OpenGL compute on ' "$tmp/out" &&
  grep -Fq "No display: the OpenGL engines ran in an offscreen context" "$tmp/out" &&
  grep -Eq '^cpu-par +available' "$tmp/out" && [ ! -s "$tmp/err" ]; then
  ok "engines without a display: gl available offscreen, and says so; exit 0, nothing on stderr"
else
  bad "engines without a display (exit $rc): $(cat "$tmp/out" "$tmp/err")"
fi

no_display "$convis" apply "$src/tests/data/ramp.pgm" -k gaussian --border clamp --engine gl --reps 1 \
  -o "$tmp/nodisp-gl.pfm" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] &&
  verdict=$("$pfm_equal" "$tmp/nodisp-gl.pfm" "$tmp/ramp-gaussian-clamp-seq.pfm" 1e-5); then
  ok "apply --engine gl without a display: offscreen, equal to cpu-seq: $verdict"
else
  bad "apply --engine gl without a display (exit $rc): $(cat "$tmp/err")"
fi

# ---- no OpenGL context at all (a video driver that does not exist) ---------------------
no_gl() { env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=no-such-driver timeout 60 "$@"; }
no_gl "$convis" engines >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -Eq '^gl +unavailable +cannot create an OpenGL context: ' "$tmp/out" &&
  grep -Eq '^cpu-par +available' "$tmp/out" && [ ! -s "$tmp/err" ]; then
  ok "engines with no GL context possible: gl unavailable with the reason, exit 0, nothing on stderr"
else
  bad "engines with no GL context possible (exit $rc): $(cat "$tmp/out" "$tmp/err")"
fi

no_gl "$convis" apply "$src/tests/data/ramp.pgm" -k sobel-x --engine gl -o "$tmp/nodisp.pfm" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
  grep -q "^convis: engine 'gl' is unavailable: cannot create an OpenGL context: " "$tmp/err" && [ ! -s "$tmp/out" ] &&
  [ ! -e "$tmp/nodisp.pfm" ]; then
  ok "apply --engine gl with no GL context possible: exit 3, one sentence, no output"
else
  bad "apply --engine gl with no GL context possible (exit $rc): $(cat "$tmp/err")"
fi

no_display "$convis" apply "$src/tests/data/ramp.pgm" -k gaussian --border mirror --engine cpu-par -o "$tmp/nodisp-par.pfm" \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && "$pfm_equal" "$tmp/nodisp-par.pfm" "$tmp/ramp-gaussian-mirror-seq.pfm" 0 >/dev/null; then
  ok "apply --engine cpu-par without a display: exit 0, the cpu-seq bytes"
else
  bad "apply --engine cpu-par without a display (exit $rc): $(cat "$tmp/err")"
fi

# pfm_equal's rule (conv_same, src/core/conv.h): NaNs of other bits are the
# same result, as a GPU's NaN and the CPU's; 0.0 and -0.0 are not (TOL 0)
pfm() { printf 'Pf\n2 1\n-1.0\n' >"$1" && printf "$2" >>"$1"; }
pfm "$tmp/nan-cpu.pfm" '\x00\x00\xc0\xff\x00\x00\x00\x00' # x86's NaN, then 0.0 (little-endian)
pfm "$tmp/nan-gpu.pfm" '\xff\xff\xff\x7f\x00\x00\x00\x00' # CUDA's NaN, then 0.0
pfm "$tmp/nan-neg0.pfm" '\xff\xff\xff\x7f\x00\x00\x00\x80' # CUDA's NaN, then -0.0
if verdict=$("$pfm_equal" "$tmp/nan-cpu.pfm" "$tmp/nan-gpu.pfm" 0) && [ "${verdict#bit-equal}" != "$verdict" ]; then
  ok "pfm_equal: NaNs of other bits are the same result: $verdict"
else
  bad "pfm_equal on NaNs of other bits: $verdict"
fi
if ! verdict=$("$pfm_equal" "$tmp/nan-gpu.pfm" "$tmp/nan-neg0.pfm" 0); then
  ok "pfm_equal: 0.0 and -0.0 differ: $verdict"
else
  bad "pfm_equal calls 0.0 and -0.0 equal: $verdict"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
