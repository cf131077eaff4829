#!/bin/sh
# Rebuilds the ChesSkelet tapes from tapes/src/chesskelet.asm.
#
#   scripts/build-tapes.sh            write tapes/chesskelet.tap and
#                                     tapes/chesskelet-lite.tap
#   scripts/build-tapes.sh --check    build into a temporary directory and
#                                     fail if the committed tapes differ
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

# build ID FEAMOD GRAMOD TAPENAME
build() {
    id=$1; feamod=$2; gramod=$3; name=$4
    pasmo --equ feamod="$feamod" --equ gramod="$gramod" \
        "$src" "$work/$id.bin" "$work/$id.sym" >"$work/$id.log" 2>&1 || {
        cat "$work/$id.log" >&2; echo "build-tapes: pasmo failed for $id" >&2; exit 1; }
    origin=$(sed -n 's/^origin[[:space:]]*EQU[[:space:]]*0*\([0-9A-Fa-f]*\)H$/0x\1/p' "$work/$id.sym")
    [ -n "$origin" ] || { echo "build-tapes: no origin in $id.sym" >&2; exit 1; }
    python3 "$root/scripts/mktap.py" "$name" "$origin" "$work/$id.bin" "$work/$id.tap"
    if [ "$check" = 1 ]; then
        if ! cmp -s "$work/$id.tap" "$root/tapes/$id.tap"; then
            echo "build-tapes: tapes/$id.tap differs from a fresh build" >&2
            exit 1
        fi
    else
        cp "$work/$id.tap" "$root/tapes/$id.tap"
    fi
    size=$(wc -c <"$work/$id.tap" | tr -d ' ')
    sum=$(sha256sum "$work/$id.tap" | cut -d' ' -f1)
    echo "$id.tap $size bytes sha256 $sum"
}

build chesskelet 1 1 "ChesSkelet"
build chesskelet-lite 0 1 "ChesSklite"
