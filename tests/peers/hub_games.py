"""pydraughts's HubEngine against `retrochess hub`, for the interop crate
(tests/interop/hub_interop.rs).

Usage: hub_games.py SEED FENS COMMAND...

FENS: PDN FEN positions separated by `|` (empty: the initial position only).
Starts COMMAND (`retrochess hub --engine ENGINE`) through pydraughts 0.6.7's
own Hub client (`draughts.engine.HubEngine`: `hub`, `set-param`, `init`, `ping`,
then `pos`/`level`/`go think` a move, as pydraughts sends them for English
checkers) and plays complete games of English checkers: from the initial
position and from each FEN, once with the engine on move first and once
with it replying. The other side's moves are pydraughts's own legal moves,
drawn with a seeded random generator. A game ends when pydraughts says it
is over, after 300 plies, or when the engine's move is not a legal move.

Every move the engine sends is checked on pydraughts's side: it must be
one of pydraughts's legal moves (looked up by its Hub form, as HubEngine
does) and then come with a `pv` naming it and no `problem`; or, if it is
not legal (HubEngine cannot find it), the engine must have flagged it in an
`info problem="illegal move ..."` line (or said why it has none). Anything
else fails the script.

The time limits cycle through the forms `level` takes (time+inc, time,
moves+time, move-time, depth, nodes).

Prints one line a game and a summary:
  game N start=FEN engine=black|white end=REASON plies=P engine_moves=M flagged=F
  summary games=G engine_moves=M flagged=F
"""

import random
import shutil
import sys

from draughts_peer import Board
from draughts import WHITE
from draughts.engine import HubEngine, Limit

MAX_PLIES = 300
LIMITS = [
    lambda: Limit(time=30, inc=1),
    lambda: Limit(time=60),
    lambda: Limit(movetime=1),
    lambda: Limit(depth=6),
    lambda: Limit(nodes=5000),
]


def fail(text):
    sys.stderr.write(f"hub_games.py: {text}\n")
    sys.exit(1)


def engine_move(engine, board, limit):
    """The engine's move on `board` as pydraughts reads it, or None when it
    sent none pydraughts can find; then `info` must flag it."""
    try:
        result = engine.play(board, limit, ponder=False)
    except (KeyError, ValueError) as e:
        # KeyError: a move HubEngine does not find among the legal moves.
        problem = engine.info.get("problem", "")
        wanted = "illegal move" if isinstance(e, KeyError) else ""
        if not problem or wanted not in problem:
            fail(f"no legal move from the engine and no problem flagged ({e!r}); "
                 f"info {engine.info}; position {board.fen}")
        return None, problem
    move = result.move
    if move.is_null:
        # `done move=0-0`: the engine has no move (a hang, a dead end, an
        # illegal move withheld); `info problem=` must say why.
        problem = engine.info.get("problem", "")
        if not problem:
            fail(f"the null move and no problem flagged; info {engine.info}; position {board.fen}")
        return None, problem
    if "problem" in engine.info:
        fail(f"legal move {move.hub_move} flagged: {engine.info['problem']}")
    if engine.info.get("pv") != move.hub_move:
        fail(f"pv {engine.info.get('pv')!r} is not the move {move.hub_move}")
    return move, None


def play(engine, fen, engine_first, limit, rng):
    """One game; returns (end, plies, engine moves, flagged)."""
    board = Board(variant="english", fen=fen)
    engine_side = board.turn if engine_first else 3 - board.turn
    moves = flagged = 0
    while not board.is_over():
        if len(board.move_stack) >= MAX_PLIES:
            return "max-plies", len(board.move_stack), moves, flagged
        if board.turn == engine_side:
            move, problem = engine_move(engine, board, limit)
            if move is None:
                return f"flagged: {problem}", len(board.move_stack), moves, flagged + 1
            moves += 1
        else:
            move = rng.choice(board.legal_moves())
        board.push(move)
    return f"over winner={board.winner()}", len(board.move_stack), moves, flagged


def main():
    seed, command = int(sys.argv[1]), sys.argv[3:]
    # HubEngine takes its program relative to the working directory.
    command[0] = shutil.which(command[0]) or command[0]
    fens = ["startpos"] + [f for f in sys.argv[2].split("|") if f]
    engine = HubEngine(command)
    try:
        games(engine, fens, seed)
    finally:
        if engine.p.poll() is None:
            engine.kill_process()
        engine.p.stdin.close()
        engine.p.stdout.close()


def games(engine, fens, seed):
    """Both colours from each position, then the summary."""
    rng = random.Random(seed)
    if "english" not in engine.variants:
        fail(f"the engine offers variants {engine.variants}, not english")
    engine.configure({"variant": "english", "Seed": str(seed)})
    engine.init()
    engine.ping()
    total = flagged_total = n = 0
    for fen in fens:
        for engine_first in (True, False):
            limit = LIMITS[n % len(LIMITS)]()
            end, plies, moves, flagged = play(engine, fen, engine_first, limit, rng)
            n += 1
            total += moves
            flagged_total += flagged
            side = Board(variant="english", fen=fen).turn
            if not engine_first:
                side = 3 - side
            colour = "white" if side == WHITE else "black"
            print(f"game {n} start={fen} engine={colour} end={end} plies={plies} "
                  f"engine_moves={moves} flagged={flagged}", flush=True)
            engine.send("new-game")
    engine.ping()
    engine.quit()
    engine.p.wait(timeout=10)
    print(f"summary games={n} engine_moves={total} flagged={flagged_total}")


if __name__ == "__main__":
    main()
