#!/usr/bin/env bash
# Every word the window shows goes through the catalogue: the window runs in
# a pseudo-language "xx" whose catalogue is po/make_pot.sh's template with
# every ASCII letter accented (pseudo.pl), and a lesson whose text is
# accented the same way; on every kind of screen, a run of text with a word
# in plain ASCII letters (names of files, engines, devices and units aside)
# is one that no translation reached.
# Usage: test_pseudo.sh TEST_LAYOUT SOURCE_DIR LOCALE_DIR   (under with_display.sh)
set -u
layout=$1 root=$2 locale=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data # the lab's copy of its starter, the attempts: not into the user's folder
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

# every kind of screen at 1280x720, in one process (test_layout --dump)
if ! timeout 300 "$layout" --dump "$tmp" xx "$tmp/xx/02-all-at-once.yaml" 2>"$tmp/err"; then
  bad "the screens in xx: $(cat "$tmp/err")"
fi
for state in "$tmp"/[0-9]*.state; do
  [ -e "$state" ] || continue
  name=$(grep -m1 '^name=' "$state" | cut -d= -f2-)
  perl "$here/pseudo.pl" check <"$state" >"$tmp/plain"
  runs=$(grep -c '^text=' "$state")
  if [ "$runs" -lt 10 ]; then
    bad "$name: only $runs runs of text recorded"
  elif [ -s "$tmp/plain" ]; then
    bad "$name: $(wc -l <"$tmp/plain") of $runs runs of text with untranslated words:"
    sed 's/^/    /' "$tmp/plain" | head -15
  else
    ok "$name: $runs runs of text, every word through the catalogue"
  fi
done
[ "$passed" -eq 19 ] || bad "$((passed - 1)) of 18 screens checked"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
