#!/bin/sh
# The evidence of issue 19 for baker-draughts-mended, measured big (the
# tests assert the same properties on smaller runs):
#   1. positions from seeded random games, both colours: faults or hangs,
#      dead ends, moves legal under `english` (each illegal one with its
#      reason): tests/engines/baker_mended.rs, with 2,000 positions;
#   2. 200 games against `random`, then against `draughts-1k`, `samuel-f8`
#      and the printed `baker-draughts` (the built-in runner, --illegal
#      continue so an illegal move is flagged and counted, not forfeited);
#   3. pydraughts 0.6.7's HubEngine: 20 complete games
#      (tests/interop/hub_interop.rs; needs the venv scripts/test makes).
#
# Usage: scripts/baker-evidence.sh [GAMES] [SEED]      (default 200 1)
set -eu
games=${1:-200}
seed=${2:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release --quiet
bin=target/release/retrochess
export RETROCHESS_PYTHON="${RETROCHESS_PYTHON:-$root/target/python/bin/python}"

echo "== 1. positions from seeded random games"
BAKER_EVIDENCE_POSITIONS=2000 cargo test --profile suite --quiet --test engines \
    baker_mended::positions_from_random_games -- --nocapture 2>&1 | grep -E "baker-draughts-mended|to move|illegal:|test result"

for other in random draughts-1k samuel-f8 baker-draughts; do
    echo "== 2. $games games against $other (seed $seed)"
    "$bin" match --game draughts --engine baker-draughts-mended --engine "$other" \
        --games "$games" --seed "$seed" --illegal continue
done

echo "== 3. pydraughts's HubEngine, 20 games"
cargo test --profile suite --quiet --test interop pydraughts_plays_20 -- --nocapture 2>&1 | grep -E "^summary|test result"
