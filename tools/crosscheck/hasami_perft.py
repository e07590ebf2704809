#!/usr/bin/env python3
"""An independent, deliberately plain Hasami Shogi perft (no bitboards, no tables).

Reads the rules from docs/rules/hasami.md as settled there, and checks or
prints perft counts for the positions in tests/perft/hasami.txt:

    python3 tools/crosscheck/hasami_perft.py tests/perft/hasami.txt          # check
    python3 tools/crosscheck/hasami_perft.py --sfen "<sfen>" --depth 3 [--win lead3]

Line format of the data file: `<sfen> ; win=<five|lead3|all> ; D1 <n> ; D2 <n> …`.
"""
import argparse
import sys

DIRS = [(-1, 0), (1, 0), (0, -1), (0, 1)]
CORNERS = [(0, 0), (0, 8), (8, 0), (8, 8)]


def parse(sfen):
    board_text, side = sfen.split()[:2]
    board = []
    for row in board_text.split("/"):
        cells = []
        for c in row:
            if c.isdigit():
                cells.extend(["."] * int(c))
            else:
                cells.append(c)
        assert len(cells) == 9, sfen
        board.append(cells)
    assert len(board) == 9
    return board, "P" if side == "b" else "p"


def other(me):
    return "p" if me == "P" else "P"


def count(board, who):
    return sum(row.count(who) for row in board)


def meets(board, who, win):
    mine, theirs = count(board, who), count(board, other(who))
    if win == "five":
        return 9 - theirs >= 5
    if win == "lead3":
        return mine - theirs >= 3
    return theirs == 0


def decided(board, me, win):
    return meets(board, other(me), win) or meets(board, me, win)


def moves(board, me):
    out = []
    for r in range(9):
        for c in range(9):
            if board[r][c] != me:
                continue
            for dr, dc in DIRS:
                rr, cc = r + dr, c + dc
                while 0 <= rr < 9 and 0 <= cc < 9 and board[rr][cc] == ".":
                    out.append((r, c, rr, cc))
                    rr += dr
                    cc += dc
    return out


def play(board, me, move):
    r, c, rr, cc = move
    b = [row[:] for row in board]
    b[r][c] = "."
    b[rr][cc] = me
    them = other(me)

    def at(y, x):
        return b[y][x] if 0 <= y < 9 and 0 <= x < 9 else "#"

    taken = []
    for dr, dc in DIRS:
        run = []
        y, x = rr + dr, cc + dc
        while at(y, x) == them:
            run.append((y, x))
            y += dr
            x += dc
        if run and at(y, x) == me:
            taken += run
    for cy, cx in CORNERS:
        n1 = (cy, 1 if cx == 0 else 7)
        n2 = (1 if cy == 0 else 7, cx)
        if at(cy, cx) == them and (rr, cc) in (n1, n2) and at(*n1) == me and at(*n2) == me:
            taken.append((cy, cx))
    for y, x in taken:
        b[y][x] = "."
    return b


def perft(board, me, depth, win):
    if depth == 0:
        return 1
    if decided(board, me, win):
        return 0
    ms = moves(board, me)
    if depth == 1:
        return len(ms)
    return sum(perft(play(board, me, m), other(me), depth - 1, win) for m in ms)


def check_file(path, max_leaves):
    failures = 0
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        board, me = parse(fields[0])
        win = "five"
        for f in fields[1:]:
            if f.startswith("win="):
                win = f[4:]
            elif f.startswith("D"):
                depth, expected = f[1:].split()
                depth, expected = int(depth), int(expected)
                if expected > max_leaves:
                    continue
                got = perft(board, me, depth, win)
                ok = got == expected
                failures += not ok
                print(f"{'ok  ' if ok else 'FAIL'} D{depth} {got} (file {expected}) {fields[0]} win={win}")
    print(f"{failures} failed")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--sfen")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--win", default="five")
    ap.add_argument("--max-leaves", type=int, default=2_000_000)
    a = ap.parse_args()
    if a.sfen:
        board, me = parse(a.sfen)
        print(perft(board, me, a.depth, a.win))
        return 0
    return 1 if check_file(a.file, a.max_leaves) else 0


if __name__ == "__main__":
    sys.exit(main())
