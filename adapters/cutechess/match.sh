#!/bin/sh
# 1K ZX Chess against ChesSkelet in cutechess-cli, 2 games a round (the
# same opening, colours reversed), 10 rounds, PGN to retro.pgn. Each round
# starts from another opening of adapters/openings/short-balanced.pgn,
# drawn in an order set by SRAND.
# Environment: ROUNDS (10), TC (40/60), SRAND (1: the same order each run;
# another number, another order). Other cutechess-cli options go after the
# script's name (cutechess-cli refuses one given twice).
# Arguments reach an engine only through `arg=` here: cutechess reads no
# arguments from engines.json, whose entries therefore run the launchers
# (adapters/retrochess-<engine>, which must be on PATH) and are named with
# `-engine conf="1K ZX Chess"` (cutechess-cli reads engines.json from the
# current directory, else from its config directory).
book="$(cd "$(dirname "$0")/../openings" && pwd)/short-balanced.pgn"
exec cutechess-cli \
  -engine name="1K ZX Chess" cmd=retrochess arg=uci arg=--engine arg=1k-zx-chess proto=uci \
  -engine name="ChesSkelet" cmd=retrochess arg=uci arg=--engine arg=chesskelet proto=uci \
  -openings file="$book" format=pgn order=random -srand "${SRAND:-1}" \
  -each tc="${TC:-40/60}" -games 2 -rounds "${ROUNDS:-10}" -repeat -pgnout retro.pgn "$@"
