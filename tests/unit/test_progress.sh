#!/usr/bin/env bash
# convis progress: learners' attempts files summed up for a teacher. Two
# learners' files (in the form the window writes) give a table by learner
# and one by question, and with --csv a row per learner and question; a
# file that is no attempts file is said in a sentence and left out while the
# others are still summed (exit 2); no file at all is a usage error.
# Usage: test_progress.sh CONVIS
set -u
convis=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }
rec() { # LESSON STEP FACT ANSWER CORRECT TRY
  printf '{"lesson": "%s", "lang": "en", "step": %d, "kind": "number", "fact": "%s", "answer": "%s", "expected": "9", "correct": %s, "try": %d, "seconds": 3.0, "time": "2026-12-04T10:00:00Z", "machine": "a CPU; no GPU engine"}' "$@"
}
{
  echo '{"convis_attempts": 1, "attempts": ['
  echo "$(rec 01-one-at-a-time 8 taps 4 false 1),"
  echo "$(rec 01-one-at-a-time 8 taps 9 true 2),"
  echo "$(rec 02-all-at-once 6 threads 49152 true 1)"
  echo ']}'
} >"$tmp/alice.json"
{
  echo '{"convis_attempts": 1, "attempts": ['
  echo "$(rec 01-one-at-a-time 8 taps 9 true 1)"
  echo ']}'
} >"$tmp/bob.json"

out=$("$convis" progress "$tmp/alice.json" "$tmp/bob.json" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -qE '^  alice +2 +1 \(50%\) +2 \(100%\)' <<<"$out" && grep -qE '^  bob +1 +1 \(100%\) +1 \(100%\)' <<<"$out" &&
  grep -qE '^  01-one-at-a-time:8 +taps +2 +1 \(50%\) +2 \(100%\)  4$' <<<"$out" &&
  grep -qE '^  02-all-at-once:6 +threads +1 ' <<<"$out"; then
  ok "the tables by learner and by question"
else
  bad "the tables (exit $rc): $out"
fi

out=$("$convis" progress --csv "$tmp/alice.json" "$tmp/bob.json" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(head -n 1 <<<"$out")" = "learner,lesson,step,fact,tries,right_first_try,right,wrong_answers" ] &&
  grep -qx '"alice","01-one-at-a-time",8,"taps",2,false,true,"4"' <<<"$out" &&
  grep -qx '"bob","01-one-at-a-time",8,"taps",1,true,true,""' <<<"$out" && [ "$(wc -l <<<"$out")" -eq 4 ]; then
  ok "--csv: a row per learner and question"
else
  bad "--csv (exit $rc): $out"
fi

echo '{"results": []}' >"$tmp/other.json"
printf 'not json at all {' >"$tmp/broken.json"
out=$("$convis" progress "$tmp/alice.json" "$tmp/other.json" "$tmp/broken.json" "$tmp/none.json" 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "other.json: is not an attempts file convis wrote" <<<"$out" &&
  grep -q "broken.json: is not an attempts file convis wrote" <<<"$out" && grep -q "none.json: cannot read it" <<<"$out" &&
  grep -qE '^  alice +2 ' <<<"$out"; then
  ok "files that are not attempts files: said and left out, the others summed"
else
  bad "files that are not attempts files (exit $rc): $out"
fi

# a second round of a question (back to its step after its answer was shown) does not count;
# two learners' files both named attempts.json are told apart by their paths; what a file
# holds reaches neither the terminal's controls nor a sheet's formulas
mkdir -p "$tmp/ann" "$tmp/ben"
{
  echo '{"convis_attempts": 1, "attempts": ['
  echo "$(rec 01-one-at-a-time 8 taps 3 false 1),"
  echo "$(rec 01-one-at-a-time 8 taps 5 false 2),"
  echo "$(rec 01-one-at-a-time 8 taps 9 true 1),"
  echo "$(rec 02-all-at-once 6 threads '=1+1\u001b[31m' false 1)"
  echo ']}'
} >"$tmp/ann/attempts.json"
cp "$tmp/bob.json" "$tmp/ben/attempts.json"
out=$("$convis" progress "$tmp/ann/attempts.json" "$tmp/ben/attempts.json" 2>&1); rc=$?
csv=$("$convis" progress --csv "$tmp/ann/attempts.json" "$tmp/ben/attempts.json" 2>&1)
if [ $rc -eq 0 ] && grep -qE "^  $tmp/ann/attempts +2 +0 \(0%\) +0 \(0%\)" <<<"$out" &&
  grep -qE "^  $tmp/ben/attempts +1 " <<<"$out" && ! grep -q $'\e' <<<"$out$csv" &&
  grep -q "\"'=1+1?\[31m\"" <<<"$csv" && grep -q "\"taps\",2,false,false,\"3|5\"" <<<"$csv"; then
  ok "a second round left out, learners told apart by path, controls and formulas neutral"
else
  bad "rounds, names, controls (exit $rc): $out / $csv"
fi

out=$("$convis" progress 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "no attempts files" <<<"$out" && ok "no file: $out" || bad "no file (exit $rc): $out"
out=$("$convis" progress --tsv "$tmp/alice.json" 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "unknown option '--tsv'" <<<"$out" && ok "an unknown option: $out" || bad "--tsv (exit $rc): $out"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
