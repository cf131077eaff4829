#!/bin/sh
# 1K ZX Chess against ChesSkelet in fastchess (UCI only: fastchess does not
# speak CECP), 2 games a round (the same opening, colours reversed), 10
# rounds, PGN to retro.pgn. Each round starts from another opening of
# adapters/openings/short-balanced.pgn, drawn in an order set by SRAND.
# Environment: ROUNDS (10), TC (40/60), SRAND (1: the same order each run;
# another number, another order). Other fastchess options go after the
# script's name. fastchess sends `isready` before every move; retrochess
# answers it at once, even while the emulated machine thinks.
book="$(cd "$(dirname "$0")/../openings" && pwd)/short-balanced.pgn"
exec fastchess \
  -engine name="1K ZX Chess" cmd=retrochess args="uci --engine 1k-zx-chess" \
  -engine name="ChesSkelet" cmd=retrochess args="uci --engine chesskelet" \
  -openings file="$book" format=pgn order=random -srand "${SRAND:-1}" \
  -each tc="${TC:-40/60}" -rounds "${ROUNDS:-10}" -games 2 -repeat -pgnout file=retro.pgn "$@"
