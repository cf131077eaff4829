#!/bin/sh
# Evidence for our own Z80 core (issue "A Z80 core near the limit"): the
# records of seeded matches, move comments (scores, authentic times, nodes)
# included, are byte for byte the same on `--core own` and `--core z80emu`;
# and, with comments off, the same as an earlier binary's if one is given
# (one from before the move comments: it writes none).
#
# Usage: scripts/own-core-records.sh [OLD_BINARY]
# Uses target/release/retrochess. Prints a line a record; exits non-zero if
# one differs.
set -eu
NEW=$(realpath target/release/retrochess)
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
. "$(dirname "$0")/records.sh"
status=0
same() { # NAME A B
    if cmp -s "$2" "$3"; then
        echo "$1: identical ($(wc -c < "$3") bytes, sha256 $(sha256sum < "$3" | cut -c1-16))"
    else
        echo "$1: DIFFERS"; status=1
    fi
}
records "$NEW" "$DIR/z80emu" --core z80emu
records "$NEW" "$DIR/own" --core own
for f in chess-default.pgn chess-three.pgn draughts-4.pdn draughts-default.pdn; do
    same "$f, own vs z80emu" "$DIR/z80emu/$f" "$DIR/own/$f"
done
if [ $# -ge 1 ]; then
    records "$(realpath "$1")" "$DIR/old"
    records "$NEW" "$DIR/own-bare" --core own --no-comments
    for f in chess-default.pgn chess-three.pgn; do
        same "$f, own (no comments) vs $(basename "$1")" "$DIR/old/$f" "$DIR/own-bare/$f"
    done
fi
exit $status
