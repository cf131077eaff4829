"""Plays retrochess's engines inside PicoChess, through PicoChess's own web page.

Run by scripts/picochess-proof (which installs the engines and says what the
environment variables mean); needs python-chess (PicoChess's own venv has it),
chromium and chromedriver.

Usage: picochess_proof.py PICOCHESS_DIR PICOCHESS_PYTHON OUT SCREENSHOT

Steps (each failure is counted and named; exit status 1 if any):
 1. start PicoChess web-only (board-type noeboard) with a picochess.ini
    written into PICOCHESS_DIR, its web server bound to 127.0.0.1 (Tornado's
    bind_sockets wrapped before picochess.py runs), and check from
    /proc/net/tcp* that its port listens on loopback only;
 2. open its page in headless Chromium (raw WebDriver, tests/peers/browser.py);
 3. for each retro engine: choose it at the level under test with the request
    the page's engine menu sends, start a new game as the page's New Game
    does, and play the person's side (White) by dragging pieces on the
    page's board (a promotion picks its piece in the page's dialog), moves
    chosen through python-chess (class Person), until the page shows a
    result;
 4. one more game against 1k-zx-chess at Level@02, PicoChess's default
    level (the original machine's thinking time);
 5. the illegal-move line of issue 42 against chesskelet-lite: its 25 White
    moves dragged in turn; the engine must answer each as in the line, then
    play c2c1 unpromoted, which the arbiter refuses (the engine's log must
    say so): with the shipped .uci (IllegalMoves = resign, Analysis = false)
    PicoChess must end the game 1-0, and then a new game must start and be
    played to a result;
 6. a screenshot of the page during the first game (SCREENSHOT).

Every engine move the page shows must be a legal reply (python-chess); a
result must agree with the board when the board decides it (mate, stalemate,
insufficient material) and with PicoChess's own PGN header.
"""

import os
import random
import subprocess
import sys
import tempfile
import shutil
import signal
import time
import urllib.request

import chess

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "peers"))
from browser import WebDriver, free_port  # noqa: E402  (the repo's own WebDriver client)

ENGINES = ["1k-zx-chess", "1k-zx-chess-kp", "chesskelet", "chesskelet-lite", "chesskelet-published"]
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
# Issue 42: ChesSkelet's minimal build answers 25.Bxh8 with c2c1, unpromoted.
ILLEGAL_LINE = ("Nf3 e6 Nh4 Bb4 Nf3 Bd6 d3 Bb4+ Qd2 Bxd2+ Nfxd2 d6 d4 e5 f4 exd4 Nc4 d5 g3 dxc4 "
                "a4 c6 Kd1 c5 a5 b6 b4 cxb4 a6 b5 Nd2 Qb6 Ra2 c3 f5 cxd2 Kxd2 Bxf5 Ke1 Be4 "
                "Bh6 Bxh1 Bxg7 Qc5 Kf2 d3+ e3 dxc2 Bxh8").split()
MOVE_WAIT = float(os.environ.get("MOVE_WAIT", "120"))


class Failed(Exception):
    pass


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


PICOCHESS_INI = """\
### Written by retrochess's scripts/picochess-proof for a web-only run.
board-type = noeboard
web-server = {port}
engine = {engine}
engine-level = {level}
time = {time}
def-timectrl = {time}
log-file = picochess.log
log-level = debug
pgn-file = retrochess-proof.pgn
pgn-user = Person
location = retrochess proof
tutor-engine = {tutor}
tutor-watcher = False
tutor-coach = off
tutor-explorer = False
tutor-comment = off
continue-game = False
disable-confirm-message = True
beep-config = none
theme = light
web-board-theme = blue
web-speech-local = False
web-speech-remote = False
rdisplay = False
rsound = False
"""

# Tornado's listen() binds every interface; this binds 127.0.0.1 only, then
# runs picochess.py unchanged as __main__.
LOOPBACK = """\
import runpy, sys
import tornado.netutil, tornado.tcpserver
_bind = tornado.netutil.bind_sockets
def bind_loopback(port, address=None, *args, **kwargs):
    return _bind(port, "127.0.0.1", *args, **kwargs)
tornado.netutil.bind_sockets = bind_loopback
tornado.tcpserver.bind_sockets = bind_loopback
sys.argv = ["picochess.py"]
runpy.run_path("picochess.py", run_name="__main__")
"""


def listening(port):
    """The local addresses listening on `port` (from /proc/net/tcp and tcp6)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            addr, hexport = cols[1].split(":")
            if int(hexport, 16) == port and cols[3] == "0A":
                found.append(addr)
    return found


class PicoChess:
    def __init__(self, directory, python, out, port, engine_file, level, time_control):
        self.dir, self.python, self.out, self.port = directory, python, out, port
        tutor = shutil.which("stockfish") or "/usr/games/stockfish"
        with open(os.path.join(directory, "picochess.ini"), "w") as f:
            f.write(PICOCHESS_INI.format(port=port, engine=engine_file, level=level,
                                         time=time_control, tutor=tutor))
        self.stdout = open(os.path.join(out, "picochess.stdout"), "w")
        self.proc = subprocess.Popen([python, "-c", LOOPBACK], cwd=directory,
                                     stdout=self.stdout, stderr=subprocess.STDOUT)

    def wait_up(self, timeout=180):
        end = time.time() + timeout
        while time.time() < end:
            if self.proc.poll() is not None:
                raise Failed(f"PicoChess exited with {self.proc.returncode} (see {self.out}/picochess.stdout)")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=5) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.5)
        raise Failed("PicoChess's web server did not answer")

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stdout.close()


class Page:
    """PicoChess's page, as a person uses it."""

    def __init__(self, wd, url):
        self.wd, self.url = wd, url

    def open(self):
        self.wd.s("POST", "/url", {"url": self.url})
        self.wait_for("return typeof chessground1 !== 'undefined' && document.querySelector('.cg-board') !== null",
                      "the board", 60)

    def wait_for(self, script, what, timeout):
        end = time.time() + timeout
        while time.time() < end:
            v = self.wd.js(script)
            if v:
                return v
            time.sleep(0.2)
        raise Failed(f"timed out after {timeout:.0f} s waiting for {what}")

    def post(self, body):
        """A request to /channel, as the page's own menu and buttons send it."""
        status = self.wd.js_async("""
            const done = arguments[arguments.length - 1];
            fetch('/channel', {method: 'POST',
                headers: {'Content-Type': 'application/x-www-form-urlencoded'},
                body: arguments[0]}).then(r => done(r.status), e => done(String(e)));""", body)
        if status != 200:
            raise Failed(f"/channel {body}: {status}")

    def state(self):
        """The position and result the page shows."""
        return self.wd.js("""
            const fen = (typeof currentPosition !== 'undefined' && currentPosition && currentPosition.fen)
                || chessground1.getFen();
            const result = (typeof gameHistory !== 'undefined' && gameHistory && gameHistory.result) || '';
            return [fen, result, chessground1.state.orientation];""")

    def headers(self):
        return self.wd.js_async("""
            const done = arguments[arguments.length - 1];
            fetch('/info?action=get_headers').then(r => r.json()).then(done, e => done(null));""")

    def square_xy(self, square, orientation):
        rect = self.wd.js("const r = document.querySelector('.cg-board').getBoundingClientRect();"
                          "return [r.left, r.top, r.width, r.height];")
        left, top, width, height = rect
        f, r = chess.square_file(square), chess.square_rank(square)
        if orientation == "black":
            f, r = 7 - f, 7 - r
        return int(left + (f + 0.5) * width / 8), int(top + (7 - r + 0.5) * height / 8)

    def drag(self, move, orientation):
        (x1, y1), (x2, y2) = self.square_xy(move.from_square, orientation), self.square_xy(move.to_square, orientation)
        self.wd.s("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x1, "y": y1},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "duration": 60, "origin": "viewport", "x": (x1 + x2) // 2, "y": (y1 + y2) // 2},
                {"type": "pointerMove", "duration": 60, "origin": "viewport", "x": x2, "y": y2},
                {"type": "pointerUp", "button": 0},
            ]}]})
        self.wd.s("DELETE", "/actions")
        if move.promotion:
            self.wait_for("return document.querySelector('.promotion-overlay square') !== null",
                          "the promotion dialog", 10)
            letter = chess.piece_symbol(move.promotion)
            self.wd.click(f".promotion-overlay square[onclick=\"pickPromotion('{letter}')\"]")


class Person:
    """Chooses the person's moves: Stockfish (through python-chess) at a
    shallow depth when PERSON is `stockfish` (the default where it is
    installed: the games end sooner), else `random`: mate in one, else the
    most valuable capture, else a seeded random legal move."""

    def __init__(self, kind, seed):
        self.rng = random.Random(seed)
        self.engine = None
        if kind == "stockfish":
            import chess.engine
            self.engine = chess.engine.SimpleEngine.popen_uci(shutil.which("stockfish") or "/usr/games/stockfish")
            self.engine.configure({"Threads": 1, "Hash": 16})

    def choose(self, board):
        if self.engine is not None:
            import chess.engine
            return self.engine.play(board, chess.engine.Limit(depth=int(os.environ.get("PERSON_DEPTH", "4")))).move
        return pick(board, self.rng)

    def close(self):
        if self.engine is not None:
            self.engine.quit()


def pick(board, rng):
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    for m in moves:
        board.push(m)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return m
    caps = [m for m in moves if board.is_capture(m) and board.piece_at(m.to_square)]
    if caps:
        best = max(VALUE[board.piece_at(m.to_square).piece_type] for m in caps)
        return rng.choice([m for m in caps if VALUE[board.piece_at(m.to_square).piece_type] == best])
    return rng.choice(moves)


def board_fen(fen):
    return fen.split()[0]


def reply_to(board, fen):
    """The legal move that turns `board` into the page's `fen`, if any."""
    for m in board.legal_moves:
        board.push(m)
        same = board.board_fen() == board_fen(fen)
        board.pop()
        if same:
            return m
    return None


def reasons(engine_dir, engine):
    """The engine's words on the moves it played and the arbiter refused,
    from its launcher's log (PicoChess shows no info string)."""
    try:
        with open(os.path.join(engine_dir, "log", engine + ".log")) as f:
            return [l.split("info string ", 1)[1].strip() for l in f if "info string illegal move" in l]
    except OSError:
        return []


def describe(engine_dir, engine, result, board, why, before):
    """The game's end; `before`: how many refusals the log held before it."""
    if board.outcome() is not None:
        return f"{result} after {len(board.move_stack)} plies ({board.outcome().termination.name.lower()} on the board)"
    said = reasons(engine_dir, engine)[before:]
    return (f"{result} after {len(board.move_stack)} plies ({why}"
            + (f"; the engine's log: {said[-1]!r}" if said else "") + ")")


def check_result(engine, result, board, headers):
    outcome = board.outcome()
    if outcome is not None and outcome.result() != result:
        raise Failed(f"{engine}: the page says {result}, the board {outcome.result()} ({outcome.termination.name})")
    if headers.get("Result") != result:
        raise Failed(f"{engine}: the page says {result}, PicoChess's PGN header {headers.get('Result')}")


def choose_engine(page, engine_dir, engine, level):
    page.post(f"action=new_engine&file={engine_dir}/{engine}&level={level}")
    time.sleep(2)


def new_game(page):
    page.post("action=new_game")
    page.wait_for("return (typeof currentPosition === 'undefined' || !currentPosition || "
                  f"currentPosition.fen.split(' ')[0] === '{chess.STARTING_BOARD_FEN}') && "
                  "(typeof gameHistory === 'undefined' || !gameHistory.result || gameHistory.result === '*')",
                  "a new game", 60)
    time.sleep(1)


def play(page, engine, person, scripted=None, shot=None):
    """Plays one game as White through the page; returns (result, moves, why)."""
    board = chess.Board()
    plies = 0
    while True:
        fen, result, orientation = page.state()
        if result and result != "*":
            return result, board, "result shown"
        if board.is_game_over():
            # PicoChess should show the result: wait for it.
            fen, result, _ = page.wait_for_result()
            return result, board, "game over on the board"
        if board.turn == chess.WHITE:
            if scripted is not None:
                if plies >= len(scripted):
                    move = None
                else:
                    move = board.parse_san(scripted[plies])
            else:
                move = person.choose(board)
            if move is None:
                raise Failed(f"{engine}: the scripted line ran out without a result")
            page.drag(move, orientation)
            board.push(move)
            plies += 1
            want = board.board_fen()
            page.wait_for(f"return chessground1.getFen() === '{want}' || "
                          "(typeof gameHistory !== 'undefined' && gameHistory.result && gameHistory.result !== '*')",
                          f"{engine}: the person's move {move.uci()} on the board", 30)
        else:
            end = time.time() + MOVE_WAIT
            while True:
                fen, result, _ = page.state()
                cg = page.wd.js("return chessground1.getFen();")
                if cg != board.board_fen():
                    m = reply_to(board, cg + " w")
                    if m is None:
                        raise Failed(f"{engine}: the page shows {cg}, no legal reply after "
                                     f"{' '.join(x.uci() for x in board.move_stack)}")
                    if scripted is not None and plies < len(scripted) and board.san(m) != scripted[plies]:
                        raise Failed(f"{engine}: answered {board.san(m)} where the line has {scripted[plies]}")
                    board.push(m)
                    plies += 1
                    if shot and plies == 20:
                        time.sleep(1.5)  # the move list and clock catch up
                        page.wd.screenshot(shot)
                    break
                if result and result != "*":
                    return result, board, "result shown"
                if not page.alive():
                    raise Failed("PicoChess died")
                if time.time() > end:
                    raise Failed(f"{engine}: no reply and no result within {MOVE_WAIT:.0f} s after "
                                 f"{' '.join(x.uci() for x in board.move_stack)} (wedged?)")
                time.sleep(0.2)


def main():
    directory, python, out, shot = sys.argv[1:5]
    arch = os.uname().machine
    engine_dir = os.path.join(directory, "engines", arch, "retrochess")
    level = os.environ.get("LEVEL", "Level@00")
    time_control = os.environ.get("TIME_CONTROL", "10 0")
    games = int(os.environ.get("GAMES", "1"))
    default_person = "stockfish" if (shutil.which("stockfish") or os.path.exists("/usr/games/stockfish")) else "random"
    person = Person(os.environ.get("PERSON", default_person), int(os.environ.get("PERSON_SEED", "1")))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    port = free_port()
    if os.path.exists(shot):
        os.remove(shot)
    failures, summary = [], []
    started = time.time()
    pico = PicoChess(directory, python, out, port, os.path.join(engine_dir, ENGINES[0]), level, time_control)
    driver = subprocess.Popen([shutil.which("chromedriver") or "/usr/bin/chromedriver", f"--port={free_port()}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wd = None
    profile = tempfile.mkdtemp(prefix="picochess-proof-chromium-")
    try:
        pico.wait_up()
        addrs = listening(port)
        wild = [a for a in addrs if a not in ("0100007F", "00000000000000000000000001000000")]
        log(f"PicoChess up on 127.0.0.1:{port}; listening addresses {addrs}")
        if not addrs or wild:
            raise Failed(f"PicoChess's port {port} listens on {addrs}, not loopback only")
        wd = WebDriver(driver.args[1].split("=")[1])
        for _ in range(100):
            try:
                if wd.call("GET", "/status").get("ready"):
                    break
            except Exception:
                pass
            time.sleep(0.1)
        wd.start(profile)
        page = Page(wd, f"http://127.0.0.1:{port}/")
        page.alive = pico.alive
        page.wait_for_result = lambda: page.wait_for(
            "const r = typeof gameHistory !== 'undefined' && gameHistory.result;"
            "return r && r !== '*' ? [chessground1.getFen(), r, ''] : null;", "the result", 60)
        page.open()
        for engine in ENGINES:
            for n in range(games):
                t0 = time.time()
                try:
                    choose_engine(page, engine_dir, engine, level)
                    new_game(page)
                    before = len(reasons(engine_dir, engine))
                    result, board, why = play(page, engine, person,
                                              shot=shot if engine == ENGINES[0] and n == 0 else None)
                    headers = page.headers() or {}
                    check_result(engine, result, board, headers)
                    line = (f"{engine} game {n + 1} ({level}): {describe(engine_dir, engine, result, board, why, before)}; "
                            f"PicoChess's PGN: Result {headers.get('Result')}, Black {headers.get('Black')!r}; "
                            f"{time.time() - t0:.0f} s")
                    if result not in ("1-0", "0-1", "1/2-1/2"):
                        raise Failed(line)
                    summary.append(line)
                    log(line)
                except Failed as e:
                    failures.append(str(e))
                    log(f"FAILED {e}")
        # PicoChess's default level: the original machine's thinking time.
        if os.environ.get("DEFAULT_LEVEL_GAME", "1") == "1":
            t0 = time.time()
            try:
                choose_engine(page, engine_dir, ENGINES[0], "Level@02")
                new_game(page)
                before = len(reasons(engine_dir, ENGINES[0]))
                result, board, why = play(page, ENGINES[0], person)
                check_result(ENGINES[0], result, board, page.headers() or {})
                line = (f"{ENGINES[0]} (Level@02, authentic timing): "
                        f"{describe(engine_dir, ENGINES[0], result, board, why, before)}; {time.time() - t0:.0f} s")
                summary.append(line)
                log(line)
            except Failed as e:
                failures.append(str(e))
                log(f"FAILED {e}")
        # The illegal-move line.
        t0 = time.time()
        try:
            choose_engine(page, engine_dir, "chesskelet-lite", level)
            new_game(page)
            before = len(reasons(engine_dir, "chesskelet-lite"))
            result, board, why = play(page, "chesskelet-lite", person, scripted=ILLEGAL_LINE)
            if len(board.move_stack) != len(ILLEGAL_LINE) or result != "1-0":
                raise Failed(f"illegal-move line: {result} after {len(board.move_stack)} plies, "
                             f"expected 1-0 after {len(ILLEGAL_LINE)} (the engine's c2c1 refused)")
            check_result("chesskelet-lite", result, board, page.headers() or {})
            said = (reasons(engine_dir, "chesskelet-lite")[before:] or [""])[-1]
            if not said.startswith("illegal move c2c1"):
                raise Failed(f"illegal-move line: the engine's log does not refuse c2c1: {said!r}")
            line = (f"illegal-move line: after 25.Bxh8 PicoChess ended the game {result} "
                    f"(the engine's log: {said!r}); {time.time() - t0:.0f} s")
            summary.append(line)
            log(line)
            t0 = time.time()
            new_game(page)
            before = len(reasons(engine_dir, "chesskelet-lite"))
            result, board, why = play(page, "chesskelet-lite", person)
            check_result("chesskelet-lite", result, board, page.headers() or {})
            line = (f"the next game, New Game after it: {describe(engine_dir, 'chesskelet-lite', result, board, why, before)}; "
                    f"{time.time() - t0:.0f} s: PicoChess kept working")
            summary.append(line)
            log(line)
        except Failed as e:
            failures.append(str(e))
            log(f"FAILED {e}")
        if not pico.alive():
            failures.append("PicoChess is not running at the end")
        if os.path.exists(shot):
            summary.append(f"screenshot of a game in PicoChess's page: {shot}")
        else:
            failures.append(f"no screenshot in {shot}")
    except Failed as e:
        failures.append(str(e))
    finally:
        if wd is not None and wd.session:
            try:
                wd.call("DELETE", f"/session/{wd.session}")
            except BaseException:
                pass
        driver.terminate()
        driver.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)
        pico.stop()
        person.close()
    print("\n== PicoChess proof summary ==")
    for line in summary:
        print("ok   " + line)
    for line in failures:
        print("FAIL " + line)
    print(f"{len(summary)} passed, {len(failures)} failed, {time.time() - started:.0f} s; "
          f"logs in {out}, PicoChess's in {directory}/logs/picochess.log, the engines' in {engine_dir}/log/")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
