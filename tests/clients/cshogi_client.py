#!/usr/bin/env python3
"""Drives `yomi` as a USI host does, through PyPI cshogi's `cshogi.usi.Engine`.

Usage:
    pip install cshogi
    cargo build --release
    python3 tests/clients/cshogi_client.py [path/to/yomi]      # default: target/release/yomi

It goes through the handshake (with USI_Variant and MaxMovesToDraw), plays a
short Hasami game with `go byoyomi`, `go btime/wtime/binc/winc` and `go nodes`,
checking every bestmove against the engine's own `moves` list, then ponders
(`go ponder` + `ponderhit`), asks `go mate` (answered `checkmate
notimplemented` in Hasami), sends a full-width quote that must come back as
ASCII, ends with `gameover` and `quit`, and checks that nothing was written to
stderr. Exits nonzero on any failure; a watchdog kills the
engine after 120 s so that a hang fails instead of blocking.
"""

import os
import sys
import threading

from cshogi.usi import Engine

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "yomi")


def send(engine, line):
    engine.proc.stdin.write(line.encode("ascii") + b"\n")
    engine.proc.stdin.flush()


def read_until(engine, done):
    """Lines up to and including the first for which done(line) holds."""
    lines = []
    while True:
        raw = engine.proc.stdout.readline()
        if not raw:
            raise EOFError("the engine closed its output")
        line = raw.decode("ascii").strip()
        lines.append(line)
        if done(line):
            return lines


def ask(engine, line):
    """Sends a command and returns what it printed before `readyok`."""
    send(engine, line)
    send(engine, "isready")
    return read_until(engine, lambda l: l == "readyok")[:-1]


def legal_moves(engine, moves):
    engine.position(moves=moves, sfen="startpos")
    return ask(engine, "moves")


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def main():
    engine = Engine(os.path.abspath(BINARY))
    watchdog = threading.Timer(120, engine.proc.kill)
    watchdog.start()
    try:
        check(engine.name.startswith("Yomi "), f"id name: {engine.name}")
        options = engine.usi()
        for name in ["USI_Variant", "MaxMovesToDraw", "USI_Ponder", "USI_Hash", "HasamiWin"]:
            check(any(l.startswith(f"option name {name} ") for l in options), f"option {name} missing: {options}")

        engine.setoption("USI_Variant", "hasami")
        engine.setoption("USI_Ponder", "true")
        engine.setoption("USI_Hash", 32)
        engine.setoption("MaxMovesToDraw", 200)
        engine.isready()
        engine.usinewgame()

        moves = []
        limits = [
            dict(byoyomi=200),
            dict(btime=1000, wtime=1000, binc=100, winc=100),
            dict(nodes=2000),
        ]
        for ply in range(9):
            legal = legal_moves(engine, moves)
            if not legal:
                break
            engine.position(moves=moves, sfen="startpos")
            best, ponder = engine.go(**limits[ply % len(limits)])
            check(best in legal, f"ply {ply}: bestmove {best} not in {legal}")
            moves.append(best)
            print(f"ply {ply + 1}: {best}" + (f" (ponder {ponder})" if ponder else ""))

        # Ponder on the opponent's time, then the opponent plays the expected move.
        legal = legal_moves(engine, moves)
        engine.position(moves=moves, sfen="startpos")
        send(engine, "go ponder btime 0 wtime 0 byoyomi 300")
        engine.ponderhit()
        best = read_until(engine, lambda l: l.startswith("bestmove"))[-1].split()[1]
        check(best in legal, f"ponderhit: bestmove {best} not in {legal}")
        print(f"after ponderhit: {best}")

        # `go mate` is always answered (cshogi's go_mate waits for a `checkmate` line).
        engine.position(moves=moves, sfen="startpos")
        for byoyomi in [1000, None]:
            answer = engine.go_mate(byoyomi=byoyomi)
            check(answer == "notimplemented", f"go mate: {answer!r}")
        print("go mate: notimplemented")

        # A full-width quote in bad input comes back as ASCII: cshogi decodes
        # every reply with the locale's encoding (Shift-JIS on Japanese systems).
        engine.proc.stdin.write("position sfen ９ｉ歩 b - 1\n".encode("utf-8"))
        engine.proc.stdin.flush()
        send(engine, "isready")
        replies = read_until(engine, lambda l: l == "readyok")
        check(len(replies) == 2 and replies[0].startswith("info string error: "), f"replies: {replies}")
        check(replies[0].encode("shift_jis").decode("shift_jis") == replies[0], "ASCII round trip")
        engine.isready()

        # A ponder miss answered by stop, then the end of the game.
        send(engine, "go ponder btime 0 wtime 0 byoyomi 300")
        engine.stop()
        read_until(engine, lambda l: l.startswith("bestmove"))
        send(engine, "go infinite")
        engine.gameover("win")
        check(all(not l.startswith("bestmove") for l in ask(engine, "status")), "bestmove after gameover")

        proc = engine.proc
        engine.quit()
        stderr = proc.stderr.read()
        check(proc.returncode == 0, f"exit status {proc.returncode}")
        check(stderr == b"", f"stderr: {stderr!r}")
    finally:
        watchdog.cancel()
    print("cshogi client: ok")


if __name__ == "__main__":
    main()
