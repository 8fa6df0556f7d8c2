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
here=$(cd "$(dirname "$0")" && pwd)
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
# the shape: a header, then rows of as many fields, numbers where numbers go;
# a row that did not run (an engine unavailable here) has no figures and its
# reason, quoted, in the last field
if awk -F, 'NR == 1 { n = NF; if ($1 != "filter" || $2 != "engine" || $4 != "size" || $5 != "median_ms" || $NF != "error") bad = 1; next }
  /"$/ { if ($5 != "" || $8 != "" || $4 !~ /^[0-9]+$/) bad = 1; next }
  NF != n || $NF != "" || $1 != "gaussian" { bad = 1 }
  { for (i = 4; i <= 8; i++) if ($i !~ /^[0-9.e+-]+$/) bad = 1
    if ($5 <= 0 || $6 > $5 + 1e-9 || $7 < $5 - 1e-9) bad = 1            # min <= median <= max
    px = $4 * $4; mpx = $(NF - 4); if (mpx <= 0 || (px / $5 / 1e3) / mpx > 1.001 || (px / $5 / 1e3) / mpx < 0.999) bad = 1 }
  END { exit bad || NR < 2 }' "$tmp/csv"; then
  ok "the CSV parses: fields, numbers, min <= median <= max, Mpixel/s = pixels / median, no error where it ran"
else
  bad "the CSV does not parse: $(head -3 "$tmp/csv")"
fi
# every engine that runs here, with both kernels where it has two; the copy at each size
timeout 120 "$convis" engines >"$tmp/engines" 2>/dev/null
missing=
while read -r name status _; do
  [ "$status" = available ] || continue
  for size in 16 70; do
    grep -q "^gaussian,$name,[a-z]*,$size," "$tmp/csv" || missing="$missing $name@$size"
  done
done <"$tmp/engines"
for size in 16 70; do grep -q "^gaussian,copy,,$size," "$tmp/csv" || missing="$missing copy@$size"; done
if grep -q "^gaussian,gl," "$tmp/csv" && ! { grep -q "^gaussian,gl,tiled," "$tmp/csv" && grep -q "^gaussian,gl,naive," "$tmp/csv"; }; then
  missing="$missing gl-tiled-and-naive"
fi
if [ -z "$missing" ] && grep -q available "$tmp/engines"; then
  ok "every engine that runs here is in it, at every size: $(awk -F, 'NR > 1 { print $2 ($3 ? "/" $3 : "") }' "$tmp/csv" | sort -u | tr '\n' ' ')"
else
  bad "missing from the CSV:$missing"
fi
# the JSON: one object, the same number of runs
if timeout 300 "$convis" bench --json --sizes 16 --engines cpu-seq,cpu-par --budget-ms 20 >"$tmp/json" 2>"$tmp/err" &&
  grep -q '"convis_bench": 1' "$tmp/json" && [ "$(grep -c '"engine": ' "$tmp/json")" -eq 5 ] &&
  { ! command -v python3 >/dev/null || python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/json"; }; then
  ok "bench --json: one object, the copy and two engines in its runs, the two engines in its roofline"
else
  bad "bench --json: $(head -c 300 "$tmp/json") $(cat "$tmp/err")"
fi
# the threads each cpu-par row really used, counted by the run, not its
# pool's size: a 16x16 image is one band, run on one of the pool's two
# threads; 512x512 has two bands, run on one or both (a thread the system
# schedules late runs none), never more
if CONVIS_CPU_THREADS=2 timeout 120 "$convis" bench --sizes 16,512 --engines cpu-seq,cpu-par --budget-ms 10 \
  >"$tmp/threads" 2>"$tmp/err" &&
  CONVIS_CPU_THREADS=2 timeout 120 "$convis" bench --json --sizes 16,512 --engines cpu-par --budget-ms 10 \
    >"$tmp/threads.json" 2>>"$tmp/err" &&
  CONVIS_CPU_THREADS=2 timeout 120 "$convis" bench --csv --sizes 16 --engines cpu-par --budget-ms 10 \
    >"$tmp/threads.csv" 2>>"$tmp/err" &&
  awk '$1 == "engine" && / reps +threads / { head = 1 }
    $1 == "cpu-par" && $2 == "16x16" && $6 == 1 { small = 1 }
    $1 == "cpu-par" && $2 == "512x512" && ($6 == 1 || $6 == 2) { big = 1 }
    $1 == "cpu-seq" && $6 == 1 { seq++ }
    $1 == "copy" && $6 == "-" { copy++ }
    END { exit !(head && small && big && seq == 2 && copy == 2) }' "$tmp/threads" &&
  grep -q '"engine": "cpu-par", "size": 16, .*"reps": [0-9]*, "threads": 1, "phases"' "$tmp/threads.json" &&
  grep -Eq '"engine": "cpu-par", "size": 512, .*"threads": [12], "phases"' "$tmp/threads.json" &&
  ! grep -q '"engine": "copy".*"threads"' "$tmp/threads.json" &&
  head -1 "$tmp/threads.csv" | grep -q '^filter,engine,kernel,size,median_ms,min_ms,max_ms,reps,threads,' &&
  grep -q '^gaussian,cpu-par,,16,[^,]*,[^,]*,[^,]*,[0-9]*,1,' "$tmp/threads.csv" && grep -q '^gaussian,copy,,16,[^,]*,[^,]*,[^,]*,[0-9]*,,' "$tmp/threads.csv"; then
  ok "bench: each cpu-par row says the threads its run used (1 at 16x16 of a pool of 2), in the table, JSON and CSV"
else
  bad "bench: the threads a row used: $(grep -E '^ *(engine|cpu-par|cpu-seq|copy) ' "$tmp/threads") $(grep '"threads"' "$tmp/threads.json") $(head -3 "$tmp/threads.csv") $(cat "$tmp/err")"
fi
# the second-core check: one line in the table (the measured figure and what
# it means), its figures in the JSON; none when no CPU engine runs
if timeout 120 "$convis" bench --sizes 16 --engines cpu-seq,cpu-par --budget-ms 5 >"$tmp/cores" 2>"$tmp/err" &&
  [ "$(grep -c '^  cores: ' "$tmp/cores")" -eq 1 ] &&
  grep -Eq "^  cores: [0-9]+ threads? at once gave [0-9]+\.[0-9] cores' worth of work \(measured\), .*; (your (second|other [0-9]+) cores? gave [0-9]+% of a core|cpu-par has one thread)" "$tmp/cores" &&
  grep -Eq '"cores_check": \{"threads": [0-9]+, "worth": [0-9.]+,' "$tmp/json"; then
  ok "bench: the second-core check, $(grep '^  cores: ' "$tmp/cores" | cut -c10-80)..."
else
  bad "bench: the second-core check: $(head -6 "$tmp/cores") $(grep cores_check "$tmp/json") $(cat "$tmp/err")"
fi
# the bounds under the table and in the JSON: labelled not measured, one a
# GPU and size, the link's and the kernel's parts adding up to no more
# the roofline in the JSON: each engine's roofs, its point and the roof under it,
# the share that roof's figure at the point's counted intensity
if /usr/bin/python3 - "$tmp/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
roof = d["roofline"]
assert sorted(r["engine"] for r in roof) == ["cpu-par", "cpu-seq"], roof
for r in roof:
    assert r["filter"] == "gaussian" and r["size"] == 16 and r["ops_per_output"] == 19, r
    assert abs(r["ops_per_byte"] - 19 / 8) < 1e-9, r
    mem, comp = r["memory_roof_gb_s"] * r["ops_per_byte"], r["compute_roof_gflops"]
    assert r["memory_roof_gb_s"] > 0 and comp > 0 and r["point_gflops"] > 0, r
    assert r["under"] == ("memory" if mem < comp else "compute"), r
    assert abs(r["share"] - r["point_gflops"] / min(mem, comp)) < 1e-4 * r["share"], r
PY
then
  ok "bench --json: the roofline, each engine's roofs and point, the roof under it and the share of it"
else
  bad "bench --json: the roofline: $(grep -A12 '"roofline"' "$tmp/json" | head -14)"
fi

# --fft: the filter through the FFT at each filter and size, in the JSON and
# the text, with the crossover lines across --ksize; without FFTW each entry
# says so
if timeout 300 "$convis" bench --fft --ksize 3,9 -k box --sizes 16,40 --engines cpu-simd --budget-ms 10 --json \
  >"$tmp/fft.json" 2>"$tmp/err" &&
  timeout 300 "$convis" bench --fft --ksize 3,9 -k box --sizes 40 --engines cpu-simd,cpu-par --budget-ms 10 \
    >"$tmp/fft.text" 2>>"$tmp/err" && /usr/bin/python3 - "$tmp/fft.json" "$tmp/fft.text" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
fft = d["fft"]
assert [(f["filter"], f["size"]) for f in fft] == [("box:3", 16), ("box:3", 40), ("box:9", 16), ("box:9", 40)], fft
for f in fft:
    if "error" in f:
        assert "FFTW" in f["error"], f
        continue
    k = int(f["filter"].split(":")[1])
    nw, nh = f["transform"]
    assert nw >= f["size"] + k - 1 and nh == nw and nw % 2 == 0, f
    assert 0 < f["min_ms"] <= f["median_ms"] <= f["max_ms"] and f["reps"] >= 1 and f["plan_ms"] >= 0, f
assert "Through the FFT" in text, text
if "error" not in fft[0]:
    assert text.count("At 40x40 the FFT on one thread") == 2, text
PY
then
  ok "bench --fft: each filter and size through the FFT, in the JSON and the text, the crossover said"
else
  bad "bench --fft: $(grep -A8 '"fft"' "$tmp/fft.json" | head -10) $(grep -A6 'Through the FFT' "$tmp/fft.text") $(cat "$tmp/err")"
fi

# --layer: a layer's three ways on each engine that computes layers, at each
# size, in the JSON and the text: every run compared with the direct loop
if timeout 300 "$convis" bench --layer edges,random:8 --sizes 16,40 --budget-ms 10 --json >"$tmp/layer.json" 2>"$tmp/err" &&
  timeout 300 "$convis" bench --layer random:8 --sizes 16,40 --engines cpu-par --budget-ms 10 \
    >"$tmp/layer.text" 2>>"$tmp/err" && /usr/bin/python3 - "$tmp/layer.json" "$tmp/layer.text" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
assert d["channels"] == 3, d["channels"]
assert [(l["name"], l["c_in"], l["c_out"], l["k"]) for l in d["layers"]] == [("edges", 3, 4, 3), ("random:8", 3, 8, 3)]
for l in d["layers"]:
    runs = l["runs"]
    assert {"cpu-seq", "cpu-par"} <= {r["engine"] for r in runs}, runs
    assert {r["size"] for r in runs} == {16, 40}, runs
    for r in runs:
        if "error" in r:  # a GPU engine unavailable here, gl's library way, a build without OpenBLAS
            assert r["engine"] not in ("cpu-seq", "cpu-par") or "OpenBLAS" in r["error"], r
            continue
        assert r["ms"] > 0 and r["runs"] >= 1 and r["gflops"] > 0, r
        assert (r["extra_mb"] == 0) == (r["way"] == "direct"), r
        if r["way"] != "direct":  # 27 rows of size^2 floats
            assert abs(r["extra_mb"] - 27 * 4 * r["size"] ** 2 / 1e6) < 1e-3, r
        assert r["over_tolerance"] == 0, r
        if r["way"] != "library":
            assert r["differ"] == 0, r
assert "layer random:8: 3 channels in, 8 filters of 3x3x3: 55 operations an output" in text, text
assert "cpu-par im2col: the direct loop's bits at every size" in text, text
assert "cpu-seq" not in text.split("layer random:8")[1], text
PY
then
  ok "bench --layer: each layer, engine, way and size, compared with the direct loop"
else
  bad "bench --layer: $(head -c 600 "$tmp/layer.json") $(head -20 "$tmp/layer.text") $(cat "$tmp/err")"
fi

n_gpus=$(grep -c '"short":' "$here/../../records/datasheets.json")
if grep -q '^Bounds, from the datasheets, not measured' "$tmp/cores" &&
  [ "$(grep -c '"gpu": ' "$tmp/json")" -eq "$n_gpus" ] &&
  grep -Eq '"gpu": "NVIDIA H200 SXM", "size": 16, "ms": [0-9.e+-]+, "memory_ms": [0-9.e+-]+, "arithmetic_ms": [0-9.e+-]+, "link_ms": [0-9.e+-]+\}' "$tmp/json" &&
  awk -F'[:,}]' '/"gpu": / { ms = $8; mem = $10; ar = $12; link = $14
      if (ms <= 0 || ms * (1 + 1e-5) < link + (mem > ar ? mem : ar) || ms > (link + mem + ar) * (1 + 1e-5)) bad = 1 }
    END { exit bad }' "$tmp/json"; then
  ok "bench: the bounds of $n_gpus GPUs, labelled not measured, their parts adding up"
else
  bad "bench: the bounds: $(grep -A3 '^Bounds' "$tmp/cores") $(grep '"gpu": ' "$tmp/json" | head -3)"
fi
# the roofline under the bounds: measured roofs and each engine's point, the
# counted intensity of the filter (gaussian 3x3: 19 operations, 2.38 a byte)
if grep -q '^Roofline at 16x16, measured' "$tmp/cores" &&
  grep -q '19 operations an output over the 8 bytes' "$tmp/cores" &&
  grep -Eq '^cpu-seq +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{2} +(memory|compute) +[0-9]+% +memcpy of 64 MiB on 1 thread' "$tmp/cores" &&
  grep -Eq '^cpu-par +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{2} +(memory|compute) +[0-9]+% +memcpy of 64 MiB on [0-9]+ threads?' "$tmp/cores"; then
  ok "bench: the roofline, $(grep -A3 '^engine .*memory GB/s' "$tmp/cores" | sed -n 2p | cut -c1-70)..."
else
  bad "bench: the roofline: $(grep -A4 '^Roofline' "$tmp/cores")"
fi
if timeout 120 "$convis" bench --sizes 16 --engines gl --budget-ms 5 2>/dev/null | grep -q '^  cores: '; then
  bad "bench without a CPU engine: the second-core check was made"
else
  ok "bench without a CPU engine: no second-core line"
fi
# a cell that fails is written with its reason, not dropped: the gl engine at
# 8192x8192 on llvmpipe, whose storage buffers hold 128 MiB at most
if grep -q "^gl .*available.*llvmpipe" "$tmp/engines"; then
  fail_rc=0
  for format in csv json text; do
    flag=--$format
    [ $format = text ] && flag=
    # shellcheck disable=SC2086 # no flag for the text table
    timeout 120 "$convis" bench $flag --sizes 8192 --engines gl --budget-ms 1 >"$tmp/fail.$format" 2>"$tmp/err" ||
      fail_rc=$?
  done
  if [ $fail_rc -eq 0 ] &&
    grep -q '^gaussian,gl,tiled,8192,,,,,.*,"a 8192x8192 image needs .* shader storage buffer.*"$' "$tmp/fail.csv" &&
    grep -q '^gaussian,gl,naive,8192,,,,' "$tmp/fail.csv"; then
    ok "bench --csv: a failed cell has no figures and its reason ($(grep -c '^gaussian,gl,' "$tmp/fail.csv") rows)"
  else
    bad "bench --csv: the failed cells (exit $fail_rc): $(cat "$tmp/fail.csv")"
  fi
  if grep -q '"engine": "gl", "kernel": "tiled", "size": 8192, "error": "a 8192x8192 image needs' "$tmp/fail.json" &&
    { ! command -v python3 >/dev/null || python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/fail.json"; }; then
    ok "bench --json: a failed cell has its \"error\""
  else
    bad "bench --json: the failed cells: $(grep -A3 '"runs"' "$tmp/fail.json")"
  fi
  if grep -q '^gl tiled   8192x8192  failed: a 8192x8192 image' "$tmp/fail.text"; then
    ok "bench: in the table, a failed cell's reason stands apart from its size"
  else
    bad "bench: the failed cell in the table: $(grep '^gl' "$tmp/fail.text")"
  fi
else
  echo "skip - no gl engine on llvmpipe here to fail at 8192x8192"
fi
# the results onto a full disk: exit 3 and one sentence, not 0
for flag in --csv --json ""; do
  # shellcheck disable=SC2086 # no flag for the text table
  timeout 60 "$convis" bench $flag --sizes 16 --engines cpu-seq --budget-ms 5 >/dev/full 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 3 ] && [ "$(grep -vc '^convis: bench: ' "$tmp/err")" -eq 1 ] &&
    grep -q "^convis: cannot write the results to standard output: No space left on device" "$tmp/err"; then
    ok "bench ${flag:-(the table)} >/dev/full: exit 3, one sentence"
  else
    bad "bench ${flag:-(the table)} >/dev/full: exit $rc: $(cat "$tmp/err")"
  fi
done
if ! "$convis" bench --sizes 0 >/dev/null 2>"$tmp/err" && grep -q "sizes" "$tmp/err" &&
  ! "$convis" bench --engines warp-drive >/dev/null 2>&1; then
  ok "wrong sizes or engines: usage errors ($(cat "$tmp/err"))"
else
  bad "a wrong --sizes or --engines was taken"
fi
# --ksize: the -k filter's kind at each size, a table each, every row named
# with its filter; a filter without a size, or an even size, is refused
if timeout 120 "$convis" bench --ksize 3,5,9 -k box --sizes 32 --engines cpu-seq,cpu-par --budget-ms 5 --csv \
  >"$tmp/k.csv" 2>"$tmp/err" &&
  timeout 120 "$convis" bench --ksize 1,7 -k motion:3 --sizes 32 --engines cpu-seq --budget-ms 5 --json >"$tmp/k.json" \
    2>>"$tmp/err" &&
  timeout 120 "$convis" bench --ksize 3,5 --sizes 32 --engines cpu-seq --budget-ms 5 >"$tmp/k.text" 2>>"$tmp/err" &&
  [ "$(grep -c '^box:[359],cpu-par,,32,' "$tmp/k.csv")" -eq 3 ] && [ "$(grep -c '^box:[359],copy,,32,' "$tmp/k.csv")" -eq 3 ] &&
  grep -q '"filter": "motion:1", "engine": "cpu-seq", ' "$tmp/k.json" &&
  grep -q '"filter": "motion:7", "gpu": ' "$tmp/k.json" &&
  grep -q '^filter gaussian:0.333333, 3×3:$' "$tmp/k.text" && grep -q '^filter gaussian:0.666667, 5×5:$' "$tmp/k.text" &&
  ! "$convis" bench --ksize 4 --sizes 32 >/dev/null 2>&1 &&
  ! "$convis" bench --ksize 3 -k sharpen --sizes 32 >/dev/null 2>"$tmp/kerr" && grep -q "has one size" "$tmp/kerr"; then
  ok "bench --ksize: a table a filter size, each row named with its filter; sizes and filters without one refused"
else
  bad "bench --ksize: $(head -5 "$tmp/k.csv") $(grep -c filter "$tmp/k.json") $(grep '^filter' "$tmp/k.text") $(cat "$tmp/err" "$tmp/kerr" 2>/dev/null)"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
