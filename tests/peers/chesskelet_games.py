"""Interop: python-chess plays ChesSkelet (either build) through retrochess.

Usage: chesskelet_games.py RETROCHESS_BINARY uci|xboard ENGINE_ID [GAMES]

The same games as play_games.py (which 1K ZX Chess uses): complete games
with clocks against random legal moves, the engine White in even games and
Black in odd ones, every received move legal or flagged by retrochess
before it arrives. Only the engine selection differs: `--engine ENGINE_ID`.
"""

import logging
import os
import sys

import chess.engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_games import Transcript, play_game  # noqa: E402


def main():
    binary, protocol, engine_id = sys.argv[1], sys.argv[2], sys.argv[3]
    games = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    transcript = Transcript()
    log = logging.getLogger("chess.engine")
    log.setLevel(logging.DEBUG)
    log.addHandler(transcript)
    popen = chess.engine.SimpleEngine.popen_uci if protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
    command = [binary, protocol, "--engine", engine_id]
    engine = popen(command)
    try:
        print("engine:", engine.id.get("name"))
        for game_no in range(games):
            if game_no > 0 and protocol == "xboard":
                engine.quit()
                engine = popen(command)
            print(f"game {game_no}:", play_game(engine, transcript, game_no, protocol), flush=True)
    except Exception:
        print("\n".join(transcript.lines[-80:]))
        raise
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
