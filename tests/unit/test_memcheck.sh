#!/usr/bin/env bash
# The image decoder under valgrind's memcheck: every image of tests/data/hostile
# and tests/data/*.png through `convis apply`, decoded in-process
# (CONVIS_DECODE_IN_PROCESS=1: the sandbox's seccomp filter would stop
# valgrind's own calls, and the checker would see nothing of the decoder).
# Each run: no memory error and no leak lost for good (exit 9 otherwise),
# exit 0 with an image or exit 2 with one sentence, and the decoder seen
# running where the file reaches it. Images over 20 megapixels (the 8192x8192
# bomb) are refused from their header: valgrind is some 50 times slower.
# Without CONVIS_DECODE_IN_PROCESS, under valgrind, a good image is not
# blamed: the sentence says the sandbox does not work here.
# Skipped (exit 77) without valgrind, and in AddressSanitizer builds (the two
# do not run together).
# Usage: test_memcheck.sh CONVIS DATA_DIR (tests/data)
set -u
convis=$1 data=$2
if [ -n "${CONVIS_TEST_SANITIZED:-}" ]; then
  echo "skipped: an AddressSanitizer build; valgrind does not run over one"
  exit 77
fi
if ! command -v valgrind >/dev/null 2>&1; then
  echo "skipped: valgrind is not installed"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 decoded=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
memcheck() {
  valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite --log-file="$tmp/vg.log" "$@"
}
start=$(date +%s)

for file in "$data"/hostile/*.png "$data"/hostile/*.jpg "$data"/hostile/*.bmp "$data"/hostile/*.tga \
  "$data"/hostile/*.pgm "$data"/hostile/*.ppm "$data"/hostile/*.pfm "$data"/*.png; do
  [ -f "$file" ] || continue
  name=${file#"$data"/}
  rm -f "$tmp/out.pfm"
  CONVIS_DECODE_IN_PROCESS=1 memcheck "$convis" apply "$file" -k box --reps 1 --max-pixels 20000000 \
    -o "$tmp/out.pfm" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  # the notice is said when the decoder runs; a file refused before (its
  # first bytes, its header's size) never reaches it
  seen=no
  grep -q "CONVIS_DECODE_IN_PROCESS=1: images are decoded without their sandbox" "$tmp/err" && seen=yes
  [ $seen = yes ] && decoded=$((decoded + 1))
  grep -v "CONVIS_DECODE_IN_PROCESS" "$tmp/err" >"$tmp/said"
  sentences=$(wc -l <"$tmp/said")
  if [ $rc -eq 9 ] || ! grep -q "ERROR SUMMARY: 0 errors" "$tmp/vg.log"; then
    bad "$name: valgrind found errors: $(grep -A12 -m1 'Invalid\|uninitialised\|definitely lost' "$tmp/vg.log")"
  elif [ $rc -eq 0 ] && [ -s "$tmp/out.pfm" ] && [ $seen = yes ]; then
    ok "$name: an image, no memory error"
  elif [ $rc -eq 2 ] && [ "$sentences" -eq 1 ] && [ ! -e "$tmp/out.pfm" ] && ! grep -q "sandbox" "$tmp/said"; then
    ok "$name: refused ($( [ $seen = yes ] && echo "by the decoder" || echo "before decoding")), no memory error: $(cat "$tmp/said")"
  else
    bad "$name: exit $rc, decoder seen: $seen: $(cat "$tmp/err")"
  fi
done
# the decoder itself was looked at, not only what refuses files before it
if [ $decoded -ge 10 ]; then
  ok "$decoded files reached the decoder under valgrind"
else
  bad "only $decoded files reached the decoder under valgrind"
fi

# under valgrind with the sandbox: a good image is not called an attack;
# the sentence says the sandbox cannot work here (a build without the
# seccomp filter decodes it)
memcheck "$convis" apply "$data/tiny.png" -k box --reps 1 -o "$tmp/tiny.pfm" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ -s "$tmp/tiny.pfm" ]; then
  ok "tiny.png under valgrind, sandboxed: decoded (this build has no seccomp filter)"
elif [ $rc -eq 2 ] && grep -q "the image decoder's sandbox does not work here" "$tmp/err" &&
  grep -q "CONVIS_DECODE_IN_PROCESS=1" "$tmp/err" && ! grep -q "attack decoders" "$tmp/err"; then
  ok "tiny.png under valgrind, sandboxed: the sandbox is said not to work here, the file not blamed"
else
  bad "tiny.png under valgrind, sandboxed: exit $rc: $(cat "$tmp/err")"
fi

echo "$passed passed, $failed failed, in $(($(date +%s) - start)) s"
[ "$failed" -eq 0 ]
