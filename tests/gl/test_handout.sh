#!/usr/bin/env bash
# convis handout, read in a real browser: lesson 1 in English and in Chinese,
# and a hostile lesson (markup and & in its title and narration, a word too
# long for a line) on an image of the user's, each page opened in headless
# Chromium (gl/handout_check.py, through its DevTools pipe: nothing of the
# test goes into the page): every picture loaded, no text wider than its
# box or the page on a screen and as printed on A4, the page's language,
# no script, and printed on A4 and on US letter, a page for the head and at
# least one for each step. The checker is shown to fail on a handout with
# one picture removed and on one whose text cannot wrap. Then the folder's
# rules: nothing of the user's written over, an earlier handout replaced,
# a failed run leaving what was there; and bad input refused in a sentence.
# Exit 77 (skipped) only when there is no Chromium.
# Usage: test_handout.sh CONVIS SOURCE_DIR
set -u
convis=$1 src=$2
here=$(cd "$(dirname "$0")" && pwd)
chromium=$(command -v chromium || command -v chromium-browser) || {
  echo "skipped: no chromium here, so no browser to read the handout with (./do.sh test installs it)"
  exit 77
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data # the lab's copy of its starter, the attempts: not into the user's folder
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
run() { timeout 120 "$here/with_display.sh" "$@"; }
# the value of KEY in the checker's block for page PAGE
fact() { awk -v p="page=$1" -v k="$2=" '$0 == p { on = 1; next } /^page=/ { on = 0 } on && index($0, k) == 1 { print substr($0, length(k) + 1); exit }' "$tmp/check"; }
count() { ls "$1" | grep -cE "$2"; }

# ---- handouts of lesson 1, in both languages ----
declare -A steps waits
for lang in en zh; do
  f=$src/lessons/$lang/01-one-at-a-time.yaml
  steps[$lang]=$("$convis" lesson --check "$f" | sed -n 's/.*, \([0-9]*\) steps\{0,1\}$/\1/p')
  waits[$lang]=$(grep -cE '^    (wait|ask):' "$f") # a question's after: its answer shown
  if run "$convis" handout "$f" -o "$tmp/$lang" >"$tmp/out" 2>"$tmp/err" && [ -f "$tmp/$lang/index.html" ] &&
    [ "$(count "$tmp/$lang" '^step-[0-9]+\.png$')" -eq "${steps[$lang]}" ] &&
    [ "$(count "$tmp/$lang" '^step-[0-9]+-after\.png$')" -eq "${waits[$lang]}" ] &&
    [ "$(ls -A "$tmp/$lang" | wc -l)" -eq $((steps[$lang] + waits[$lang] + 1)) ]; then
    ok "$lang lesson 1: $(cat "$tmp/out")"
  else
    bad "$lang lesson 1: $(cat "$tmp/out" "$tmp/err"); $(ls -A "$tmp/$lang" 2>/dev/null | tr '\n' ' ')"
  fi
done
# the Chinese lesson's words as the window shows them, filled in
if grep -q '这幅图像有 [0-9,]* 个输出' "$tmp/zh/index.html" && ! grep -q '{outputs}' "$tmp/zh/index.html"; then
  ok "zh: the narration with this machine's figures in it"
else
  bad "zh: the narration's placeholders: $(grep -o '.\{20\}个输出.\{10\}' "$tmp/zh/index.html" | head -2)"
fi

# ---- a hostile lesson (naming no image), on an image of the user's ----
mkdir "$tmp/hostile"
long=$(printf 'x%.0s' $(seq 300))
cat >"$tmp/hostile/lesson.yaml" <<EOF
title: Fish & <chips> <script>alert(1)</script>
steps:
  - say: |
      A line with <script>document.title='owned'</script> & <b>bold</b> in it,
      and a word too long for any line: $long.
  - say: |
      "Quotes" and 'apostrophes' &amp; an entity written out. Press G.
    wait: gpu
EOF
if run "$convis" handout "$tmp/hostile/lesson.yaml" "$src/tests/data/ramp.pgm" -o "$tmp/h" >"$tmp/out" 2>"$tmp/err" &&
  ! grep -q '<script' "$tmp/h/index.html" && grep -q '&lt;b&gt;bold&lt;/b&gt;' "$tmp/h/index.html" &&
  grep -q '&amp;amp; an entity' "$tmp/h/index.html" && grep -q '<dd>ramp.pgm, 7×5</dd>' "$tmp/h/index.html"; then
  ok "a hostile lesson's markup written as text, on the image given (ramp.pgm): $(cat "$tmp/out")"
else
  bad "a hostile lesson: $(cat "$tmp/out" "$tmp/err"); $(grep -n 'script\|<dd>' "$tmp/h/index.html" 2>/dev/null | head -5)"
fi
# --lang: a lesson of no language folder speaks the language asked for
if run "$convis" handout "$tmp/hostile/lesson.yaml" --lang zh -o "$tmp/hz" >"$tmp/out" 2>"$tmp/err" &&
  grep -q '<html lang="zh">' "$tmp/hz/index.html"; then
  if ! "$convis" --lang zh --help | grep -q '用法' || grep -q '第 1 步，共 2 步' "$tmp/hz/index.html"; then
    ok "--lang zh: the page in Chinese: $(cat "$tmp/out")"
  else
    bad "--lang zh: the page's words: $(grep -o '<h2>[^<]*' "$tmp/hz/index.html" | head -2)"
  fi
else
  bad "--lang zh: $(cat "$tmp/out" "$tmp/err"); $(grep -o '<html[^>]*>' "$tmp/hz/index.html" 2>/dev/null)"
fi

# ---- the checker's own failures: a picture missing, text that cannot wrap ----
cp -r "$tmp/en" "$tmp/missing" && rm "$tmp/missing/step-02.png"
cp -r "$tmp/en" "$tmp/nowrap" && sed -i 's|</style>|p { white-space: nowrap; }\n</style>|' "$tmp/nowrap/index.html"

# ---- every page in the browser ----
pages=("$tmp/en/index.html" "$tmp/zh/index.html" "$tmp/h/index.html" "$tmp/missing/index.html" "$tmp/nowrap/index.html")
mkdir "$tmp/chromium"
if timeout 120 python3 "$here/handout_check.py" "$chromium" "$tmp/chromium" "${pages[@]}" >"$tmp/check" 2>"$tmp/err"; then
  ok "chromium read ${#pages[@]} pages"
else
  bad "chromium: $(cat "$tmp/err" "$tmp/chromium"/*/chromium.log 2>/dev/null | tail -5)"
fi
for lang in en zh; do
  p=$tmp/$lang/index.html n=${steps[$lang]} pics=$((steps[$lang] + waits[$lang]))
  got="lang $(fact "$p" lang), $(fact "$p" sections) steps, $(fact "$p" images) pictures ($(fact "$p" broken) broken), \
cut $(fact "$p" screen_cut) on screen and $(fact "$p" print_cut) printed, $(fact "$p" scripts) scripts"
  if [ "$got" = "lang $lang, $n steps, $pics pictures (0 broken), cut 0 on screen and 0 printed, 0 scripts" ]; then
    ok "$lang in chromium: $got"
  else
    bad "$lang in chromium: $got; want $n steps, $pics pictures, none broken or cut ($(fact "$p" cut_text))"
  fi
  a4=$(fact "$p" pdf_a4) letter=$(fact "$p" pdf_letter)
  if [ "${a4:-0}" -ge $((n + 1)) ] && [ "${letter:-0}" -ge $((n + 1)) ]; then
    ok "$lang printed: $a4 pages on A4, $letter on letter, for $n steps (each on a new page)"
  else
    bad "$lang printed: $a4 pages on A4, $letter on letter, for $n steps: want at least $((n + 1))"
  fi
done
p=$tmp/h/index.html
if [ "$(fact "$p" title)" = "Fish & <chips> <script>alert(1)</script>" ] && [ "$(fact "$p" scripts)" = 0 ] &&
  [ "$(fact "$p" screen_cut)$(fact "$p" print_cut)" = 00 ] && [ "$(fact "$p" broken)" = 0 ]; then
  ok "the hostile lesson in chromium: its title read as text, no script, the long word broken, not cut"
else
  bad "the hostile lesson in chromium: title '$(fact "$p" title)', $(fact "$p" scripts) scripts, cut $(fact "$p" screen_cut)/$(fact "$p" print_cut) ($(fact "$p" cut_text))"
fi
p=$tmp/missing/index.html
if [ "$(fact "$p" broken)" = 1 ] && [ "$(fact "$p" broken_src)" = step-02.png ]; then
  ok "the checker finds a missing picture: $(fact "$p" broken_src)"
else
  bad "the checker missed the picture removed: broken=$(fact "$p" broken) $(fact "$p" broken_src)"
fi
p=$tmp/nowrap/index.html
if [ "$(fact "$p" screen_cut)" -gt 0 ] 2>/dev/null && [ "$(fact "$p" print_cut)" -gt 0 ]; then
  ok "the checker finds text cut: $(fact "$p" screen_cut) blocks, e.g. $(fact "$p" cut_text)"
else
  bad "the checker missed text that cannot wrap: $(fact "$p" screen_cut)/$(fact "$p" print_cut)"
fi

# ---- the folder: nothing of the user's written over ----
f=$src/lessons/en/01-one-at-a-time.yaml
for theirs in notes.txt index.html; do
  d=$tmp/theirs-$theirs
  mkdir "$d" && echo "mine" >"$d/$theirs"
  run "$convis" handout "$f" -o "$d" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 2 ] && grep -q "holds '$theirs', which is no part of a convis handout" "$tmp/err" &&
    [ "$(ls -A "$d")" = "$theirs" ] && [ "$(cat "$d/$theirs")" = mine ] && [ ! -s "$tmp/out" ]; then
    ok "a folder holding the user's $theirs: refused, exit 2: $(cat "$tmp/err")"
  else
    bad "a folder holding the user's $theirs: exit $rc, left $(ls -A "$d" | tr '\n' ' '): $(cat "$tmp/err")"
  fi
done
# an earlier handout is replaced: its pictures the new one has not and the
# folder of a run stopped midway removed
cp -r "$tmp/en" "$tmp/again" && echo old >"$tmp/again/step-42.png" && mkdir "$tmp/again/.convis-handout-Ab12Cd" &&
  cp "$tmp/en/step-01.png" "$tmp/again/.convis-handout-Ab12Cd/"
if run "$convis" handout "$f" -o "$tmp/again" >"$tmp/out" 2>"$tmp/err" &&
  [ "$(ls -A "$tmp/again" | tr '\n' ' ')" = "$(ls -A "$tmp/en" | tr '\n' ' ')" ] &&
  ! cmp -s "$tmp/en/index.html" "$tmp/again/index.html"; then
  ok "an earlier handout replaced, what it left tidied: $(cat "$tmp/out")"
else
  bad "an earlier handout: $(cat "$tmp/out" "$tmp/err"); left $(ls -A "$tmp/again" | tr '\n' ' ')"
fi
# a failed run (a file size limit of 1 KiB, SIGXFSZ ignored, as a full disk
# would) removes what it wrote and only that: a new folder goes, an earlier
# handout stays as it was
cp -r "$tmp/en" "$tmp/kept"
before=$(cd "$tmp/kept" && ls -A | xargs cksum)
for d in "$tmp/full" "$tmp/kept"; do
  # shellcheck disable=SC2016 # the limit is convis's alone, not the display's
  run bash -c 'trap "" XFSZ && ulimit -f 1 && exec "$@"' - "$convis" handout "$f" -o "$d" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  left=$([ -e "$d" ] && (cd "$d" && ls -A | xargs cksum) || echo "(no folder)")
  want=$([ "$d" = "$tmp/kept" ] && echo "$before" || echo "(no folder)")
  if [ $rc -eq 3 ] && grep -q "File too large" "$tmp/err" && [ "$left" = "$want" ]; then
    ok "a failed run into ${d##*/}: exit 3, what was there left as it was: $(cat "$tmp/err")"
  else
    bad "a failed run into ${d##*/}: exit $rc, left $(ls -A "$d" 2>/dev/null | tr '\n' ' '): $(cat "$tmp/err")"
  fi
done

# ---- bad input: one sentence, a nonzero exit, no folder made ----
refused() { # WANT_RC WHAT TEXT ARGS...
  local want=$1 what=$2 text=$3
  shift 3
  run "$convis" handout "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -eq "$want" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$text" "$tmp/err" && [ ! -e "$tmp/none" ]; then
    ok "$what: exit $rc, $(cat "$tmp/err")"
  else
    bad "$what: exit $rc (want $want), $(cat "$tmp/err" "$tmp/out")"
  fi
}
refused 2 "a missing lesson" "nosuch.yaml" "$tmp/nosuch.yaml" -o "$tmp/none"
refused 2 "a damaged image" "truncated.png" "$src/lessons/en/08-your-own-image.yaml" "$src/tests/data/truncated.png" -o "$tmp/none"
refused 1 "no folder" "no folder to write to" "$f"
refused 1 "no lesson" "no lesson file" -o "$tmp/none"
refused 1 "an option of another command" "unknown option '--gif'" "$f" -o "$tmp/none" --gif "$tmp/x.gif"
refused 2 "a file as the folder" "is not a folder" "$f" -o "$f"
refused 1 "an image with a lesson that opens its own" "opens its own image (sample.png)" "$f" \
  "$src/tests/data/ramp.pgm" -o "$tmp/none"
# no OpenGL at all (SDL's dummy driver, no display): the machine's failure, exit 3
SDL_VIDEODRIVER=dummy DISPLAY= "$convis" handout "$f" -o "$tmp/none" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cannot open a window" "$tmp/err" && [ ! -e "$tmp/none" ]; then
  ok "no OpenGL to draw with: exit 3, $(cat "$tmp/err")"
else
  bad "no OpenGL to draw with: exit $rc, $(cat "$tmp/err")"
fi
if "$convis" handout --help | grep -q -- '-o, --output DIR' && "$convis" --help | grep -q 'convis handout LESSON'; then
  ok "--help names the command and its options"
else
  bad "--help: $("$convis" handout --help | head -5)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
