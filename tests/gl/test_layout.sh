#!/usr/bin/env bash
# The layout at every size a class meets (1024x768, 1280x720, 1920x1080 and
# 3840x2160), text at 100% and 200%, in English and Chinese, on every kind
# of screen (free play in both phases, thread view, the sweep, the large
# picture, inside the GPU, a lesson's step, the help, the lesson menu): no two runs of text
# drawn on one layer overlap, and none leaves the window. The text's boxes
# come from convis itself (--print-state: text=x,y,w,h,layer,start).
# Usage: test_layout.sh CONVIS LESSONS_DIR
set -u
convis=$1 lessons=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }

# check NAME W H: the text boxes in $tmp/state
check() {
  awk -F, -v W="$2" -v H="$3" -v name="$1" -v bad=0 '
    /^text_dropped=/ { sub(/^text_dropped=/, ""); if ($0 + 0 > 0) { printf "  %d runs of text not recorded\n", $0; bad++ } }
    /^text=/ {
      sub(/^text=/, "")
      n++; x[n] = $1 + 0; y[n] = $2 + 0; w[n] = $3 + 0; h[n] = $4 + 0; l[n] = $5 + 0
      t[n] = $0
      for (k = 0; k < 5; k++) t[n] = substr(t[n], index(t[n], ",") + 1)
    }
    END {
      for (i = 1; i <= n; i++) {
        if (x[i] < -1 || y[i] < -1 || x[i] + w[i] > W + 1 || y[i] + h[i] > H + 1) {
          if (bad < 5) printf "  outside the window: \"%s\" at %d,%d %dx%d\n", t[i], x[i], y[i], w[i], h[i]
          bad++
        }
        for (j = i + 1; j <= n; j++) {
          if (l[i] != l[j]) continue
          ox = (x[i] + w[i] < x[j] + w[j] ? x[i] + w[i] : x[j] + w[j]) - (x[i] > x[j] ? x[i] : x[j])
          oy = (y[i] + h[i] < y[j] + h[j] ? y[i] + h[i] : y[j] + h[j]) - (y[i] > y[j] ? y[i] : y[j])
          if (ox > 2 && oy > 2) {
            if (bad < 5) printf "  \"%s\" (%d,%d %dx%d) overlaps \"%s\" (%d,%d %dx%d)\n", t[i], x[i], y[i], w[i], h[i], t[j], x[j], y[j], w[j], h[j]
            bad++
          }
        }
      }
      printf "%d %d\n", n, (bad > 0 ? bad : 0)
    }' "$tmp/state" >"$tmp/result"
  local last
  last=$(tail -1 "$tmp/result")
  if [ "${last#* }" = "0" ] && [ "${last% *}" -gt 10 ]; then
    ok "$1: ${last% *} runs of text, none overlapping, none outside"
  else
    bad "$1: ${last#* } problems among ${last% *} runs of text"
    head -n -1 "$tmp/result"
  fi
}

shot() { # NAME SIZE LANG ACTIONS [lesson FILE]
  local name=$1 size=$2 lang=$3 actions=$4 w=${2%x*} h=${2#*x}
  shift 4
  rm -f "$tmp/shot.png"
  if timeout 120 xvfb-run -a -s "-screen 0 ${w}x${h}x24" "$convis" "$@" --window "$size" --lang "$lang" \
    ${actions:+--do "$actions"} --print-state --screenshot "$tmp/shot.png" >"$tmp/state" 2>"$tmp/err"; then
    check "$name $size $lang" "$w" "$h"
  else
    bad "$name $size $lang: $(cat "$tmp/err")"
  fi
}

for lang in en zh; do
  for size in 1280x720 1920x1080; do
    for z in "" "text-size*3,"; do
      tag=${z:+200% }
      shot "${tag}first screen" $size $lang "${z%,}"
      shot "${tag}GPU phase" $size $lang "${z}gpu"
      shot "${tag}thread view" $size $lang "${z}zoom-out,gpu,threads"
      shot "${tag}size sweep" $size $lang "${z}sweep"
      shot "${tag}large picture" $size $lang "${z}large-view"
      shot "${tag}inside the GPU" $size $lang "${z}block-life"
      shot "${tag}no barrier, 24x24" $size $lang "${z}block-life*4,block-shape*4"
      shot "${tag}help" $size $lang "${z}help"
      shot "${tag}lesson menu" $size $lang "${z}lessons"
      shot "${tag}a lesson's step" $size $lang "${z}gpu,lesson-next" lesson "$lessons/$lang/02-all-at-once.yaml"
    done
  done
  shot "first screen" 1024x768 $lang ""
  shot "200% GPU phase" 3840x2160 $lang "text-size*3,gpu"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
