#!/usr/bin/env bash
# The kernel lab (convis lab) on the machine's OpenGL, under a display (Xvfb
# when there is none): a right tiled kernel passes, bit for bit, within the
# tiled kernel's bound of reads; the naive kernel passes but reads over it;
# the starter and the kernel without its barrier are wrong, and the wrong
# outputs are painted; a compile error is said at the learner's line; a loop
# that never ends is stopped at --timeout and the next check still runs;
# a kernel that reads the buffers past lab_in is refused; --watch checks
# again once the file is saved.
# Usage: test_lab.sh CONVIS SOURCE_DIR
set -u
convis=$1 src=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data # the lab's copy of its starter, the attempts: not into the user's folder
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
run() { timeout 120 "$here/with_display.sh" "$@"; }
lab=$here/lab

# a right tiled kernel: every output right, 18x18 = 324 reads a work group, within the bound
out=$(run "$convis" lab "$lab/right.comp" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "right: all 196,608 outputs equal convis's, bit for bit" <<<"$out" &&
  grep -q "global reads of an interior work group: 324 (counted); a tiled kernel's bound: 324.*: within it" <<<"$out" &&
  grep -q "time of the kernel: .* ms (the median of 3 runs, measured); convis's tiled kernel .* ms" <<<"$out"; then
  ok "a right tiled kernel: $(tr '\n' ' ' <<<"$out")"
else
  bad "a right tiled kernel (exit $rc): $out"
fi

# the naive kernel: right, but 16 x 16 x 9 = 2304 reads a work group, over the bound
out=$(run "$convis" lab "$lab/naive.comp" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "reads of an interior work group: 2304 (counted).*: over it" <<<"$out"; then
  ok "the naive kernel: right, its reads over the tiled bound"
else
  bad "the naive kernel (exit $rc): $out"
fi

# the starter: its halo is not loaded, so the block's edge outputs are wrong; painted
out=$(run "$convis" lab "$src/lab/tiled.comp" --wrong-map "$tmp/wrong.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "wrong: .* of 196,608 outputs differ from convis's, bit for bit" <<<"$out" &&
  grep -q "reads of an interior work group: 256 (counted)" <<<"$out" && [ -s "$tmp/wrong.png" ] &&
  [ "$(od -An -tx1 -N8 "$tmp/wrong.png" | tr -d ' ')" = 89504e470d0a1a0a ]; then
  ok "the starter: wrong where its halo is missing, 256 reads, the map written: $(grep wrong: <<<"$out")"
else
  bad "the starter (exit $rc): $out"
fi
out=$(run "$convis" lab "$src/lab/tiled.comp" --wrong-map "$tmp/wrong.png" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "already exists" <<<"$out" && ok "--wrong-map never writes over a file" ||
  bad "--wrong-map over a file (exit $rc): $out"

# without the barrier: the halo is loaded, but a tile cell may be read before it is stored
out=$(run "$convis" lab "$lab/no_barrier.comp" 2>&1); rc=$?
if grep -q "reads of an interior work group: 324 (counted)" <<<"$out" &&
  { { [ $rc -eq 2 ] && grep -q "wrong: " <<<"$out"; } || { [ $rc -eq 0 ] && grep -q "right: all" <<<"$out"; }; }; then
  ok "without the barrier: $(grep -E 'wrong:|right:' <<<"$out") (a race may or may not show on a run)"
else
  bad "without the barrier (exit $rc): $out"
fi

# a compile error at the learner's own line, not convis's
out=$(run "$convis" lab "$lab/compile_error.comp" 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "does not compile on" <<<"$out" && grep -qE "compile_error.comp:1[23](:[0-9]+)?: .*error" <<<"$out"; then
  ok "a compile error at its line: $(grep error <<<"$out")"
else
  bad "a compile error (exit $rc): $out"
fi

# a loop that never ends: stopped at the timeout, said; the lab goes on
start=$(date +%s)
out=$(run "$convis" lab "$lab/runaway.comp" --timeout 2 2>&1); rc=$?
took=$(($(date +%s) - start))
if [ $rc -eq 2 ] && grep -q "stopped after 2 s: the kernel did not finish" <<<"$out" && [ $took -lt 30 ] &&
  ! pgrep -f "lab --child .*runaway" >/dev/null; then
  ok "a loop that never ends: stopped in ${took} s, no child left: $out"
else
  bad "a loop that never ends (exit $rc, ${took} s): $out"
fi
run "$convis" lab "$lab/right.comp" >/dev/null 2>&1 && ok "the next check runs after a stopped one" ||
  bad "the check after a stopped one"

# the buffers read past lab_in: refused in a sentence (the reads would go uncounted)
printf 'layout(local_size_x = 16, local_size_y = 16) in;\nvoid main() { lab_out(0, 0, in_px[0]); }\n' >"$tmp/raw.comp"
out=$(run "$convis" lab "$tmp/raw.comp" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "read with lab_in(x, y)" <<<"$out" && ok "in_px refused: $out" || bad "in_px (exit $rc): $out"
out=$("$convis" lab "$tmp/none.comp" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "cannot read the kernel" <<<"$out" && ok "a missing file: $out" || bad "a missing file (exit $rc): $out"
out=$("$convis" lab "$lab/right.comp" -k box:5 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "3×3 filters" <<<"$out" && ok "a 5×5 filter: $out" || bad "a 5×5 filter (exit $rc): $out"

# the CUDA starter: compiled by NVRTC where convis has CUDA (run where there is a device)
if out=$("$convis" engines 2>&1) && grep -q "^cuda " <<<"$out" && ! grep -q "built without CUDA" <<<"$out"; then
  out=$(run "$convis" lab "$src/lab/tiled.cu" 2>&1); rc=$?
  if grep -q "NVRTC is not installed" <<<"$out"; then
    echo "# the CUDA lab not checked: $out"
  elif { [ $rc -eq 0 ] && grep -q "compiles on NVRTC; not run" <<<"$out"; } ||
    { [ $rc -eq 2 ] && grep -q "wrong: " <<<"$out"; }; then
    ok "the CUDA starter: $(tr '\n' ' ' <<<"$out")"
  else
    bad "the CUDA starter (exit $rc): $out"
  fi
  out=$(run "$convis" lab "$lab/compile_error.cu" 2>&1); rc=$?
  if grep -q "NVRTC is not installed" <<<"$out" || { [ $rc -eq 2 ] && grep -q "compile_error.cu:11: error: expected a \";\"" <<<"$out"; }; then
    ok "a CUDA compile error at its line: $(grep -m1 error <<<"$out")"
  else
    bad "a CUDA compile error (exit $rc): $out"
  fi
fi

# --watch: a check at once, and again when the file is saved
cp "$src/lab/tiled.comp" "$tmp/mine.comp"
run "$convis" lab "$tmp/mine.comp" --watch >"$tmp/watch.out" 2>&1 &
watcher=$!
for _ in $(seq 100); do grep -q "wrong:" "$tmp/watch.out" 2>/dev/null && break; sleep 0.2; done
cp "$lab/right.comp" "$tmp/mine.comp"
for _ in $(seq 100); do grep -q "right: all" "$tmp/watch.out" 2>/dev/null && break; sleep 0.2; done
kill $watcher 2>/dev/null
pkill -f "lab $tmp/mine.comp --watch" 2>/dev/null
wait $watcher 2>/dev/null
if grep -q "watching $tmp/mine.comp" "$tmp/watch.out" && grep -q "wrong:" "$tmp/watch.out" &&
  grep -q "right: all" "$tmp/watch.out"; then
  ok "--watch: the starter wrong, then right once saved"
else
  bad "--watch: $(cat "$tmp/watch.out")"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
