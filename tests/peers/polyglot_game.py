#!/usr/bin/env python3
"""PolyGlot in front of `retrochess uci`, driven by python-chess as a CECP client.

Usage: polyglot_game.py POLYGLOT INI
Plays one complete game with clocks (the engine White, python-chess's seeded
random moves Black) until the game is over by the rules. Every move received
must be legal. Prints the result and the number of plies.
"""
import random
import sys

import chess
import chess.engine

polyglot, ini = sys.argv[1], sys.argv[2]
rng = random.Random(7)
board = chess.Board()
with chess.engine.SimpleEngine.popen_xboard([polyglot, ini]) as engine:
    while not board.is_game_over(claim_draw=True):
        if board.turn == chess.WHITE:
            result = engine.play(board, chess.engine.Limit(white_clock=60, black_clock=60, white_inc=1, black_inc=1))
            if result.move not in board.legal_moves:
                sys.exit(f"illegal move {result.move} in {board.fen()}")
            board.push(result.move)
        else:
            board.push(rng.choice(list(board.legal_moves)))
print(board.outcome(claim_draw=True).result(), board.ply())
