#!/bin/sh
# Rebuilds the tapes made from our sources:
#   tapes/chesskelet.tap, tapes/chesskelet-lite.tap  from tapes/src/chesskelet.asm
#   tapes/chesskelet-published.tap                    from the same source with
#       --equ genaft=1: our reconstruction of the build behind the published
#       games (tapes/CHESSKELET.md, "ChesSkelet as it played")
#   tapes/baker-draughts-16k.bin (+ .sym)            from tapes/src/baker-glue.asm,
#       our glue around Toni Baker's routines, which it includes unmodified
#       from tapes/baker-draughts.bin (scripts/transcribe-baker.py)
#   tapes/baker-draughts-mended.bin                  from tapes/src/baker-mended.asm,
#       her routines with the errata of tapes/BAKER.md
#   tapes/baker-draughts-mended-16k.bin (+ .sym)     from the same glue with
#       --equ mended=1: the mended routines and the exercises
#       (tapes/src/baker-exercises.asm)
#
#   scripts/build-tapes.sh            write them
#   scripts/build-tapes.sh --check    build into a temporary directory and
#                                     fail if a committed file differs
#
# Needs Debian's pasmo (apt-get install pasmo) and python3.  The output
# depends only on the sources: no dates, no host names.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/tapes/src/chesskelet.asm"
check=0
if [ "${1:-}" = "--check" ]; then check=1; fi

command -v pasmo >/dev/null 2>&1 || { echo "build-tapes: pasmo not found (apt-get install pasmo)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# install BUILT NAME: copy BUILT to tapes/NAME, or with --check fail if
# tapes/NAME differs; print its size and hash.
install() {
    if [ "$check" = 1 ]; then
        if ! cmp -s "$1" "$root/tapes/$2"; then
            echo "build-tapes: tapes/$2 differs from a fresh build" >&2
            exit 1
        fi
    else
        cp "$1" "$root/tapes/$2"
    fi
    echo "$2 $(wc -c <"$1" | tr -d ' ') bytes sha256 $(sha256sum "$1" | cut -d' ' -f1)"
}

# build ID FEAMOD GRAMOD TAPENAME [GENAFT]
build() {
    id=$1; feamod=$2; gramod=$3; name=$4; genaft=${5:-0}
    pasmo --equ feamod="$feamod" --equ gramod="$gramod" --equ genaft="$genaft" \
        "$src" "$work/$id.bin" "$work/$id.sym" >"$work/$id.log" 2>&1 || {
        cat "$work/$id.log" >&2; echo "build-tapes: pasmo failed for $id" >&2; exit 1; }
    origin=$(sed -n 's/^origin[[:space:]]*EQU[[:space:]]*0*\([0-9A-Fa-f]*\)H$/0x\1/p' "$work/$id.sym")
    [ -n "$origin" ] || { echo "build-tapes: no origin in $id.sym" >&2; exit 1; }
    python3 "$root/scripts/mktap.py" "$name" "$origin" "$work/$id.bin" "$work/$id.tap"
    install "$work/$id.tap" "$id.tap"
}

build chesskelet 1 1 "ChesSkelet"
build chesskelet-lite 0 1 "ChesSklite"
build chesskelet-published 0 1 "ChesSkpub" 1

# Toni Baker's draughts with our glue: one raw image loaded at TABLE (0x4C97)
# on a 16K ZX81, and pasmo's symbol table, which names the glue's interface.
# glue MENDED NAME: the glue with --equ mended=MENDED into tapes/NAME.bin (+ .sym).
glue() {
    pasmo -I "$work" --equ mended="$1" "$root/tapes/src/baker-glue.asm" \
        "$work/$2.bin" "$work/$2.sym" >"$work/$2.log" 2>&1 || {
        cat "$work/$2.log" >&2; echo "build-tapes: pasmo failed for $2" >&2; exit 1; }
    install "$work/$2.bin" "$2.bin"
    install "$work/$2.sym" "$2.sym"
}

baker() {
    # The glue includes src/… and the routines' images by name: it is built
    # from a copy, so that --check uses the fresh mended image, not the committed one.
    mkdir -p "$work/src"
    cp "$root/tapes/src/baker-glue.asm" "$root/tapes/src/baker-exercises.asm" "$work/src/"
    cp "$root/tapes/baker-draughts.bin" "$work/"
    pasmo "$root/tapes/src/baker-mended.asm" "$work/baker-draughts-mended.bin" \
        "$work/mended.sym" >"$work/mended.log" 2>&1 || {
        cat "$work/mended.log" >&2; echo "build-tapes: pasmo failed for baker-mended" >&2; exit 1; }
    install "$work/baker-draughts-mended.bin" baker-draughts-mended.bin
    glue 0 baker-draughts-16k
    glue 1 baker-draughts-mended-16k
}

baker
