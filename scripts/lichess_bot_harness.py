#!/usr/bin/env python3
"""Whole lichess games, offline: lichess-bot's own game loop with a retro engine as the bot.

Ours (retrochess); run by scripts/lichess-bot-harness.sh, kept out of CI. It
needs the lichess-bot source (lichess-bot-devs/lichess-bot, not in this
repository) and runs inside it, with lichess-bot's Python dependencies.

lichess-bot's tests replace lichess.org by `test_bot/lichess.py`, a stand-in
whose game stream plays a fixed four-move line at one fixed clock. We keep
that stand-in (its `Lichess` class: profile, event stream, challenge and chat
calls) and extend it, here, into what the bot meets on the real server:

- the game stream (`gameFull`, then a `gameState` after every move) carries
  the clock of the time control asked for, the variant (`standard`, or
  `fromPosition` with its `initialFen`) and the bot's colour;
- the server judges every move it is sent, as lichess does: an illegal move
  or `0000` is refused with HTTP 400 and a JSON error, and the bot's clock
  runs on;
- `resign` and `abort` end the game (`resign`/`aborted`), a clock that runs
  out ends it (`outoftime`), and mate, stalemate, insufficient material,
  threefold repetition and the fifty-move rule end it as python-chess's
  `outcome(claim_draw=True)` says;
- the opponent is Debian's Stockfish (`/usr/games/stockfish`, Skill Level 0,
  50 ms a move), its thinking time taken off its clock;
- each side's first move is not timed, as on lichess; after it, the time
  from the server's state to the move it receives comes off the mover's
  clock, then the increment goes on.

Each game runs `lib.lichess_bot.start(..., one_game=True)` exactly as
lichess-bot's `test_bot/test_bot.py` does, with the configuration file given
(validated by lichess-bot's own `load_config`). The log of each game is
lichess-bot's own log file (`--log-prefix`); one JSON line a game is
appended to `--results`; lichess-bot's console goes to stdout.
"""
from __future__ import annotations

import argparse
import datetime
import json
import logging
import multiprocessing
import os
import queue
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Generator
from typing import Any

import chess
import chess.engine
import requests
import yaml

LICHESS_BOT = os.environ["LICHESS_BOT_DIR"]  # set by scripts/lichess-bot-harness.sh
CALLER = os.getcwd()  # paths on the command line are the caller's
sys.path.insert(0, LICHESS_BOT)
os.chdir(LICHESS_BOT)

import test_bot.lichess as stand_in  # noqa: E402  (lichess-bot's stand-in for the server)
from lib import config as lb_config  # noqa: E402
from lib import lichess as lb_lichess  # noqa: E402
from lib import lichess_bot  # noqa: E402
from lib import timer as lb_timer  # noqa: E402

GAME_ID = "zzzzzzzz"
BOT = "b"  # the stand-in's profile name for the bot
OPPONENT = "sf"
STOCKFISH = "/usr/games/stockfish"


class ServerSession:
    """The HTTP session lichess-bot's own client (lib/lichess.py) posts through: moves, resignations
    and aborts go to the server thread, which answers as lichess does (200 `{"ok": true}`, or 400
    and a JSON error for a move it refuses)."""

    def __init__(self, moves: queue.Queue[str], verdicts: queue.Queue[str]) -> None:
        self.moves = moves
        self.verdicts = verdicts

    def post(self, url: str, **kwargs: Any) -> requests.models.Response:
        path = url.split("/api/bot/game/", 1)[-1].split("/")  # GAME/move/MOVE, GAME/resign, GAME/abort
        self.moves.put(path[2] if path[1] == "move" else path[1])
        error = self.verdicts.get()
        response = requests.models.Response()
        response.status_code = 400 if error else 200
        response._content = json.dumps({"error": error} if error else {"ok": True}).encode()
        response.url = url
        response.reason = "Bad Request" if error else "OK"
        return response


class GameStream(requests.models.Response):
    """`gameFull` with the game as it stands (`now`), then each `gameState` the server puts on
    `states`; a game already over is `gameFull` alone, as lichess streams it."""

    def __init__(self, full: dict[str, Any], now: dict[str, Any], states: queue.Queue[dict[str, Any]]) -> None:
        self.full = full
        self.now = now
        self.states = states

    def iter_lines(self, chunk_size: int | None = 512, decode_unicode: bool = False,
                   delimiter: str | bytes | None = None) -> Generator[bytes, None, None]:
        state = dict(self.now.get("state", self.full["state"]))
        self.now["opened"] = True
        yield json.dumps(dict(self.full, state=state)).encode()
        if state["status"] != "started":
            return
        while True:
            try:
                state = self.states.get(timeout=5)
            except queue.Empty:
                yield b""  # lichess's keep-alive newline
                continue
            self.states.task_done()
            yield json.dumps(state).encode()
            if state["status"] != "started":
                break

    def __enter__(self) -> GameStream:  # noqa: PYI034
        return self

    def __exit__(self, *args: object) -> None:
        pass


class Lichess(stand_in.Lichess):
    """lichess-bot's stand-in, with the game stream above, and moves, resignations and aborts
    posted by lichess-bot's own client code (lib/lichess.py's `make_move`, `resign`, `abort`,
    `api_post` with its retry rules) to the server thread."""

    make_move = lb_lichess.Lichess.make_move
    resign = lb_lichess.Lichess.resign
    abort = lb_lichess.Lichess.abort

    def __init__(self, full: dict[str, Any], now: dict[str, Any], moves: queue.Queue[str],
                 verdicts: queue.Queue[str], states: queue.Queue[dict[str, Any]]) -> None:
        super().__init__(moves, states, states)  # type: ignore[arg-type]
        self.full = full
        self.now = now
        self.states = states
        self.baseUrl = "https://lichess.org/"
        self.session = ServerSession(moves, verdicts)  # type: ignore[assignment]
        self.logging_level = logging.DEBUG
        self.rate_limit_timers = defaultdict(lb_timer.Timer)

    def get_game_stream(self, game_id: str) -> GameStream:  # type: ignore[override]
        return GameStream(self.full, self.now, self.states)

    def get_game_pgn(self, game_id: str) -> str:
        return ""


class Server:
    """The game on the server: board, clocks, the opponent, the verdicts."""

    def __init__(self, args: argparse.Namespace, bot_white: bool, moves: queue.Queue[str],
                 verdicts: queue.Queue[str], states: queue.Queue[dict[str, Any]], now: dict[str, Any]) -> None:
        self.now = now
        self.board = chess.Board(args.fen) if args.fen else chess.Board()
        self.bot = chess.WHITE if bot_white else chess.BLACK
        self.base = args.base
        self.inc = args.inc
        self.clock = {chess.WHITE: args.base, chess.BLACK: args.base}
        if args.bot_time is not None:
            self.clock[self.bot] = args.bot_time
        self.moves = moves
        self.verdicts = verdicts
        self.states = states
        self.moved = {chess.WHITE: False, chess.BLACK: False}
        self.refusals: list[str] = []
        self.late: list[str] = []
        for uci in args.premoves.split() if args.premoves else []:
            self.board.push_uci(uci)  # a game already under way when lichess-bot joins it
            self.moved[not self.board.turn] = True
        self.result: dict[str, Any] = {}
        self.sf = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
        self.sf.configure({"Skill Level": 0, "Threads": 1, "Hash": 16})
        self.variant = "fromPosition" if args.fen else "standard"

    def full(self) -> dict[str, Any]:
        speed = speed_of(self.base, self.inc)
        white, black = (BOT, OPPONENT) if self.bot == chess.WHITE else (OPPONENT, BOT)
        player = {BOT: {"id": BOT, "name": BOT, "title": "BOT", "rating": 1500},
                  OPPONENT: {"id": OPPONENT, "name": OPPONENT, "title": "BOT", "rating": 1500}}
        variant = ({"key": "fromPosition", "name": "From Position", "short": "FEN"} if self.variant == "fromPosition"
                   else {"key": "standard", "name": "Standard", "short": "Std"})
        return {"id": GAME_ID, "type": "gameFull", "variant": variant,
                "clock": {"initial": int(self.base * 1000), "increment": int(self.inc * 1000)},
                "speed": speed, "perf": {"name": speed.title()}, "rated": False, "createdAt": 1600000000000,
                "white": player[white], "black": player[black],
                "initialFen": self.board.root().fen() if self.variant == "fromPosition" else "startpos",
                "state": self.state("started")}

    def send(self, state: dict[str, Any]) -> None:
        """A state on the game stream, and the game as it now stands."""
        self.now["state"] = state
        self.states.put(state)

    def state(self, status: str, winner: chess.Color | None = None) -> dict[str, Any]:
        s: dict[str, Any] = {"type": "gameState", "moves": " ".join(m.uci() for m in self.board.move_stack),
                             "wtime": max(0, int(self.clock[chess.WHITE] * 1000)),
                             "btime": max(0, int(self.clock[chess.BLACK] * 1000)),
                             "winc": int(self.inc * 1000), "binc": int(self.inc * 1000), "status": status}
        if winner is not None:
            s["winner"] = "white" if winner == chess.WHITE else "black"
        return s

    def end(self, status: str, winner: chess.Color | None, reason: str) -> None:
        self.result = {"status": status, "winner": None if winner is None else chess.COLOR_NAMES[winner],
                       "bot": chess.COLOR_NAMES[self.bot], "reason": reason,
                       "plies": len(self.board.move_stack),
                       "bot_result": "draw" if winner is None else ("win" if winner == self.bot else "loss")}
        self.send(self.state(status, winner))

    def timed(self, side: chess.Color, spent: float) -> bool:
        """Takes `spent` off the mover's clock (not on its first move); False if it ran out."""
        if self.moved[side]:
            self.clock[side] -= spent
            if self.clock[side] <= 0:
                return False
            self.clock[side] += self.inc
        self.moved[side] = True
        return True

    def run(self, done: threading.Event) -> None:
        try:
            self.play()
        except Exception as e:  # noqa: BLE001
            self.end("aborted", None, f"server error: {e!r}")
        finally:
            self.sf.quit()
        # The game is over: whatever lichess-bot still posts is refused, until it has finished.
        while not done.is_set():
            try:
                sent = self.moves.get(timeout=0.2)
            except queue.Empty:
                continue
            self.late.append(sent)
            self.verdicts.put("The game is over")

    def over(self) -> bool:
        """Ends the game if the rules end it (in the state that follows the move, as on lichess)."""
        outcome = self.board.outcome(claim_draw=True)
        if outcome is None:
            return False
        status = "mate" if outcome.termination == chess.Termination.CHECKMATE else (
            "stalemate" if outcome.termination == chess.Termination.STALEMATE else "draw")
        self.end(status, outcome.winner, outcome.termination.name.lower())
        return True

    def moved_to(self, move: chess.Move) -> bool:
        """Plays `move` and sends the new state; True if the game goes on."""
        self.board.push(move)
        if self.over():
            return False
        self.send(self.state("started"))
        return True

    def play(self) -> None:
        if self.over():
            return
        # The clocks start when lichess-bot has the game (a game joined under way: its moves are made).
        while not self.now.get("opened"):
            time.sleep(0.01)
        while True:
            side = self.board.turn
            start = time.monotonic()
            if side != self.bot:
                move = self.sf.play(self.board, chess.engine.Limit(time=0.05)).move
                assert move is not None
                if not self.timed(side, time.monotonic() - start):
                    self.end("outoftime", self.bot, "opponent's clock ran out")
                    return
                if not self.moved_to(move):
                    return
                continue
            # The bot is on move: wait for it, its clock running (the first move: lichess's 30 s to start).
            while True:
                left = self.clock[side] - (time.monotonic() - start) if self.moved[side] else 30.0
                try:
                    sent = self.moves.get(timeout=max(0.0, left))
                except queue.Empty:
                    if self.moved[side]:
                        self.end("outoftime", not self.bot, "bot's clock ran out")
                    else:
                        self.end("aborted", None, "bot made no first move")
                    return
                if sent in ("resign", "abort"):
                    self.verdicts.put("")
                    if sent == "abort" and len(self.board.move_stack) < 2:
                        self.end("aborted", None, "bot aborted")
                    else:
                        self.end("resign", not self.bot, "bot resigned")
                    return
                try:
                    move = chess.Move.from_uci(sent)
                except ValueError:
                    move = chess.Move.null()
                if not move or move not in self.board.legal_moves:
                    self.refusals.append(sent)
                    # Our stand-in's wording; lichess answers 400 with a JSON error too.
                    self.verdicts.put(f"Invalid move: {sent}")
                    continue
                self.verdicts.put("")
                if not self.timed(side, time.monotonic() - start):
                    self.end("outoftime", not self.bot, "bot's clock ran out")
                    return
                if not self.moved_to(move):
                    return
                break


def speed_of(base: float, inc: float) -> str:
    """lichess's speed names, from the estimated game time (base + 40 × increment)."""
    total = base + 40 * inc
    if total < 29:
        return "ultraBullet"
    if total < 179:
        return "bullet"
    if total < 479:
        return "blitz"
    if total < 1499:
        return "rapid"
    return "classical"


def load(args: argparse.Namespace, pgn_dir: str) -> lb_config.Configuration:
    """The configuration file as lichess-bot loads it, with the engine directory and overrides."""
    with open(args.config) as f:
        raw = yaml.safe_load(f)
    raw["token"] = ""
    raw["engine"]["dir"] = os.path.dirname(os.path.abspath(args.retrochess))
    raw["engine"]["name"] = os.path.basename(args.retrochess)
    raw["pgn_directory"] = pgn_dir
    for item in args.set or []:
        path, value = item.split("=", 1)
        keys = path.split(".")
        node = raw
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        if yaml.safe_load(value) is None:
            node.pop(keys[-1], None)  # KEY=~ drops the key
        else:
            node[keys[-1]] = yaml.safe_load(value)
    path = os.path.join(pgn_dir, "config.yml")
    with open(path, "w") as f:
        yaml.safe_dump(raw, f)
    return lb_config.load_config(path)


def play_one(args: argparse.Namespace, number: int) -> dict[str, Any]:
    bot_white = {"white": True, "black": False}.get(args.color, number % 2 == 0)
    # lichess-bot plays the game in a process of its pool: the queues are a manager's, as in its tests.
    manager = multiprocessing.Manager()
    moves: queue.Queue[str] = manager.Queue()
    verdicts: queue.Queue[str] = manager.Queue()
    states: queue.Queue[dict[str, Any]] = manager.Queue()
    with tempfile.TemporaryDirectory() as tmp:
        cfg = load(args, tmp)
        now: dict[str, Any] = manager.dict()  # type: ignore[assignment]
        server = Server(args, bot_white, moves, verdicts, states, now)
        li = Lichess(server.full(), now, moves, verdicts, states)
        log = os.path.abspath(f"{args.log_prefix}-{number}.log")
        if os.path.exists(log):
            os.remove(log)
        done = threading.Event()
        thread = threading.Thread(target=server.run, args=(done,))
        thread.start()
        started = time.monotonic()
        lichess_bot.disable_restart()
        lichess_bot.start(li, li.get_profile(), cfg, logging.DEBUG, log, True, one_game=True)
        done.set()
        thread.join()
        pgns = [os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".pgn")]
        pgn = open(pgns[0]).read() if pgns else ""
    text = open(log).read() if os.path.exists(log) else ""
    lines = text.splitlines()
    # What the engine said about a reply that is not a legal move (its reasons), and what lichess-bot did.
    notes = [line.split(">> ", 1)[1] for line in lines
             if ">> " in line and any(k in line for k in ("illegal move", "dead end", "did not come back", "did not finish", "hung",
                                                            "no move", "IllegalMoves", "tellusererror", "resign"))
             and "NNUE" not in line and "feature" not in line and "option" not in line]
    result = dict(server.result)
    result.update({"game": number, "clock": f"{args.base:g}+{args.inc:g}", "seconds": round(time.monotonic() - started, 1),
                   "refused": server.refusals, "after_end": server.late, "log": log, "pgn_written": bool(pgn),
                   "errors": sum(1 for line in lines if " ERROR " in line or "Traceback" in line),
                   "illegal": sum(1 for line in lines if "Ending game due to bot attempting an illegal move." in line),
                   "engine_notes": notes,
                   "bot_clock_left": round(server.clock[server.bot], 2),
                   "moves": " ".join(m.uci() for m in server.board.move_stack)})
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", required=True, help="our adapters/lichess-bot/*.yml")
    p.add_argument("--retrochess", required=True, help="the retrochess binary")
    p.add_argument("--base", type=float, default=60.0, help="initial clock, seconds")
    p.add_argument("--inc", type=float, default=0.0, help="increment, seconds")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--color", choices=["white", "black", "alternate"], default="alternate")
    p.add_argument("--fen", help="a fromPosition game from this FEN")
    p.add_argument("--premoves", help="moves already played when the bot joins (UCI, space-separated)")
    p.add_argument("--bot-time", type=float, help="the bot's clock at the start, seconds (a crafted low clock)")
    p.add_argument("--set", action="append", help="override a config key: engine.uci_options.IllegalMoves=resign (KEY=~ drops it)")
    p.add_argument("--log-prefix", default="/tmp/lichess-bot-harness", help="lichess-bot's log: PREFIX-N.log")
    p.add_argument("--results", default="/dev/stderr", help="one JSON line a game is appended here")
    args = p.parse_args()
    args.config = os.path.join(CALLER, args.config)
    args.retrochess = os.path.join(CALLER, args.retrochess)
    args.log_prefix = os.path.join(CALLER, args.log_prefix)
    args.results = os.path.join(CALLER, args.results)
    for n in range(1, args.games + 1):
        line = json.dumps(play_one(args, n))
        with open(args.results, "a") as f:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
