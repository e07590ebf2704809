// The page: people play any of the four games against the engine (docs/web.md).
// The referee is an engine on the page's thread (legal moves, status, the board);
// the CPU seats think in a worker (worker.js), and so does the analysis behind
// the evaluation bar and the hint, so the page stays responsive.
import { Engine, parseInfo, parseReview } from "./yomi.js";
import { LANGUAGES, language, pickLanguage, setLanguage, t } from "./i18n.js";
import { LEVEL_ELO } from "./levels.js";

const $ = (id) => document.getElementById(id);
const FILES = "987654321";
const RANKS = "abcdefghi";
/** Options announced before Threads that are the engine's, not house rules. */
const NOT_HOUSE_RULES = new Set(["USI_Variant", "MaxMovesToDraw", "SearchAlgorithm", "SugorokuEval", "SugorokuWeights"]);
const KANJI = { K: "玉", R: "飛", B: "角", G: "金", S: "銀", N: "桂", L: "香", P: "歩", "+R": "龍", "+B": "馬", "+S": "全", "+N": "圭", "+L": "杏", "+P": "と" };
const HAND_ORDER = "RBGSNLP";
/** A seat's CPU takes a breath between moves when every seat is a CPU. */
const CPU_PAUSE_MS = 150;
/** The analysis behind the evaluation bar and the hint: full strength, this long (`?analysis=ms`). */
const ANALYSIS_MS = Math.max(20, Number(new URLSearchParams(location.search).get("analysis")) || 500);
/** Centipawns to a winning chance: 1 / (1 + e^(−cp / scale)); a game not named here, 600. */
const CP_SCALE = { hasami: 250, annan: 600, yonin: 600 };
const cpScale = () => CP_SCALE[app.game] ?? 600;

const app = {
  referee: null,
  worker: null,
  game: "hasami",
  /** The games the engine plays (`USI_Variant`'s choices). */
  games: [],
  /** Who plays each seat of the game: "human" or "cpu". */
  seats: [],
  /** The game's seats as the engine names them (`d`): how many there are. */
  seatNames: [],
  /** The seat that made each of the referee's moves (a roll: the seat that rolled). */
  movers: [],
  legal: [],
  steps: [],
  selected: null,
  choice: null,
  request: null,
  asked: 0,
  workerConfig: "",
  state: "loading",
  flipped: false,
  /** The analysis of the position on the board: {position, best, info, done}. */
  analysis: null,
  /** The newest search's look at the game, for the bar: {seat, info}; Yonin: each seat's place points. */
  evaluation: null,
  places: [0.5, 0.5, 0.5, 0.5],
  /** The review of the game: {worker, plan, entries, position, nodes, done, stopped, error}. */
  review: null,
  /** The reviewed move shown on the board. */
  reviewShown: null,
  hint: null,
  /** A move of the game shown instead of the position now (the move list, the review). */
  view: null,
  cursor: null,
  levels: 0,
};
window.yomiApp = app;

function setState(state) {
  app.state = state;
  document.body.dataset.state = state;
}

const isRoll = (move) => /^[1-6]{2}(:|$)/.test(move);
const seatOf = (turn) => (turn === "b" ? 0 : turn === "w" ? 1 : Number(turn));

// ---- dice from a seed (mulberry32): the k-th roll of a game is always the same ----
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

function roll() {
  const k = app.referee.moves.filter(isRoll).length;
  const rng = seeded(Number($("seed").value) || 0);
  for (let i = 0; i < 2 * k; i++) rng();
  return `${1 + Math.floor(rng() * 6)}${1 + Math.floor(rng() * 6)}`;
}

// ---- words ----
const sideName = (seat) => (t("side")[app.game] ?? app.seatNames)[seat];
/** A game's name for people: its translation, else the engine's name for it. */
const gameTitle = (game) => (t(`game.${game}`) === `game.${game}` ? game : t(`game.${game}`));
const whoName = (seat) => (app.seats[seat] === "cpu" ? t("cpu") : t("you"));
const seatLabel = (seat) => t("who", { side: sideName(seat), who: whoName(seat) });

/** A seat's colour (Yonin's four, else black and white). */
function seatDot(seat) {
  const dot = el("span", `seat-dot seat${seat}`);
  dot.dataset.game = app.game;
  return dot;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function applyLanguage() {
  document.title = t("title");
  // A message of the record box in the language before: gone.
  $("record-message").textContent = "";
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const o of $("game").options) o.textContent = gameTitle(o.value);
  if (app.referee) {
    buildRules();
    buildLevels();
    buildSeats();
    render();
  }
}

// ---- controls ----
/** The game's house rules, from its `option` lines: {name, type, default, min, max, vars}. */
function houseRules() {
  const options = app.referee.options();
  const end = options.findIndex((o) => o.name === "Threads");
  return options.slice(0, end).filter((o) => !NOT_HOUSE_RULES.has(o.name) && ["combo", "check", "spin"].includes(o.type));
}

/** The house-rule inputs, in words, the option's name as detail; `values` (or the inputs' own) kept. */
function buildRules(values = Object.fromEntries(rules())) {
  const box = $("rules");
  box.replaceChildren(el("legend", "", t("houseRules")));
  for (const o of houseRules()) {
    const label = el("label");
    const words = el("span", "words", t(`rules.${o.name}.label`));
    words.append(el("small", "option-name", o.name));
    label.append(words);
    const value = values[o.name] ?? o.default;
    let input;
    if (o.type === "combo" || o.name === "YoninFirstSeat") {
      input = el("select");
      const choices = o.type === "combo" ? o.vars : Array.from({ length: o.max - o.min + 1 }, (_, i) => String(o.min + i));
      for (const v of choices) {
        const text = o.type === "combo" ? t(`rules.${o.name}.values.${v}`) : t("side").yonin[Number(v)];
        input.append(new Option(typeof text === "string" && !text.startsWith("rules.") ? text : v, v, false, v === value));
      }
    } else if (o.type === "check") {
      input = Object.assign(el("input"), { type: "checkbox", checked: value === "true" });
    } else {
      input = Object.assign(el("input"), { type: "number", min: o.min, max: o.max, value });
    }
    input.dataset.option = o.name;
    input.addEventListener("change", () => {
      const pressed = lastPress;
      newGame();
      // A press on the board that took the focus from here (a number typed,
      // then the board clicked) lands on the new game's board: the cells it
      // was pressed on are gone, so the press is the click.
      if (pressed && performance.now() - pressed.at < 500 && pressed.onBoard && !pressed.target.isConnected) {
        document.elementFromPoint(pressed.x, pressed.y)?.closest(CELLS)?.click();
      }
    });
    label.append(input);
    box.append(label);
  }
}

function rules() {
  return [...$("rules").querySelectorAll("[data-option]")].map((input) => [
    input.dataset.option,
    input.type === "checkbox" ? String(input.checked) : input.value,
  ]);
}

/** The game's levels (`Level` 0 … n, n full strength), each with its measured Elo. */
function buildLevels() {
  const select = $("level");
  const old = select.value;
  const level = app.referee.options().find((o) => o.name === "Level");
  const n = level.max;
  let keep = old === "elo" ? "elo" : old === "" ? String(Math.round(n / 2)) : String(Math.round((Number(old) * n) / (app.levels || n)));
  if (app.presetLevel !== undefined) {
    keep = app.presetLevel;
    delete app.presetLevel;
  }
  app.levels = n;
  select.replaceChildren();
  // A game no ladder has measured yet has no Elo to show.
  const elo = LEVEL_ELO[app.game] ?? [];
  for (let i = 0; i <= n; i++) {
    const text = i === n ? t("levelFull", { elo: elo[i] ?? "?" }) : t("levelItem", { level: i, elo: elo[i] ?? "?" });
    select.append(new Option(text, String(i)));
  }
  select.append(new Option(t("byElo"), "elo"));
  select.value = [...select.options].some((o) => o.value === keep) ? keep : String(Math.round(n / 2));
  // USI_Elo's range is the game's measured levels (docs/cpu-seats.md).
  const range = app.referee.options().find((o) => o.name === "USI_Elo");
  const input = $("elo");
  if (range) Object.assign(input, { min: range.min, max: range.max, value: Math.min(Math.max(Number(input.value) || range.min, range.min), range.max) });
  showElo();
}

function showElo() {
  $("elo-label").hidden = $("level").value !== "elo";
}

/** The setoption lines of the CPU's strength: a level, or an Elo. */
function strength() {
  const level = $("level").value;
  return level === "elo"
    ? ["setoption name USI_LimitStrength value true", `setoption name USI_Elo value ${$("elo").value}`]
    : ["setoption name USI_LimitStrength value false", `setoption name Level value ${level}`];
}

function buildSeats() {
  const box = $("seats");
  const old = app.seats;
  box.replaceChildren(el("legend", "", t("seats")));
  app.seatNames = app.referee.seats();
  const n = app.seatNames.length;
  app.seats = Array.from({ length: n }, (_, i) => old[i] ?? (i === 0 ? "human" : "cpu"));
  app.seats.forEach((who, i) => {
    const label = el("label");
    label.append(seatDot(i), el("span", "words", sideName(i)));
    const select = el("select");
    select.dataset.seat = i;
    select.append(new Option(t("you"), "human", false, who === "human"), new Option(t("cpu"), "cpu", false, who === "cpu"));
    select.addEventListener("change", () => {
      app.seats[i] = select.value;
      app.hint = null;
      advance();
    });
    label.append(select);
    box.append(label);
  });
  $("seed-label").hidden = app.game !== "sugoroku";
}

/** A board seen from the second seat when only that seat is a person's. */
function orient() {
  const people = app.seats.map((s, i) => (s === "human" ? i : -1)).filter((i) => i >= 0);
  app.flipped = people.length === 1 && (app.game === "yonin" ? people[0] === 2 : people[0] === 1);
}

function clearPlay() {
  cancelCpu();
  app.thinking = null;
  $("thinking").textContent = "";
  app.selected = null;
  app.choice = null;
  app.hint = null;
  app.view = null;
  app.analysis = null;
  app.evaluation = null;
  app.places = [0.5, 0.5, 0.5, 0.5];
  cancelReview();
}

function newGame() {
  clearPlay();
  app.game = $("game").value;
  if (app.referee.game !== app.game) {
    app.referee.setGame(app.game);
    buildRules({});
    buildLevels();
  }
  for (const [name, value] of rules()) app.referee.setOption(name, value);
  app.referee.newGame();
  buildSeats();
  orient();
  app.movers = [];
  advance();
}

/** Starts the current game from a position (SFEN, moves): for the tests, or a
 * site that opens the page on a position. */
app.setup = (sfen, moves = []) => {
  clearPlay();
  app.referee.setPosition(sfen, moves);
  replayMovers();
  advance();
};

/** The seat that made each move of the referee's game, found by replaying it. */
function replayMovers() {
  const { moves, start } = app.referee;
  app.movers = moves.map((_, i) => {
    app.referee.send(app.referee.positionLine(moves.slice(0, i), start));
    return seatOf(app.referee.status().turn);
  });
  app.referee.send(app.referee.positionLine());
}

// ---- the flow of a game ----
function play(move) {
  const seat = seatOf(app.referee.status().turn);
  app.referee.play(move);
  app.movers.push(seat);
  app.selected = null;
  app.choice = null;
  app.hint = null;
  app.view = null;
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
        setState("human");
        render(status);
        const position = positionLine();
        setTimeout(() => {
          if (positionLine() !== position) return;
          play("pass");
          advance();
        }, 400);
        return;
      }
      app.steps = sugorokuSteps(status);
    }
    setState(status.over ? "over" : "human");
    if (!status.over) analyse(seat);
    // A finished game is reviewed at once (unless it is already).
    else if (app.review?.position !== positionLine()) startReview();
  }
  render(status);
}

// ---- the worker: the CPU's moves and the analysis ----
const positionLine = () => app.referee.positionLine();

/** Sends a search to the worker; its answer comes to `onWorkerLine` as `app.request`. */
function search(kind, seat, strengthLines, movetime) {
  const position = positionLine();
  const config = [
    `setoption name USI_Variant value ${app.game}`,
    "setoption name USI_Hash value 16",
    // No network between page and engine: a small margin suffices.
    "setoption name TimeMargin value 50",
    ...rules().map(([name, value]) => `setoption name ${name} value ${value}`),
    ...strengthLines,
    `setoption name Seed value ${Number($("seed").value) || 0}`,
  ].join("\n");
  const lines = [];
  if (config !== app.workerConfig) {
    lines.push(config);
    app.workerConfig = config;
  }
  lines.push(position, `go movetime ${movetime}`, "isready");
  app.request = { id: ++app.asked, kind, position, seat, best: null, info: null, started: performance.now() };
  app.worker.postMessage(lines.join("\n"));
  return app.request;
}

function askCpu(seat) {
  if (app.request && app.request.kind === "move" && app.request.position === positionLine()) return;
  setState("thinking");
  search("move", seat, strength(), Math.max(100, Number($("movetime").value) || 1000));
}

/** The person's turn: the engine at full strength looks at the position, for the bar and the hint. */
function analyse(seat) {
  const position = positionLine();
  if (app.analysis && app.analysis.position === position) return;
  app.analysis = { position, seat, best: null, info: null, done: false };
  search("analysis", seat, ["setoption name USI_LimitStrength value false", `setoption name Level value ${app.levels}`], ANALYSIS_MS);
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
    if (request.kind === "analysis") {
      Object.assign(app.analysis, { best: request.best, info: request.info, done: true });
      if (app.wantHint) showHint();
      return;
    }
    if (!request.best || request.best === "resign") {
      app.thinking = null;
      $("thinking").textContent = t("cpuNoMove");
      setState("over");
      return;
    }
    app.firstCpuMoveMs ??= performance.now();
    const finish = () => {
      // The position moved on, or the seat was handed to a person during the pause.
      if (positionLine() !== request.position || app.seats[request.seat] !== "cpu") return advance();
      try {
        play(request.best);
      } catch (e) {
        app.thinking = null;
        $("thinking").textContent = t("cpuRefused", { move: request.best, reason: e.message });
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
      if (info.string.startsWith("error")) {
        app.thinking = null;
        $("thinking").textContent = info.string;
      }
    } else if (request && info.score) {
      request.info = info;
      if (request.kind === "move") showThinking(request, info);
      // The bar follows every search of the position on the board: the analysis and the CPU's own.
      if (!info.score.bound && request.position === positionLine()) noteEvaluation(request.seat, info);
    }
  }
}

function showThinking(request, info) {
  app.thinking = { seat: request.seat, depth: info.depth };
  drawThinking();
}

/** The CPU's search as a player reads it: whose, and how deep (in the page's language). */
function drawThinking() {
  const box = $("thinking");
  if (!app.thinking) return;
  box.textContent = `${seatLabel(app.thinking.seat)}: ${t("depth", { depth: app.thinking.depth })}`;
  box.dataset.depth = app.thinking.depth;
}

// ---- evaluation: the analysis as a player reads it ----
/** {chance (0–1) of `seat`, text} from an info line searched for `seat`, the side to move. */
function judge(info, seat) {
  if (info.score.mate !== undefined) {
    const mate = info.score.mate;
    const winner = mate > 0 ? seat : app.seatNames.length === 2 ? 1 - seat : null;
    const n = app.seatNames.length === 2 ? Math.ceil(Math.abs(mate) / 2) : Math.abs(mate);
    return { chance: mate > 0 ? 1 : 0, text: winner === null ? t("evalFor", { side: seatLabel(seat), value: `−M${n}` }) : t("evalMate", { side: seatLabel(winner), n }) };
  }
  if (app.game === "sugoroku") {
    const chance = info.probs ? info.probs[0] / 1000 : 1 / (1 + Math.exp(-info.score.cp / 400));
    const [leader, share] = chance >= 0.5 ? [seat, chance] : [1 - seat, 1 - chance];
    return { chance, text: t("evalChance", { side: seatLabel(leader), percent: Math.round(share * 100) }) };
  }
  const cp = info.score.cp;
  const chance = 1 / (1 + Math.exp(-cp / cpScale()));
  if (Math.abs(cp) < 30) return { chance, text: t("evalEven") };
  const leader = cp > 0 ? seat : 1 - seat;
  return { chance, text: t("evalAhead", { side: seatLabel(leader), value: signed(Math.abs(cp) / 100, 1) }) };
}

const signed = (x, digits) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;

/** A Yonin search score as the seat's place points (1st 1 … 4th 0), as the review maps it (docs/review.md). */
function placePoints(score) {
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  const cp = Math.max(-20000, Math.min(20000, score.cp));
  if (cp >= 10000) return 2 / 3 + (cp - 10000) / 30000;
  if (cp <= -10000) return 1 / 3 + (cp + 10000) / 30000;
  return 0.5 + cp / 60000;
}

/** The newest look at the position of `seat` (the one to move): the bar and its words follow it. */
function noteEvaluation(seat, info) {
  app.evaluation = { seat, info };
  if (app.game === "yonin") app.places[seat] = placePoints(info.score);
  renderEval();
}

/**
 * The bar: the first seat's share (its chance to win) against the second's;
 * Yonin: four parts, each seat's share of the place points, each from the
 * newest search for that seat (a checkmated seat has none), its words each
 * seat's expected place.
 */
function renderEval(status = app.referee.status()) {
  const bar = $("evalbar");
  const yonin = app.game === "yonin";
  const parts = yonin ? 4 : 1;
  if (bar.children.length !== parts) bar.replaceChildren(...Array.from({ length: parts }, (_, i) => el("div", `fill seat${i}`)));
  for (const fill of bar.children) fill.dataset.game = app.game;
  let shares = null;
  let text = "";
  if (yonin) {
    const out = new Set((status.out ?? "-").split(",").filter((x) => x && x !== "-").map((x) => Number(x.split(":")[0])));
    const points = status.over && status.places ? status.places.map((p) => (4 - p) / 3) : app.places.map((p, i) => (out.has(i) ? 0 : p));
    const sum = points.reduce((a, b) => a + b, 0) || 1;
    shares = points.map((p) => p / sum);
    if (!status.over && app.evaluation) text = t("evalPlaces", { list: shares.map((p, i) => `${sideName(i)} ${(4 - 6 * p).toFixed(1)}`).join(", ") });
  } else if (status.over) {
    shares = [status.draw ? 0.5 : seatOf(status.winner) === 0 ? 1 : 0];
  } else if (app.evaluation) {
    const { seat, info } = app.evaluation;
    const verdict = judge(info, seat);
    text = verdict.text;
    shares = [seat === 0 ? verdict.chance : 1 - verdict.chance];
  }
  if (shares) {
    [...bar.children].forEach((fill, i) => {
      fill.style.width = `${(shares[i] * 100).toFixed(1)}%`;
    });
    bar.dataset.share = shares[0].toFixed(3);
  } else if (!app.evaluation) {
    for (const fill of bar.children) fill.style.width = `${100 / parts}%`;
    delete bar.dataset.share;
  }
  bar.title = t("evaluation");
  bar.classList.toggle("turned", app.flipped && !yonin);
  $("eval-text").textContent = text;
}

// ---- hint ----
function showHint() {
  if (app.state !== "human") return;
  const a = app.analysis;
  if (!a || a.position !== positionLine() || !a.done) {
    app.wantHint = true;
    $("hint-text").textContent = t("hintWait");
    return;
  }
  app.wantHint = false;
  app.hint = a.best && a.best !== "resign" ? a.best : null;
  render();
}

/**
 * The squares (9×9) or points (Sugoroku, b's numbering) of the hint: [from,
 * to] pairs; on a reviewed move's position, the engine's best move there.
 */
function hintMarks() {
  const shown = reviewed();
  if (shown) return movePlaces(shown.best ?? "", shown.seatIndex);
  return app.hint && app.view === null ? movePlaces(app.hint, seatOf(app.referee.status().turn)) : [];
}

/** The reviewed move shown on the board, if the board shows one. */
const reviewed = () => (app.view !== null && app.reviewShown?.before === app.view ? app.reviewShown : null);

/** The seat whose hand a hint or a reviewed move marks. */
const markedSeat = () => reviewed()?.seatIndex ?? (app.view === null ? seatOf(app.referee.status().turn) : -1);

/** The places of the move played, on a reviewed move's position. */
function playedMarks() {
  const shown = reviewed();
  return shown ? movePlaces(shown.played, shown.seatIndex).flat() : [];
}

// ---- take-back: the person's last move and everything after it ----
/** The number of moves to keep, or −1 when no person's move can be taken back. */
function takeBackPoint() {
  const moves = app.referee.moves;
  for (let i = moves.length - 1; i >= 0; i--) {
    const m = moves[i];
    if (app.seats[app.movers[i]] !== "human" || m === "pass" || /^[1-6]{2}$/.test(m)) continue;
    if (app.game !== "sugoroku") return i;
    // Sugoroku: back to the start of that turn, its roll kept.
    let j = i;
    while (j > 0 && !isRoll(moves[j - 1]) && app.movers[j - 1] === app.movers[i]) j--;
    return j;
  }
  return -1;
}

function takeBack() {
  const keep = takeBackPoint();
  if (keep < 0) return;
  const moves = app.referee.moves.slice(0, keep);
  const cut = app.referee.moves[keep];
  // A record entry with its dice (`52:13/8,13/11`): its roll stays.
  if (app.game === "sugoroku" && /^[1-6]{2}:/.test(cut)) moves.push(cut.slice(0, 2));
  clearPlay();
  app.referee.setPosition(app.referee.start, moves);
  replayMovers();
  advance();
}

// ---- export and import: the game as the protocol's own lines ----
function recordText() {
  return [
    `setoption name USI_Variant value ${app.game}`,
    ...rules().map(([name, value]) => `setoption name ${name} value ${value}`),
    positionLine(),
  ].join("\n");
}

class RecordError extends Error {}

/** Reads a record; the page changes only if the engine accepts all of it. */
function importRecord(text) {
  const saved = { game: app.game, rules: rules(), start: app.referee.start, moves: [...app.referee.moves] };
  let parsed;
  try {
    parsed = readRecord(text);
  } catch (e) {
    return showRecordMessage(t("badRecord", { reason: e.message }), true);
  }
  try {
    if (app.referee.game !== parsed.game) app.referee.setGame(parsed.game);
    const known = houseRules();
    for (const [name] of parsed.options) {
      if (!known.some((o) => o.name === name)) throw new RecordError(t("bad.rule", { name }));
    }
    const values = Object.fromEntries(known.map((o) => [o.name, o.default]));
    for (const [name, value] of parsed.options) values[name] = value;
    for (const [name, value] of Object.entries(values)) app.referee.setOption(name, value);
    app.referee.newGame();
    app.referee.setPosition(parsed.sfen, parsed.moves);
    // The engine reads the position back.
    if (!app.referee.diagram().sfen) throw new RecordError(t("bad.position"));
    clearPlay();
    $("game").value = parsed.game;
    app.game = parsed.game;
    buildRules(values);
    buildLevels();
    buildSeats();
    replayMovers();
    advance();
    showRecordMessage(t("loaded"), false);
    return true;
  } catch (e) {
    if (app.referee.game !== saved.game) app.referee.setGame(saved.game);
    for (const [name, value] of saved.rules) app.referee.setOption(name, value);
    app.referee.newGame();
    app.referee.setPosition(saved.start, saved.moves);
    return showRecordMessage(t("badRecord", { reason: e.message }), true);
  }
}

/** {game, options: [[name, value]], sfen, moves} from the record's lines. */
function readRecord(text) {
  let game = app.game;
  const options = [];
  let position = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const option = line.match(/^setoption\s+name\s+(\S+)\s+value\s+(.+)$/);
    if (option) {
      if (option[1] === "USI_Variant") {
        if (!app.games.includes(option[2].trim())) throw new RecordError(t("bad.game"));
        game = option[2].trim();
      } else options.push([option[1], option[2].trim()]);
    } else if (/^position\s/.test(line) && position === null) {
      position = line;
    } else if (line !== "usinewgame") {
      throw new RecordError(t("bad.line", { n: i + 1 }));
    }
  });
  if (!position) throw new RecordError(t("bad.position"));
  const m = position.match(/^position\s+(startpos|sfen\s+(.+?))(?:\s+moves\s+(.*))?$/);
  if (!m) throw new RecordError(t("bad.position"));
  return { game, options, sfen: m[2] ?? null, moves: m[3] ? m[3].trim().split(/\s+/) : [] };
}

function showRecordMessage(text, bad) {
  const box = $("record-message");
  box.textContent = text;
  box.classList.toggle("bad", bad);
  return !bad;
}

function linkTo() {
  const url = new URL(location.href);
  url.hash = `record=${encodeURIComponent(recordText())}`;
  return url.href;
}

// ---- clicks ----
function clickSquare(square) {
  if (app.state !== "human" || app.choice || app.view !== null) return;
  const from = app.selected;
  if (from) {
    // The destination is the second square of "7g7f" and of a drop "P*5e".
    const moves = app.legal.filter((m) => m.startsWith(from) && m.slice(2, 4) === square);
    if (moves.length === 1) return humanPlay(moves[0]);
    if (moves.length > 1) {
      app.choice = moves;
      return render();
    }
  }
  app.selected = app.legal.some((m) => m.startsWith(square)) && from !== square ? square : null;
  render();
}

function clickHand(letter) {
  if (app.state !== "human" || app.view !== null) return;
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
  if (app.state !== "human" || app.view !== null) return;
  if (app.selected) {
    const step = app.steps.find((s) => s.from === app.selected && s.to === point);
    if (step) return humanPlay(step.entry);
  }
  app.selected = app.steps.some((s) => s.from === point) && app.selected !== point ? point : null;
  render();
}

// ---- a past position, for the move list and the review ----
/** Shows the position after `ply` moves of the game (null: the game as it stands). */
function viewPly(ply) {
  app.view = ply === null || ply >= app.referee.moves.length ? null : Math.max(0, ply);
  app.selected = null;
  app.reviewShown = null;
  render();
}
app.viewPly = viewPly;

/** The diagram and status after `ply` moves, the referee left where it was. */
function positionAt(ply) {
  const r = app.referee;
  r.send(r.positionLine(r.moves.slice(0, ply)));
  const result = { sfen: r.diagram().sfen, status: r.status(), ...lastMove(ply) };
  r.send(r.positionLine());
  return result;
}

// ---- drawing ----
function render(status = app.referee.status()) {
  const shown = app.view === null ? { sfen: app.referee.diagram().sfen, status, ...lastMove(app.referee.moves.length) } : positionAt(app.view);
  const board = $("board");
  board.replaceChildren();
  board.classList.toggle("turned", app.flipped);
  if (app.game === "sugoroku") drawSugoroku(board, shown);
  else drawShogi(board, shown);
  drawChoice();
  $("status").textContent = statusText(status);
  $("status").dataset.turn = status.over ? "" : status.turn;
  drawRecord();
  renderEval(status);
  drawThinking();
  $("viewing").hidden = app.view === null;
  const move = reviewed();
  $("viewing-text").textContent = move
    ? t("reviewShown", { ply: move.ply, side: seatLabel(move.seatIndex), played: move.played, verdict: t(`verdict.${move.verdict}`), best: move.best ?? "—" })
    : "";
  drawReview();
  $("takeback").disabled = takeBackPoint() < 0;
  $("hint").disabled = app.state !== "human";
  const passing = app.state === "human" && app.legal.length === 1 && app.legal[0] === "pass";
  $("hint-text").textContent = passing ? t("pass") : app.hint ? t("hintIs", { move: app.hint }) : app.wantHint && app.state === "human" ? t("hintWait") : "";
  if (app.state !== "human") app.wantHint = false;
  markCursor();
}

/** The last move of the first `ply` moves that moved something (a roll moves nothing): {last, lastSeat}. */
function lastMove(ply) {
  const moves = app.referee.moves;
  let i = ply - 1;
  while (i >= 0 && /^[1-6]{2}$/.test(moves[i])) i--;
  return { last: moves[i] ?? null, lastSeat: app.movers[i] };
}

/** The last move's squares, or Sugoroku's points (b's numbering): [from, to] pairs. */
function lastMarks(shown) {
  return shown.last ? movePlaces(shown.last, shown.lastSeat) : [];
}

/**
 * Where a move (of `seat`) goes on the board: [from, to] pairs of squares (a
 * drop's from is `P*`), or of Sugoroku's points in b's numbering (`bar`,
 * `off`), one pair a stone; none for a roll or a pass.
 */
function movePlaces(move, seat) {
  if (app.game !== "sugoroku") {
    const m = move.match(/^(?:([1-9][a-i])|([A-Z])\*)([1-9][a-i])/);
    return m ? [[m[1] ?? `${m[2]}*`, m[3]]] : [];
  }
  const mine = (p) => (p === "bar" || p === "off" ? p : String(seat === 0 ? Number(p) : 25 - Number(p)));
  return move
    .split(":")
    .pop()
    .split(",")
    .map((step) => step.split("/"))
    .filter((step) => step.length === 2)
    .map(([from, to]) => [mine(from), mine(to)]);
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
  const facing = (cell.facing + (app.flipped ? 2 : 0)) % 4;
  const classes = ["piece", `seat${cell.owner}`, ["", "r90", "r180", "r270"][facing]];
  if (cell.promoted) classes.push("promoted");
  if (cell.flipped) classes.push("flipped");
  const e = el("span", classes.join(" "), glyph);
  e.title = sideName(cell.owner);
  return e;
}

function drawShogi(board, shown) {
  const fields = shown.sfen.split(" ");
  const yonin = app.game === "yonin";
  // Shogi's SFEN: board, side, hands; Yonin's: board, hands, seat due, …
  const [field, hands] = [fields[0], fields[yonin ? 1 : 2]];
  const cells = parseBoard(field, yonin);
  const to = targets();
  const last = lastMarks(shown).flat();
  const hint = hintMarks().flat();
  const played = playedMarks();
  const order = (list) => (app.flipped ? [...list].reverse() : list);
  const [top, bottom] = app.flipped ? [0, 1] : [1, 0];
  if (app.game === "annan") board.append(drawHands(parseShogiHands(hands, top), top, hint, played));
  const grid = el("div", yonin ? "grid yonin" : "grid");
  const files = order([...FILES]);
  grid.append(el("div", "label"));
  for (const f of files) grid.append(el("div", "label", f));
  grid.append(el("div", "label"));
  for (const r of order([0, 1, 2, 3, 4, 5, 6, 7, 8])) {
    grid.append(el("div", "label"));
    for (const f of files) {
      const c = FILES.indexOf(f);
      const cell = cells[r][c];
      const square = f + RANKS[r];
      const sq = el("div", "sq");
      sq.dataset.square = square;
      if (cell) {
        sq.dataset.piece = (cell.promoted ? "+" : "") + cell.piece + cell.owner;
        sq.append(pieceElement(cell));
      }
      if (square === app.selected) sq.classList.add("from");
      if (to.has(square)) sq.classList.add("to");
      if (last.includes(square)) sq.classList.add("last");
      if (hint.includes(square)) sq.classList.add("hint");
      if (played.includes(square)) sq.classList.add("played");
      sq.addEventListener("click", () => clickSquare(square));
      grid.append(sq);
    }
    grid.append(el("div", "label", RANKS[r]));
  }
  board.append(grid);
  if (app.game === "annan") board.append(drawHands(parseShogiHands(hands, bottom), bottom, hint, played));
  if (yonin) {
    const all = el("div", "hands yonin");
    hands.split("/").forEach((hand, seat) => all.append(drawHands(parseCounts(hand), seat, hint, played)));
    board.append(all);
  }
}

function targets() {
  if (!app.selected || app.view !== null) return new Set();
  const from = app.selected;
  return new Set(app.legal.filter((m) => m.startsWith(from)).map((m) => m.slice(2, 4)));
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

function drawHands(counts, seat, hint, played) {
  const hand = el("div", "hand");
  hand.dataset.hand = seat;
  hand.append(el("span", "hand-name", t("inHand", { side: seatLabel(seat) })));
  const mine = app.state === "human" && app.view === null && seat === seatOf(app.referee.status().turn);
  for (const letter of HAND_ORDER) {
    if (!counts[letter]) continue;
    const sq = el("div", "sq");
    sq.dataset.drop = letter;
    sq.dataset.owner = seat;
    sq.append(pieceElement({ piece: letter, owner: seat, facing: app.game === "yonin" ? seat : seat * 2, promoted: false }));
    if (app.selected === `${letter}*` && mine) sq.classList.add("from");
    if (seat === markedSeat() && hint.includes(`${letter}*`)) sq.classList.add("hint");
    if (seat === markedSeat() && played.includes(`${letter}*`)) sq.classList.add("played");
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
  box.append(el("span", "", `${t("promote")} `));
  for (const move of app.choice) {
    const b = el("button", "", `${move.endsWith("+") ? t("promoteYes") : t("promoteNo")} (${move})`);
    b.dataset.move = move;
    b.addEventListener("click", () => humanPlay(move));
    box.append(b);
  }
}

function drawSugoroku(board, shown) {
  const { sfen, status } = shown;
  const fields = sfen.split(" ");
  const points = fields[0].split("/");
  const [barB, barW] = fields[1].split("/");
  const [offB, offW] = fields[2].split("/");
  const live = app.view === null;
  const grid = el("div", "sugoroku");
  const froms = new Set(live ? app.steps.map((s) => s.from) : []);
  const tos = new Set(live ? app.steps.filter((s) => s.from === app.selected).map((s) => s.to) : []);
  const last = lastMarks(shown).flat();
  const hint = hintMarks().flat();
  const played = playedMarks();
  // Numbers as the viewer counts: b's from below, w's when the board is flipped.
  const label = (p) => (p === "bar" ? "" : String(app.flipped ? 25 - p : p));
  const numbers = (list) => {
    for (const p of list) grid.append(el("div", "num", label(p)));
    grid.append(el("div", "num"));
  };
  const mark = (cell, key) => {
    if (last.includes(key)) cell.classList.add("last");
    if (hint.includes(key)) cell.classList.add("hint");
    if (played.includes(key)) cell.classList.add("played");
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
    mark(cell, String(p));
    cell.addEventListener("click", () => clickPoint(String(p)));
    return cell;
  };
  const bar = (count, color) => {
    const cell = el("div", "bar", `${t("bar")}\n${count}`);
    // The bar of the side to move is a point to click; the other is only shown.
    if (status.turn === color) cell.dataset.point = "bar";
    cell.dataset.color = color;
    cell.dataset.stones = `${count}${color}`;
    if (app.selected === "bar" && status.turn === color) cell.classList.add("from");
    if (status.turn === color) mark(cell, "bar");
    if (status.turn === color && froms.has("bar")) cell.addEventListener("click", () => clickPoint("bar"));
    return cell;
  };
  const tray = (count, color) => {
    const cell = el("div", "tray", `${t("off")}\n${count}`);
    cell.dataset.color = color;
    if (status.turn === color) {
      cell.dataset.point = "off";
      if (tos.has("off")) cell.classList.add("to");
      mark(cell, "off");
      cell.addEventListener("click", () => clickPoint("off"));
    }
    return cell;
  };
  const dice = el("div", "dice");
  if (!status.over) dice.append(el("span", "", t("toPlay", { side: seatLabel(seatOf(status.turn)) })));
  for (const d of status.dice === "-" ? [] : status.dice.split("")) dice.append(el("span", "die", d));
  dice.dataset.dice = status.dice;
  dice.setAttribute("aria-label", t("dice"));
  // b's home at the lower right; flipped, the board turned round for w.
  const rows = app.flipped
    ? [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [24, 23, 22, 21, 20, 19], [18, 17, 16, 15, 14, 13]]
    : [[13, 14, 15, 16, 17, 18], [19, 20, 21, 22, 23, 24], [12, 11, 10, 9, 8, 7], [6, 5, 4, 3, 2, 1]];
  const [topBar, bottomBar] = app.flipped ? [[barB, "b"], [barW, "w"]] : [[barW, "w"], [barB, "b"]];
  const [topTray, bottomTray] = app.flipped ? [[offB, "b"], [offW, "w"]] : [[offW, "w"], [offB, "b"]];
  numbers([...rows[0], "bar", ...rows[1]]);
  for (const p of rows[0]) grid.append(point(p, false));
  grid.append(bar(...topBar));
  for (const p of rows[1]) grid.append(point(p, false));
  grid.append(tray(...topTray));
  grid.append(dice);
  for (const p of rows[2]) grid.append(point(p, true));
  grid.append(bar(...bottomBar));
  for (const p of rows[3]) grid.append(point(p, true));
  grid.append(tray(...bottomTray));
  numbers([...rows[2], "bar", ...rows[3]]);
  board.append(grid);
}

/** The move list in the game's notation; Sugoroku's turns as record entries (`52: 13/8, 13/11`). */
function drawRecord() {
  const list = $("record");
  list.replaceChildren();
  const moves = app.referee.moves;
  const current = app.view ?? moves.length;
  let item = null;
  moves.forEach((move, i) => {
    const seat = app.movers[i];
    const continues = app.game === "sugoroku" && item && !isRoll(move) && item.dataset.mover === String(seat);
    if (!continues) {
      item = el("li");
      item.dataset.mover = seat;
      item.append(seatDot(seat), el("span", "mover", sideName(seat)));
      list.append(item);
    }
    const text = app.game === "sugoroku" && isRoll(move) ? `${move}${move.includes(":") ? "" : ":"}` : move;
    const span = el("button", "move", text);
    span.type = "button";
    span.dataset.ply = i + 1;
    if (i + 1 === current) {
      span.classList.add("current");
      item.classList.add("current");
    }
    span.addEventListener("click", () => viewPly(i + 1));
    item.append(span);
  });
  // The list scrolls by itself to the newest move, or to the move shown (the page does not move).
  const shown = list.querySelector("li.current");
  if (app.view === null || !shown) list.scrollTop = list.scrollHeight;
  else list.scrollTop = shown.offsetTop - list.offsetTop - (list.clientHeight - shown.offsetHeight) / 2;
}

function statusText(s) {
  const details = [];
  if (s.captured) details.push(t("captured", { b: s.captured.b, w: s.captured.w }));
  if (s.check === "yes") details.push(t("check"));
  if (app.game === "yonin") {
    // `out 2:0,3:1`: seat 2 mated by seat 0, then seat 3 by seat 1.
    const names = (text) => text.split(",").map((x) => sideName(Number(x.split(":")[0]))).join(", ");
    if (s.check && s.check !== "-") details.push(t("inCheck", { seats: s.check.split("").map((x) => sideName(Number(x))).join(", ") }));
    if (s.out && s.out !== "-") details.push(t("out", { seats: names(s.out) }));
    const mates = (s.mates ?? "").split(",").map(Number);
    if (mates.some((n) => n > 0)) details.push(t("mates", { list: mates.map((n, i) => `${sideName(i)} ${n}`).filter((_, i) => mates[i] > 0).join(", ") }));
  }
  if (app.game === "sugoroku") {
    const pair = (text) => text.split(",");
    const [pb, pw] = pair(s.pips);
    details.push(t("pips", { b: pb, w: pw }));
    const [bb, bw] = pair(s.bar);
    if (bb !== "0" || bw !== "0") details.push(t("barStones", { b: bb, w: bw }));
    const [ob, ow] = pair(s.off);
    if (ob !== "0" || ow !== "0") details.push(t("offStones", { b: ob, w: ow }));
  }
  let head;
  const reason = s.reason ? ` (${t(`reason.${s.reason}`)})` : "";
  if (s.over) {
    if (s.draw) head = `${t("over")}: ${t("draw")}${reason}`;
    else if (s.places) head = `${t("over")}: ${t("places", { list: s.places.map((p, i) => t("place", { side: seatLabel(i), place: p })).join(", ") })}${reason}`;
    else {
      const winner = seatOf(s.winner);
      const people = app.seats.filter((who) => who === "human").length;
      let words = s.points > 1 ? t("winsPoints", { side: seatLabel(winner), points: s.points }) : t("wins", { side: seatLabel(winner) });
      if (people === 1 && app.seats[winner] === "human" && !(s.points > 1)) words = t("youWin");
      head = `${t("over")}: ${words}${reason}`;
    }
  } else {
    const seat = seatOf(s.turn);
    head = t(app.seats[seat] === "cpu" ? "cpuThinking" : "yourMove", { side: sideName(seat) });
  }
  return [head, ...details].join(" · ");
}

/** The last press of a pointer, for a house rule's change that it brings about. */
let lastPress = null;
document.addEventListener(
  "pointerdown",
  (e) => (lastPress = { x: e.clientX, y: e.clientY, target: e.target, onBoard: Boolean(e.target.closest?.("#board")), at: performance.now() }),
  true,
);

// ---- keyboard: arrows move a cursor over the board, Enter or Space clicks ----
const CELLS = "#board [data-square], #board [data-drop], #board [data-point]";
const cellKey = (e) => (e.dataset.square ? `s${e.dataset.square}` : e.dataset.drop ? `d${e.dataset.owner}${e.dataset.drop}` : `p${e.dataset.point}${e.dataset.color ?? ""}`);

function markCursor() {
  for (const e of document.querySelectorAll(CELLS)) e.classList.toggle("cursor", cellKey(e) === app.cursor);
}

function moveCursor(dx, dy) {
  const cells = [...document.querySelectorAll(CELLS)];
  if (!cells.length) return;
  const centre = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  const now = cells.find((e) => cellKey(e) === app.cursor);
  if (!now) {
    app.cursor = cellKey(cells[Math.floor(cells.length / 2)]);
    return markCursor();
  }
  const [x, y] = centre(now);
  let best = null;
  let bestCost = Infinity;
  for (const e of cells) {
    const [ex, ey] = centre(e);
    const along = (ex - x) * dx + (ey - y) * dy;
    if (along <= 2) continue;
    const across = Math.abs((ex - x) * dy) + Math.abs((ey - y) * dx);
    const cost = along + 3 * across;
    if (cost < bestCost) [best, bestCost] = [e, cost];
  }
  if (best) app.cursor = cellKey(best);
  markCursor();
}

function onKey(e) {
  if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (arrows[e.key]) {
    moveCursor(...arrows[e.key]);
  } else if ((e.key === "Enter" || e.key === " ") && app.cursor && !e.target.closest("button")) {
    [...document.querySelectorAll(CELLS)].find((c) => cellKey(c) === app.cursor)?.click();
  } else if (e.key === "h" || e.key === "H") {
    showHint();
  } else if (e.key === "u" || e.key === "U" || e.key === "Backspace") {
    takeBack();
  } else if (e.key === "f" || e.key === "F") {
    flip();
  } else if (e.key === "Escape") {
    app.selected = null;
    app.choice = null;
    render();
  } else return;
  e.preventDefault();
}

function flip() {
  app.flipped = !app.flipped;
  render();
}

// ---- the review: a second worker judges every move, the page shows the verdicts ----
const VERDICT_COLOURS = { best: "#2a7d3a", good: "#6a9a3a", inaccuracy: "#d9a21b", mistake: "#e0661b", blunder: "#c0261d" };
const MARKED = ["inaccuracy", "mistake", "blunder"];
/** The review's budget a move, in nodes (the same verdicts every time; `?review=<nodes>` changes it); a game not named here, 20 000. */
const REVIEW_NODES = { hasami: 150000, annan: 100000, yonin: 30000, sugoroku: 20000 };
const reviewNodes = () => Number(new URLSearchParams(location.search).get("review")) || (REVIEW_NODES[app.game] ?? 20000);
/** Seat colours of the Yonin graph (the pieces' colours). */
const SEAT_COLOURS = ["#111", "#b0271d", "#1d4fb0", "#237a2e"];

/**
 * The moves the review judges, from the referee: [{ply, before, after}], the
 * ply as `status` counts it, `before` the moves played before it (in
 * Sugoroku: its roll included) and `after` the moves once it is played.
 */
function reviewPlan() {
  const r = app.referee;
  const plies = r.moves.map((_, i) => {
    r.send(r.positionLine(r.moves.slice(0, i)));
    const s = r.status();
    return { ply: s.ply, rolled: s.dice !== "-" };
  });
  r.send(r.positionLine());
  plies.push({ ply: r.status().ply, rolled: false });
  const plan = [];
  for (let j = 0; j + 1 < plies.length; j++) {
    if (plies[j + 1].ply <= plies[j].ply) continue;
    let before = j;
    while (before > 0 && plies[before - 1].ply === plies[j].ply && plies[before - 1].rolled) before--;
    plan.push({ ply: plies[j].ply + 1, before, after: j + 1 });
  }
  return plan;
}

/** Reviews the game in a worker of its own, the page free meanwhile; a review under way is dropped. */
function startReview() {
  cancelReview(false);
  const plan = reviewPlan();
  if (!plan.length) return;
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.postMessage(app.referee.protocol.module);
  const run = { worker, plan, entries: [], position: positionLine(), nodes: reviewNodes(), done: false, stopped: false, error: null };
  app.review = run;
  app.reviewShown = null;
  worker.onmessage = (e) => onReviewLine(run, String(e.data));
  worker.postMessage(
    [
      `setoption name USI_Variant value ${app.game}`,
      "setoption name USI_Hash value 16",
      ...rules().map(([name, value]) => `setoption name ${name} value ${value}`),
      positionLine(),
      `review nodes ${run.nodes}`,
      "isready",
    ].join("\n"),
  );
  drawReview();
}
app.startReview = startReview;

function onReviewLine(run, line) {
  if (run !== app.review) return;
  const entry = parseReview(line);
  if (entry) {
    const step = run.plan.find((q) => q.ply === entry.ply) ?? { before: null, after: null };
    run.entries.push({ ...entry, seatIndex: seatOf(entry.seat), before: step.before, after: step.after });
  } else if (line.startsWith("info string error")) {
    run.error = line.slice("info string error: ".length);
  } else if (line === "readyok") {
    run.done = true;
    run.worker.terminate();
  } else return;
  drawReview();
}

/** Stops a review under way (its worker ends); `hide` also hides the panel (a new game). */
function cancelReview(hide = true) {
  const run = app.review;
  if (run && !run.done) {
    run.worker.terminate();
    run.done = true;
    run.stopped = true;
  }
  if (hide) {
    app.review = null;
    app.reviewShown = null;
    $("review").hidden = true;
  } else drawReview();
}

/** A value in the game's unit as a player reads it: pawns, place points, points. */
function lossText(loss) {
  if (app.game === "hasami" || app.game === "annan") return loss >= 10000 ? "" : t("loss", { value: (loss / 100).toFixed(1) });
  return t("loss", { value: loss.toFixed(3) });
}

/**
 * The first seat's chance to win after a move (0–1) from its review, whose
 * values are the mover's: centipawns (Hasami, Annan), points of equity
 * (Sugoroku).
 */
function firstSeatChance(e) {
  const c = app.game === "sugoroku" ? Math.min(1, Math.max(0, (1 + e.playedValue) / 2)) : 1 / (1 + Math.exp(-e.playedValue / cpScale()));
  return e.seatIndex === 0 ? c : 1 - c;
}

/**
 * Shows the review: the progress while it runs (with Cancel), each side's
 * counts of inaccuracies, mistakes and blunders, the graph of the evaluation
 * after each move (the first seat's chance; Yonin: each seat's share of the
 * place points) with the marked moves in their colours, and the list of those
 * moves with the engine's best. A click on a point or a line shows the
 * position before that move, the move played and the best marked.
 */
function drawReview() {
  const run = app.review;
  $("review-start").disabled = !app.referee.moves.length || Boolean(run && !run.done);
  const panel = $("review");
  panel.hidden = !run;
  if (!run) return;
  const total = run.plan.length;
  const entries = [...run.entries].sort((a, b) => a.ply - b.ply);
  const n = entries.length;
  $("review-progress").hidden = run.done && !run.stopped && !run.error;
  $("review-cancel").hidden = run.done;
  $("review-bar").hidden = run.done;
  $("review-bar").value = total ? n / total : 0;
  $("review-progress-text").textContent = run.error
    ? t("reviewError", { reason: run.error })
    : run.stopped
      ? t("reviewCancelled", { n, total })
      : t("reviewing", { n: Math.min(n + 1, total), total });
  panel.dataset.done = String(run.done);
  // Each side's counts.
  const counts = $("review-counts");
  counts.replaceChildren();
  for (let seat = 0; seat < app.seatNames.length; seat++) {
    const item = el("li");
    item.dataset.mover = seat;
    const tally = el("span", "tally");
    item.append(seatDot(seat), el("span", "who", seatLabel(seat)), tally);
    for (const verdict of MARKED) {
      const count = entries.filter((e) => e.seatIndex === seat && e.verdict === verdict).length;
      const tag = el("span", `count ${verdict}`, `${t(`verdict.${verdict}`)} ${count}`);
      tag.dataset.verdict = verdict;
      tag.dataset.count = count;
      tally.append(tag);
    }
    counts.append(item);
  }
  // The graph.
  const svg = $("review-graph");
  svg.setAttribute("aria-label", t("reviewGraph"));
  const W = 600;
  const H = 170;
  const first = run.plan[0]?.ply ?? 1;
  const x = (ply) => ((ply - first + 1) / Math.max(1, total)) * (W - 16) + 8;
  // Yonin's shares stay near a half for long: the graph spans what they reach (at least 0.4 to 0.6).
  const yonin = app.game === "yonin";
  const spread = yonin ? Math.max(0.1, ...entries.flatMap((e) => (e.shares ?? []).map((v) => Math.abs(v - 0.5)))) : 0.5;
  const y = (c) => H - 8 - ((c - 0.5) / (2 * spread) + 0.5) * (H - 16);
  const ns = "http://www.w3.org/2000/svg";
  const node = (tag, attrs) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren(node("rect", { x: 0, y: 0, width: W, height: H, class: "graph-bg" }), node("line", { x1: 0, x2: W, y1: y(0.5), y2: y(0.5), class: "graph-mid" }));
  const start = `${x(first - 1).toFixed(1)},${y(0.5).toFixed(1)}`;
  const line = (points, colour) => svg.append(node("polyline", { points: [start, ...points].join(" "), class: "graph-line", stroke: colour }));
  // Yonin: each seat's share of the place points (1 all told for the first, 0 the last).
  const value = (e, seat) => (yonin ? (e.shares?.[seat] ?? 0.5) : firstSeatChance(e));
  const at = (e, seat) => `${x(e.ply).toFixed(1)},${y(value(e, seat)).toFixed(1)}`;
  if (yonin) for (let seat = 0; seat < 4; seat++) line(entries.map((e) => at(e, seat)), SEAT_COLOURS[seat]);
  else line(entries.map((e) => at(e, 0)), "#333");
  // The list of marked moves.
  const list = $("review-list");
  list.replaceChildren();
  for (const e of entries) {
    const marked = MARKED.includes(e.verdict);
    const shown = app.reviewShown?.ply === e.ply;
    const dot = node("circle", { cx: x(e.ply).toFixed(1), cy: y(value(e, e.seatIndex)).toFixed(1), r: marked ? 6 : 3, fill: marked ? VERDICT_COLOURS[e.verdict] : "#888", class: `${e.verdict}${shown ? " shown" : ""}` });
    dot.dataset.ply = e.ply;
    dot.dataset.verdict = e.verdict;
    const title = node("title", {});
    title.textContent = t("reviewEntry", { ply: e.ply, side: sideName(e.seatIndex), played: e.played, verdict: t(`verdict.${e.verdict}`) });
    dot.append(title);
    dot.addEventListener("click", () => showReviewed(e));
    svg.append(dot);
    if (!marked) continue;
    const item = el("li", `verdict ${e.verdict}${shown ? " shown" : ""}`);
    item.dataset.ply = e.ply;
    item.dataset.verdict = e.verdict;
    const button = el("button", "", t("reviewEntry", { ply: e.ply, side: seatLabel(e.seatIndex), played: e.played, verdict: t(`verdict.${e.verdict}`) }));
    button.type = "button";
    button.prepend(el("span", "swatch"));
    button.append(el("span", "best", ` · ${t("reviewBest", { move: e.best ?? "—" })}`), el("span", "loss", ` ${lossText(e.loss)}`));
    button.addEventListener("click", () => showReviewed(e));
    item.append(button);
    list.append(item);
  }
  if (run.done && !list.childElementCount) list.append(el("li", "none", t("reviewNoMarks")));
}

/** Shows the position before a reviewed move, the move played and the engine's best marked. */
function showReviewed(entry) {
  if (entry.before === null || app.review?.position !== positionLine()) return;
  app.view = entry.before;
  app.reviewShown = entry;
  app.selected = null;
  render();
}

// ---- start ----
function wire() {
  const lang = $("language");
  for (const [code, name] of Object.entries(LANGUAGES)) lang.append(new Option(name, code, false, code === language()));
  lang.addEventListener("change", () => {
    setLanguage(lang.value, true);
    applyLanguage();
  });
  $("game").addEventListener("change", () => newGame());
  $("new-game").addEventListener("click", () => newGame());
  $("level").addEventListener("change", showElo);
  $("takeback").addEventListener("click", takeBack);
  $("hint").addEventListener("click", showHint);
  $("flip").addEventListener("click", flip);
  $("back-to-game").addEventListener("click", () => viewPly(null));
  $("review-start").addEventListener("click", startReview);
  $("review-cancel").addEventListener("click", () => cancelReview(false));
  $("save").addEventListener("toggle", () => {
    if ($("save").open) $("record-text").value = recordText();
  });
  $("export").addEventListener("click", async () => {
    $("record-text").value = recordText();
    $("record-link").value = linkTo();
    try {
      await navigator.clipboard.writeText(recordText());
      showRecordMessage(t("copied"), false);
    } catch {
      $("record-text").select();
    }
  });
  $("import").addEventListener("click", () => importRecord($("record-text").value));
  $("link").addEventListener("click", () => {
    $("record-link").value = linkTo();
    $("record-link").select();
  });
  document.addEventListener("keydown", onKey);
}

async function start() {
  setLanguage(pickLanguage());
  applyLanguage();
  $("status").textContent = t("loading");
  const began = performance.now();
  app.referee = await Engine.load();
  app.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  app.worker.onmessage = (e) => onWorkerLine(e.data);
  // The worker starts from the module compiled here, not a second download.
  app.worker.postMessage(app.referee.protocol.module);
  // The games and their names come from the engine.
  app.games = app.referee.games();
  $("game").replaceChildren(...app.games.map((game) => new Option(gameTitle(game), game)));
  wire();
  // `?game=annan&seats=cpu,human&level=0&movetime=500&seed=3` preset the controls.
  const query = new URLSearchParams(location.search);
  if (app.games.includes(query.get("game"))) $("game").value = query.get("game");
  for (const name of ["movetime", "seed"]) if (query.has(name)) $(name).value = query.get(name);
  if (query.has("level")) app.presetLevel = query.get("level");
  if (query.has("seats")) app.seats = query.get("seats").split(",").map((s) => (s === "cpu" ? "cpu" : "human"));
  app.game = $("game").value;
  app.referee.setGame(app.game);
  buildRules({});
  buildLevels();
  newGame();
  // `#record=…`: a shared position (the record's lines) opens here.
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("record")) {
    $("save").open = true;
    $("record-text").value = hash.get("record");
    importRecord(hash.get("record"));
  }
  app.loadedMs = performance.now() - began;
}

start().catch((e) => {
  $("status").textContent = t("failed", { reason: e.message });
  setState("failed");
});
