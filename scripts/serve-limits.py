#!/usr/bin/env python3
"""Measures `retrochess serve`: memory per game and games played at once.

Usage: scripts/serve-limits.py [BINARY] [GAMES_PER_ENGINE]
(default target/release/retrochess, 16)

1. Starts the server on a free loopback port with --max-games large enough,
   reads its resident memory (VmRSS in /proc/PID/status) with no game.
2. For each built-in engine, starts GAMES_PER_ENGINE games (each its own
   engine and machine), plays one move in each, and reads VmRSS again: the
   growth divided by the games is the memory per game of that engine.
3. Plays at once: 8 threads, each in its own game of 1K ZX Chess, 5 moves
   each; reports the wall time and the median time per move.
4. Restarts with --max-games 4 and checks the fifth game is refused (503).
Standard library only.
"""

import json
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/retrochess"
PER_ENGINE = int(sys.argv[2]) if len(sys.argv) > 2 else 16
FIRST = {"chess": {"white": "e2e4", "black": "e7e5"}, "draughts": {"white": "22-18", "black": "11-15"}}


def start(max_games):
    p = subprocess.Popen([BINARY, "serve", "--listen", "127.0.0.1:0", "--max-games", str(max_games)],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = p.stdout.readline()
    base = re.search(r"http://[^/ ]+", line).group(0)
    return p, base


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def call(base, method, path, form=None):
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def main():
    p, base = start(10_000)
    try:
        time.sleep(0.5)
        idle = rss_kib(p.pid)
        print(f"server with no game: {idle} KiB resident")
        _, engines = call(base, "GET", "/api/engines")
        rows = []
        for e in engines:
            before = rss_kib(p.pid)
            t0 = time.time()
            for i in range(PER_ENGINE):
                st, g = call(base, "POST", "/api/games", {"engine": e["id"], "seed": str(i)})
                assert st == 201, g
                if not g["over"] and g["turn"] == g["person"]:
                    move = FIRST[g["game"]][g["person"]]
                    if move not in g["legal"]:
                        move = g["legal"][0]
                    st, g2 = call(base, "POST", f"/api/games/{g['id']}/move", {"move": move})
                    assert st == 200, g2
            took = time.time() - t0
            after = rss_kib(p.pid)
            per = (after - before) / PER_ENGINE
            rows.append((e["id"], per, took / PER_ENGINE))
            print(f"{e['id']:18} {PER_ENGINE} games: +{after - before} KiB, {per:.0f} KiB per game, "
                  f"{1000 * took / PER_ENGINE:.0f} ms per game (start + one move)")
        total = sum(PER_ENGINE for _ in engines)
        print(f"{total} games at once: {rss_kib(p.pid)} KiB resident in all")

        # Games played at the same moment.
        times = []
        lock = threading.Lock()

        def player(seed):
            st, g = call(base, "POST", "/api/games", {"engine": "1k-zx-chess", "seed": str(100 + seed)})
            assert st == 201, g
            for _ in range(5):
                if g["over"]:
                    break
                move = sorted(g["legal"])[0]
                t = time.time()
                st, g = call(base, "POST", f"/api/games/{g['id']}/move", {"move": move})
                assert st == 200, g
                with lock:
                    times.append(time.time() - t)

        t0 = time.time()
        threads = [threading.Thread(target=player, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(f"8 players at once, {len(times)} moves of 1K ZX Chess: {time.time() - t0:.1f} s wall, "
              f"median {1000 * statistics.median(times):.0f} ms per move (max {1000 * max(times):.0f} ms)")
    finally:
        p.terminate()
        p.wait()

    p, base = start(4)
    try:
        codes = [call(base, "POST", "/api/games", {"engine": "draughts-1k"})[0] for _ in range(5)]
        st, body = call(base, "POST", "/api/games", {"engine": "draughts-1k"})
        print(f"--max-games 4: answers {codes + [st]}; {body['error']}")
        assert codes == [201, 201, 201, 201, 503], codes
    finally:
        p.terminate()
        p.wait()


if __name__ == "__main__":
    main()
