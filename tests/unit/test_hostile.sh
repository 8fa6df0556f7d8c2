#!/usr/bin/env bash
# Files and command lines from strangers (tests/data/hostile, made by
# make_hostile.sh): each gives a correct image or exit 2 with one sentence,
# within a time and memory bound, never a crash or a hang; what a decoder
# leaves unwritten never reaches an output (the same bytes whatever glibc
# fills fresh memory with, MALLOC_PERTURB_); lessons stay in their folder;
# records are bounded (size, nesting) and read strictly; no control
# character of a file reaches the terminal;
# scripts are bounded; SIGTERM ends a long run at once leaving no partial
# file; -o keeps modes and refuses read-only files.
# Usage: test_hostile.sh CONVIS DATA_DIR (tests/data)
set -u
convis=$1 data=$2
hostile=$data/hostile
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "not ok - $1"; failed=$((failed + 1)); }

# run SECONDS MAX_KB ARGS...: convis with a time limit, its peak memory in
# $tmp/kb, its exit status in $rc, stdout and stderr in $tmp/out, $tmp/err
run() {
  local seconds=$1 kb=$2
  shift 2
  /usr/bin/time -f "%M" -o "$tmp/kb" timeout -k 2 "$seconds" "$convis" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  peak=$(tail -n 1 "$tmp/kb" 2>/dev/null)
  [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && [ "${peak:-0}" -le "$kb" ]
}
one_sentence() { [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]; }

# ---- images: a correct image, or exit 2 and one sentence ------------------------------
# name, what is expected (image | refused: words of the sentence), seconds, KB of memory
while IFS='|' read -r name want seconds kb; do
  [ -z "$name" ] && continue
  out=$tmp/$name.pfm
  if ! run "$seconds" "$kb" apply "$hostile/$name" -k box --reps 1 -o "$out"; then
    bad "$name: over its bounds ($seconds s, $kb KB): exit $rc, $peak KB"
    continue
  fi
  case "$want" in
    image)
      if [ $rc -eq 0 ] && [ -s "$out" ]; then ok "$name: an image ($(head -c 60 "$tmp/out" | tr '\n' ' ')...), $peak KB"
      else bad "$name: no image: exit $rc: $(cat "$tmp/err")"; fi ;;
    *)
      if [ $rc -eq 2 ] && one_sentence && grep -q "$want" "$tmp/err" && [ ! -e "$out" ]; then ok "$name: $(cat "$tmp/err")"
      else bad "$name: exit $rc, wanted a sentence with '$want': $(cat "$tmp/err" "$tmp/out")"; fi ;;
  esac
done <<'EOF'
pgm16.pgm|image|20|200000
ppm16.ppm|image|20|200000
pnm-overflow.pgm|broken PGM/PPM header|20|200000
tga-truncated.tga|image|20|200000
bmp-short-palette.bmp|image|20|200000
bmp-offset-in-header.bmp|is a damaged BMP: its pixels start inside its header|20|200000
png-short-plte.png|image|20|200000
png-empty-idat.png|image|20|200000
png-huge.png|is 100000x100000 pixels, over the limit|5|100000
tga-rle-17mp.tga|image|30|600000
jpeg-bad-huffman.jpg|could not be decoded as JPEG|20|200000
pfm-nan.pfm|has a pixel that is not a finite number (NaN or infinity) at x 3, y 1|20|200000
pfm-inf.pfm|has a pixel that is not a finite number (NaN or infinity) at x 0, y 2|20|200000
EOF

# the bomb: 8192x8192 within the default limits, refused under a lower one
if run 10 100000 apply "$hostile/png-bomb.png" -k box --max-pixels 1000000 -o "$tmp/bomb.pfm" && [ $rc -eq 2 ] &&
  one_sentence && grep -q "8192x8192 pixels, over the limit" "$tmp/err"; then
  ok "png-bomb.png under --max-pixels 1000000: refused from its header, $peak KB"
else
  bad "png-bomb.png under --max-pixels: exit $rc, $peak KB: $(cat "$tmp/err")"
fi

# the bomb in full, within the default limits: at most 9 bytes a pixel in
# convis itself (the luma plane and the result, 8; apply takes no colours),
# half as much again under AddressSanitizer (its shadow memory and redzones)
bomb_kb=589824
[ -n "${CONVIS_TEST_SANITIZED:-}" ] && bomb_kb=$((bomb_kb * 3 / 2))
if run 60 "$bomb_kb" apply "$hostile/png-bomb.png" -k box --reps 1 -o "$tmp/bomb.pfm" && [ $rc -eq 0 ] &&
  [ "$(stat -c %s "$tmp/bomb.pfm")" -gt $((8192 * 8192 * 4)) ]; then
  ok "png-bomb.png: an 8192x8192 result in $peak KB ($((peak * 1024 / (8192 * 8192))) bytes a pixel)"
else
  bad "png-bomb.png in full: exit $rc, $peak KB (at most $bomb_kb): $(cat "$tmp/err")"
fi
rm -f "$tmp/bomb.pfm"

# what decoders leave unwritten is zeros, never old memory: the same output
# bytes run after run (the stack's old contents move with address-space
# randomisation) and whatever glibc fills fresh allocations with
for name in tga-truncated.tga bmp-short-palette.bmp png-short-plte.png png-empty-idat.png; do
  same=yes
  for run in plain1 plain2 plain3 perturb85 perturb170; do
    case $run in
      perturb*) MALLOC_PERTURB_=${run#perturb} "$convis" apply "$hostile/$name" -k identity --reps 1 -o "$tmp/$run.pfm" >/dev/null 2>&1 ;;
      *) "$convis" apply "$hostile/$name" -k identity --reps 1 -o "$tmp/$run.pfm" >/dev/null 2>&1 ;;
    esac
    [ -s "$tmp/$run.pfm" ] && cmp -s "$tmp/$run.pfm" "$tmp/plain1.pfm" || same=no
  done
  if [ $same = yes ]; then
    ok "$name: the same bytes in five runs, whatever the stack and fresh memory held"
  else
    bad "$name: the output changes from run to run: old memory reaches it"
  fi
done

# a 16-bit PGM is read at full depth: identity gives its values scaled to 0..255
"$convis" apply "$hostile/pgm16.pgm" -k identity --reps 1 -o "$tmp/p16.pfm" >/dev/null 2>&1
if [ -s "$tmp/p16.pfm" ] && [ "$(head -c 16 "$tmp/p16.pfm" | head -n 2 | tail -n 1)" = "300 280" ]; then
  ok "pgm16.pgm: 300x280 read"
else
  bad "pgm16.pgm: not read as 300x280"
fi

# ---- what is refused before it is read ---------------------------------------------
mkfifo "$tmp/fifo.png"
if run 5 100000 apply "$tmp/fifo.png" -k box -o "$tmp/f.pfm" && [ $rc -eq 2 ] && one_sentence &&
  grep -q "not a regular file" "$tmp/err"; then ok "a FIFO as an image: refused at once"
else bad "a FIFO as an image: exit $rc: $(cat "$tmp/err")"; fi
truncate -s 1G "$tmp/big.png"
printf 'not an image' | dd of="$tmp/big.png" conv=notrunc status=none
if run 2 100000 apply "$tmp/big.png" -k box -o "$tmp/g.pfm" && [ $rc -eq 2 ] && one_sentence &&
  grep -q "first bytes are not those of" "$tmp/err"; then ok "1 GiB that is not an image: refused from its first bytes, $peak KB"
else bad "1 GiB that is not an image: exit $rc, $peak KB: $(cat "$tmp/err")"; fi
ln -s loop-b.png "$tmp/loop-a.png"
ln -s loop-a.png "$tmp/loop-b.png"
if run 5 100000 apply "$tmp/loop-a.png" -k box -o "$tmp/l.pfm" && [ $rc -eq 2 ] && one_sentence &&
  grep -q "loop-a.png': it is a symbolic link that leads round in a loop" "$tmp/err"; then ok "a symbolic link loop: named"
else bad "a symbolic link loop: exit $rc: $(cat "$tmp/err")"; fi

# ---- lessons -------------------------------------------------------------------------
mkfifo "$tmp/fifo.yaml"
if run 5 100000 lesson --check "$tmp/fifo.yaml" && [ $rc -eq 2 ] && grep -q "not a regular file" "$tmp/err"; then
  ok "a FIFO as a lesson: refused at once"
else bad "a FIFO as a lesson: exit $rc: $(cat "$tmp/err")"; fi
for pair in "lesson-escape.yaml|lesson-escape.yaml:2:8: image '../../../etc/passwd' climbs out of the lesson's folder" \
  "lesson-absolute.yaml|lesson-absolute.yaml:4:12: image '/etc/passwd' is a path outside the lesson's folder"; do
  name=${pair%%|*} want=${pair#*|}
  if run 5 100000 lesson --check "$hostile/$name" && [ $rc -eq 2 ] && grep -qF "$want" "$tmp/err"; then
    ok "$name: refused at its line and column"
  else bad "$name: exit $rc: $(cat "$tmp/err")"; fi
done
mkdir "$tmp/lesson"
ln -s /etc/hostname "$tmp/lesson/link.png"
printf 'title: t\nimage: link.png\nsteps:\n  - say: hi\n' >"$tmp/lesson/link.yaml"
if run 5 100000 lesson --check "$tmp/lesson/link.yaml" && [ $rc -eq 2 ] &&
  grep -q "link.yaml:2:8: image 'link.png' is neither in the lesson's folder" "$tmp/err"; then
  ok "a lesson image linked out of its folder: refused"
else bad "a lesson image linked out of its folder: exit $rc: $(cat "$tmp/err")"; fi
printf 'title: t\nsteps:\n  - say: hi\n    do: apply-again*10000000\n' >"$tmp/lesson/many.yaml"
if run 5 100000 lesson --check "$tmp/lesson/many.yaml" && [ $rc -eq 2 ] &&
  grep -q "many.yaml:4:9: action 'apply-again' has a bad count '10000000'; write apply-again\*N with N from 1 to 100" "$tmp/err"; then
  ok "apply-again*10000000 in a lesson: refused at --check"
else bad "apply-again*10000000 in a lesson: exit $rc: $(cat "$tmp/err")"; fi
# each count within its bound, but 99 GPU runs on the image too-big opens
# (up to convis's limit of pixels): the work by its size is over the bound
printf 'title: t\nsteps:\n  - say: hi\n    do: [gpu, memory-budget, too-big, gpu*99]\n' >"$tmp/lesson/heavy.yaml"
if run 5 100000 lesson --check "$tmp/lesson/heavy.yaml" && [ $rc -eq 2 ] && one_sentence &&
  grep -q "heavy.yaml:4:39: gpu\*99 would take one script's work on whole images to .* pixel-passes" "$tmp/err"; then
  ok "gpu*99 after too-big in a lesson: refused at --check by its size"
else bad "gpu*99 after too-big in a lesson: exit $rc: $(cat "$tmp/err")"; fi

# a title's escape sequences (retitle the terminal, clear it) are shown escaped
if run 5 100000 lesson --check "$hostile/lesson-title-control.yaml" && [ $rc -eq 0 ] &&
  grep -qF '"\x1b]0;owned\x07\x1b[2JT"' "$tmp/out" && ! grep -q $'[\e\a]' "$tmp/out"; then
  ok "lesson-title-control.yaml: its title's control characters escaped: $(cat "$tmp/out")"
else bad "lesson-title-control.yaml: exit $rc: $(od -c "$tmp/out" | head -3) $(cat "$tmp/err")"; fi

# ---- records ---------------------------------------------------------------------------
# a lesson's record from a stranger: exit 2 and one sentence that says what
# is wrong, within 3 seconds (libyaml's time grows with the square of the
# nesting: the depth is refused before it parses), in whole UTF-8
# characters, with no control character of the file in it
mkdir "$tmp/rec"
cp "$hostile"/record-*.json "$tmp/rec/"
head -c $((255 * 1024)) /dev/zero | tr '\0' '[' >"$tmp/rec/deep.json"
truncate -s 2M "$tmp/rec/large.json"
printf '{"convis_record": 1}' | dd of="$tmp/rec/large.json" conv=notrunc status=none
long_name=$(printf '\xc3\xa9%.0s' $(seq 15)) # the file's 20, cut to 31 bytes between characters
while IFS='|' read -r name want; do
  [ -z "$name" ] && continue
  printf 'title: t\nrecord: %s\nsteps:\n  - say: hi\n' "$name" >"$tmp/rec/lesson.yaml"
  start=$(date +%s%N)
  run 3 200000 lesson --check "$tmp/rec/lesson.yaml"
  within=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  want=${want//@NAME@/$long_name}
  if [ $within -eq 0 ] && [ $rc -eq 2 ] && one_sentence && grep -qF -- "$want" "$tmp/err" &&
    ! grep -q $'[\e\a]' "$tmp/err" && iconv -f UTF-8 -t UTF-8 "$tmp/err" >/dev/null 2>&1; then
    ok "$name: refused in $ms ms: $(cat "$tmp/err")"
  else
    bad "$name: exit $rc in $ms ms, wanted a sentence with '$want': $(cat "$tmp/err" "$tmp/out" | head -c 600)"
  fi
done <<'EOF'
deep.json|deep.json' is not a record convis reads: its lists and mappings are nested more than 8 deep at line 1, column 9
large.json|large.json' is not a record convis reads: it is 2097152 bytes, and a record is at most 256 KiB
record-version-string.json|is a damaged record: "convis_record" at line 1, column 19 is "1", not a whole number
record-version-hex.json|is a damaged record: "convis_record" at line 1, column 19 is 0x1, not a whole number
record-version-fraction.json|is a damaged record: "convis_record" at line 1, column 19 is 1.9, not a whole number
record-size-fraction.json|is a damaged record: "size" at line 5, column 12 is 4.9, not a whole number
record-control.json|is a damaged record: engine '\x1b]0;owned\x07\x1b[2J' has a run of size 4 with times
record-long-name.json|is a damaged record: engine '@NAME@' has a run of size 4 with times
EOF

# ---- ending at once --------------------------------------------------------------------
# a long run (cpu-seq on 8192x8192, many times): SIGTERM ends it within a
# second, and the output never appears half-written
"$convis" apply "$hostile/png-bomb.png" -k box --engine cpu-seq --reps 200 -o "$tmp/long.pfm" >/dev/null 2>&1 &
pid=$!
sleep 5
running=no
kill -0 $pid 2>/dev/null && running=yes
start=$(date +%s%N)
kill -TERM $pid
wait $pid 2>/dev/null
status=$?
ms=$((($(date +%s%N) - start) / 1000000))
if [ $running = yes ] && [ $status -eq 143 ] && [ $ms -lt 3000 ] && [ ! -e "$tmp/long.pfm" ] &&
  [ -z "$(ls -A "$tmp" | grep '^\.convis-')" ]; then
  ok "SIGTERM during a long run: ended by the signal in $ms ms, nothing half-written left"
else
  bad "SIGTERM during a long run: running $running, status $status, $ms ms; left: $(ls -A "$tmp")"
fi
# while a file is being written: a large PNG (the bomb, filtered), ended
# half-way through its writing, leaves neither the file nor its temporary one
for delay in 0.4 0.8 1.2; do
  "$convis" apply "$hostile/png-bomb.png" -k box --reps 1 -o "$tmp/w.png" >/dev/null 2>&1 &
  pid=$!
  sleep $delay
  kill -TERM $pid 2>/dev/null
  wait $pid 2>/dev/null
done
if [ -z "$(ls -A "$tmp" | grep '^\.convis-')" ]; then
  ok "SIGTERM at three moments of a run that writes a file: no temporary file left"
else
  bad "SIGTERM while writing: left $(ls -A "$tmp" | grep '^\.convis-')"
fi

# ---- outputs -----------------------------------------------------------------------------
touch "$tmp/ro.png" && chmod 444 "$tmp/ro.png"
if run 10 200000 apply "$data/tiny.png" -k box -o "$tmp/ro.png" && [ $rc -eq 2 ] && grep -q "is read-only" "$tmp/err" &&
  [ ! -s "$tmp/ro.png" ] && [ "$(stat -c %a "$tmp/ro.png")" = 444 ]; then ok "-o onto a read-only file: refused, untouched"
else bad "-o onto a read-only file: exit $rc: $(cat "$tmp/err")"; fi
touch "$tmp/mode.png" && chmod 640 "$tmp/mode.png"
if run 10 200000 apply "$data/tiny.png" -k box -o "$tmp/mode.png" && [ $rc -eq 0 ] &&
  [ "$(stat -c %a "$tmp/mode.png")" = 640 ]; then ok "-o onto an existing file keeps its mode"
else bad "-o onto an existing file: exit $rc, mode $(stat -c %a "$tmp/mode.png")"; fi
long=$(printf 'n%.0s' $(seq 251))
if run 10 200000 apply "$data/tiny.png" -k box -o "$tmp/$long.png" && [ $rc -eq 0 ] && [ -s "$tmp/$long.png" ]; then
  ok "-o with a 255-character file name"
else bad "-o with a 255-character file name: exit $rc: $(cat "$tmp/err")"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
