#!/usr/bin/env bash
# The window, for real, on a display (Xvfb when there is none): it opens,
# draws both panels, saves a screenshot and exits; a bad image gives a banner
# and a sentence and the window goes on with the sample image.
# Usage: test_window.sh CONVIS CHECK_FRAME
set -u
convis=$1 check_frame=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }

run() { timeout 60 "$here/with_display.sh" "$@"; }

# 1. the first screen, default lesson image and filter
if run "$convis" --screenshot "$tmp/first.png" >"$tmp/out" 2>"$tmp/err"; then
  ok "window opens and saves a screenshot"
else
  bad "window run failed: $(cat "$tmp/err")"
fi
if [ -f "$tmp/first.png" ] && "$check_frame" "$tmp/first.png" 1280 720 no-banner; then
  ok "first screen: both panels, no banner"
else
  bad "first screen checks"
fi

# 2. a bad image: one sentence on stderr, a banner, the sample image instead
printf 'not an image\n' >"$tmp/broken.png"
if run "$convis" "$tmp/broken.png" --window 1024x600 --screenshot "$tmp/bad.png" >"$tmp/out" 2>"$tmp/err"; then
  ok "window goes on after a bad image"
else
  bad "window stopped on a bad image: $(cat "$tmp/err")"
fi
if grep -q "broken.png" "$tmp/err"; then ok "stderr names the file"; else bad "stderr: $(cat "$tmp/err")"; fi
if [ -f "$tmp/bad.png" ] && "$check_frame" "$tmp/bad.png" 1024 600 banner; then
  ok "banner shown over the sample image"
else
  bad "banner checks"
fi

# 3. a screenshot never overwrites a file
echo keep >"$tmp/exists.png"
run "$convis" --screenshot "$tmp/exists.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] && [ "$(cat "$tmp/exists.png")" = keep ]; then
  ok "existing file kept (exit $rc)"
else
  bad "screenshot replaced an existing file (exit $rc)"
fi

# 4. options reach the window: another filter and display
if run "$convis" -k gaussian --border wrap --display signed --screenshot "$tmp/g.png" >/dev/null 2>"$tmp/err" &&
  "$check_frame" "$tmp/g.png" 1280 720 no-banner; then
  ok "filter options"
else
  bad "filter options: $(cat "$tmp/err")"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
