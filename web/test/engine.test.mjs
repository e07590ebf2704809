// The wasm engine under node: perft of every game equal to the figures the
// native suite checks (tests/perft/*.txt), searches that answer legal moves
// within their limits, and bad input answered with one error line.
// Run: node --test web/test/  (after web/build.sh)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Engine, Protocol, parseInfo } from "../yomi.js";
import { GAMES, wasm } from "./games.mjs";

const root = new URL("../../", import.meta.url);
/** Perft entries with more leaves than this are left to the native suite. */
const MAX_LEAVES = 1_500_000;

function perftCases(game) {
  const text = readFileSync(new URL(`tests/perft/${game}.txt`, root), "utf8");
  const cases = [];
  for (const line of text.split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [sfen, ...fields] = line.split(" ; ").map((f) => f.trim());
    const options = [];
    const depths = [];
    for (const field of fields) {
      const d = field.match(/^D(\d+) (\d+)$/);
      if (d) depths.push([Number(d[1]), Number(d[2])]);
      else {
        const [name, value] = field.split("=");
        options.push([name === "win" ? "HasamiWin" : name, value]);
      }
    }
    cases.push({ sfen, options, depths });
  }
  return cases;
}

for (const game of GAMES) {
  test(`perft: ${game} equals the native figures`, async () => {
    const engine = await Protocol.load(wasm);
    engine.send(`setoption name USI_Variant value ${game}`);
    const defaults = Object.fromEntries(
      engine.send("usi").flatMap((l) => [...l.matchAll(/^option name (\S+) type \S+ default (\S+)/g)].map((m) => [m[1], m[2]])),
    );
    let checked = 0;
    for (const { sfen, options, depths } of perftCases(game)) {
      for (const [name, value] of options) assert.deepEqual(engine.send(`setoption name ${name} value ${value}`), []);
      assert.deepEqual(engine.send(`position sfen ${sfen}`), []);
      for (const [depth, leaves] of depths.filter(([, n]) => n <= MAX_LEAVES)) {
        const last = engine.send(`go perft ${depth}`).at(-1);
        assert.match(last, new RegExp(`^perft depth ${depth} nodes ${leaves} `), `${sfen} D${depth}`);
        checked++;
      }
      // Back to the defaults for the next entry, from a position every rule
      // allows (a rule change that the position does not stand under is refused).
      assert.deepEqual(engine.send("position startpos"), []);
      for (const [name] of options) assert.deepEqual(engine.send(`setoption name ${name} value ${defaults[name]}`), []);
    }
    assert.ok(checked >= 5, `${checked} perft figures checked`);
  });
}

const START = { hasami: [], annan: ["7g7f"], yonin: [], sugoroku: ["31:8/5,6/5", "64:24/18,18/14", "52"] };

for (const game of GAMES) {
  test(`search: ${game} answers a legal move within movetime, depth and nodes`, async () => {
    const engine = await Engine.load(wasm);
    engine.setGame(game);
    engine.send("setoption name USI_Hash value 16");
    engine.setPosition(null, START[game]);
    const legal = engine.legalMoves();
    assert.ok(legal.length > 0);
    for (const limits of [{ movetime: 400 }, { depth: 2 }, { nodes: 3000 }, { movetime: 200, level: 0 }]) {
      const { move, infos, ms } = engine.bestMove(limits);
      assert.ok(legal.includes(move), `${JSON.stringify(limits)}: ${move} not in ${legal}`);
      if (limits.movetime) assert.ok(ms <= limits.movetime + 150, `${JSON.stringify(limits)}: took ${ms} ms`);
      if (limits.depth) assert.ok(infos.every((i) => i.depth <= limits.depth), JSON.stringify(infos.at(-1)));
      if (limits.nodes && infos.length) assert.ok(infos.at(-1).nodes <= limits.nodes * 1.1, JSON.stringify(infos.at(-1)));
      if (!limits.level) assert.ok(infos.length > 0 && infos.at(-1).score, `${game}: no info with a score`);
    }
    // At the bottom of the game's measured Elo range.
    const elo = engine.options().find((o) => o.name === "USI_Elo");
    assert.ok(legal.includes(engine.bestMove({ elo: elo.min, movetime: 200 }).move));
    // The move the engine chose is accepted, and the game goes on.
    const { move } = engine.bestMove({ depth: 1 });
    engine.play(move);
    assert.equal(engine.moves.at(-1), move);
  });
}

test("bad input: one error line, state kept", async () => {
  const engine = await Engine.load(wasm);
  engine.setGame("annan");
  engine.play("7g7f");
  const status = engine.send("status");
  for (const bad of ["go infinite", "go ponder", "go", "position startpos moves 7g7f 7g7f", "frobnicate", "setoption name Skill value 99", "\u0099\u00ff"]) {
    const lines = engine.send(bad);
    assert.equal(lines.length, 1, `${bad}: ${lines}`);
    assert.match(lines[0], /^info string error: /, bad);
    assert.deepEqual(engine.send("status"), status, bad);
  }
  assert.throws(() => engine.play("1a1z"), /move/);
  assert.deepEqual(engine.moves, ["7g7f"]);
  assert.deepEqual(engine.send("status"), status);
  assert.equal(parseInfo("info depth 3 score mate -2 nodes 10 pv 7g7f 3c3d").score.mate, -2);
});

test("a crashed engine answers one error line and comes back with its options and position", async () => {
  const engine = await Protocol.load(wasm);
  engine.send("setoption name USI_Variant value annan\nsetoption name AnnanDeadPiece value forbid\nposition startpos moves 7g7f");
  const before = engine.send("d\nstatus");
  // What a panic does to the instance (panic = abort): a trap out of the call.
  const real = engine.exports;
  engine.exports = { ...real, yomi_input: () => { throw new WebAssembly.RuntimeError("unreachable"); } };
  const lines = engine.send("go depth 1");
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^info string error: internal error \(unreachable\); the engine was restarted$/);
  assert.notEqual(engine.exports.yomi_input, undefined);
  assert.deepEqual(engine.send("d\nstatus"), before);
  // The house rule came back: perft counts by it (tests/perft/annan.txt).
  engine.send("position startpos");
  assert.match(engine.send("go perft 4").at(-1), /^perft depth 4 nodes 1002012 /);
  assert.match(engine.send("go depth 1").at(-1), /^bestmove /);
});

test("review: a missed mate is a blunder, each move reported as it comes", async () => {
  const engine = await Engine.load(wasm);
  engine.setGame("annan");
  engine.setPosition("7lk/7pB/9/9/9/9/9/9/4K4 b L 1", ["5i4h"]);
  const seen = [];
  const reviews = await engine.review({ nodes: 20000 }, (review, done) => seen.push([review.played, done]));
  assert.deepEqual(seen, [["5i4h", 1]]);
  assert.equal(reviews.length, 1);
  const [review] = reviews;
  assert.equal(review.best, "L*1c");
  assert.deepEqual(review.bestScore, { mate: 1 });
  assert.equal(review.verdict, "blunder");
  assert.ok(review.loss >= 400 && review.loss === review.bestValue - review.playedValue, JSON.stringify(review));
  assert.deepEqual(engine.moves, ["5i4h"], "the game stays");
  // Sugoroku: the dice of each turn, values in points.
  engine.setGame("sugoroku");
  engine.setPosition(null, ["31:8/5,6/5", "64:24/18,18/14"]);
  const turns = await engine.review({ nodes: 1000 });
  assert.deepEqual(turns.map((r) => [r.dice, r.played, r.seat]), [["31", "8/5,6/5", "b"], ["64", "24/18,18/14", "w"]]);
  assert.ok(turns.every((r) => "points" in r.bestScore && r.shares === null && Math.abs(r.bestValue) < 3));
  // Yonin: every seat's share of the place points.
  engine.setGame("yonin");
  engine.play("5g5f");
  const [yonin] = await engine.review({ nodes: 2000 });
  assert.equal(yonin.shares.length, 4);
  assert.ok(Math.abs(yonin.shares.reduce((a, b) => a + b) - 2) < 0.01, JSON.stringify(yonin));
  await assert.rejects(engine.review({ nodes: -5 }), /review nodes/);
});

test("records: exported in three forms, imported all or nothing", async () => {
  const engine = await Engine.load(wasm);
  engine.setGame("annan");
  engine.setOption("AnnanDeadPiece", "forbid");
  engine.setPosition(null, ["7g7f", "3c3d"]);
  const line = "annan AnnanDeadPiece=forbid position startpos moves 7g7f 3c3d";
  assert.equal(engine.exportRecord(), line);
  const lines = engine.recordLines();
  assert.deepEqual(lines, ["setoption name USI_Variant value annan", "setoption name AnnanDeadPiece value forbid", "position startpos moves 7g7f 3c3d"]);
  assert.deepEqual(engine.readableRecord({ kanji: true }).slice(-2), ["1 ▲ ７六歩(77)", "2 △ ３四歩(33)"]);
  assert.equal(engine.readableRecord().at(-1), "2 w P3c-3d");
  // What a URL carries comes back whole.
  const url = new URL(`https://example.org/?record=${encodeURIComponent(line)}`);
  engine.importRecord("hasami HasamiWin=lead3 position startpos moves 9i9h");
  assert.deepEqual([engine.game, engine.start, engine.moves], ["hasami", null, ["9i9h"]]);
  engine.importRecord(url.searchParams.get("record"));
  assert.deepEqual([engine.game, engine.moves], ["annan", ["7g7f", "3c3d"]]);
  engine.importRecord(["setoption name USI_Variant value hasami", "position sfen ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1 moves 9i9h"].join("\n"));
  assert.deepEqual([engine.game, engine.start, engine.moves], ["hasami", "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1", ["9i9h"]]);
  const kept = [engine.exportRecord(), engine.send("status")];
  for (const bad of ["annan position startpos moves 7g7f 7g7f", "annan Nope=1 position startpos", "hasami HasamiWin=six position startpos", "chess position startpos", "annan startpos", "setoption name USI_Variant value annan\ngo depth 1"]) {
    assert.throws(() => engine.importRecord(bad), Error, bad);
    assert.deepEqual([engine.exportRecord(), engine.send("status")], kept, bad);
  }
  engine.play("1a1b");
  assert.deepEqual(engine.moves, ["9i9h", "1a1b"]);
});
