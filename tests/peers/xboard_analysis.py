"""Interop: python-chess's XBoard client analyses with `retrochess xboard`.

Usage: xboard_analysis.py RETROCHESS_BINARY ENGINE < positions

For each line on stdin (a FEN) python-chess, an independent judge of chess,
starts the engine afresh and runs its own CECP analysis (`engine.analysis(board, info=INFO_ALL)`: `new`,
`force`, `setboard`, `post`, `analyze`, and on stop `.`, `exit`, `ping`)
against `retrochess xboard --engine ENGINE`, then plays the same position
(`engine.play(board, Limit(time=10), info=INFO_ALL)`, after `new`), and
checks:
- the analysis sent at least two thinking lines (the program weighs several
  moves), each with a pv whose first move is legal on the board
  (python-chess drops an illegal pv move: an empty pv fails), no move twice;
- as many lines as retrochess's `# N candidates weighed, M legal` says are
  legal, and every `# candidate X … is illegal` comment names a move the
  board refuses;
- python-chess's best move of the analysis (the last pv's first move) is
  the move the engine then plays, and the thinking line python-chess keeps
  from the game move (its last) is that move with the analysis's best score;
  unless the program's choice is illegal (ChesSkelet ignores check): then
  python-chess refuses the move, and it must be flagged both in the game
  (`# illegal move X`) and in the analysis (`# the program's move: illegal
  move X`), and is printed as `played=illegal:X`.

The analysis is stopped once retrochess's retro detail comment (`# …
T-states …`, the last line of every answer) has arrived. Prints one line a
position: `lines= legal= weighed= best= played= pvs= scores=`. Exits 1 on the
first failed check, with the transcript.
"""

import logging
import re
import sys
import time

import chess
import chess.engine


class Transcript(logging.Handler):
    """The conversation, from python-chess's own debug log (`>>` from the
    engine, `<<` to it): the engine's lines as they are, ours after `> `."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        message = record.getMessage()
        if ": >> " in message:
            self.lines.append(message.split(": >> ", 1)[1])
        elif ": << " in message:
            self.lines.append("> " + message.split(": << ", 1)[1])


def wait_for_answer(transcript, since, seconds=60):
    """The engine's lines since `since`, once its answer is complete."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        recent = transcript.lines[since:]
        if any(line.startswith("# ") and "T-states" in line for line in recent):
            return recent
        time.sleep(0.01)
    raise AssertionError("no complete analysis within a minute")


def analyse(engine, transcript, board, n):
    since = len(transcript.lines)
    with engine.analysis(board, info=chess.engine.INFO_ALL, game=("analysis", n)) as analysis:
        recent = wait_for_answer(transcript, since)
        analysis.stop()
        infos = [info for info in analysis if "pv" in info]
        best = analysis.wait()
    return infos, best, recent


def illegal_move(game_lines, analysis_lines, err):
    """python-chess refused the engine's move: it must be flagged in the
    game (`# illegal move X`) and, as the program's choice, in the analysis
    (`# the program's move: illegal move X`). The move as a PlayResult with
    no move, so that the best legal line is not compared with it."""
    flags = [line.split()[3].rstrip(":") for line in game_lines if line.startswith("# illegal move ")]
    if not flags:
        raise AssertionError(f"unflagged illegal move: {err}")
    said = f"# the program's move: illegal move {flags[0]}:"
    if not any(line.startswith(said) for line in analysis_lines):
        raise AssertionError(f"the analysis did not say the program's choice {flags[0]} is illegal")
    print(f"the program's choice {flags[0]} is illegal, flagged in the game and the analysis",
          file=sys.stderr)
    return chess.engine.PlayResult(None, None, info={"illegal": flags[0]})


def check(board, infos, best, recent, played):
    weighed = legal = None
    for line in recent:
        m = re.match(r"# (\d+) candidates weighed, (\d+) legal", line)
        if m:
            weighed, legal = int(m.group(1)), int(m.group(2))
        m = re.match(r"# candidate (\S+) \(", line)
        if m and board.is_legal(chess.Move.from_uci(m.group(1))):
            return f"{m.group(1)} is legal yet marked illegal: {line}", weighed, legal
    if weighed is None:
        return "no '# N candidates weighed, M legal' comment", weighed, legal
    if len(infos) < 2:
        return f"{len(infos)} thinking lines: the program weighs several moves", weighed, legal
    if len(infos) != legal:
        return f"{len(infos)} thinking lines for {legal} legal candidates", weighed, legal
    for info in infos:
        pv = info.get("pv", [])
        if not pv or not board.is_legal(pv[0]):
            return f"pv {pv} is not a legal move", weighed, legal
    if len({info["pv"][0] for info in infos}) != len(infos):
        return "a move appears in two lines", weighed, legal
    if best.move != infos[-1]["pv"][0]:
        return f"best move {best.move} is not the last pv {infos[-1]['pv'][0]}", weighed, legal
    if played.move is None:
        return None, weighed, legal
    if played.move != best.move:
        return f"the engine plays {played.move}, its analysis said {best.move}", weighed, legal
    kept = played.info
    if kept.get("pv", [None])[0] != played.move or kept.get("score") != infos[-1]["score"]:
        return f"the game's last thinking line {kept} is not the move with the best score", weighed, legal
    return None, weighed, legal


def position(binary, engine_id, transcript, board):
    """The analysis and the game move of one position, on a fresh engine
    (python-chess's client is of no more use once it refused a move)."""
    engine = chess.engine.SimpleEngine.popen_xboard([binary, "xboard", "--engine", engine_id])
    try:
        infos, best, recent = analyse(engine, transcript, board, 1)
        since = len(transcript.lines)
        try:
            played = engine.play(board, chess.engine.Limit(time=10),
                                 info=chess.engine.INFO_ALL, game=("play", 1))
        except chess.engine.EngineError as err:
            return infos, best, recent, illegal_move(transcript.lines[since:], recent, err)
        engine.quit()
        return infos, best, recent, played
    finally:
        engine.close()


def main():
    binary, engine_id = sys.argv[1], sys.argv[2]
    transcript = Transcript()
    log = logging.getLogger("chess.engine")
    log.setLevel(logging.DEBUG)
    log.addHandler(transcript)
    for text in sys.stdin.read().splitlines():
        text = text.strip()
        if not text:
            continue
        board = chess.Board(text)
        infos, best, recent, played = position(binary, engine_id, transcript, board)
        failure, weighed, legal = check(board, infos, best, recent, played)
        pvs = ",".join(i["pv"][0].uci() for i in infos if i.get("pv"))
        scores = ",".join(str(i["score"].relative.score()) for i in infos if "score" in i)
        move = played.move or f"illegal:{played.info['illegal']}"
        print(f"lines={len(infos)} legal={legal} weighed={weighed} best={best.move} "
              f"played={move} pvs={pvs} scores={scores}", flush=True)
        if failure:
            print(f"FAILED at {board.fen()}: {failure}", file=sys.stderr)
            print("\n".join(transcript.lines[-80:]), file=sys.stderr)
            sys.exit(1)


if __name__ == "__main__":
    main()
