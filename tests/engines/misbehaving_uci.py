#!/usr/bin/env python3
"""A UCI engine that misbehaves on purpose, for the match runner's tests.

Usage: misbehaving_uci.py crash|stall|mute
  crash: completes the handshake, then exits when asked to move.
  stall: completes the handshake, then never answers `go`.
  mute:  never answers `uci`.
"""
import sys

mode = sys.argv[1]
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci" and mode != "mute":
        print("id name Misbehaving-" + mode, flush=True)
        print("uciok", flush=True)
    elif cmd[0] == "isready" and mode != "mute":
        print("readyok", flush=True)
    elif cmd[0] == "go":
        if mode == "crash":
            sys.exit(3)
        # stall: say nothing
    elif cmd[0] == "quit":
        break
