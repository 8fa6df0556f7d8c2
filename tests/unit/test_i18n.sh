#!/usr/bin/env bash
# The words convis shows, in every language it has: every string marked for
# translation (po/make_pot.sh collects them) has its Chinese in po/zh.po; the
# catalogue compiles; and no Chinese is left in the C sources, written out
# or as hex escapes, where no translator would find it (lessons live in
# lessons/zh/, the window's words in po/).
# Usage: test_i18n.sh SOURCE_DIR
set -u
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }

cd "$root" || exit 1
if bash po/make_pot.sh "$tmp/convis.pot" 2>"$tmp/err"; then
  ok "$(grep -c '^msgid "' "$tmp/convis.pot") strings marked in the sources"
else
  bad "po/make_pot.sh: $(cat "$tmp/err")"
fi
for po in po/*.po; do
  if msgfmt --check -o /dev/null "$po" 2>"$tmp/err"; then
    ok "$po compiles, its formats checked"
  else
    bad "$po: $(cat "$tmp/err")"
  fi
  # every string of the catalogue still shown: none left over from old sources
  if msgmerge -q --no-fuzzy-matching -o "$tmp/merged.po" "$po" "$tmp/convis.pot" 2>"$tmp/err" &&
    ! grep -q '^#~ msgid' "$tmp/merged.po"; then
    ok "$po: every string of it is used"
  else
    bad "$po has strings no source uses any more: $(grep -A1 '^#~ msgid' "$tmp/merged.po" 2>/dev/null | head -6) $(cat "$tmp/err")"
  fi
  # every marked string has a translation (an empty one counts as missing)
  if msgcmp "$po" "$tmp/convis.pot" 2>"$tmp/err"; then
    ok "$po translates every marked string"
  else
    bad "$po lacks translations: $(grep -v 'not used' "$tmp/err" | head -20)"
  fi
done
# no Chinese in the C sources
LC_ALL=C.UTF-8 grep -rnP '"[^"]*[\x{3000}-\x{9FFF}\x{FF00}-\x{FFEF}]' --include='*.c' --include='*.h' src >"$tmp/cjk"
case $? in
  0) bad "Chinese written in the sources (it belongs in po/):$(head -5 "$tmp/cjk")" ;;
  1) ok "no Chinese written in the sources" ;;
  *) bad "grep could not look for Chinese in the sources" ;;
esac
if grep -rnE '\\x[Ee][4-9]\\x[89ABab]' --include='*.c' --include='*.h' src >"$tmp/hex"; then
  bad "Chinese as hex escapes in the sources:$(head -5 "$tmp/hex")"
else
  ok "no Chinese as hex escapes"
fi
if grep -rnE '\bzh(\(a\))? \?' --include='*.c' src >"$tmp/branch"; then
  bad "a language chosen by hand in the code:$(head -5 "$tmp/branch")"
else
  ok "no text chosen by comparing the language by hand"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
