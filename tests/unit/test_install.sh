#!/usr/bin/env bash
# test_install.sh - convis installed like any program (cmake/install.cmake):
#
#   bash tests/unit/test_install.sh BUILD_DIR SOURCE_DIR MAKE_FORMATS CMAKE CPACK NLS
#
# NLS is ON where the build made the catalogues (CONVIS_HAVE_NLS): then the
# Chinese catalogue and manual page are installed too.
#
# From the build as it is (nothing is rebuilt), in a fresh temporary folder:
# - `cmake --install BUILD_DIR --prefix /usr` into a staging root (DESTDIR):
#   every file where cmake/install.cmake says, the icons of their sizes;
# - the installed desktop entry passes desktop-file-validate and the
#   metainfo `appstreamcli validate --no-net`, both without a remark, in
#   English and Chinese; the metainfo's release is convis's version;
# - the manual pages render without a warning and hold every option of
#   `convis --help` and of each command's --help (and a page with one
#   option taken out is caught);
# - every type the desktop entry claims convis opens is opened (a picture of
#   each made by MAKE_FORMATS), the lossless ones to the same pixels, and the
#   entry's Exec line opens the window on the file it is given;
# - the installed share/convis comes before the tree convis was built from
#   (a changed installed sample image is the one shown);
# - `cpack -G DEB`: the package's name, version (convis's own), architecture,
#   maintainer, section, dependencies (computed, fonts, no CUDA) and files
#   (those of the staging root, all under /usr);
# - the package unpacked (dpkg-deb -x) and run from there with the source
#   tree and the build folder hidden (a mount namespace: root, or a user
#   namespace) and no CONVIS_ variable: --version, engines, kernels in
#   Chinese, the window drawn offscreen on the sample image;
# - as root, where convis is not installed and none of its files is there:
#   `dpkg -i`, convis run from /usr/bin, `dpkg --purge`.
# Skipped (exit 77) only where a tool it needs is missing, naming it.
# Prints "ok - ..." or "not ok - ..." a check, then "N passed, M failed".
set -u
if [ $# -ne 6 ]; then
  echo "usage: bash $0 BUILD_DIR SOURCE_DIR MAKE_FORMATS CMAKE CPACK NLS" >&2
  exit 2
fi
BUILD=$(realpath -e -- "$1") && SRC=$(realpath -e -- "$2") && FORMATS=$(realpath -e -- "$3") || exit 2
CMAKE=$4 CPACK=$5 NLS=$6
export LC_ALL=C.UTF-8
umask 022

missing=()
need() { # PROGRAM PACKAGE
  command -v "$1" >/dev/null 2>&1 || missing+=("$1 (Debian: $2)")
}
need desktop-file-validate desktop-file-utils
need appstreamcli appstream
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev
need file file
need groff groff-base
need gzip gzip
if [ ${#missing[@]} -gt 0 ]; then
  echo "test_install: skipped: not found: ${missing[*]} (./do.sh packages test lists them)"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/convis-install.XXXXXX") || exit 2
case "$tmp/" in "$SRC"/* | "$BUILD"/*) # it must stay in sight when they are hidden
  rm -rf "$tmp"
  tmp=$(mktemp -d /tmp/convis-install.XXXXXX) || exit 2
  ;;
esac
installed_here=0
# cmake --install and cpack write BUILD/install_manifest.txt: the list of a
# real install (what removes it) is put back as it was
manifest=$BUILD/install_manifest.txt
[ -f "$manifest" ] && cp -p "$manifest" "$tmp/manifest.kept"
cleanup() {
  [ "$installed_here" = 1 ] && dpkg --purge convis >/dev/null 2>&1
  if [ -f "$tmp/manifest.kept" ]; then mv -f "$tmp/manifest.kept" "$manifest"; else rm -f "$manifest"; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() {
  echo "not ok - $1"
  shift
  local l
  for l in "$@"; do printf '#   %s\n' "$l"; done
  failed=$((failed + 1))
}
# convis as a desktop starts it: no CONVIS_ variable, no display (drawn
# offscreen), of this shell's environment nothing: a PATH, HOME and LANG of its own
clean() { env -i PATH="${EXTRA_PATH:+$EXTRA_PATH:}/usr/bin:/bin" HOME="$tmp/home" LANG=C.UTF-8 "$@"; }
mkdir -p "$tmp/home"

# ---- the staging root ---------------------------------------------------------------
stage=$tmp/stage
if ! DESTDIR=$stage "$CMAKE" --install "$BUILD" --prefix /usr >"$tmp/install.log" 2>&1; then
  bad "cmake --install $BUILD --prefix /usr (DESTDIR)" "$(tail -n 20 "$tmp/install.log")"
  echo "$passed passed, $failed failed"
  exit 1
fi
ok "cmake --install --prefix /usr into a staging root"
S=$stage/usr
desktop=$S/share/applications/convis.desktop
metainfo=$(echo "$S"/share/metainfo/*.metainfo.xml)
version=$("$S/bin/convis" --version | sed -n 's/^convis //p')
files_missing=()
for f in bin/convis share/convis/shaders/conv3x3.glsl share/convis/assets/sample.png \
  share/convis/lessons/en/01-one-at-a-time.yaml share/convis/lessons/zh/01-one-at-a-time.yaml \
  share/convis/records share/convis/lab/tiled.comp share/applications/convis.desktop share/icons/hicolor/scalable/apps/convis.svg \
  share/man/man1/convis.1.gz share/doc/convis/README.md; do
  [ -e "$S/$f" ] || files_missing+=("$f")
done
if [ "$NLS" = ON ]; then # the catalogues, and the Chinese page, where the build made them
  for f in share/locale/zh/LC_MESSAGES/convis.mo share/man/zh_CN/man1/convis.1.gz; do
    [ -e "$S/$f" ] || files_missing+=("$f")
  done
fi
[ -f "$metainfo" ] || files_missing+=("share/metainfo/ID.metainfo.xml")
if [ ${#files_missing[@]} -eq 0 ]; then ok "every file in its place under /usr"; else bad "installed files" "missing: ${files_missing[*]}"; fi
outside=$(cd "$stage" && find . -mindepth 1 -maxdepth 1 ! -name usr)
if [ -z "$outside" ]; then ok "nothing installed outside /usr"; else bad "nothing outside /usr" "$outside"; fi

# the icons: a PNG of each size of the hicolor theme, its header saying so
icon_problems=()
for n in 16 22 24 32 48 64 128 256; do
  f=$S/share/icons/hicolor/${n}x${n}/apps/convis.png
  if [ ! -f "$f" ]; then
    icon_problems+=("no ${n}x${n}")
    continue
  fi
  read -ra b < <(od -An -v -tu1 -j16 -N8 "$f")
  w=$((b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3])) h=$((b[4] << 24 | b[5] << 16 | b[6] << 8 | b[7]))
  [ "$w" = "$n" ] && [ "$h" = "$n" ] || icon_problems+=("${n}x${n}/apps/convis.png is ${w}x${h}")
done
if [ ${#icon_problems[@]} -eq 0 ]; then ok "the icon in 8 sizes and as SVG"; else bad "icons" "${icon_problems[@]}"; fi

# ---- the desktop entry and the metainfo ---------------------------------------------
out=$(desktop-file-validate "$desktop" 2>&1)
if [ $? -eq 0 ] && [ -z "$out" ]; then ok "desktop-file-validate: no remark"; else bad "desktop-file-validate" "$out"; fi
key() { sed -n "s/^$1=//p" "$desktop" | head -n 1; }
entry_problems=()
for k in Name GenericName Comment; do
  [ -n "$(key "$k")" ] || entry_problems+=("no $k")
  [ -n "$(key "$k\\[zh_CN\\]")" ] || entry_problems+=("no $k[zh_CN]")
done
[ "$(key Exec)" = "convis %f" ] || entry_problems+=("Exec is '$(key Exec)', not 'convis %f'")
[ "$(key Icon)" = convis ] || entry_problems+=("Icon is '$(key Icon)'")
[ -n "$(key MimeType)" ] || entry_problems+=("no MimeType")
if [ ${#entry_problems[@]} -eq 0 ]; then ok "the desktop entry: English and Chinese, Exec, Icon, MimeType"; else bad "the desktop entry" "${entry_problems[@]}"; fi

out=$(appstreamcli validate --no-net "$metainfo" 2>&1)
if [ $? -eq 0 ] && ! grep -qE '^[EWI]:' <<<"$out"; then ok "appstreamcli validate --no-net: no remark"; else bad "appstreamcli validate" "$out"; fi
meta_problems=()
id=$(sed -n 's:.*<id>\(.*\)</id>.*:\1:p' "$metainfo")
[ "$(basename "$metainfo")" = "$id.metainfo.xml" ] || meta_problems+=("the file $(basename "$metainfo") is not named after its id '$id'")
grep -q "<release version=\"$version\" date=\"[0-9-]*\"" "$metainfo" || meta_problems+=("no release of version '$version'")
grep -q '<launchable type="desktop-id">convis.desktop</launchable>' "$metainfo" || meta_problems+=("not launched by convis.desktop")
grep -q '<binary>convis</binary>' "$metainfo" || meta_problems+=("does not provide the binary convis")
grep -q '<summary xml:lang="zh_CN">' "$metainfo" || meta_problems+=("no Chinese summary")
grep -q '<p xml:lang="zh_CN">' "$metainfo" || meta_problems+=("no Chinese description")
if [ ${#meta_problems[@]} -eq 0 ]; then ok "the metainfo: id, release $version, launchable, binary, Chinese"; else bad "the metainfo" "${meta_problems[@]}"; fi

# ---- the manual pages ---------------------------------------------------------------
# every option a --help names (the program's and each command's), in LANG
help_options() {
  local c
  {
    "$S/bin/convis" --help --lang "$1"
    for c in apply lesson record bench handout kernels engines; do "$S/bin/convis" "$c" --help --lang "$1"; done
  } | grep -oE -- '(^|[^[:alnum:]-])--?[a-z][a-z0-9-]*' | sed -E 's/^[^-]+//' | sort -u
}
# the options of OPTIONS_FILE not in the rendered page TEXT_FILE, one a line
not_in_page() {
  local o
  while read -r o; do
    grep -qE -- "(^|[^[:alnum:]-])$o([^[:alnum:]-]|\$)" "$2" || echo "$o"
  done <"$1"
}
for page in "$S"/share/man/man1/convis.1.gz "$S"/share/man/zh_CN/man1/convis.1.gz; do
  [ -f "$page" ] || continue
  lang=en
  [[ $page == */zh_CN/* ]] && lang=zh
  gzip -dc "$page" >"$tmp/page.$lang"
  if iconv -f UTF-8 -t UTF-8 "$tmp/page.$lang" >/dev/null 2>&1; then ok "man page ($lang): UTF-8"; else bad "man page ($lang): not UTF-8" "$(iconv -f UTF-8 -t UTF-8 "$tmp/page.$lang" 2>&1 >/dev/null)"; fi
  warnings=$(groff -k -man -Tutf8 -ww -z "$tmp/page.$lang" 2>&1)
  if [ -z "$warnings" ]; then ok "man page ($lang): groff renders it without a warning"; else bad "man page ($lang): groff warns" "$warnings"; fi
  groff -k -man -Tutf8 -P-cbou "$tmp/page.$lang" 2>/dev/null >"$tmp/page.$lang.txt"
  help_options "$lang" >"$tmp/options.$lang"
  n=$(wc -l <"$tmp/options.$lang")
  absent=$(not_in_page "$tmp/options.$lang" "$tmp/page.$lang.txt")
  if [ "$n" -ge 30 ] && [ -z "$absent" ]; then
    ok "man page ($lang): each of the $n options of --help is in it"
  else
    bad "man page ($lang): options of --help ($n found)" "not in the page: $(echo $absent)"
  fi
done
# the check itself: a page with --gif-fps taken out is caught
grep -v -- '--gif-fps' "$tmp/page.en.txt" >"$tmp/page.cut.txt"
if [ "$(not_in_page "$tmp/options.en" "$tmp/page.cut.txt")" = "--gif-fps" ]; then
  ok "a page without --gif-fps is caught, and only for it"
else
  bad "a page without --gif-fps is caught" "$(not_in_page "$tmp/options.en" "$tmp/page.cut.txt")"
fi

# ---- what the desktop entry says convis opens ---------------------------------------
mkdir -p "$tmp/img" "$tmp/out"
"$FORMATS" "$tmp/img" || bad "make_formats $tmp/img"
sample_of() { # MIME: the picture of that type
  case "$1" in
    image/png) echo tiny.png ;; image/jpeg) echo tiny.jpg ;; image/bmp) echo tiny.bmp ;;
    image/x-tga) echo tiny.tga ;; image/x-portable-graymap) echo tiny.pgm ;;
    image/x-portable-pixmap) echo tiny.ppm ;; image/x-portable-anymap) echo tiny.pnm ;;
  esac
}
for f in "$tmp"/img/*; do # each picture through the installed convis, to an 8-bit PNG
  clean "$S/bin/convis" apply "$f" -k identity -o "$tmp/out/${f##*/}.png" >"$tmp/out/${f##*/}.log" 2>&1
done
IFS=';' read -ra mimes <<<"$(key MimeType)"
for m in "${mimes[@]}"; do
  [ -n "$m" ] || continue
  f=$(sample_of "$m")
  if [ -z "$f" ]; then
    bad "MimeType $m" "test_install.sh makes no picture of this type: add one (tests/unit/make_formats.c) or take it out"
  elif [ ! -s "$tmp/out/$f.png" ]; then
    bad "MimeType $m: convis apply $f" "$(cat "$tmp/out/$f.log" 2>/dev/null)"
  elif [ "$f" != tiny.jpg ] && ! cmp -s "$tmp/out/$f.png" "$tmp/out/tiny.png.png"; then
    bad "MimeType $m: $f gives other pixels than the PNG"
  else
    ok "MimeType $m: the installed convis opens $f"
  fi
done
# the entry's Exec line, as a file manager runs it: "Open with convis"
exec_line=$(key Exec)
read -ra argv <<<"${exec_line//%f/$tmp/img/tiny.bmp}"
out=$(EXTRA_PATH=$S/bin clean "${argv[@]}" --screenshot "$tmp/out/open.png" --print-state 2>&1)
if grep -qx 'image=tiny.bmp' <<<"$out" && grep -qx 'width=7' <<<"$out" && [ -s "$tmp/out/open.png" ]; then
  ok "Exec=$exec_line opens the window on the file (tiny.bmp, 7 wide)"
else
  bad "Exec=$exec_line on tiny.bmp" "$(grep -v '=' <<<"$out" | head -n 5)" "$(grep -E '^(image|width)=' <<<"$out")"
fi

# ---- the installed data before the source tree ---------------------------------------
cp -a "$stage" "$tmp/stage2"
cp "$tmp/img/tiny.png" "$tmp/stage2/usr/share/convis/assets/sample.png"
out=$(clean "$tmp/stage2/usr/bin/convis" --screenshot "$tmp/out/order.png" --print-state 2>&1)
if grep -qx 'width=7' <<<"$out"; then
  ok "an installed convis reads its own share/convis, not the tree it was built from"
else
  bad "the installed share/convis first" "the sample shown: $(grep -E '^(width|height)=' <<<"$out" | tr '\n' ' ')" \
    "$(grep -v '=' <<<"$out" | head -n 3)"
fi

# ---- the Debian package -------------------------------------------------------------
if ! "$CPACK" --config "$BUILD/CPackConfig.cmake" -G DEB -B "$tmp/cpack" >"$tmp/cpack.log" 2>&1; then
  bad "cpack -G DEB" "$(tail -n 20 "$tmp/cpack.log")"
  echo "$passed passed, $failed failed"
  exit 1
fi
debs=("$tmp"/cpack/*.deb)
deb=${debs[0]}
arch=$(dpkg --print-architecture)
if [ ${#debs[@]} -eq 1 ] && [ "$(basename "$deb")" = "convis_${version}-1_$arch.deb" ]; then
  ok "cpack -G DEB makes $(basename "$deb")"
else
  bad "cpack's package" "${debs[*]##*/}"
fi
field() { dpkg-deb -f "$deb" "$1"; }
deb_problems=()
[ "$(field Package)" = convis ] || deb_problems+=("Package: $(field Package)")
[ "$(field Version)" = "$version-1" ] || deb_problems+=("Version: $(field Version), not $version-1")
[ "$(field Architecture)" = "$arch" ] || deb_problems+=("Architecture: $(field Architecture)")
[[ $(field Maintainer) =~ ^[^\<]+\ \<[^@\>]+@[^\>]+\>$ ]] || deb_problems+=("Maintainer: '$(field Maintainer)'")
[ "$(field Section)" = education ] || deb_problems+=("Section: $(field Section)")
[ -n "$(field Description)" ] || deb_problems+=("no Description")
depends=$(field Depends)
for p in libc6 libsdl2-2.0-0 libsdl2-ttf-2.0-0 libfontconfig1 libglew2.2 libyaml-0-2 libgif7 fonts-dejavu-core; do
  [[ ",$depends," =~ [,\ ]$p[\ ,] ]] || deb_problems+=("Depends lacks $p: $depends")
done
[[ $depends == *cuda* ]] && deb_problems+=("Depends on CUDA: $depends")
for p in fonts-noto-cjk libegl1; do
  [[ ", $(field Recommends)," == *", $p,"* ]] || deb_problems+=("Recommends lacks $p: $(field Recommends)")
done
if [ ${#deb_problems[@]} -eq 0 ]; then
  ok "control: convis $version-1 $arch, maintainer, education, Depends computed with the fonts, no CUDA"
else
  bad "the package's control" "${deb_problems[@]}"
fi
dpkg-deb --contents "$deb" | sed -n 's:^-.* \./\(.*\)$:\1:p' | sort >"$tmp/deb.files"
(cd "$stage" && find . -type f | sed 's:^\./::' | sort) >"$tmp/stage.files"
if cmp -s "$tmp/deb.files" "$tmp/stage.files"; then
  ok "the package holds the staging root's $(wc -l <"$tmp/deb.files") files, under /usr"
else
  bad "the package's files against the staging root's" "$(diff "$tmp/stage.files" "$tmp/deb.files" | head -n 10)"
fi

# ---- the package, unpacked, run with the source tree and the build hidden -------------
root=$tmp/root
dpkg-deb -x "$deb" "$root"
hide=()
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
  hide=(unshare -m)
elif unshare -rm true 2>/dev/null; then
  hide=(unshare -rm)
fi
cat >"$tmp/hidden.sh" <<'EOF'
# hidden.sh SRC BUILD COMMAND...: COMMAND with SRC and BUILD under empty
# tmpfs (the deeper first, where one holds the other)
src=$1 build=$2
shift 2
if [ ${#build} -gt ${#src} ]; then dirs=("$build" "$src"); else dirs=("$src" "$build"); fi
for d in "${dirs[@]}"; do mount -t tmpfs -o size=1m,mode=0755 convis-hidden "$d" || exit 97; done
[ -e "$src/CMakeLists.txt" ] && exit 98
[ -e "$build/CMakeCache.txt" ] && exit 98
exec "$@"
EOF
run_root() { # COMMAND... in the unpacked root, hidden from the trees
  if [ ${#hide[@]} -gt 0 ]; then
    clean "${hide[@]}" bash "$tmp/hidden.sh" "$SRC" "$BUILD" "$@"
  else
    clean "$@"
  fi
}
how="the source tree and the build hidden"
[ ${#hide[@]} -gt 0 ] || how="no mount namespace here: the trees left in sight"
rc=0
out=$(run_root "$root/usr/bin/convis" --version 2>&1) || rc=$?
if [ "$rc" = 0 ] && [ "$out" = "convis $version" ]; then ok "unpacked .deb: convis --version ($how)"; else bad "unpacked .deb: --version ($how)" "exit $rc: $out"; fi
rc=0
out=$(run_root "$root/usr/bin/convis" engines 2>&1) || rc=$?
if [ "$rc" = 0 ] && grep -qE '^cpu-seq +available' <<<"$out"; then ok "unpacked .deb: convis engines"; else bad "unpacked .deb: engines" "exit $rc: $out"; fi
if [ "$NLS" = ON ]; then
  out=$(run_root "$root/usr/bin/convis" kernels --lang zh 2>&1)
  if grep -q '名称' <<<"$out"; then ok "unpacked .deb: convis kernels --lang zh speaks Chinese (its own catalogue)"; else bad "unpacked .deb: kernels in Chinese" "$out"; fi
fi
out=$(run_root "$root/usr/bin/convis" --screenshot "$tmp/out/root.png" --print-state 2>&1)
if grep -qx 'image=sample.png' <<<"$out" && grep -qx 'width=512' <<<"$out" && [ -s "$tmp/out/root.png" ]; then
  ok "unpacked .deb: the window drawn on its sample image, with its shaders"
else
  bad "unpacked .deb: the window" "$(grep -v '=' <<<"$out" | head -n 5)"
fi

# ---- dpkg -i, as root, where nothing of convis is installed --------------------------
if [ "$(id -u)" -ne 0 ]; then
  echo "# dpkg -i not tried: not root"
elif dpkg-query -W convis >/dev/null 2>&1; then
  echo "# dpkg -i not tried: a package convis is installed already"
elif taken=$(sed 's:^:/:' "$tmp/deb.files" | while read -r f; do [ -e "$f" ] && echo "$f"; done) && [ -n "$taken" ]; then
  echo "# dpkg -i not tried: its files are there already ($(head -n 1 <<<"$taken") ...)"
elif ! out=$(dpkg -i "$deb" 2>&1); then
  if grep -q 'lock.*locked\|is locked' <<<"$out"; then # apt or dpkg at work on this machine: not convis's fault
    echo "# dpkg -i not tried: $(grep -m1 'lock' <<<"$out")"
  else
    installed_here=1
    bad "dpkg -i $(basename "$deb")" "$(tail -n 8 <<<"$out")"
  fi
else
  installed_here=1
  out=$(clean convis --version 2>&1)
  if [ "$out" = "convis $version" ] && clean convis engines >/dev/null 2>&1; then
    ok "dpkg -i: /usr/bin/convis --version and engines"
  else
    bad "dpkg -i: convis from /usr/bin" "$out"
  fi
  if dpkg --purge convis >/dev/null 2>&1 && [ ! -e /usr/bin/convis ] && [ ! -e /usr/share/convis ]; then
    installed_here=0
    ok "dpkg --purge convis leaves nothing"
  else
    bad "dpkg --purge convis" "$(ls -d /usr/bin/convis /usr/share/convis 2>&1)"
  fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
