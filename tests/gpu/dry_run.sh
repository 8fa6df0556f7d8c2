#!/usr/bin/env bash
# dry_run.sh - runs tests/gpu/device_check.sh here as a bare GPU server would
# run it: inside a root made of only what such a server has (tests/gpu/
# fetch_packages.sh --list server, with their dependencies, and the tools the
# check calls) plus the CUDA toolkit of this machine, with this tree and its
# carried folders .gl/ and .deps/. Nothing of this machine's own SDL2, giflib,
# gettext, Mesa ... is there, so a package the build needs and the carry lacks
# fails here, in the packages and build rows, not on the server.
#
# Needs root (unshare and chroot), dpkg and the carried folders (run
# tests/gpu/fetch_packages.sh first). The root's base is made once from this
# machine's installed packages, hard-linked where it can be, in
# $DRY_RUN_BASE (default /tmp/convis-server-base); each run works on a fresh
# copy of it, so that the check unpacks the carried packages into a clean /
# as on the server. The build folder ($DRY_RUN_BUILD, default
# /tmp/convis-dry-build) is kept between runs: a second run builds only what
# changed.
#
# Usage, from anywhere: bash tests/gpu/dry_run.sh
#   OUT            where the check's four files go (default /tmp/convis-dry-run)
#   BUDGET_S       passed to the check (default its own)
# Exit status: the check's (77 without a GPU when every step that can run
# here passed), or 2 when the root could not be made.
set -eu
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=${OUT:-/tmp/convis-dry-run}
base=${DRY_RUN_BASE:-/tmp/convis-server-base}
build=${DRY_RUN_BUILD:-/tmp/convis-dry-build}
cuda=$(readlink -f /usr/local/cuda 2>/dev/null || true)
die() { echo "dry_run.sh: $*" >&2; exit 2; }

[ "$(id -u)" -eq 0 ] || die "needs root (unshare -m and chroot)"
command -v dpkg-query >/dev/null && command -v apt-cache >/dev/null || die "needs dpkg and apt-cache (Debian or Ubuntu)"
ls .deps/*.deb >/dev/null 2>&1 || die "no .deps/*.deb: run bash tests/gpu/fetch_packages.sh first"
[ -n "$cuda" ] && [ -x "$cuda/bin/nvcc" ] || die "no CUDA toolkit in /usr/local/cuda"

# The server's packages, their dependencies (every alternative that is
# installed here), and the tools the check itself calls.
mapfile -t wanted < <(bash tests/gpu/fetch_packages.sh --list server | grep -v '^cuda-toolkit$')
wanted+=(bash dash coreutils dpkg tar gzip findutils grep sed mawk util-linux procps libc-bin base-files)
installed() { dpkg-query -W -f='${binary:Package} ${Status}\n' 2>/dev/null | awk '/ install ok installed$/ {sub(/:.*/, "", $1); print $1}' | sort -u; }
mapfile -t pkgs < <(
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances "${wanted[@]}" 2>/dev/null | grep -v '^ ' | tr -d '<>' | sort -u |
    comm -12 - <(installed))
stamp=$(printf '%s\n' "${pkgs[@]}" | md5sum | cut -c1-12)

if [ ! -f "$base/.stamp-$stamp" ]; then
  echo "dry_run.sh: making the server's root in $base from ${#pkgs[@]} packages"
  rm -rf "$base"
  mkdir -p "$base"/{usr/bin,usr/sbin,usr/lib,usr/lib64,etc,tmp,proc,dev,root,var/tmp,usr/local,out,work}
  for d in bin sbin lib lib64; do [ -L "/$d" ] && ln -s "usr/$d" "$base/$d"; done
  # each package's own files, hard-linked (copied across file systems);
  # folders come through the links above on a merged-/usr system
  dpkg-query -L "${pkgs[@]}" 2>/dev/null | sort -u | while read -r f; do
    if [ ! -e "$f" ] && [ ! -L "$f" ]; then continue; fi
    if [ -d "$f" ] && [ ! -L "$f" ]; then mkdir -p "$base$f"; continue; fi
    mkdir -p "$base$(dirname "$f")"
    cp -a -l "$f" "$base$f" 2>/dev/null || cp -a "$f" "$base$f"
  done
  # what maintainer scripts made: /bin/sh, alternatives, accounts, the loader's cache
  [ -e "$base/usr/bin/sh" ] || cp -a /usr/bin/sh "$base/usr/bin/sh"
  mkdir -p "$base/etc/alternatives" && cp -an /etc/alternatives/. "$base/etc/alternatives/"
  find /usr -lname '/etc/alternatives/*' 2>/dev/null | while read -r f; do
    if [ -d "$base$(dirname "$f")" ]; then cp -an "$f" "$base$f"; fi
  done
  for f in passwd group shadow nsswitch.conf hosts ld.so.conf; do [ -e "/etc/$f" ] && cp -an "/etc/$f" "$base/etc/"; done
  mkdir -p "$base/etc/ld.so.conf.d" && cp -an /etc/ld.so.conf.d/. "$base/etc/ld.so.conf.d/"
  chmod 1777 "$base/tmp" "$base/var/tmp"
  chroot "$base" /sbin/ldconfig
  touch "$base/.stamp-$stamp"
fi

root=$(mktemp -d /tmp/convis-server-root.XXXXXX)
trap 'rm -rf "$root"' EXIT
cp -a -l "$base/." "$root/"
mkdir -p "$root$ROOT" "$root$cuda" "$root/tmp/convis-build-device" "$build" "$OUT"
ln -sfn "$cuda" "$root/usr/local/cuda"
# what the root must lack: this machine's own SDL2, giflib, gettext and Mesa
for f in usr/include/SDL2/SDL.h usr/include/gif_lib.h usr/bin/msgfmt usr/lib/x86_64-linux-gnu/dri/swrast_dri.so; do
  [ -e "$root/$f" ] && die "the server's root has /$f, which a bare server lacks: remove $base and run again"
done
echo "dry_run.sh: the check in a root of ${#pkgs[@]} packages (no SDL2, giflib, gettext or Mesa; the CUDA toolkit $cuda), this tree at $ROOT"
set +e
unshare -m --fork /bin/sh -c '
  set -e
  r=$1 tree=$2 cuda=$3 build=$4 out=$5
  mount --make-rprivate /
  mount --bind "$tree" "$r$tree"
  mount --bind "$cuda" "$r$cuda" && mount -o remount,bind,ro "$r$cuda"
  mount --bind "$build" "$r/tmp/convis-build-device"
  mount --bind "$out" "$r/out"
  mount --rbind /dev "$r/dev"
  mount -t proc proc "$r/proc"
  shift 5
  exec chroot "$r" /usr/bin/env -i HOME=/root PATH=/usr/local/cuda/bin:/usr/bin:/usr/sbin:/bin:/sbin \
    OUT=/out "$@" bash "$tree/tests/gpu/device_check.sh"
' sh "$root" "$ROOT" "$cuda" "$build" "$OUT" ${BUDGET_S:+BUDGET_S=$BUDGET_S}
status=$?
echo "dry_run.sh: the check exited $status; its files are in $OUT"
exit $status
