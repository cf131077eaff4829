#!/bin/sh
# Evidence that a change left what users see unchanged (issue "A new program
# in one file, a new protocol in one file", item 6): the PGN/PDN of recorded
# seeded matches, byte for byte with the move comments off, and the UCI,
# CECP and Hub transcripts of fixed sessions (scripts/transcripts.py), host
# times normalised, of an earlier binary and this one.
#
# Usage: scripts/same-as-before.sh OLD_BINARY [NEW_BINARY]
# NEW_BINARY defaults to target/release/retrochess. Prints a line a file;
# exits non-zero if a record differs. Transcript differences are printed
# for reading: where a program is cut by a budget from the host's measured
# speed, two runs of the same binary differ too.
set -eu
OLD=$(realpath "$1")
NEW=$(realpath "${2:-target/release/retrochess}")
PY=${RETROCHESS_PYTHON:-python3}
DIR=$(mktemp -d)
. "$(dirname "$0")/records.sh"
records "$OLD" "$DIR/old"
records "$NEW" "$DIR/new" --no-comments
status=0
for f in chess-default.pgn chess-three.pgn draughts-4.pdn draughts-default.pdn; do
    if cmp -s "$DIR/old/$f" "$DIR/new/$f"; then
        echo "$f: identical ($(wc -c < "$DIR/new/$f") bytes, sha256 $(sha256sum < "$DIR/new/$f" | cut -c1-16))"
    else
        echo "$f: DIFFERS"; status=1
    fi
done
"$PY" scripts/transcripts.py "$OLD" > "$DIR/old.txt"
"$PY" scripts/transcripts.py "$NEW" > "$DIR/new.txt"
echo "transcripts: $(wc -l < "$DIR/new.txt") lines; differences:"
diff "$DIR/old.txt" "$DIR/new.txt" || true
rm -rf "$DIR"
exit $status
