#!/usr/bin/env bash
# convis's one entry point.
#   ./do.sh run [ARGS...]   install what is missing, build, open the window (ARGS go to convis)
#   ./do.sh test            install what is missing, build, run every test (ctest, all labels)
#   ./do.sh build           install what is missing and build
# Packages come from apt-get (through sudo when not root). The build goes to
# ./build, or to $CONVIS_BUILD_DIR. CONVIS_WERROR=ON makes warnings errors.
set -euo pipefail
cd "$(dirname "$0")"
build_dir=${CONVIS_BUILD_DIR:-build}

# What building and running need, and what the tests need besides.
build_packages=(build-essential cmake pkg-config libsdl2-dev libsdl2-ttf-dev libglew-dev libgl-dev
  libstb-dev libfontconfig-dev fonts-dejavu-core fonts-noto-cjk libyaml-dev)
test_packages=(xvfb xauth xdotool)

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
    install_missing "${build_packages[@]}"
    build
    exec "$build_dir/convis" "$@"
    ;;
  test)
    install_missing "${build_packages[@]}" "${test_packages[@]}"
    build
    # gl tests find a display themselves (tests/gl/with_display.sh): the
    # current one, or Xvfb when there is none.
    ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
    ;;
  build)
    install_missing "${build_packages[@]}"
    build
    ;;
  *)
    echo "usage: ./do.sh run [convis arguments] | test | build" >&2
    exit 1
    ;;
esac
