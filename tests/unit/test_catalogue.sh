#!/usr/bin/env bash
# A damaged catalogue of words in the locale folder (CONVIS_LOCALE_DIR): GNU
# gettext trusts a .mo file's tables, and a truncated one crashed convis in
# it. Each damage (truncated in its header, in its tables, by its last byte;
# a wrong magic number; a string's offset past the end; a hash entry naming
# no string) gives English, one sentence on stderr naming the file, and exit
# 0, whether Chinese is asked by --lang or by the locale. A sound catalogue,
# in either byte order, still gives Chinese, and nothing on stderr.
# Usage: test_catalogue.sh CONVIS LOCALE_DIR (the build's locale/)
set -u
convis=$1 locale=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
mo=$tmp/locale/zh/LC_MESSAGES/convis.mo

# a little-endian word of the catalogue at byte $1
word() { od -A n -t u4 -j "$1" -N 4 "$mo" | tr -d ' '; }
# writes the little-endian word $2 at byte $1
put() {
  printf '%b' "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($2 & 255)) $(($2 >> 8 & 255)) $(($2 >> 16 & 255)) $(($2 >> 24 & 255)))" |
    dd of="$mo" bs=1 seek="$1" conv=notrunc status=none
}
fresh() { rm -rf "$tmp/locale" && cp -r "$locale" "$tmp/locale"; }

# english WHAT: convis's help in both ways of asking for Chinese, each
# exit 0, in English, one sentence on stderr that names the catalogue
english() {
  local how
  for how in lang env; do
    if [ $how = lang ]; then
      env -u LANGUAGE -u LC_ALL -u LC_MESSAGES CONVIS_LOCALE_DIR="$tmp/locale" "$convis" --lang zh --help \
        >"$tmp/out" 2>"$tmp/err"
    else
      env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=zh_CN.UTF-8 CONVIS_LOCALE_DIR="$tmp/locale" "$convis" --help \
        >"$tmp/out" 2>"$tmp/err"
    fi
    rc=$?
    if [ $rc -eq 0 ] && grep -q "^Usage:" "$tmp/out" && ! LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' "$tmp/out" &&
      [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "convis.mo' is damaged or truncated; the words are in English" "$tmp/err"; then
      ok "$1 ($how): English, exit 0, one sentence: $(cat "$tmp/err")"
    else
      bad "$1 ($how): exit $rc: $(head -c 300 "$tmp/err") / $(head -c 100 "$tmp/out")"
    fi
  done
}
chinese() {
  env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=zh_CN.UTF-8 CONVIS_LOCALE_DIR="$tmp/locale" "$convis" --help \
    >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 0 ] && LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' "$tmp/out" && [ ! -s "$tmp/err" ]; then
    ok "$1: Chinese, nothing on stderr"
  else
    bad "$1: exit $rc: $(head -c 300 "$tmp/err") / $(head -c 100 "$tmp/out")"
  fi
}

fresh
chinese "the build's catalogue"
size=$(stat -c %s "$mo")
for cut in 20 5000 $((size - 1)); do
  fresh
  truncate -s "$cut" "$mo"
  english "truncated to $cut of $size bytes"
done
fresh
put 0 0
english "a wrong magic number"
fresh
put $(($(word 12) + 8 + 4)) 2147483647
english "an original string's offset past the end"
fresh
put $(($(word 16) + 8)) 2147483647
english "a translation's length past the end"
fresh
put "$(word 24)" 4294967295
english "a hash entry naming no string"
fresh
put 4 $((2 << 16))
english "a revision gettext does not know"
# a hash table with no empty slot: gettext would probe it for ever when a
# string is missing (every entry names string 1)
fresh
perl -e 'open(F, "+<", $ARGV[0]) or die; binmode F; seek F, 20, 0; read F, $b, 8; my ($n, $at) = unpack("VV", $b);
  seek F, $at, 0; print F pack("V", 1) x $n; close F' "$mo"
english "a hash table without an empty slot"
fresh
put 20 $(($(word 20) - 1))
english "a hash table whose size is not a prime"

# the other byte order, sound: still Chinese
fresh
if command -v msgunfmt >/dev/null && msgunfmt "$locale/zh/LC_MESSAGES/convis.mo" -o "$tmp/zh.po" &&
  msgfmt --endianness=big -o "$mo" "$tmp/zh.po"; then
  chinese "a big-endian catalogue"
else
  bad "could not write a big-endian catalogue (msgunfmt, msgfmt)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
