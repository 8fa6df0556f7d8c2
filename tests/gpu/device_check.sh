#!/usr/bin/env bash
# device_check.sh - the one check to run on a machine with a CUDA GPU
# (DESIGN.md section 6). Finishes well inside five minutes:
#
#   1. what the machine has: the GPU, the driver, nvcc, cmake;
#   2. unpacks carried libraries, if any: .gl/*.deb (the GL loaders, as the
#      device machine's notes say) into /, and .deps/*.deb (build and display
#      packages the machine lacks) into / without replacing any file there;
#   3. builds convis for this GPU only (its compute capability, or "native"),
#      with warnings as errors, nvcc too;
#   4. starts a virtual display (Xvfb, GLX through NVIDIA's vendor library:
#      __GLX_VENDOR_LIBRARY_NAME=nvidia), so the interop test and the window
#      have an OpenGL context on the GPU;
#   5. runs the `gpu` tests (ctest -L gpu);
#   6. runs the window for a few frames with the GPU phase and the thread view
#      and saves a screenshot ($OUT/window.png);
#   7. runs the GPU benchmark (bench_cuda: the tiled kernel's bandwidth against
#      a copy kernel's, naive against tiled, the interop tax, the per-pixel
#      trap);
#   8. prints one summary table (also in $OUT/summary.txt).
#
# A step that fails says why and the script goes on with what it can; the
# exit status is 0 only when no step failed.
#
# Usage, from the repository root:   bash tests/gpu/device_check.sh
#   OUT        where logs, the screenshot and the summary go (default
#              /tmp/convis-device-check)
#   BUILD_DIR  the build folder (default /tmp/convis-build-device)
#
# On a bare machine that lacks the build packages (SDL2, SDL2_ttf, fontconfig,
# GLEW, stb, pkg-config) or Xvfb, carry them as .deb files in .deps/,
# downloaded once on a Debian or Ubuntu machine of the same architecture:
#   mkdir -p .deps && (cd .deps && apt-get download libsdl2-dev libsdl2-2.0-0 \
#     libsdl2-ttf-dev libsdl2-ttf-2.0-0 libfontconfig-dev libfreetype-dev libglew-dev \
#     libglew2.2 libstb-dev libstb0 pkgconf xvfb xkb-data x11-xkb-utils xauth ...)
# and the GL loaders in .gl/ as the device machine's notes describe.
set -u

cd "$(dirname "$0")/../.." || { echo "device_check.sh: cannot find the repository root" >&2; exit 2; }
ROOT=$PWD
OUT=${OUT:-/tmp/convis-device-check}
BUILD_DIR=${BUILD_DIR:-/tmp/convis-build-device}
mkdir -p "$OUT" || { echo "device_check.sh: cannot create $OUT" >&2; exit 2; }
T0=$(date +%s)
XVFB_PID=

names=() states=() notes=()
step() { # NAME STATE NOTE
  names+=("$1")
  states+=("$2")
  notes+=("$3")
  printf '== %-12s %-7s %s\n' "$1" "$2" "$3"
}
elapsed() { echo $(($(date +%s) - T0)); }
last_line() { grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n 1 | cut -c1-150; }
cleanup() { [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null; }
trap cleanup EXIT

# ---- 1. the machine -----------------------------------------------------------------
gpu_name=$(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null | head -n 1)
if [ -n "$gpu_name" ]; then
  step machine ok "$gpu_name; nvcc $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' | cut -d' ' -f2); cmake $(cmake --version 2>/dev/null | head -n 1 | grep -o '[0-9][0-9.]*')"
else
  step machine FAIL "nvidia-smi names no GPU: the gpu tests will skip"
fi
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
case "$cap" in
  [0-9][0-9] | [0-9][0-9][0-9]) ARCH="${cap}-real" ;;
  *) ARCH=native ;;
esac

# ---- 2. carried libraries --------------------------------------------------------------
shopt -s nullglob
gl_debs=(.gl/*.deb)
if [ ${#gl_debs[@]} -gt 0 ]; then
  for f in "${gl_debs[@]}"; do dpkg -x "$f" / 2>>"$OUT/unpack.log"; done
  ldconfig 2>>"$OUT/unpack.log"
  step gl-libs ok "${#gl_debs[@]} .deb from .gl/ unpacked into /"
else
  step gl-libs none "no .gl/ folder: using the system's GL libraries"
fi
dep_debs=(.deps/*.deb)
if [ ${#dep_debs[@]} -gt 0 ]; then
  stage=$(mktemp -d)
  for f in "${dep_debs[@]}"; do dpkg -x "$f" "$stage" 2>>"$OUT/unpack.log"; done
  cp -rn "$stage"/. / 2>>"$OUT/unpack.log" # never replaces a file the machine has
  rm -rf "$stage"
  ldconfig 2>>"$OUT/unpack.log"
  step deps ok "${#dep_debs[@]} .deb from .deps/ added (no file replaced)"
fi
shopt -u nullglob

# ---- 3. build ------------------------------------------------------------------------------
built=no
if timeout 60 cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DCONVIS_WERROR=ON \
  -DCONVIS_CUDA_ARCHITECTURES="$ARCH" >"$OUT/configure.log" 2>&1; then
  if ! grep -q 'CUDA engine ON' "$OUT/configure.log"; then
    step build FAIL "cmake found no CUDA compiler: $(grep 'CUDA engine' "$OUT/configure.log")"
  elif timeout 240 cmake --build "$BUILD_DIR" -j"$(nproc)" >"$OUT/build.log" 2>&1; then
    built=yes
    step build ok "architectures $ARCH, warnings as errors, at ${SECONDS}s"
  else
    step build FAIL "see build.log: $(grep -m1 -E 'error|Error' "$OUT/build.log" | cut -c1-140)"
  fi
else
  missing=$(grep -oE "No package '[^']+' found|Could NOT find [A-Za-z0-9_]+" "$OUT/configure.log" | sort -u | tr '\n' ';')
  first=$(grep -m1 -A1 'CMake Error' "$OUT/configure.log" | tail -n 1 | sed 's/^ *//' | cut -c1-110)
  step build FAIL "cmake configure failed (see configure.log): ${missing:-$first}"
fi

# ---- 4. display -------------------------------------------------------------------------------
if command -v Xvfb >/dev/null 2>&1; then
  display=:97
  Xvfb "$display" -screen 0 1920x1080x24 +extension GLX -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
  XVFB_PID=$!
  for _ in $(seq 50); do
    [ -S /tmp/.X11-unix/X${display#:} ] && break
    kill -0 "$XVFB_PID" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$XVFB_PID" 2>/dev/null && [ -S /tmp/.X11-unix/X${display#:} ]; then
    export DISPLAY=$display __GLX_VENDOR_LIBRARY_NAME=nvidia
    step display ok "Xvfb $display, __GLX_VENDOR_LIBRARY_NAME=nvidia (the engines row names the GL renderer)"
  else
    XVFB_PID=
    step display FAIL "Xvfb did not start: $(last_line "$OUT/xvfb.log")"
  fi
else
  step display FAIL "no Xvfb here (carry it in .deps/): the interop test and the window will be skipped"
fi

# ---- engines ----------------------------------------------------------------------------------
if [ "$built" = yes ]; then
  timeout 60 "$BUILD_DIR/convis" engines >"$OUT/engines.txt" 2>&1
  cuda_line=$(grep '^cuda ' "$OUT/engines.txt" | tr -s ' ' | cut -c1-110)
  gl_line=$(grep '^gl ' "$OUT/engines.txt" | tr -s ' ' | cut -c1-110)
  if grep -Eq '^cuda +available' "$OUT/engines.txt"; then
    step engines ok "$cuda_line | $gl_line"
  else
    step engines FAIL "$cuda_line | $gl_line"
  fi
fi

# ---- 5. gpu tests -----------------------------------------------------------------------------
if [ "$built" = yes ]; then
  timeout 200 ctest --test-dir "$BUILD_DIR" -L gpu --output-on-failure --timeout 150 >"$OUT/ctest-gpu.log" 2>&1
  rc=$?
  summary=$(grep -E 'tests passed' "$OUT/ctest-gpu.log" | tail -n 1)
  skipped_tests=$(grep -E 'Skipped' "$OUT/ctest-gpu.log" | grep -oE 'test_[a-z_]+' | sort -u | tr '\n' ' ')
  skipped=$(echo "$skipped_tests" | wc -w)
  failed_tests=$(sed -n '/The following tests FAILED/,$p' "$OUT/ctest-gpu.log" | grep -oE 'test_[a-z_]+' | sort -u | tr '\n' ' ')
  if [ $rc -eq 0 ] && [ "$skipped" -eq 0 ]; then
    step gpu-tests ok "$summary"
  elif [ $rc -eq 0 ]; then
    step gpu-tests partial "$summary; $skipped skipped: $skipped_tests"
  else
    step gpu-tests FAIL "${summary:-ctest exit $rc}; failed: $failed_tests(see ctest-gpu.log)"
  fi
  # which present path the interop test found, from the full test log
  path_line=$(grep -m1 'present path:' "$BUILD_DIR/Testing/Temporary/LastTest.log" 2>/dev/null |
    sed 's/.*present path: //' | cut -c1-140)
  if [ -n "$path_line" ]; then
    case "$path_line" in
      interop*) step interop ok "$path_line" ;;
      *) step interop copy "$path_line" ;;
    esac
  fi
else
  step gpu-tests skip "no build"
fi

# ---- 6. the window ----------------------------------------------------------------------------
if [ "$built" = yes ] && [ -n "${DISPLAY:-}" ]; then
  rm -f "$OUT/window.png"
  timeout 90 "$BUILD_DIR/convis" --do "gpu,threads" --screenshot "$OUT/window.png" --print-state \
    >"$OUT/window.log" 2>&1
  rc=$?
  gpu_desc=$(grep -m1 '^gpu_description=' "$OUT/window.log" | cut -d= -f2- | cut -c1-100)
  if [ $rc -eq 0 ] && [ -s "$OUT/window.png" ]; then
    step window ok "window.png; GPU phase on: ${gpu_desc:-?}"
  else
    step window FAIL "exit $rc: $(last_line "$OUT/window.log")"
  fi
else
  step window skip "$([ "$built" = yes ] && echo 'no display' || echo 'no build')"
fi

# ---- 7. benchmark -----------------------------------------------------------------------------
if [ "$built" = yes ] && [ -x "$BUILD_DIR/tests/bench_cuda" ]; then
  timeout 150 "$BUILD_DIR/tests/bench_cuda" >"$OUT/bench.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    step benchmark ok "the table below"
  elif [ $rc -eq 77 ]; then
    step benchmark skip "$(last_line "$OUT/bench.log")"
  else
    step benchmark FAIL "exit $rc: $(last_line "$OUT/bench.log")"
  fi
else
  step benchmark skip "no build"
fi

# ---- 8. summary -------------------------------------------------------------------------------
{
  echo
  echo "convis device check, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $(elapsed) s"
  printf '%-12s %-7s %s\n' STEP RESULT NOTE
  for i in "${!names[@]}"; do
    printf '%-12s %-7s %s\n' "${names[$i]}" "${states[$i]}" "${notes[$i]}"
  done
  if [ -s "$OUT/bench.log" ]; then
    echo
    sed -n '/^bench_cuda on/,$p' "$OUT/bench.log"
  fi
} | tee "$OUT/summary.txt"

for s in "${states[@]}"; do
  [ "$s" = FAIL ] && exit 1
done
exit 0
