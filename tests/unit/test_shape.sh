#!/usr/bin/env bash
# The shape of the app layer's sources: no .c file under src/app (folders
# included) over 500 lines, src/app/scene.h at most 200, and no function in
# those .c files over 80 lines. A function is what the project's style
# writes: a definition starting at column 0, its body from a '{' at column 0
# to the next '}' at column 0; its length counts from the first line of its
# signature to the closing brace. The finder is first tried on a file made
# here, with functions of known lengths, so the test cannot pass because it
# finds nothing. Each offender is named with its count of lines.
# Usage: test_shape.sh [SOURCE_DIR]
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
max_file=500
max_header=200
max_function=80
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints "FILE:LINE NAME LENGTH" for each function of FILE longer than LIMIT
# lines.
long_functions() {
  awk -v limit="$2" -v file="$1" '
    # The first line of a signature: an identifier at column 0 after a line
    # that ended something else (a blank line, a statement, a comment, a brace).
    !body && /^[A-Za-z_]/ && (prev_ended || start == 0) { start = FNR; sig = $0 }
    !body && /^\{/ { body = 1; if (start == 0) { start = FNR; sig = "" } }
    body && /^\}/ {
      n = FNR - start + 1
      if (n > limit) {
        name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
        printf "%s:%d %s %d\n", file, start, name, n
      }
      body = 0; start = 0
    }
    { prev_ended = !/^[A-Za-z_]/ || /[;}][ \t]*$/ }
  ' "$1"
}

# The finder on a file of known shape: a function of the limit's length (not
# reported), one a line longer with a signature on two lines (reported, from
# its first line), an initialiser whose '};' is at column 0 (not a function).
{
  printf 'static const int table[] = {\n    1,\n};\n\n'
  printf 'static int fits(void)\n{\n'
  for ((i = 0; i < max_function - 3; ++i)); do printf '    (void)0;\n'; done
  printf '}\n\n'
  printf 'int too_long(int a,\n             int b)\n{\n'
  for ((i = 0; i < max_function - 4; ++i)); do printf '    (void)0;\n'; done
  printf '    return a + b;\n}\n'
} >"$tmp/known.c"
found=$(long_functions "$tmp/known.c" "$max_function")
expected="$tmp/known.c:$((max_function + 6)) too_long $((max_function + 1))"
if [ "$found" != "$expected" ]; then
  echo "test_shape: the finder is wrong on a file of known shape: found '$found', expected '$expected'"
  exit 1
fi

cd "$root" || exit 1
offenders=0
while IFS= read -r file; do
  lines=$(wc -l <"$file")
  if [ "$lines" -gt "$max_file" ]; then
    echo "$file: $lines lines (at most $max_file)"
    offenders=$((offenders + 1))
  fi
  while read -r where name length; do
    echo "$where: function $name is $length lines (at most $max_function)"
    offenders=$((offenders + 1))
  done < <(long_functions "$file" "$max_function")
done < <(find src/app -name '*.c' | sort)
lines=$(wc -l <src/app/scene.h)
if [ "$lines" -gt "$max_header" ]; then
  echo "src/app/scene.h: $lines lines (at most $max_header)"
  offenders=$((offenders + 1))
fi
if [ "$offenders" -gt 0 ]; then
  echo "test_shape: $offenders over the limits"
  exit 1
fi
echo "test_shape: every .c under src/app within $max_file lines and its functions within $max_function, scene.h within $max_header"
