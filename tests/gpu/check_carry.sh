#!/usr/bin/env bash
# check_carry.sh ROOT [--configure] - whether a bare GPU server can build the
# tree at ROOT from what tests/gpu/fetch_packages.sh carries.
#
# Four lists must agree:
#   ROOT/do.sh packages build|run       what building and running need
#   ROOT/tests/gpu/fetch_packages.sh    what is carried (--list gl, deps), what
#                                       a bare server has (server), and what is
#                                       left behind, with why (left)
#   ROOT/tests/gpu/build_needs.txt      each lookup of the build, the package
#                                       that provides it, and the CMake option
#                                       that makes it optional, if one does
#   ROOT/CMakeLists.txt                 the lookups themselves
# Every package do.sh installs to build is carried, on the server already, or
# optional in CMake (each of its lookups has an option that CMakeLists.txt
# defines, and it is listed as left behind); every package to run is carried or
# left behind; every required lookup of CMakeLists.txt has its line in
# build_needs.txt; where dpkg knows a package, the file its line names is one
# of the package's own. With --configure, CMake also configures ROOT with
# every such option OFF (and without CUDA), in a scratch folder: the options
# make what they name optional. Prints one sentence a problem; exit 1 if any.
set -u
root=${1:?usage: check_carry.sh ROOT [--configure]}
configure=${2:-}
problems=0
bad() { echo "check_carry: $*"; problems=$((problems + 1)); }
has() { local x=$1 y; shift; for y; do [ "$x" = "$y" ] && return 0; done; return 1; }

lists() { bash "$root/tests/gpu/fetch_packages.sh" --list "$1"; }
mapfile -t build < <(bash "$root/do.sh" packages build)
mapfile -t run < <(bash "$root/do.sh" packages run)
mapfile -t carried < <(lists gl; lists deps)
mapfile -t server < <(lists server)
mapfile -t left < <(lists left | sed 's/:.*//')
[ ${#build[@]} -gt 0 ] || bad "do.sh packages build printed nothing"
[ ${#carried[@]} -gt 0 ] || bad "fetch_packages.sh --list deps printed nothing"

# build_needs.txt: KIND NAME FILE PACKAGE [OPTION]
kinds=() names=() files=() pkgs=() opts=()
while read -r kind name file pkg opt extra; do
  case "$kind" in '' | '#'*) continue ;; esac
  if [ -z "$pkg" ] || [ -n "${extra:-}" ]; then
    bad "build_needs.txt: '$kind $name $file $pkg $opt $extra' is not KIND NAME FILE PACKAGE [OPTION]"
    continue
  fi
  case "$kind" in pc | cmake | path | program) ;; *) bad "build_needs.txt: unknown kind '$kind' for $name" ;; esac
  kinds+=("$kind") names+=("$name") files+=("$file") pkgs+=("$pkg") opts+=("${opt:-}")
done <"$root/tests/gpu/build_needs.txt"

option_defined() { # OPTION: an option() or a cache variable of CMakeLists.txt
  grep -Eq "^[[:space:]]*(option\($1[[:space:]]|set\($1[[:space:]]+[A-Za-z\"]+[[:space:]]+CACHE)" "$root/CMakeLists.txt"
}

# every package do.sh installs to build
for p in "${build[@]}"; do
  has "$p" "${carried[@]}" && continue
  has "$p" "${server[@]}" && continue
  lines=0 without=0
  for i in "${!pkgs[@]}"; do
    [ "${pkgs[$i]}" = "$p" ] || continue
    lines=$((lines + 1))
    [ -z "${opts[$i]}" ] && without=$((without + 1))
  done
  if [ "$lines" -eq 0 ] || [ "$without" -gt 0 ]; then
    bad "do.sh installs $p to build, but tests/gpu/fetch_packages.sh does not carry it, a bare server lacks it, and no CMake option makes it optional (tests/gpu/build_needs.txt)"
  elif ! has "$p" "${left[@]}"; then
    bad "$p is optional but not carried: fetch_packages.sh's list of what is left behind must say so and why"
  fi
done
for p in "${run[@]}"; do
  has "$p" "${carried[@]}" || has "$p" "${left[@]}" ||
    bad "do.sh installs $p to run convis, but tests/gpu/fetch_packages.sh neither carries it nor says why it is left behind"
done

# every line of build_needs.txt
for i in "${!pkgs[@]}"; do
  p=${pkgs[$i]} o=${opts[$i]}
  if [ -n "$o" ]; then
    option_defined "$o" || bad "build_needs.txt: $o (for ${names[$i]}) is not an option of CMakeLists.txt"
  elif ! has "$p" "${carried[@]}" && ! has "$p" "${server[@]}"; then
    bad "the build requires ${kinds[$i]} ${names[$i]} from $p, which tests/gpu/fetch_packages.sh does not carry"
  fi
  if ! has "$p" "${build[@]}" && ! has "$p" "${server[@]}" && ! has "$p" "${carried[@]}"; then
    bad "build_needs.txt: $p (for ${names[$i]}) is neither installed by do.sh nor carried nor on the server"
  fi
  if ! has "$p" "${server[@]}" && dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" &&
    ! dpkg-query -L "$p" 2>/dev/null | grep -Fqx "/${files[$i]}"; then
    bad "build_needs.txt: /${files[$i]} (for ${names[$i]}) is not a file of $p"
  fi
done

# every required lookup of CMakeLists.txt has its line
needs_line() { # KIND NAME
  for i in "${!kinds[@]}"; do [ "${kinds[$i]}" = "$1" ] && [ "${names[$i]}" = "$2" ] && return 0; done
  return 1
}
code=$(sed 's/#.*//' "$root/CMakeLists.txt")
while read -r name; do
  needs_line cmake "$name" || bad "CMakeLists.txt requires find_package($name), which has no line in tests/gpu/build_needs.txt"
done < <(grep -oE 'find_package\([A-Za-z0-9_]+[^)]*REQUIRED' <<<"$code" | sed -E 's/find_package\(([A-Za-z0-9_]+).*/\1/')
while read -r mods; do
  for m in $mods; do
    needs_line pc "$m" || bad "CMakeLists.txt requires the pkg-config module $m, which has no line in tests/gpu/build_needs.txt"
  done
done < <(grep -oE 'pkg_check_modules\([A-Za-z0-9_]+ +REQUIRED[^)]*\)' <<<"$code" |
  sed -E 's/pkg_check_modules\([A-Za-z0-9_]+ +REQUIRED( +IMPORTED_TARGET)?//; s/\)$//')
while read -r name; do
  needs_line path "$name" || bad "CMakeLists.txt requires find_path(... $name), which has no line in tests/gpu/build_needs.txt"
done < <(grep -oE 'find_path\([A-Za-z0-9_]+ +[^ )]+[^)]*REQUIRED' <<<"$code" | awk '{print $2}')
while read -r name; do
  needs_line program "$name" || bad "CMakeLists.txt requires find_program(... $name), which has no line in tests/gpu/build_needs.txt"
done < <(grep -oE 'find_program\([A-Za-z0-9_]+ +[^ )]+[^)]*REQUIRED' <<<"$code" | awk '{print $2}')

# the options really make their lookups optional
if [ "$configure" = --configure ] && [ "$problems" -eq 0 ]; then
  off=()
  for o in $(printf '%s\n' "${opts[@]}" | grep -v '^$' | sort -u); do off+=("-D$o=OFF"); done
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/convis-carry.XXXXXX")
  if cmake -S "$root" -B "$scratch" -DCONVIS_WITH_CUDA=OFF "${off[@]}" >"$scratch.log" 2>&1; then
    echo "check_carry: CMake configures with ${off[*]}: $(grep -m1 'catalogues OFF' "$scratch.log" | cut -c1-90)"
  else
    bad "CMake does not configure with ${off[*]}: $(grep -m2 -E 'Error|error' "$scratch.log" | tr '\n' ' ')"
  fi
  rm -rf "$scratch" "$scratch.log"
fi

if [ "$problems" -eq 0 ]; then
  echo "check_carry: ${#build[@]} packages to build, ${#run[@]} to run, ${#kinds[@]} lookups: each carried (${#carried[@]} packages), on the server or optional"
  exit 0
fi
exit 1
