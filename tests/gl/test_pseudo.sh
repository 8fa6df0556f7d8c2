#!/usr/bin/env bash
# Every word the window shows goes through the catalogue: the window runs in
# a pseudo-language "xx" whose catalogue is po/make_pot.sh's template with
# every ASCII letter accented (pseudo.pl), and a lesson whose text is
# accented the same way; on every kind of screen, a run of text with a word
# in plain ASCII letters (names of files, engines, devices and units aside)
# is one that no translation reached.
# Usage: test_pseudo.sh CONVIS SOURCE_DIR LOCALE_DIR
set -u
convis=$1 root=$2 locale=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }

# the pseudo catalogue, beside the real ones
cp -r "$locale" "$tmp/locale"
mkdir -p "$tmp/locale/xx/LC_MESSAGES" "$tmp/xx"
if ! { bash "$root/po/make_pot.sh" "$tmp/convis.pot" &&
  msgen -o "$tmp/en.po" "$tmp/convis.pot" &&
  sed -i -e 's/charset=CHARSET/charset=UTF-8/' \
    -e 's/nplurals=INTEGER; plural=EXPRESSION;/nplurals=2; plural=(n != 1);/' "$tmp/en.po" &&
  msgfilter --keep-header -i "$tmp/en.po" -o "$tmp/xx.po" perl "$here/pseudo.pl" msg &&
  msgfmt --check -o "$tmp/locale/xx/LC_MESSAGES/convis.mo" "$tmp/xx.po"; } 2>"$tmp/err"; then
  bad "the pseudo catalogue: $(cat "$tmp/err")"
  echo "$passed passed, $failed failed"
  exit 1
fi
ok "a pseudo catalogue of $(grep -c '^msgid "' "$tmp/xx.po") strings"
perl "$here/pseudo.pl" yaml <"$root/lessons/en/02-all-at-once.yaml" >"$tmp/xx/02-all-at-once.yaml"
export CONVIS_LOCALE_DIR=$tmp/locale

shot() { # NAME ACTIONS [lesson FILE]
  local name=$1 actions=$2
  shift 2
  rm -f "$tmp/shot.png"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1280x720x24" "$convis" "$@" --window 1280x720 --lang xx \
    ${actions:+--do "$actions"} --print-state --screenshot "$tmp/shot.png" >"$tmp/state" 2>"$tmp/err"; then
    bad "$name: $(cat "$tmp/err")"
    return
  fi
  perl "$here/pseudo.pl" check <"$tmp/state" >"$tmp/plain"
  local runs
  runs=$(grep -c '^text=' "$tmp/state")
  if [ "$runs" -lt 10 ]; then
    bad "$name: only $runs runs of text recorded"
  elif [ -s "$tmp/plain" ]; then
    bad "$name: $(wc -l <"$tmp/plain") of $runs runs of text with untranslated words:"
    sed 's/^/    /' "$tmp/plain" | head -15
  else
    ok "$name: $runs runs of text, every word through the catalogue"
  fi
}

shot "first screen" ""
shot "the CPU walk partway" "step*45,tap*4"
shot "GPU phase" "gpu"
shot "thread view" "zoom-out,gpu,threads"
shot "GPU in tiles" "memory-budget,gpu"
shot "size sweep" "sweep"
shot "dependent passes" "chain"
shot "a second pass" "gpu,apply-again"
shot "too big for the GPU" "too-big"
shot "large picture" "large-view"
shot "inside the GPU, load" "block-life"
shot "inside the GPU, compute" "block-life*3,block-warp"
shot "inside the GPU, no barrier" "block-life*4,block-shape*4"
shot "help" "help"
shot "lesson menu" "lessons"
shot "a lesson's step" "gpu,lesson-next" lesson "$tmp/xx/02-all-at-once.yaml"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
