"""Runs fixed UCI, CECP and Hub sessions through a retrochess binary and prints
the transcript, host-time fields normalised (for scripts/same-as-before.sh).
Usage: transcripts.py BINARY"""
import re, subprocess, sys

B = sys.argv[1]

def session(args, script):
    p = subprocess.Popen([B] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    out = []
    for line, until in script:
        p.stdin.write(line + "\n"); p.stdin.flush()
        out.append("> " + line)
        while until:
            l = p.stdout.readline()
            if not l: break
            l = l.rstrip("\n")
            out.append("< " + l)
            if l.startswith(until if isinstance(until, tuple) else (until,)): break
    p.stdin.write("quit\n"); p.stdin.flush()
    p.wait(timeout=20)
    return out

def norm(l):
    l = re.sub(r"\b(nps|time) \d+", r"\1 T", l)
    l = re.sub(r"\d+ ms of host time", "M ms of host time", l)
    l = re.sub(r"\b(time|nps)=[0-9.]+", r"\1=T", l)
    m = re.match(r"< (\d+) (-?\d+) (\d+) (\d+)(.*)", l)
    if m:
        l = f"< {m[1]} {m[2]} CS {m[4]}{m[5]}"
    l = re.sub(r"stat01: \d+", "stat01: CS", l)
    return l

uci = [("uci", "uciok"), ("isready", "readyok"),
       ("position startpos moves e2e4", None), ("go wtime 60000 btime 60000", "bestmove"),
       ("setoption name MultiPV value 4", None),
       ("position startpos moves e2e4 e7e5 g1f3", None), ("go wtime 60000 btime 60000", "bestmove"),
       ("setoption name IllegalMoves value resign", None),
       ("position fen 7k/8/8/8/8/8/8/K6R w - - 0 1", None), ("go movetime 5000", "bestmove"),
       ("position fen k7/8/8/8/8/8/5q2/7K w - - 0 1", None), ("go wtime 1000 btime 1000", "bestmove"),
       ("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5", None), ("go movetime 1", "bestmove")]
cecp = [("xboard", None), ("protover 2", "feature done=1"), ("new", None), ("post", None),
        ("level 0 5 0", None), ("usermove e2e4", "move"), ("ping 1", "pong"),
        ("usermove g1f3", "move"), ("ping 2", "pong"),
        ("new", None), ("force", None), ("usermove e2e4", None), ("analyze", None), (".", "stat01"),
        ("exit", None), ("ping 3", "pong"),
        ("new", None), ("force", None), ("usermove e2e4", None), ("usermove e7e5", None),
        ("usermove g1f3", None), ("usermove b8c6", None), ("usermove f1c4", None), ("usermove g8f6", None),
        ("usermove d2d3", None), ("usermove f8c5", None), ("time 1", None), ("go", ("resign", "move")), ("ping 4", "pong")]
START = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
hub = [("hub", "wait"), ("init", "ready"), (f"pos pos={START}", None), ("level move-time=5", None),
       ("go think", "done"), (f'pos pos={START} moves="11-15 22-18"', None), ("go think", "done"),
       (f'pos pos={START} moves="11-15"', None), ("go analyze", "done"), ("ping", "pong")]

for args, script in [(["uci", "--engine", "1k-zx-chess"], uci), (["uci", "--engine", "chesskelet"], uci),
                     (["xboard", "--engine", "1k-zx-chess"], cecp), (["xboard", "--engine", "chesskelet"], cecp),
                     (["hub", "--engine", "samuel-f8"], hub), (["hub", "--engine", "draughts-1k"], hub),
                     (["hub", "--engine", "baker-draughts"], hub)]:
    print("#### " + " ".join(args))
    for l in session(args, script):
        print(norm(l))
