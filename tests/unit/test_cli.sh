#!/usr/bin/env bash
# test_cli.sh - black-box tests of the convis command line: exit statuses,
# one-line error messages, files left alone, and the bytes `convis apply`
# writes.
#
#   bash tests/unit/test_cli.sh PATH_TO_CONVIS PATH_TO_tests/data
#
# Needs only bash (4 or later), coreutils, setpriv (util-linux, only when run
# as root) and the convis binary: no grep, sed, awk, find, cmp or python.
# Prints one line per check ("ok - ..." / "not ok - ...", with what was
# observed under a failed one as "#" lines), then "N passed, M failed".
# Exits 0 only when every check passed. Scratch files live in a fresh
# `mktemp -d` directory, removed on exit.
set -u
shopt -s nullglob globstar dotglob

if [ $# -ne 2 ]; then
    echo "usage: bash $0 PATH_TO_CONVIS PATH_TO_tests/data" >&2
    exit 2
fi
CONVIS=$(realpath -e -- "$1") || { echo "test_cli.sh: no convis binary at '$1'" >&2; exit 2; }
DATA=$(realpath -e -- "$2") || { echo "test_cli.sh: no test data directory at '$2'" >&2; exit 2; }
[ -x "$CONVIS" ] || { echo "test_cli.sh: '$CONVIS' is not executable" >&2; exit 2; }

export LC_ALL=C
umask 022

S=$(mktemp -d "${TMPDIR:-/tmp}/convis-cli.XXXXXX") || { echo "test_cli.sh: mktemp -d failed" >&2; exit 2; }
cleanup() {
    chmod -R u+rwX "$S" 2>/dev/null
    rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

IN=$S/in   # copies of the fixtures: the inputs, and the working directory of every run
OUT=$S/out # where outputs go
mkdir -p "$IN" "$OUT" "$S/adir"
for f in empty.png text.png truncated.png huge_header.png ramp.pgm tiny.png grad16.png grad16.pgm; do
    cp -- "$DATA/$f" "$IN/$f" || { echo "test_cli.sh: missing fixture $DATA/$f" >&2; exit 2; }
done

# A wider grey image made here (37x11 P5), so the parallel, vectorised engine
# runs full vector widths and several row bands, not only its edge cases.
make_wide_pgm() {
    local w=37 h=11 x y v esc s=''
    for ((y = 0; y < h; ++y)); do
        for ((x = 0; x < w; ++x)); do
            v=$(((x * x * 7 + y * 31 + x * y * 13) % 256))
            printf -v esc '\\%03o' "$v"
            s+=$esc
        done
    done
    # shellcheck disable=SC2059 # $s is a string of octal escapes on purpose
    { printf 'P5\n%d %d\n255\n' "$w" "$h"; printf "$s"; } >"$1"
}
make_wide_pgm "$IN/wide.pgm"

# A colour image made here: 3x2 P6, pixel (x, y) = (10 + x, 20 + y, 30 + x + y):
# no two channels alike.
make_colour_ppm() {
    local x y esc s=''
    for ((y = 0; y < 2; ++y)); do
        for ((x = 0; x < 3; ++x)); do
            printf -v esc '\\%03o\\%03o\\%03o' $((10 + x)) $((20 + y)) $((30 + x + y))
            s+=$esc
        done
    done
    # shellcheck disable=SC2059 # $s is a string of octal escapes on purpose
    { printf 'P6\n3 2\n255\n'; printf "$s"; } >"$1"
}
make_colour_ppm "$IN/colour.ppm"

# ---- reporting ------------------------------------------------------------------

PASS=0
FAIL=0
PROBLEMS=()
RC=0

pass() {
    PASS=$((PASS + 1))
    echo "ok - $1"
}
fail() {
    local line
    FAIL=$((FAIL + 1))
    echo "not ok - $1"
    shift
    for line in "$@"; do
        printf '#   %s\n' "$line"
    done
}
# show NAME FILE: up to 8 lines of FILE as "NAME| line", for diagnostics.
show() {
    local name=$1 file=$2 line n=0
    if [ ! -s "$file" ]; then
        echo "$name: (empty)"
        return
    fi
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        if [ "$n" -gt 8 ]; then
            echo "$name| ..."
            break
        fi
        echo "$name| ${line:0:300}"
    done <"$file"
}
# verdict DESC: passes DESC when PROBLEMS is empty, else fails it, listing
# the problems and the last run's exit status, stderr and stdout.
verdict() {
    local desc=$1 diag=()
    if [ ${#PROBLEMS[@]} -eq 0 ]; then
        pass "$desc"
    else
        mapfile -t diag < <(
            echo "observed exit status: $RC"
            show stderr "$S/stderr"
            show stdout "$S/stdout"
        )
        fail "$desc" "${PROBLEMS[@]}" "${diag[@]}"
    fi
}
# check DESC COMMAND...: passes DESC when COMMAND succeeds.
check() {
    local desc=$1
    shift
    if "$@"; then pass "$desc"; else fail "$desc" "this failed: $*"; fi
}

# ---- helpers (bash and coreutils only) ---------------------------------------------

hash_of() {
    local h
    if [ -d "$1" ]; then
        echo "directory"
    elif [ -e "$1" ]; then
        h=$(sha256sum -- "$1" 2>/dev/null)
        h=${h%% *}
        echo "${h:-unreadable}"
    else
        echo "absent"
    fi
}
# has FILE TEXT: FILE contains TEXT.
has() {
    local content
    content=$(<"$1")
    [[ $content == *"$2"* ]]
}
# lacks FILE TEXT: FILE does not contain TEXT.
lacks() { ! has "$1" "$2"; }
# has_line FILE REGEX: some line of FILE matches the bash regex REGEX.
has_line() {
    local line
    while IFS= read -r line || [ -n "$line" ]; do
        [[ $line =~ $2 ]] && return 0
    done <"$1"
    return 1
}
# tmp_files: prints the *.tmp-* files anywhere under the scratch directory.
tmp_files() {
    local f=("$S"/**/*.tmp-*)
    [ ${#f[@]} -eq 0 ] || echo "${f[*]}"
}
absent() { [ ! -e "$1" ] && [ ! -L "$1" ]; }
# Byte comparison by size and SHA-256.
same_bytes() {
    [ -f "$1" ] && [ -f "$2" ] && [ "$(stat -c %s -- "$1")" = "$(stat -c %s -- "$2")" ] &&
        [ "$(hash_of "$1")" = "$(hash_of "$2")" ]
}
differ() { [ -f "$1" ] && [ -f "$2" ] && ! same_bytes "$1" "$2"; }
png_signature() { [ -f "$1" ] && [ "$(head -c 8 -- "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }
# pfm_shape FILE W H: FILE begins "Pf\nW H\n-1.0\n" and has exactly W*H
# floats after it.
pfm_shape() {
    local want got n
    want=$(printf 'Pf\n%d %d\n-1.0\n' "$2" "$3" | od -An -tx1 | tr -d ' \n')
    n=$((${#want} / 2))
    [ -f "$1" ] || return 1
    got=$(head -c "$n" -- "$1" | od -An -tx1 | tr -d ' \n')
    [ "$got" = "$want" ] && [ "$(stat -c %s -- "$1")" -eq $((n + $2 * $3 * 4)) ]
}

# has_bytes FILE FORMAT N: FILE begins with what printf FORMAT prints and has N bytes after it.
has_bytes() {
    local want got n
    # shellcheck disable=SC2059 # the format is the caller's, on purpose
    want=$(printf "$2" | od -An -tx1 | tr -d ' \n')
    n=$((${#want} / 2))
    [ -f "$1" ] || return 1
    got=$(head -c "$n" -- "$1" | od -An -tx1 | tr -d ' \n')
    [ "$got" = "$want" ] && [ "$(stat -c %s -- "$1")" -eq $((n + $3)) ]
}
# first_floats FILE SKIP "A B ...": the floats after SKIP header bytes begin with A B ...
first_floats() {
    local want=($3) got
    read -r -a got < <(tail -c +$(($2 + 1)) -- "$1" | head -c $((4 * ${#want[@]})) | od -An -tf4 -w64)
    [ "${got[*]}" = "${want[*]}" ]
}
# png_colour_type FILE HEX: the IHDR's colour type byte (offset 25).
png_colour_type() { [ "$(head -c 26 -- "$1" | tail -c 1 | od -An -tx1 | tr -d ' \n')" = "$2" ]; }

# run ARGS...: runs convis ARGS... in $IN under `timeout 20`, setting RC and
# leaving stdout and stderr in $S/stdout and $S/stderr.
run() {
    (cd "$IN" && timeout 20 "$CONVIS" "$@") >"$S/stdout" 2>"$S/stderr" </dev/null
    RC=$?
}

# apply DESC INPUT ARGS...: runs `convis apply ARGS...`, then checks that
# INPUT (a path, or "" for none) is byte-identical to before and that no
# temporary file (*.tmp-*) is left anywhere under the scratch directory.
apply() {
    local desc=$1 input=$2 before='' after tmps=()
    shift 2
    [ -n "$input" ] && before=$(hash_of "$input")
    run apply "$@"
    PROBLEMS=()
    if [ -n "$input" ]; then
        after=$(hash_of "$input")
        [ "$before" = "$after" ] || PROBLEMS+=("input '$input' changed: sha256 $before before, $after after")
    fi
    tmps=("$S"/**/*.tmp-*)
    [ ${#tmps[@]} -eq 0 ] || PROBLEMS+=("temporary files left: ${tmps[*]}")
    verdict "$desc: input unchanged, no *.tmp-* left"
}

# abnormal: adds a problem when the last run timed out, could not be
# started, or was killed by a signal.
abnormal() {
    case $RC in
    124) PROBLEMS+=("timed out after 20 s (exit 124)") ;;
    125 | 126 | 127) PROBLEMS+=("convis could not be run (exit $RC)") ;;
    *) [ "$RC" -lt 128 ] || PROBLEMS+=("killed by signal $((RC - 128)) (exit $RC)") ;;
    esac
}

# expect_error CODE DESC [NEEDLE...]: the last run exited CODE (not by a
# signal or the timeout), wrote exactly one stderr line, starting "convis: "
# and containing every NEEDLE, and nothing on stdout.
expect_error() {
    local code=$1 desc=$2 lines first needle
    shift 2
    PROBLEMS=()
    abnormal
    [ "$RC" -eq "$code" ] || PROBLEMS+=("exit status $RC, expected $code")
    lines=$(wc -l <"$S/stderr")
    if [ -s "$S/stderr" ] && [ "$(tail -c 1 "$S/stderr" | od -An -tx1 | tr -d ' \n')" != "0a" ]; then
        PROBLEMS+=("stderr does not end with a newline")
        lines=$((lines + 1))
    fi
    [ "$lines" -eq 1 ] || PROBLEMS+=("stderr has $lines lines, expected exactly 1")
    first=$(head -n 1 "$S/stderr")
    [[ $first == "convis: "* ]] || PROBLEMS+=("stderr does not start with 'convis: '")
    for needle in "$@"; do
        has "$S/stderr" "$needle" || PROBLEMS+=("stderr does not contain '$needle'")
    done
    [ ! -s "$S/stdout" ] || PROBLEMS+=("stdout is not empty")
    verdict "$desc"
}

# expect_success DESC: the last run exited 0, with a report on stdout and
# nothing on stderr.
expect_success() {
    local desc=$1
    PROBLEMS=()
    abnormal
    [ "$RC" -eq 0 ] || PROBLEMS+=("exit status $RC, expected 0")
    [ -s "$S/stdout" ] || PROBLEMS+=("stdout is empty")
    [ ! -s "$S/stderr" ] || PROBLEMS+=("stderr is not empty")
    verdict "$desc"
}

# ---- help, version, kernels, engines ----------------------------------------------

run --help
expect_success "--help exits 0 and prints to stdout only"
check "--help shows the usage of apply" has "$S/stdout" "convis apply IN"
# every option of the window and every action --do takes is in --help (they
# were missing: the window's help sent learners there for the actions)
for o in --do --print-state --report-frames --screenshot --render-steps --window --lang; do
    check "--help lists the option $o" has_line "$S/stdout" "^  $o "
done
# and every option of bench, as of apply and the window (bench's were listed
# only by 'convis bench --help')
for o in --sizes --engines --budget-ms --csv --json; do
    check "--help lists the option $o of bench" has_line "$S/stdout" "^  $o "
done
for a in play tap step back gpu sweep apply-again chain too-big threads gpu-kernel gpu-result flip display \
    border zoom-in lessons lesson-next leave-lesson help escape quit; do
    check "--help lists the action $a" has_line "$S/stdout" "^  $a( |,)"
done
check "--help lists filter-9" has "$S/stdout" "filter-9"
# a lesson on the teacher's own photo: the usage line and an example
check "--help: convis lesson FILE [IMAGE]" has_line "$S/stdout" "^  convis lesson FILE \\[IMAGE\\] \\[OPTIONS\\]"
check "--help: a lesson that names no image plays on IMAGE, a photo" has "$S/stdout" \
    "one that names no image plays on IMAGE, a photo of yours"
check "--help: the example, lesson 8 on photo.jpg" has "$S/stdout" \
    "convis lesson lessons/en/08-your-own-image.yaml photo.jpg"

run --version
expect_success "--version exits 0 and prints to stdout only"
check "--version prints 'convis X.Y.Z'" has_line "$S/stdout" '^convis [0-9]+\.[0-9]+\.[0-9]+'

run kernels
expect_success "kernels exits 0 and prints to stdout only"
for k in identity box gaussian sharpen laplacian sobel-x sobel-y emboss outline; do
    check "kernels lists the preset $k" has_line "$S/stdout" "^${k}[[:space:]]"
done

run engines
expect_success "engines exits 0 and prints to stdout only"
cp "$S/stdout" "$S/engines.txt"
for e in cpu-seq cpu-simd cpu-par cuda; do
    check "engines lists $e" has_line "$S/engines.txt" "^${e}[[:space:]]+(available|unavailable)"
done

# ---- bad inputs: exit 2, one line naming the file ---------------------------------

apply "missing file" "" "$IN/no-such.png" -k box -o "$OUT/missing.png"
expect_error 2 "missing input file: exit 2, one line naming it" "$IN/no-such.png"
check "missing input file: no output written" absent "$OUT/missing.png"

for f in empty.png truncated.png text.png; do
    apply "$f" "$IN/$f" "$IN/$f" -k box -o "$OUT/bad-$f"
    expect_error 2 "$f: exit 2, one line naming it" "$IN/$f"
    check "$f: no output written" absent "$OUT/bad-$f"
done

apply "huge_header.png" "$IN/huge_header.png" "$IN/huge_header.png" -k box -o "$OUT/bad-huge.png"
expect_error 2 "huge_header.png (100000x1): exit 2, one line naming it and its size" \
    "$IN/huge_header.png" "100000"
check "huge_header.png: no output written" absent "$OUT/bad-huge.png"

apply "directory as input" "$S/adir" "$S/adir" -k box -o "$OUT/bad-dir.png"
expect_error 2 "a directory as input: exit 2, one line naming it" "$S/adir"
check "a directory as input: no output written" absent "$OUT/bad-dir.png"

# A file without read permission. Root reads everything, so as root the run
# is made as uid/gid 65534 (nobody) by setpriv, on a mode-000 file in mode-755
# directories.
PERM=$S/perm
mkdir -p "$PERM"
cp "$IN/tiny.png" "$PERM/secret.png"
perm_before=$(hash_of "$PERM/secret.png")
if [ "$(id -u)" -eq 0 ]; then
    AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    chmod 755 "$S" "$PERM"
    chmod 000 "$PERM/secret.png"
    perm_ready=1
    if ! command -v setpriv >/dev/null 2>&1; then
        fail "unreadable input: setpriv (util-linux) is needed to run this case as nobody when root"
        perm_ready=0
    else
        PERM_CONVIS=$CONVIS
        if ! timeout 20 "${AS_NOBODY[@]}" "$PERM_CONVIS" --version >/dev/null 2>&1; then
            # The binary's path is not traversable by nobody: use a copy.
            mkdir -p "$S/bin"
            chmod 755 "$S/bin"
            cp "$CONVIS" "$S/bin/convis" && chmod 755 "$S/bin/convis"
            PERM_CONVIS=$S/bin/convis
        fi
        if ! timeout 20 "${AS_NOBODY[@]}" "$PERM_CONVIS" --version >/dev/null 2>&1; then
            fail "unreadable input: uid 65534 cannot run convis, not even the copy '$PERM_CONVIS'" \
                "(can others reach $S? TMPDIR=${TMPDIR:-/tmp})"
            perm_ready=0
        elif ! timeout 20 "${AS_NOBODY[@]}" test -d "$PERM"; then
            fail "unreadable input: uid 65534 cannot reach '$PERM'"
            perm_ready=0
        fi
    fi
    if [ "$perm_ready" -eq 1 ]; then
        (cd / && timeout 20 "${AS_NOBODY[@]}" "$PERM_CONVIS" apply "$PERM/secret.png" -k box \
            -o "$PERM/secret-out.png") >"$S/stdout" 2>"$S/stderr" </dev/null
        RC=$?
        expect_error 2 "unreadable input (run as uid 65534): exit 2, one line naming it" "$PERM/secret.png"
        check "unreadable input: no output written" absent "$PERM/secret-out.png"
    fi
else
    chmod 000 "$PERM/secret.png"
    run apply "$PERM/secret.png" -k box -o "$OUT/secret-out.png"
    expect_error 2 "unreadable input: exit 2, one line naming it" "$PERM/secret.png"
    check "unreadable input: no output written" absent "$OUT/secret-out.png"
fi
chmod 644 "$PERM/secret.png"
check "unreadable input: file unchanged" test "$perm_before" = "$(hash_of "$PERM/secret.png")"
check "unreadable input: no *.tmp-* left" test -z "$(tmp_files)"

# ---- output equal to the input: exit 2, the input untouched --------------------------

apply "output = input (same path)" "$IN/tiny.png" tiny.png -k box -o tiny.png
expect_error 2 "output = input, same path: exit 2, one line naming it" "tiny.png"

apply "output = input (./ prefix)" "$IN/tiny.png" tiny.png -k box -o ./tiny.png
expect_error 2 "output = input via ./tiny.png: exit 2, one line naming it" "./tiny.png"

apply "output = input (dir/../ path)" "$IN/tiny.png" "$IN/tiny.png" -k box -o "$S/adir/../in/tiny.png"
expect_error 2 "output = input via adir/../in/tiny.png: exit 2, one line naming it" "$S/adir/../in/tiny.png"

ln -s tiny.png "$IN/link-to-tiny.png"
apply "output = input (symlink)" "$IN/tiny.png" tiny.png -k box -o link-to-tiny.png
expect_error 2 "output = input via a symlink: exit 2, one line naming it" "link-to-tiny.png"
check "output = input via a symlink: the symlink is still a symlink" test -L "$IN/link-to-tiny.png"

ln "$IN/tiny.png" "$IN/hardlink-to-tiny.png"
apply "output = input (hard link)" "$IN/tiny.png" tiny.png -k box -o hardlink-to-tiny.png
expect_error 2 "output = input via a hard link: exit 2, one line naming it" "hardlink-to-tiny.png"
rm -f "$IN/hardlink-to-tiny.png"

apply "make ramp-id.pfm" "$IN/ramp.pgm" ramp.pgm -k identity -o ramp-id.pfm
expect_success "apply ramp.pgm -k identity -o ramp-id.pfm (beside the input) exits 0"
apply "output = input (PFM, same path)" "$IN/ramp-id.pfm" ramp-id.pfm -k box -o ramp-id.pfm
expect_error 2 "output = input, a PFM, same path: exit 2, one line naming it" "ramp-id.pfm"
apply "output = input (PFM, ./ prefix)" "$IN/ramp-id.pfm" ./ramp-id.pfm -k box -o ramp-id.pfm
expect_error 2 "output = input, a PFM read as ./ramp-id.pfm: exit 2, one line naming it" "ramp-id.pfm"

# ---- usage errors: exit 1, one line -----------------------------------------------

R=$IN/ramp.pgm
apply "apply without arguments" ""
expect_error 1 "apply with no arguments: exit 1, one line"

apply "missing -o" "$R" "$R" -k box
expect_error 1 "apply without -o: exit 1, one line" "-o"

apply "missing -k" "$R" "$R" -o "$OUT/u-nok.png"
expect_error 1 "apply without -k: exit 1, one line" "-k"

apply "unknown option" "$R" "$R" -k box -o "$OUT/u-opt.png" --frobnicate
expect_error 1 "unknown option --frobnicate: exit 1, one line naming it" "--frobnicate"

apply "unknown border" "$R" "$R" -k box -o "$OUT/u-border.png" --border foo
expect_error 1 "--border foo: exit 1, one line naming it" "foo"

apply "unknown display" "$R" "$R" -k box -o "$OUT/u-display.png" --display foo
expect_error 1 "--display foo: exit 1, one line naming it" "foo"

apply "bad kernel text" "$R" "$R" -k "1 2; 3" -o "$OUT/u-kernel.png"
expect_error 1 "-k \"1 2; 3\": exit 1, one line showing the expected form" "-1 0 1; -2 0 2; -1 0 1"

apply "output .jpg" "$R" "$R" -k box -o "$OUT/u-out.jpg"
expect_error 1 "output OUT.jpg: exit 1, one line naming it" "$OUT/u-out.jpg"

apply "unknown engine" "$R" "$R" -k box -o "$OUT/u-engine.png" --engine warp-drive
expect_error 1 "--engine warp-drive: exit 1, one line naming it" "warp-drive"

apply "--reps 0" "$R" "$R" -k box -o "$OUT/u-reps.png" --reps 0
expect_error 1 "--reps 0: exit 1, one line" "--reps"

apply "unknown GPU kernel" "$R" "$R" -k box -o "$OUT/u-variant.png" --gpu-kernel fast
expect_error 1 "--gpu-kernel fast: exit 1, one line naming it and the choices" "'fast'; use tiled or naive"

apply "unknown result path" "$R" "$R" -k box -o "$OUT/u-result.png" --result lazy
expect_error 1 "--result lazy: exit 1, one line naming it and the choices" "'lazy'; use bulk, per-pixel or interop"

apply "--result interop" "$R" "$R" -k box -o "$OUT/u-interop.png" --result interop --engine cuda
expect_error 1 "--result interop: exit 1, one line saying it is for the window" "interop writes into the window"

for f in u-nok.png u-opt.png u-border.png u-display.png u-kernel.png u-out.jpg u-engine.png u-reps.png \
    u-variant.png u-result.png u-interop.png; do
    check "usage error: no output $f written" absent "$OUT/$f"
done

# ---- engine unavailable: exit 3 ----------------------------------------------------

if has_line "$S/engines.txt" '^cuda[[:space:]]+unavailable'; then
    apply "--engine cuda (unavailable)" "$R" "$R" -k box -o "$OUT/cuda.pfm" --engine cuda
    expect_error 3 "--engine cuda where 'engines' says unavailable: exit 3, one line" "unavailable"
    check "--engine cuda unavailable: no output written" absent "$OUT/cuda.pfm"
else
    apply "--engine cuda (available)" "$R" "$R" -k box -o "$OUT/cuda.pfm" --engine cuda
    expect_success "--engine cuda where 'engines' says available: exit 0"
fi

# ---- GPU switches on a CPU engine: ignored, and said so ------------------------------

apply "cpu-seq with --gpu-kernel and --result" "$R" "$R" -k box -o "$OUT/switches.pfm" --engine cpu-seq \
    --gpu-kernel naive --result per-pixel --reps 1
expect_success "cpu-seq --gpu-kernel naive --result per-pixel: exit 0"
check "the note says both were ignored" has "$S/stdout" "--gpu-kernel and --result were ignored"

# ---- stride, dilation and padding: the output's size follows -------------------------

for spec in "4 3 --stride 2" "5 3 --padding valid" "3 1 --dilation 2 --padding valid" "9 7 --padding full" \
    "4 3 --stride 3 --dilation 2 --padding full"; do
    read -r w h geo <<<"$spec"
    # shellcheck disable=SC2086
    apply "ramp.pgm $geo" "$R" "$R" -k box $geo -o "$OUT/geo.pfm" --engine cpu-seq
    expect_success "apply -k box $geo exits 0"
    check "$geo: a 7x5 input gives a ${w}x${h} output" pfm_shape "$OUT/geo.pfm" "$w" "$h"
    check "$geo: the geometry is said beside the output" has "$S/stdout" "geometry: stride"
    # shellcheck disable=SC2086
    apply "ramp.pgm $geo on cpu-par" "$R" "$R" -k box $geo -o "$OUT/geo-par.pfm" --engine cpu-par
    check "$geo: cpu-par's output byte-equal to cpu-seq's" cmp -s "$OUT/geo.pfm" "$OUT/geo-par.pfm"
done
apply "a valid window larger than the image" "$R" "$R" -k box:7 --padding valid -o "$OUT/none.pfm"
expect_error 2 "box:7, valid, on 7x5: exit 2, one line saying there is no output" "leaves no output"
check "no output written when there is none" absent "$OUT/none.pfm"
apply "--stride 0" "$R" "$R" -k box --stride 0 -o "$OUT/none.pfm"
expect_error 1 "--stride 0: exit 1, one line with the range" "from 1 to 8"
apply "--padding half" "$R" "$R" -k box --padding half -o "$OUT/none.pfm"
expect_error 1 "--padding half: exit 1, one line naming the modes" "same, valid or full"

# ---- --separable: the two passes beside the engine's result, never called equal unless they are

apply "--separable box:5" "$R" "$R" -k box:5 --separable --diff-map "$OUT/ulps.pfm" -o "$OUT/sep.pfm"
expect_success "apply -k box:5 --separable --diff-map exits 0"
check "box:5: 10 taps against 25, exactly" has "$S/stdout" "10 taps an output against 25"
check "box:5: the difference said, in outputs or bits" has_line "$S/stdout" "against the engine's result: (the same bits in all 35 outputs|[0-9,]+ of 35 outputs differ)"
check "the ULP map has the output's size" pfm_shape "$OUT/ulps.pfm" 7 5
apply "--separable sharpen" "$R" "$R" -k sharpen --separable -o "$OUT/sep.pfm"
expect_success "apply -k sharpen --separable exits 0: the result is the engine's"
check "sharpen: not run, its rank said" has "$S/stdout" "separable: not run: row 2 of the filter is not a multiple"
apply "--diff-map alone" "$R" "$R" -k box --diff-map "$OUT/ulps2.pfm" -o "$OUT/sep.pfm"
expect_error 1 "--diff-map without --separable: exit 1, one line" "--separable"
check "--diff-map alone: no map written" absent "$OUT/ulps2.pfm"

# ---- --color: each channel its own plane; --layer: a layer of filters, three ways

C=$IN/colour.ppm
apply "--color identity" "$C" "$C" -k identity --color -o "$OUT/colour.pfm"
expect_success "apply --color -k identity to .pfm exits 0"
check "the colour .pfm is 'PF', 3x2, three floats a pixel" has_bytes "$OUT/colour.pfm" 'PF\n3 2\n-1.0\n' $((3 * 2 * 3 * 4))
# PFM rows go bottom to top: the first pixel written is (0, 1) = (10, 21, 31)
check "its first pixel is the bottom row's first: 10 21 31" first_floats "$OUT/colour.pfm" 12 "10 21 31"
check "the three channels' times are said" has_line "$S/stdout" "colour: three channels, each its own plane through the filter: red [0-9.]+ ms, green"
apply "--color to .png" "$C" "$C" -k box --color -o "$OUT/colour.png"
expect_success "apply --color -k box to .png exits 0"
check "the .png is RGB (colour type 2)" png_colour_type "$OUT/colour.png" 02
apply "--color on a grey image" "$R" "$R" -k box --color -o "$OUT/greyc.pfm"
expect_success "apply --color on a grey image exits 0"
check "a grey image stays one channel, and says so" has "$S/stdout" "the image is grey, one channel"
check "... written as one" pfm_shape "$OUT/greyc.pfm" 7 5
apply "--layer edges" "$C" "$C" --layer edges --display abs -o "$OUT/edges.pfm"
expect_success "apply --layer edges exits 0"
check "four outputs, edges-0 to edges-3" pfm_shape "$OUT/edges-3.pfm" 3 2
check "the layer said: 3 channels in, 4 filters of 3x3x3" has "$S/stdout" "layer edges: 3 channels in, 4 filters of 3x3x3, 27 products an output"
check "direct: no extra memory" has "$S/stdout" "extra memory: none"
apply "--layer edges --way im2col" "$C" "$C" --layer edges --way im2col -o "$OUT/edges2.pfm"
expect_success "apply --layer edges --way im2col exits 0"
check "im2col: the unrolled matrix, 27 rows of 6 columns" has "$S/stdout" "27 rows of 6 columns of floats"
check "im2col: the direct loop's bits" has "$S/stdout" "every output its bits"
check "im2col: the same file as direct" same_bytes "$OUT/edges-2.pfm" "$OUT/edges2-2.pfm"
apply "--layer edges --way library" "$C" "$C" --layer edges --way library -o "$OUT/edges3.pfm"
if [ "$RC" -eq 0 ]; then
    check "library: compared with the direct loop" has "$S/stdout" "against the direct loop on the CPU"
else
    expect_error 3 "library without OpenBLAS: exit 3, one line naming it" "OpenBLAS"
fi
apply "--layer opponent on grey" "$R" "$R" --layer opponent -o "$OUT/opp.pfm"
expect_error 2 "--layer opponent on a grey image: exit 2, one line" "needs a colour image"
printf 'layer in 3 out 1 k 3\nfilter bias 0\n1 2 3\n' >"$IN/short.layer"
apply "a layer file that ends early" "$IN/short.layer" "$C" --layer short.layer -o "$OUT/short.pfm"
expect_error 2 "a short layer file: exit 2, file:line:column" "short.layer:4:1: expected a number here"
check "nothing written for it" absent "$OUT/short-0.pfm"
printf 'layer in 3 out 2 k 1\nfilter sum bias 0\n1 1 1\nfilter red bias 0.5\n1 0 0\n' >"$IN/two.layer"
apply "a layer file" "$IN/two.layer" "$C" --layer two.layer -o "$OUT/two.pfm"
expect_success "a layer file of two 1x1 filters exits 0"
check "its first output at the bottom-left pixel: 10 + 21 + 31 = 62" first_floats "$OUT/two-0.pfm" 12 "62"
check "its second, the red and the bias: 10.5" first_floats "$OUT/two-1.pfm" 12 "10.5"
apply "--layer with -k" "$C" "$C" --layer edges -k box -o "$OUT/x.pfm"
expect_error 1 "--layer with -k: exit 1, one line" "takes no -k"
apply "--way without --layer" "$C" "$C" -k box --way im2col -o "$OUT/x.pfm"
expect_error 1 "--way without --layer: exit 1, one line" "add --layer"
apply "--way sideways" "$C" "$C" --layer edges --way sideways -o "$OUT/x.pfm"
expect_error 1 "--way sideways: exit 1, one line naming the ways" "direct, im2col or library"

# ---- --fft: the convolution through the FFT beside the engine's result, or why it cannot run

apply "--fft box:5" "$R" "$R" -k box:5 --fft -o "$OUT/fft.pfm"
expect_success "apply -k box:5 --fft exits 0"
if ! grep -q "built without FFTW" "$S/stdout"; then # FFTW is optional (CMake's CONVIS_FFTW)
    check "box:5 --fft: its transforms' size (7x5 and the reach: 11x9, up to even sizes of factors 2 and 3: 12x12)" has "$S/stdout" "fft: 12x12 transforms"
    check "box:5 --fft: the difference said" has_line "$S/stdout" "against the engine's result: (the same bits in all 35 outputs|[0-9,]+ of 35 outputs differ, by [0-9]+ ULPs)"
    apply "--fft at stride 2" "$R" "$R" -k box:5 --fft --stride 2 -o "$OUT/fft.pfm"
    expect_success "apply --fft --stride 2 exits 0: the result is the engine's"
    check "--fft at stride 2: not run, said why" has "$S/stdout" "fft: not run: the FFT runs stride 1"
else
    check "--fft without FFTW: not run, said why" has "$S/stdout" "fft: not run: this convis was built without FFTW"
fi

# ---- successes ---------------------------------------------------------------------

for spec in "ramp.pgm 7 5" "tiny.png 5 4"; do
    read -r img w h <<<"$spec"
    name=${img%.*}
    apply "$img -> .png" "$IN/$img" "$IN/$img" -k sobel-x -o "$OUT/$name.png"
    expect_success "apply $img -k sobel-x -o $name.png exits 0"
    check "$name.png starts with the PNG signature" png_signature "$OUT/$name.png"
    check "$name.png has the mode of a new file under umask 022 (644, not 600)" \
        test "$(stat -c %a "$OUT/$name.png")" = 644
    apply "$img -> .pfm" "$IN/$img" "$IN/$img" -k sobel-x -o "$OUT/$name.pfm"
    expect_success "apply $img -k sobel-x -o $name.pfm exits 0"
    check "$name.pfm begins 'Pf\\n$w $h\\n-1.0\\n' and holds $w*$h floats" pfm_shape "$OUT/$name.pfm" "$w" "$h"
    check "$name.pfm has the mode of a new file under umask 022 (644, not 600)" \
        test "$(stat -c %a "$OUT/$name.pfm")" = 644
done

# Writing over an existing output replaces it, with a normal mode.
apply "write over.pfm" "$R" "$R" -k box -o "$OUT/over.pfm"
expect_success "apply -k box -o over.pfm exits 0"
apply "overwrite over.pfm" "$R" "$R" -k sobel-x -o "$OUT/over.pfm"
expect_success "apply -k sobel-x over the existing over.pfm exits 0"
check "the replaced over.pfm holds the new (sobel-x) result" same_bytes "$OUT/over.pfm" "$OUT/ramp.pfm"
check "the replaced over.pfm has mode 644" test "$(stat -c %a "$OUT/over.pfm")" = 644

# Round trip: a PFM written with identity, read back with identity, is the same.
apply "identity PFM" "$R" "$R" -k identity -o "$OUT/id1.pfm"
expect_success "apply ramp.pgm -k identity -o id1.pfm exits 0"
check "id1.pfm begins 'Pf\\n7 5\\n-1.0\\n' and holds 7*5 floats" pfm_shape "$OUT/id1.pfm" 7 5
apply "PFM round trip" "$OUT/id1.pfm" "$OUT/id1.pfm" -k identity -o "$OUT/id2.pfm"
expect_success "apply id1.pfm -k identity -o id2.pfm exits 0"
check "PFM round trip: id2.pfm is byte-identical to id1.pfm" same_bytes "$OUT/id1.pfm" "$OUT/id2.pfm"
check "sobel-x of ramp.pgm differs from its identity" differ "$OUT/id1.pfm" "$OUT/ramp.pfm"

# Files deeper than 8 bits keep every level: grad16.png and grad16.pgm (16-bit
# grey, 512x2) hold 512 levels on the top row (8 bits hold 256) and multiples
# of 257 below, which are whole values on the 0..255 scale (257 k is k).
# pfm_words FILE: the floats after a PFM's three header lines, as the hex of
# their bits, one a line.
pfm_words() {
    local n line w
    n=$(head -n 3 -- "$1" | wc -c)
    while read -r line; do
        for w in $line; do echo "$w"; done
    done < <(od -An -v -tx4 -j "$n" -- "$1")
}
for img in grad16.png grad16.pgm; do
    name=${img%.*}-${img#*.}
    apply "$img (16 bits) -> .pfm" "$IN/$img" "$IN/$img" -k identity -o "$OUT/$name.pfm"
    expect_success "apply $img -k identity -o $name.pfm exits 0"
    check "$name.pfm holds 512x2 floats" pfm_shape "$OUT/$name.pfm" 512 2
    mapfile -t words < <(pfm_words "$OUT/$name.pfm")
    distinct=$(printf '%s\n' "${words[@]}" | sort -u | wc -l)
    check "$img: the .pfm holds $distinct distinct values, more than the 256 of 8 bits" test "$distinct" -gt 256
    check "$img: levels 0, 257, 514, 771 are 0, 1, 2, 3 exactly; 65535 is 255" \
        test "${words[0]} ${words[1]} ${words[2]} ${words[3]} ${words[1023]}" = \
        "00000000 3f800000 40000000 40400000 437f0000"
    check "$img: no note on a .pfm, which keeps every value" lacks "$S/stdout" "bits a sample"
    apply "$img (16 bits) -> .png" "$IN/$img" "$IN/$img" -k identity -o "$OUT/$name.png"
    expect_success "apply $img -k identity -o $name.png exits 0"
    check "$img -> .png: a note says the .png holds 8 bits of the 16, and .pfm all" \
        has_line "$S/stdout" "^  note: .*$img' has 16 bits a sample; the 8-bit grey levels of a .png cannot hold them all: a .pfm output keeps every value$"
done
check "grad16.png and grad16.pgm give the same floats" same_bytes "$OUT/grad16-png.pfm" "$OUT/grad16-pgm.pfm"
apply "ramp.pgm (8 bits) -> .png" "$R" "$R" -k identity -o "$OUT/ramp-8.png"
check "an 8-bit input written as .png has no note of bits" lacks "$S/stdout" "bits a sample"

# A matrix with a divisor equals the preset of the same weights.
apply "gaussian preset" "$R" "$R" -k gaussian -o "$OUT/gauss-preset.pfm"
expect_success "apply -k gaussian exits 0"
apply "gaussian matrix" "$R" "$R" -k "1 2 1; 2 4 2; 1 2 1 / 16" -o "$OUT/gauss-matrix.pfm"
expect_success "apply -k \"1 2 1; 2 4 2; 1 2 1 / 16\" exits 0"
check "-k \"1 2 1; 2 4 2; 1 2 1 / 16\" gives the same bytes as -k gaussian" \
    same_bytes "$OUT/gauss-preset.pfm" "$OUT/gauss-matrix.pfm"
check "gaussian of ramp.pgm differs from its identity" differ "$OUT/gauss-preset.pfm" "$OUT/id1.pfm"

# --flip: no change for a symmetric kernel, a change for sobel-x.
apply "gaussian --flip" "$R" "$R" -k gaussian --flip -o "$OUT/gauss-flip.pfm"
expect_success "apply -k gaussian --flip exits 0"
check "--flip with the symmetric gaussian gives the same bytes as without" \
    same_bytes "$OUT/gauss-preset.pfm" "$OUT/gauss-flip.pfm"
apply "sobel-x --flip" "$R" "$R" -k sobel-x --flip -o "$OUT/sobel-flip.pfm"
expect_success "apply -k sobel-x --flip exits 0"
check "--flip with sobel-x gives a different file than without" differ "$OUT/ramp.pfm" "$OUT/sobel-flip.pfm"

# Every border and display mode is accepted.
for b in zero clamp mirror wrap; do
    apply "--border $b" "$R" "$R" -k sobel-x --border "$b" -o "$OUT/border-$b.pfm"
    expect_success "--border $b is accepted (exit 0)"
done
check "--border zero and --border clamp differ on ramp.pgm" differ "$OUT/border-zero.pfm" "$OUT/border-clamp.pfm"
for d in clamp abs signed; do
    apply "--display $d" "$R" "$R" -k sobel-x --display "$d" -o "$OUT/display-$d.png"
    expect_success "--display $d is accepted (exit 0)"
    check "--display $d writes a PNG" png_signature "$OUT/display-$d.png"
done

# cpu-seq and cpu-par compute the same bits.
for img in ramp.pgm tiny.png wide.pgm; do
    for k in box sobel-x emboss; do
        for b in zero clamp mirror wrap; do
            base=${img%.*}-$k-$b
            apply "$img -k $k --border $b --engine cpu-seq" "$IN/$img" "$IN/$img" -k "$k" --border "$b" \
                --engine cpu-seq --reps 1 -o "$OUT/$base-seq.pfm"
            expect_success "$img -k $k --border $b --engine cpu-seq exits 0"
            apply "$img -k $k --border $b --engine cpu-par" "$IN/$img" "$IN/$img" -k "$k" --border "$b" \
                --engine cpu-par --reps 1 -o "$OUT/$base-par.pfm"
            expect_success "$img -k $k --border $b --engine cpu-par exits 0"
            check "$img -k $k --border $b: cpu-seq and cpu-par PFMs are byte-identical" \
                same_bytes "$OUT/$base-seq.pfm" "$OUT/$base-par.pfm"
        done
    done
done

# ---- output problems: exit 2, nothing left behind ------------------------------------

apply "output in a missing directory" "$R" "$R" -k box -o "$S/no-such-dir/out.png"
expect_error 2 "output in a non-existent directory: exit 2, one line naming it" "$S/no-such-dir/out.png"
check "output in a non-existent directory: the directory was not created" absent "$S/no-such-dir"

mkdir -p "$OUT/looks-like.png"
apply "output is a directory" "$R" "$R" -k box -o "$OUT/looks-like.png"
expect_error 2 "output is a directory: exit 2, one line naming it" "$OUT/looks-like.png"
check "output is a directory: it is still an empty directory" \
    test -d "$OUT/looks-like.png" -a -z "$(ls -A "$OUT/looks-like.png")"

# ---- each command's own help -----------------------------------------------------------
for c in apply bench record lesson kernels engines; do
    for flag in --help -h; do
        run "$c" "$flag"
        expect_success "convis $c $flag: its own usage, exit 0"
        check "convis $c $flag: the usage shows 'convis $c'" has_line "$S/stdout" "^  convis $c( |$)"
        check "convis $c $flag: the exit statuses" has "$S/stdout" "3 an environment"
    done
done
run apply "$R" -k box --help -o "$OUT/help.png"
expect_success "apply IN -k box --help -o OUT: the usage, exit 0"
check "apply ... --help: nothing written" absent "$OUT/help.png"
check "apply --help lists the options of apply" has_line "$S/stdout" "^  --reps N "
run bench --help
check "bench --help lists --sizes, --csv and --json" has_line "$S/stdout" "^  --sizes N" &&
    check "bench --help lists --csv" has_line "$S/stdout" "^  --csv " && check "bench --help lists --json" has_line "$S/stdout" "^  --json "
run help record
expect_success "convis help record: the usage of record, exit 0"
check "convis help record: shows 'convis record'" has_line "$S/stdout" "^  convis record "
run help nope
expect_error 1 "convis help nope: exit 1, one line" "'nope'"

# ---- results onto a full disk: exit 3, one sentence -------------------------------------
# full ARGS...: runs convis ARGS... with stdout on /dev/full; MS: how long
full() {
    local t0=$(date +%s%N)
    (cd "$IN" && timeout 20 "$CONVIS" "$@") >/dev/full 2>"$S/stderr" </dev/null
    RC=$?
    MS=$((($(date +%s%N) - t0) / 1000000))
    : >"$S/stdout"
}
for cmd in "--help" "--version" "kernels" "engines" "apply --help" "lesson --check $DATA/../unit/lessons/valid.yaml" \
    "apply $R -k box --reps 1 -o $OUT/full.pfm"; do
    # shellcheck disable=SC2086 # the words of each command on purpose
    full $cmd
    expect_error 3 "convis $cmd >/dev/full: exit 3, one sentence (${MS} ms)" "cannot write the results to standard output" \
        "No space left on device"
done

# A file size limit (ulimit -f, SIGXFSZ ignored): the output cannot be written
# whole. Exit 3, the machine's reason; nothing at its name, no temporary file.
# (1 KiB: the PFM of wide.pgm is 1.6 KiB; the one line on stderr fits.)
(cd "$IN" && trap '' XFSZ && ulimit -f 1 && timeout 20 "$CONVIS" apply wide.pgm -k box --reps 1 -o "$OUT/fsize.pfm") \
    >"$S/stdout" 2>"$S/stderr" </dev/null
RC=$?
expect_error 3 "apply -o under a file size limit: exit 3, one sentence naming it" "$OUT/fsize.pfm" "File too large"
check "apply -o under a file size limit: no output" absent "$OUT/fsize.pfm"
left=("$OUT"/.convis-*)
check "apply -o under a file size limit: no temporary file left (${left[*]})" test ${#left[@]} -eq 0

# ---- what is refused before any work: at once, nothing written ---------------------------
# refused CODE DESC NEEDLE ARGS...: convis ARGS... exits CODE within 5 s with
# one sentence holding NEEDLE
refused() {
    local code=$1 desc=$2 needle=$3 t0
    shift 3
    t0=$(date +%s%N)
    run "$@"
    MS=$((($(date +%s%N) - t0) / 1000000))
    expect_error "$code" "$desc: exit $code, one sentence (${MS} ms)" "$needle"
    check "$desc: within 5 s" test "$MS" -lt 5000
}
echo theirs >"$OUT/rec.json"
rec_before=$(hash_of "$OUT/rec.json")
refused 2 "record onto an existing file" "already exists" record "$OUT/rec.json"
check "record onto an existing file: it is untouched" test "$rec_before" = "$(hash_of "$OUT/rec.json")"
refused 2 "record into a missing folder" "is not there" record "$S/no-such-dir/rec.json"
check "record into a missing folder: not made" absent "$S/no-such-dir"
printf 'title: t\nsteps:\n  - say: hi\n' >"$IN/a.yaml"
refused 1 "lesson a.yaml x.png y.png" "on at most one image, but 'y.png' came after 'x.png'" lesson a.yaml x.png \
    y.png --screenshot "$OUT/l.png"
check "lesson a.yaml x.png y.png: no screenshot" absent "$OUT/l.png"
# a lesson plays on an image given with it (a photo of the teacher's own),
# unless it opens its own image as it starts: then the image would never
# show, and that is said before any window opens
printf 'title: t\nimage: sample.png\nsteps:\n  - say: hi\n' >"$IN/own.yaml"
refused 1 "lesson own.yaml tiny.png (own.yaml opens sample.png)" \
    "'own.yaml' opens its own image (sample.png) as it starts, so 'tiny.png' would not be seen" lesson own.yaml \
    tiny.png --screenshot "$OUT/l.png"
check "lesson own.yaml tiny.png: no screenshot" absent "$OUT/l.png"
refused 1 "--window 4294968096x600 (wraps to 800 in an int)" "4294968096x600" --window 4294968096x600 --screenshot "$OUT/w.png"
refused 1 "--window 800x600x2" "800x600x2" --window 800x600x2 --screenshot "$OUT/w.png"
check "a bad --window: no screenshot" absent "$OUT/w.png"
for script in "" ",,," "step,,gpu" "gpu," " "; do
    refused 1 "--do '$script'" "empty action" --do "$script" --screenshot "$OUT/e.png"
done
check "an empty action: no screenshot" absent "$OUT/e.png"
refused 1 "--screenshot with --gif" "give one of them" --screenshot "$OUT/s.png" --gif "$OUT/s.gif"
refused 1 "--gif with --render-steps" "give one of them" --gif "$OUT/s.gif" --render-steps "$OUT/steps"
check "two outputs asked: neither written" absent "$OUT/s.png" && check "two outputs asked: no GIF" absent "$OUT/s.gif"
refused 1 "export --gif x.gif (a command mistyped)" "unknown command or missing image 'export'" export --gif "$OUT/x.gif"
check "export --gif: no GIF" absent "$OUT/x.gif"
refused 1 "--render-steps without a lesson" "needs a lesson" --render-steps "$OUT/steps"
check "--render-steps without a lesson: no folder made" absent "$OUT/steps"

# ---- in the environment's language: Chinese without a Chinese locale installed ---------
# LANG=zh_CN.UTF-8 on a system that may have no such locale: the messages
# come from convis's own catalogue all the same, the decoder's too (it runs
# in its sandbox, where the catalogue cannot be opened, only read from memory).
zh() {
    (cd "$IN" && env -u LC_ALL -u LANGUAGE -u LC_MESSAGES LANG=zh_CN.UTF-8 timeout 20 "$CONVIS" "$@") \
        >"$S/stdout" 2>"$S/stderr" </dev/null
    RC=$?
}
zh --help
PROBLEMS=()
[ "$RC" -eq 0 ] || PROBLEMS+=("exit status $RC")
has "$S/stdout" "用法" || PROBLEMS+=("no 用法 (Usage) in the help")
has "$S/stdout" "--kernel FILTER" || PROBLEMS+=("the option names were translated too")
verdict "LANG=zh_CN.UTF-8 convis --help: in Chinese, the options as typed"
check "LANG=zh_CN.UTF-8 convis --help: the actions' list in Chinese too" has_line "$S/stdout" "^  play +播放或暂停 CPU"
check "LANG=zh_CN.UTF-8 convis --help: no action's help left in English" lacks "$S/stdout" "play or pause the CPU"
# --lang for every command, --help among them, whatever the environment says
(cd "$IN" && env -u LC_ALL -u LANGUAGE LANG=C.UTF-8 timeout 20 "$CONVIS" --help --lang zh) >"$S/stdout" 2>"$S/stderr" </dev/null
check "convis --help --lang zh: in Chinese" has_line "$S/stdout" "^  play +播放或暂停 CPU"
(cd "$IN" && env -u LC_ALL -u LANGUAGE LANG=C.UTF-8 timeout 20 "$CONVIS" kernels --lang zh) >"$S/stdout" 2>"$S/stderr" </dev/null
check "convis kernels --lang zh: the titles in Chinese" has_line "$S/stdout" "^gaussian +高斯"
(cd "$IN" && env -u LC_ALL -u LANGUAGE LANG=C.UTF-8 timeout 20 "$CONVIS" apply truncated.png --lang zh -k box -o "$OUT/zh2.png") \
    >"$S/stdout" 2>"$S/stderr" </dev/null
check "convis apply --lang zh, a damaged image: the sentence in Chinese" has "$S/stderr" "损坏"
(cd "$IN" && env -u LC_ALL -u LANGUAGE LANG=zh_CN.UTF-8 timeout 20 "$CONVIS" --help --lang en) >"$S/stdout" 2>"$S/stderr" </dev/null
check "LANG=zh_CN.UTF-8 convis --help --lang en: in English" has_line "$S/stdout" "^  play +play or pause the CPU"
zh apply truncated.png -k box -o "$OUT/zh.png"
expect_error 2 "LANG=zh_CN.UTF-8, a damaged image: one line, naming it" "truncated.png"
check "LANG=zh_CN.UTF-8, a damaged image: the sandboxed decoder's sentence in Chinese" has "$S/stderr" "损坏"
check "LANG=zh_CN.UTF-8, a damaged image: no output written" absent "$OUT/zh.png"
zh kernels
check "LANG=zh_CN.UTF-8 convis kernels: the titles in Chinese, the names as typed" has_line "$S/stdout" "^gaussian +高斯"
(cd "$IN" && env -u LC_ALL -u LANGUAGE LANG=C.UTF-8 timeout 20 "$CONVIS" kernels) >"$S/stdout" 2>"$S/stderr" </dev/null
check "LANG=C.UTF-8 convis kernels: in English" has_line "$S/stdout" "^gaussian +Gaussian blur"

check "no *.tmp-* file anywhere under the scratch directory at the end" test -z "$(tmp_files)"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
