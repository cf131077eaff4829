#!/usr/bin/env python3
"""Play one game with python-chess against a retro engine over UCI.

Usage: play.py [ENGINE_ID]   (needs `pip install chess` and retrochess on PATH)
The engine plays White against python-chess's random legal moves; prints the
game's moves and the result. python-chess refuses an illegal move from the
engine (retrochess announces it first in an `info string`); the script then
stops the game and says so, as a GUI's adjudication would.
"""
import random
import sys

import chess
import chess.engine

engine_id = sys.argv[1] if len(sys.argv) > 1 else "1k-zx-chess"
rng = random.Random(1)
board = chess.Board()
with chess.engine.SimpleEngine.popen_uci(["retrochess", "uci", "--engine", engine_id]) as engine:
    print(engine.id["name"])
    verdict = None
    while not board.is_game_over(claim_draw=True) and board.ply() < 200:
        if board.turn == chess.WHITE:
            try:
                result = engine.play(board, chess.engine.Limit(white_clock=60, black_clock=60))
            except chess.engine.EngineError as e:
                verdict = f"0-1 (the engine played an illegal move: {e})"
                break
            board.push(result.move)
        else:
            board.push(rng.choice(list(board.legal_moves)))
print(" ".join(m.uci() for m in board.move_stack))
if verdict is None:
    verdict = board.outcome(claim_draw=True).result() if board.is_game_over(claim_draw=True) else "* (200 plies)"
print(verdict)
