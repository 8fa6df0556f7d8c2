#!/usr/bin/env bash
# Every place to click that --print-state lists (target=ACTION,ARG,X,Y,W,H)
# is clicked, for real, at its middle: in the grids, inside the GPU, with the
# size sweep shown, in the large picture and in the lesson menu. Each click
# goes to a window of its own, brought to the state by --do, through xdotool;
# the state the window prints when it closes must be what that action alone
# makes of the state: the same as --do "STATE,ACTION" for an action a script
# may name, and for the actions a click gives a place or an index (a cell, a
# pixel, a kernel cell, a thread, a lesson) what that place means. So the
# list of targets and what the window does with a click cannot disagree, and
# a target over something else (a grid under the inside view) fails. And a
# click that comes with keys that change the grids before any frame shows
# them finds what the keys made, not what the last frame drew.
#
# Usage: test_targets.sh CONVIS LESSONS_DIR
# Needs a display of its own (ctest runs it under Xvfb: it moves the mouse
# and clicks) and xdotool. CONVIS_TEST_KEEP=1 keeps the folder of states.
set -u
if [ $# -ne 2 ]; then
  echo "usage: test_targets.sh CONVIS LESSONS_DIR" >&2
  exit 2
fi
convis=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
lessons=$2
name=test_targets
# shellcheck source=xdo_common.sh
source "$(dirname "$0")/xdo_common.sh"
# SDL drops a click that comes within moments of the window's focus unless
# told not to; here they come close together.
export SDL_MOUSE_FOCUS_CLICKTHROUGH=1

# What a click may change and a test can hold equal: not the times, not
# what the pointer hovers, not how far a playing walk has gone.
KEYS="phase area chart filter weights border flip display thread_view view_cells view_x view_y pinned edit_tap
  menu help blank text_scale playing passes image block_stage block_shape block_thread lesson lesson_step"

# get FILE KEY: a value of a printed state
get() { sed -n "s/^$2=//p" "$1" | head -1; }
# grid FILE K: the K-th of grid_cells=X,Y,N, the cells the grids show (the
# region's, or fewer where the window has no room for their values)
grid() { get "$1" grid_cells | cut -d, -f"$2"; }

# layout NAME SCRIPT: the targets of the window that SCRIPT leads to; and in
# $settle, about how long that took, which a window started with SCRIPT is
# given to run the script and draw its first frame before it is clicked
layout() {
  local t0
  t0=$(date +%s%N)
  (cd "$tmp" && timeout 60 "$convis" --window 1280x720 --lang en ${2:+--do "$2"} --screenshot "$tmp/$1.png" --print-state) \
    >"$tmp/$1.layout" 2>"$tmp/$1.layout-err" || bad "$1: convis could not print its layout: $(cat "$tmp/$1.layout-err")"
  settle=$(awk -v ns=$(($(date +%s%N) - t0)) 'BEGIN { printf "%.2f", ns / 1e9 * 1.2 + 0.2 }')
}

# reference FILE SCRIPT: the state after SCRIPT, no window drawn
reference() {
  timeout 60 "$convis" --window 1280x720 --lang en --do "${2:+$2,}quit" --print-state >"$1" 2>"$1.err" ||
    bad "reference '$2': convis failed: $(cat "$1.err")"
}

# start DIR SCRIPT: the window after SCRIPT, on screen with the focus
start() {
  local dir=$1 attempt
  mkdir -p "$dir"
  for attempt in 1 2 3; do
    (cd "$dir" && timeout 60 "$convis" --window 1280x720 --lang en --print-state ${2:+--do "$2"} >state 2>err) &
    pid=$!
    wid=
    for _ in $(seq 150); do
      wid=$(xdo search --onlyvisible --name '^convis$' 2>/dev/null | head -1)
      [ -n "$wid" ] && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    [ -n "$wid" ] && break
    stop
    grep -q "cannot reach the display" "$dir/err" 2>/dev/null || break
    sleep 1
  done
  if [ -z "$wid" ]; then
    bad "$dir: no window appeared: $(cat "$dir/err" 2>/dev/null)"
    return 1
  fi
  xdo windowfocus --sync "$wid" 2>/dev/null || xdo windowfocus "$wid"
  sleep "$settle"
}

# close DIR: q, then the window must end by itself with exit 0
close() {
  xdo key q
  ended "$1" || return 1
  wait "$pid"
  local rc=$?
  pid=
  if [ $rc -ne 0 ]; then
    bad "$1: convis exited $rc: $(cat "$1/err")"
    return 1
  fi
}

# near GOT WANT [SLACK]: whether two whole numbers are at most SLACK apart
near() { [ -n "$1" ] && [ $(($1 - $2)) -le "${3:-1}" ] && [ $(($2 - $1)) -le "${3:-1}" ]; }

# compare WHAT GOT WANT SKIP...: the KEYS of two states equal, but those named
compare() {
  local what=$1 got=$2 want=$3 k wrong=''
  shift 3
  for k in $KEYS; do
    case " $* " in *" $k "*) continue ;; esac
    [ "$(get "$got" "$k")" = "$(get "$want" "$k")" ] || wrong="$wrong $k=$(get "$got" "$k") (want $(get "$want" "$k"))"
  done
  [ -z "$wrong" ] && return 0
  bad "$what:$wrong"
  return 1
}

# click_target STATE SCRIPT I ACTION ARG X Y W H: the I-th target clicked
# (dragged, for view-at) in a window of its own, and its state checked
click_target() {
  local name=$1 script=$2 i=$3 action=$4 arg=$5 x=$6 y=$7 w=$8 h=$9
  local dir=$tmp/$name-$i cx=$((x + w / 2)) cy=$((y + h / 2)) what="$name: $action,$arg at ($((x + w / 2)), $((y + h / 2)))"
  local base=$tmp/$name.base drawn=$tmp/$name.layout want=$tmp/$name-$i.want got cell n k
  start "$dir" "$script" || return
  xdo mousemove --window "$wid" "$cx" "$cy"
  case $action in
    view-at) # the input grid pans by a drag: 3.5 cells left and 2.5 up
      cell=$(awk -v w="$w" -v n="$(grid "$drawn" 3)" 'BEGIN { print (w + 1) / (n + 2) }')
      xdo mousedown 1
      for k in 1 2 3 4 5 6 7; do
        xdo mousemove --window "$wid" "$(awk -v c="$cx" -v d="$cell" -v k="$k" 'BEGIN { printf "%d", c - 3.5 * d * k / 7 }')" \
          "$(awk -v c="$cy" -v d="$cell" -v k="$k" 'BEGIN { printf "%d", c - 2.5 * d * k / 7 }')"
      done
      xdo mouseup 1
      ;;
    *) xdo click 1 ;;
  esac
  [ "$action" = edit-kernel ] && xdo key 7 Return # the cell clicked takes the weight 7
  close "$dir" || return
  got=$dir/state
  case $action in
    edit-kernel)
      # the reference's weights with the ARG-th one 7: the cell clicked was edited
      local weights
      weights=$(get "$base" weights | awk -F, -v k="$arg" -v OFS=, '{ $(k + 1) = 7; print }')
      if [ "$(get "$got" weights)" = "$weights" ] && [ "$(get "$got" filter)" = custom ]; then
        compare "$what" "$got" "$base" weights filter && ok "$what: the cell clicked took 7 ($weights)"
      else
        bad "$what: weights=$(get "$got" weights) filter=$(get "$got" filter) (want $weights, custom)"
      fi
      ;;
    pin)
      # the output under the middle: a cell of the output grid, or a pixel
      # of a large picture
      local fx fy
      if [ "$(get "$base" area)" = large ]; then
        fx=$(awk -v c=$((w / 2)) -v w="$w" -v n="$(get "$base" width)" 'BEGIN { printf "%d", c / (w + 1) * n }')
        fy=$(awk -v c=$((h / 2)) -v h="$h" -v n="$(get "$base" height)" 'BEGIN { printf "%d", c / (h + 1) * n }')
      else
        n=$(grid "$drawn" 3)
        fx=$(awk -v c=$((w / 2)) -v w="$w" -v n="$n" -v v="$(grid "$drawn" 1)" 'BEGIN { printf "%d", v + c / ((w + 1) / n) }')
        fy=$(awk -v c=$((h / 2)) -v h="$h" -v n="$n" -v v="$(grid "$drawn" 2)" 'BEGIN { printf "%d", v + c / ((h + 1) / n) }')
      fi
      if [ "$(get "$got" pinned)" = 1 ] && near "$(get "$got" focus_x)" "$fx" && near "$(get "$got" focus_y)" "$fy"; then
        compare "$what" "$got" "$base" pinned && ok "$what: pinned output ($(get "$got" focus_x), $(get "$got" focus_y))"
      else
        bad "$what: pinned=$(get "$got" pinned) focus=$(get "$got" focus_x),$(get "$got" focus_y) (want 1 and about $fx,$fy)"
      fi
      ;;
    center-on)
      # the grids centred on the pixel under the middle of the thumbnail
      local px py vx vy
      n=$(get "$base" view_cells)
      px=$(awk -v c=$((w / 2)) -v w="$w" -v n="$(get "$base" width)" 'BEGIN { printf "%d", c / (w + 1) * n }')
      py=$(awk -v c=$((h / 2)) -v h="$h" -v n="$(get "$base" height)" 'BEGIN { printf "%d", c / (h + 1) * n }')
      vx=$((px - n / 2)) vy=$((py - n / 2))
      if near "$(get "$got" view_x)" "$vx" 2 && near "$(get "$got" view_y)" "$vy" 2; then
        compare "$what" "$got" "$base" view_x view_y && ok "$what: the grids moved to $(get "$got" view_x),$(get "$got" view_y)"
      else
        bad "$what: view=$(get "$got" view_x),$(get "$got" view_y) (want about $vx,$vy)"
      fi
      ;;
    view-at)
      local vx=$(($(get "$base" view_x) + 3)) vy=$(($(get "$base" view_y) + 2))
      if near "$(get "$got" view_x)" "$vx" && near "$(get "$got" view_y)" "$vy"; then
        compare "$what" "$got" "$base" view_x view_y && ok "$what: a drag panned to $(get "$got" view_x),$(get "$got" view_y)"
      else
        bad "$what: a drag: view=$(get "$got" view_x),$(get "$got" view_y) (want about $vx,$vy)"
      fi
      ;;
    block-pick)
      # the thread under the middle of the tile: its cells with a ring of halo
      local shape bdx bdy col row t
      shape=$(get "$base" block_shape)
      bdx=${shape%x*} bdy=${shape#*x}
      col=$(awk -v c=$((w / 2)) -v w="$w" -v n="$bdx" 'BEGIN { printf "%d", c / ((w + 1) / (n + 2)) - 1 }')
      row=$(awk -v c=$((h / 2)) -v h="$h" -v n="$bdy" 'BEGIN { printf "%d", c / ((h + 1) / (n + 2)) - 1 }')
      t=$(get "$got" block_thread)
      if [ -n "$t" ] && near $((t % bdx)) "$col" && near $((t / bdx)) "$row"; then
        compare "$what" "$got" "$base" block_thread && ok "$what: thread $t looked at"
      else
        bad "$what: block_thread=$t (want about column $col, row $row of $shape)"
      fi
      ;;
    pick-lesson)
      local file
      file=$(cd "$lessons/en" && LC_ALL=C ls -1 -- *.yaml | sed -n "$((arg + 1))p")
      if [ -n "$file" ] && [ "$(basename "$(get "$got" lesson)")" = "$file" ] && [ "$(get "$got" menu)" = 0 ] &&
        [ "$(get "$got" lesson_step)" = 1 ]; then
        ok "$what: lesson $file started"
      else
        bad "$what: lesson=$(get "$got" lesson) step $(get "$got" lesson_step) menu=$(get "$got" menu) (want $file, 1, 0)"
      fi
      ;;
    *)
      reference "$want" "${script:+$script,}$action"
      compare "$what" "$got" "$want" && ok "$what: as --do \"${script:+$script,}$action\""
      ;;
  esac
}

# state NAME SCRIPT: the targets of that state clicked, each button once
# across the states (the top row is the same over every main area; that a
# click there gives its own action in every state, at every size, is
# test_layout's, in-process), and every place whose click reads its point
# (a cell, a pixel, a thread, a lesson) in each state it is in
declare -A clicked
state() {
  local name=$1 script=$2 i=0 line key
  layout "$name" "$script"
  reference "$tmp/$name.base" "$script"
  if ! grep -q '^target=' "$tmp/$name.layout"; then
    bad "$name: no targets listed"
    return
  fi
  while IFS=, read -r action arg x y w h; do
    i=$((i + 1))
    case $action in
      pin | center-on | view-at | block-pick) key=$name:$action:$x:$y ;;
      pick-lesson | edit-kernel) key=$name:$action ;; # one of its cells or rows: the index comes the same way
      *) key=$action:$arg ;;
    esac
    [ -n "${clicked[$key]:-}" ] && continue
    clicked[$key]=1
    click_target "$name" "$script" "$i" "$action" "$arg" "$x" "$y" "$w" "$h"
  done < <(sed -n 's/^target=//p' "$tmp/$name.layout")
}

# ---- inside the GPU: the tile's threads, and nothing of the grids it covers ---------
layout inside-list block-life
listed=$(sed -n 's/^target=\([^,]*\),.*/\1/p' "$tmp/inside-list.layout" | sort -u | tr '\n' ' ')
covered=$(echo "$listed" | tr ' ' '\n' | grep -x -e edit-kernel -e center-on -e view-at -e pin | tr '\n' ' ')
if echo "$listed" | grep -qw block-pick && [ -z "$covered" ]; then
  ok "inside the GPU: block-pick listed, nothing of the grids under it ($listed)"
else
  bad "inside the GPU: targets $listed; want block-pick and none of edit-kernel, center-on, view-at, pin"
fi

# ---- a click after a change no frame has shown -----------------------------------
# Two zoom keys and a click on an output cell, sent as the window starts:
# they wait in its queue for its first frame, and come in one batch after it.
# The click, on the last cell of the grids zoomed in twice, must find that
# cell, not the one under it in the frame drawn before the keys (the grids
# from 0,0).
layout zoomed "zoom-in*2"
IFS=, read -r x y w h < <(sed -n 's/^target=pin,-1,//p' "$tmp/zoomed.layout" | head -1)
n=$(get "$tmp/zoomed.layout" view_cells)
g=$(grid "$tmp/zoomed.layout" 3)
k=$((g - 1))
read -r cx cy < <(awk -v x="$x" -v y="$y" -v w="$w" -v n="$g" -v k="$k" 'BEGIN { printf "%d %d\n", x + (k + 0.5) * (w + 1) / n, y + (k + 0.5) * (w + 1) / n }')
fx=$(($(grid "$tmp/zoomed.layout" 1) + k)) fy=$(($(grid "$tmp/zoomed.layout" 2) + k))
settle=0
if start "$tmp/zoom-click" ""; then
  xdo key plus plus mousemove --window "$wid" "$cx" "$cy" click 1
  if close "$tmp/zoom-click"; then
    got=$tmp/zoom-click/state
    if [ "$(get "$got" view_cells)" = "$n" ] && [ "$(get "$got" pinned)" = 1 ] && [ "$(get "$got" focus_x)" = "$fx" ] &&
      [ "$(get "$got" focus_y)" = "$fy" ]; then
      ok "zoom, zoom, click in one batch: pinned ($fx, $fy) of the grids zoomed in"
    else
      bad "zoom, zoom, click in one batch: view_cells=$(get "$got" view_cells) pinned=$(get "$got" pinned) \
focus=$(get "$got" focus_x),$(get "$got" focus_y) (want $n, 1, $fx,$fy)"
    fi
  fi
fi

state grids ""
state inside block-life
state sweep sweep
state large large-view
state menu lessons

echo "$passed passed, $failed failed"
if [ "$failed" -eq 0 ] && [ -z "${CONVIS_TEST_KEEP:-}" ]; then
  rm -rf "$tmp"
else
  echo "kept for a look: $tmp"
fi
[ "$failed" -eq 0 ]
