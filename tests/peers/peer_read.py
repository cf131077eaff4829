"""Reads a PGN or PDN file that retrochess wrote with the peers' own readers
and replays every game, for tests/rating/peers_read.rs.

- PGN (chess): python-chess's `chess.pgn.read_game`; every move must be
  legal, and a game that ends on the board (checkmate, stalemate) must
  carry the result the board says (`1-0` a win for White).
- PDN (draughts): pydraughts 0.6.7's `PDNReader(filename=...)`, the reader
  as a user calls it; every move is pushed on pydraughts's own
  `Board(variant='english')` by `Move(board, pdn_move=...)` (pydraughts
  decides which legal move the text names), the number of moves must be the
  PlyCount tag, and a game that ends on the board (the side to move has no
  move) must carry the result PDN 3.0 gives it: the first side to move's
  score first, so in English checkers `1-0` is a win for Black (pydraughts's
  player 1, who moves first) and `0-1` for White.

Prints one line per game, `WHITE<TAB>BLACK<TAB>RESULT<TAB>PLIES`, the result
as the file has it, then `games: N`. Exit 1 on any problem (said on
stdout), 2 when the peer library is missing.
"""

import sys

path = sys.argv[1]
problems = []
rows = []

if path.endswith(".pdn"):
    from draughts_peer import Board, Move
    from draughts.PDN import PDNReader

    games = PDNReader(filename=path).games
    for n, game in enumerate(games, 1):
        tags = game.tags
        if tags.get("Variant"):
            problems.append(f"game {n}: Variant {tags['Variant']}: not English rules")
            continue
        board = Board(variant="english", fen=tags.get("FEN", "startpos"))
        for token in game.moves:
            try:
                board.push(Move(board, pdn_move=token))
            except Exception as e:  # pydraughts says why in its own words
                problems.append(f"game {n}: {token} after {len(board.move_stack)} plies: {e!r}")
                break
        plies = len(board.move_stack)
        result = game.game_ending
        if result != tags.get("Result"):
            problems.append(f"game {n}: movetext ends {result}, Result tag {tags.get('Result')}")
        if str(plies) != tags.get("PlyCount", str(plies)):
            problems.append(f"game {n}: PlyCount {tags.get('PlyCount')}, {plies} moves read")
        if not board.legal_moves():
            # The side to move has lost; pydraughts's player 1 is Black.
            expected = "0-1" if board.turn == 1 else "1-0"
            if result != expected:
                problems.append(f"game {n}: the side to move ({board.turn}) has no move, result {result}")
        rows.append((tags.get("White", "?"), tags.get("Black", "?"), result, plies))
else:
    import chess
    import chess.pgn

    with open(path, encoding="utf-8") as f:
        n = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            n += 1
            if game.errors:
                problems.append(f"game {n}: {game.errors}")
                continue
            board = game.board()
            for move in game.mainline_moves():
                if not board.is_legal(move):
                    problems.append(f"game {n}: illegal {move}")
                    break
                board.push(move)
            h = game.headers
            result = h.get("Result", "?")
            outcome = board.outcome()
            if outcome is not None and outcome.result() != result:
                problems.append(f"game {n}: the board says {outcome.result()}, the file {result}")
            rows.append((h.get("White", "?"), h.get("Black", "?"), result, len(board.move_stack)))

for row in rows:
    print("\t".join(str(x) for x in row))
print(f"games: {len(rows)}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
