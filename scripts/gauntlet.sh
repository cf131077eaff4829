#!/bin/sh
# Gauntlet: one engine (default 1K ZX Chess) against each of the others,
# through fastchess or cutechess-cli if either is on PATH (they run the
# engines as real UCI subprocesses, as a rating list would); otherwise the
# built-in runner (`retrochess match`), which runs the retro engines in-process.
#
# Usage: scripts/gauntlet.sh [ENGINE] [GAMES_PER_OPPONENT]
set -eu
hero=${1:-1k-zx-chess}
games=${2:-20}
opponents=""
# The hero's own game: UCI and CECP tools play chess only.
game=$(retrochess engines | awk -v h="$hero" '$1 == h {print $2}')
for e in $(retrochess engines | awk -v g="$game" '$2 == g {print $1}') random; do
  [ "$e" = "$hero" ] || opponents="$opponents $e"
done
rounds=$(( (games + 1) / 2 ))
if command -v fastchess >/dev/null 2>&1; then
  set -- -engine name="$hero" cmd=retrochess args="uci --engine $hero"
  for o in $opponents; do
    [ "$o" = random ] && continue   # the random mover is built into `retrochess match` only
    set -- "$@" -engine name="$o" cmd=retrochess args="uci --engine $o"
  done
  exec fastchess "$@" -gauntlet -each tc=40/60 -rounds "$rounds" -games 2 -repeat -pgnout file=gauntlet.pgn
elif command -v cutechess-cli >/dev/null 2>&1; then
  set -- -engine name="$hero" cmd=retrochess arg=uci arg=--engine arg="$hero" proto=uci
  for o in $opponents; do
    [ "$o" = random ] && continue
    set -- "$@" -engine name="$o" cmd=retrochess arg=uci arg=--engine arg="$o" proto=uci
  done
  exec cutechess-cli "$@" -tournament gauntlet -each tc=40/60 -rounds "$rounds" -games 2 -repeat -pgnout gauntlet.pgn
else
  echo "gauntlet: neither fastchess nor cutechess-cli is on PATH." >&2
  echo "  fastchess: build from its source (a C++ make project) and put the binary on PATH;" >&2
  echo "  cutechess-cli: your distribution's cutechess package, or build it with Qt and CMake." >&2
  echo "Using the built-in runner instead." >&2
  for o in $opponents; do
    echo "== $hero vs $o"
    retrochess match --engine "$hero" --engine "$o" --games "$games" --pgn gauntlet.pgn
  done
fi
