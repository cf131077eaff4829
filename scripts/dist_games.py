"""Whole games through python-chess between a retrochess build, started by
the command given (wine, qemu-user or natively), and Stockfish at its lowest
strength, for scripts/test-dist.

Usage: dist_games.py uci|xboard GAMES STOCKFISH -- COMMAND...

Each game: retrochess (1K ZX Chess, the default engine) with a clock of
60 s + 1 s a move, measured here on the wall clock; Stockfish at Skill Level
0, 10 ms a move; colours alternate. Counted and printed on one line:
games, the results, protocol errors (python-chess could not read the engine,
or it sent a move that is illegal without having flagged it), and adapter
losses (a game lost on time, by a crash or by a protocol error: losses that
are not the program's play). A move the program makes that is illegal is
flagged and resigned (IllegalMoves=resign): a loss of the program's own,
counted as program_illegal. Exits 1 if there was any protocol error or adapter loss.
"""

import logging
import sys
import time

import chess
import chess.engine


class Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        message = record.getMessage()
        if ": << " in message:
            self.lines.append(message.split(": << ", 1)[1])


def flagged(lines):
    return any(m in line for line in lines for m in ("illegal move", "tellusererror"))


def main():
    protocol, games, stockfish = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    command = sys.argv[sys.argv.index("--") + 1:]
    lines = Lines()
    logging.getLogger("chess.engine").addHandler(lines)
    logging.getLogger("chess.engine").setLevel(logging.DEBUG)
    sf = chess.engine.SimpleEngine.popen_uci(stockfish)
    sf.configure({"Skill Level": 0, "Threads": 1, "Hash": 16})
    results = {"retro": 0, "stockfish": 0, "draw": 0}
    protocol_errors = adapter_losses = program_illegal = 0
    for game in range(games):
        opener = chess.engine.SimpleEngine.popen_uci if protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
        retro = opener(command)
        # A move the program makes that is illegal ends the game as a
        # resignation, said first (`info string illegal move ...`).
        retro.configure({"IllegalMoves": "resign"})
        retro_color = chess.WHITE if game % 2 == 0 else chess.BLACK
        board = chess.Board()
        clock = {chess.WHITE: 60.0, chess.BLACK: 60.0}
        outcome = None
        while outcome is None:
            if board.is_game_over(claim_draw=True) or board.ply() >= 300:
                outcome = "draw" if board.outcome(claim_draw=True) is None or board.outcome(claim_draw=True).winner is None else (
                    "retro" if board.outcome(claim_draw=True).winner == retro_color else "stockfish")
                break
            if board.turn != retro_color:
                board.push(sf.play(board, chess.engine.Limit(time=0.01)).move)
                continue
            since = len(lines.lines)
            start = time.monotonic()
            try:
                played = retro.play(board, chess.engine.Limit(
                    white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                    white_inc=1.0, black_inc=1.0))
            except chess.engine.EngineError as e:
                # python-chess refuses an illegal move before returning it:
                # the program's own if retrochess flagged it first.
                if flagged(lines.lines[since:]):
                    program_illegal += 1
                else:
                    protocol_errors += 1
                    adapter_losses += 1
                    print(f"game {game}: {e}", file=sys.stderr)
                outcome = "stockfish"
                break
            except chess.engine.EngineTerminatedError as e:
                protocol_errors += 1
                adapter_losses += 1
                print(f"game {game}: engine ended: {e}", file=sys.stderr)
                outcome = "stockfish"
                break
            used = time.monotonic() - start
            clock[retro_color] -= used
            if clock[retro_color] < 0:
                adapter_losses += 1
                print(f"game {game}: lost on time ({used:.2f} s for a move)", file=sys.stderr)
                outcome = "stockfish"
                break
            clock[retro_color] += 1.0
            if played.move is None or played.resigned:
                # Resigned or no move: the program's (IllegalMoves=resign).
                program_illegal += flagged(lines.lines[since:])
                outcome = "stockfish"
                break
            board.push(played.move)
        results[outcome] += 1
        try:
            retro.quit()
        except chess.engine.EngineTerminatedError:
            pass
    sf.quit()
    print(f"games={games} retro_wins={results['retro']} stockfish_wins={results['stockfish']} "
          f"draws={results['draw']} program_illegal={program_illegal} "
          f"protocol_errors={protocol_errors} adapter_losses={adapter_losses}")
    sys.exit(1 if protocol_errors or adapter_losses else 0)


if __name__ == "__main__":
    main()
