#!/usr/bin/env python3
"""Writes adapters/openings/short-balanced.pgn: short, balanced openings
for the shipped match scripts (adapters/fastchess/match.sh,
adapters/cutechess/match.sh), so that every round starts elsewhere.

How: from the initial position, every line of four plies in which each
ply is one of Stockfish's five best moves (MultiPV 5, depth 8); each
line's final position evaluated by Stockfish at depth 14; kept where the
score is within 35 centipawns of equality; one line per final position
(transpositions count once), in the order found. Stockfish runs on one
thread with a fresh hash for each position, so the file is the same on
every run with the same Stockfish.

Usage: scripts/make-book.py [STOCKFISH] > adapters/openings/short-balanced.pgn
Needs python-chess (pip install chess==1.11.2) and Stockfish (Debian's
stockfish, 15.1, made the shipped file).
"""

import sys

import chess
import chess.engine
import chess.pgn

PLIES = 4
WIDTH = 5
WIDTH_DEPTH = 8
SCORE_DEPTH = 14
WITHIN_CP = 35


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/usr/games/stockfish"
    engine = chess.engine.SimpleEngine.popen_uci(path)
    engine.configure({"Threads": 1, "Hash": 16})
    name = engine.id.get("name", path)

    def best(board):
        infos = engine.analyse(
            board, chess.engine.Limit(depth=WIDTH_DEPTH), multipv=WIDTH, game=object()
        )
        return [i["pv"][0] for i in infos if i.get("pv")]

    lines = [[]]
    for _ in range(PLIES):
        longer = []
        for line in lines:
            board = chess.Board()
            for m in line:
                board.push(m)
            longer.extend(line + [m] for m in best(board))
        lines = longer

    seen = set()
    kept = 0
    for line in lines:
        board = chess.Board()
        for m in line:
            board.push(m)
        key = board.epd()
        if key in seen:
            continue
        seen.add(key)
        info = engine.analyse(board, chess.engine.Limit(depth=SCORE_DEPTH), game=object())
        cp = info["score"].white().score(mate_score=100000)
        if abs(cp) > WITHIN_CP:
            continue
        kept += 1
        game = chess.pgn.Game()
        game.headers["Event"] = "retrochess short balanced openings"
        game.headers["Site"] = "?"
        game.headers["Date"] = "????.??.??"
        game.headers["Round"] = str(kept)
        game.headers["White"] = "?"
        game.headers["Black"] = "?"
        game.headers["Result"] = "*"
        game.headers["Annotator"] = f"{name}, depth {SCORE_DEPTH}: {cp:+d} cp for White"
        node = game
        for m in line:
            node = node.add_variation(m)
        print(game, end="\n\n")
    engine.quit()
    print(f"{kept} openings of {len(lines)} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
