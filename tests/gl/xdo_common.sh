# xdo_common.sh - what the tests that drive the window with xdotool share
# (test_interactive.sh, test_targets.sh): sourced once `name` is the test's
# name. It checks for xdotool and a display, makes the test's folder ($tmp),
# counts (ok, bad), stops the window started ($pid) on exit, and runs
# xdotool with a deadline (xdo).
if ! command -v xdotool >/dev/null 2>&1; then
  echo "$name.sh: xdotool is missing; install it (./do.sh test does)" >&2
  exit 1
fi
if [ -z "${DISPLAY:-}" ]; then
  echo "$name.sh: no display; run it through with_display.sh (under Xvfb)" >&2
  exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/convis-$name.XXXXXX")
passed=0 failed=0 pid='' wid=''
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
stop() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    pkill -TERM -P "$pid" 2>/dev/null; kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  pid=
}
trap stop EXIT
xdo() { timeout 10 xdotool "$@"; }
# ended NAME: waits (at most 20 s) for the window ($pid) to end by itself;
# when it does not, stops it and says so (false)
ended() {
  for _ in $(seq 200); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  bad "$1: the window did not close; killed"
  stop
  return 1
}
