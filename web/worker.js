// The engine in a Web Worker, with the ecosystem's shape (docs/web.md):
//
//   const worker = new Worker("worker.js", { type: "module" });
//   worker.onmessage = (e) => console.log(e.data);   // "info …", "bestmove …"
//   worker.postMessage("position startpos moves 9i9h");
//   worker.postMessage("go movetime 1000");
//
// Every message is one or more protocol lines; every reply line is one message,
// posted as it comes. The engine searches to the limits of each `go` before it
// reads the next message, so `stop` and `ponderhit` find nothing to stop, and a
// `go` only they could end (`go infinite`, `go ponder`) is refused with one
// `info string error` line. `quit` ends the worker. The wasm is a compiled
// WebAssembly.Module posted as the first message, else it is fetched from
// `?wasm=<url>` on the worker's URL, else from dist/yomi.wasm beside this file.
import { Protocol } from "./yomi.js";

const queue = [];
let engine = null;
let loading = null;

function drain() {
  while (engine && queue.length) {
    const text = queue.shift();
    engine.send(String(text), (line) => postMessage(line));
    if (engine.quit) {
      close();
      return;
    }
  }
}

function load(source) {
  loading = Protocol.load(source).then(
    (loaded) => {
      engine = loaded;
      drain();
    },
    (error) => postMessage(`info string error: the engine did not load: ${error.message}`),
  );
}

onmessage = (event) => {
  // A page that has compiled the wasm already may hand over the module first.
  if (event.data instanceof WebAssembly.Module) {
    if (!loading) load(event.data);
    return;
  }
  if (!loading) {
    const wasm = new URL(self.location.href).searchParams.get("wasm");
    load(wasm ? new URL(wasm, self.location.href) : undefined);
  }
  queue.push(event.data);
  drain();
};
