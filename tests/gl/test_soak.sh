#!/usr/bin/env bash
# A soak: the window given a long random sequence of actions from its own
# action table (the names of `--do`), seeded so a failure reproduces, in
# rounds, a count of them (the longer soak runs in-process, in
# tests/unit/test_app.c): every round ends with exit 0, a state whose
# numbers hold together, a frame drawn, and a bounded peak of memory.
# Usage: test_soak.sh CONVIS [SEED] [ROUNDS]   (under with_display.sh)
set -u
convis=$1 seed=${2:-20261130} rounds=${3:-6}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
max_kb=3000000 # 3 GB: too-big opens an image just past the GPU engine's buffer limit (8192x8192 on llvmpipe)

# Every action but those that leave the window or write files; the heavy
# ones (the sweep, the chain, the image too big for the GPU) rarely.
actions=(play tap step back faster slower finish restart gpu apply-again threads gpu-kernel gpu-engine
  gpu-result next-filter prev-filter filter-1 filter-2 filter-3 filter-4 filter-5 filter-6 filter-7 filter-8
  filter-9 edit-kernel border flip display zoom-in zoom-out pan-left pan-right pan-up pan-down pin lessons
  lesson-next lesson-prev lesson-restart help blank text-size)
heavy=(sweep chain too-big)

RANDOM=$seed
round=0
while [ "$round" -lt "$rounds" ]; do
  round=$((round + 1))
  words=()
  for _ in $(seq 60); do
    if [ $((RANDOM % 40)) -eq 0 ]; then
      words+=("${heavy[RANDOM % ${#heavy[@]}]}")
    else
      w=${actions[RANDOM % ${#actions[@]}]}
      [ $((RANDOM % 5)) -eq 0 ] && w="$w*$((RANDOM % 7 + 2))"
      words+=("$w")
    fi
  done
  script=$(IFS=,; echo "${words[*]}")
  /usr/bin/time -f "%M" -o "$tmp/kb" timeout -k 5 120 "$convis" --window 1024x768 --do "$script" --print-state \
    --screenshot "$tmp/round.png" >"$tmp/state" 2>"$tmp/err"
  rc=$?
  kb=$(tail -n 1 "$tmp/kb")
  get() { grep -m1 "^$1=" "$tmp/state" | cut -d= -f2; }
  done_=$(get done) total=$(get total) view=$(get view_cells) w=$(get width) h=$(get height)
  if [ $rc -ne 0 ]; then
    bad "round $round: exit $rc: $(tail -n 2 "$tmp/err") -- script: $script"
  elif ! [ "$done_" -ge 0 ] 2>/dev/null || [ "$done_" -gt "$total" ] || [ "$total" -ne $((w * h)) ] ||
    [ "$view" -lt 1 ] || [ ! -s "$tmp/round.png" ]; then
    bad "round $round: state out of bounds (done $done_ of $total, ${w}x$h, view $view) -- script: $script"
  elif [ "${kb:-0}" -gt $max_kb ]; then
    bad "round $round: peak memory $kb KB over $max_kb -- script: $script"
  else
    ok "round $round: ${#words[@]} actions, exit 0, state in bounds, $kb KB"
  fi
  rm -f "$tmp/round.png"
done
echo "$passed passed, $failed failed (seed $seed)"
[ "$failed" -eq 0 ] && [ "$passed" -eq "$rounds" ]
