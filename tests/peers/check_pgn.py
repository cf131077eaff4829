#!/usr/bin/env python3
"""Independent check of a match runner PGN file with python-chess.

Every game is parsed and replayed; a game that python-chess cannot replay,
or whose result disagrees with a rules ending on the board, is an error.
Prints one line per game: result, termination, plies. Exit 1 on any problem.
"""
import sys

import chess
import chess.pgn

problems = 0
count = 0
with open(sys.argv[1], encoding="utf-8") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        count += 1
        if game.errors:
            print(f"game {count}: parse errors {game.errors}")
            problems += 1
            continue
        board = game.board()
        plies = 0
        for move in game.mainline_moves():
            if not board.is_legal(move):
                print(f"game {count}: illegal move {move}")
                problems += 1
                break
            board.push(move)
            plies += 1
        h = game.headers
        term = h.get("Termination", "?")
        result = h.get("Result", "?")
        if int(h.get("PlyCount", "-1")) != plies:
            print(f"game {count}: PlyCount {h.get('PlyCount')} but {plies} plies")
            problems += 1
        if term == "normal" and board.is_checkmate():
            expected = "0-1" if board.turn == chess.WHITE else "1-0"
            if result != expected:
                print(f"game {count}: checkmate but result {result}")
                problems += 1
        if board.is_stalemate() and result != "1/2-1/2":
            print(f"game {count}: stalemate but result {result}")
            problems += 1
        for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result", "TimeControl", "Termination"]:
            if tag not in h:
                print(f"game {count}: missing tag {tag}")
                problems += 1
        print(f"{result} {term} {plies}")
print(f"games: {count}")
sys.exit(1 if problems else 0)
