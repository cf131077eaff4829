#!/usr/bin/env python3
"""A Hub (draughts) engine that misbehaves on purpose, for the match
runner's tests.

Usage: misbehaving_hub.py crash|stall|mute|flood|nomove|refuse|unreadable|illegal|unflagged
  crash:      completes the handshake, then exits when asked to move.
  stall:      completes the handshake, then never answers `go`.
  mute:       never answers `hub`.
  flood:      completes the handshake, then answers `go` with endless output
              and no newline.
  nomove:     answers `go` with `done` and no move.
  refuse:     answers `pos` with `error message=...`, then `done` with a
              legal first move of the initial position.
  unreadable: answers `go` with `done move=x9`.
  illegal:    answers `go` with the illegal move 11-14, flagged in an
              `info problem=` line (as `retrochess hub` flags one).
  unflagged:  the same without the flag (for the pydraughts-side check of
              tests/peers/hub_games.py, which must catch it).
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
    if cmd[0] == "hub" and mode != "mute":
        say(b"id name=Misbehaving-" + mode.encode() + b" version=0 author=tests country=?")
        say(b'param name=variant value=english type=enum values="english"')
        say(b"wait")
    elif cmd[0] == "init":
        say(b"ready")
    elif cmd[0] == "ping":
        say(b"pong")
    elif cmd[0] == "pos" and mode == "refuse":
        say(b'error message="not today"')
    elif cmd[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "flood":
            try:
                while True:
                    out.write(b"x" * 65536)
            except BrokenPipeError:
                sys.exit(0)
        if mode == "nomove":
            say(b"done")
        if mode == "refuse":
            say(b"done move=11-15")
        if mode == "unreadable":
            say(b"done move=x9")
        if mode == "illegal":
            say(b'info problem="illegal move 11-14: not a diagonal step"')
        if mode in ("illegal", "unflagged"):
            say(b"done move=11-14")
        # stall: say nothing
    elif cmd[0] == "quit":
        break
