"""Replays PDN games of English checkers with pydraughts, for
tests/rules/draughts_rules.rs.

Reads PDN text on stdin (one or more games) and prints, for each game, the
PDN FEN pydraughts reaches after pushing every move of the main line on
`Board(variant='english', fen=FEN tag or the initial position)`.

The moves are taken from the movetext here rather than by pydraughts's
PDNReader: in 0.6.7 that reader mispairs the moves of a game whose FEN has
Black to move (it repeats the first and drops the second). Each move is
given to pydraughts as `Move(board, pdn_move=...)`, so pydraughts itself
decides which legal move the text names; a move it cannot find fails the
script.

Needs pydraughts 0.6.7 (`pip install pydraughts==0.6.7`).
"""

import re
import sys

from draughts_peer import Board, Move

RESULTS = {"1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"}
MOVE = re.compile(r"^\d+([-x]\d+)+$")


def games(text):
    """(tags, movetext tokens) of each game."""
    tags, tokens = {}, []
    for line in text.splitlines():
        tag = re.match(r'^\[(\w+) "(.*)"\]$', line)
        if tag:
            tags[tag.group(1)] = tag.group(2)
            continue
        line = re.sub(r"\{[^}]*\}", " ", line)
        for token in line.split():
            if token in RESULTS:
                yield tags, tokens
                tags, tokens = {}, []
            elif MOVE.match(token):
                tokens.append(token)


def main():
    text = sys.stdin.read()
    # Comments may run over lines: join them first.
    text = re.sub(r"\{[^}]*\}", lambda m: " ".join(m.group(0).split()), text)
    for tags, moves in games(text):
        board = Board(variant="english", fen=tags.get("FEN", "startpos"))
        for token in moves:
            board.push(Move(board, pdn_move=token))
        print(board.fen)


if __name__ == "__main__":
    main()
