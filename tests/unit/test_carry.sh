#!/usr/bin/env bash
# test_carry.sh SOURCE_DIR - a package the build needs is carried to the GPU
# server by tests/gpu/fetch_packages.sh or optional in CMake
# (tests/gpu/check_carry.sh): on the tree itself, with CMake configuring
# with every optional lookup off; and on copies of the tree's four lists with
# one mistake each, which must each fail with a sentence that names it.
set -u
src=${1:?usage: test_carry.sh SOURCE_DIR}
check=$src/tests/gpu/check_carry.sh
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/convis-test-carry.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if out=$(bash "$check" "$src" --configure 2>&1); then
  ok "the tree: $(echo "$out" | tail -n 1)"
else
  bad "the tree: $out"
fi

# copy: a fresh copy of the four lists (and the scripts that print them)
copy() {
  rm -rf "$tmp/t" && mkdir -p "$tmp/t/tests/gpu"
  cp "$src/do.sh" "$src/CMakeLists.txt" "$tmp/t/"
  cp "$src/tests/gpu/fetch_packages.sh" "$src/tests/gpu/build_needs.txt" "$tmp/t/tests/gpu/"
}
# mistake WHAT EXPECTED: the copy as mutated before it fails, saying EXPECTED
mistake() {
  local out
  if out=$(bash "$check" "$tmp/t" 2>&1); then
    bad "$1: passed: $out"
  elif grep -qF -- "$2" <<<"$out"; then
    ok "$1: $(grep -m1 -F -- "$2" <<<"$out")"
  else
    bad "$1: failed without saying '$2': $out"
  fi
}

copy
if bash "$check" "$tmp/t" >/dev/null 2>&1; then ok "an unchanged copy passes"; else bad "an unchanged copy fails"; fi

copy
sed -i 's/^build_packages=(build-essential /build_packages=(build-essential libfoo-dev /' "$tmp/t/do.sh"
mistake "do.sh installs a new package to build, not carried" "do.sh installs libfoo-dev to build"

copy
sed -i 's/^  libgif-dev libgif7$/  libgif7/' "$tmp/t/tests/gpu/fetch_packages.sh"
mistake "giflib's -dev package no longer carried" "do.sh installs libgif-dev to build"

copy
sed -i 's/^\(program xgettext .*gettext\) *CONVIS_NLS$/\1/' "$tmp/t/tests/gpu/build_needs.txt"
mistake "a gettext lookup without its option" "do.sh installs gettext to build"

copy
sed -i 's/CONVIS_NLS AUTO CACHE/CONVIS_LANGUAGES AUTO CACHE/' "$tmp/t/CMakeLists.txt"
mistake "the option the list names is gone from CMake" "CONVIS_NLS (for Gettext) is not an option"

copy
sed -i 's/^find_package(GLEW REQUIRED)$/find_package(GLEW REQUIRED)\nfind_package(PNG REQUIRED)/' "$tmp/t/CMakeLists.txt"
mistake "a new required find_package" "requires find_package(PNG)"

copy
sed -i 's/IMPORTED_TARGET yaml-0.1)/IMPORTED_TARGET yaml-0.1 libfoo)/' "$tmp/t/CMakeLists.txt"
mistake "a new required pkg-config module" "the pkg-config module libfoo"

copy
sed -i 's/^run_packages=(/run_packages=(fonts-foo /' "$tmp/t/do.sh"
mistake "a new package to run, neither carried nor left behind" "do.sh installs fonts-foo to run"

if dpkg-query -W libyaml-dev >/dev/null 2>&1; then
  copy
  sed -i 's|usr/include/yaml.h |usr/include/yaml-not.h |' "$tmp/t/tests/gpu/build_needs.txt"
  mistake "a file its package does not have" "/usr/include/yaml-not.h (for yaml-0.1) is not a file of libyaml-dev"
fi

[ "$fails" -eq 0 ] && echo "test_carry: all passed" && exit 0
echo "test_carry: $fails failed"
exit 1
