#!/bin/sh
# 1K ZX Chess against ChesSkelet in cutechess-cli, 2 games a round, 10 rounds
# (ROUNDS=2 for fewer), PGN to retro.pgn.
# Arguments reach an engine only through `arg=` here: cutechess reads no
# arguments from engines.json, whose entries therefore run the launchers
# (adapters/retrochess-<engine>, which must be on PATH) and are named with
# `-engine conf="1K ZX Chess"` (cutechess-cli reads engines.json from the
# current directory, else from its config directory).
exec cutechess-cli \
  -engine name="1K ZX Chess" cmd=retrochess arg=uci arg=--engine arg=1k-zx-chess proto=uci \
  -engine name="ChesSkelet" cmd=retrochess arg=uci arg=--engine arg=chesskelet proto=uci \
  -each tc=40/60 -games 2 -rounds "${ROUNDS:-10}" -repeat -pgnout retro.pgn "$@"
