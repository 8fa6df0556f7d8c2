#!/usr/bin/env bash
# fetch_packages.sh - downloads, once, on a Debian 12 machine (the package
# names are Debian 12's), the amd64 .deb files that tests/gpu/device_check.sh
# unpacks on a bare headless x86-64 GPU server that lacks them:
#   .gl/    the GL loaders (glvnd: libEGL, libGL, libOpenGL ...), which the
#           NVIDIA driver's EGL and GLX vendor libraries plug into;
#   .deps/  what building and running convis needs beyond nvcc, gcc and
#           cmake: pkg-config, SDL2 and SDL2_ttf with the -dev packages their
#           .pc files require, fontconfig, GLEW, libyaml, stb, giflib,
#           libSDL2's runtime closure, and a font.
# Both folders are git-ignored; carry them beside the tree (about 25 MB).
# Not carried: gettext (msgfmt and xgettext need libicu72, libxml2 and
# libunistring2, some 12 MB that a server of another base may not match):
# CMake's CONVIS_NLS leaves the catalogues out where it is missing, and the
# device check runs in English.
# Usage, from the repository root:
#   bash tests/gpu/fetch_packages.sh          download into .gl/ and .deps/
#   bash tests/gpu/fetch_packages.sh --list KIND
#       print, one a line, the packages of KIND, downloading nothing:
#       gl, deps (both carried), server (what a bare GPU server has already)
#       or left (what ./do.sh installs that is not carried, with the reason)
set -euo pipefail
cd "$(dirname "$0")/../.."

gl=(libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
deps=(
  pkgconf pkgconf-bin libpkgconf3
  libsdl2-dev libsdl2-ttf-dev libfontconfig-dev libfreetype-dev libharfbuzz-dev libglib2.0-dev
  libgraphite2-dev libpcre2-dev libpng-dev libbrotli-dev zlib1g-dev libexpat1-dev libyaml-dev
  libgif-dev libgif7
  libglew-dev libstb-dev libgl-dev libglx-dev libopengl-dev libglu1-mesa-dev libegl-dev libgles-dev
  libsdl2-2.0-0 libsdl2-ttf-2.0-0 libglew2.2 libyaml-0-2 libfontconfig1 libfreetype6 libharfbuzz0b
  libgraphite2-3 libglib2.0-0 libpcre2-8-0 libpng16-16 libbrotli1 libexpat1 zlib1g libstb0
  libasound2 libasound2-data libpulse0 libasyncns0 libdbus-1-3 libsndfile1 libflac12 libmp3lame0
  libmpg123-0 libogg0 libopus0 libvorbis0a libvorbisenc2 libsamplerate0 libsystemd0 libcap2
  libgcrypt20 libgpg-error0 liblz4-1 liblzma5 libzstd1 libffi8 libbsd0 libmd0
  libx11-6 libx11-data libx11-xcb1 libxau6 libxcb1 libxdmcp6 libxext6 libxcursor1 libxfixes3
  libxi6 libxrandr2 libxrender1 libxss1 libxkbcommon0 libdrm2 libdrm-common libgbm1
  libwayland-client0 libwayland-cursor0 libwayland-egl1 libwayland-server0 libdecor-0-0
  fonts-dejavu-core fontconfig-config
)

# What a bare GPU server has: the compiler, make, cmake and the CUDA toolkit (with the
# NVIDIA driver), as tests/gpu/README.md says.
server=(build-essential libc6-dev cmake cuda-toolkit)
# What ./do.sh installs and is not carried, "package: why".
left=(
  "gettext: optional (CMake's CONVIS_NLS): the catalogues, msgfmt and xgettext; the check runs in English"
  "libfftw3-dev: optional (CMake's CONVIS_FFTW): the convolution through the FFT of apply --fft and bench --fft, on the CPU; the device check runs without it"
  "libopenblas-pthread-dev: optional (CMake's CONVIS_BLAS): a layer's library GEMM on the CPU (OpenBLAS); the device check runs without it"
  "libopenblas0: what the .deb names for OpenBLAS at run time; the device check builds without OpenBLAS and installs no .deb"
  "fonts-noto-cjk: the Chinese glyphs, a 57 MB download; only a window in Chinese needs them"
)

if [ "${1:-}" = --list ]; then
  case "${2:-}" in
    gl) printf '%s\n' "${gl[@]}" ;;
    deps) printf '%s\n' "${deps[@]}" ;;
    server) printf '%s\n' "${server[@]}" ;;
    left) printf '%s\n' "${left[@]}" ;;
    *) echo "usage: fetch_packages.sh [--list gl|deps|server|left]" >&2; exit 2 ;;
  esac
  exit 0
fi

# A list of the packages' indexes of its own, so the machine's apt state is
# left as it was; amd64 packages whatever this machine's architecture.
lists=$(mktemp -d)
trap 'rm -rf "$lists"' EXIT
mkdir -p "$lists/partial" .gl .deps
apt_opts=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 "-oDir::State::Lists=$lists")
apt-get "${apt_opts[@]}" update -qq
(cd .gl && apt-get "${apt_opts[@]}" download "${gl[@]}")
(cd .deps && apt-get "${apt_opts[@]}" download "${deps[@]}")
echo "fetch_packages.sh: .gl/ $(du -sh .gl | cut -f1), .deps/ $(du -sh .deps | cut -f1)"
