// The tests' one list of games: the engine's (`USI_Variant`'s choices), read
// from the wasm (web/dist/yomi.wasm, built by web/build.sh).
import { readFileSync } from "node:fs";
import { Engine } from "../yomi.js";

export const wasm = readFileSync(new URL("../dist/yomi.wasm", import.meta.url));
export const GAMES = (await Engine.load(wasm)).games();
