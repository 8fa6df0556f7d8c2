#!/usr/bin/env bash
# convis's one entry point.
#   ./do.sh run [ARGS...]   install what is missing, build, open the window (ARGS go to convis)
#   ./do.sh test            install what is missing, build, run every test (ctest, all labels)
#   ./do.sh build           install what is missing and build
#   ./do.sh packages [build|run|test|check]
#                           print the Debian packages of each kind, one a line
#                           (tests/unit/test_carry.sh reads them)
#   ./do.sh sanitize        build with AddressSanitizer and UBSan (Debug at -O1,
#                           as AddressSanitizer advises: every check stays and the
#                           convolution's inline helpers are inlined; in
#                           build-sanitize) and run the unit and fuzz tests, and
#                           the window's gl tests but the long lesson and soak runs
#   ./do.sh format          apply the code's style (.clang-format) to the C, CUDA
#                           and header files git tracks (clang-format 14 or later)
#   ./do.sh fuzz [SECONDS]  build the libFuzzer harnesses (clang, in build-fuzz)
#                           and run each for SECONDS (default 60) from a seed
#                           corpus; CONVIS_FUZZ_RUNS=N runs N inputs each with a
#                           fixed seed instead (what .ci/run does: repeatable)
#   ./do.sh compare [SIZE] [K,K,...]
#                           outside the tests: convis's CPU engines against
#                           OpenCV's filter2D (python3-opencv) on filters of K x K,
#                           in one run, as a table for the README's Performance
# Packages come from apt-get (through sudo when not root). The build goes to
# ./build, or to $CONVIS_BUILD_DIR. CONVIS_WERROR=ON makes warnings errors.
set -euo pipefail
cd "$(dirname "$0")"
build_dir=${CONVIS_BUILD_DIR:-build}

# What building needs, what running needs besides (the fonts the window draws
# its words in: Latin, and Chinese), and what the tests need besides. A package
# added to build_packages must also be carried to the GPU server by
# tests/gpu/fetch_packages.sh or be optional in CMakeLists.txt, with its line
# in tests/gpu/build_needs.txt: tests/unit/test_carry.sh fails otherwise.
build_packages=(build-essential cmake pkgconf libsdl2-dev libsdl2-ttf-dev libglew-dev libgl-dev
  libstb-dev libfontconfig-dev libyaml-dev libgif-dev gettext libfftw3-dev libopenblas-pthread-dev)
run_packages=(fonts-dejavu-core fonts-noto-cjk libopenblas0) # libopenblas0: what the .deb names for OpenBLAS (the -dev brings one of its variants, not it)
test_packages=(xvfb xauth xdotool time valgrind python3 chromium
  desktop-file-utils appstream dpkg-dev file groff-base) # test_install: the installed files and the .deb
check_packages=(clang libclang-rt-14-dev)
compare_packages=(python3-opencv python3-numpy) # ./do.sh compare only: never the build's or the tests'

install_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "do.sh: please install these packages (or their equivalents): ${missing[*]}" >&2
    exit 1
  fi
  local sudo=
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "do.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  local werror=${CONVIS_WERROR:-OFF}
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCONVIS_WERROR="$werror"
  cmake --build "$build_dir" -j "$(nproc)"
}

command=${1:-run}
[ $# -gt 0 ] && shift
case "$command" in
  run)
    install_missing "${build_packages[@]}" "${run_packages[@]}"
    build
    exec "$build_dir/convis" "$@"
    ;;
  test)
    install_missing "${build_packages[@]}" "${run_packages[@]}" "${test_packages[@]}"
    build
    # gl tests find a display themselves (tests/gl/with_display.sh): the
    # current one, or Xvfb when there is none.
    ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
    ;;
  build)
    install_missing "${build_packages[@]}"
    build
    ;;
  sanitize)
    install_missing "${build_packages[@]}" "${run_packages[@]}" "${test_packages[@]}"
    cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCONVIS_SANITIZE=ON -DCONVIS_WITH_CUDA=OFF
    cmake --build build-sanitize -j "$(nproc)"
    # leaks inside system libraries that are not convis's (tests/lsan.supp);
    # no OpenGL in these labels: the unit tests need none, and Mesa's own
    # allocations would read as leaks (SDL's dummy driver has no GL)
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
    export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp SDL_VIDEODRIVER=dummy
    ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" -L 'unit|fuzz'
    # the window under the same checks, on a display (Xvfb when there is none):
    # memory errors in its drawing and input code; leaks are not checked there,
    # since Mesa's own allocations at exit would read as leaks
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 env -u SDL_VIDEODRIVER \
      ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" \
      -R '^(test_window|test_interactive|test_gl_engine|test_gl_apply)$'
    ;;
  fuzz)
    install_missing "${build_packages[@]}" "${check_packages[@]}"
    seconds=${1:-60}
    CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCONVIS_FUZZ=ON -DCONVIS_WITH_CUDA=OFF >/dev/null
    cmake --build build-fuzz -j "$(nproc)" --target fuzz_image fuzz_image_sandbox fuzz_lesson fuzz_filter fuzz_record \
      make_seeds
    rm -rf build-fuzz/seeds build-fuzz/corpus
    build-fuzz/tests/make_seeds build-fuzz/seeds lessons
    cp tests/data/*.png tests/data/*.pgm tests/data/hostile/*.{png,pgm,ppm,bmp,tga,jpg} build-fuzz/seeds/image/
    mkdir -p build-fuzz/seeds/record # the shipped records, and the hostile ones
    cp records/*.json tests/data/hostile/record-*.json build-fuzz/seeds/record/
    for h in fuzz_image:image fuzz_image_sandbox:image fuzz_lesson:lesson fuzz_filter:filter fuzz_record:record; do
      name=${h%%:*} seeds=build-fuzz/seeds/${h#*:}
      mkdir -p "build-fuzz/corpus/$name"
      if [ -n "${CONVIS_FUZZ_RUNS:-}" ]; then
        runs=$CONVIS_FUZZ_RUNS
        [ "$name" = fuzz_image_sandbox ] && runs=$((runs / 20)) # a fork an input
        limit=(-runs="$runs" -seed=1)
      else
        limit=(-max_total_time="$seconds")
      fi
      echo "do.sh: $name ${limit[*]}"
      CONVIS_DECODE_SECONDS=5 ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=64 "build-fuzz/tests/$name" "${limit[@]}" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=512 \
        -timeout=20 -print_final_stats=1 -artifact_prefix=build-fuzz/ "build-fuzz/corpus/$name" "$seeds" \
        2>"build-fuzz/$name.log" ||
        { tail -n 40 "build-fuzz/$name.log"; exit 1; }
      grep -E ' cov: ' "build-fuzz/$name.log" | tail -n 1 | sed 's/ lim: .*//'
      grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "build-fuzz/$name.log"
    done
    ;;
  compare)
    install_missing "${build_packages[@]}" "${compare_packages[@]}"
    build
    /usr/bin/python3 tools/compare_opencv.py "$build_dir/convis" "$@"
    ;;
  format)
    install_missing clang-format
    git ls-files -z '*.c' '*.h' '*.cu' | xargs -0 clang-format -i
    ;;
  packages)
    case "${1:-build}" in
      build) printf '%s\n' "${build_packages[@]}" ;;
      run) printf '%s\n' "${run_packages[@]}" ;;
      test) printf '%s\n' "${test_packages[@]}" ;;
      check) printf '%s\n' "${check_packages[@]}" ;;
      compare) printf '%s\n' "${compare_packages[@]}" ;;
      *) echo "usage: ./do.sh packages [build|run|test|check|compare]" >&2; exit 1 ;;
    esac
    ;;
  *)
    echo "usage: ./do.sh run [convis arguments] | test | build | packages [KIND] | sanitize | fuzz [SECONDS] | compare [SIZE] [K,...] | format" >&2
    exit 1
    ;;
esac
