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
exec xvfb-run -a -s "-screen 0 1920x1080x24" "$@"
