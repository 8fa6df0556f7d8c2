#!/usr/bin/env bash
# The window driven like a person drives it: real key presses, mouse moves,
# clicks and the wheel, sent through xdotool to convis in a virtual display,
# then the state convis prints when it closes (--print-state) checked.
#
# Usage: test_interactive.sh CONVIS [GIF_INFO]
# Needs a display of its own (ctest runs it under Xvfb: it presses keys and
# moves the mouse, so never run it on a desktop) and xdotool (./do.sh test
# installs it). Every wait has a limit; a window that does not close is killed
# and the test fails. CONVIS_TEST_KEEP=1 keeps the folder with the outputs and
# the screenshot taken with the S key.
#
# Where to click comes from convis itself: before each run, the same window
# brought to the same state by --do prints its places to click
# (--print-state: target=ACTION,ARG,X,Y,W,H), and the clicks go there.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: test_interactive.sh CONVIS [GIF_INFO]" >&2
  exit 2
fi
convis=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # it runs in another folder
gif_info=${2:-} # test_gif, which reads a GIF back
name=test_interactive
# shellcheck source=xdo_common.sh
source "$(dirname "$0")/xdo_common.sh"
finish() {
  stop
  echo "$passed passed, $failed failed"
  if [ "$failed" -eq 0 ] && [ -z "${CONVIS_TEST_KEEP:-}" ]; then
    rm -rf "$tmp"
  else
    echo "kept for a look: $tmp"
  fi
  [ "$failed" -eq 0 ]
  exit
}


# start NAME [ARGS...]: convis --print-state ARGS... in $tmp/NAME (where S
# saves its screenshots), and waits until its window is on screen and has
# the focus.
start() {
  local attempt
  for attempt in 1 2 3; do
    mkdir -p "$tmp/$1"
    rm -f "$tmp/$1/rc"
    (cd "$tmp/$1" && timeout 60 "$convis" --window 1280x720 --print-state "${@:2}" >state 2>err; echo $? >rc) &
    pid=$!
    wid=
    for _ in $(seq 150); do
      wid=$(xdo search --onlyvisible --name '^convis$' 2>/dev/null | head -1)
      [ -n "$wid" ] && break
      # a window xdotool sees but does not yet call visible counts too
      wid=$(xdo search --name '^convis$' 2>/dev/null | head -1)
      [ -n "$wid" ] && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    [ -n "$wid" ] && break
    if [ -f "$tmp/$1/rc" ]; then
      # a display that did not answer this once (a busy machine) is tried
      # again; any other early end is a failure
      if [ "$attempt" -lt 3 ] && grep -q "cannot reach the display" "$tmp/$1/err"; then
        echo "# $1: the display did not answer (attempt $attempt); trying again"
        sleep 2
        continue
      fi
      bad "$1: convis ended (exit $(cat "$tmp/$1/rc")) before its window appeared: $(cat "$tmp/$1/err")"
      return 1
    fi
    # seen on a busy machine once in a while: the window never showed up for
    # xdotool; start it again, once
    echo "# $1: no window after 15 s (attempt $attempt); $([ "$attempt" -lt 3 ] && echo 'trying again' || echo 'giving up')"
    stop
  done
  if [ -z "$wid" ]; then
    bad "$1: no window appeared within 15 s, three times: $(cat "$tmp/$1/err")"
    return 1
  fi
  xdo windowfocus --sync "$wid" || xdo windowfocus "$wid"
  sleep 0.5 # the first frame, then the first measurement
  return 0
}

# keys KEY...: presses keys in the window, a little apart
keys() { xdo key --delay 40 "$@"; }
# at X Y: moves the mouse to window pixel (X, Y)
at() { xdo mousemove --window "$wid" "$1" "$2"; }
# click [BUTTON]: a click where the mouse is
click() { xdo click "${1:-1}"; }

# closed NAME: waits (at most 20 s) for the window to close by itself
closed() {
  local rc
  ended "$1" || return 1
  wait "$pid"
  rc=$?
  pid=
  if [ $rc -ne 0 ]; then
    bad "$1: convis exited $rc: $(cat "$tmp/$1/err")"
    return 1
  fi
  ok "$1: the window closed (exit 0)"
}

# expect NAME key=value...: the state printed at the end
expect() {
  local name=$1 kv k want got wrong=''
  shift
  for kv in "$@"; do
    k=${kv%%=*}
    want=${kv#*=}
    got=$(sed -n "s/^$k=//p" "$tmp/$name/state")
    [ "$got" = "$want" ] || wrong="$wrong $k=$got (want $want)"
  done
  if [ -z "$wrong" ]; then ok "$name: $*"; else bad "$name:$wrong"; fi
}

# layout NAME SCRIPT: the places to click in the window that SCRIPT (--do)
# leads to, as convis prints them, in $tmp/NAME.layout
layout() {
  (cd "$tmp" && timeout 60 "$convis" --window 1280x720 --do "$2" --screenshot "$tmp/$1.png" --print-state) \
    >"$tmp/$1.layout" 2>"$tmp/$1.layout-err" || bad "$1: convis could not print its layout: $(cat "$tmp/$1.layout-err")"
}
# middle NAME ACTION ARG: the window pixel in the middle of that target
middle() {
  local x y w h
  IFS=, read -r x y w h < <(sed -n "s/^target=$2,$3,//p" "$tmp/$1.layout" | head -1)
  echo "$((x + w / 2)) $((y + h / 2))"
}
# cell_center NAME I J: the middle of output cell (I, J) of the grids (the
# output grid is the target of pin, grid_cells' n across: the region's cells,
# or fewer where the window has no room for their values)
cell_center() {
  local x y w h n
  IFS=, read -r x y w h < <(sed -n "s/^target=pin,-1,//p" "$tmp/$1.layout" | head -1)
  n=$(sed -n 's/^grid_cells=[0-9]*,[0-9]*,//p' "$tmp/$1.layout")
  awk -v n="$n" -v i="$2" -v j="$3" -v x="$x" -v y="$y" -v c="$w" \
    'BEGIN { printf "%d %d\n", x + (i + 0.5) * (c + 1) / n, y + (j + 0.5) * (c + 1) / n }'
}

# ---- A: stepping, tapping, speed, blank, the wheel, hovering, Esc quits -----------
# Right x3 completes outputs 0..2 (the view jumps to the walk, 0,0); t t taps
# twice into output 3; Up doubles the speed; B blanks the screen and the next
# key only brings it back (that t taps nothing); the wheel zooms in to fewer
# cells than the grids showed, around the middle (as --do's zoom-in does:
# the layout of a0 and a says where, and that the grids show fewer, larger
# cells after it); Z makes the text larger; the mouse over output cell (4, 6)
# of the grids hovers the image pixel there; Esc, with nothing open, quits.
layout a0 "step*3,tap*2,faster"
layout a1 "step*3,tap*2,faster,zoom-in"
layout a "step*3,tap*2,faster,zoom-in,text-size"
n0=$(sed -n 's/^grid_cells=[0-9]*,[0-9]*,//p' "$tmp/a0.layout")
n1=$(sed -n 's/^grid_cells=[0-9]*,[0-9]*,//p' "$tmp/a1.layout")
if [ -n "$n0" ] && [ -n "$n1" ] && [ "$n1" -lt "$n0" ]; then
  ok "a: zoom-in shows fewer, larger cells ($n0 across, then $n1)"
else
  bad "a: zoom-in did not show fewer cells (grid_cells: $n0, then $n1)"
fi
IFS=, read -r gx gy _ < <(sed -n 's/^grid_cells=//p' "$tmp/a.layout")
if start a; then
  keys Right Right Right t t Up b t
  sleep 0.5
  at 640 600 && click 4
  sleep 1
  keys z
  sleep 0.5
  read -r x y < <(cell_center a 4 6)
  at "$x" "$y"
  sleep 0.5
  at $((x + 1)) "$y"
  sleep 0.5
  keys Escape
  if closed a; then
    expect a phase=cpu output=3 taps=2 done=3 speed=8 blank=0 "view_cells=$(sed -n 's/^view_cells=//p' "$tmp/a.layout")" \
      "view_x=$(sed -n 's/^view_x=//p' "$tmp/a.layout")" "view_y=$(sed -n 's/^view_y=//p' "$tmp/a.layout")" hovering=1 \
      pinned=0 "focus_x=$((gx + 4))" "focus_y=$((gy + 6))" text_scale=125 help=0
  fi
fi
stop

# ---- P: a click keeps the cells under the pointer --------------------------------
# After 19 outputs the walk is on the region's last page of cells that fit,
# which overlaps the one before it; a click on its first output pins that
# output, and the grids stay on the same page (they jumped two cells under
# the pointer when a pinned output took its own page).
layout p "step*19"
IFS=, read -r pgx pgy _ < <(sed -n 's/^grid_cells=//p' "$tmp/p.layout")
if start p; then
  keys Right Right Right Right Right Right Right Right Right Right Right Right Right Right Right Right Right Right Right
  sleep 1
  read -r x y < <(cell_center p 0 0)
  at "$x" "$y"
  sleep 0.5
  click 1
  sleep 0.5
  keys q
  if closed p; then
    expect p pinned=1 "focus_x=$pgx" "focus_y=$pgy" "grid_cells=$(sed -n 's/^grid_cells=//p' "$tmp/p.layout")"
  fi
fi
stop

# ---- D: text cut with an ellipsis shows whole under the pointer ---------------------
# G: the GPU phase, whose engine line (the device's whole name) is cut at
# 1280x720; the mouse on it shows the whole line over everything: the last
# frame's tooltip is one of its cut texts, drawn on the topmost layer.
layout d "gpu"
IFS=, read -r cx cy cw ch _ < <(sed -n 's/^cut=//p' "$tmp/d.layout" | head -1)
if [ -z "${cx:-}" ]; then
  bad "D: nothing was cut at 1280x720 in the GPU phase; the test has nothing to hover"
elif start d; then
  keys g
  sleep 2
  at $((cx + cw / 2)) $((cy + ch / 2))
  sleep 0.5
  at $((cx + cw / 2 + 1)) $((cy + ch / 2))
  sleep 0.5
  keys q
  if closed d; then
    tip=$(sed -n 's/^tooltip=//p' "$tmp/d/state")
    top=$(awk -F, '/^text=/ { if ($5 + 0 >= top) { if ($5 + 0 > top) first = ""; top = $5 + 0; if (first == "") { first = $0; for (k = 0; k < 5; k++) first = substr(first, index(first, ",") + 1) } } } END { print first }' "$tmp/d/state")
    whole=$(awk -v tip="$tip" 'index($0, "cut=") == 1 { t = $0; for (k = 0; k < 4; k++) t = substr(t, index(t, ",") + 1); if (t == tip) n++ } END { print n + 0 }' "$tmp/d/state")
    if [ -n "$tip" ] && [ "$whole" -gt 0 ]; then
      case $tip in
        "$top"*) ok "D: the cut text shows whole under the pointer: $tip" ;;
        *) bad "D: the tooltip '$tip' is not drawn on top (topmost text: '$top')" ;;
      esac
    else
      bad "D: no cut text shown under the pointer (tooltip='$tip')"
    fi
  fi
fi
stop

# ---- C: typing a kernel value swallows other keys ------------------------------------
# E starts editing the kernel's first cell; while a value is typed, letters
# that are keys elsewhere (G launches the GPU, Q quits) do nothing; Tab applies
# 7 and moves to the second cell, where 5 Return applies 5; then Q quits.
if start c; then
  keys e 7 g q Tab 5 Return
  sleep 0.5
  keys q
  if closed c; then
    expect c phase=cpu filter=custom weights=7,5,1,-2,0,2,-1,0,1 edit_tap=-1
  fi
fi
stop

# ---- B: the GPU phase, thread view, pan, zoom, filters, options, help, pin, a chip,
# a kernel value, a screenshot, q -------------------------------------------------------
# Right x3, t t: output 3, two taps; G: the GPU phase; V: thread view;
# Shift+Right: pan half a view (view 10,0); + then -: zoom in and back out
# (20 cells, view 10,0 again); 3: gaussian; M: border mirror; F: flip; D:
# display signed; F1 then Esc: help opened and closed. Then a click on output
# cell (5, 3) of the view pins image pixel (15, 3); a click on the "2 box" chip
# chooses box; a click on the kernel's middle cell and "-3" Return sets its
# weight; S saves the screen; Q quits.
layout b "step*3,tap*2,gpu,threads,pan-right,zoom-in,zoom-out,filter-3,border,flip,display"
if start b; then
  keys Right Right Right t t g v shift+Right plus minus 3 m f d F1 Escape
  sleep 1.5
  read -r x y < <(cell_center b 5 3)
  at "$x" "$y"
  sleep 0.5
  at $((x + 1)) "$y"
  sleep 0.5
  click 1
  sleep 0.5
  read -r x y < <(middle b filter-2 -1)
  at "$x" "$y" && click 1 # the "2 box" chip
  sleep 0.5
  read -r x y < <(middle b edit-kernel 4)
  at "$x" "$y" && click 1 # the kernel's middle cell
  sleep 0.5
  keys minus 3 Return
  sleep 0.5
  keys s
  shot=
  for _ in $(seq 200); do
    shot=$(ls "$tmp/b"/convis-*.png 2>/dev/null | head -1)
    [ -n "$shot" ] && break
    sleep 0.1
  done
  sleep 0.3
  keys q
  if closed b; then
    expect b phase=gpu thread_view=1 view_cells=20 view_x=10 view_y=0 pinned=1 focus_x=15 focus_y=3 \
      filter=custom weights=1,1,1,1,-3,1,1,1,1 border=mirror flip=1 display=signed help=0 edit_tap=-1 \
      blank=0 output=0 taps=0 done=0
    notice=$(sed -n 's/^notice=//p' "$tmp/b/state")
    if [ -n "$shot" ] && [ -s "$shot" ]; then
      ok "b: S saved the screen as $(basename "$shot")"
    else
      bad "b: S saved no screenshot in $tmp/b"
    fi
    case $notice in
      "saved the screen as "*convis-*.png) ok "b: the notice says where: $notice" ;;
      *) bad "b: notice='$notice'" ;;
    esac
  fi
fi
stop

# ---- E: a bad image in the window a person uses: the sample instead, a banner ------------
# (a run that ends by itself refuses it instead: test_window.sh)
printf 'not an image\n' >"$tmp/broken.png"
if start e "$tmp/broken.png"; then
  keys q
  if closed e; then
    expect e image=sample.png
    banner=$(sed -n 's/^banner=//p' "$tmp/e/state")
    case $banner in
      *broken.png*"showing the sample image"*) ok "e: the banner names the file: $banner" ;;
      *) bad "e: banner='$banner'" ;;
    esac
    if [ "$(wc -l <"$tmp/e/err")" -eq 1 ] && grep -q "broken.png" "$tmp/e/err"; then
      ok "e: one line on stderr naming the file"
    else
      bad "e: stderr: $(cat "$tmp/e/err")"
    fi
  fi
fi
stop

# ---- G: Shift+S records a GIF of the window, again stops and saves it ----------------------
if start g; then
  keys Right shift+s
  sleep 2
  keys shift+s
  gif=
  for _ in $(seq 100); do
    gif=$(ls "$tmp/g"/convis-*.gif 2>/dev/null | head -1)
    [ -n "$gif" ] && break
    sleep 0.1
  done
  sleep 0.3
  keys q
  if closed g; then
    info=$([ -n "$gif" ] && [ -n "$gif_info" ] && "$gif_info" --info "$gif")
    frames=${info%% *}
    if [ -n "$gif" ] && [ "${frames:-0}" -ge 10 ] && [ "${info#* }" = "1280x720" ]; then
      ok "g: Shift+S recorded $(basename "$gif"): $frames frames of 1280x720"
    else
      bad "g: Shift+S twice: gif='$gif' info='$info'"
    fi
    notice=$(sed -n 's/^notice=//p' "$tmp/g/state")
    case $notice in
      "saved the GIF as "*convis-*.gif*) ok "g: the notice says where: $notice" ;;
      *) bad "g: notice='$notice'" ;;
    esac
  fi
fi
stop

finish
