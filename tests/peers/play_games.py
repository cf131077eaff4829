"""Interop: python-chess drives retrochess through its own UCI or CECP client.

Usage: play_games.py RETROCHESS_BINARY uci|xboard [GAMES]

Plays GAMES (default 2) complete games with clocks: the engine against
random legal moves chosen by python-chess, the engine White in even games
and Black in odd ones. Every move python-chess receives must be legal, or
flagged by retrochess before it arrives: `info string illegal move ...`
(UCI) or a `# illegal move ...` / `tellusererror` line (CECP). Exits 1
on any other outcome, printing the engine transcript.
"""

import logging
import random
import sys
import time

import chess
import chess.engine


class Transcript(logging.Handler):
    """Every line the engine wrote, from python-chess's own debug log."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        message = record.getMessage()
        if ": << " in message:
            self.lines.append(message.split(": << ", 1)[1])
        elif ": >> " in message:
            self.lines.append("> " + message.split(": >> ", 1)[1])


def flagged(lines, since, move):
    recent = lines[since:]
    marks = (f"info string illegal move {move}", f"# illegal move {move}", "tellusererror")
    return any(any(mark in line for mark in marks) for line in recent)


def explained(lines, since):
    recent = lines[since:]
    return any(line.startswith(("info string", "#", "tellusererror")) for line in recent)


def play_game(engine, transcript, game_no, protocol):
    rng = random.Random(1000 + game_no)
    engine_color = chess.WHITE if game_no % 2 == 0 else chess.BLACK
    board = chess.Board()
    clocks = {chess.WHITE: 120.0, chess.BLACK: 120.0}
    increment = 1.0
    legal = 0
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        if board.turn != engine_color:
            board.push(rng.choice(list(board.legal_moves)))
            continue
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=increment, black_inc=increment)
        since = len(transcript.lines)
        start = time.perf_counter()
        try:
            result = engine.play(board, limit, game=game_no)
        except chess.engine.EngineError as err:
            # python-chess refuses an illegal bestmove/move outright.
            text = str(err)
            moves = [w for w in text.replace("'", " ").split() if 4 <= len(w) <= 5 and w[1].isdigit()]
            move = moves[0] if moves else "?"
            if not flagged(transcript.lines, since, move):
                raise AssertionError(f"game {game_no}: unflagged illegal move ({text})")
            return f"engine's illegal move {move}, flagged, after {legal} legal moves"
        used = time.perf_counter() - start
        clocks[engine_color] -= used
        if clocks[engine_color] <= 0:
            raise AssertionError(f"game {game_no}: engine lost on time")
        clocks[engine_color] += increment
        move = result.move
        if result.resigned or move is None or not move:
            if not explained(transcript.lines, since):
                raise AssertionError(f"game {game_no}: resigned without a reason")
            return f"engine resigned with a reason after {legal} legal moves"
        if move not in board.legal_moves:
            if not flagged(transcript.lines, since, move.uci()):
                raise AssertionError(f"game {game_no}: unflagged illegal move {move}")
            return f"engine's illegal move {move}, flagged, after {legal} legal moves"
        board.push(move)
        legal += 1
    outcome = board.outcome(claim_draw=True)
    reason = outcome.termination.name if outcome else "400 plies"
    return f"{reason} {board.result(claim_draw=True)} after {legal} legal engine moves"


def main():
    binary, protocol = sys.argv[1], sys.argv[2]
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    transcript = Transcript()
    log = logging.getLogger("chess.engine")
    log.setLevel(logging.DEBUG)
    log.addHandler(transcript)
    popen = chess.engine.SimpleEngine.popen_uci if protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
    engine = popen([binary, protocol])
    try:
        print("engine:", engine.id.get("name"))
        for game_no in range(games):
            print(f"game {game_no}:", play_game(engine, transcript, game_no, protocol), flush=True)
    except Exception:
        print("\n".join(transcript.lines[-80:]))
        raise
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
