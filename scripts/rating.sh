#!/bin/sh
# Rating table of the built-in engines of one game: a round robin of every
# engine of that game and the random mover (the rating floor), with the
# built-in runner, then each engine's score and Elo against the field.
#
# Usage: scripts/rating.sh [GAMES_PER_PAIRING] [SEED] [chess|draughts]
set -eu
games=${1:-20}
seed=${2:-1}
game=${3:-chess}
set --
for e in $(retrochess engines | awk -v g="$game" '$2 == g {print $1}') random; do
  set -- "$@" --engine "$e"
done
out=rating.pgn
[ "$game" = draughts ] && out=rating-draughts.pdn
retrochess match "$@" --game "$game" --games "$games" --seed "$seed" --pgn "$out"
