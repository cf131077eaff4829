#!/bin/sh
# 1K ZX Chess against ChesSkelet in cutechess-cli, 20 games, PGN to retro.pgn.
# Either name the engines from engines.json (copy it to cutechess's config
# directory) with `-engine conf="1K ZX Chess"`, or give the commands inline:
exec cutechess-cli \
  -engine name="1K ZX Chess" cmd=retrochess arg=uci arg=--engine arg=1k-zx-chess proto=uci \
  -engine name="ChesSkelet" cmd=retrochess arg=uci arg=--engine arg=chesskelet proto=uci \
  -each tc=40/60 -games 2 -rounds 10 -repeat -pgnout retro.pgn "$@"
