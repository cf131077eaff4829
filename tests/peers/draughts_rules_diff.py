"""Legal moves of English checkers as pydraughts sees them, for the
differential test in tests/rules/draughts_rules.rs.

Usage: draughts_rules_diff.py SEED GAMES POSITIONS

Plays GAMES seeded random games from the initial position, and short random
games from POSITIONS seeded random positions (any number of men and kings
on each side, men never on the row where they would have been crowned),
plus a few positions made by hand. For every position reached it prints one
line, tab-separated:

    FEN  PLAYED  AFTER  MOVES  HUBPOS

FEN is pydraughts's PDN FEN of the position (standard numbering, Black
first); PLAYED the move the random game played next, as the list of squares
the piece stands on and lands on joined with '-' or 'x' ('' at the end of a
game); AFTER pydraughts's FEN after that move ('' if none); MOVES every
legal move, ';'-separated, each as SQUARES/HUB/PDN: the same list of squares,
pydraughts's `hub_move` and its `pdn_move`; HUBPOS the position as
pydraughts's HubEngine sends it (`pos=` value, its internal orientation).

Needs pydraughts 0.6.7 (`pip install pydraughts==0.6.7`). Note that
`Board(variant='checkers')` silently gives the 10x10 game: the variant must
be 'english'.
"""

import random
import sys

from draughts_peer import Board

MAX_PLIES = 200
SHORT_PLIES = 12

HAND_MADE = [
    # A king taking a ring of four men either way round, back on its square.
    "B:W14,15,22,23:BK10",
    # A man crowned by a jump stops there.
    "B:W25,26:B23",
    # A choice of captures, short and long.
    "B:W14,22,15:B10,11",
    # Kings of both sides in a crowd.
    "W:WK10,K19,K27,18,23:BK14,K15,K22,K26,6",
    "B:WK6,K7,K14,K15,K22,K23:BK10",
    # Nothing to move.
    "W:W32:B23,27,28",
]


def squares_text(move):
    sep = "x" if move.captures else "-"
    return sep.join(str(s) for s in move.steps_move)


def play(board, rng, plies):
    """Prints every position of a random game of at most `plies` plies."""
    for ply in range(plies + 1):
        moves = board.legal_moves()
        listed = ";".join(f"{squares_text(m)}/{m.hub_move}/{m.pdn_move}" for m in moves)
        fen, hub_pos = board.fen, board._game.get_fen()
        move = rng.choice(moves) if moves and ply < plies else None
        if move is None:
            print(f"{fen}\t\t\t{listed}\t{hub_pos}")
            return
        board.push(move)
        print(f"{fen}\t{squares_text(move)}\t{board.fen}\t{listed}\t{hub_pos}")


def random_fen(rng):
    squares = list(range(1, 33))
    rng.shuffle(squares)
    black_n = rng.randint(1, 12)
    white_n = rng.randint(1, 12)
    black, white = squares[:black_n], squares[black_n:black_n + white_n]
    king_share = rng.random()

    def items(own, crowning_row):
        out = []
        for s in sorted(own):
            king = s in crowning_row or rng.random() < king_share
            out.append(("K" if king else "") + str(s))
        return ",".join(out)

    turn = rng.choice("BW")
    return f"{turn}:W{items(white, range(1, 5))}:B{items(black, range(29, 33))}"


def main():
    seed, games, positions = (int(a) for a in sys.argv[1:4])
    rng = random.Random(seed)
    for fen in HAND_MADE:
        play(Board(variant="english", fen=fen), rng, SHORT_PLIES)
    for _ in range(games):
        play(Board(variant="english"), rng, MAX_PLIES)
    for _ in range(positions):
        play(Board(variant="english", fen=random_fen(rng)), rng, SHORT_PLIES)


if __name__ == "__main__":
    main()
