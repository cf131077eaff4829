#!/bin/sh
# Proof of adapters/lichess-bot/: whole games through lichess-bot's own game
# loop, offline, with each retro engine as the bot (scripts/lichess_bot_harness.py
# says how lichess-bot's test stand-in becomes the server). Ours; kept out of
# CI and out of scripts/test: it needs the lichess-bot source, which is not
# in this repository, Debian's stockfish as the opponent
# (apt-get install stockfish: /usr/games/stockfish) and a few minutes.
# adapters/lichess-bot/README.md gives the steps and what the summary means.
#
#   scripts/lichess-bot-harness.sh [games|edges|lowclock|all]     # default all
#
# Environment:
#   LICHESS_BOT_DIR   lichess-bot's source, at commit bedd1d9 (default:
#                     lichess-bot beside this repository)
#   LICHESS_BOT_VENV  the venv with lichess-bot's requirements (default:
#                     LICHESS_BOT_DIR/venv, the one the README's steps make;
#                     made here if missing)
#   RETROCHESS        the binary (default: retrochess on PATH, else
#                     target/release/retrochess; nothing is built here)
#   OUT               logs and results (default: a new folder under
#                     target/lichess-bot-runs/)
#   CONFIGS           the configurations for whole games (default: every
#                     file of adapters/lichess-bot/)
#   FROM_POSITION     the configurations for the from-position game
#                     (default: 1k-zx-chess chesskelet)
#   BULLET_GAMES (4), BLITZ_GAMES (2)   games a configuration at 60+0, 180+2
set -eu

cd "$(dirname "$0")/.."
REPO=$(pwd)
PINNED=bedd1d9
LICHESS_BOT_DIR=${LICHESS_BOT_DIR:-$(dirname "$REPO")/lichess-bot}
LICHESS_BOT_VENV=${LICHESS_BOT_VENV:-$LICHESS_BOT_DIR/venv}
OUT=${OUT:-$REPO/target/lichess-bot-runs/$(date -u +%Y%m%dT%H%M%S)}
BULLET_GAMES=${BULLET_GAMES:-4}
BLITZ_GAMES=${BLITZ_GAMES:-2}
WHAT=${1:-all}
export LICHESS_BOT_DIR

[ -f "$LICHESS_BOT_DIR/lib/lichess_bot.py" ] || {
    echo "lichess-bot source not found in $LICHESS_BOT_DIR (set LICHESS_BOT_DIR):" >&2
    echo "  git clone https://github.com/lichess-bot-devs/lichess-bot $LICHESS_BOT_DIR && git -C $LICHESS_BOT_DIR checkout $PINNED" >&2
    exit 1
}
at=$(git -C "$LICHESS_BOT_DIR" rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
[ "$at" = "$PINNED" ] || echo "note: lichess-bot is at $at; the files were written for $PINNED" >&2
[ -x /usr/games/stockfish ] || { echo "stockfish missing: apt-get install stockfish" >&2; exit 1; }
if [ ! -x "$LICHESS_BOT_VENV/bin/python" ]; then
    python3 -m venv "$LICHESS_BOT_VENV"
    "$LICHESS_BOT_VENV/bin/pip" install --quiet -r "$LICHESS_BOT_DIR/requirements.txt"
fi
if [ -z "${RETROCHESS:-}" ]; then
    RETROCHESS=$(command -v retrochess || true)
    [ -n "$RETROCHESS" ] || [ ! -x target/release/retrochess ] || RETROCHESS=$REPO/target/release/retrochess
    [ -n "$RETROCHESS" ] || {
        echo "no retrochess binary: set RETROCHESS, put retrochess on PATH (cargo install --path .)," >&2
        echo "  or build target/release/retrochess (cargo build --release)" >&2
        exit 1
    }
fi
mkdir -p "$OUT"
echo "lichess-bot $(git -C "$LICHESS_BOT_DIR" log -1 --format='%h %s' 2>/dev/null || echo '(no git)'); logs in $OUT"

# run NAME CONFIG [harness options]: one run, lichess-bot's console to NAME.console.
run() {
    name=$1 config=$2
    shift 2
    "$LICHESS_BOT_VENV/bin/python" "$REPO/scripts/lichess_bot_harness.py" \
        --config "$REPO/adapters/lichess-bot/$config.yml" --retrochess "$RETROCHESS" \
        --log-prefix "$OUT/$name" --results "$OUT/$name.jsonl" "$@" >"$OUT/$name.console" 2>&1 ||
        echo "$name: the harness failed (see $OUT/$name.console)" >&2
}

if [ "$WHAT" = games ] || [ "$WHAT" = all ]; then
    for config in ${CONFIGS:-$(cd adapters/lichess-bot && ls -- *.yml | sed 's/\.yml$//')}; do
        run "$config-bullet" "$config" --base 60 --inc 0 --games "$BULLET_GAMES"
        run "$config-blitz" "$config" --base 180 --inc 2 --games "$BLITZ_GAMES"
    done
    # fromPosition: a middle game (Two Knights, after 4.Ng5), the bot Black.
    for config in ${FROM_POSITION:-1k-zx-chess chesskelet}; do
        run "$config-fromposition" "$config" --base 60 --inc 0 --games 1 --color black \
            --fen "r1bqkb1r/pppp1ppp/2n2n2/4p1N1/2B1P3/8/PPPP1PPP/RNBQK2R b KQkq - 5 4"
    done
fi

if [ "$WHAT" = edges ] || [ "$WHAT" = all ]; then
    # A crafted position, joined after 1...d4 2.e4: Black's one legal move is
    # d4xe3 en passant. ChesSkelet plays h8g7 into the rook's file (illegal);
    # 1K ZX Chess, which knows no en passant, finds no move (its dead end).
    # The bot's clock: 5 s, so that a refused reply ends on time quickly.
    edge() {
        name=$1 config=$2
        shift 2
        run "$name" "$config" --games 1 --color black --fen "7k/8/5N2/3p4/8/3P4/4P3/4K1R1 b - - 0 1" \
            --premoves "d5d4 e2e4" --bot-time 5 "$@"
    }
    edge illegal-uci-play chesskelet
    edge illegal-uci-resign chesskelet --set engine.uci_options.IllegalMoves=resign
    edge deadend-uci 1k-zx-chess
    # ChesSkelet over the CECP file: without 1K ZX Chess's own options.
    edge illegal-cecp-resign 1k-zx-chess-cecp --set engine.engine_options.engine=chesskelet \
        --set engine.xboard_options.Opening=~ --set engine.xboard_options.Frames=~
    edge illegal-cecp-play 1k-zx-chess-cecp --set engine.engine_options.engine=chesskelet \
        --set engine.xboard_options.Opening=~ --set engine.xboard_options.Frames=~ \
        --set engine.xboard_options.IllegalMoves=play
    edge deadend-cecp 1k-zx-chess-cecp
    # The same on the bot's first move (the position before 1...d4 2.e4 is
    # not needed: set it up with White's pawn already on e4).
    first() {
        name=$1 config=$2
        shift 2
        run "$name" "$config" --games 1 --color black --fen "7k/8/5N2/8/3pP3/3P4/8/4K1R1 b - e3 0 1" "$@"
    }
    first deadend-uci-first-move 1k-zx-chess
    first deadend-cecp-first-move 1k-zx-chess-cecp
    first illegal-uci-first-move chesskelet
fi

if [ "$WHAT" = edges ] || [ "$WHAT" = lowclock ] || [ "$WHAT" = all ]; then
    # A hang: less time left than move_overhead, so lichess-bot passes 1 ms
    # and the search is cut (1K ZX Chess needs 4-7 M T-states). Joined after
    # 1.e4 e5 2.Nf3 at 60+1 with 0.9 s on the bot's clock: lichess-bot's
    # default move_overhead (1000 ms) against ours (300 ms).
    for config in 1k-zx-chess 1k-zx-chess-cecp; do
        run "lowclock-default-overhead-$config" "$config" --games 1 --color black --premoves "e2e4 e7e5 g1f3" \
            --inc 1 --bot-time 0.9 --set move_overhead=~
        run "lowclock-our-overhead-$config" "$config" --games 1 --color black --premoves "e2e4 e7e5 g1f3" \
            --inc 1 --bot-time 0.9
    done
fi

# One line a run: games, the bot's results, how the games ended, how many
# for the program's own reply, failures of our adapter. An ending of ours is
# the program's by the arbiter's words (src/arbiter.rs: "illegal move M: …",
# "the program found no move and stopped (its dead end)", "the program did
# not come back: …", a hang or a search still running at its deadline); any
# other reason the engine gave is the adapter's. Three edge runs use a
# setting the files deliberately do not ship, to show why: their endings are
# expected and their count is not added up.
"$LICHESS_BOT_VENV/bin/python" - "$OUT" <<'EOF'
import collections, glob, json, os, sys
out = sys.argv[1]
PROGRAM_S = ("illegal move ", "the program found no move and stopped (its dead end)", "the program did not come back: ")
EXPECTED = {
    "illegal-uci-resign": "IllegalMoves resign over UCI (the files ship play): 0000 refused, a loss on time",
    "illegal-cecp-play": "IllegalMoves play over CECP (the file ships resign): python-chess's unfinished command, 60 s stall",
    "lowclock-default-overhead-1k-zx-chess": "lichess-bot's default move_overhead (the files ship 300 ms): 1 ms passed, the search cut",
}
def said(n, words):
    return any(w in n for w in words)
def program_s(g):  # the program's own illegal move, dead end, hang or cut, by the arbiter's words
    return any(said(n, PROGRAM_S) for n in g["engine_notes"])
def adapter_s(g):  # a reason the engine gave for no move that is none of the program's endings
    return any(said(n, ("did not finish", "hung", "no move")) and not said(n, PROGRAM_S) for n in g["engine_notes"])
def failed(g):
    # Our adapter's failures: a lichess-bot error other than the program's own illegal move, a post after
    # the end, an ending the adapter gave, or a refused move, abort, loss on time or resignation that was
    # not for the program's own reply.
    return bool(g["errors"] - 2 * g["illegal"] > 0 or g["after_end"] or adapter_s(g)
                or (g["status"] == "aborted" and not program_s(g)) or (g["refused"] and not program_s(g))
                or (g["status"] in ("outoftime", "resign") and g["bot_result"] == "loss" and not program_s(g)))
print(f"{'run':44} {'games':>5} {'W-D-L':>7}  {'ends':34} {'plies':>9} {'program':>7} {'failures':>8}  notes")
total, expected_runs = 0, []
for path in sorted(glob.glob(os.path.join(out, "*.jsonl"))):
    name = os.path.basename(path)[:-6]
    games = [json.loads(line) for line in open(path)]
    wdl = collections.Counter(g["bot_result"] for g in games)
    ends = collections.Counter(f"{g['status']}({'bot' if g['bot_result'] == 'loss' else 'opp' if g['bot_result'] == 'win' else '-'})"
                               if g["status"] in ("resign", "outoftime") else g["status"] for g in games)
    fail = sum(1 for g in games if failed(g))
    plies = [g["plies"] for g in games]
    if name in EXPECTED:
        note, shown = f"expected: {EXPECTED[name]}", f"({fail})"
        expected_runs.append(name)
    else:
        note, shown = "; ".join(sorted({n for g in games for n in g["engine_notes"]}))[:150], str(fail)
        total += fail
    print(f"{name:44} {len(games):>5} {wdl['win']}-{wdl['draw']}-{wdl['loss']:<3}  "
          f"{', '.join(f'{k} {v}' for k, v in sorted(ends.items())):34} {min(plies):>4}-{max(plies):<4} "
          f"{sum(1 for g in games if program_s(g)):>7} {shown:>8}  {note}")
print(f"failures of our adapter: {total}"
      + (f" (not added: {', '.join(expected_runs)}, whose endings are expected)" if expected_runs else ""))
sys.exit(1 if total else 0)
EOF
