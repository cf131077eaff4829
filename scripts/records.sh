# Sourced by scripts/same-as-before.sh and scripts/own-core-records.sh: the
# records of seeded matches a change must leave as they were.
#
# records BINARY OUTDIR [extra match options]: writes chess-default.pgn,
# chess-three.pgn, draughts-4.pdn and draughts-default.pdn to OUTDIR.
records() {
    b=$1; o=$2; shift 2; mkdir -p "$o"
    "$b" match --seed 1 --concurrency 1 --pgn "$o/chess-default.pgn" "$@" >/dev/null 2>&1
    "$b" match --engine 1k-zx-chess --engine chesskelet --engine chesskelet-lite --games 4 \
        --seed 1 --concurrency 1 --pgn "$o/chess-three.pgn" "$@" >/dev/null 2>&1
    "$b" match --game draughts --seed 1 --games 4 --concurrency 1 --pgn "$o/draughts-4.pdn" "$@" >/dev/null 2>&1
    "$b" match --game draughts --seed 1 --concurrency 1 --pgn "$o/draughts-default.pdn" "$@" >/dev/null 2>&1
}
