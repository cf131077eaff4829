"""pydraughts's HubEngine reads `go analyze` from `retrochess hub`, for the
interop crate (tests/interop/analysis.rs).

Usage: hub_analysis.py FENS COMMAND...

FENS: PDN FEN positions of English checkers separated by `|`.
pydraughts 0.6.7's `HubEngine.go` sends `go think` or `go ponder`, never
`go analyze`; so this uses a `HubEngine` that sends `go analyze` in place
of `go think` when asked to, and keeps every line it receives. Everything
else is pydraughts's own client: the handshake, `pos`/`level`, and the
reading of every `info` line and of `done` (it splits each argument at `=`
and fails on anything else, and looks the move up among its legal moves).

For each position, after `new-game`: `go analyze`, then, after another
`new-game`, `go think`; checks, with pydraughts as the judge:
- at least two `info` lines with a `pv` (the program weighs several moves),
  each pv one of pydraughts's legal moves (by its Hub form), none twice;
- as many as the `info note="N candidates weighed, M legal"` says are
  legal, and each `note="candidate X ... is illegal"` names a move that is
  not legal;
- the last `pv` is the move of `done` (pydraughts keeps it as
  `info["pv"]`, with its score), and `go think` plays the same move.

Prints one line a position: `lines= legal= weighed= best= think= pvs=`.
Exits 1 with the lines received on the first failed check.
"""

import re
import shlex
import shutil
import sys

from draughts_peer import Board
from draughts.engine import HubEngine, Limit


class AnalysingHubEngine(HubEngine):
    """pydraughts's client, sending `go analyze` for `go think` while
    `analyze` is set, and keeping every line received."""

    def __init__(self, command):
        self.received = []
        self.analyze = False
        super().__init__(command)

    def send(self, line):
        if self.analyze and line == "go think":
            line = "go analyze"
        super().send(line)

    def recv(self):
        line = super().recv()
        self.received.append(line)
        return line


def fail(engine, text):
    sys.stderr.write(f"hub_analysis.py: {text}\n")
    sys.stderr.write("\n".join(engine.received[-40:]) + "\n")
    sys.exit(1)


def args(line):
    """The key=value arguments of an `info` line, quotes removed."""
    return dict(word.split("=", 1) for word in shlex.split(line.split(None, 1)[1]) if "=" in word)


def search(engine, board, analyze):
    engine.send("new-game")
    engine.analyze = analyze
    since = len(engine.received)
    result = engine.play(board, Limit(movetime=1), ponder=False)
    engine.analyze = False
    return result, engine.received[since:]


def check(engine, board, result, lines):
    legal_moves = {m.hub_move for m in board.legal_moves()}
    infos = [args(line) for line in lines if line.startswith("info ")]
    pvs = [info["pv"] for info in infos if "pv" in info]
    weighed = legal = None
    for info in infos:
        note = info.get("note", "")
        m = re.match(r"(\d+) candidates weighed, (\d+) legal", note)
        if m:
            weighed, legal = int(m.group(1)), int(m.group(2))
        m = re.match(r"candidate (\S+) \(", note)
        if m and m.group(1) in legal_moves:
            fail(engine, f"{m.group(1)} is legal yet marked illegal: {note}")
    if weighed is None:
        fail(engine, "no note 'N candidates weighed, M legal'")
    if len(pvs) < 2:
        fail(engine, f"{len(pvs)} pv lines: the program weighs several moves")
    if len(pvs) != legal:
        fail(engine, f"{len(pvs)} pv lines for {legal} legal candidates")
    for pv in pvs:
        if pv not in legal_moves:
            fail(engine, f"pv {pv} is not legal: {sorted(legal_moves)}")
    if len(set(pvs)) != len(pvs):
        fail(engine, "a move appears in two lines")
    best = result.move.hub_move
    if pvs[-1] != best or engine.info.get("pv") != best:
        fail(engine, f"done move {best}, last pv {pvs[-1]}, pydraughts's pv {engine.info.get('pv')}")
    last = [info for info in infos if "pv" in info][-1]
    if engine.info["score"] != {"cp": int(float(last["score"]) * 100)}:
        fail(engine, f"pydraughts's score {engine.info['score']} is not the best line's {last['score']}")
    return pvs, weighed, legal


def main():
    command = sys.argv[2:]
    command[0] = shutil.which(command[0]) or command[0]
    engine = AnalysingHubEngine(command)
    try:
        engine.configure({"variant": "english"})
        engine.init()
        for fen in [f for f in sys.argv[1].split("|") if f]:
            board = Board(variant="english", fen=fen)
            result, lines = search(engine, board, True)
            pvs, weighed, legal = check(engine, board, result, lines)
            think, _ = search(engine, board, False)
            if think.move.hub_move != result.move.hub_move:
                fail(engine, f"go think plays {think.move.hub_move}, go analyze said {result.move.hub_move}")
            print(f"lines={len(pvs)} legal={legal} weighed={weighed} best={result.move.hub_move} "
                  f"think={think.move.hub_move} pvs={','.join(pvs)}", flush=True)
        engine.quit()
        engine.p.wait(timeout=10)
    finally:
        if engine.p.poll() is None:
            engine.kill_process()


if __name__ == "__main__":
    main()
