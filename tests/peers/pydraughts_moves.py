"""pydraughts as an independent peer for English checkers move generation.

Reads requests on stdin, one a line, and answers each with one line:
  moves <FEN>          -> the legal moves, full paths (11-15, 9x18x27), sorted
  perft <DEPTH> <FEN>  -> the number of move sequences DEPTH plies long

Positions are PDN FEN with standard numbering (Black on 1-12 moves first).
Uses pydraughts 0.6.7 with variant='english' ('checkers' would silently be
10x10). Exits 2 with a message when pydraughts is missing.
"""

import sys

try:
    from draughts import Board
except ImportError:
    sys.stderr.write("pydraughts is missing: pip install pydraughts==0.6.7\n")
    sys.exit(2)


def path(move):
    sep = "x" if move.captures else "-"
    return sep.join(str(sq) for sq in move.steps_move)


def perft(board, depth):
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def answer(line):
    words = line.split(" ", 2)
    if words[0] == "moves":
        board = Board(variant="english", fen=line.split(" ", 1)[1])
        return " ".join(sorted(path(m) for m in board.legal_moves()))
    if words[0] == "perft":
        board = Board(variant="english", fen=words[2])
        return str(perft(board, int(words[1])))
    raise ValueError("unknown request: " + line)


def main():
    for line in sys.stdin:
        line = line.strip()
        if line:
            print(answer(line), flush=True)


if __name__ == "__main__":
    main()
