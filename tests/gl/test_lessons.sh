#!/usr/bin/env bash
# Every lesson, in every language, checked and played from its first step to
# its last under a display (Xvfb when there is none): a screenshot per step,
# no OpenGL error, no message. Then the player's rules: a step that waits
# for the learner does not move on until the learner acts, and a mistake in a
# lesson file is one file:line:column sentence. A lesson that names no image
# plays on one given with it (lesson 8 on a photo of the teacher's own).
# Then stills as a reader sees them, and a GIF for slides.
# Usage: test_lessons.sh CONVIS LESSONS_DIR GIF_INFO (test_gif, which reads a GIF back)
#                        COMPARE_PNG
set -u
convis=$1 lessons=$2 gif_info=$3 compare_png=$4
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data # the lab's copy of its starter, the attempts: not into the user's folder
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
run() { timeout 120 "$here/with_display.sh" "$@"; }

shopt -s nullglob
files=("$lessons"/*/*.yaml)
[ ${#files[@]} -gt 0 ] && ok "${#files[@]} lesson files found" || bad "no lesson files in $lessons"

for f in "${files[@]}"; do
  name=${f#"$lessons"/}
  if out=$(timeout 30 "$convis" lesson --check "$f" 2>&1); then
    ok "check $name: $out"
  else
    bad "check $name: $out"
    continue
  fi
  steps=$(sed -n 's/.*, \([0-9]*\) steps\{0,1\}$/\1/p' <<<"$out")
  dir=$tmp/${name%.yaml}
  mkdir -p "$(dirname "$dir")" # --render-steps makes the folder itself, not the folders above it
  # a step that waits for the learner has its picture after too, the wait
  # done (step-NN-after.png); the waits counted in the file itself
  waits=$(grep -cE '^    (wait|ask):' "$f") # a question's after: its answer shown
  if run "$convis" lesson --render-steps "$dir" "$f" >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    shots=("$dir"/step-[0-9][0-9].png)
    afters=("$dir"/step-[0-9][0-9]-after.png)
    lone=0
    for a in "${afters[@]}"; do [ -e "${a%-after.png}.png" ] || lone=$((lone + 1)); done
    if [ "${#shots[@]}" -eq "$steps" ] && [ "${#afters[@]}" -eq "$waits" ] && [ $lone -eq 0 ]; then
      ok "play $name: $steps steps, one screenshot each, $waits after their wait, nothing on stderr"
    else
      bad "play $name: ${#shots[@]} screenshots for $steps steps, ${#afters[@]} after a wait for $waits waits ($lone without their before)"
    fi
  else
    bad "play $name: $(cat "$tmp/err")"
  fi
done

# the picture after a wait shows what the action did: lesson 2's first step
# waits for G, and after it the GPU's outputs fill the grid (more than 5 %
# of the pixels differ; the hint's line alone is far less)
for lang in en zh; do
  d=$tmp/$lang/02-all-at-once
  if [ -e "$d/step-01-after.png" ] &&
    ! "$compare_png" "$d/step-01-after.png" "$d/step-01.png" --max-fraction 0.05 >"$tmp/cmp" 2>&1; then
    ok "$lang lesson 2, step 1: the picture after G differs from the one before ($(grep -o "fraction [0-9][0-9.]*" "$tmp/cmp" | head -1) of the pixels)"
  else
    bad "$lang lesson 2, step 1: after G as before, or missing: $(cat "$tmp/cmp" 2>/dev/null)"
  fi
done

# waits: lesson 2's first step waits for G; next does nothing until then
en2=$lessons/en/02-all-at-once.yaml
state() { run "$convis" lesson "$en2" --do "$1" --print-state --screenshot "$tmp/s$RANDOM.png" 2>/dev/null; }
st=$(state "lesson-next,lesson-next")
if grep -q '^lesson_step=1$' <<<"$st" && grep -q '^lesson_waiting=1$' <<<"$st"; then
  ok "a waiting step does not move on"
else
  bad "a waiting step moved on: $(grep lesson <<<"$st" | tr '\n' ' ')"
fi
st=$(state "lesson-next,gpu,lesson-next,lesson-next,lesson-prev")
if grep -q '^lesson_step=2$' <<<"$st" && grep -q '^phase=gpu$' <<<"$st"; then
  ok "after G the lesson goes on; back goes back"
else
  bad "after G: $(grep -E 'lesson|phase' <<<"$st" | tr '\n' ' ')"
fi

# a lesson that names no image plays on one given with it: lesson 8 on a
# photo of the teacher's own (here the 16x16 tiny.png), in both languages
for lang in en zh; do
  st=$(run "$convis" lesson "$lessons/$lang/08-your-own-image.yaml" "$lessons/../assets/tiny.png" --print-state \
    --screenshot "$tmp/own-$lang.png" 2>"$tmp/err")
  if grep -q '^image=tiny.png$' <<<"$st" && grep -q "^lesson=.*/$lang/08-your-own-image.yaml$" <<<"$st" &&
    grep -q '^width=16$' <<<"$st" && [ ! -s "$tmp/err" ]; then
    ok "lesson $lang/08-your-own-image.yaml tiny.png: the lesson plays on tiny.png"
  else
    bad "lesson $lang/08 on tiny.png: $(grep -E '^(image|lesson|width)=' <<<"$st" | tr '\n' ' ') $(cat "$tmp/err")"
  fi
done

# a still of a playing walk shows it some seconds on, as a reader of the
# step sees it (it used to show an empty output)
st=$(run "$convis" --do play --print-state --screenshot "$tmp/play.png" 2>/dev/null)
done_now=$(sed -n 's/^done=//p' <<<"$st")
if [ -n "$done_now" ] && [ "$done_now" -ge 8 ]; then
  ok "a still of the playing walk shows $done_now outputs done"
else
  bad "a still of the playing walk: done=$done_now"
fi

# Y opens its test image in the CPU phase: the GPU is tried on it only by G
# (it used to run at once and show the red banner before the learner acted)
st=$(run "$convis" --do gpu,too-big --print-state --screenshot "$tmp/big.png" 2>/dev/null)
if ! grep -q '^image=a .* test image$' <<<"$st"; then
  ok "Y: every image convis opens fits this GPU ($(sed -n 's/^notice=//p' <<<"$st"))"
elif grep -q '^phase=cpu$' <<<"$st" && grep -q '^banner=$' <<<"$st"; then
  ok "Y opens $(sed -n 's/^image=//p' <<<"$st") in the CPU phase, no banner before G"
else
  bad "Y: $(grep -E '^(image|phase|banner)=' <<<"$st" | tr '\n' ' ')"
fi

# a GIF of the walk playing: the frames and size asked for; never over a file
gif=$tmp/walk.gif
if run "$convis" --do "faster*5,play" --gif "$gif" --gif-seconds 2 --gif-fps 5 --window 640x360 >"$tmp/out" 2>/dev/null &&
  [ "$("$gif_info" --info "$gif")" = "10 640x360" ]; then
  ok "a GIF: $(cat "$tmp/out")"
else
  bad "a GIF: $(cat "$tmp/out") / $("$gif_info" --info "$gif" 2>&1)"
fi
before=$(cksum <"$gif")
if ! run "$convis" --gif "$gif" --gif-seconds 1 >/dev/null 2>"$tmp/err" && grep -q "already exists" "$tmp/err" &&
  [ "$(cksum <"$gif")" = "$before" ]; then
  ok "a GIF is never written over a file: $(cat "$tmp/err")"
else
  bad "a GIF over an existing file: $(cat "$tmp/err")"
fi

# a GIF of a lesson's steps: each step for --gif-seconds, in turn (the
# first step's picture and the last's differ), the steps' waits done
gif=$tmp/steps.gif
if run "$convis" lesson "$lessons/en/02-all-at-once.yaml" --gif "$gif" --gif-steps --gif-seconds 1 --gif-fps 4 \
  --window 640x360 >"$tmp/out" 2>"$tmp/err" && [ "$("$gif_info" --info "$gif")" = "32 640x360" ] &&
  "$gif_info" --frame 2 "$gif" "$tmp/first.ppm" && "$gif_info" --frame 30 "$gif" "$tmp/last.ppm" &&
  ! cmp -s "$tmp/first.ppm" "$tmp/last.ppm"; then
  ok "a GIF of the lesson's 8 steps: $(cat "$tmp/out")"
else
  bad "a GIF of a lesson's steps: $(cat "$tmp/out" "$tmp/err") / $("$gif_info" --info "$gif" 2>&1)"
fi
if ! run "$convis" --gif "$tmp/no.gif" --gif-steps >/dev/null 2>"$tmp/err" && grep -q "gif-steps" "$tmp/err" &&
  [ ! -e "$tmp/no.gif" ]; then
  ok "--gif-steps without a lesson: $(cat "$tmp/err")"
else
  bad "--gif-steps without a lesson: $(cat "$tmp/err")"
fi
# the frames of all the steps together are bounded (1800, a minute at 30 a
# second): 8 steps of 60 s at 30 frames a second are refused before the work
start=$(date +%s%N)
run "$convis" lesson "$en2" --gif "$tmp/no.gif" --gif-steps --gif-seconds 60 --gif-fps 30 >"$tmp/out" 2>"$tmp/err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "make 14400 frames, over the 1800" "$tmp/err" &&
  [ ! -e "$tmp/no.gif" ] && [ ! -s "$tmp/out" ] && [ $ms -lt 20000 ]; then
  ok "--gif-steps over 1800 frames in all: refused in $ms ms (exit 1): $(cat "$tmp/err")"
else
  bad "--gif-steps over 1800 frames: exit $rc, $ms ms: $(cat "$tmp/err" "$tmp/out")"
fi

# --render-steps that fails (a file size limit of 1 KiB, SIGXFSZ ignored, as
# a full disk would) removes what it made, and only that: its new folder; in
# a folder that was there, the steps it saved and not the files already there
for there in no yes; do
  dir=$tmp/fsize-$there
  [ $there = yes ] && mkdir "$dir" && echo theirs >"$dir/notes.txt" && echo old >"$dir/step-09.png"
  # shellcheck disable=SC2016 # the limit is convis's alone, not the display's
  run bash -c 'trap "" XFSZ && ulimit -f 1 && exec "$@"' - "$convis" lesson --render-steps "$dir" "$en2" \
    >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $there = no ]; then
    left=$([ -e "$dir" ] && ls -A "$dir" | tr '\n' ' ' || echo "(no folder)")
    want="(no folder)"
  else
    left=$(ls -A "$dir" | tr '\n' ' ')
    want="notes.txt step-09.png "
  fi
  if [ $rc -eq 3 ] && grep -q "File too large" "$tmp/err" && [ "$left" = "$want" ]; then
    ok "--render-steps onto a full disk (folder there before: $there): exit 3, left: $left"
  else
    bad "--render-steps onto a full disk (folder there before: $there): exit $rc, left '$left', want '$want': $(cat "$tmp/err")"
  fi
done

# a picture already there is never written over: the run stops at it (exit
# 2) and removes what it saved before, the picture after a wait included
dir=$tmp/taken
mkdir "$dir" && echo theirs >"$dir/notes.txt" && echo old >"$dir/step-02.png"
run "$convis" lesson --render-steps "$dir" "$en2" >"$tmp/out" 2>"$tmp/err"
rc=$?
left=$(ls -A "$dir" | tr '\n' ' ')
if [ $rc -eq 2 ] && grep -q "step-01-after.png" "$tmp/out" && grep -q "step-02.png" "$tmp/err" &&
  [ "$left" = "notes.txt step-02.png " ] && [ "$(cat "$dir/step-02.png")" = old ]; then
  ok "--render-steps onto a picture there: exit 2, its own removed, left: $left"
else
  bad "--render-steps onto a picture there: exit $rc, left '$left': $(cat "$tmp/out" "$tmp/err")"
fi

# a Chinese lesson's words from the catalogue, on a system with no Chinese
# locale (C.UTF-8, or plain C)
for loc in C.UTF-8 C; do
  st=$(LC_ALL= LANGUAGE= LANG=$loc run "$convis" lesson "$lessons/zh/02-all-at-once.yaml" --print-state \
    --screenshot "$tmp/zh-$loc.png" 2>/dev/null)
  if grep -q '^hint=轮到你了：按 G 继续$' <<<"$st"; then
    ok "LANG=$loc: the Chinese lesson's hint from the catalogue"
  else
    bad "LANG=$loc: $(grep '^hint=' <<<"$st")"
  fi
done

# the menu (L) lists the lessons of the language
for lang in en zh; do
  count=$(ls "$lessons/$lang"/*.yaml 2>/dev/null | wc -l)
  st=$(run "$convis" --lang $lang --do lessons --print-state --screenshot "$tmp/menu-$lang.png" 2>/dev/null)
  if grep -q '^menu=1$' <<<"$st" && grep -q "^lessons_found=$count\$" <<<"$st"; then
    ok "the $lang menu lists the $count lessons"
  else
    bad "the $lang menu: $(grep -E 'menu|lessons_found' <<<"$st" | tr '\n' ' ') (want $count)"
  fi
done

# the chain of dependent passes is measured on the CPU (and on the GPU where there is one)
st=$(run "$convis" --do chain --print-state --screenshot "$tmp/chain.png" 2>/dev/null)
cpu=$(sed -n 's/^chain_cpu_ms=//p' <<<"$st")
if [ -n "$cpu" ] && awk -v v="$cpu" 'BEGIN { exit !(v > 0) }'; then
  ok "chain: 1000 dependent passes took $cpu ms on one CPU core, $(sed -n 's/^chain_gpu_ms=//p' <<<"$st") ms on the GPU"
else
  bad "chain: $(grep chain <<<"$st" | tr '\n' ' ')"
fi

# mistakes: one sentence with the file, line and column; exit 2
printf 'title: Broken\nsteps:\n  - say: hello\n    do: [step, nosuchaction]\n' >"$tmp/bad.yaml"
msg=$(timeout 30 "$convis" lesson --check "$tmp/bad.yaml" 2>&1)
rc=$?
if [ $rc -eq 2 ] && grep -q "bad.yaml:4:16: action 'nosuchaction' is not known" <<<"$msg" && [ "$(wc -l <<<"$msg")" -eq 1 ]; then
  ok "an unknown action: exit 2, $msg"
else
  bad "an unknown action: exit $rc: $msg"
fi
run "$convis" lesson "$tmp/bad.yaml" --screenshot "$tmp/bad.png" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "bad.yaml:4:16" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
  ok "the window refuses a broken lesson with the same sentence"
else
  bad "the window with a broken lesson: exit $rc: $(cat "$tmp/err")"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
