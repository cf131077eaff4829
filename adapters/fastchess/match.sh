#!/bin/sh
# 1K ZX Chess against ChesSkelet in fastchess (UCI only: fastchess does not
# speak CECP), 2 games a round, 10 rounds (ROUNDS=2 for fewer), PGN to
# retro.pgn. fastchess sends `isready` before every move; retrochess
# answers it at once, even while the emulated machine thinks.
exec fastchess \
  -engine name="1K ZX Chess" cmd=retrochess args="uci --engine 1k-zx-chess" \
  -engine name="ChesSkelet" cmd=retrochess args="uci --engine chesskelet" \
  -each tc=40/60 -rounds "${ROUNDS:-10}" -games 2 -repeat -pgnout file=retro.pgn "$@"
