// retrochess serve: the page. Plain JavaScript and SVG, no libraries, no
// network beyond the server that sent it. Each tab keeps its own game id in
// sessionStorage.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const GLYPHS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                 k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
let engines = [];
let state = null;
let selected = null;
let dragFrom = null;
let busy = false;

async function api(method, path, form) {
  const opts = { method };
  if (form) {
    opts.body = new URLSearchParams(form).toString();
    opts.headers = { "Content-Type": "application/x-www-form-urlencoded" };
  }
  const r = await fetch(path, opts);
  let body = null;
  try { body = await r.json(); } catch (e) { body = { error: r.statusText }; }
  return { status: r.status, ok: r.ok, body };
}

function gameOf(id) {
  const e = engines.find((x) => x.id === id);
  return e ? e.game : "chess";
}

function syncForm() {
  const draughts = gameOf($("engine").value) === "draughts";
  $("rules-label").style.display = draughts ? "" : "none";
}

async function init() {
  const r = await api("GET", "/api/engines");
  engines = r.body;
  for (const e of engines) {
    const o = document.createElement("option");
    o.value = e.id;
    o.textContent = `${e.name} (${e.machine}, ${e.game})`;
    $("engine").appendChild(o);
  }
  $("engine").addEventListener("change", () => {
    $("color").value = gameOf($("engine").value) === "draughts" ? "white" : "black";
    syncForm();
  });
  $("setup").addEventListener("submit", (ev) => { ev.preventDefault(); newGame(); });
  $("takeback").addEventListener("click", takeBack);
  const id = sessionStorage.getItem("game");
  if (id) {
    const g = await api("GET", `/api/games/${id}`);
    if (g.ok) { show(g.body); return; }
  }
  syncForm();
  await newGame();
}

async function newGame() {
  if (busy) return;
  busy = true;
  $("status").textContent = "Loading the program into its machine…";
  const old = sessionStorage.getItem("game");
  if (old) { await api("DELETE", `/api/games/${old}`); }
  const form = { engine: $("engine").value, color: $("color").value, illegal: $("illegal").value };
  if (gameOf(form.engine) === "draughts") form.rules = $("rules").value;
  // ?seed=N in the page's address: the same seed, the same game.
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed) form.seed = seed;
  const r = await api("POST", "/api/games", form);
  busy = false;
  if (!r.ok) { $("status").textContent = ""; $("verdict").textContent = r.body.error; return; }
  sessionStorage.setItem("game", r.body.id);
  $("verdict").textContent = "";
  await reveal(r.body);
}

async function takeBack() {
  if (!state || busy) return;
  const r = await api("POST", `/api/games/${state.id}/takeback`);
  if (!r.ok) { $("verdict").textContent = r.body.error; return; }
  $("verdict").textContent = "";
  show(r.body);
}

async function sendMove(text) {
  if (!state || busy) return;
  busy = true;
  selected = null;
  $("status").textContent = `You play ${text}; ${state.engine_name} is thinking…`;
  const r = await api("POST", `/api/games/${state.id}/move`, { move: text });
  busy = false;
  if (r.status === 404) { sessionStorage.removeItem("game"); $("verdict").textContent = r.body.error; return; }
  if (!r.ok) {
    $("verdict").textContent = r.body.reason
      ? `Refused: ${text} is illegal: ${r.body.reason}.`
      : `Refused: ${r.body.error}.`;
    $("verdict").dataset.kind = r.body.kind || "";
    show(state);
    return;
  }
  $("verdict").textContent = "";
  await reveal(r.body);
}

// Shows a new state, after the original machine's thinking time if asked.
async function reveal(s) {
  const ms = s.last && state && s.moves.length > state.moves.length ? s.last.authentic_ms : 0;
  if ($("authentic").checked && ms > 0) {
    busy = true;
    const until = Date.now() + ms;
    while (Date.now() < until) {
      $("status").textContent =
        `${s.engine_name} is thinking (as long as on the ${s.machine}): ${Math.ceil((until - Date.now()) / 1000)} s`;
      await new Promise((res) => setTimeout(res, 250));
    }
    busy = false;
  }
  show(s);
}

function show(s) {
  state = s;
  $("engine").value = s.engine;
  $("color").value = s.person;
  syncForm();
  $("illegal").value = s.illegal_moves;
  $("machine-title").textContent = `${s.engine_name} on the ${s.machine}`;
  $("download").href = `/api/games/${s.id}/record`;
  $("download").textContent = `Download ${s.record.toUpperCase()}`;
  const img = $("screen");
  img.src = `/api/games/${s.id}/screen.png?scale=2&ply=${s.moves.length}&t=${Date.now()}`;
  img.dataset.ply = s.moves.length;
  if (s.over) {
    $("status").textContent = `Game over: ${s.over}.`;
  } else if (s.turn === s.person) {
    $("status").textContent = `Your move (${s.person}).`;
  } else {
    $("status").textContent = `${s.engine_name} to move.`;
  }
  $("status").dataset.over = s.over ? "1" : "";
  const moves = $("moves");
  moves.innerHTML = "";
  for (let i = 0; i < s.moves.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = s.moves.slice(i, i + 2).join(" ");
    moves.appendChild(li);
  }
  showThoughts(s);
  if (s.game === "chess") drawChess(s); else drawDraughts(s);
}

function showThoughts(s) {
  const body = $("candidates").querySelector("tbody");
  body.innerHTML = "";
  const l = s.last;
  if (!l) { $("thinking").textContent = "The program has not moved yet."; return; }
  let words = l.move ? `It played ${l.move}` : (l.no_move || "No move");
  if (l.illegal) words += `, an illegal move: ${l.illegal} (IllegalMoves=${s.illegal_moves})`;
  words += `. ${(l.tstates / 1e6).toFixed(1)} million T-states, ${(l.authentic_ms / 1000).toFixed(1)} s on the original machine; ${l.path}.`;
  if (l.tie_break) words += ` Ties: ${l.tie_break}.`;
  if (!l.candidates.length) words += " It weighed no candidates this move (or its driver cannot show them).";
  $("thinking").textContent = words;
  for (const c of l.candidates) {
    const tr = document.createElement("tr");
    if (c.move === l.move) tr.className = "chosen";
    const cells = [c.rank, c.move, c.raw, (c.score > 0 ? "+" : "") + c.score];
    for (const v of cells) { const td = document.createElement("td"); td.textContent = v; tr.appendChild(td); }
    const td = document.createElement("td");
    td.textContent = c.illegal ? `illegal: ${c.illegal}` : "legal";
    td.className = c.illegal ? "illegal" : "legal";
    tr.appendChild(td);
    body.appendChild(tr);
  }
}

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function newSvg() {
  const board = $("board");
  board.innerHTML = "";
  const svg = svgEl("svg", { viewBox: "0 0 480 480" }, board);
  svg.addEventListener("pointerdown", (ev) => {
    const sq = squareAt(ev);
    if (sq) { dragFrom = sq; ev.preventDefault(); }
  });
  svg.addEventListener("pointerup", (ev) => {
    const sq = squareAt(ev);
    const from = dragFrom;
    dragFrom = null;
    if (!sq) return;
    if (from && from !== sq && isOwn(from)) { attempt(from, sq); return; }
    clicked(sq);
  });
  return svg;
}

function squareAt(ev) {
  const el = document.elementFromPoint(ev.clientX, ev.clientY);
  return el && el.dataset ? el.dataset.square || null : null;
}

function clicked(sq) {
  if (!state || state.over || state.turn !== state.person) return;
  if (selected && selected !== sq && !isOwn(sq)) { attempt(selected, sq); return; }
  selected = isOwn(sq) && selected !== sq ? sq : null;
  show(state);
}

// --- chess ---
function chessBoard(fen) {
  const rows = fen.split(" ")[0].split("/");
  const board = {};
  rows.forEach((row, r) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) { f += Number(ch); continue; }
      board["abcdefgh"[f] + (8 - r)] = ch;
      f += 1;
    }
  });
  return board;
}

function isOwn(sq) {
  if (!state) return false;
  if (state.game === "chess") {
    const p = chessBoard(state.position)[sq];
    return !!p && (p === p.toUpperCase()) === (state.person === "white");
  }
  const p = draughtsBoard(state.position)[sq];
  return !!p && p.side === state.person;
}

function attempt(from, to) {
  if (state.game === "chess") {
    let move = from + to;
    const promos = state.legal.filter((m) => m.startsWith(move) && m.length === 5);
    if (promos.length) move += "q";
    sendMove(move);
  } else {
    const m = state.legal.find((x) => x.split(/[-x]/)[0] === from && x.split(/[-x]/).pop() === to);
    sendMove(m || `${from}-${to}`);
  }
}

function drawChess(s) {
  const svg = newSvg();
  const board = chessBoard(s.position);
  const flip = s.person === "black";
  const last = s.moves.length ? s.moves[s.moves.length - 1] : "";
  const targets = selected ? s.legal.filter((m) => m.startsWith(selected)).map((m) => m.slice(2, 4)) : [];
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const file = flip ? 7 - f : f;
      const rank = flip ? r + 1 : 8 - r;
      const sq = "abcdefgh"[file] + rank;
      let cls = (file + rank) % 2 === 0 ? "light" : "dark";
      if (sq === selected) cls = "selected";
      svgEl("rect", { x: f * 60, y: r * 60, width: 60, height: 60, class: cls, "data-square": sq }, svg);
      if (last && (last.slice(0, 2) === sq || last.slice(2, 4) === sq)) {
        svgEl("rect", { x: f * 60, y: r * 60, width: 60, height: 60, class: "lastmove", "data-square": sq }, svg);
      }
      if (targets.includes(sq)) {
        svgEl("circle", { cx: f * 60 + 30, cy: r * 60 + 30, r: 9, class: "target", "data-square": sq }, svg);
      }
      const p = board[sq];
      if (p) {
        const t = svgEl("text", { x: f * 60 + 30, y: r * 60 + 32, class: "piece", "data-piece": p }, svg);
        t.textContent = GLYPHS[p];
      }
      if (f === 0) svgEl("text", { x: 2, y: r * 60 + 11, class: "coord" }, svg).textContent = rank;
      if (r === 7) svgEl("text", { x: f * 60 + 52, y: 477, class: "coord" }, svg).textContent = "abcdefgh"[file];
    }
  }
}

// --- draughts (English checkers numbering: 1-4 on Black's back rank) ---
function draughtsBoard(fen) {
  const board = {};
  const body = fen.replace(/\.$/, "");
  for (const part of body.split(":").slice(1)) {
    const side = part[0] === "W" ? "white" : "black";
    for (let item of part.slice(1).split(",")) {
      if (!item) continue;
      const king = item[0] === "K";
      if (king) item = item.slice(1);
      const range = item.split("-").map(Number);
      const hi = range.length === 2 ? range[1] : range[0];
      for (let n = range[0]; n <= hi; n++) board[String(n)] = { side, king };
    }
  }
  return board;
}

function squareXY(n) {
  const i = n - 1;
  const row = Math.floor(i / 4);
  const col = (i % 4) * 2 + (row % 2 === 0 ? 1 : 0);
  return [row, col];
}

function drawDraughts(s) {
  const svg = newSvg();
  const board = draughtsBoard(s.position);
  const flip = s.person === "black";
  const from = selected;
  const targets = from ? s.legal.filter((m) => m.split(/[-x]/)[0] === from).map((m) => m.split(/[-x]/).pop()) : [];
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) {
    svgEl("rect", { x: c * 60, y: r * 60, width: 60, height: 60, class: (r + c) % 2 === 0 ? "light" : "dark" }, svg);
  }
  for (let n = 1; n <= 32; n++) {
    let [row, col] = squareXY(n);
    if (flip) { row = 7 - row; col = 7 - col; }
    const sq = String(n);
    svgEl("rect", { x: col * 60, y: row * 60, width: 60, height: 60,
                    class: sq === selected ? "selected" : "dark", "data-square": sq }, svg);
    svgEl("text", { x: col * 60 + 3, y: row * 60 + 11, class: "coord" }, svg).textContent = sq;
    if (targets.includes(sq)) svgEl("circle", { cx: col * 60 + 30, cy: row * 60 + 30, r: 9, class: "target", "data-square": sq }, svg);
    const p = board[sq];
    if (p) {
      svgEl("circle", { cx: col * 60 + 30, cy: row * 60 + 30, r: 22, class: `man ${p.side}`, "data-piece": p.side }, svg);
      if (p.king) svgEl("circle", { cx: col * 60 + 30, cy: row * 60 + 30, r: 8, class: "crown" }, svg);
    }
  }
}

init();
