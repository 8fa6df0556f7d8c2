#!/usr/bin/env bash
# Runs a command on the current display, or under a virtual one (Xvfb, with
# Mesa's llvmpipe when there is no GPU) when there is none.
set -u
if [ -n "${DISPLAY:-}" ] && { ! command -v xdpyinfo >/dev/null 2>&1 || xdpyinfo >/dev/null 2>&1; }; then
  exec "$@"
fi
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "with_display.sh: no display and no xvfb-run; install xvfb (./do.sh test does)" >&2
  exit 1
fi
# The command's own exit status, not xvfb-run's: after a command that ends
# within a moment of starting (a refusal in half a second), xvfb-run can
# fail to remove its temporary folder and exit 5 ("problem while cleaning up
# temporary directory") whatever the command returned; tests read the
# command's status, so it is kept in a file of its own.
status=$(mktemp "${TMPDIR:-/tmp}/with_display.XXXXXX") || exit 1
xvfb-run -a -s "-screen 0 1920x1080x24" bash -c '"$@"; echo $? >"$0"' "$status" "$@"
rc=$?
[ -s "$status" ] && rc=$(cat "$status")
rm -f "$status"
exit "$rc"
