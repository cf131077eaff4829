#!/bin/sh
# Rating table of the built-in engines: a round robin of every retro engine
# and the random mover (the rating floor), with the built-in runner, then
# each engine's score and Elo against the field.
#
# Usage: scripts/rating.sh [GAMES_PER_PAIRING] [SEED]
set -eu
games=${1:-20}
seed=${2:-1}
set --
for e in $(retrochess engines | awk '{print $1}') random; do
  set -- "$@" --engine "$e"
done
retrochess match "$@" --games "$games" --seed "$seed" --pgn rating.pgn
