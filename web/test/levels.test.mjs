// The page's Elo of each CPU level (web/levels.js) against the measured tables
// of docs/cpu-seats.md and the range the engine announces (`USI_Elo`), and the
// page's word tables (web/i18n.js): every language has every English key.
// Run: node --test web/test/  (after web/build.sh)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Engine } from "../yomi.js";
import { LEVEL_ELO } from "../levels.js";
import { STRINGS } from "../i18n.js";

const root = new URL("../../", import.meta.url);
const docs = readFileSync(new URL("docs/cpu-seats.md", root), "utf8");

/** The Elo column of the game's first table in docs/cpu-seats.md, level 0 to full. */
function measured(game) {
  const title = `**${game[0].toUpperCase()}${game.slice(1)}** (`;
  const table = docs.slice(docs.indexOf(title)).split("\n\n")[1];
  return [...table.matchAll(/^\| (level\d+|full) \| \+(\d+) \|/gm)].map((m) => Number(m[2]));
}

test("each level's Elo is the measured one, and the engine's range its ends", async () => {
  const engine = await Engine.load(readFileSync(new URL("web/dist/yomi.wasm", root)));
  for (const [game, elo] of Object.entries(LEVEL_ELO)) {
    assert.deepEqual(elo, measured(game), game);
    engine.setGame(game);
    const options = engine.options();
    const range = options.find((o) => o.name === "USI_Elo");
    assert.deepEqual([range.min, range.max], [elo[0], elo.at(-1)], `${game}: USI_Elo`);
    assert.equal(options.find((o) => o.name === "Level").max, elo.length - 1, `${game}: Level`);
  }
});

/** The keys of a table, nested ones as `a.b`. */
function keys(table, prefix = "") {
  return Object.entries(table).flatMap(([k, v]) =>
    v && typeof v === "object" && !Array.isArray(v) ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

test("every language has every word of the English table", () => {
  const english = keys(STRINGS.en);
  for (const [lang, table] of Object.entries(STRINGS)) {
    assert.deepEqual(keys(table).sort(), [...english].sort(), lang);
    for (const [game, names] of Object.entries(table.side)) assert.equal(names.length, STRINGS.en.side[game].length, `${lang} ${game}`);
  }
});
