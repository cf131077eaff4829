#!/usr/bin/env python3
"""A UCI engine that misbehaves on purpose, for the match runner's tests.

Usage: misbehaving_uci.py crash|stall|mute|flood|latin1
  crash:  completes the handshake, then exits when asked to move.
  stall:  completes the handshake, then never answers `go`.
  mute:   never answers `uci`.
  flood:  completes the handshake, then answers `go` with endless output
          and no newline.
  latin1: sends Latin-1 bytes (not UTF-8) in `id author` and in an
          `info string`, then plays e2e4 (legal in the initial position
          only).
"""
import sys

mode = sys.argv[1]
out = sys.stdout.buffer


def say(line):
    out.write(line + b"\n")
    out.flush()


for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci" and mode != "mute":
        say(b"id name Misbehaving-" + mode.encode())
        if mode == "latin1":
            say(b"id author Andr\xe9")
        say(b"uciok")
    elif cmd[0] == "isready" and mode != "mute":
        say(b"readyok")
    elif cmd[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "flood":
            try:
                while True:
                    out.write(b"x" * 65536)
            except BrokenPipeError:
                sys.exit(0)
        if mode == "latin1":
            say(b"info string caf\xe9")
            say(b"bestmove e2e4")
        # stall: say nothing
    elif cmd[0] == "quit":
        break
