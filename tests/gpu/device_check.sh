#!/usr/bin/env bash
# device_check.sh - the one check to run on a machine with a CUDA GPU
# (docs/ARCHITECTURE.md, section 6), made for a bare, headless server lent for minutes:
# one call, no X server, nothing fetched, under nine minutes.
#
#   machine    the GPU, driver, compute capability, OS, tools found
#   packages   .gl/*.deb (the GL loaders) unpacked into /; .deps/*.deb (SDL2,
#              SDL2_ttf, fontconfig, GLEW, libyaml, stb, giflib, pkgconf, a
#              font) added to / without replacing any file (lib, lib64, bin,
#              sbin folded into usr/ first where / is merged-usr); then every
#              lookup of tests/gpu/build_needs.txt: its header or program
#              there, its pkg-config module found; a required one missing
#              fails, an optional one (the catalogues: gettext) is named
#   gl-env     OpenGL through EGL on the GPU: no DISPLAY, so convis and the
#              tests draw offscreen (SDL's offscreen video driver); glvnd
#              pointed at NVIDIA's EGL vendor file and library folder when
#              they are not in the standard places
#   build      for this GPU only (nvidia-smi's compute capability, "90-real"),
#              Ninja where there is one, warnings as errors; if that fails
#              only for -Werror, again without it (a warning, not the end);
#              says what CMake left out (the catalogues without gettext).
#              After a failed build, every step that needs it has its row:
#              "not run: the build failed"
#   ptxas      registers, barriers, stack and spills of each kernel
#              (-Xptxas -v): local memory must be 0; SASS op counts
#              (cuobjdump -sass) in the logs
#   engines    `convis engines`: cuda available, gl on which renderer
#   gpu-tests  ctest -L gpu: a skipped test is a failure here
#   bit-exact  every run of test_cuda_engine equal to the reference bit for
#              bit, fewer is a failure
#   interop    test_cuda_interop's context on the NVIDIA GPU and its present
#              path interop; the copy path is a failure here
#   window     one frame of the window's GPU phase in thread view, offscreen
#              ($OUT/window.png), presented by interop
#   benchmark  bench_cuda: bandwidth against a copy kernel, naive against
#              tiled, the interop tax, the per-pixel trap
#   layers     `convis bench --layer` on cuda beside cpu-par, cuBLAS in fp32
#              and on TF32 tensor cores: direct and im2col the direct loop's
#              bits, the library within its tolerance; the tables in the summary
#   lab        `convis lab`: the CUDA starter compiled by NVRTC and run (its
#              halo missing: wrong), a right CUDA and a right GLSL kernel (every
#              output right, 324 reads a block), their times
#   record     `convis record`: the size sweep of every engine here, with the
#              machine and the date ($OUT/record.json), to ship in records/
#   san-*      compute-sanitizer memcheck (both kernels), racecheck and
#              synccheck (the tiled kernel) on one small `convis apply`
#
# Every step has a time limit (machine 15 s, packages 30, build 130 with its
# retry, ptxas 20, engines 10, gpu tests 90, window 20, benchmark 45 and the
# engine's phases 20, layers 2 x 12, lab 3 x 10, record 35, sanitizers 4 x 30,
# time for a context on a large GPU: 589 s in all), each also cut to what is left of BUDGET_S; no step
# starts with less than 30 s left, so the summary always prints. It leaves
# four files in $OUT: summary.txt (the table, the exactness lines, ptxas's
# figures, the benchmark's table), window.png, record.json and logs.tar.gz
# (every log).
# Exit status: 0 every step passed on a GPU; 1 a step failed; 77 no CUDA GPU
# here (the GPU steps say "skip: no GPU"; a dry run of the script itself).
#
# Usage, from anywhere:   bash tests/gpu/device_check.sh
#   OUT                 where the four files go (default /tmp/convis-device-check)
#   BUILD_DIR           the build folder (default /tmp/convis-build-device)
#   DEVICE_CHECK_ROOT   where carried packages are unpacked (default /; a
#                       scratch folder for a dry run on a machine that has
#                       them installed)
#   BUDGET_S            seconds the whole check may take (default 550)
# The carried packages: tests/gpu/fetch_packages.sh fills .gl/ and .deps/
# (tests/gpu/README.md).
set -u

T0=$(date +%s)
DEADLINE=$((T0 + ${BUDGET_S:-550}))
cd "$(dirname "$0")/../.." || { echo "device_check.sh: cannot find the repository root" >&2; exit 2; }
ROOT=$PWD
OUT=${OUT:-/tmp/convis-device-check}
B=${BUILD_DIR:-/tmp/convis-build-device}
PKG_ROOT=${DEVICE_CHECK_ROOT:-/}
L=$(mktemp -d "${TMPDIR:-/tmp}/convis-device-logs.XXXXXX")
mkdir -p "$OUT" || { echo "device_check.sh: cannot create $OUT" >&2; exit 2; }
rm -f "$OUT/summary.txt" "$OUT/window.png" "$OUT/record.json" "$OUT/logs.tar.gz"
export PATH="$PATH:/usr/local/cuda/bin"
unset DISPLAY WAYLAND_DISPLAY

rows=() failed=0 warned=0 notrun=0 gpu=no interrupted=no
row() { # NAME STATE NOTE: one line of the table; FAIL counts
  local line
  line=$(printf '%-10s %-7s %s' "$1" "$2" "$(printf '%s' "$3" | tr '\n' ' ' | cut -c1-150)")
  rows+=("$line")
  echo "== $line"
  case "$2" in
    FAIL) failed=$((failed + 1)) ;;
    WARN | n/a) warned=$((warned + 1)) ;;
    not-run) notrun=$((notrun + 1)) ;;
  esac
}
left() { echo $((DEADLINE - $(date +%s))); }
# lim WANT: WANT seconds, or what is left before the deadline less a margin
lim() { local l=$(($(left) - 20)); [ "$l" -lt 5 ] && l=5; [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; }
late() { [ "$(left)" -lt 30 ]; } # too late to start a step
# can_start NAME...: whether the steps NAME... can start: the build is there
# and 30 s are left. When either is missing, each gets its row: "not-run"
# after a failed build, FAIL when time ran out: a step that did not run never
# passes.
can_start() {
  if [ "$built" != yes ]; then
    for n in "$@"; do row "$n" not-run "not run: the build failed"; done
    return 1
  fi
  if late; then
    for n in "$@"; do row "$n" FAIL "not run: less than 30 s of the budget left"; done
    return 1
  fi
}
first_line() { grep -m1 -E "$1" "$2" 2>/dev/null | cut -c1-140; }

finish() {
  local status=0
  [ "$interrupted" = yes ] && row interrupt FAIL "the check was interrupted by a signal"
  [ "$failed" -gt 0 ] || [ "$notrun" -gt 0 ] && status=1
  [ "$failed" -eq 0 ] && [ "$gpu" = no ] && status=77
  {
    echo "convis device check, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $(($(date +%s) - T0)) s"
    printf '%-10s %-7s %s\n' STEP RESULT NOTE
    printf '%s\n' "${rows[@]}"
    for f in exact.txt ptxas.txt sass-counts.txt timing.txt; do
      [ -s "$L/$f" ] && { echo; echo "--- $f"; cat "$L/$f"; }
    done
    [ -s "$L/bench.log" ] && { echo; sed -n '/^bench_cuda on/,$p' "$L/bench.log"; }
    for m in fp32 tf32; do
      [ -s "$L/layer-$m.txt" ] && { echo; echo "--- bench --layer, the library in $m"; cat "$L/layer-$m.txt"; }
    done
    echo
    case $status in
      0) if [ "$warned" -eq 0 ]; then echo "verdict: every step passed on the GPU"
         else echo "verdict: no step failed; $warned step(s) passed with a warning or could not run here (WARN, n/a)"; fi ;;
      77) echo "verdict: no CUDA GPU here: the GPU steps were skipped (a dry run)" ;;
      *) if [ "$notrun" -eq 0 ]; then echo "verdict: $failed step(s) failed"
         else echo "verdict: $failed step(s) failed, and $notrun could not run after them"; fi ;;
    esac
  } >"$OUT/summary.txt" 2>&1
  tar -C "$L" -czf "$OUT/logs.tar.gz" . 2>/dev/null
  cat "$OUT/summary.txt"
  rm -rf "$L"
  exit $status
}
trap finish EXIT
trap 'interrupted=yes; exit 1' INT TERM

# ---- machine --------------------------------------------------------------------------
{
  echo "## os"; head -4 /etc/os-release 2>/dev/null; uname -a
  echo "## gpu"; timeout -k 5 10 nvidia-smi 2>&1 | head -20
  echo "## tools"
  for t in nvcc gcc cmake ninja make pkg-config cuobjdump compute-sanitizer; do
    printf '%-18s %s\n' "$t" "$(command -v "$t" || echo MISSING)"
  done
  nvcc --version 2>&1 | tail -2; gcc --version 2>&1 | head -1; cmake --version 2>&1 | head -1
  echo "## merged /usr"; ls -ld /lib /bin /sbin 2>&1
  echo "## loader"; ldconfig -p 2>/dev/null | grep -E 'libcuda\.so|libEGL|libGLX|libGL\.so|libOpenGL|libGLdispatch|libSDL2'
  echo "## nvidia folders"; ls /usr/local/nvidia /usr/local/nvidia/lib64 2>&1 | grep -E ':|EGL|GLX|glcore|libcuda\.so'
  ls -R /usr/local/nvidia/share/glvnd 2>&1 | head -10
  echo "## glvnd vendor files"; ls /usr/share/glvnd/egl_vendor.d /etc/glvnd/egl_vendor.d 2>&1
} >"$L/machine.txt" 2>&1
gpu_line=$(timeout -k 5 5 nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader 2>/dev/null | head -n 1)
cap=$(echo "$gpu_line" | cut -d, -f3 | tr -d ' .')
os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-?}")
if [ -n "$gpu_line" ]; then
  gpu=yes
  row machine ok "$gpu_line; $os; nvcc $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' | cut -d' ' -f2); gcc $(gcc -dumpfullversion 2>/dev/null)"
else
  row machine skip "no GPU: nvidia-smi names none; $os"
fi
case "$cap" in
  [0-9][0-9] | [0-9][0-9][0-9]) ARCH="$cap-real" ;;
  *) ARCH="75-real" ;; # no GPU: the oldest the toolkit builds, to check the build itself
esac

# ---- packages ---------------------------------------------------------------------------
shopt -s nullglob
gl_debs=(.gl/*.deb) dep_debs=(.deps/*.deb)
shopt -u nullglob
mkdir -p "$PKG_ROOT"
unpack_end=$(($(date +%s) + 30))
unpack() { # DEB FOLDER, inside the step's 30 s
  local l=$((unpack_end - $(date +%s)))
  [ "$l" -ge 1 ] && timeout -k 5 "$l" dpkg -x "$1" "$2" 2>>"$L/unpack.log"
}
for f in "${gl_debs[@]}"; do unpack "$f" "$PKG_ROOT"; done
if [ ${#dep_debs[@]} -gt 0 ]; then
  stage=$(mktemp -d "${TMPDIR:-/tmp}/convis-deps.XXXXXX")
  for f in "${dep_debs[@]}"; do unpack "$f" "$stage"; done
  # On a merged-/usr root, /lib is a link to usr/lib and "cp -rn stage/. /"
  # cannot put stage/lib over it ("cannot overwrite non-directory"): what a
  # package ships under /lib would be dropped. Fold it into usr/ first.
  for d in lib lib64 bin sbin; do
    if [ -L "$PKG_ROOT/$d" ] && [ -d "$stage/$d" ]; then
      mkdir -p "$stage/usr/$d" && cp -rn "$stage/$d/." "$stage/usr/$d/" && rm -rf "${stage:?}/$d"
    fi
  done
  cp -rn "$stage/." "$PKG_ROOT/" 2>>"$L/unpack.log" # never replaces a file that is there
  rm -rf "$stage"
fi
[ "$PKG_ROOT" = / ] && ldconfig 2>>"$L/unpack.log"
# every lookup the build makes (tests/gpu/build_needs.txt: KIND NAME FILE
# PACKAGE [OPTION]): its file under $PKG_ROOT (or /), a program also on the
# PATH, a pkg-config module also found by pkg-config
missing='' optional_missing='' looked=0
while read -r kind name file pkg opt; do
  case "$kind" in '' | '#'*) continue ;; esac
  looked=$((looked + 1))
  found=yes
  [ -e "$PKG_ROOT/$file" ] || [ -e "/$file" ] || found=no
  [ "$kind" = program ] && ! command -v "$name" >/dev/null 2>&1 && found=no
  [ "$kind" = pc ] && ! pkg-config --exists "$name" 2>/dev/null && found=no
  if [ "$found" = no ]; then
    if [ -n "$opt" ]; then optional_missing+="$name ($pkg, $opt) "; else missing+="$name (/$file, $pkg) "; fi
  fi
done <"$ROOT/tests/gpu/build_needs.txt"
echo "lookups: $looked; required missing: ${missing:-none}; optional missing: ${optional_missing:-none}" >>"$L/unpack.log"
note="${#gl_debs[@]} .deb from .gl/ and ${#dep_debs[@]} from .deps/ into $PKG_ROOT; $looked lookups of build_needs.txt"
note+="; missing: ${missing:-nothing required}${optional_missing:+; optional, left out: $optional_missing}"
if [ -z "$missing" ]; then row packages ok "$note"; else row packages FAIL "$note"; fi

# ---- OpenGL through EGL on the GPU ------------------------------------------------------------
if ! ls /usr/share/glvnd/egl_vendor.d/*nvidia* /etc/glvnd/egl_vendor.d/*nvidia* >/dev/null 2>&1 &&
  [ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ]; then
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libEGL_nvidia\.so\.0'; then
  for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
    [ -e "$d/libEGL_nvidia.so.0" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  done
fi
row gl-env set "no DISPLAY (offscreen through EGL); EGL vendor file: ${__EGL_VENDOR_LIBRARY_FILENAMES:-the standard ones}; LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-unset}"

# ---- build ---------------------------------------------------------------------------------
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
build_end=$(($(date +%s) + 130)) # configure and build, the retry without -Werror included
build_lim() { local l=$((build_end - $(date +%s))); [ "$l" -lt 1 ] && l=1; lim "$l"; }
configure() { # WERROR
  timeout -k 5 "$(build_lim)" cmake -S "$ROOT" -B "$B" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCONVIS_CUDA_ARCHITECTURES="$ARCH" -DCONVIS_WERROR="$1" >>"$L/configure.log" 2>&1
}
built=no left_out=
if [ -f "$B/CMakeCache.txt" ] && { ! grep -q "^CMAKE_GENERATOR:INTERNAL=${gen[1]:-Unix Makefiles}$" "$B/CMakeCache.txt" ||
  ! grep -q "^CMAKE_HOME_DIRECTORY:INTERNAL=$ROOT$" "$B/CMakeCache.txt"; }; then
  rm -rf "$B" # a folder of another generator or another source tree
fi
configure ON
configured=$?
grep -q 'catalogues OFF' "$L/configure.log" && left_out="; without the catalogues (no gettext): English only"
if [ $configured -ne 0 ]; then
  row build FAIL "configure: $(grep -m3 -E "CMake Error|No package|Could NOT|not found" "$L/configure.log" | tr '\n' ' ')"
elif ! grep -q 'CUDA engine ON' "$L/configure.log"; then
  row build FAIL "cmake found no CUDA compiler: $(first_line 'CUDA engine' "$L/configure.log")"
elif timeout -k 5 "$(build_lim)" cmake --build "$B" --parallel "$(nproc)" >"$L/build.log" 2>&1; then
  built=yes
  row build ok "$ARCH, warnings as errors, ${gen[1]:-make}, at $(($(date +%s) - T0)) s$left_out"
elif configure OFF && timeout -k 5 "$(build_lim)" cmake --build "$B" --parallel "$(nproc)" >"$L/build-no-werror.log" 2>&1; then
  built=yes
  row build WARN "only without -Werror (this compiler warns): $(first_line 'error' "$L/build.log")$left_out"
else
  row build FAIL "$(first_line 'error|Error' "$L/build.log")"
fi

# ---- what ptxas made of the kernels -------------------------------------------------------------
if late; then
  row ptxas FAIL "not run: less than 30 s of the budget left"
elif ! command -v nvcc >/dev/null 2>&1; then
  row ptxas not-run "not run: no nvcc on the PATH"
else
  if timeout -k 5 "$(lim 20)" nvcc -arch="sm_${ARCH%-real}" --fmad=false -Xptxas -v -c "$ROOT/kernels/conv3x3.cu" \
    -o "$L/conv3x3.o" >"$L/ptxas.log" 2>&1; then
    # "Compiling entry function '_Z13conv3x3_tiled...'" then "N bytes stack frame, N bytes spill stores,
    # N bytes spill loads" then "Used N registers, ..."
    awk '/Compiling entry function/ {f = $0; if (match(f, /_Z[0-9]+/)) f = substr(f, RSTART + RLENGTH, substr(f, RSTART + 2, RLENGTH - 2) + 0)}
         /stack frame/ {frame = $0} /Used [0-9]+ registers/ {reg = $0; sub(/.*: /, "", reg); sub(/^ */, "", frame)
           printf "%-14s %s; %s\n", f, reg, frame}' "$L/ptxas.log" >"$L/ptxas.txt"
    local_bytes=$(grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' "$L/ptxas.txt" | awk '{s += $1} END {print s + 0}')
    if command -v cuobjdump >/dev/null 2>&1; then
      cuobjdump -sass "$L/conv3x3.o" >"$L/sass.txt" 2>&1
      awk '/Function :/ {f = $3}
           f && /^ +\/\*[0-9a-f]+\*\// {for (i = 1; i <= NF; i++) if ($i ~ /^[A-Z][A-Z0-9_.]+$/ && $i !~ /^P[0-9]/) {
             op = $i; sub(/\..*/, "", op); c[f " " op]++; break}}
           END {for (k in c) print k, c[k]}' "$L/sass.txt" | sort |
        grep -E ' (LDL|STL|LDS|STS|LDG|STG|LDC|BAR|FMUL|FADD|FFMA|MUFU|IMAD|I2F|F2I) ' >"$L/sass-counts.txt"
      sass="SASS op counts in sass-counts (LDL/STL lines: $(grep -cE ' (LDL|STL) ' "$L/sass-counts.txt"))"
    else
      sass="no cuobjdump: no SASS counts"
    fi
    if [ "$local_bytes" -eq 0 ] && [ -s "$L/ptxas.txt" ]; then
      row ptxas ok "local memory 0 bytes in every kernel; $sass"
    else
      row ptxas FAIL "local memory (stack + spills) $local_bytes bytes; see ptxas.txt; $sass"
    fi
  else
    row ptxas FAIL "nvcc -Xptxas -v failed: $(first_line 'error' "$L/ptxas.log")"
  fi
fi

# ---- engines --------------------------------------------------------------------------------
if can_start engines; then
  timeout -k 5 "$(lim 10)" "$B/convis" engines >"$L/engines.txt" 2>&1
  rc=$?
  lines="$(grep -E '^(cuda|gl) ' "$L/engines.txt" | tr -s ' ' | cut -c1-70 | tr '\n' '|')"
  if grep -Eq '^cuda +available' "$L/engines.txt"; then
    row engines ok "$lines"
  elif [ $rc -ne 0 ]; then
    row engines FAIL "convis engines exited $rc: $(tail -n 1 "$L/engines.txt")"
  elif [ "$gpu" = no ]; then
    row engines skip "no GPU: $lines"
  else
    row engines FAIL "$lines"
  fi
fi

# ---- the gpu tests ---------------------------------------------------------------------------
if can_start gpu-tests bit-exact interop; then
  timeout -k 5 "$(lim 90)" ctest --test-dir "$B" -L gpu --output-on-failure --timeout 80 >"$L/ctest-gpu.log" 2>&1
  rc=$?
  cp "$B/Testing/Temporary/LastTest.log" "$L/ctest-gpu-full.log" 2>/dev/null
  summary=$(grep -E 'tests passed' "$L/ctest-gpu.log" | tail -n 1)
  skipped=$(grep -E '\*\*\*Skipped|Not Run' "$L/ctest-gpu.log" | grep -oE 'test_[a-z_]+' | sort -u | tr '\n' ' ')
  if [ "$gpu" = no ] && { [ $rc -ne 0 ] || ! grep -q '100% tests passed' "$L/ctest-gpu.log"; }; then
    row gpu-tests FAIL "no GPU, and not every test passed or skipped: ${summary:-ctest exit $rc}"
  elif [ "$gpu" = no ]; then
    row gpu-tests skip "no GPU: ${summary:-ctest exit $rc}; skipped: ${skipped:-none}"
  elif [ $rc -eq 0 ] && [ -z "$skipped" ]; then
    row gpu-tests ok "$summary"
  else
    row gpu-tests FAIL "${summary:-ctest exit $rc}; skipped: ${skipped:-none}; failed: $(sed -n '/tests FAILED/,$p' "$L/ctest-gpu.log" | grep -oE 'test_[a-z_]+' | sort -u | tr '\n' ' ')"
  fi

  # exactness, from test_cuda_engine's own counts
  grep -h -E 'runs within|block shapes:|present path:|OpenGL .* on ' "$L/ctest-gpu-full.log" >"$L/exact.txt" 2>/dev/null
  exact_bad=$(awk '/runs within/ {runs += $1; exact += $(NF - 6)} /block shapes:/ {runs += $3; exact += $5}
                   END {if (runs == 0) print "none"; else if (exact < runs) print exact " of " runs; else print ""}' "$L/exact.txt")
  counts=$(grep -E 'runs within|block shapes:' "$L/exact.txt" | tr '\n' ' ')
  if [ "$gpu" = no ]; then
    row bit-exact skip "no GPU"
  elif [ -z "$exact_bad" ]; then
    row bit-exact ok "$counts"
  else
    row bit-exact FAIL "equal bit for bit: $exact_bad; $counts"
  fi

  # interop: the test's context on the NVIDIA GPU, and the path it found
  renderer=$(grep -m1 -E '^OpenGL .* on ' "$L/exact.txt")
  path=$(grep -m1 'present path:' "$L/exact.txt" | sed 's/.*present path: //')
  if [ "$gpu" = no ]; then
    row interop skip "no GPU${path:+: $path}"
  elif [[ "$path" == interop* ]] && [[ "$renderer" == *NVIDIA* ]]; then
    row interop ok "$renderer; $path"
  else
    row interop FAIL "${renderer:-no GL context}; ${path:-no present path reported}"
  fi
fi

# ---- the window, one frame of the GPU phase ---------------------------------------------------
if can_start window; then
  timeout -k 5 "$(lim 20)" "$B/convis" --do "gpu,threads" --screenshot "$OUT/window.png" --print-state \
    >"$L/window.log" 2>&1
  rc=$?
  state() { grep -m1 "^$1=" "$L/window.log" | cut -d= -f2-; }
  note="exit $rc; $(state gpu_engine), result $(state gpu_result), path $(state gpu_present_path); $(state gpu_description)"
  if [ "$gpu" = no ]; then
    if [ $rc -eq 0 ] && [ -s "$OUT/window.png" ]; then row window skip "no GPU (a frame of the gl engine was drawn): $note"
    else row window skip "no GPU: no frame (no OpenGL here without one): $(grep -v '^[a-z_]*=' "$L/window.log" | tail -n 1)"; fi
  elif [ $rc -ne 0 ] || [ ! -s "$OUT/window.png" ]; then
    row window FAIL "$note; $(grep -v '^[a-z_]*=' "$L/window.log" | tail -n 1)"
  elif [ "$(state gpu_engine)" = cuda ] && [ "$(state gpu_presented)" = 1 ] && [ "$(state gpu_present_path)" = interop ]; then
    row window ok "window.png; $note"
  else
    row window FAIL "not presented by CUDA-GL interop: $note"
  fi
fi

# ---- the benchmark ---------------------------------------------------------------------------
if can_start benchmark; then
  if [ -x "$B/tests/bench_cuda" ]; then
    timeout -k 5 "$(lim 45)" "$B/tests/bench_cuda" --reps 15 >"$L/bench.log" 2>&1
    rc=$?
    case $rc in
      0) row benchmark ok "the table below" ;;
      77) if [ "$gpu" = no ]; then row benchmark skip "no GPU: $(tail -n 1 "$L/bench.log")"
          else row benchmark FAIL "skipped on a GPU machine: $(tail -n 1 "$L/bench.log")"; fi ;;
      124) row benchmark FAIL "ran out of its time" ;;
      *) row benchmark FAIL "exit $rc: $(tail -n 1 "$L/bench.log")" ;;
    esac
  else
    row benchmark FAIL "no bench_cuda in the build"
  fi
  # the engine's own phases, tiled and naive, on the sample image
  for k in tiled naive; do
    timeout -k 5 "$(lim 10)" "$B/convis" apply assets/sample.png -k gaussian --engine cuda --gpu-kernel "$k" --reps 30 \
      -o "$L/timing-$k.pfm" 2>&1 | grep -E 'time|engine' | sed "s/^/$k: /" >>"$L/timing.txt"
  done
  rm -f "$L"/timing-*.pfm
fi

# ---- a layer's three ways on the GPU ---------------------------------------------------------
if can_start layers; then
  note="" bad=""
  for m in fp32 tf32; do
    timeout -k 5 "$(lim 12)" "$B/convis" bench --layer edges,random:64 --engines cuda,cpu-par --sizes 256,1024 \
      --budget-ms 100 --math "$m" >"$L/layer-$m.txt" 2>"$L/layer-$m.err"
    rc=$?
    [ $rc -eq 0 ] || bad="$bad $m: exit $rc ($(tail -n 1 "$L/layer-$m.err"));"
    grep -Eq '^  cuda (direct|im2col): [0-9]+ outputs not' "$L/layer-$m.txt" && bad="$bad $m: direct or im2col not bit-equal;"
    grep -Eq '^  cuda library: .* [1-9][0-9]* past the tolerance' "$L/layer-$m.txt" && bad="$bad $m: past the tolerance;"
    grep -q '^  cuda library' "$L/layer-$m.txt" || bad="$bad $m: the library did not run;"
    note="$note $m: $(grep -c ' beats direct' "$L/layer-$m.txt") crossovers said;"
  done
  if [ "$gpu" = no ]; then row layers skip "no GPU"
  elif [ -n "$bad" ]; then row layers FAIL "$bad"
  else row layers ok "the tables below;$note"; fi
fi

# ---- the kernel lab on the GPU: the CUDA starter through NVRTC, a right kernel, GLSL --------
if can_start lab; then
  note="" bad=""
  for k in lab/tiled.cu tests/gl/lab/right.cu tests/gl/lab/right.comp; do
    timeout -k 5 "$(lim 10)" "$B/convis" lab "$ROOT/$k" --timeout 8 >"$L/lab-$(basename "$k").txt" 2>&1
    rc=$?
    case $k in
      lab/tiled.cu) [ $rc -eq 2 ] && grep -q "wrong: " "$L/lab-tiled.cu.txt" || bad="$bad the starter: exit $rc;" ;;
      *) [ $rc -eq 0 ] && grep -q "right: all" "$L/lab-$(basename "$k").txt" &&
        grep -q "reads of an interior work group: 324 " "$L/lab-$(basename "$k").txt" || bad="$bad $k: exit $rc;" ;;
    esac
    note="$note $(basename "$k"): $(grep -m1 -oE 'time of the kernel: [^;]*' "$L/lab-$(basename "$k").txt");"
  done
  if [ "$gpu" = no ]; then row lab skip "no GPU"
  elif [ -n "$bad" ]; then row lab FAIL "$bad see lab-*.txt"
  else row lab ok "the CUDA starter wrong, right kernels right with 324 reads;$note"; fi
fi

# ---- a record of this machine, for records/ -------------------------------------------------
if can_start record; then
  timeout -k 5 "$(lim 35)" "$B/convis" record "$OUT/record.json" >"$L/record.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && [ -s "$OUT/record.json" ]; then
    row record ok "record.json: $(grep '^wrote' "$L/record.log" | cut -c1-160)"
  else
    row record FAIL "exit $rc: $(tail -n 1 "$L/record.log")"
  fi
fi

# ---- compute-sanitizer ---------------------------------------------------------------------------
if [ "$built" != yes ]; then
  row sanitizer not-run "not run: the build failed"
else
  if [ "$gpu" = no ]; then
    row sanitizer skip "no GPU"
  elif ! command -v compute-sanitizer >/dev/null 2>&1; then
    row sanitizer FAIL "no compute-sanitizer on the PATH"
  else
    for run in "memcheck tiled" "memcheck naive" "racecheck tiled" "synccheck tiled"; do
      set -- $run
      if late; then
        row "san-$1" FAIL "$2: not run: less than 30 s of the budget left"
        continue
      fi
      log="$L/sanitizer-$1-$2.log"
      timeout -k 5 "$(lim 30)" compute-sanitizer --tool "$1" --error-exitcode 9 "$B/convis" apply tests/data/tiny.png \
        -k emboss --border mirror --engine cuda --gpu-kernel "$2" --reps 1 -o "$L/san.pfm" >"$log" 2>&1
      rc=$?
      verdict=$(first_line 'ERROR SUMMARY|RACECHECK SUMMARY|Device not supported|error' "$log")
      if grep -q 'Device not supported' "$log"; then
        row "san-$1" n/a "$2: this machine's runtime does not let compute-sanitizer use the GPU: $verdict"
      elif [ $rc -eq 0 ]; then
        row "san-$1" ok "$2: $verdict"
      else
        row "san-$1" FAIL "$2: exit $rc: $verdict"
      fi
    done
  fi
fi
exit 0 # finish() sets the status
