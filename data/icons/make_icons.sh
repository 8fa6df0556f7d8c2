#!/usr/bin/env bash
# make_icons.sh - makes convis's icon in each size of the hicolor theme from
# the one drawn by hand, hicolor/scalable/apps/convis.svg:
# hicolor/NxN/apps/convis.png. Run it after changing the SVG; the PNGs are
# committed, so neither the build nor the tests need it. Needs rsvg-convert
# (Debian: librsvg2-bin), which is in none of do.sh's lists for that reason.
set -eu
cd "$(dirname "$0")"
svg=hicolor/scalable/apps/convis.svg
for n in 16 22 24 32 48 64 128 256; do
  mkdir -p "hicolor/${n}x${n}/apps"
  rsvg-convert -w "$n" -h "$n" "$svg" -o "hicolor/${n}x${n}/apps/convis.png"
done
