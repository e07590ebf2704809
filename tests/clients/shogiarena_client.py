#!/usr/bin/env python3
"""Drives `yomi` as a USI host does, through PyPI shogiarena's engine session.

Usage:
    pip install shogiarena
    cargo build --release
    python3 tests/clients/shogiarena_client.py [path/to/yomi]   # default: target/release/yomi

shogiarena's public engine API (`shogiarena.engine.create_engine_from_mapping`,
which returns its `UsiEngineSession`) is used as it is, nothing patched:

- `start()` launches the binary, sends `usi` and waits for `usiok`, then sends a
  `setoption` for each configured option, in order, and waits for `readyok`. An
  option is sent only if the engine announced it; otherwise shogiarena waits for
  it until the handshake timeout and fails. The options here are `USI_Variant`
  (annan), `USI_Hash`, and `MaxMovesToDraw|Draw_Ply`: the key a shogiarena
  tournament sets to keep the engine's draw-by-move-count in step with its own
  adjudication ("auto" option names), which sends `MaxMovesToDraw`.
- `new_game()` sends `usinewgame`; `think()` sends `position sfen ... moves ...`
  and `go ...` (here also `go depth 3 searchmoves ...`) and returns the parsed
  `bestmove`; `start_ponder()` sends `go ponder ...` (with `enable_early_ponder`
  the clock is held back: `go ponder` alone), and its handle's `hit()` /
  `cancel()` send `ponderhit btime ... byoyomi ...` / `stop`; `think_mate()`
  sends `go mate 1000` and parses `checkmate <moves>`, `checkmate nomate` or
  `checkmate timeout` (it raises on `checkmate notimplemented`); `gameover()`
  sends `gameover`; `close()` sends `quit` and waits 5 s for the process to
  exit before killing it.

Annan Shogi is played (standard shogi SFEN and moves): shogiarena's session does
not check positions or moves against shogi rules, it only parses each move's
USI text (through rsshogi's `Move`), so Annan moves pass through unchanged. Every
bestmove is checked against `yomi moves --game annan` for that position.

Failure is any exception, a bestmove not in the legal list, a missing `setoption`
in the transcript, an `info string error` from the engine, anything on stderr,
or any warning logged by shogiarena (an unhandled or unexpected line, an engine
that did not exit after `quit`, ...). Exits nonzero on failure; a watchdog ends
the run after 120 s so that a hang fails instead of blocking.
"""

import asyncio
import logging
import os
import subprocess
import sys
import threading
import time

from shogiarena.engine import PonderHitTimings, UsiThinkRequest, create_engine_from_mapping, move_from_usi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "yomi"))
WATCHDOG_SECONDS = 120
ANNAN_START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
# Mate in one: the lance dropped on 1c lends its movement to the bishop on 1b.
TSUME = "7lk/7pB/9/9/9/9/9/9/4K4 b L 1"
MAX_MOVES_TO_DRAW = 256


class Recorder(logging.Handler):
    """Keeps every warning or error that shogiarena logs."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(f"{record.name}: {record.getMessage()}")


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def legal_moves(moves):
    """The engine's own legal moves after `moves` from the Annan start position."""
    out = subprocess.run(
        [BINARY, "moves", "--game", "annan", "--moves", " ".join(moves)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return out.stdout.split()


async def play():
    warnings = Recorder()
    logging.getLogger("shogiarena").addHandler(warnings)

    session = await create_engine_from_mapping(
        {
            "name": "yomi",
            "engine_path": BINARY,
            "handshake_timeout": 15,
            # YaneuraOu's early ponder: `go ponder` without a clock, the clock on `ponderhit`.
            "enable_early_ponder": True,
            "options": {
                "USI_Variant": "annan",
                "USI_Hash": 16,
                "MaxMovesToDraw|Draw_Ply": MAX_MOVES_TO_DRAW,
            },
        },
        collect_info_strings=True,
    )
    transcript = []  # (direction, line): "out" is sent to the engine, "in" read from it
    session.register_io_log_handler(lambda event: transcript.append((event.direction, event.line)))

    try:
        await session.start()
        check(session.engine_info.get("name", "").startswith("Yomi "), f"id name: {session.engine_info}")
        options = session.get_usi_options()
        for name in ["USI_Variant", "MaxMovesToDraw", "USI_Hash", "USI_Ponder"]:
            check(name in options, f"option {name} not parsed by shogiarena: {sorted(options)}")

        await session.new_game()
        moves = []
        requests = [
            UsiThinkRequest(byoyomi=200),
            UsiThinkRequest(btime=1000, wtime=1000, binc=100, winc=100),
            UsiThinkRequest(nodes=2000),
            UsiThinkRequest(depth=3),
            UsiThinkRequest(movetime=150),
        ]
        for ply in range(8):
            legal = legal_moves(moves)
            if not legal:
                break
            result = await session.think(
                sfen=ANNAN_START,
                moves=[move_from_usi(m) for m in moves],
                request=requests[ply % len(requests)],
                timeout=30,
            )
            best = result.bestmove.to_usi()
            check(best in legal, f"ply {ply + 1}: bestmove {best} not in {legal}")
            moves.append(best)
            print(f"ply {ply + 1}: {best}" + (f" (ponder {result.ponder.to_usi()})" if result.ponder else ""))

        # Ponder on the opponent's time; the opponent plays the expected move.
        legal = legal_moves(moves)
        handle = await session.start_ponder(
            sfen=ANNAN_START,
            moves=[move_from_usi(m) for m in moves],
            request=UsiThinkRequest(btime=0, wtime=0, byoyomi=300),
        )
        await asyncio.sleep(0.1)
        check(handle.requires_timings, "early ponder is on: the clock goes with ponderhit")
        result = await handle.hit(timings=PonderHitTimings(btime=1000, wtime=1000, byoyomi=300), timeout=30)
        best = result.bestmove.to_usi()
        check(best in legal, f"ponderhit: bestmove {best} not in {legal}")
        print(f"after ponderhit: {best}")

        # `go searchmoves`: only the moves named are searched.
        chosen = legal[-2:]
        result = await session.think(
            sfen=ANNAN_START,
            moves=[move_from_usi(m) for m in moves],
            request=UsiThinkRequest(depth=3, searchmoves=tuple(move_from_usi(m) for m in chosen)),
            timeout=30,
        )
        best = result.bestmove.to_usi()
        check(best in chosen, f"searchmoves: bestmove {best} not in {chosen}")
        print(f"searchmoves {' '.join(chosen)}: {best}")

        # `go mate`: Annan's df-pn solver answers (nomate or timeout in the
        # opening, where a mating line would have to replay legally), and finds
        # the mate of a tsume.
        result = await session.think_mate(sfen=ANNAN_START, moves=[move_from_usi(m) for m in moves], ply_limit=1000, timeout=30)
        line = [m.to_usi() for m in result.moves]
        check(result.is_mate == bool(line), f"go mate in the game: {result}")
        for i, mv in enumerate(line):
            check(mv in legal_moves(moves + line[:i]), f"go mate in the game: {mv} of {line} is not legal")
        print(f"go mate in the game: {' '.join(line) if line else 'no mate'}")
        result = await session.think_mate(sfen=TSUME, ply_limit=1000, timeout=30)
        line = [m.to_usi() for m in result.moves]
        check(result.is_mate and line == ["L*1c"], f"go mate {TSUME}: {result}")
        print(f"go mate {TSUME}: {' '.join(line)}")

        # A ponder miss: shogiarena stops the search and drops its bestmove.
        handle = await session.start_ponder(
            sfen=ANNAN_START,
            moves=[move_from_usi(m) for m in moves],
            request=UsiThinkRequest(btime=0, wtime=0, byoyomi=300),
        )
        await asyncio.sleep(0.1)
        await handle.cancel(timeout=30)

        await session.gameover("draw")
        await session.flush_io_log_handlers(timeout=5)
    finally:
        started = time.monotonic()
        await session.close()
        closing = time.monotonic() - started

    sent = [line for direction, line in transcript if direction == "out"]
    received = [line for direction, line in transcript if direction == "in"]
    stderr = [line for direction, line in transcript if direction == "stderr"]
    for line in [
        "usi",
        "setoption name USI_Variant value annan",
        "setoption name USI_Hash value 16",
        f"setoption name MaxMovesToDraw value {MAX_MOVES_TO_DRAW}",
        "isready",
        "usinewgame",
        "ponderhit btime 1000 wtime 1000 byoyomi 300",
        "go mate 1000",
        "stop",
        "gameover draw",
    ]:
        check(line in sent, f"shogiarena never sent {line!r}: {sent}")
    check("info string variant annan" in received, f"no variant confirmation: {received}")
    errors = [line for line in received if line.startswith("info string error")]
    check(not errors, f"engine reported errors: {errors}")
    check(not stderr, f"engine wrote to stderr: {stderr}")
    # `quit` goes straight to the pipe, past the transcript; shogiarena kills the
    # engine (and logs a warning) if it has not exited 5 s after it.
    check(closing < 4, f"the engine took {closing:.1f} s to exit after quit")
    check(not warnings.records, f"shogiarena logged warnings: {warnings.records}")


def main():
    def expire():
        print(f"shogiarena client: no result after {WATCHDOG_SECONDS} s", file=sys.stderr, flush=True)
        os._exit(2)  # the engine sees end of input and exits too

    watchdog = threading.Timer(WATCHDOG_SECONDS, expire)
    watchdog.daemon = True
    watchdog.start()
    try:
        asyncio.run(play())
    finally:
        watchdog.cancel()
    print("shogiarena client: ok")


if __name__ == "__main__":
    main()
