// Yomi in WebAssembly: an ES module over dist/yomi.wasm (docs/web.md).
//
// `Protocol` is the engine as the protocol of docs/protocol.md: `send(text)`
// hands it one or more lines and returns its reply lines, all before it returns
// (a `go` searches to its limits first). `Engine` adds the common calls: legal
// moves, playing a move, the status, the best move at a strength level, the
// review of the game and its record (docs/review.md). In a
// page, search in a Web Worker (worker.js) so that the page stays responsive;
// the calls that answer at once are fine on the page's own thread.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const now = typeof performance !== "undefined" ? () => performance.now() : () => Date.now();

const errorOf = (lines) => lines.find((l) => l.startsWith("info string error: "));

/** Output is ASCII: other characters (a record's kanji) come escaped as `\u{…}`. */
const unescape = (line) => line.replace(/\\u\{([0-9a-f]+)\}/g, (_, hex) => String.fromCodePoint(parseInt(hex, 16)));

/** Compiles the wasm from a URL (default: dist/yomi.wasm beside this file) or bytes. */
export async function compile(source = new URL("./dist/yomi.wasm", import.meta.url)) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  const response = await fetch(source);
  if (!response.ok) throw new Error(`yomi: cannot load ${source}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** The host side of one instance: its imports and where its lines go. */
function host() {
  const h = {
    memory: null,
    sink: () => {},
    imports: {
      env: {
        yomi_host_now_ms: now,
        yomi_host_line: (ptr, len) => h.sink(decoder.decode(new Uint8Array(h.memory.buffer, ptr, len))),
      },
    },
  };
  return h;
}

/** The raw protocol: lines in, lines out. */
export class Protocol {
  static async load(source) {
    const module = await compile(source);
    const h = host();
    const { exports } = await WebAssembly.instantiate(module, h.imports);
    return new Protocol(module, exports, h);
  }

  constructor(module, exports, h) {
    this.module = module;
    this.exports = exports;
    this.host = h;
    h.memory = exports.memory;
    // What rebuilds the state after a crash: the options set, then the last position.
    this.replay = { options: [], position: null };
    this.quit = false;
  }

  /**
   * Applies `text` (one or more lines). Each reply line goes to `onLine` as it
   * comes (a search's `info` lines while it runs); all are returned at the end.
   * An engine that crashed (a broken invariant aborts the wasm) answers one
   * error line and is rebuilt with its options and position.
   */
  send(text, onLine = () => {}) {
    if (this.quit) throw new Error("yomi: the engine has quit");
    const lines = [];
    const sink = (line) => {
      lines.push(line);
      onLine(line);
    };
    try {
      this.quit = this.#input(text, sink);
      // Refused lines leave the state as it was: nothing to replay.
      if (!errorOf(lines)) this.#remember(text);
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      sink(`info string error: internal error (${e.message}); the engine was restarted`);
      this.#restart();
    }
    return lines;
  }

  #input(text, sink) {
    const bytes = encoder.encode(text);
    const ptr = this.exports.yomi_input_buffer(bytes.length);
    new Uint8Array(this.exports.memory.buffer, ptr, bytes.length).set(bytes);
    this.host.sink = sink;
    try {
      return this.exports.yomi_input(bytes.length) === 1;
    } finally {
      this.host.sink = () => {};
    }
  }

  #remember(text) {
    for (const line of text.split("\n")) {
      const [word, second] = line.trim().split(/\s+/);
      if (word === "record" && second === "load") {
        // A game with its rules and position: replayed in its turn, and a
        // position sent after it replaces its position.
        this.replay.options.push(line);
        this.replay.position = null;
      } else if (word === "setoption") {
        // A new game forgets the position, as the engine does.
        if (/USI_Variant|UCI_Variant/i.test(line)) this.replay.position = null;
        this.replay.options.push(line);
      } else if (word === "position") this.replay.position = line;
    }
  }

  #restart() {
    const h = host();
    // Synchronous: fine in a worker and in node (a page's main thread may refuse it).
    const instance = new WebAssembly.Instance(this.module, h.imports);
    this.exports = instance.exports;
    this.host = h;
    h.memory = instance.exports.memory;
    const { options, position } = this.replay;
    this.#input([...options, position ?? ""].join("\n"), () => {});
  }
}

/** The words of an `info` line as an object: depth, seldepth, nodes, nps, time,
 * hashfull, multipv as numbers; score as {cp} or {mate}; pv as a list; string. */
export function parseInfo(line) {
  const words = line.trim().split(/\s+/);
  if (words[0] !== "info") return null;
  const info = {};
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === "string") {
      info.string = words.slice(i + 1).join(" ");
      break;
    } else if (w === "pv") {
      info.pv = words.slice(i + 1);
      break;
    } else if (w === "score") {
      const kind = words[++i];
      info.score = { [kind]: Number(words[++i]) };
      if (words[i + 1] === "lowerbound" || words[i + 1] === "upperbound") info.score.bound = words[++i];
    } else if (w === "points") {
      info.points = Number(words[++i]);
    } else if (w === "probs") {
      info.probs = words.slice(i + 1, i + 6).map(Number);
      i += 5;
    } else if (i + 1 < words.length) {
      const value = words[++i];
      info[w] = /^-?\d+$/.test(value) ? Number(value) : value;
    }
  }
  return info;
}

/** A score's words (`cp 35`, `mate 3`, `points +0.431`) as {cp}, {mate} or {points}. */
function scoreOf(kind, value) {
  return { [kind]: Number(value) };
}

/**
 * A `review ply …` line as an object (docs/review.md): {ply, seat, dice,
 * played, best, bestScore, playedScore, bestValue, playedValue, loss, verdict,
 * shares}; values and loss as numbers in the game's unit (centipawns, points,
 * place points), dice null but in Sugoroku, shares null but in Yonin.
 */
export function parseReview(line) {
  const words = line.trim().split(/\s+/);
  if (words[0] !== "review" || words[1] !== "ply") return null;
  const at = (key) => {
    const i = words.indexOf(key);
    return i < 0 ? undefined : words[i + 1];
  };
  const shares = at("shares");
  return {
    ply: Number(at("ply")),
    seat: at("seat"),
    dice: at("dice") ?? null,
    played: at("played"),
    best: at("best") === "none" ? null : at("best"),
    bestScore: scoreOf(at("bestscore"), words[words.indexOf("bestscore") + 2]),
    playedScore: scoreOf(at("playedscore"), words[words.indexOf("playedscore") + 2]),
    bestValue: Number(at("bestvalue")),
    playedValue: Number(at("playedvalue")),
    loss: Number(at("loss")),
    verdict: at("verdict"),
    shares: shares ? shares.split(",").map(Number) : null,
  };
}

/** A one-line record's game, start (`null`: the start position) and moves. */
function parseRecord(line) {
  const at = line.indexOf(" position ");
  const game = line.split(/\s+/)[0];
  const position = line.slice(at + " position ".length);
  const [head, moves = ""] = position.split(/ moves /);
  const sfen = head.startsWith("sfen ") ? head.slice(5).trim() : null;
  return { game, sfen, moves: moves.split(/\s+/).filter(Boolean) };
}

/** A `status …` line as an object (docs/protocol.md#status). */
export function parseStatus(line) {
  const words = line.trim().split(/\s+/);
  if (words[0] !== "status") return null;
  const status = { over: words[1] === "over", draw: words[2] === "draw" };
  for (let i = status.draw ? 3 : 2; i + 1 < words.length; i += 2) {
    if (words[i] === "captured") {
      // Hasami: `captured b <n> w <n>`.
      status.captured = { b: Number(words[i + 2]), w: Number(words[i + 4]) };
      i += 3;
    } else status[words[i]] = words[i + 1];
  }
  if (status.ply !== undefined) status.ply = Number(status.ply);
  if (status.points !== undefined) status.points = Number(status.points);
  if (status.places) status.places = status.places.split(",").map(Number);
  return status;
}

/** The engine with the common calls. The game's moves are kept here and sent
 * as `position … moves …`, so a rejected move changes nothing. */
export class Engine {
  static async load(source) {
    return new Engine(await Protocol.load(source));
  }

  constructor(protocol) {
    this.protocol = protocol;
    this.game = "hasami";
    this.start = null;
    this.moves = [];
  }

  /** Sends raw protocol text; see Protocol.send. */
  send(text, onLine) {
    return this.protocol.send(text, onLine);
  }

  #checked(text, onLine) {
    const lines = this.send(text, onLine);
    const error = errorOf(lines);
    if (error) throw new Error(error.slice("info string error: ".length));
    return lines;
  }

  /** Chooses the game (one of `games()`) and starts it. */
  setGame(game) {
    this.#checked(`setoption name USI_Variant value ${game}`);
    this.game = game;
    this.newGame();
  }

  /** Sets an option (a house rule, Skill, …); throws on a bad name or value. */
  setOption(name, value) {
    this.#checked(`setoption name ${name} value ${value}`);
    // A house rule can change what is legal: the position is sent again.
    this.#sendPosition(this.start, this.moves);
  }

  /** `options`: the game's options from `usi`, as {name, type, default, min, max, vars}. */
  options() {
    return this.send("usi")
      .filter((l) => l.startsWith("option name "))
      .map((l) => {
        const m = l.match(/^option name (\S+) type (\S+)(?: default (.*?))?(?: min (\S+) max (\S+))?((?: var \S+)*)$/);
        if (!m) return { name: l.split(" ")[2], type: "unknown" };
        const vars = m[6] ? m[6].trim().split(/\s*var\s+/).filter(Boolean) : [];
        return { name: m[1], type: m[2], default: m[3], min: m[4] && Number(m[4]), max: m[5] && Number(m[5]), vars };
      });
  }

  /** The games the engine plays: `USI_Variant`'s choices, the default first. */
  games() {
    return this.options().find((o) => o.name === "USI_Variant").vars;
  }

  /** The current game's seats as `status` names them: the `seats` line of `d`. */
  seats() {
    return this.diagram()
      .lines.find((l) => l.startsWith("seats "))
      .split(" ")
      .slice(1);
  }

  newGame(sfen = null) {
    this.send("usinewgame");
    this.#sendPosition(sfen, []);
  }

  /** The `position` line of the game, or of the game followed by `moves`. */
  positionLine(moves = this.moves, sfen = this.start) {
    const head = sfen ? `position sfen ${sfen}` : "position startpos";
    return moves.length ? `${head} moves ${moves.join(" ")}` : head;
  }

  #sendPosition(sfen, moves) {
    this.#checked(this.positionLine(moves, sfen));
    this.start = sfen;
    this.moves = moves;
  }

  /** Whether `move` may be played now; the position stays as it was. */
  isLegal(move) {
    const refused = errorOf(this.send(this.positionLine([...this.moves, move])));
    this.send(this.positionLine());
    return !refused;
  }

  /** Sets the game from a start (`null`: the start position) and moves; throws if illegal. */
  setPosition(sfen, moves = []) {
    this.#sendPosition(sfen, [...moves]);
  }

  /** Plays a move (or, in Sugoroku, a roll `52` or a partial turn `52:13/8`); throws if illegal. */
  play(move) {
    this.#sendPosition(this.start, [...this.moves, move]);
  }

  /** The legal moves of the current position. */
  legalMoves() {
    return this.send("moves").filter((l) => !l.startsWith("info "));
  }

  status() {
    return parseStatus(this.send("status").find((l) => l.startsWith("status ")));
  }

  /** The `d` diagram's fields: sfen, side, and the game's detail lines. */
  diagram() {
    const lines = this.send("d");
    const sfen = lines.find((l) => l.startsWith("sfen "));
    return { lines, sfen: sfen ? sfen.slice(5) : null };
  }

  /**
   * The engine's move: `level` 0–20 (Skill; 20 full strength) or `elo`
   * (USI_LimitStrength with USI_Elo, in the game's measured range) and limits
   * ({movetime, depth, nodes}; default 1000 ms). `onInfo` sees each `info` as
   * it comes. Returns {move, infos, ms}; the move is not played.
   */
  bestMove({ level = 20, elo, movetime, depth, nodes, onInfo = () => {} } = {}) {
    if (elo !== undefined) {
      this.#checked(`setoption name USI_LimitStrength value true\nsetoption name USI_Elo value ${elo}`);
    } else {
      this.#checked(`setoption name USI_LimitStrength value false\nsetoption name Skill value ${level}`);
    }
    const limits = [
      depth && `depth ${depth}`,
      nodes && `nodes ${nodes}`,
      (movetime || (!depth && !nodes)) && `movetime ${movetime ?? 1000}`,
    ].filter(Boolean);
    const infos = [];
    const started = now();
    const lines = this.send(`go ${limits.join(" ")}`, (line) => {
      const info = parseInfo(line);
      if (info && !info.string) {
        infos.push(info);
        onInfo(info);
      }
    });
    const error = errorOf(lines);
    if (error) throw new Error(error.slice("info string error: ".length));
    const best = lines.find((l) => l.startsWith("bestmove "));
    return { move: best ? best.split(/\s+/)[1] : null, infos, ms: now() - started };
  }

  /**
   * Reviews the game at full strength within a budget a move ({movetime},
   * {nodes} or {depth}; 1000 ms a move by default). `onProgress(review, done)`
   * sees each move's review as it comes. Resolves to the reviews, one per
   * move ({ply, seat, dice, played, best, bestScore, playedScore, bestValue,
   * playedValue, loss, verdict, shares}, see parseReview); the game stays.
   */
  async review({ movetime, nodes, depth } = {}, onProgress = () => {}) {
    const limits = [
      movetime && `movetime ${movetime}`,
      nodes && `nodes ${nodes}`,
      depth && `depth ${depth}`,
    ].filter(Boolean);
    if (!limits.length) limits.push("movetime 1000");
    const reviews = [];
    this.#checked(`review ${limits.join(" ")}`, (line) => {
      const review = parseReview(line);
      if (review) {
        reviews.push(review);
        onProgress(review, reviews.length);
      }
    });
    return reviews;
  }

  /** The game as one line (`annan AnnanDeadPiece=forbid position startpos moves 7g7f`): what a URL can carry. */
  exportRecord() {
    return this.#checked("record").find((l) => l.startsWith("record ")).slice("record ".length);
  }

  /** The game as protocol lines: `setoption` for the game and its house rules, then `position`. */
  recordLines() {
    return this.#checked("record usi");
  }

  /** The readable record: `game …`, `rules …`, `start …`, then `<ply> <seat> <move>` lines. */
  readableRecord({ kanji = false } = {}) {
    return this.#checked(kanji ? "record text kanji" : "record text").map(unescape);
  }

  /**
   * Sets the game, its house rules (the others at their defaults) and its
   * position from a record, one line or protocol lines; throws on a malformed
   * or illegal record, which changes nothing.
   */
  importRecord(text) {
    const lines = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
    let line = lines.join(" ");
    if (lines.length > 1 || /^(setoption|position) /.test(line)) {
      // Protocol lines as the one line `record load` reads.
      const words = [];
      let game = "";
      let position = "";
      for (const l of lines) {
        const option = l.match(/^setoption\s+name\s+(\S+)\s+value\s+(.*)$/);
        if (option && /^(USI|UCI)_Variant$/i.test(option[1])) game = option[2].trim();
        else if (option) words.push(`${option[1]}=${option[2].trim()}`);
        else if (l.startsWith("position ")) position = l;
        else if (!/^(usi|isready|usinewgame)$/.test(l)) throw new Error(`record: unexpected line '${l}'`);
      }
      line = [game || "hasami", ...words, position].join(" ");
    }
    this.#checked(`record load ${line}`);
    const { game, sfen, moves } = parseRecord(this.exportRecord());
    this.game = game;
    this.start = sfen;
    this.moves = moves;
  }
}
