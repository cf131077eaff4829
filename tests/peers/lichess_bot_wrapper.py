"""The lichess-bot configurations of adapters/lichess-bot/, driven the way
lichess-bot's engine wrapper drives an engine, through python-chess (the
client lichess-bot uses), for the interop crate (tests/interop/lichess_bot.rs).

Usage: lichess_bot_wrapper.py RETROCHESS CONFIG.yml...

For each configuration, as lichess-bot 2026.8.2.1's lib/engine_wrapper.py does:
the command is the engine path and one `--KEY=VALUE` per `engine_options`
entry (`create_engine`); the engine is opened with `popen_uci` or
`popen_xboard` (`protocol`) and given the `uci_options`/`xboard_options`
with `configure`, which must accept every one. Then:
- `Seed`: python-chess refuses `random` for the spin option (why the configs
  pass `--option=Seed=random` on the command line instead); two engines
  started from the configuration each say a seed at the game's start, and
  the seeds differ;
- a move at a lichess clock (`Limit(white_clock=..., black_clock=...)`, as
  `game_clock_time` asks) is a legal move;
- the replies that are not legal moves, in the position where Black's one
  legal move is d4xe3 en passant: ChesSkelet's king move into check and 1K
  ZX Chess's dead end, under the configuration's `IllegalMoves` and, for
  ChesSkelet, the other setting too. What python-chess hands lichess-bot
  decides what it does (lib/engine_wrapper.py `play_move`): an
  `EngineError` carrying `chess.IllegalMoveError` ends the game at once
  (resign or abort); `resigned` resigns; a move is posted, the null move
  `0000` too (lichess refuses it);
- the greetings fit lichess's 140 characters with a 20-letter bot name.

Prints one line a case, `CONFIG ENGINE CASE: what python-chess returned`;
exits non-zero with the reason if anything differs from the above.

The configurations are read with a reader for their own simple shape (two
levels of `key: value` under `engine:`, comments after `#`), not a YAML
library, which the test environment does not have.
"""

import logging
import os
import sys

import chess
import chess.engine
from play_games import Transcript  # python-chess's debug log of the engine's lines ("> LINE")

CRAFTED = "7k/8/5N2/8/3pP3/3P4/8/4K1R1 b - e3 0 2"


def fail(text):
    sys.stderr.write(f"lichess_bot_wrapper.py: {text}\n")
    sys.exit(1)


def scalar(text):
    text = text.split(" #", 1)[0].strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    return {"true": True, "false": False}.get(text, text)


def greetings(path):
    """The greeting: section's messages."""
    out, inside = {}, False
    for line in open(path):
        if not line.startswith(" "):
            inside = line.startswith("greeting:")
        elif inside and ":" in line:
            key, _, value = line.strip().partition(":")
            out[key] = scalar(value)
    return out


def read_config(path):
    """engine: its scalars, and the scalars of its sub-sections (engine_options, uci_options...)."""
    engine, section, in_engine = {}, None, False
    for raw in open(path):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        key, _, value = line.strip().partition(":")
        if indent == 0:
            in_engine = key == "engine"
            continue
        if not in_engine:
            continue
        if indent == 2:
            section = None
            if scalar(value) == "":
                section = engine.setdefault(key, {})
            else:
                engine[key] = scalar(value)
        elif indent == 4 and section is not None and scalar(value) != "":
            section[key] = scalar(value)
    return engine


def command(binary, config, **overrides):
    """As lichess-bot's create_engine: the path, then --KEY=VALUE per engine_options entry."""
    opts = dict(config.get("engine_options", {}), **overrides)
    return [binary] + [f"--{k}={v}" for k, v in opts.items()]


def popen(engine, cmd):
    if engine["protocol"] == "uci":
        return chess.engine.SimpleEngine.popen_uci(cmd, timeout=60)
    if engine["protocol"] == "xboard":
        return chess.engine.SimpleEngine.popen_xboard(cmd, timeout=60)
    fail(f"protocol {engine['protocol']!r}")


def seeds_said(lines):
    out = []
    for line in lines:
        for prefix in ("> info string seed ", "> # seed "):
            if line.startswith(prefix):
                out.append(int(line[len(prefix):]))
    return out


def play(eng, board, options):
    """engine.play as lichess-bot's search calls it (info=INFO_ALL), at a lichess clock."""
    eng.configure(options)
    # 10 s each: AuthenticTiming waits at most a 20th of it.
    limit = chess.engine.Limit(white_clock=10, black_clock=10, white_inc=0, black_inc=0)
    return eng.play(board, limit, info=chess.engine.INFO_ALL)


def outcome(name, result):
    return (f"{name}: move={result.move} resigned={result.resigned}" if not isinstance(result, Exception)
            else f"{name}: {type(result).__name__} args={[type(a).__name__ for a in result.args]} {result}")


def attempt(eng, board, options):
    try:
        return play(eng, board, options)
    except chess.engine.EngineError as e:
        return e


def lichess_bot_ends_at_once(result):
    """What lichess-bot's play_move does at once: resign/abort on IllegalMoveError, or resign."""
    if isinstance(result, chess.engine.EngineError):
        return any(isinstance(e, (chess.IllegalMoveError, chess.InvalidMoveError)) for e in result.args)
    return bool(result.resigned)


def check(binary, path):
    engine = read_config(path)
    name = os.path.basename(path)
    protocol = engine["protocol"]
    options = dict(engine.get(f"{protocol}_options", {}))
    program = engine["engine_options"]["engine"]
    # lichess refuses chat messages over 140 characters (lib/lichess.py MAX_CHAT_MESSAGE_LEN); names have up to 20.
    for key, text in greetings(path).items():
        if len(text.replace("{me}", "x" * 20).replace("{opponent}", "x" * 20)) > 140:
            fail(f"{name}: greeting {key} is over 140 characters with a 20-letter name: {text!r}")
    lines = Transcript()
    logging.getLogger("chess.engine").addHandler(lines)
    logging.getLogger("chess.engine").setLevel(logging.DEBUG)

    # Seed: refused by python-chess as an option value; said at each game's start from the command line.
    seeds = []
    for _ in range(2):
        lines.lines.clear()
        with popen(engine, command(binary, engine)) as eng:
            try:
                eng.configure({"Seed": "random"})
                fail(f"{name}: python-chess accepted Seed=random (the configs need not pass it on the command line)")
            except chess.engine.EngineError:
                pass
            board = chess.Board()
            board.push_uci("e2e4")
            result = play(eng, board, options)  # every option of the configuration must be accepted
            if result.move is None or result.move not in board.legal_moves:
                fail(f"{name}: {result.move} after 1. e4 is not a legal move")
            seeds += seeds_said(lines.lines)
            print(f"{name} {program} move after 1. e4: {result.move}")
    if len(seeds) != 2 or seeds[0] == seeds[1]:
        fail(f"{name}: two games should say two different seeds, said {seeds}")
    print(f"{name} {program} seeds: {seeds[0]} {seeds[1]}")

    # The replies that are not legal moves, in the crafted position.
    board = chess.Board(CRAFTED)
    policy = options.get("IllegalMoves")
    other = {"play": "resign", "resign": "play"}[policy]
    skeleton = {k: v for k, v in options.items() if k not in ("Opening", "Frames")}  # ChesSkelet declares neither
    skel = program if program.startswith("chesskelet") else "chesskelet"  # both builds play h8g7 here
    cases = [("1k-zx-chess", "dead-end", options), (skel, f"illegal-{policy}", skeleton),
             (skel, f"illegal-{other}", dict(skeleton, IllegalMoves=other))]
    for prog, case, opts in cases:
        if prog == "1k-zx-chess" and program != "1k-zx-chess":
            opts = {k: v for k, v in opts.items() if k not in ("Opening", "Frames")}
        with popen(engine, command(binary, engine, engine=prog)) as eng:
            result = attempt(eng, board.copy(), opts)
        print(f"{name} {outcome(f'{prog} {case}', result)}")
        if case == "dead-end":
            # UCI: the null move, which lichess-bot posts and lichess refuses; CECP: a resignation.
            ok = (result.move == chess.Move.null() and not result.resigned) if protocol == "uci" else \
                (not isinstance(result, Exception) and result.resigned)
        elif case.endswith("play"):
            ok = isinstance(result, chess.engine.EngineError) and lichess_bot_ends_at_once(result)
        else:  # resign
            ok = (not isinstance(result, Exception) and result.move == chess.Move.null()) if protocol == "uci" else \
                (not isinstance(result, Exception) and result.resigned)
        if not ok:
            fail(f"{name}: {prog} {case}: unexpected {outcome(case, result)}")
        if case == f"illegal-{policy}" and not lichess_bot_ends_at_once(result):
            fail(f"{name}: the configured IllegalMoves={policy} does not end the game at once in lichess-bot")
    logging.getLogger("chess.engine").removeHandler(lines)


def main():
    if len(sys.argv) < 3:
        fail("usage: lichess_bot_wrapper.py RETROCHESS CONFIG.yml...")
    for path in sys.argv[2:]:
        check(sys.argv[1], path)


if __name__ == "__main__":
    main()
