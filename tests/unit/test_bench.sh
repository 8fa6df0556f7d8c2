#!/usr/bin/env bash
# convis bench: its CSV parses (every row as many fields as the header, the
# figures numbers, the derived ones consistent with the median), it has a
# row for every engine `convis engines` says runs here (both kernels of an
# engine that has two) and the copy at every size asked; --json is one
# object with the same runs; a wrong option is a usage error. Speed itself
# is never checked here: that is what the benchmark reports.
# Usage: test_bench.sh CONVIS
set -u
convis=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }

if timeout 300 "$convis" bench --csv --sizes 16,70 --budget-ms 30 >"$tmp/csv" 2>"$tmp/err"; then
  ok "bench --csv ran: $(($(wc -l <"$tmp/csv") - 1)) rows"
else
  bad "bench --csv: $(cat "$tmp/err")"
fi
# the shape: a header, then rows of as many fields, numbers where numbers go
if awk -F, 'NR == 1 { n = NF; if ($1 != "engine" || $3 != "size" || $4 != "median_ms") bad = 1; next }
  NF != n { bad = 1 }
  { for (i = 3; i <= 7; i++) if ($i !~ /^[0-9.e+-]+$/) bad = 1
    if ($4 <= 0 || $5 > $4 + 1e-9 || $6 < $4 - 1e-9) bad = 1            # min <= median <= max
    px = $3 * $3; mpx = $(NF - 3); if (mpx <= 0 || (px / $4 / 1e3) / mpx > 1.001 || (px / $4 / 1e3) / mpx < 0.999) bad = 1 }
  END { exit bad || NR < 2 }' "$tmp/csv"; then
  ok "the CSV parses: fields, numbers, min <= median <= max, Mpixel/s = pixels / median"
else
  bad "the CSV does not parse: $(head -3 "$tmp/csv")"
fi
# every engine that runs here, with both kernels where it has two; the copy at each size
timeout 120 "$convis" engines >"$tmp/engines" 2>/dev/null
missing=
while read -r name status _; do
  [ "$status" = available ] || continue
  for size in 16 70; do
    grep -q "^$name,[a-z]*,$size," "$tmp/csv" || missing="$missing $name@$size"
  done
done <"$tmp/engines"
for size in 16 70; do grep -q "^copy,,$size," "$tmp/csv" || missing="$missing copy@$size"; done
if grep -q "^gl," "$tmp/csv" && ! { grep -q "^gl,tiled," "$tmp/csv" && grep -q "^gl,naive," "$tmp/csv"; }; then
  missing="$missing gl-tiled-and-naive"
fi
if [ -z "$missing" ] && grep -q available "$tmp/engines"; then
  ok "every engine that runs here is in it, at every size: $(awk -F, 'NR > 1 { print $1 ($2 ? "/" $2 : "") }' "$tmp/csv" | sort -u | tr '\n' ' ')"
else
  bad "missing from the CSV:$missing"
fi
# the JSON: one object, the same number of runs
if timeout 300 "$convis" bench --json --sizes 16 --engines cpu-seq,cpu-par --budget-ms 20 >"$tmp/json" 2>"$tmp/err" &&
  grep -q '"convis_bench": 1' "$tmp/json" && [ "$(grep -c '"engine": ' "$tmp/json")" -eq 3 ] &&
  { ! command -v python3 >/dev/null || python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/json"; }; then
  ok "bench --json: one object, the copy and two engines"
else
  bad "bench --json: $(head -c 300 "$tmp/json") $(cat "$tmp/err")"
fi
if ! "$convis" bench --sizes 0 >/dev/null 2>"$tmp/err" && grep -q "sizes" "$tmp/err" &&
  ! "$convis" bench --engines warp-drive >/dev/null 2>&1; then
  ok "wrong sizes or engines: usage errors ($(cat "$tmp/err"))"
else
  bad "a wrong --sizes or --engines was taken"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
