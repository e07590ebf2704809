// Legal moves and perft of Annan Shogi by lishogi's shogiops, for cross-checks.
//   node annan.mjs moves "<sfen>"          one USI move per line, sorted
//   node annan.mjs perft "<sfen>" <depth>  the leaf count
import { parseSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';

const RULES = 'annanshogi';
const canPromote = pieceCanPromote(RULES);
const forcePromote = pieceForcePromote(RULES);

export function legalMoves(pos) {
  const out = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const capture = pos.board.get(to);
      if (canPromote(piece, from, to, capture)) out.push({ from, to, promotion: true });
      if (!forcePromote(piece, to)) out.push({ from, to, promotion: false });
    }
  }
  for (const [name, dests] of pos.allDropDests()) {
    const role = name.split(' ')[1];
    for (const to of dests) out.push({ role, to });
  }
  return out;
}

function perft(pos, depth) {
  if (depth === 0) return 1;
  const moves = legalMoves(pos);
  if (depth === 1) return moves.length;
  let total = 0;
  for (const md of moves) {
    const child = pos.clone();
    child.play(md);
    total += perft(child, depth - 1);
  }
  return total;
}

const [cmd, sfen, depth] = process.argv.slice(2);
const parsed = parseSfen(RULES, sfen, false);
if (parsed.isErr) {
  console.error(`invalid sfen: ${parsed.error.message}`);
  process.exit(2);
}
const pos = parsed.value;
if (cmd === 'moves') {
  console.log(legalMoves(pos).map(makeUsi).sort().join('\n'));
} else if (cmd === 'perft') {
  console.log(perft(pos, Number(depth)));
} else {
  console.error('usage: node annan.mjs moves|perft <sfen> [depth]');
  process.exit(2);
}
