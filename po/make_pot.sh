#!/usr/bin/env bash
# Collects every string convis shows into a template for translators:
# _(), N_(), C_() and NC_() (with a context), ngettext, the view's vw_T and words, and the formats of
# err_set, err_set_kind, app_error and the lesson parser's lsn_fail_at (which
# look themselves up).
# Usage: po/make_pot.sh OUT.pot [VERSION]   (from anywhere; reads src/)
set -eu
out=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
version=${2:-0}
cd "$(dirname "$0")/.."
mapfile -t sources < <(find src -name '*.c' | LC_ALL=C sort)
exec xgettext --from-code=UTF-8 --language=C \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 --keyword=ngettext:1,2 --keyword=vw_T:2 --keyword=words:2 \
  --keyword=err_set:1 --flag=err_set:1:c-format \
  --keyword=err_set_kind:2 --flag=err_set_kind:2:c-format \
  --keyword=app_error:1 --flag=app_error:1:c-format \
  --keyword=lsn_fail_at:4 --flag=lsn_fail_at:4:c-format \
  --add-comments=TRANSLATORS --package-name=convis --package-version="$version" \
  -o "$out" "${sources[@]}"
