#!/usr/bin/env bash
# The cuda engine from the command line, on a machine with a CUDA device:
#   - `convis apply --engine cuda` with the tiled and the naive kernel, and with
#     the bulk and the per-pixel result path, writes the PFM that
#     `--engine cpu-seq` writes (byte-equal, or within 1e-5 relative); the
#     per-pixel run says its download was one copy per pixel and, past the
#     cap, extrapolated;
#   - with every device allocation failing (CONVIS_CUDA_FAIL_ALLOC=1): exit 3,
#     one sentence on stderr naming the sizes and the free memory, no output
#     file;
#   - --result interop is refused (exit 1): apply needs the result in host
#     memory.
# Exits 77 (skipped) where `convis engines` says cuda is unavailable.
# Usage: test_cuda_apply.sh CONVIS PFM_EQUAL SOURCE_DIR
set -u
convis=$1 pfm_equal=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }

if ! timeout 60 "$convis" engines >"$tmp/engines" 2>/dev/null || ! grep -Eq '^cuda +available' "$tmp/engines"; then
  echo "skipped: $(grep '^cuda ' "$tmp/engines" 2>/dev/null | tr -s ' ')"
  exit 77
fi
ok "engines: $(grep '^cuda ' "$tmp/engines" | tr -s ' ' | cut -c1-100)"

# ---- results equal cpu-seq's --------------------------------------------------------
compare() { # NAME INPUT ARGS...: cuda (with ARGS) against cpu-seq
  local name=$1 in=$2 verdict
  shift 2
  if timeout 120 "$convis" apply "$in" "$@" --engine cuda --reps 2 -o "$tmp/$name-cuda.pfm" >"$tmp/$name.out" 2>"$tmp/err" &&
    grep -q 'engine: cuda (CUDA on' "$tmp/$name.out" &&
    timeout 60 "$convis" apply "$in" -k "$kernel" --border "$border" $flip --engine cpu-seq --reps 1 \
      -o "$tmp/$name-seq.pfm" >/dev/null 2>>"$tmp/err"; then
    if verdict=$("$pfm_equal" "$tmp/$name-cuda.pfm" "$tmp/$name-seq.pfm" 1e-5); then
      ok "$name: cuda equals cpu-seq: $verdict"
    else
      bad "$name: cuda differs from cpu-seq: $verdict"
    fi
  else
    bad "$name: apply failed: $(cat "$tmp/err")"
  fi
}
for variant in tiled naive; do
  for result in bulk per-pixel; do
    kernel=sobel-x border=mirror flip=
    compare "sample-$variant-$result" "$src/assets/sample.png" -k "$kernel" --border "$border" \
      --gpu-kernel "$variant" --result "$result"
    kernel=emboss border=wrap flip=--flip
    compare "ramp-$variant-$result" "$src/tests/data/ramp.pgm" -k "$kernel" --border "$border" $flip \
      --gpu-kernel "$variant" --result "$result"
  done
done
grep -q 'naive kernel' "$tmp/sample-naive-bulk.out" && grep -q 'tiled kernel' "$tmp/sample-tiled-bulk.out" &&
  ok "the engine line names the kernel variant" || bad "engine lines: $(grep engine: "$tmp"/sample-*-bulk.out)"
if grep -Eq 'download: one copy per pixel, measured on [0-9]+ of [0-9]+ pixels and extrapolated' \
  "$tmp/sample-tiled-per-pixel.out"; then
  ok "per-pixel on the sample image: $(grep 'download:' "$tmp/sample-tiled-per-pixel.out" | cut -c1-110)"
else
  bad "per-pixel on the sample image says no extrapolation: $(cat "$tmp/sample-tiled-per-pixel.out")"
fi
grep -q 'download: one copy per pixel, all [0-9]* pixels measured' "$tmp/ramp-tiled-per-pixel.out" &&
  ok "per-pixel on a small image: every pixel measured" ||
  bad "per-pixel on the ramp: $(cat "$tmp/ramp-tiled-per-pixel.out")"

# ---- an allocation that fails ---------------------------------------------------------
CONVIS_CUDA_FAIL_ALLOC=1 timeout 60 "$convis" apply "$src/tests/data/ramp.pgm" -k box --engine cuda \
  -o "$tmp/fail.pfm" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && ok "CONVIS_CUDA_FAIL_ALLOC=1: exit 3" || bad "CONVIS_CUDA_FAIL_ALLOC=1: exit $rc, expected 3"
if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'free of' "$tmp/err" && grep -q 'needs two device buffers' "$tmp/err"; then
  ok "one sentence: $(cat "$tmp/err")"
else
  bad "the failure's message: $(cat "$tmp/err")"
fi
[ ! -e "$tmp/fail.pfm" ] && ok "no output written" || bad "an output was written despite the failure"

# ---- interop is for the window -----------------------------------------------------------
timeout 60 "$convis" apply "$src/tests/data/ramp.pgm" -k box --engine cuda --result interop -o "$tmp/i.pfm" \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'interop' "$tmp/err" && ok "--result interop: exit 1, '$(cat "$tmp/err")'" ||
  bad "--result interop: exit $rc: $(cat "$tmp/err")"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
