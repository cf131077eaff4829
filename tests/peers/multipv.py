"""Interop: python-chess's UCI client asks retrochess for MultiPV analysis.

Usage: multipv.py RETROCHESS_BINARY ENGINE N < positions

For each line on stdin (a FEN, or `startpos`) python-chess runs
`engine.analysis(board, Limit(time=30), multipv=N)` through its own strict
UCI client, collects every info it parsed and the bestmove, and checks, as
an independent judge of chess:
- every `multipv K` line has a pv whose first move is legal on the board
  (python-chess drops an illegal pv move: an empty pv fails);
- K runs 1, 2, ... without gaps, and as many lines as retrochess says the
  program weighed legal candidates, up to N;
- the `multipv 1` move is the bestmove (the program's choice, when legal);
- every candidate flagged illegal in an `info string` is illegal, and as
  many are flagged as retrochess counts.
Prints one line per position: `lines= weighed= legal= best= pvs= scores=`. Exits 1 on the first failed check, with the transcript.
"""

import re
import sys

import chess
import chess.engine


def analyse(engine, board, n):
    infos = []
    with engine.analysis(board, chess.engine.Limit(time=30), multipv=n) as analysis:
        for info in analysis:
            infos.append(info)
        best = analysis.wait()
    lines = [i for i in infos if "multipv" in i]
    strings = [i["string"] for i in infos if "string" in i]
    weighed = legal = None
    for s in strings:
        m = re.match(r"(\d+) candidates weighed, (\d+) legal", s)
        if m:
            weighed, legal = int(m.group(1)), int(m.group(2))
    return lines, strings, weighed, legal, best


def check(board, n, lines, strings, weighed, legal, best):
    if weighed is None:
        return "no 'candidates weighed' info string"
    if [i["multipv"] for i in lines] != list(range(1, len(lines) + 1)):
        return f"multipv numbers {[i['multipv'] for i in lines]}"
    if len(lines) != min(n, legal):
        return f"{len(lines)} lines for {legal} legal candidates and MultiPV {n}"
    for info in lines:
        pv = info.get("pv", [])
        if not pv or not board.is_legal(pv[0]):
            return f"multipv {info['multipv']}: pv {pv} is not a legal move"
    if len({i["pv"][0] for i in lines}) != len(lines):
        return "a move appears in two lines"
    flagged = [re.match(r"candidate (\S+) .* is illegal", s) for s in strings]
    flagged = [chess.Move.from_uci(m.group(1)) for m in flagged if m]
    if len(flagged) != weighed - legal:
        return f"{len(flagged)} candidates flagged illegal, {weighed - legal} expected"
    for move in flagged:
        if board.is_legal(move):
            return f"{move} is flagged illegal but python-chess finds it legal"
    if lines and best.move and board.is_legal(best.move):
        if lines[0]["pv"][0] != best.move:
            return f"multipv 1 is {lines[0]['pv'][0]} but bestmove {best.move}"
    return None


def main():
    binary, engine_id, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci", "--engine", engine_id])
    # python-chess's client stops answering after a bestmove it finds
    # illegal (ChesSkelet's can be): flagged illegal moves come as 0000.
    engine.configure({"IllegalMoves": "resign"})
    try:
        for text in sys.stdin.read().splitlines():
            text = text.strip()
            if not text:
                continue
            board = chess.Board() if text == "startpos" else chess.Board(text)
            lines, strings, weighed, legal, best = analyse(engine, board, n)
            failure = check(board, n, lines, strings, weighed, legal, best)
            pvs = ",".join(i["pv"][0].uci() for i in lines if i.get("pv"))
            scores = ",".join(str(i["score"].relative.score()) for i in lines if "score" in i)
            best_move = best.move.uci() if best.move else "none"
            print(f"lines={len(lines)} weighed={weighed} legal={legal} best={best_move} "
                  f"pvs={pvs} scores={scores}")
            if failure:
                print(f"FAILED at {board.fen()}: {failure}", file=sys.stderr)
                sys.exit(1)
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
