// Figures for docs/web.md: the wasm's size, nodes/s of the `bench` search in
// wasm (node) against the native binary for each game, and the page's time to
// the CPU's first move (CPU to move first, level 0, in headless Chromium).
// Run: node web/test/speed.mjs [native binary, default target/release/yomi]
import { readFileSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { Protocol } from "../yomi.js";
import { GAMES } from "./games.mjs";
import { serve } from "./serve.mjs";
import { launch } from "./browser.mjs";

const root = new URL("../../", import.meta.url);
const wasmPath = new URL("web/dist/yomi.wasm", root);
const native = process.argv[2] ?? fileURLToPath(new URL("target/release/yomi", root));
const wasm = readFileSync(wasmPath);
console.log(`wasm: ${wasm.length} bytes, ${gzipSync(wasm, { level: 9 }).length} gzipped`);

const benchNps = (lines) => {
  const m = lines.find((l) => l.startsWith("bench total ")).match(/nodes (\d+) time (\d+) nps (\d+)/);
  return { nodes: Number(m[1]), ms: Number(m[2]), nps: Number(m[3]) };
};

/** Runs of each bench, alternating wasm and native; the fastest of each counts
 * (the machine may be busy with other work). */
const RUNS = 3;
const engine = await Protocol.load(wasm);
console.log(`game       nodes      wasm nps     native nps  ratio   (fastest of ${RUNS} runs each)`);
for (const game of GAMES) {
  const script = `setoption name USI_Variant value ${game}\nsetoption name Threads value 1\nbench\n`;
  let w = null;
  let n = null;
  for (let run = 0; run < RUNS; run++) {
    const wasmRun = benchNps(engine.send(script));
    if (!w || wasmRun.nps > w.nps) w = wasmRun;
    if (!existsSync(native)) continue;
    const nativeRun = benchNps(execFileSync(native, { input: script }).toString().split("\n"));
    if (!n || nativeRun.nps > n.nps) n = nativeRun;
  }
  const same = !n || n.nodes === w.nodes ? "" : " (node counts differ!)";
  console.log(
    `${game.padEnd(10)} ${String(w.nodes).padStart(9)} ${String(w.nps).padStart(12)} ${String(n?.nps ?? "-").padStart(14)}  ${n ? (w.nps / n.nps).toFixed(2) : "-"}${same}`,
  );
}

const server = await serve();
const context = await launch();
try {
  for (const game of GAMES) {
    const page = await context.newPage();
    await page.goto(`${server.url}?game=${game}&seats=cpu,cpu,cpu,cpu&level=0`);
    await page.waitForFunction(() => window.yomiApp?.firstCpuMoveMs !== undefined, null, { timeout: 60000 });
    const { load, first } = await page.evaluate(() => ({ load: yomiApp.loadedMs, first: yomiApp.firstCpuMoveMs }));
    console.log(`${game}: page load to the CPU's first move (level 0): ${first.toFixed(0)} ms (engine ready ${load.toFixed(0)} ms after the script started)`);
    await page.close();
  }
  // The same bench in Chromium's worker.
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => window.yomiApp?.state === "human");
  for (const game of GAMES) {
    const line = await page.evaluate(
      (game) =>
        new Promise((done) => {
          const worker = new Worker("worker.js", { type: "module" });
          worker.onmessage = (e) => e.data.startsWith("bench total ") && (done(e.data), worker.terminate());
          worker.postMessage(`setoption name USI_Variant value ${game}\nbench`);
        }),
      game,
    );
    console.log(`${game}: in Chromium's worker: ${line}`);
  }
} finally {
  await context.close();
  server.close();
}
