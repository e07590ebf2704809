#!/usr/bin/env python3
"""Cross-checks Yomi's Annan move generation against lishogi's shogiops.

For every position of tests/perft/annan.txt it diffs `yomi moves` against
`node shogiops/annan.mjs moves`; where the move sets agree it compares perft at
depth 2 (and 3 when the file gives a depth-3 count of at most --max-d3) and, on a
mismatch, walks down to the first position whose move sets differ. Every
differing move is classified by the known differences of shogiops' rules:

  (a) a board move puts two unpromoted pawns on one file (shogiops allows it)
  (b) a pawn, lance or knight moves or is dropped without promotion to its last
      rank (a knight: last two ranks) where it is stuck, under support with the
      support then behind it (shogiops has no dead-piece restriction)
  (c) drop-pawn mate: shogiops only tests a pawn dropped directly in front of the
      king, and there it also refuses a drop that leaves the opponent without a
      move though not in check
  (d) a capture of the opponent's back piece that leaves the mover's own king
      attacked (shogiops accepts it)

and anything else is printed as UNEXPLAINED (exit status 1).

    cd tools/crosscheck/shogiops && npm install && cd -
    cargo build --release
    python3 tools/crosscheck/compare_annan.py [tests/perft/annan.txt] [--yomi target/release/yomi] [--deep]

With --deep, a position whose move sets differ is also followed one ply down
through the moves both programs list (slow: two processes per move).

The categories are decided from the move itself and from Yomi's verdict on the
position after it: Yomi refuses a position whose side not to move is in check,
which tells whether a move leaves the mover's king attacked or gives check.
"""
import argparse
import os
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SHOGIOPS = os.path.join(HERE, "shogiops")

# Steps of each kind for black (rank index grows toward black's camp), as
# (file step, rank step); sliding kinds repeat their steps.
GOLD = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)]
KING = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]
DIAG = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
ORTH = [(0, -1), (-1, 0), (1, 0), (0, 1)]
STEPS = {
    "P": [(0, -1)], "L": [(0, -1)], "N": [(-1, -2), (1, -2)],
    "S": [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)], "G": GOLD, "K": KING,
    "B": DIAG, "R": ORTH, "+B": KING, "+R": KING,
    "+P": GOLD, "+L": GOLD, "+N": GOLD, "+S": GOLD,
}
HAND_ORDER = "RBGSNLP"


class Position:
    """Board as {(file, rank): (black?, kind)} with kind like 'P' or '+R'; rank 1 = a."""

    def __init__(self, sfen):
        board, side, hands = sfen.split()[:3]
        self.board = {}
        for rank, row in enumerate(board.split("/"), start=1):
            file, promoted = 9, False
            for c in row:
                if c.isdigit():
                    file -= int(c)
                elif c == "+":
                    promoted = True
                else:
                    self.board[(file, rank)] = (c.isupper(), ("+" if promoted else "") + c.upper())
                    file, promoted = file - 1, False
        self.black = side == "b"
        self.hands = Counter()
        count = ""
        for c in "" if hands == "-" else hands:
            if c.isdigit():
                count += c
            else:
                self.hands[(c.isupper(), c.upper())] += int(count or 1)
                count = ""

    def sfen(self, black=None):
        rows = []
        for rank in range(1, 10):
            row, empty = "", 0
            for file in range(9, 0, -1):
                piece = self.board.get((file, rank))
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row, empty = row + str(empty), 0
                row += piece[1] if piece[0] else piece[1].lower()
            rows.append(row + (str(empty) if empty else ""))
        hand = ""
        for colour in (True, False):
            for kind in HAND_ORDER:
                n = self.hands[(colour, kind)]
                if n:
                    hand += (str(n) if n > 1 else "") + (kind if colour else kind.lower())
        black = self.black if black is None else black
        return f"{'/'.join(rows)} {'b' if black else 'w'} {hand or '-'} 1"

    def copy(self):
        other = Position.__new__(Position)
        other.board, other.black, other.hands = dict(self.board), self.black, Counter(self.hands)
        return other

    def play(self, move):
        """The position after a USI move (not checked for legality)."""
        after = self.copy()
        to = square(move[2:4])
        if move[1] == "*":
            after.hands[(self.black, move[0])] -= 1
            after.board[to] = (self.black, move[0])
        else:
            colour, kind = after.board.pop(square(move[:2]))
            if to in after.board:
                after.hands[(self.black, after.board[to][1][-1])] += 1
            after.board[to] = (colour, "+" + kind if move.endswith("+") else kind)
        after.black = not self.black
        return after

    def behind(self, sq, black):
        return (sq[0], sq[1] + (1 if black else -1))

    def movement(self, sq):
        """The kind whose movement the piece on `sq` has (its back piece's if own)."""
        black, kind = self.board[sq]
        back = self.board.get(self.behind(sq, black))
        return back[1] if back and back[0] == black else kind

    def stuck(self, sq):
        """True when the piece on `sq` has no destination on the board."""
        black = self.board[sq][0]
        sign = -1 if not black else 1
        for df, dr in STEPS[self.movement(sq)]:
            f, r = sq[0] + sign * df, sq[1] + sign * dr
            if 1 <= f <= 9 and 1 <= r <= 9:
                return False
        return True

    def king(self, black):
        return next(sq for sq, p in self.board.items() if p == (black, "K"))


def square(text):
    return (int(text[0]), ord(text[1]) - ord("a") + 1)


class Engines:
    def __init__(self, yomi, options):
        self.yomi, self.sets = yomi, []
        for name, value in options:
            self.sets += ["--set", f"{name}={value}"]
        self.forbid = ("AnnanDeadPiece", "forbid") in options

    def _yomi(self, *args):
        return subprocess.run([self.yomi, *args, "--game", "annan", *self.sets],
                              capture_output=True, text=True)

    def yomi_moves(self, sfen):
        out = self._yomi("moves", "--sfen", sfen)
        if out.returncode:
            raise RuntimeError(f"yomi refuses {sfen}: {out.stderr.strip()}")
        return set(out.stdout.split())

    def yomi_perft(self, sfen, depth):
        out = self._yomi("perft", "--sfen", sfen, "--depth", str(depth))
        if out.returncode:
            raise RuntimeError(f"yomi refuses {sfen}: {out.stderr.strip()}")
        return int(out.stdout.split()[-1])

    def in_check_not_to_move(self, sfen):
        """Does Yomi refuse `sfen` because the side not to move is in check?"""
        out = self._yomi("moves", "--sfen", sfen)
        if out.returncode and "not to move is in check" not in out.stderr:
            raise RuntimeError(f"yomi refuses {sfen}: {out.stderr.strip()}")
        return out.returncode != 0

    def _shogiops(self, *args):
        out = subprocess.run(["node", "annan.mjs", *args], cwd=SHOGIOPS, capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError(f"shogiops refuses {args[1]}: {out.stderr.strip()}")
        return out.stdout

    def shogiops_moves(self, sfen):
        return set(self._shogiops("moves", sfen).split())

    def shogiops_perft(self, sfen, depth):
        return int(self._shogiops("perft", sfen, str(depth)).split()[-1])


def classify(engines, pos, move, extra):
    """The categories explaining a move that only shogiops (`extra`) or only Yomi lists."""
    after = pos.play(move)
    to = square(move[2:4])
    me = pos.black
    categories = []
    drop = move[1] == "*"
    kind = move[0] if drop else pos.board[square(move[:2])][1]
    promotes = move.endswith("+")
    if not extra:
        # Yomi's move that shogiops lacks: a pawn drop in front of the king after
        # which the opponent has no move though not in check (shogiops's drop-pawn
        # test counts stalemate as mate).
        king = pos.king(not me)
        if (drop and kind == "P" and to == pos.behind(king, me)
                and not engines.in_check_not_to_move(after.sfen(black=me))
                and engines.yomi_perft(after.sfen(), 1) == 0):
            categories.append("c")
        return categories
    if (not drop and kind == "P" and not promotes and square(move[:2])[0] != to[0]
            and any(p == (me, "P") for sq, p in pos.board.items() if sq[0] == to[0])):
        categories.append("a")
    if kind in ("P", "L", "N") and not promotes:
        # Only a piece on a square its own kind could never leave is concerned
        # (rule 5); under support it is refused only if it is stuck there with
        # the support behind it too. A piece stuck elsewhere by what it borrows
        # (a pawn on the second rank in front of a knight) is legal either way.
        last = to[1] if me else 10 - to[1]
        dead = last == 1 or (kind == "N" and last == 2)
        if dead and not engines.forbid:
            dead = after.stuck(to)
        if dead:
            categories.append("b")
    if drop and kind == "P" and engines.in_check_not_to_move(after.sfen(black=me)):
        if engines.yomi_perft(after.sfen(), 1) == 0:
            categories.append("c")
    if not drop and to in pos.board and engines.in_check_not_to_move(after.sfen()):
        # The capture leaves the mover's king attacked; (d) when it took a back piece.
        front = (to[0], to[1] + (1 if me else -1))
        if pos.board.get(front, (None,))[0] == (not me):
            categories.append("d")
    return categories


def explain(engines, sfen, depth, path, out, deep=False):
    """Walks down from `sfen` (perft at `depth` differs) to the differing moves.
    Below a position whose move sets differ it goes on only when `deep`, through
    the moves both list."""
    ours, theirs = engines.yomi_moves(sfen), engines.shogiops_moves(sfen)
    if ours != theirs or depth == 1:
        pos = Position(sfen)
        for extra, moves in ((True, theirs - ours), (False, ours - theirs)):
            for move in sorted(moves):
                cats = classify(engines, pos, move, extra)
                out.append((path, ("+" if extra else "-") + move, cats))
        if not deep or depth == 1:
            return
    for move in sorted(ours & theirs):
        child = Position(sfen).play(move).sfen()
        if engines.yomi_perft(child, depth - 1) != engines.shogiops_perft(child, depth - 1):
            explain(engines, child, depth - 1, path + [move], out, deep)


def read(path):
    for number, line in enumerate(open(path), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        options = [tuple(f.split("=", 1)) for f in fields[1:] if "=" in f]
        depths = {int(f[1:].split()[0]): int(f.split()[1]) for f in fields[1:] if f.startswith("D")}
        yield number, fields[0], options, depths


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="?", default=os.path.join(ROOT, "tests/perft/annan.txt"))
    parser.add_argument("--yomi", default=os.path.join(ROOT, "target/release/yomi"))
    parser.add_argument("--max-d3", type=int, default=10_000_000,
                        help="compare depth 3 when Yomi's count is at most this")
    parser.add_argument("--deep", action="store_true",
                        help="where the move sets differ, still compare the positions after the common moves")
    parser.add_argument("--show", type=int, default=8, help="differences printed per position")
    args = parser.parse_args()

    positions = agree = 0
    by_category = Counter()  # differing moves per category
    positions_by_category = Counter()
    unexplained = []
    for number, sfen, options, depths in read(args.data):
        positions += 1
        engines = Engines(args.yomi, options)
        label = f"line {number}: {sfen}" + "".join(f" ; {n}={v}" for n, v in options)
        diffs = []
        ours, theirs = engines.yomi_moves(sfen), engines.shogiops_moves(sfen)
        if ours != theirs:
            explain(engines, sfen, 2 if args.deep else 1, [], diffs, args.deep)
        else:
            for depth in (2, 3):
                if depth == 3 and not 0 < depths.get(3, 0) <= args.max_d3:
                    break
                if engines.yomi_perft(sfen, depth) != engines.shogiops_perft(sfen, depth):
                    explain(engines, sfen, depth, [], diffs)
                    break
        if not diffs:
            agree += 1
            print(f"{label}\n    agree ({len(ours)} moves)")
            continue
        print(f"{label}\n    differ")
        seen = set()
        for path, move, cats in diffs:
            for c in cats:
                by_category[c] += 1
                seen.add(c)
            if not cats:
                by_category["UNEXPLAINED"] += 1
                seen.add("UNEXPLAINED")
                unexplained.append((label, path, move))
        for c in seen:
            positions_by_category[c] += 1
        shown = [d for d in diffs if not d[2]] + [d for d in diffs if d[2]]
        for path, move, cats in shown[: args.show]:
            names = "".join(f"({c})" for c in cats) or "UNEXPLAINED"
            where = f"after {' '.join(path)}: " if path else ""
            print(f"    {where}{move} {names}")
        if len(diffs) > args.show:
            print(f"    … {len(diffs) - args.show} more")

    print(f"\n{positions} positions, {agree} agree exactly, {positions - agree} differ")
    for c in sorted(positions_by_category):
        name = c if c == "UNEXPLAINED" else f"({c})"
        print(f"  {name}: {by_category[c]} differing moves in {positions_by_category[c]} positions")
    print("(+ = only shogiops lists the move, - = only Yomi does)")
    sys.exit(1 if unexplained else 0)


if __name__ == "__main__":
    main()
