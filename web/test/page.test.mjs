// The page in headless Chromium (Debian's): every game played by clicks, the
// CPU's replies checked against the rules, a screenshot of each game under
// target/web/. Run: node --test web/test/  (after web/build.sh)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
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
  await page.goto(server.url);
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
function waitFor(fn, arg, timeout = 30000) {
  return page.waitForFunction(fn, arg, { timeout });
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
  assert.match(await page.textContent("#status"), /^b to move \(your move\), ply 2 · captured: b 0 w 0/);
  assert.match(await page.textContent("#thinking"), /depth \d+ score -?\d+ cp nodes \d+/);
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
  assert.match(await page.textContent("#status"), /^b to move \(your move\), ply 4/);
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
  assert.match(await page.textContent("#status"), /^seat 0 South to move \(your move\), ply 4/);
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
  assert.match(await page.textContent("#status"), /^b to move \(your move\).* · dice [1-6]+ · pips \d+,\d+/);
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

test("no script error on the page", () => {
  assert.deepEqual(errors, []);
});
