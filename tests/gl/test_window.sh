#!/usr/bin/env bash
# The teaching window, for real, on a display (ctest runs it under its own
# Xvfb with Mesa's llvmpipe, through with_display.sh):
#   0. compare_png passes a picture against itself and catches another;
#   1. four screens against golden screenshots (tests/golden, see screens.sh),
#      what is measured live masked;
#   2. a bad or missing image in a run that ends by itself: exit 2, one
#      sentence, nothing written; no display: the window refuses in one
#      sentence (exit 3), --screenshot draws offscreen;
#   3. --screenshot never overwrites a file; SIGTERM during --gif leaves
#      neither the GIF nor its temporary file;
#   4. the scene's state (--print-state) after scripted actions (--do): every
#      action does what its name says, counts add up, limits hold;
#   5. an unknown action or a bad count is a usage error of one line.
# Usage: test_window.sh CONVIS COMPARE_PNG GOLDEN_DIR
# On failure the folder with every screenshot, state and difference picture
# (NAME.diff.png) is kept and named on the last lines.
set -u
if [ $# -ne 3 ]; then
  echo "usage: test_window.sh CONVIS COMPARE_PNG GOLDEN_DIR" >&2
  exit 2
fi
convis=$1 compare=$2 golden=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/screens.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/convis-test_window.XXXXXX")
passed=0 failed=0 skipped=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
skip() { echo "skip - $1"; skipped=$((skipped + 1)); }
finish() {
  echo "$passed passed, $failed failed, $skipped skipped"
  if [ "$failed" -eq 0 ]; then
    rm -rf "$tmp"
    exit 0
  fi
  echo "kept for a look: $tmp"
  exit 1
}

if [ -z "${DISPLAY:-}" ]; then
  echo "test_window.sh: no display; run it through with_display.sh" >&2
  exit 1
fi

# convis with a time limit: a window that never closes fails, it never hangs
win() { timeout 60 "$convis" "$@"; }

# ---- 0. the comparer itself: it passes the same picture, it catches others ------
if [ -f "$golden/first_screen.png" ] && [ -f "$golden/cpu_partway.png" ]; then
  cp "$golden/first_screen.png" "$tmp/same.png"
  cp "$golden/cpu_partway.png" "$tmp/other.png"
  if "$compare" "$tmp/same.png" "$golden/first_screen.png" >"$tmp/same.compare" 2>&1; then
    ok "compare_png: a picture matches itself"
  else
    bad "compare_png: a picture differs from itself: $(cat "$tmp/same.compare")"
  fi
  "$compare" "$tmp/other.png" "$golden/first_screen.png" >"$tmp/other.compare" 2>&1
  rc=$?
  if [ $rc -eq 1 ] && [ -s "$tmp/other.diff.png" ] && tail -1 "$tmp/other.compare" | grep -q "1 failed"; then
    ok "compare_png: another screen differs (exit 1, other.diff.png written)"
  else
    bad "compare_png: another screen: exit $rc: $(cat "$tmp/other.compare")"
  fi
  "$compare" "$here/../data/tiny.png" "$golden/first_screen.png" >"$tmp/size.compare" 2>&1
  rc=$?
  if [ $rc -eq 1 ] && grep -q "sizes differ" "$tmp/size.compare"; then
    ok "compare_png: pictures of different sizes differ"
  else
    bad "compare_png: different sizes: exit $rc: $(cat "$tmp/size.compare")"
  fi
fi

# ---- 1. golden screens --------------------------------------------------------
gpu_engine=
for name in "${GOLDEN_SCREENS[@]}"; do
  actions=$(golden_actions "$name")
  args=(--window "$GOLDEN_WINDOW" --screenshot "$tmp/$name.png" --print-state)
  [ -n "$actions" ] && args+=(--do "$actions")
  if ! win "${args[@]}" >"$tmp/$name.state" 2>"$tmp/$name.err"; then
    bad "$name: convis ${args[*]} failed: $(cat "$tmp/$name.err")"
    continue
  fi
  [ -s "$tmp/$name.err" ] && bad "$name: convis wrote to stderr: $(cat "$tmp/$name.err")"
  gpu_engine=$(sed -n 's/^gpu_engine=//p' "$tmp/$name.state")
  if golden_needs_gl "$name" && [ "$gpu_engine" != gl ]; then
    skip "$name: the GPU engine here is '$gpu_engine'; this golden shows the gl engine (OpenGL compute on llvmpipe)"
    continue
  fi
  if [ ! -f "$golden/$name.png" ]; then
    bad "$name: no golden $golden/$name.png (tests/gl/update_goldens.sh makes it)"
    continue
  fi
  golden_masks "$tmp/$name.state"
  if "$compare" "$tmp/$name.png" "$golden/$name.png" "${GOLDEN_MASKS[@]}" >"$tmp/$name.compare" 2>&1; then
    ok "$name matches its golden (--do \"$actions\")"
  else
    bad "$name differs from its golden (--do \"$actions\"):"
    sed 's/^/    /' "$tmp/$name.compare"
  fi
done

# ---- 2. a bad image ---------------------------------------------------------------
# In a run that ends by itself it is the run's failure: exit 2, one sentence
# naming the file, nothing made of the sample image in its place (the window
# a person uses shows the sample with a banner: test_interactive.sh).
printf 'not an image\n' >"$tmp/broken.png"
for image in "$tmp/broken.png" "$tmp/nope.png"; do
  for run in "--screenshot $tmp/bad_image.png" "--gif $tmp/bad_image.gif" "--do step --print-state" \
    "--report-frames 5"; do
    rm -f "$tmp/bad_image.png" "$tmp/bad_image.gif"
    start=$(date +%s%N)
    # shellcheck disable=SC2086 # the run's words on purpose
    win "$image" $run >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -q "$(basename "$image")" "$tmp/bad.err" &&
      [ ! -s "$tmp/bad.out" ] && [ ! -e "$tmp/bad_image.png" ] && [ ! -e "$tmp/bad_image.gif" ] && [ $ms -lt 10000 ]; then
      ok "$(basename "$image") $run: exit 2 in $ms ms, one sentence naming it, nothing written"
    else
      bad "$(basename "$image") $run: exit $rc, $ms ms: $(cat "$tmp/bad.err") / stdout $(head -c 200 "$tmp/bad.out")"
    fi
  done
done
left=$(ls -A "$tmp" | grep '^\.convis-')
if [ -z "$left" ]; then ok "a bad image: no temporary file left"; else bad "a bad image: left $left"; fi
# a decoder sandbox that cannot work here (its filter stops even a child that
# decodes nothing, as under valgrind): the window says so of the image, and
# of the sample in its place, which is there and not missing
CONVIS_SANDBOX_TEST=unfit win "$here/../data/tiny.png" >"$tmp/unfit.out" 2>"$tmp/unfit.err"
rc=$?
if ! head -n 1 "$tmp/unfit.err" | grep -q "sandbox does not work here"; then
  skip "a sandbox that cannot work: this build has no seccomp filter ($(head -c 200 "$tmp/unfit.err"))"
elif [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/unfit.err")" -eq 2 ] &&
  sed -n 2p "$tmp/unfit.err" | grep -q "the sample image cannot be shown instead either: .*sample.png.*sandbox does not work here" &&
  ! grep -q "missing\|attack decoders" "$tmp/unfit.err"; then
  ok "a sandbox that cannot work: said of the image and of the sample, neither blamed nor called missing"
else
  bad "a sandbox that cannot work: exit $rc: $(cat "$tmp/unfit.err")"
fi

# ---- 2b. no display: the window refuses, a screenshot is drawn offscreen ----------
env -u DISPLAY -u WAYLAND_DISPLAY timeout 20 "$convis" >"$tmp/nodisplay.out" 2>"$tmp/nodisplay.err"
rc=$?
# exit 3: the machine's lack, not the user's input (cli.h)
if [ $rc -eq 3 ] && [ "$(wc -l <"$tmp/nodisplay.err")" -eq 1 ] &&
  grep -q "no display to open a window on" "$tmp/nodisplay.err" && grep -q -- "--screenshot" "$tmp/nodisplay.err"; then
  ok "no display: the interactive window refuses at once, in one sentence (exit 3)"
else
  bad "no display, interactive: exit $rc: $(cat "$tmp/nodisplay.err")"
fi
# a display named but not there: the window refuses in one sentence, rather
# than run unseen on SDL's offscreen driver (it did)
env -u WAYLAND_DISPLAY DISPLAY=:987 timeout 20 "$convis" >"$tmp/nodisplay.out" 2>"$tmp/nodisplay.err"
rc=$?
if [ $rc -eq 3 ] && grep -q "cannot reach the display ':987'" "$tmp/nodisplay.err"; then
  ok "a display that is not there: the interactive window refuses at once (exit 3)"
else
  bad "a display that is not there: exit $rc: $(cat "$tmp/nodisplay.err")"
fi
env -u DISPLAY -u WAYLAND_DISPLAY timeout 60 "$convis" --do gpu --screenshot "$tmp/offscreen.png" \
  >"$tmp/offscreen.out" 2>"$tmp/offscreen.err"
rc=$?
if [ $rc -eq 0 ] && [ -s "$tmp/offscreen.png" ] && grep -q "drawing offscreen through EGL" "$tmp/offscreen.err"; then
  ok "no display: --screenshot draws offscreen through EGL and says so"
else
  bad "no display, --screenshot: exit $rc: $(cat "$tmp/offscreen.err")"
fi

# ---- 3. a screenshot never overwrites -------------------------------------------
mkdir "$tmp/keep"
cp "$golden/first_screen.png" "$tmp/keep/exists.png" 2>/dev/null || echo keep >"$tmp/keep/exists.png"
cp "$tmp/keep/exists.png" "$tmp/exists.copy"
win --screenshot "$tmp/keep/exists.png" >"$tmp/keep.out" 2>"$tmp/keep.err"
rc=$?
# exit 2: an output path that cannot be used (cli.h)
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/keep.err")" -eq 1 ] && grep -q "exists.png" "$tmp/keep.err"; then
  ok "--screenshot to an existing file refused (exit $rc, one line naming it)"
else
  bad "--screenshot to an existing file: exit $rc, stderr: $(cat "$tmp/keep.err")"
fi
if cmp -s "$tmp/keep/exists.png" "$tmp/exists.copy"; then ok "the existing file is untouched"; else bad "the existing file was changed"; fi
left=$(ls -A "$tmp/keep" | tr '\n' ' ')
if [ "$left" = "exists.png " ]; then ok "no file left beside it"; else bad "files in the folder: $left"; fi

# ---- 3b. SIGTERM during --gif: no GIF at its name, no temporary file -------------
# A minute at 30 frames a second: the frames are being written when the
# signal comes (its temporary file has grown), and the GIF is not whole.
mkdir "$tmp/sig"
timeout 60 "$convis" --do play --gif "$tmp/sig/long.gif" --gif-seconds 60 --gif-fps 30 >"$tmp/sig.out" 2>"$tmp/sig.err" &
pid=$!
grown=no
for _ in $(seq 200); do
  part=$(ls -A "$tmp/sig" | grep '^\.convis-' | head -1)
  if [ -n "$part" ] && [ "$(stat -c %s "$tmp/sig/$part" 2>/dev/null || echo 0)" -gt 100000 ]; then
    grown=yes
    break
  fi
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
left=$(ls -A "$tmp/sig" | tr '\n' ' ')
if [ $grown = yes ] && [ $rc -eq 143 ] && [ -z "$left" ]; then
  ok "SIGTERM during --gif: ended by the signal, no GIF at its name, no temporary file left"
else
  bad "SIGTERM during --gif: being written: $grown, exit $rc, left in the folder: '$left': $(cat "$tmp/sig.err")"
fi

# ---- 4. state after actions -------------------------------------------------------
# state "ACTIONS" key=value...: runs the actions, then quit, and checks the
# state printed. The window never draws: quit ends it before the first frame.
n=0
state() {
  local actions=$1 kv k want got wrong='' file
  shift
  n=$((n + 1))
  file=$tmp/state$n
  if ! win --do "${actions:+$actions,}quit" --print-state >"$file" 2>"$file.err"; then
    bad "after '$actions': convis failed: $(cat "$file.err")"
    return
  fi
  for kv in "$@"; do
    k=${kv%%=*}
    want=${kv#*=}
    got=$(sed -n "s/^$k=//p" "$file")
    [ "$got" = "$want" ] || wrong="$wrong $k=$got (want $want)"
  done
  if [ -z "$wrong" ]; then ok "after '$actions': $*"; else bad "after '$actions':$wrong"; fi
}

# What needs no window (the walk, filters, cycles, pans, Esc) is checked
# in-process by tests/unit/test_app.c; here, what runs on the window's GL: the
# GPU phase, its result path, and a title with passes.
# the GPU phase: every output at once, measured; it stops the walk; a step
# goes back to the walk where it was; restart goes back to output 0
state "" gpu_engine="$gpu_engine" gpu_measured=0 banner= notice=
state "play,gpu,threads" phase=gpu gpu_measured=1 playing=0 thread_view=1
state "step*3,gpu,step" phase=cpu output=3 done=4
state "step*7,tap*2,gpu,restart" phase=cpu output=0 taps=0 done=0
# a filter changed in the GPU phase is computed again on the GPU
state "gpu,filter-2" phase=gpu filter=box weights=1,1,1,1,1,1,1,1,1 gpu_measured=1
# the GPU's result path: into a GL buffer shown as it is (the default), or one
# bulk copy back to the host; the chart follows
state "gpu" phase=gpu gpu_result=interop gpu_presented=1 gpu_measured=1
state "gpu,gpu-result" phase=gpu gpu_result=bulk gpu_presented=0 gpu_measured=1
state "apply-again*2" passes=2 "image=sample.png after 2 passes" output=0 done=0
# the outline filter applied again 60 times overflows to infinity and NaN: the
# GPU phase runs on it, and its runs without the barrier compare NaN for NaN
state "filter-9,apply-again*60,gpu,block-life*5" passes=60 gpu_measured=1 banner= block_stage=no-barrier-gpu \
  race_gpu_runs=5 race_gpu_wrong=0,0,0,0,0 race_gpu_why=

# escape with nothing open quits: the window closes without a quit action
if win --do "step,escape" --print-state >"$tmp/escape.state" 2>"$tmp/escape.err" && grep -qx "done=1" "$tmp/escape.state"; then
  ok "escape with nothing open quits"
else
  bad "escape with nothing open: $(cat "$tmp/escape.err")"
fi

# ---- 5. usage errors ----------------------------------------------------------------
check_usage() {
  local actions=$1 word=$2 rc lines
  win --do "$actions" --print-state >"$tmp/usage.out" 2>"$tmp/usage.err"
  rc=$?
  lines=$(wc -l <"$tmp/usage.err")
  if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && grep -q -- "$word" "$tmp/usage.err" && [ ! -s "$tmp/usage.out" ]; then
    ok "--do \"$actions\": exit 1, one line: $(cat "$tmp/usage.err")"
  else
    bad "--do \"$actions\": exit $rc, $lines lines on stderr: $(cat "$tmp/usage.err") / stdout: $(head -c 200 "$tmp/usage.out")"
  fi
}
check_usage "step,frobnicate,quit" "frobnicate"
check_usage "step*0,quit" "step"

finish
