#!/bin/sh
# The rating ladder: the retro engines placed on a public scale.
#
# Chess: a ladder of Stockfish 15.1 at UCI_LimitStrength/UCI_Elo 1350 (the
# lowest calibrated point, anchored to CCRL 40/4), "diluted" with uniformly
# random moves (dilute=P: with probability P a random legal move), from
# P = 0 (the anchor itself) to P = 1 (the random mover). Each rung plays its
# neighbours and the rungs two away; the retro engines play each other, the
# random mover and the rungs near them. Everything is then rated jointly
# (`retrochess rate`) with Stockfish UCI_Elo 1350 anchored at 1350.
#
# Stockfish searches `go nodes $NODES` a move (default 5000), not the 60+0.6
# clock of its calibration: at UCI_Elo 1350 its skill level is
# ((1350 - 1346.6) / 143.4)^(1/0.806) = 0.0098, so Skill::time_to_pick
# chooses the move at iteration depth 1 + int(level) = 1 whatever the clock
# (the search goes on, the move stays). 5000 nodes reach depth 5 or more,
# well past depth 1; the clock changes only what the hash table holds.
#
# Draughts: samuel-f8 at Level (minimum plies) 1, 2, 3, 4, 6 and 8, Level 1
# diluted 75%, 50% and 25% (the rungs between random and Level 1), Draughts
# 1K, Toni Baker's draughts and the random mover, a round robin, anchored at
# random = 0.
#
# Usage: scripts/ladder.sh [OUT_DIR] [SCALE]
#   OUT_DIR  where the PGN/PDN files and tables go (default ladder/)
#   SCALE    games per pairing are multiplied by SCALE (default 1:
#            60 between neighbouring rungs, 20 otherwise).
# Environment: RETROCHESS (the binary, default retrochess on PATH),
# STOCKFISH (default /usr/games/stockfish), NODES, CONCURRENCY (default 1),
# SEED (default 1). A finished match leaves OUT_DIR/NAME.done and is not
# played again, so an interrupted ladder resumes where it stopped.
set -eu
out=${1:-ladder}
scale=${2:-1}
rc=${RETROCHESS:-retrochess}
sf=${STOCKFISH:-/usr/games/stockfish}
nodes=${NODES:-5000}
conc=${CONCURRENCY:-1}
seed=${SEED:-1}
mkdir -p "$out"

# play NAME GAMES GAME SPEC... : one match (a round robin of the SPECs).
play() {
  name=$1 games=$2 game=$3
  shift 3
  [ -e "$out/$name.done" ] && return 0
  ext=pgn
  [ "$game" = draughts ] && ext=pdn
  rm -f "$out/$name.$ext" "$out/$name.$ext.journal"
  set -- "$@" --game "$game" --games "$((games * scale))" --seed "$seed" \
    --concurrency "$conc" --pgn "$out/$name.$ext"
  echo "== $name: $(date -u +%H:%M:%S)" >&2
  "$rc" match "$@" > "$out/$name.txt"
  touch "$out/$name.done"
}

anchor="Stockfish UCI_Elo 1350"
sfspec="cmd=$sf,proto=uci,option.Threads=1,option.Hash=16,option.UCI_LimitStrength=true,option.UCI_Elo=1350,nodes=$nodes,name=$anchor"
rung() {
  case $1 in
    1) echo random ;;
    0) echo "$sfspec" ;;
    *) echo "$sfspec,dilute=$1" ;;
  esac
}
rungs="0 0.06 0.12 0.2 0.3 0.4 0.5 0.6 0.75 0.9 1"
set -- $rungs
prev="" prev2=""
for p in "$@"; do
  [ -n "$prev" ] && play "rung-$prev-$p" 60 chess -e "$(rung "$prev")" -e "$(rung "$p")"
  [ -n "$prev2" ] && play "rung-$prev2-$p" 20 chess -e "$(rung "$prev2")" -e "$(rung "$p")"
  prev2=$prev prev=$p
done
retro="1k-zx-chess 1k-zx-chess-kp chesskelet chesskelet-lite"
set --
for e in $retro; do set -- "$@" -e "$e"; done
play retro 30 chess "$@" -e random
for e in $retro; do
  for p in 0.3 0.4 0.5 0.6 0.75 0.9; do
    play "$e-$p" 20 chess -e "$e" -e "$(rung "$p")"
  done
done

set -- -e random
for p in 0.75 0.5 0.25; do set -- "$@" -e "samuel-f8,option.Level=1,dilute=$p"; done
for l in 1 2 3 4 6 8; do set -- "$@" -e "samuel-f8,option.Level=$l"; done
play draughts 40 draughts "$@" -e draughts-1k -e baker-draughts

"$rc" rate --anchor "$anchor=1350" "$out"/*.pgn > "$out/chess-ratings.txt"
"$rc" rate --anchor "Random mover=0" "$out"/*.pdn > "$out/draughts-ratings.txt"
cat "$out/chess-ratings.txt" "$out/draughts-ratings.txt"
