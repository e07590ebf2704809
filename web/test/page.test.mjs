// The page in headless Chromium (Debian's): every game played by clicks, one
// of each to its end, the CPU's replies checked against the rules; take-back,
// hint, save and load, the link, the keys, the languages, the evaluation bar,
// the review of a game (its records and verdicts written under target/web/,
// which tests/web.rs compares with the native `yomi review`); screenshots of
// each game and of the review at desktop and phone sizes in each language
// under target/web/. Run: node --test web/test/  (after web/build.sh)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { GAMES } from "./games.mjs";
import { serve } from "./serve.mjs";
import { launch } from "./browser.mjs";

const SHOTS = fileURLToPath(new URL("../../target/web/", import.meta.url));
let server, context, page;
const errors = [];

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await serve();
  context = await launch();
  page = await context.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  // A short analysis (the bar and the hint) keeps the CPU's replies quick.
  await page.goto(`${server.url}?analysis=100&review=5000`);
  await waitFor(() => yomiApp.state === "human");
  // Quick CPU replies for the test.
  await page.fill("#movetime", "400");
  await page.selectOption("#level", "5");
});

after(async () => {
  await context?.close();
  server?.close();
});

/** Waits for a condition evaluated in the page. */
function waitFor(fn, arg, timeout = 30000, polling = "raf") {
  return page.waitForFunction(fn, arg, { timeout, polling });
}

const app = (fn, arg) => page.evaluate(fn, arg);
const moves = () => app(() => [...yomiApp.referee.moves]);

/** Clicks `from` then checks the marked squares are exactly the legal destinations, then clicks `to`. */
async function clickMove(from, to, fromSelector = `[data-square="${from}"]`) {
  await page.click(fromSelector);
  const marked = await app(() => [...document.querySelectorAll(".sq.to")].map((e) => e.dataset.square).sort());
  const prefix = fromSelector.includes("data-drop") ? `${from}*` : from;
  const legal = await app((p) => [...new Set(yomiApp.legal.filter((m) => m.startsWith(p)).map((m) => m.slice(2, 4)))].sort(), prefix);
  assert.deepEqual(marked, legal, `legal squares of ${from}`);
  assert.ok(marked.includes(to), `${to} among ${marked}`);
  await page.click(`[data-square="${to}"]`);
}

async function chooseGame(game) {
  await page.selectOption("#game", game);
  await waitFor((g) => yomiApp.game === g && yomiApp.state !== "loading", game);
}

async function screenshot(name) {
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
}

test("the games and their seats are the engine's: USI_Variant's choices, a seat control for each seat of d", async () => {
  assert.deepEqual(await page.$$eval("#game option", (os) => os.map((o) => o.value)), GAMES);
  for (const game of GAMES) {
    await chooseGame(game);
    const seats = await app(() => yomiApp.referee.diagram().lines.find((l) => l.startsWith("seats ")).split(" ").length - 1);
    assert.equal(await page.locator("[data-seat]").count(), seats, game);
  }
  await chooseGame(GAMES[0]);
});

test("Hasami: a person's move by clicks, the CPU's legal reply, captures in the status", async () => {
  await chooseGame("hasami");
  assert.equal(await page.locator(".sq").count(), 81);
  assert.equal(await page.locator(".stone.b").count(), 9);
  await clickMove("9i", "9c");
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 2);
  const [mine, cpu] = await moves();
  assert.equal(mine, "9i9c");
  assert.match(cpu, /^[1-9][a-i][1-9][a-i]$/);
  assert.equal(await page.getAttribute('[data-square="9c"]', "data-piece"), "P0");
  assert.equal(await page.getAttribute('[data-square="9i"]', "data-piece"), null);
  // The CPU's move is on the board: its origin is empty now.
  assert.equal(await page.getAttribute(`[data-square="${cpu.slice(0, 2)}"]`, "data-piece"), null);
  assert.match(await page.textContent("#status"), /^Your move \(Black\) · Captured: [01] by Black, [01] by White$/);
  assert.match(await page.textContent("#thinking"), /^White \(CPU\): search depth \d+$/);
  // The last move is marked: the CPU's two squares.
  const marked = await app(() => [...document.querySelectorAll(".sq.last")].map((e) => e.dataset.square).sort());
  assert.deepEqual(marked, [cpu.slice(0, 2), cpu.slice(2, 4)].sort());
  await screenshot("hasami");
});

test("Annan: moves by clicks from the start, the CPU answers", async () => {
  await chooseGame("annan");
  assert.equal(await page.locator("[data-piece]").count(), 40);
  await clickMove("7g", "7f");
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 2);
  await clickMove("2g", "2f");
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 4);
  const played = await moves();
  assert.deepEqual([played[0], played[2]], ["7g7f", "2g2f"]);
  assert.equal(await page.getAttribute('[data-square="7f"]', "data-piece"), "P0");
  assert.match(await page.textContent("#status"), /^Your move \(Black\)/);
  assert.equal(await page.locator("#record li").count(), 4, "the move list");
  await screenshot("annan");
});

test("Annan: a promotion chosen by the person, a drop from the hand", async () => {
  await app(() => yomiApp.setup("lnsgkgsnl/1r5b1/ppppppp1p/7R1/9/9/PPPP1PPPP/1B7/LNSGKGSNL b P 1"));
  await waitFor(() => yomiApp.state === "human");
  await clickMove("2d", "2c");
  // Both 2d2c and 2d2c+ are legal: the page asks.
  const offered = await app(() => [...document.querySelectorAll("#choice button")].map((b) => b.dataset.move).sort());
  assert.deepEqual(offered, ["2d2c", "2d2c+"]);
  await page.click('#choice button[data-move="2d2c+"]');
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 2);
  assert.equal((await moves())[0], "2d2c+");
  const cpu = (await moves())[1];
  if (!cpu.endsWith("2c")) assert.equal(await page.getAttribute('[data-square="2c"]', "data-piece"), "+R0");
  await clickMove("P", "5e", '[data-hand="0"] [data-drop="P"]');
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 4);
  assert.equal((await moves())[2], "P*5e");
  assert.equal(await page.getAttribute('[data-square="5e"]', "data-piece"), "P0");
  await screenshot("annan-drop");
});

test("Yonin: one person and three CPU seats, then the person's seat handed to the CPU mid-game", async () => {
  await chooseGame("yonin");
  for (const seat of [1, 2, 3]) await page.selectOption(`[data-seat="${seat}"]`, "cpu");
  await waitFor(() => yomiApp.state === "human");
  await clickMove("5g", "5f");
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 4);
  assert.equal((await moves())[0], "5g5f");
  assert.match(await page.textContent("#status"), /^Your move \(South\)/);
  // Seat 0 to the CPU: the game plays on by itself.
  await page.selectOption('[data-seat="0"]', "cpu");
  await waitFor(() => yomiApp.referee.moves.length >= 9);
  await page.selectOption('[data-seat="0"]', "human");
  await waitFor(() => yomiApp.state === "human" || yomiApp.state === "over");
  const record = await moves();
  // Every move the page accepted was legal for the referee, and the position replays.
  assert.ok(record.length >= 8, record.join(" "));
  assert.ok(await app(() => yomiApp.referee.legalMoves().length > 0 || yomiApp.referee.status().over));
  await screenshot("yonin");
});

test("Sugoroku: dice from the seed, a stone moved by clicks, the CPU takes over mid-turn", async () => {
  await chooseGame("sugoroku");
  // The seed is offered in Sugoroku only.
  await page.fill("#seed", "7");
  await page.click("#new-game");
  await waitFor(() => yomiApp.state === "human");
  const first = await moves();
  assert.equal(first.length, 1);
  assert.match(first[0], /^[1-6][1-6]$/, "the page rolled");
  // The same seed rolls the same dice.
  await page.click("#new-game");
  await waitFor(() => yomiApp.state === "human");
  assert.deepEqual(await moves(), first);
  const step = await app(() => yomiApp.steps[0]);
  assert.ok(step, "a stone can move");
  await page.click(`[data-point="${step.from}"]`);
  const marked = await app(() => [...document.querySelectorAll(".point.to, .tray.to")].map((e) => e.dataset.point).sort());
  const legal = await app((from) => [...new Set(yomiApp.steps.filter((s) => s.from === from).map((s) => s.to))].sort(), step.from);
  assert.deepEqual(marked, legal);
  await page.click(`[data-point="${step.to}"]`);
  await waitFor(() => yomiApp.referee.moves.length === 2);
  const after = await app(() => yomiApp.referee.status());
  // Mid-turn (seed 7 rolls 11 first: two moves of 1): a die is still to play;
  // the CPU takes the seat and finishes the turn.
  assert.equal(first[0], "11");
  assert.equal(after.turn, "b");
  assert.equal(after.dice, "1");
  await page.selectOption('[data-seat="0"]', "cpu");
  await waitFor(() => yomiApp.referee.moves.length >= 3 && yomiApp.referee.status().turn === "w");
  const rest = (await moves())[2];
  assert.match(rest, /^(bar|\d+)\/(off|\d+)$/, "the rest of the turn, one stone");
  await page.selectOption('[data-seat="0"]', "human");
  // w (the CPU) rolls and plays; b's next roll comes from the page.
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.status().turn === "b" && yomiApp.referee.moves.length > 3);
  const record = await moves();
  assert.match(record.at(-1), /^[1-6][1-6]$/, record.join(" "));
  // The CPU's stones are marked as the last move, though a roll came after them.
  assert.ok((await page.locator(".point.last, .bar.last, .tray.last").count()) >= 1);
  assert.match(await page.textContent("#status"), /^Your move \(Black\) · Pips to go: Black \d+, White \d+/);
  assert.match(await page.getAttribute(".dice", "data-dice"), /^[1-6]+$/);
  await screenshot("sugoroku");
});

test("the CPU at an Elo: the game's measured range offered, a legal reply", async () => {
  await chooseGame("hasami");
  await page.selectOption("#level", "elo");
  assert.ok(await page.isVisible("#elo"));
  const range = await app(() => [document.getElementById("elo").min, document.getElementById("elo").max]);
  const announced = await app(() => yomiApp.referee.options().find((o) => o.name === "USI_Elo"));
  assert.deepEqual(range.map(Number), [announced.min, announced.max]);
  await page.fill("#elo", String(announced.min + 100));
  await clickMove("1i", "1h");
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 2);
  assert.match((await moves())[1], /^[1-9][a-i][1-9][a-i]$/);
  await page.selectOption("#level", "5");
  assert.ok(!(await page.isVisible("#elo")));
});

/** Types a number into an input and leaves it (its change applies then). */
async function setNumber(selector, value) {
  await page.fill(selector, value);
  await page.locator(selector).blur();
}

/** The person's move in a 9×9 game, by clicks: from (or the hand), to, and the promotion asked. */
async function clickShogiMove(move) {
  const drop = move.match(/^([A-Z])\*([1-9][a-i])$/);
  const seat = await app(() => {
    const turn = yomiApp.referee.status().turn;
    return turn === "b" ? 0 : turn === "w" ? 1 : Number(turn);
  });
  if (drop) await page.click(`[data-hand="${seat}"] [data-drop="${drop[1]}"]`);
  else await page.click(`[data-square="${move.slice(0, 2)}"]`);
  await page.click(`[data-square="${move.slice(2, 4)}"]`);
  if (await page.locator("#choice button").count()) await page.click(`#choice button[data-move="${move}"]`);
}

/** The person's choice: a move that ends the game, else one that captures, else one by the ply. */
const choose = () =>
  app(() => {
    const r = yomiApp.referee;
    const score = (move) => {
      r.send(r.positionLine([...r.moves, move]));
      const s = r.status();
      const d = r.diagram().sfen;
      r.send(r.positionLine());
      if (s.over) return 1000;
      // Fewer pieces on the board after the move: a capture.
      return 81 - (d.split(" ")[0].match(/[A-Za-z]/g) ?? []).length;
    };
    const legal = yomiApp.legal;
    const scores = legal.map(score);
    const best = Math.max(...scores);
    const top = legal.filter((_, i) => scores[i] === best);
    return top[r.moves.length % top.length];
  });

/** The person's Sugoroku turn by clicks, stone by stone, then the CPU's turn up to the person's next roll. */
async function playSugorokuTurn() {
  const rolls = () => app(() => yomiApp.referee.moves.filter((m) => /^[1-6]{2}$/.test(m)).length);
  const first = await rolls();
  while ((await rolls()) === first && (await app(() => yomiApp.state === "human" && yomiApp.steps.length > 0))) {
    const n = await app(() => yomiApp.referee.moves.length);
    const step = await app(() => yomiApp.steps[0]);
    await page.click(`[data-point="${step.from}"]`);
    await page.click(`[data-point="${step.to}"]`);
    await waitFor((k) => yomiApp.referee.moves.length > k, n);
  }
  await waitFor((r) => yomiApp.referee.moves.filter((m) => /^[1-6]{2}$/.test(m)).length >= r + 2 && yomiApp.state === "human", first);
}

/** Plays the person's seats by clicks until the game is over; returns the final status. */
async function playToEnd(game) {
  for (let turns = 0; turns < 1500; turns++) {
    await waitFor(() => yomiApp.state === "human" || yomiApp.state === "over", undefined, 60000);
    const before = await app(() => (yomiApp.state === "over" ? -1 : yomiApp.referee.moves.length));
    if (before < 0) break;
    if (game === "sugoroku") {
      const step = await app(() => yomiApp.steps.find((s) => s.to === "off") ?? yomiApp.steps[0]);
      // No stone can move: the page passes by itself.
      if (!step) {
        await waitFor((n) => yomiApp.referee.moves.length > n, before);
        continue;
      }
      await page.click(`[data-point="${step.from}"]`);
      await page.click(`[data-point="${step.to}"]:not(.bar)`);
    } else {
      await clickShogiMove(await choose());
    }
    await waitFor((n) => yomiApp.referee.moves.length > n, before);
  }
  return app(() => yomiApp.referee.status());
}

for (const game of GAMES) {
  test(`${game}: a whole game played by clicks to its end`, { timeout: 600000 }, async () => {
    await chooseGame(game);
    await page.selectOption("#level", "0");
    await page.fill("#movetime", "100");
    if (game === "yonin") for (const seat of [1, 2, 3]) await page.selectOption(`[data-seat="${seat}"]`, "cpu");
    // A move limit ends a long game as a draw (the shogi games; Sugoroku always ends).
    if (game !== "sugoroku") await setNumber('[data-option="MoveLimit"]', game === "yonin" ? "80" : "150");
    await waitFor(() => yomiApp.state === "human");
    const status = await playToEnd(game);
    assert.ok(status.over, JSON.stringify(status));
    assert.match(await page.textContent("#status"), /^Game over: /);
    // The record replays to the same end.
    const line = await app(() => yomiApp.referee.positionLine());
    assert.ok(await app((l) => yomiApp.referee.send(l).length === 0 && yomiApp.referee.status().over, line));
    await screenshot(`${game}-end`);
    if (game !== "sugoroku") {
      await setNumber('[data-option="MoveLimit"]', "0");
    }
    if (game === "yonin") for (const seat of [1, 2, 3]) await page.selectOption(`[data-seat="${seat}"]`, "cpu");
    await page.selectOption("#level", "5");
    await page.fill("#movetime", "400");
  });
}

test("take-back: the person's last move and the CPU's reply; in Sugoroku back to the turn's start, its roll kept", async () => {
  await chooseGame("annan");
  await page.click("#new-game");
  await waitFor(() => yomiApp.state === "human");
  assert.ok(await page.isDisabled("#takeback"), "nothing to take back yet");
  await clickMove("7g", "7f");
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 2);
  await clickMove("2g", "2f");
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 4);
  const two = (await moves()).slice(0, 2);
  await page.click("#takeback");
  await waitFor(() => yomiApp.state === "human");
  assert.deepEqual(await moves(), two);
  assert.equal(await page.getAttribute('[data-square="2g"]', "data-piece"), "P0");
  // Keys: U takes back too.
  await page.keyboard.press("u");
  await waitFor(() => yomiApp.state === "human");
  assert.deepEqual(await moves(), []);

  await chooseGame("sugoroku");
  await page.fill("#seed", "7");
  await page.click("#new-game");
  await waitFor(() => yomiApp.state === "human");
  const rolled = await moves();
  await playSugorokuTurn();
  await page.click("#takeback");
  await waitFor(() => yomiApp.state === "human");
  assert.deepEqual(await moves(), rolled, "the same roll, the turn to play again");
});

test("hint: the engine's best move marked on the board, legal", async () => {
  await chooseGame("hasami");
  await page.click("#new-game");
  await waitFor(() => yomiApp.state === "human");
  await page.click("#hint");
  await waitFor(() => yomiApp.hint !== null && document.querySelectorAll(".sq.hint").length === 2);
  const hint = await app(() => yomiApp.hint);
  assert.ok(await app((m) => yomiApp.legal.includes(m), hint), hint);
  const marked = await app(() => [...document.querySelectorAll(".sq.hint")].map((e) => e.dataset.square).sort());
  assert.deepEqual(marked, [hint.slice(0, 2), hint.slice(2, 4)].sort());
  assert.match(await page.textContent("#hint-text"), new RegExp(`^Hint: ${hint}$`));
  // The evaluation bar and its words come from the same look.
  assert.ok(Number(await page.getAttribute("#evalbar", "data-share")) > 0);
  assert.notEqual(await page.textContent("#eval-text"), "");
});

test("save and load: the record's lines give the same position; a bad record changes nothing; a link opens it", async () => {
  await chooseGame("annan");
  await page.selectOption('[data-option="AnnanDeadPiece"]', "forbid");
  await waitFor(() => yomiApp.state === "human");
  await clickMove("7g", "7f");
  await waitFor(() => yomiApp.state === "human" && yomiApp.referee.moves.length === 2);
  const line = await app(() => yomiApp.referee.positionLine());
  await page.click("#save summary");
  await page.click("#export");
  const record = await page.inputValue("#record-text");
  assert.match(record, /^setoption name USI_Variant value annan\nsetoption name AnnanDeadPiece value forbid\n/);
  assert.ok(record.endsWith(line));
  const link = await page.inputValue("#record-link");
  // Another game, then the record loaded.
  await chooseGame("hasami");
  await page.fill("#record-text", record);
  await page.click("#import");
  await waitFor(() => yomiApp.game === "annan" && yomiApp.state === "human");
  assert.equal(await app(() => yomiApp.referee.positionLine()), line);
  assert.equal(await page.inputValue('[data-option="AnnanDeadPiece"]'), "forbid");
  assert.equal(await page.inputValue("#game"), "annan");
  assert.match(await page.textContent("#record-message"), /^Game loaded/);
  // Malformed and illegal records: a message, and nothing changes.
  for (const bad of ["hello", "position startpos moves 7g7f 7g7f", "setoption name USI_Variant value chess\nposition startpos", "setoption name HasamiWin value five\nposition startpos"]) {
    await page.fill("#record-text", bad);
    await page.click("#import");
    assert.match(await page.textContent("#record-message"), /^This record cannot be loaded: .+ Nothing was changed\.$/, bad);
    assert.equal(await app(() => yomiApp.referee.positionLine()), line, bad);
    assert.equal(await app(() => yomiApp.game), "annan");
  }
  // The link opens the page at the position.
  const other = await context.newPage();
  other.on("pageerror", (e) => errors.push(e.message));
  await other.goto(link);
  await other.waitForFunction(() => window.yomiApp?.state === "human" || window.yomiApp?.state === "thinking");
  assert.equal(await other.evaluate(() => yomiApp.referee.positionLine()), line);
  assert.equal(await other.evaluate(() => yomiApp.game), "annan");
  await other.close();
  await page.selectOption('[data-option="AnnanDeadPiece"]', "support");
  await page.click("#save summary");
});

test("keys: arrows move the cursor, Enter picks and plays; F flips the board", async () => {
  await chooseGame("hasami");
  await page.click("#new-game");
  await waitFor(() => yomiApp.state === "human");
  await page.locator("#status").click();
  await page.keyboard.press("ArrowDown");
  assert.equal(await app(() => yomiApp.cursor), "s5e");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  assert.equal(await app(() => yomiApp.selected), "5i");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await waitFor(() => yomiApp.referee.moves.length >= 1);
  assert.equal((await moves())[0], "5i5g");
  await waitFor(() => yomiApp.state === "human");
  await page.keyboard.press("f");
  assert.equal(await app(() => document.querySelector("#board [data-square]").dataset.square), "1i");
  assert.ok(await app(() => yomiApp.flipped));
  await page.keyboard.press("f");
  assert.equal(await app(() => document.querySelector("#board [data-square]").dataset.square), "9a");
});

/** The review's budget in the tests, in nodes: the command line's verdicts at the same budget must match. */
const REVIEW_NODES = 20000;

/** Reviews the page's game by the button; resolves when the review is done. */
async function review(p) {
  await p.click("#review-start");
  await p.waitForFunction(() => document.getElementById("review").dataset.done === "true" && yomiApp.review?.done, undefined, { timeout: 120000, polling: 100 });
}

/**
 * Writes the page's record and its review under target/web/ (review-<name>.record
 * and .page), which tests/web.rs reviews with the native `yomi review` to compare.
 */
async function saveReview(p, name) {
  const { record, lines } = await p.evaluate(() => ({
    record: yomiApp.referee.recordLines().join("\n"),
    lines: [...yomiApp.review.entries]
      .sort((a, b) => a.ply - b.ply)
      .map((e) => [e.ply, e.seat, e.verdict, e.best ?? "none", e.played, e.bestValue, e.playedValue, e.loss].join(" ")),
  }));
  assert.ok(lines.length > 0, name);
  writeFileSync(`${SHOTS}review-${name}.record`, `${record}\n`);
  writeFileSync(`${SHOTS}review-${name}.page`, [`nodes ${REVIEW_NODES}`, ...lines, ""].join("\n"));
}

/** A record loaded through the page's own "Load" button. */
async function load(p, record) {
  await p.fill("#record-text", record);
  await p.click("#import");
  await p.waitForFunction(() => document.getElementById("record-message").textContent === "Game loaded.", undefined, { polling: 100 });
}

test("the review: the Annan hanging rook reviewed in the page, the blunder marked at its ply, a click shows its position", { timeout: 300000 }, async () => {
  const p = await context.newPage();
  p.on("pageerror", (e) => errors.push(e.message));
  // The record through the page's link: the rook on 4b hangs to the king.
  const rook = "setoption name USI_Variant value annan\nposition sfen 4k4/9/9/9/5R3/9/9/9/4K4 b - 1 moves 4e4b 5a4b";
  await p.goto(`${server.url}?analysis=100&review=${REVIEW_NODES}#record=${encodeURIComponent(rook)}`);
  await p.waitForFunction(() => window.yomiApp?.state === "human" && yomiApp.referee.moves.length === 2);
  assert.ok(await p.isHidden("#review"));
  await review(p);
  assert.equal(await p.locator("#review-graph circle").count(), 2);
  assert.equal(await p.getAttribute('#review-graph circle[data-ply="1"]', "data-verdict"), "blunder");
  assert.equal(await p.getAttribute('#review-graph circle[data-ply="2"]', "data-verdict"), "best");
  assert.deepEqual(await p.evaluate(() => [...document.querySelectorAll("#review-list li")].map((li) => `${li.dataset.ply} ${li.dataset.verdict}`)), ["1 blunder"]);
  assert.equal(await p.getAttribute('#review-counts li[data-mover="0"] [data-verdict="blunder"]', "data-count"), "1");
  assert.equal(await p.getAttribute('#review-counts li[data-mover="1"] [data-verdict="blunder"]', "data-count"), "0");
  assert.ok(await p.isHidden("#review-progress"));
  assert.match(await p.textContent("#review-list li"), /^1\. Black \(You\): 4e4b — blunder · best 4e4c/);
  // The list's line shows the position before the blunder, the move played and the best marked.
  await p.click('#review-list li[data-ply="1"] button');
  assert.equal(await p.evaluate(() => yomiApp.view), 0);
  assert.equal(await p.textContent("#viewing-text"), "Move 1: Black (You) played 4e4b (blunder); best: 4e4c");
  assert.equal(await p.getAttribute('[data-square="4e"]', "data-piece"), "R0");
  assert.equal(await p.getAttribute('[data-square="4b"]', "data-piece"), null);
  const marks = (cls) => p.evaluate((c) => [...document.querySelectorAll(`[data-square].${c}`)].map((e) => e.dataset.square).sort(), cls);
  assert.deepEqual(await marks("hint"), ["4c", "4e"]);
  assert.deepEqual(await marks("played"), ["4b", "4e"]);
  // A point of the graph: the king's capture, from the position before it.
  await p.click('#review-graph circle[data-ply="2"]');
  assert.equal(await p.evaluate(() => yomiApp.view), 1);
  assert.equal(await p.getAttribute('[data-square="4b"]', "data-piece"), "R0");
  await p.click("#back-to-game");
  assert.equal(await p.evaluate(() => yomiApp.view), null);
  assert.deepEqual(await marks("hint"), []);
  await saveReview(p, "annan-rook");

  // A missed mate in one (L*1c), loaded by the Load button; every seat a person's, so nothing moves.
  await p.selectOption('[data-seat="1"]', "human");
  await load(p, "setoption name USI_Variant value annan\nposition sfen 7lk/7pB/9/9/9/9/9/9/4K4 b L 1 moves 5i4h");
  await review(p);
  assert.equal(await p.getAttribute('#review-graph circle[data-ply="1"]', "data-verdict"), "blunder");
  await p.click('#review-list li[data-ply="1"] button');
  assert.match(await p.textContent("#viewing-text"), /best: L\*1c$/);
  assert.deepEqual(await marks("hint"), ["1c"]);
  assert.equal(await p.locator('[data-hand="0"] [data-drop="L"].hint').count(), 1, "the lance in hand marked");
  await saveReview(p, "annan-mate");

  // Sugoroku: a blot left to a double shot (docs/review.md), and a Yonin game's start.
  await load(p, "setoption name USI_Variant value sugoroku\nposition sfen 2w/2w/2b/2b/3b/4b/0/2b/2b/0/0/0/0/0/0/0/0/0/3w/3w/3w/2w/0/0 0/0 0/0 b 21 1 moves 9/7,9/8");
  await review(p);
  assert.equal(await p.getAttribute('#review-graph circle[data-ply="1"]', "data-verdict"), "blunder");
  await p.click('#review-list li[data-ply="1"] button');
  assert.deepEqual(await p.evaluate(() => [...document.querySelectorAll(".point.played")].map((e) => e.dataset.point).sort()), ["7", "8", "9"]);
  await saveReview(p, "sugoroku-blot");
  await load(p, "setoption name USI_Variant value yonin\nposition startpos moves 5g5f 7e6e 5c5d 3e4e");
  await review(p);
  assert.equal(await p.locator("#review-graph polyline").count(), 4, "a line a seat");
  assert.equal(await p.locator("#review-counts li").count(), 4);
  await saveReview(p, "yonin-start");

  // A game the CPU plays in the page (every seat a CPU at level 0), then reviewed.
  await p.selectOption("#game", "annan");
  await p.selectOption("#level", "0");
  await p.fill("#movetime", "100");
  for (const seat of [0, 1]) await p.selectOption(`[data-seat="${seat}"]`, "cpu");
  await p.waitForFunction(() => yomiApp.referee.moves.length >= 16 || yomiApp.state === "over");
  for (const seat of [0, 1]) await p.selectOption(`[data-seat="${seat}"]`, "human");
  await p.waitForFunction(() => yomiApp.state === "human" || yomiApp.state === "over");
  await review(p);
  const reviewed = await p.evaluate(() => yomiApp.review.entries.length);
  assert.equal(reviewed, await p.evaluate(() => yomiApp.referee.moves.length));
  await saveReview(p, "annan-cpu");
  // Screenshots: a marked move shown, in each language, at desktop and phone size.
  const marked = await p.evaluate(() => yomiApp.review.entries.find((e) => e.verdict === "blunder" || e.verdict === "mistake")?.ply);
  if (marked) await p.click(`#review-list li[data-ply="${marked}"] button`);
  for (const lang of ["en", "bn", "hi"]) {
    await p.selectOption("#language", lang);
    for (const [size, viewport] of [["desktop", { width: 1200, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
      await p.setViewportSize(viewport);
      const wide = await p.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= viewport.width, `review ${lang} ${size}: ${wide} px wide`);
      await p.screenshot({ path: `${SHOTS}review-${lang}-${size}.png`, fullPage: true });
    }
  }
  await p.selectOption("#language", "en");
  await p.close();
});

test("the review of a finished game starts by itself, shows its progress and can be cancelled", async () => {
  const p = await context.newPage();
  p.on("pageerror", (e) => errors.push(e.message));
  // A Hasami game drawn by a move limit of 8, at a budget of many seconds a move: the review
  // must still be running when the test cancels it, however loaded the machine.
  await p.goto(`${server.url}?analysis=100&review=20000000`);
  await p.waitForFunction(() => window.yomiApp?.state === "human");
  await p.click("#save summary");
  // Opened, the box shows the game's record first (its toggle event comes after the click).
  await p.waitForFunction(() => document.getElementById("record-text").value !== "", undefined, { polling: 100 });
  await load(p, "setoption name USI_Variant value hasami\nsetoption name MoveLimit value 8\nposition startpos moves 9i9c 1a1b 8i8c 1b1a 7i7c 1a1b 6i6c 1b1a");
  assert.equal(await p.evaluate(() => yomiApp.state), "over");
  assert.ok(await p.isVisible("#review"));
  assert.match(await p.textContent("#review-progress-text"), /^Reviewing move \d of 8…$/);
  assert.ok(await p.isDisabled("#review-start"));
  // The page answers meanwhile: a move of the list shown.
  await p.click('#record [data-ply="3"]');
  assert.equal(await p.evaluate(() => yomiApp.view), 3);
  await p.click("#review-cancel");
  assert.match(await p.textContent("#review-progress-text"), /^Review cancelled after \d of 8 moves\.$/);
  assert.ok(await p.isHidden("#review-cancel"));
  assert.ok(await p.isEnabled("#review-start"));
  await p.close();
});

test("the evaluation bar follows the CPU's own search; in Yonin it shows every seat's share", { timeout: 120000 }, async () => {
  await chooseGame("hasami");
  await page.selectOption('[data-seat="1"]', "cpu");
  await page.selectOption('[data-seat="0"]', "cpu");
  // Both CPUs' searches reach the bar and its words, move after move.
  await waitFor(() => {
    const seen = (window.evaluated ??= new Set());
    if (document.getElementById("evalbar").dataset.share !== undefined && document.getElementById("eval-text").textContent) seen.add(yomiApp.evaluation?.seat);
    return seen.has(0) && seen.has(1);
  }, undefined, 30000, 50);
  await page.selectOption('[data-seat="0"]', "human");
  await waitFor(() => yomiApp.state === "human" || yomiApp.state === "over");

  await chooseGame("yonin");
  for (const seat of [0, 1, 2, 3]) await page.selectOption(`[data-seat="${seat}"]`, "cpu");
  await waitFor(() => yomiApp.referee.moves.length >= 5);
  assert.equal(await page.locator("#evalbar .fill").count(), 4);
  const widths = await app(() => [...document.querySelectorAll("#evalbar .fill")].map((f) => parseFloat(f.style.width)));
  assert.ok(Math.abs(widths.reduce((a, b) => a + b, 0) - 100) < 0.5, String(widths));
  assert.match(await page.textContent("#eval-text"), /^Expected place: South \d\.\d, West \d\.\d, North \d\.\d, East \d\.\d$/);
  await page.selectOption('[data-seat="0"]', "human");
  await waitFor(() => yomiApp.state === "human" || yomiApp.state === "over");
});

test("a click on the board right after typing a house rule is not lost", async () => {
  await chooseGame("hasami");
  await page.click("#new-game");
  await waitFor(() => yomiApp.state === "human");
  // Typed, not left: the click on the board starts the new game and picks the stone.
  await page.fill('[data-option="MoveLimit"]', "120");
  await page.click('[data-square="9i"]');
  assert.equal(await app(() => yomiApp.selected), "9i");
  assert.ok((await page.locator(".sq.to").count()) > 0);
  assert.ok(await app(() => yomiApp.referee.recordLines().includes("setoption name MoveLimit value 120")), "the new game has the rule");
  await page.click('[data-square="9c"]');
  await waitFor(() => yomiApp.referee.moves.length >= 1);
  assert.equal((await moves())[0], "9i9c");
  await setNumber('[data-option="MoveLimit"]', "0");
});

const LANGS = { en: /^Your move \(/, bn: /^আপনার চাল \(/, hi: /^आपकी चाल \(/ };

test("languages and sizes: each game at desktop and phone size in English, Bengali and Hindi", { timeout: 300000 }, async () => {
  for (const game of GAMES) {
    await page.setViewportSize({ width: 1200, height: 900 });
    await chooseGame(game);
    await page.selectOption("#language", "en");
    if (game === "yonin") for (const seat of [1, 2, 3]) await page.selectOption(`[data-seat="${seat}"]`, "cpu");
    await page.click("#new-game");
    await waitFor(() => yomiApp.state === "human");
    // A move and the CPU's reply, the analysis done: the bar, the last move, the list.
    if (game === "sugoroku") {
      await playSugorokuTurn();
    } else {
      const n = await app(() => yomiApp.referee.moves.length);
      await clickShogiMove(await choose());
      await waitFor((k) => yomiApp.referee.moves.length > k && yomiApp.state === "human", n);
    }
    await waitFor(() => yomiApp.analysis?.done);
    for (const [lang, words] of Object.entries(LANGS)) {
      await page.selectOption("#language", lang);
      assert.equal(await app(() => document.documentElement.lang), lang);
      assert.match(await page.textContent("#status"), words, `${game} ${lang}`);
      for (const [size, viewport] of [["desktop", { width: 1200, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
        await page.setViewportSize(viewport);
        // Nothing wider than the screen: no sideways scrolling on a phone.
        const wide = await app(() => document.documentElement.scrollWidth);
        assert.ok(wide <= viewport.width, `${game} ${lang} ${size}: ${wide} px wide`);
        await screenshot(`${game}-${lang}-${size}`);
      }
    }
  }
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.selectOption("#language", "en");
});

test("the language: the browser's, else English; the switch is remembered", async () => {
  const hindi = await launch({ locale: "hi-IN" });
  const p = await hindi.newPage();
  p.on("pageerror", (e) => errors.push(e.message));
  await p.goto(server.url);
  await p.waitForFunction(() => window.yomiApp?.state === "human");
  assert.equal(await p.evaluate(() => document.documentElement.lang), "hi");
  assert.match(await p.textContent("#status"), LANGS.hi);
  await p.selectOption("#language", "bn");
  await p.reload();
  await p.waitForFunction(() => window.yomiApp?.state === "human");
  assert.equal(await p.evaluate(() => document.documentElement.lang), "bn");
  assert.equal(await p.inputValue("#language"), "bn");
  await hindi.close();
});

test("no script error on the page", () => {
  assert.deepEqual(errors, []);
});
