#!/bin/sh
# The rating ladders: the retro engines placed on a public scale, with 95%
# intervals of about ±75 Elo or less relative to the anchor.
#
# Chess: Stockfish 15.1 at UCI_LimitStrength/UCI_Elo 1350 (the lowest point
# it calibrates, "at 60s+0.6s and anchored to CCRL 40/4") is the anchor, at
# 1350. Stockfish at UCI_Elo 1500 and 1800 play as rated players (a check of
# the scale against Stockfish's own calibration, not anchors). Between the
# anchor and the retro engines: the anchor "diluted" with uniformly random
# moves (dilute=P: with probability P a random legal move) at P = 12% and
# 30%, the random mover (P = 100%) below. The design follows from where the
# variance is: a retro engine's interval relative to the anchor adds up the
# variance of each link of the chain between them, and a link of n games
# scoring p carries n·p(1−p) of information about the gap, so the chain is
# cheapest with few, long links (the gap per game's information, Δ²·p(1−p),
# is largest near 85–95% scores) and the games between the retro engines
# and the random mover (milliseconds each) tie them together almost for free.
# Every pair of neighbours plays hundreds of games; the retro engines, the
# random mover and the 30% rung a round robin.
#
# Stockfish searches `go nodes $NODES` a move (default 5000), not the 60+0.6
# clock of its calibration: at UCI_Elo 1350 its skill level is
# ((1350 - 1346.6) / 143.4)^(1/0.806) = 0.0098, so Skill::time_to_pick
# chooses the move at iteration depth 1 + int(level) = 1 whatever the clock
# (the search goes on, the move stays); at 1500 the level is 1.2 (depth 2),
# at 1800 4.2 (depth 5). 5000 nodes reach depth 5 or more; the clock changes
# only what the hash table holds.
#
# Draughts: anchored at random = 0; samuel-f8 at Level (minimum plies) 1, 2,
# 3, 4, 6 and 8, Level 1 diluted 75%, 50% and 25%, Draughts 1K and Toni Baker's
# draughts as printed and mended, a round robin, and more games on the
# links between random and the retro engines.
#
# Usage: scripts/ladder.sh [OUT_DIR] [PART...]
#   OUT_DIR  where the PGN/PDN files and tables go (default ladder/): the
#            chess games in OUT_DIR/chess, the draughts in OUT_DIR/draughts,
#            the wall time of each part and of the whole in OUT_DIR/times.txt.
#   PART     draughts, retro (the chess games with a retro engine:
#            retro-robin, their round robin with the random mover, then
#            retro-rungs, each against the 30% rung), stockfish (the chess
#            games without a retro engine), rate (the tables and charts);
#            default all four in that order: the whole ladder, 5,900 chess
#            and 24,600 draughts games, in one command.
# Environment: RETROCHESS (the binary, default retrochess on PATH),
# STOCKFISH (default /usr/games/stockfish), NODES (5000), SHARDS (each match
# is played as this many shards under GNU parallel, default 2), JOBS (shards
# at once, default 2), CORE (Z80 core, default own), SEED (default 1), SCALE
# (games multiplied by it, rounded to an even number; default 1), STARTUP
# (seconds an external engine may take to start, default 120: the match
# runner's 10 s forfeits games to a Stockfish starved of CPU on a busy
# host). Every shard leaves its .done file and
# is not played again, so an interrupted ladder resumes where it stopped.
set -eu
out=${1:-ladder}
[ $# -gt 0 ] && shift
parts=${*:-draughts retro stockfish rate}
rc=${RETROCHESS:-retrochess}
sf=${STOCKFISH:-/usr/games/stockfish}
nodes=${NODES:-5000}
shards=${SHARDS:-2}
jobs=${JOBS:-2}
core=${CORE:-own}
seed=${SEED:-1}
scale=${SCALE:-1}
startup=${STARTUP:-120}
mkdir -p "$out/chess" "$out/draughts"
began=$(date +%s)
# took PART START: the part's wall time, on stderr and in OUT_DIR/times.txt.
took() {
  echo "$1 $(($(date +%s) - $2)) s (ended $(date -u +%Y-%m-%dT%H:%M:%SZ))" | tee -a "$out/times.txt" >&2
}

# play DIR NAME GAMES GAME SPEC... : one match (a round robin of the SPECs),
# as $shards shards under GNU parallel, one game at a time in each shard.
play() {
  dir=$1 name=$2 games=$3 game=$4
  shift 4
  ext=pgn
  [ "$game" = draughts ] && ext=pdn
  games=$(awk -v g="$games" -v s="$scale" 'BEGIN { n = int(g * s / 2 + 0.5) * 2; print (n < 2 ? 2 : n) }')
  echo "== $name: $games games, $(date -u +%H:%M:%S)" >&2
  seq "$shards" | parallel -j "$jobs" -q sh -c '
    f=$1 ext=$2
    shift 2
    [ -e "$f.done" ] && exit 0
    rm -f "$f.$ext" "$f.$ext.journal"
    "$@" > "$f.txt" && touch "$f.done"' sh "$out/$dir/$name-{}" "$ext" \
    "$rc" match "$@" --game "$game" --games "$games" --seed "$seed" \
    --core "$core" --concurrency 1 --startup "$startup" --shard "{}/$shards" \
    --pgn "$out/$dir/$name-{}.$ext"
}

anchor="Stockfish UCI_Elo 1350"
sfat() {
  echo "cmd=$sf,proto=uci,option.Threads=1,option.Hash=16,option.UCI_LimitStrength=true,option.UCI_Elo=$1,nodes=$nodes,name=Stockfish UCI_Elo $1"
}
a=$(sfat 1350)
d12="$a,dilute=0.12"
d30="$a,dilute=0.3"

for part in $parts; do
  start=$(date +%s)
  case $part in
  stockfish)
    play chess sf1350-d12 600 chess -e "$a" -e "$d12"
    play chess d12-d30 700 chess -e "$d12" -e "$d30"
    play chess sf1350-d30 200 chess -e "$a" -e "$d30"
    play chess sf1350-1500 300 chess -e "$a" -e "$(sfat 1500)"
    play chess sf1350-1800 300 chess -e "$a" -e "$(sfat 1800)"
    play chess sf1500-1800 200 chess -e "$(sfat 1500)" -e "$(sfat 1800)"
    play chess d12-1500 100 chess -e "$d12" -e "$(sfat 1500)"
    # More games on the two links between the anchor and the 30% rung,
    # which carry most of the retro engines' variance (another seed: other
    # games, not copies).
    seed=$((seed + 1))
    play chess sf1350-d12-more 600 chess -e "$a" -e "$d12"
    play chess d12-d30-more 500 chess -e "$d12" -e "$d30"
    seed=$((seed - 1))
    ;;
  retro | retro-robin | retro-rungs)
    retro=$("$rc" engines | awk '$2 == "chess" {print $1}')
    if [ "$part" != retro-rungs ]; then
      set --
      for e in $retro; do set -- "$@" -e "$e"; done
      play chess retro 100 chess "$@" -e random
    fi
    if [ "$part" != retro-robin ]; then
      for e in $retro random; do
        play chess "$e-d30" 150 chess -e "$e" -e "$d30"
      done
    fi
    ;;
  draughts)
    set -- -e random
    for p in 0.75 0.5 0.25; do set -- "$@" -e "samuel-f8,option.Level=1,dilute=$p"; done
    for l in 1 2 3 4 6 8; do set -- "$@" -e "samuel-f8,option.Level=$l"; done
    play draughts all 200 draughts "$@" -e draughts-1k -e baker-draughts -e baker-draughts-mended
    l1="samuel-f8,option.Level=1"
    play draughts random-d50 1000 draughts -e random -e "$l1,dilute=0.5"
    play draughts random-d75 1000 draughts -e random -e "$l1,dilute=0.75"
    play draughts d75-d50 1000 draughts -e "$l1,dilute=0.75" -e "$l1,dilute=0.5"
    play draughts d50-d25 1000 draughts -e "$l1,dilute=0.5" -e "$l1,dilute=0.25"
    for e in baker-draughts-mended; do
      for p in 0.5 0.25; do play draughts "$e-d$p" 1000 draughts -e "$e" -e "$l1,dilute=$p"; done
      play draughts "$e-l1" 1000 draughts -e "$e" -e "$l1"
    done
    play draughts d1k-random 1000 draughts -e draughts-1k -e random
    play draughts d1k-d75 1000 draughts -e draughts-1k -e "$l1,dilute=0.75"
    ;;
  rate)
    # Each game whose games are there: both models' CSV, the table with
    # every pair's score, the chart, and the manual's table
    # (docs/ratings.md, by scripts/ladder-tables.py).
    for game in chess draughts; do
      if [ "$game" = chess ]; then ext=pgn a=$anchor at=1350; else ext=pdn a="Random mover" at=0; fi
      ls "$out/$game"/*."$ext" > /dev/null 2>&1 || continue
      for model in halves davidson; do
        "$rc" rate --model "$model" --anchor "$a=$at" --csv "$out/$game"/*."$ext" > "$out/$game-$model.csv"
      done
      "$rc" rate --anchor "$a=$at" --pairs --plot "$out/$game.svg" "$out/$game"/*."$ext" > "$out/$game-ratings.txt"
      python3 "$(dirname "$0")/ladder-tables.py" "$out/$game-halves.csv" "$out/$game-davidson.csv" "$a" > "$out/$game-table.md"
      cat "$out/$game-ratings.txt"
    done
    ;;
  *)
    echo "ladder.sh: unknown part $part (stockfish, retro, retro-robin, retro-rungs, draughts, rate)" >&2
    exit 2
    ;;
  esac
  took "$part" "$start"
done
took "all ($parts)" "$began"
