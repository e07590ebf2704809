// The page: a person plays any of the four games against the engine (docs/web.md).
// The referee is an engine on the page's thread (legal moves, status, the board);
// the CPU seats think in a worker (worker.js), so the page stays responsive.
import { Engine, parseInfo } from "./yomi.js";

const $ = (id) => document.getElementById(id);
const FILES = "987654321";
const RANKS = "abcdefghi";
const SEATS = { hasami: 2, annan: 2, yonin: 4, sugoroku: 2 };
const SEAT_NAMES = {
  2: ["b (first, below)", "w (second, above)"],
  4: ["0 South", "1 West", "2 North", "3 East"],
};
/** Options announced before Threads that are the engine's, not house rules. */
const NOT_HOUSE_RULES = new Set(["USI_Variant", "MaxMovesToDraw", "SearchAlgorithm", "SugorokuEval", "SugorokuWeights"]);
const KANJI = { K: "玉", R: "飛", B: "角", G: "金", S: "銀", N: "桂", L: "香", P: "歩", "+R": "龍", "+B": "馬", "+S": "全", "+N": "圭", "+L": "杏", "+P": "と" };
const HAND_ORDER = "RBGSNLP";
/** A seat's CPU takes a breath between moves when every seat is a CPU. */
const CPU_PAUSE_MS = 150;

const app = {
  referee: null,
  worker: null,
  game: "hasami",
  seats: [],
  legal: [],
  steps: [],
  selected: null,
  choice: null,
  rng: null,
  last: null,
  request: null,
  asked: 0,
  workerConfig: "",
  state: "loading",
};
window.yomiApp = app;

function setState(state) {
  app.state = state;
  document.body.dataset.state = state;
}

// ---- dice from a seed (mulberry32) ----
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const roll = () => `${1 + Math.floor(app.rng() * 6)}${1 + Math.floor(app.rng() * 6)}`;

// ---- controls ----
function buildRules() {
  const box = $("rules");
  box.replaceChildren(Object.assign(document.createElement("legend"), { textContent: "House rules" }));
  const options = app.referee.options();
  const end = options.findIndex((o) => o.name === "Threads");
  for (const o of options.slice(0, end).filter((o) => !NOT_HOUSE_RULES.has(o.name))) {
    const label = document.createElement("label");
    label.textContent = o.name;
    let input;
    if (o.type === "combo") {
      input = document.createElement("select");
      for (const v of o.vars) input.append(new Option(v, v, v === o.default, v === o.default));
    } else if (o.type === "check") {
      input = Object.assign(document.createElement("input"), { type: "checkbox", checked: o.default === "true" });
    } else if (o.type === "spin") {
      input = Object.assign(document.createElement("input"), { type: "number", min: o.min, max: o.max, value: o.default });
    } else continue;
    input.dataset.option = o.name;
    input.addEventListener("change", () => newGame());
    label.append(input);
    box.append(label);
  }
  const levels = $("level");
  if (!levels.options.length) {
    for (let level = 0; level <= 20; level++) {
      levels.append(new Option(level === 20 ? "20 (full strength)" : String(level), String(level), false, level === 10));
    }
    levels.append(new Option("by Elo", "elo"));
  }
  // USI_Elo's range is the game's measured levels (docs/cpu-seats.md).
  const elo = options.find((o) => o.name === "USI_Elo");
  const input = $("elo");
  if (elo) Object.assign(input, { min: elo.min, max: elo.max, value: Math.min(Math.max(Number(input.value) || elo.min, elo.min), elo.max) });
  showElo();
}

function showElo() {
  $("elo-label").hidden = $("level").value !== "elo";
}

/** The setoption lines of the CPU's strength: a Skill level, or an Elo. */
function strength() {
  const level = $("level").value;
  return level === "elo"
    ? ["setoption name USI_LimitStrength value true", `setoption name USI_Elo value ${$("elo").value}`]
    : ["setoption name USI_LimitStrength value false", `setoption name Skill value ${level}`];
}

function rules() {
  return [...$("rules").querySelectorAll("[data-option]")].map((input) => [
    input.dataset.option,
    input.type === "checkbox" ? String(input.checked) : input.value,
  ]);
}

function buildSeats() {
  const box = $("seats");
  const old = app.seats;
  box.replaceChildren(Object.assign(document.createElement("legend"), { textContent: "Seats (change any time: the CPU takes over)" }));
  const n = SEATS[app.game];
  app.seats = Array.from({ length: n }, (_, i) => old[i] ?? (i === 0 ? "human" : "cpu"));
  app.seats.forEach((who, i) => {
    const label = document.createElement("label");
    label.textContent = SEAT_NAMES[n][i];
    const select = document.createElement("select");
    select.dataset.seat = i;
    select.append(new Option("person", "human", false, who === "human"), new Option("CPU", "cpu", false, who === "cpu"));
    select.addEventListener("change", () => {
      app.seats[i] = select.value;
      advance();
    });
    label.append(select);
    box.append(label);
  });
  $("seed-label").hidden = app.game !== "sugoroku";
}

function newGame() {
  cancelCpu();
  app.game = $("game").value;
  if (app.referee.game !== app.game) {
    app.referee.setGame(app.game);
    buildRules();
  }
  for (const [name, value] of rules()) app.referee.setOption(name, value);
  app.referee.newGame();
  buildSeats();
  app.rng = seeded(Number($("seed").value) || 0);
  app.last = null;
  app.selected = null;
  app.choice = null;
  $("record").replaceChildren();
  $("thinking").textContent = "";
  advance();
}

/** Starts the current game from a position (SFEN, moves): for the tests, or a
 * site that opens the page on a position. */
app.setup = (sfen, moves = []) => {
  cancelCpu();
  app.referee.setPosition(sfen, moves);
  app.last = null;
  app.selected = null;
  app.choice = null;
  $("record").replaceChildren();
  advance();
};

// ---- the flow of a game ----
function seatOf(turn) {
  return turn === "b" ? 0 : turn === "w" ? 1 : Number(turn);
}

function play(move) {
  app.referee.play(move);
  app.last = move;
  app.selected = null;
  app.choice = null;
  $("record").append(Object.assign(document.createElement("li"), { textContent: move }));
}

function advance() {
  const status = app.referee.status();
  app.legal = status.over ? [] : app.referee.legalMoves();
  app.steps = [];
  if (!status.over && app.game === "sugoroku" && status.dice === "-") {
    play(roll());
    return advance();
  }
  const seat = status.over ? -1 : seatOf(status.turn);
  if (seat >= 0 && app.seats[seat] === "cpu") {
    askCpu(seat);
  } else {
    cancelCpu();
    if (seat >= 0 && app.game === "sugoroku") {
      if (app.legal.length === 1 && app.legal[0] === "pass") {
        render(status);
        setTimeout(() => { play("pass"); advance(); }, 400);
        return;
      }
      app.steps = sugorokuSteps(status);
    }
    setState(status.over ? "over" : "human");
  }
  render(status);
}

// ---- the CPU, in the worker ----
const positionLine = () => app.referee.positionLine();

function askCpu(seat) {
  const position = positionLine();
  if (app.request && app.request.position === position) return;
  const config = [
    `setoption name USI_Variant value ${app.game}`,
    "setoption name USI_Hash value 16",
    // No network between page and engine: a small margin suffices.
    "setoption name TimeMargin value 50",
    ...rules().map(([name, value]) => `setoption name ${name} value ${value}`),
    ...strength(),
    `setoption name Seed value ${Number($("seed").value) || 0}`,
  ].join("\n");
  const lines = [];
  if (config !== app.workerConfig) {
    lines.push(config);
    app.workerConfig = config;
  }
  const movetime = Math.max(100, Number($("movetime").value) || 1000);
  lines.push(position, `go movetime ${movetime}`, "isready");
  app.request = { id: ++app.asked, position, seat, best: null, started: performance.now() };
  setState("thinking");
  app.worker.postMessage(lines.join("\n"));
}

function cancelCpu() {
  // The worker finishes its search; its answer is then dropped (the position moved on).
  app.request = null;
}

let answered = 0;
function onWorkerLine(line) {
  const request = app.request && app.request.id === answered + 1 ? app.request : null;
  if (line === "readyok") {
    answered++;
    if (!request) return;
    app.request = null;
    if (request.position !== positionLine()) return advance();
    if (!request.best || request.best === "resign") {
      $("thinking").textContent += "\nthe CPU found no move";
      setState("over");
      return;
    }
    app.firstCpuMoveMs ??= performance.now();
    const finish = () => {
      if (positionLine() !== request.position) return advance();
      try {
        play(request.best);
      } catch (e) {
        $("thinking").textContent = `the CPU's move ${request.best} was refused: ${e.message}`;
        return;
      }
      advance();
    };
    const allCpu = app.seats.every((s) => s === "cpu");
    allCpu ? setTimeout(finish, CPU_PAUSE_MS) : finish();
  } else if (line.startsWith("bestmove ")) {
    if (request) request.best = line.split(/\s+/)[1];
  } else if (line.startsWith("info ")) {
    const info = parseInfo(line);
    if (info.string) {
      if (info.string.startsWith("error")) $("thinking").textContent = line;
    } else if (request) {
      showThinking(request, info);
    }
  }
}

function showThinking(request, info) {
  const score = info.points !== undefined
    ? `points ${info.points > 0 ? "+" : ""}${info.points}`
    : info.score?.mate !== undefined ? `mate ${info.score.mate}` : `score ${info.score?.cp ?? "?"} cp`;
  $("thinking").textContent =
    `CPU (seat ${SEAT_NAMES[app.seats.length][request.seat]}): depth ${info.depth} ${score} nodes ${info.nodes} nps ${info.nps} pv ${(info.pv ?? []).slice(0, 8).join(" ")}`;
  $("thinking").dataset.depth = info.depth;
}

// ---- clicks ----
function clickSquare(square) {
  if (app.state !== "human" || app.choice) return;
  const from = app.selected;
  if (from) {
    // The destination is the second square of "7g7f" and of a drop "P*5e".
    const moves = app.legal.filter((m) => movesFrom(m, from) && m.slice(2, 4) === square);
    if (moves.length === 1) return humanPlay(moves[0]);
    if (moves.length > 1) {
      app.choice = moves;
      return render();
    }
  }
  app.selected = app.legal.some((m) => movesFrom(m, square)) && from !== square ? square : null;
  render();
}

const movesFrom = (move, from) => move.startsWith(from);

function clickHand(letter) {
  if (app.state !== "human") return;
  const from = `${letter}*`;
  app.selected = app.selected !== from && app.legal.some((m) => m.startsWith(from)) ? from : null;
  render();
}

function humanPlay(move) {
  try {
    play(move);
  } catch (e) {
    $("status").textContent = e.message;
    return;
  }
  advance();
}

// ---- Sugoroku: one stone at a time ----
/** The stone moves the person may make now, {from, to, entry} in display numbering (b's). */
function sugorokuSteps(status) {
  const fields = app.referee.diagram().sfen.split(" ");
  const [points, bar] = [fields[0].split("/"), fields[1].split("/").map(Number)];
  const side = fields[3];
  const toMine = (p) => (side === "b" ? p : 25 - p);
  const froms = [];
  if (bar[side === "b" ? 0 : 1] > 0) froms.push(25);
  else points.forEach((p, i) => p.endsWith(side) && froms.push(toMine(i + 1)));
  const dice = [...new Set(status.dice.split(""))].map(Number);
  const steps = [];
  const seen = new Set();
  for (const from of froms) {
    for (const die of dice) {
      const to = from - die;
      const entry = `${from === 25 ? "bar" : from}/${to <= 0 ? "off" : to}`;
      if (seen.has(entry) || !app.referee.isLegal(entry)) continue;
      seen.add(entry);
      steps.push({
        from: from === 25 ? "bar" : String(toMine(from)),
        to: to <= 0 ? "off" : String(toMine(to)),
        entry,
      });
    }
  }
  return steps;
}

function clickPoint(point) {
  if (app.state !== "human") return;
  if (app.selected) {
    const step = app.steps.find((s) => s.from === app.selected && s.to === point);
    if (step) return humanPlay(step.entry);
  }
  app.selected = app.steps.some((s) => s.from === point) && app.selected !== point ? point : null;
  render();
}

// ---- drawing ----
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function render(status = app.referee.status()) {
  const { sfen } = app.referee.diagram();
  const board = $("board");
  board.replaceChildren();
  if (app.game === "sugoroku") drawSugoroku(board, sfen, status);
  else drawShogi(board, sfen);
  drawChoice();
  $("status").textContent = statusText(status);
}

function targets() {
  if (!app.selected) return new Set();
  const from = app.selected;
  return new Set(app.legal.filter((m) => movesFrom(m, from)).map((m) => m.slice(2, 4)));
}

/** Board cells from the SFEN's board field: {piece, owner, facing, promoted, flipped} or null. */
function parseBoard(field, yonin) {
  return field.split("/").map((rank) => {
    const cells = [];
    for (let i = 0; i < rank.length; ) {
      const c = rank[i];
      if (/\d/.test(c)) {
        for (let n = 0; n < Number(c); n++) cells.push(null);
        i++;
        continue;
      }
      const promoted = c === "+";
      if (promoted) i++;
      const letter = rank[i++];
      if (yonin) {
        const owner = Number(rank[i++]);
        let facing = owner;
        if (rank[i] === "@") {
          facing = Number(rank[i + 1]);
          i += 2;
        }
        cells.push({ piece: letter.toUpperCase(), owner, facing, promoted, flipped: letter === "k" });
      } else {
        const owner = letter === letter.toUpperCase() ? 0 : 1;
        cells.push({ piece: letter.toUpperCase(), owner, facing: owner * 2, promoted, flipped: false });
      }
    }
    return cells;
  });
}

function pieceElement(cell) {
  if (app.game === "hasami") return el("div", `stone ${cell.owner ? "w" : "b"}`);
  const key = (cell.promoted ? "+" : "") + cell.piece;
  const glyph = cell.piece === "K" && cell.owner === 1 && app.game === "annan" ? "王" : KANJI[key];
  const classes = ["piece", `seat${cell.owner}`, ["", "r90", "r180", "r270"][cell.facing]];
  if (cell.promoted) classes.push("promoted");
  if (cell.flipped) classes.push("flipped");
  const e = el("span", classes.join(" "), glyph);
  e.title = `${cell.promoted ? "+" : ""}${cell.piece} of seat ${cell.owner}`;
  return e;
}

function lastSquares() {
  const m = app.last && app.last.match(/^(?:([1-9][a-i])|[A-Z]\*)([1-9][a-i])/);
  return m ? [m[1], m[2]] : [];
}

function drawShogi(board, sfen) {
  const fields = sfen.split(" ");
  const yonin = app.game === "yonin";
  // Shogi's SFEN: board, side, hands; Yonin's: board, hands, seat due, …
  const [field, hands] = [fields[0], fields[yonin ? 1 : 2]];
  const cells = parseBoard(field, yonin);
  const to = targets();
  const last = lastSquares();
  if (app.game === "annan") board.append(drawHands(parseShogiHands(hands, 1), 1));
  const grid = el("div", yonin ? "grid yonin" : "grid");
  grid.append(el("div", "label"));
  for (const f of FILES) grid.append(el("div", "label", f));
  grid.append(el("div", "label"));
  cells.forEach((rank, r) => {
    grid.append(el("div", "label"));
    rank.forEach((cell, c) => {
      const square = FILES[c] + RANKS[r];
      const sq = el("div", "sq");
      sq.dataset.square = square;
      if (cell) {
        sq.dataset.piece = (cell.promoted ? "+" : "") + cell.piece + cell.owner;
        sq.append(pieceElement(cell));
      }
      if (square === app.selected) sq.classList.add("from");
      if (to.has(square)) sq.classList.add("to");
      if (last.includes(square)) sq.classList.add("last");
      sq.addEventListener("click", () => clickSquare(square));
      grid.append(sq);
    });
    grid.append(el("div", "label", RANKS[r]));
  });
  board.append(grid);
  if (app.game === "annan") board.append(drawHands(parseShogiHands(hands, 0), 0));
  if (yonin) {
    const all = el("div", "hands yonin");
    hands.split("/").forEach((hand, seat) => all.append(drawHands(parseCounts(hand), seat, `seat ${seat}`)));
    board.append(all);
  }
}

function parseCounts(text) {
  const counts = {};
  if (text === "-") return counts;
  for (const [, n, letter] of text.matchAll(/(\d*)([A-Za-z])/g)) counts[letter.toUpperCase()] = (counts[letter.toUpperCase()] ?? 0) + Number(n || 1);
  return counts;
}

function parseShogiHands(text, owner) {
  const counts = {};
  if (text === "-") return counts;
  for (const [, n, letter] of text.matchAll(/(\d*)([A-Za-z])/g)) {
    if ((letter === letter.toUpperCase()) === (owner === 0)) counts[letter.toUpperCase()] = Number(n || 1);
  }
  return counts;
}

function drawHands(counts, seat, name = seat ? "w in hand" : "b in hand") {
  const hand = el("div", "hand");
  hand.dataset.hand = seat;
  hand.append(el("span", "", `${name}:`));
  const mine = app.state === "human" && seat === seatOf(app.referee.status().turn);
  for (const letter of HAND_ORDER) {
    if (!counts[letter]) continue;
    const sq = el("div", "sq");
    sq.dataset.drop = letter;
    sq.append(pieceElement({ piece: letter, owner: seat, facing: app.game === "yonin" ? seat : seat * 2, promoted: false }));
    if (app.selected === `${letter}*` && mine) sq.classList.add("from");
    if (mine) sq.addEventListener("click", () => clickHand(letter));
    hand.append(sq);
    if (counts[letter] > 1) hand.append(el("span", "count", `×${counts[letter]}`));
  }
  return hand;
}

function drawChoice() {
  const box = $("choice");
  box.replaceChildren();
  if (!app.choice) return;
  box.append(el("span", "", "Promote? "));
  for (const move of app.choice) {
    const b = el("button", "", move.endsWith("+") ? `promote (${move})` : `don't promote (${move})`);
    b.dataset.move = move;
    b.addEventListener("click", () => humanPlay(move));
    box.append(b);
  }
}

function drawSugoroku(board, sfen, status) {
  const fields = sfen.split(" ");
  const points = fields[0].split("/");
  const [barB, barW] = fields[1].split("/");
  const [offB, offW] = fields[2].split("/");
  const grid = el("div", "sugoroku");
  const froms = new Set(app.steps.map((s) => s.from));
  const tos = new Set(app.steps.filter((s) => s.from === app.selected).map((s) => s.to));
  const numbers = (list) => {
    for (const p of list) grid.append(p === "bar" ? el("div", "num") : el("div", "num", p));
    grid.append(el("div", "num"));
  };
  const point = (p, bottom) => {
    const cell = el("div", `point${bottom ? " bottom" : ""}`);
    cell.dataset.point = String(p);
    const text = points[p - 1];
    const n = parseInt(text, 10);
    const color = text.slice(-1);
    for (let i = 0; i < Math.min(n, 5); i++) cell.append(el("div", `stone ${color}`, i === 4 && n > 5 ? String(n) : ""));
    if (n) cell.dataset.stones = `${n}${color}`;
    if (String(p) === app.selected) cell.classList.add("from");
    if (tos.has(String(p))) cell.classList.add("to");
    cell.addEventListener("click", () => clickPoint(String(p)));
    return cell;
  };
  const bar = (count, color) => {
    const cell = el("div", "bar", `bar ${color}\n${count}`);
    cell.dataset.point = "bar";
    cell.dataset.stones = `${count}${color}`;
    if (app.selected === "bar" && status.turn === color) cell.classList.add("from");
    if (status.turn === color && froms.has("bar")) cell.addEventListener("click", () => clickPoint("bar"));
    return cell;
  };
  const tray = (count, color) => {
    const cell = el("div", "tray", `off ${color}\n${count}`);
    if (status.turn === color) {
      cell.dataset.point = "off";
      if (tos.has("off")) cell.classList.add("to");
      cell.addEventListener("click", () => clickPoint("off"));
    }
    return cell;
  };
  numbers([13, 14, 15, 16, 17, 18, "bar", 19, 20, 21, 22, 23, 24]);
  for (const p of [13, 14, 15, 16, 17, 18]) grid.append(point(p, false));
  grid.append(bar(barW, "w"));
  for (const p of [19, 20, 21, 22, 23, 24]) grid.append(point(p, false));
  grid.append(tray(offW, "w"));
  const dice = el("div", "dice");
  dice.append(el("span", "", `${status.turn} to play:`));
  for (const d of status.dice === "-" ? [] : status.dice.split("")) dice.append(el("span", "die", d));
  dice.dataset.dice = status.dice;
  grid.append(dice);
  for (const p of [12, 11, 10, 9, 8, 7]) grid.append(point(p, true));
  grid.append(bar(barB, "b"));
  for (const p of [6, 5, 4, 3, 2, 1]) grid.append(point(p, true));
  grid.append(tray(offB, "b"));
  numbers([12, 11, 10, 9, 8, 7, "bar", 6, 5, 4, 3, 2, 1]);
  board.append(grid);
}

function statusText(s) {
  const n = app.seats.length;
  const seatName = (seat) => (n === 4 ? `seat ${SEAT_NAMES[4][seat]}` : ["b", "w"][seat]);
  const details = [];
  if (s.captured) details.push(`captured: b ${s.captured.b} w ${s.captured.w}`);
  if (s.check === "yes") details.push("check!");
  if (app.game === "yonin") {
    if (s.check && s.check !== "-") details.push(`in check: ${s.check.split("").join(", ")}`);
    if (s.out && s.out !== "-") details.push(`out: ${s.out}`);
    if (s.mates) details.push(`mates ${s.mates}`);
  }
  if (app.game === "sugoroku") details.push(`dice ${s.dice}`, `pips ${s.pips}`, `bar ${s.bar}`, `off ${s.off}`);
  let head;
  if (s.over) {
    if (s.draw) head = `Game over: draw (${s.reason})`;
    else if (s.places) head = `Game over: places ${s.places.map((p, i) => `${seatName(i)} ${p}`).join(", ")} (${s.reason})`;
    else head = `Game over: ${seatName(seatOf(s.winner))} wins${s.points > 1 ? ` ${s.points} points` : ""} (${s.reason})`;
  } else {
    const seat = seatOf(s.turn);
    head = `${seatName(seat)} to move (${app.seats[seat] === "cpu" ? "CPU thinking…" : "your move"}), ply ${s.ply}`;
  }
  return [head, ...details].join(" · ");
}

// ---- start ----
async function start() {
  const began = performance.now();
  app.referee = await Engine.load();
  app.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  app.worker.onmessage = (e) => onWorkerLine(e.data);
  // The worker starts from the module compiled here, not a second download.
  app.worker.postMessage(app.referee.protocol.module);
  $("game").addEventListener("change", () => newGame());
  $("new-game").addEventListener("click", () => newGame());
  $("level").addEventListener("change", showElo);
  // `?game=annan&seats=cpu,human&level=0&movetime=500&seed=3` preset the controls.
  const query = new URLSearchParams(location.search);
  if (SEATS[query.get("game")]) $("game").value = query.get("game");
  for (const name of ["level", "movetime", "seed"]) if (query.has(name)) $(name).value = query.get(name);
  if (query.has("seats")) app.seats = query.get("seats").split(",").map((s) => (s === "cpu" ? "cpu" : "human"));
  app.game = $("game").value;
  app.referee.setGame(app.game);
  buildRules();
  newGame();
  app.loadedMs = performance.now() - began;
}

start().catch((e) => {
  $("status").textContent = `The engine did not load: ${e.message}`;
  setState("failed");
});
