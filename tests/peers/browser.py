"""Drives `retrochess serve` in a real Chromium through WebDriver.

Raw WebDriver over HTTP (the W3C protocol chromedriver speaks), so the only
Python package needed is python-chess, which replays the downloaded PGN.

Usage: browser.py URL RETROCHESS_BINARY [SCREENSHOT_DIR]

Steps (each failure exits non-zero with the reason):
 1. start chromedriver and a headless Chromium with a fresh profile;
 2. open the page with ?seed=3, choose 1K ZX Chess, Black, start a new game;
 3. try an illegal move by clicking a7 then a4: the page must refuse it
    and show the arbiter's reason, and the game must not change;
 4. play the game to its end by clicking moves (the first by dragging,
    with authentic thinking time: the answer must not show before the
    original machine's time has passed),
    chosen by a fixed policy (mate in one, else the most valuable capture,
    else the first legal move in UCI order);
 5. after every move the engine answered, the screen picture must differ
    from the one before (after a move that ends the game, the machine is not
    asked and the picture stays), and it must be byte for byte the PNG that `retrochess --seed 3 screen --play
    MOVES --png` makes from the same game (the engine's emulated screen);
 6. download the PGN through the page's link and replay it in python-chess:
    same moves, same result, and the game's end holds on its board.
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import chess
import chess.pgn

SEED = "3"
ENGINE = "1k-zx-chess"
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def fail(why):
    print(f"browser test: {why}", file=sys.stderr)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.load(r)["value"]
        except urllib.error.HTTPError as e:
            fail(f"WebDriver {method} {path}: {e.code} {e.read()[:500]!r}")

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def start(self, profile):
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": shutil.which("chromium") or "/usr/bin/chromium",
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                         "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync",
                         "--disable-dev-shm-usage", f"--user-data-dir={profile}",
                         "--window-size=1400,1000"],
            }}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def js_async(self, script, *args):
        return self.s("POST", "/execute/async", {"script": script, "args": list(args)})

    def find(self, css):
        found = self.s("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(found.values()))

    def click(self, css):
        self.s("POST", f"/element/{self.find(css)}/click", {})

    def drag(self, from_css, to_css):
        a, b = self.find(from_css), self.find(to_css)
        key = "element-6066-11e4-a52e-4f735466cecf"
        self.s("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "origin": {key: a}, "x": 0, "y": 0},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "duration": 100, "origin": {key: b}, "x": 0, "y": 0},
                {"type": "pointerUp", "button": 0},
            ]}]})
        self.s("DELETE", "/actions")

    def screenshot(self, path):
        png = base64.b64decode(self.s("GET", "/screenshot"))
        with open(path, "wb") as f:
            f.write(png)

    def wait(self, script, what, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            v = self.js(script)
            if v:
                return v
            time.sleep(0.1)
        fail(f"timed out waiting for {what}")


def page_state(wd):
    """The game as the page holds it (fetched by the page's own code path)."""
    return wd.js_async("""
        const done = arguments[arguments.length - 1];
        fetch('/api/games/' + sessionStorage.getItem('game')).then(r => r.json()).then(done);""")


def screen_bytes(wd):
    """The screen image the page shows, loaded, as bytes (fetched from its src)."""
    wd.wait("const i = document.getElementById('screen'); return i.complete && i.naturalWidth === 640;",
            "the screen image")
    b64 = wd.js_async("""
        const done = arguments[arguments.length - 1];
        fetch(document.getElementById('screen').src).then(r => r.arrayBuffer()).then(buf => {
            let s = ''; const a = new Uint8Array(buf);
            for (let i = 0; i < a.length; i++) s += String.fromCharCode(a[i]);
            done(btoa(s)); });""")
    return base64.b64decode(b64)


def cli_screen(binary, person_moves):
    with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as f:
        path = f.name
    try:
        args = [binary, "--seed", SEED, "screen", "--engine", ENGINE, "--person", "black",
                "--play", " ".join(person_moves), "--png", path, "--scale", "2"]
        out = subprocess.run(args, capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            fail(f"{' '.join(args)}: {out.stderr}")
        with open(path, "rb") as f:
            return f.read()
    finally:
        os.unlink(path)


def pick(board):
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    for m in moves:
        board.push(m)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return m
    caps = [m for m in moves if board.is_capture(m) and board.piece_at(m.to_square)]
    if caps:
        return max(caps, key=lambda m: VALUE[board.piece_at(m.to_square).piece_type])
    return moves[0]


def main():
    url, binary = sys.argv[1], sys.argv[2]
    shots = sys.argv[3] if len(sys.argv) > 3 else None
    port = free_port()
    driver = subprocess.Popen([shutil.which("chromedriver") or "/usr/bin/chromedriver", f"--port={port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    profile = tempfile.mkdtemp(prefix="retrochess-chromium-")
    wd = WebDriver(port)
    try:
        for _ in range(100):
            try:
                if wd.call("GET", "/status").get("ready"):
                    break
            except Exception:
                pass
            time.sleep(0.1)
        wd.start(profile)
        run(wd, url, binary, shots)
        if shots:
            other_games(wd, url, shots)
        print("browser test: ok")
    finally:
        if wd.session:
            try:
                wd.call("DELETE", f"/session/{wd.session}")
            except BaseException:
                pass
        driver.terminate()
        driver.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)


def run(wd, url, binary, shots):
    # 2. A new game: 1K ZX Chess, the person Black, seed 3.
    wd.s("POST", "/url", {"url": f"{url}?seed={SEED}"})
    wd.wait("return document.querySelectorAll('#engine option').length > 0", "the engine list")
    wd.wait("return document.querySelector('#board svg') !== null", "the first board")
    wd.js(f"document.getElementById('engine').value = '{ENGINE}';"
          "document.getElementById('engine').dispatchEvent(new Event('change'));"
          "document.getElementById('color').value = 'black';")
    old = wd.js("return sessionStorage.getItem('game')")
    wd.click("#new-game")
    wd.wait(f"return sessionStorage.getItem('game') && sessionStorage.getItem('game') !== '{old}'"
            " && document.querySelector('#board svg') !== null", "the new game")
    state = page_state(wd)
    if (state["engine"], state["person"], str(state["seed"])) != (ENGINE, "black", SEED):
        fail(f"new game is {state['engine']} {state['person']} seed {state['seed']}")
    if len(state["moves"]) != 1:
        fail(f"1K ZX Chess should have made its first move: {state['moves']}")
    # The board is drawn from Black's side: a1 at the top right.
    xy = wd.js("const r = document.querySelector('rect[data-square=a1]');"
               "return [Number(r.getAttribute('x')), Number(r.getAttribute('y'))];")
    if xy != [420, 0]:
        fail(f"a1 should be at the top right for Black, is at {xy}")
    picture = screen_bytes(wd)
    if picture != cli_screen(binary, []):
        fail("the first screen differs from `retrochess screen`")

    # 3. An illegal move, by clicks: refused with its reason, nothing changes.
    wd.click("rect[data-square=a7]")
    wd.click("rect[data-square=a4]")
    verdict = wd.wait("const v = document.getElementById('verdict').textContent;"
                      "return v.startsWith('Refused') ? v : null;", "the verdict on a7a4")
    if "a7a4" not in verdict or "illegal" not in verdict:
        fail(f"verdict without the move and its reason: {verdict!r}")
    after = page_state(wd)
    if after["moves"] != state["moves"]:
        fail(f"an illegal move changed the game: {after['moves']}")
    print(f"browser test: illegal a7a4 refused: {verdict}")
    if shots:
        wd.screenshot(os.path.join(shots, "serve-illegal-move.png"))

    # 4-5. The game to its end, by clicks (the first move by dragging).
    person_moves = []
    first = True
    while not state["over"]:
        board = chess.Board(state["position"])
        move = pick(board).uci()
        frm, to = move[:2], move[2:4]
        plies = len(state["moves"])
        if first:
            # The first move with authentic thinking time: the page holds
            # the answer back as long as the ZX81 took.
            wd.js("document.getElementById('authentic').checked = true")
            t0 = time.time()
            wd.drag(f"rect[data-square={frm}]", f"rect[data-square={to}]")
            wd.wait("return document.getElementById('status').textContent.includes("
                    "'is thinking (as long as on the')", "the authentic wait")
            wd.wait(f"return document.getElementById('screen').dataset.ply > {plies}", f"the answer to {move}")
            waited = time.time() - t0
            wd.js("document.getElementById('authentic').checked = false")
            authentic = page_state(wd)["last"]["authentic_ms"] / 1000
            if waited < authentic:
                fail(f"authentic time: the answer came after {waited:.1f} s, the ZX81 took {authentic:.1f} s")
            print(f"browser test: authentic time: answer shown after {waited:.1f} s (ZX81: {authentic:.1f} s)")
            first = False
        else:
            wd.click(f"rect[data-square={frm}]")
            wd.click(f"rect[data-square={to}]")
        wd.wait(f"return document.getElementById('screen').dataset.ply > {plies}", f"the answer to {move}")
        person_moves.append(move)
        state = page_state(wd)
        if state["moves"][plies] != move:
            fail(f"played {state['moves'][plies]} instead of {move}")
        now = screen_bytes(wd)
        answered = len(state["moves"]) > plies + 1
        if answered and now == picture:
            fail(f"the screen did not change after {move} and the engine's answer")
        if not answered and now != picture:
            fail(f"the game ended with {move}, the machine was not asked, yet its screen changed")
        want = cli_screen(binary, person_moves)
        if now != want:
            fail(f"after {' '.join(person_moves)} the page's screen differs from `retrochess screen`")
        picture = now
        cands = wd.js("return document.querySelectorAll('#candidates tbody tr').length")
        print(f"browser test: {move}, engine {state['last']['move'] if answered else '-'}, "
              f"{cands} candidates shown, screen matches ({len(now)} bytes)")
        if len(person_moves) == 3 and shots:
            wd.screenshot(os.path.join(shots, "serve-1k-zx-chess-game.png"))
        if len(person_moves) > 60:
            fail("the game did not end in 60 moves")
    status = wd.js("return document.getElementById('status').textContent")
    if "Game over" not in status:
        fail(f"the page does not say the game is over: {status!r}")
    if shots:
        wd.screenshot(os.path.join(shots, "serve-1k-zx-chess-over.png"))

    # 6. The PGN, as the download link gives it, replayed in python-chess.
    href = wd.js("return document.getElementById('download').href")
    pgn_text = wd.js_async("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0]).then(r => r.text()).then(done);""", href)
    import io
    game = chess.pgn.read_game(io.StringIO(pgn_text))
    if game is None or game.errors:
        fail(f"python-chess cannot read the PGN: {getattr(game, 'errors', None)}\n{pgn_text}")
    board = game.board()
    for m in game.mainline_moves():
        board.push(m)
    ucis = [m.uci() for m in game.mainline_moves()]
    if ucis != state["moves"]:
        fail(f"PGN moves {ucis} != game {state['moves']}")
    result = game.headers["Result"]
    if result == "1/2-1/2":
        if not (board.can_claim_threefold_repetition() or board.is_stalemate()
                or board.is_insufficient_material() or board.can_claim_fifty_moves()):
            fail("the PGN says draw but python-chess sees no draw")
    elif result in ("1-0", "0-1"):
        if board.is_checkmate() and (result == "1-0") != (board.turn == chess.BLACK):
            fail(f"result {result} disagrees with the mate on the board")
    else:
        fail(f"finished game with result {result}")
    print(f"browser test: PGN replays in python-chess: {len(ucis)} plies, {result} ({state['over']})")


def other_games(wd, url, shots):
    """Screenshots for the docs: ChesSkelet and Draughts 1K after a move."""
    for engine, color, name in [("chesskelet", "black", "serve-chesskelet.png"),
                                ("draughts-1k", "white", "serve-draughts-1k.png")]:
        old = wd.js("return sessionStorage.getItem('game')")
        wd.js(f"document.getElementById('engine').value = '{engine}';"
              "document.getElementById('engine').dispatchEvent(new Event('change'));"
              f"document.getElementById('color').value = '{color}';")
        wd.click("#new-game")
        wd.wait(f"return sessionStorage.getItem('game') && sessionStorage.getItem('game') !== '{old}'"
                " && document.getElementById('screen').dataset.ply !== undefined", f"a {engine} game")
        state = page_state(wd)
        move = sorted(state["legal"])[0]
        plies = len(state["moves"])
        parts = move.replace("x", "-").split("-")
        frm, to = (parts[0], parts[-1]) if state["game"] == "draughts" else (move[:2], move[2:4])
        wd.click(f"rect[data-square='{frm}']")
        wd.click(f"rect[data-square='{to}']")
        wd.wait(f"return document.getElementById('screen').dataset.ply > {plies}", f"{engine}'s answer")
        screen_bytes(wd)
        wd.screenshot(os.path.join(shots, name))


if __name__ == "__main__":
    main()
