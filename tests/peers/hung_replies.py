"""A program that hangs, seen through the real clients of each front end, for
the interop crate (tests/interop/hung_replies.rs).

Usage: hung_replies.py hub|uci|xboard COMMAND...

Starts COMMAND (`retrochess hub|uci|xboard --engine ENGINE`) through an
independent client and asks for a move the program cannot give, because it
hangs on the real path:
- hub: pydraughts 0.6.7's `HubEngine`, English checkers, after 11-15 22-18
  (Toni Baker's printed routines lose SQUAREVAL's table pointer there and
  read the ROM: `baker-draughts`, tests/engines/baker.rs). Both
  `HubEngine.go` and `HubEngine.play` are called; neither may raise.
- uci: python-chess's `popen_uci`, after 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6
  4. d3 Bc5, `Limit(time=0.001)` (`go movetime 1`): the deadline, a
  millisecond after `go`, comes long before 1K ZX Chess has its move
  (8.3 M T-states here, about 5 ms on `z80emu`).
- xboard: python-chess's `popen_xboard`, the same position, both clocks at
  10 ms (`time 1`, the least python-chess sends), the command given
  `--core lockstep` (z80emu and iz80 compared after every instruction, some
  six times slower): the deadline, 10 ms after the move, comes short of
  the 8.3 M again.

Prints one line, `FRONTEND move=... problem=...`, what the client got;
exits non-zero with the reason if the client raised or got something else
than "no move" with a reason.
"""

import shutil
import sys


def fail(text):
    sys.stderr.write(f"hung_replies.py: {text}\n")
    sys.exit(1)


def hub(command):
    from draughts import Board
    from draughts.engine import HubEngine, Limit

    engine = HubEngine(command)
    try:
        engine.configure({"variant": "english"})
        engine.init()
        board = Board(variant="english")
        for hub_move in ["11-15", "22-18"]:
            board.push(next(m for m in board.legal_moves() if m.hub_move == hub_move))
        moves = " ".join(m.hub_move for m in board.move_stack)
        try:
            best, ponder = engine.go(board._game.initial_hub_fen, moves=moves, movetime=1)
        except Exception as e:  # the regression this guards: IndexError
            fail(f"HubEngine.go raised {e!r}")
        if best != "0-0" or ponder is not None:
            fail(f"HubEngine.go returned {best!r}, {ponder!r}, not the null move")
        problem = engine.info.get("problem", "")
        try:
            result = engine.play(board, Limit(movetime=1), ponder=False)
        except Exception as e:
            fail(f"HubEngine.play raised {e!r}")
        if not result.move.is_null:
            fail(f"HubEngine.play returned {result.move.hub_move!r}, not a null move")
        if result.info.get("problem") != problem or "did not come back" not in problem:
            fail(f"no hang named in info: {result.info}")
        print(f"hub move={result.move.hub_move} null={result.move.is_null} problem={problem}")
    finally:
        if engine.p.poll() is None:
            engine.kill_process()


def chess_client(protocol, command):
    import chess
    import chess.engine

    opener = {"uci": chess.engine.SimpleEngine.popen_uci,
              "xboard": chess.engine.SimpleEngine.popen_xboard}[protocol]
    board = chess.Board()
    for move in "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5".split():
        board.push_uci(move)
    if protocol == "uci":
        limit = chess.engine.Limit(time=0.001)
    else:
        limit = chess.engine.Limit(white_clock=0.001, black_clock=0.001)
    with opener(command) as engine:
        try:
            result = engine.play(board, limit, info=chess.engine.INFO_ALL)
        except Exception as e:
            fail(f"{protocol}: play raised {e!r}")
    if result.move:  # None, or UCI's null move 0000 (falsy)
        fail(f"{protocol}: the client got the move {result.move}")
    if protocol == "xboard" and not result.resigned:
        fail("xboard: no move, and no resignation either")
    print(f"{protocol} move={result.move} resigned={result.resigned} info={result.info}")


def main():
    protocol, command = sys.argv[1], sys.argv[2:]
    command[0] = shutil.which(command[0]) or command[0]
    if protocol == "hub":
        hub(command)
    else:
        chess_client(protocol, command)


if __name__ == "__main__":
    main()
