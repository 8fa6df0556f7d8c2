#!/usr/bin/env bash
# Makes the golden screenshots of the window again, in tests/golden/, from the
# current build. Run it deliberately, after a change to what the window
# shows, and look at every image it writes before committing them: a golden
# is only as right as the person who looked at it. Tests never run this.
#
# Usage: tests/gl/update_goldens.sh [BUILD_DIR]   (default: ./build)
# The screens are listed in tests/gl/screens.sh. They are made under Xvfb
# (Mesa llvmpipe, the gl engine), never on the desktop's display, so that they
# match what test_window.sh sees. Each screen is then made a second time and
# compared with its new golden as the test does: what differs between the two
# runs outside the masks is something measured live that screens.sh does not
# mask yet (the difference picture is kept and named).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
convis=$build/convis
compare=$build/tests/compare_png
golden=$root/tests/golden
. "$here/screens.sh"

if [ ! -x "$convis" ] || [ ! -x "$compare" ]; then
  echo "update_goldens.sh: no $convis or $compare; build first (cmake --build build)" >&2
  exit 1
fi
if [ -z "${CONVIS_IN_XVFB:-}" ]; then
  export CONVIS_IN_XVFB=1
  exec env -u DISPLAY bash "$here/with_display.sh" bash "$0" "$build"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/convis-goldens.XXXXXX")
mkdir -p "$golden"
status=0
for name in "${GOLDEN_SCREENS[@]}"; do
  actions=$(golden_actions "$name")
  args=(--window "$GOLDEN_WINDOW" --screenshot "$tmp/$name.png" --print-state)
  [ -n "$actions" ] && args+=(--do "$actions")
  if ! timeout 60 "$convis" "${args[@]}" >"$tmp/$name.state" 2>"$tmp/$name.err"; then
    echo "update_goldens.sh: $name failed: $(cat "$tmp/$name.err")" >&2
    status=1
    continue
  fi
  engine=$(sed -n 's/^gpu_engine=//p' "$tmp/$name.state")
  if golden_needs_gl "$name" && [ "$engine" != gl ]; then
    echo "update_goldens.sh: $name not made: the GPU engine here is '$engine', the goldens are made with 'gl'" >&2
    status=1
    continue
  fi
  if [ -s "$tmp/$name.err" ]; then
    echo "update_goldens.sh: $name: convis said: $(cat "$tmp/$name.err")" >&2
    status=1
    continue
  fi
  mv "$tmp/$name.png" "$golden/$name.png"
  echo "wrote $golden/$name.png  (--do \"$actions\")"
  args[3]=$tmp/$name.again.png
  golden_masks "$tmp/$name.state"
  if timeout 60 "$convis" "${args[@]}" >/dev/null 2>&1 &&
    "$compare" "$tmp/$name.again.png" "$golden/$name.png" "${GOLDEN_MASKS[@]}" >"$tmp/$name.compare" 2>&1; then
    echo "  made again, it matches: $(grep "pixels compared" "$tmp/$name.compare")"
  else
    echo "update_goldens.sh: $name made again does not match its golden; see $tmp:" >&2
    cat "$tmp/$name.compare" >&2
    status=1
  fi
done
if [ $status -eq 0 ]; then
  rm -rf "$tmp"
  echo "Now look at every image above before committing it."
fi
exit $status
