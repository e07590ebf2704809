//! Slides and captures on bitboards.
//!
//! A slide along a row is looked up from that row's nine occupancy bits; a slide
//! along a column from the column's nine bits of a transposed occupancy that the
//! position keeps alongside the row-major one.

use crate::core::board9::{Bitboard, Square};
use crate::core::MoveList;

/// A board move, from → to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HasamiMove {
    pub from: Square,
    pub to: Square,
}

/// `SLIDES[i][occ]`: the cells of a nine-cell line reachable from cell `i` when
/// `occ` marks the occupied cells (cell `i` itself ignored).
static SLIDES: [[u16; 512]; 9] = slide_table();

const fn slide_table() -> [[u16; 512]; 9] {
    let mut table = [[0u16; 512]; 9];
    let mut i = 0;
    while i < 9 {
        let mut occ = 0;
        while occ < 512 {
            let mut reach = 0u16;
            let mut j = i + 1;
            while j < 9 && occ >> j & 1 == 0 {
                reach |= 1 << j;
                j += 1;
            }
            let mut j = i as i32 - 1;
            while j >= 0 && occ >> j & 1 == 0 {
                reach |= 1 << j;
                j -= 1;
            }
            table[i][occ] = reach;
            occ += 1;
        }
        i += 1;
    }
    table
}

/// `COLUMN_SPREAD[bits]`: nine line bits placed on column 0 of a board (row r → bit 9r).
static COLUMN_SPREAD: [u128; 512] = column_spread();

const fn column_spread() -> [u128; 512] {
    let mut table = [0u128; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut r = 0;
        while r < 9 {
            if bits >> r & 1 != 0 {
                table[bits] |= 1u128 << (9 * r);
            }
            r += 1;
        }
        bits += 1;
    }
    table
}

/// `TRANSPOSED_BIT[sq]`: the square's bit in the transposed (column-major) occupancy.
static TRANSPOSED_BIT: [u128; 81] = transposed_bits();

const fn transposed_bits() -> [u128; 81] {
    let mut table = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        table[sq] = 1 << ((sq % 9) * 9 + sq / 9);
        sq += 1;
    }
    table
}

/// The square's bit in the transposed (column-major) occupancy.
#[inline]
pub fn transposed_bit(sq: Square) -> u128 {
    TRANSPOSED_BIT[sq.index()]
}

#[inline]
fn line_bits(board: u128, line: u8) -> usize {
    (board >> (line as u32 * 9)) as usize & 0x1FF
}

/// Squares a stone on `sq` can slide to.
#[inline]
pub fn slides(sq: Square, occ: Bitboard, occ_t: u128) -> Bitboard {
    let (row, col) = (sq.row(), sq.col());
    let along_row = (SLIDES[col as usize][line_bits(occ.0, row)] as u128) << (row as u32 * 9);
    let along_col = COLUMN_SPREAD[SLIDES[row as usize][line_bits(occ_t, col)] as usize] << col;
    Bitboard(along_row | along_col)
}

/// Pushes every slide of the stone on `from`, destinations in square order
/// (the column above, the row, the column below), walking nine-bit lines instead
/// of the whole board.
#[inline]
pub fn push_slides(from: Square, occ: Bitboard, occ_t: u128, moves: &mut MoveList<HasamiMove>) {
    let (row, col) = (from.row(), from.col());
    let along_row = SLIDES[col as usize][line_bits(occ.0, row)] as u32;
    let along_col = SLIDES[row as usize][line_bits(occ_t, col)] as u32;
    let above = along_col & ((1 << row) - 1);
    let push_line = |moves: &mut MoveList<HasamiMove>, mut bits: u32, base: u8, step: u8| {
        while bits != 0 {
            let to = Square(base + step * bits.trailing_zeros() as u8);
            moves.push(HasamiMove { from, to });
            bits &= bits - 1;
        }
    };
    push_line(moves, above, col, 9);
    push_line(moves, along_row, row * 9, 1);
    push_line(moves, along_col ^ above, col, 9);
}

/// How many squares a stone on `sq` can slide to.
#[inline]
pub fn slide_count(sq: Square, occ: Bitboard, occ_t: u128) -> u32 {
    let (row, col) = (sq.row(), sq.col());
    SLIDES[col as usize][line_bits(occ.0, row)].count_ones()
        + SLIDES[row as usize][line_bits(occ_t, col)].count_ones()
}

/// `TERNARY[bits]`: nine line bits read as a base-3 number, digit 1 per set bit.
static TERNARY: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut bits = 0;
    while bits < 512 {
        let (mut value, mut power, mut i) = (0, 1, 0);
        while i < 9 {
            if bits >> i & 1 != 0 {
                value += power;
            }
            power *= 3;
            i += 1;
        }
        table[bits] = value;
        bits += 1;
    }
    table
};

/// Line patterns: 3^9, one base-3 digit a cell (0 empty, 1 own, 2 opponent).
const LINE_PATTERNS: usize = 19_683;

/// `LINE_BALANCE[pattern]`: in one line of nine, the slides along the line of the
/// own stones minus those of the opponent's.
static LINE_BALANCE: [i8; LINE_PATTERNS] = line_balance_table();

const fn line_balance_table() -> [i8; LINE_PATTERNS] {
    let mut table = [0i8; LINE_PATTERNS];
    let mut pattern = 0;
    while pattern < LINE_PATTERNS {
        let mut cells = [0u8; 9];
        let (mut rest, mut i) = (pattern, 0);
        while i < 9 {
            cells[i] = (rest % 3) as u8;
            rest /= 3;
            i += 1;
        }
        let mut balance = 0i32;
        let mut i = 0;
        while i < 9 {
            if cells[i] != 0 {
                let mut reach = 0;
                let mut j = i + 1;
                while j < 9 && cells[j] == 0 {
                    reach += 1;
                    j += 1;
                }
                let mut j = i;
                while j > 0 && cells[j - 1] == 0 {
                    reach += 1;
                    j -= 1;
                }
                balance += if cells[i] == 1 { reach } else { -reach };
            }
            i += 1;
        }
        table[pattern] = balance as i8;
        pattern += 1;
    }
    table
}

/// Own slides minus opponent slides along one line, from the line's own and
/// opponent bits.
#[inline]
fn line_balance(own: usize, opp: usize) -> i32 {
    LINE_BALANCE[TERNARY[own] as usize + 2 * TERNARY[opp] as usize] as i32
}

/// Mobility of `own` minus that of `opp` (moves each would have), from the
/// row-major boards and the transposed ones, a table look-up per line.
#[inline]
pub fn mobility_balance(own: Bitboard, opp: Bitboard, own_t: u128, opp_t: u128) -> i32 {
    let mut balance = 0;
    for line in 0..9 {
        balance += line_balance(line_bits(own.0, line), line_bits(opp.0, line));
        balance += line_balance(line_bits(own_t, line), line_bits(opp_t, line));
    }
    balance
}

/// The squares of one column (0 = file 9, 8 = file 1).
const fn column(col: u32) -> u128 {
    let mut mask = 0;
    let mut row = 0;
    while row < 9 {
        mask |= 1u128 << (row * 9 + col);
        row += 1;
    }
    mask
}
const COLUMN_0: u128 = column(0);
const COLUMN_8: u128 = column(8);

/// For a square next to a corner: that corner and the corner's other neighbour.
static CORNER_NEIGHBOURS: [Option<(Square, Square)>; 81] = corner_neighbours();

/// Each corner with its two neighbours.
const CORNERS: [(u8, u8, u8); 4] = [(0, 1, 9), (8, 7, 17), (72, 73, 63), (80, 79, 71)];

const fn corner_neighbours() -> [Option<(Square, Square)>; 81] {
    let mut table = [None; 81];
    let mut i = 0;
    while i < 4 {
        let (corner, a, b) = CORNERS[i];
        table[a as usize] = Some((Square(corner), Square(b)));
        table[b as usize] = Some((Square(corner), Square(a)));
        i += 1;
    }
    table
}

/// `RAYS[d][sq]`: the squares beyond `sq` in one direction, to the edge. Directions
/// 0 and 1 go toward higher indices (along the row, down the column), 2 and 3
/// toward lower ones.
static RAYS: [[u128; 81]; 4] = RAY_TABLE;
const RAY_TABLE: [[u128; 81]; 4] = rays();

const fn rays() -> [[u128; 81]; 4] {
    let steps: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut table = [[0u128; 81]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 81 {
            let (mut row, mut col) = (sq as i32 / 9 + steps[d].0, sq as i32 % 9 + steps[d].1);
            while row >= 0 && row < 9 && col >= 0 && col < 9 {
                table[d][sq] |= 1 << (row * 9 + col);
                row += steps[d].0;
                col += steps[d].1;
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

/// `NEIGHBOURS[sq]`: the squares orthogonally next to `sq` (each ray's nearest).
static NEIGHBOURS: [u128; 81] = {
    let mut table = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut d = 0;
        while d < 4 {
            let ray = RAY_TABLE[d][sq];
            if ray != 0 {
                table[sq] |= if d < 2 {
                    ray & ray.wrapping_neg()
                } else {
                    1 << (127 - ray.leading_zeros())
                };
            }
            d += 1;
        }
        sq += 1;
    }
    table
};

/// The opponent stones taken along a ray toward higher indices: the run of
/// opponent stones next to the arriving stone, when an own stone closes it.
#[inline]
fn run_captured_upward(ray: u128, own: u128, opp: u128) -> u128 {
    let beyond = ray & !opp;
    let closer = beyond & beyond.wrapping_neg();
    let run = ray & closer.wrapping_sub(1);
    if closer & own != 0 {
        run
    } else {
        0
    }
}

/// As [`run_captured_upward`], along a ray toward lower indices.
#[inline]
fn run_captured_downward(ray: u128, own: u128, opp: u128) -> u128 {
    let beyond = ray & !opp;
    if beyond == 0 {
        return 0;
    }
    let closer = 1u128 << (127 - beyond.leading_zeros());
    if closer & own != 0 {
        ray & !(closer | (closer - 1))
    } else {
        0
    }
}

/// The opponent stones captured by a stone arriving on `to`, with `own` and `opp`
/// the stones as they stand around it. The square the stone came from cannot
/// matter: it lies on a line through `to` with only empty squares between, so it
/// never closes a run of opponent stones next to `to`, nor is it a corner's
/// other neighbour (that one is diagonal to `to`).
#[inline]
pub fn captures(to: Square, own: Bitboard, opp: Bitboard) -> Bitboard {
    let i = to.index();
    let (own, opp) = (own.0, opp.0);
    if NEIGHBOURS[i] & opp == 0 {
        return Bitboard::EMPTY;
    }
    let mut taken = run_captured_upward(RAYS[0][i], own, opp)
        | run_captured_upward(RAYS[1][i], own, opp)
        | run_captured_downward(RAYS[2][i], own, opp)
        | run_captured_downward(RAYS[3][i], own, opp);
    if let Some((corner, other)) = CORNER_NEIGHBOURS[i] {
        if opp >> corner.0 & 1 != 0 && own >> other.0 & 1 != 0 {
            taken |= 1 << corner.0;
        }
    }
    Bitboard(taken)
}

/// The empty squares where a stone of `own` arriving would capture, all at once:
/// per direction, the runs of `opp` stones closed by an own stone are filled back
/// from the closing stone (Kogge-Stone, doubling steps), and the square before
/// each run is a target. Plus the corner captures.
pub fn capture_targets(own: Bitboard, opp: Bitboard) -> Bitboard {
    let (own, opp) = (own.0, opp.0);
    let empty = !(own | opp) & Bitboard::FULL.0;
    let mut targets = 0;

    // Runs closed toward higher indices: each square pulls its neighbour's bit.
    let pull_right = |b: u128, k: u32| b >> k;
    let row_pro = opp & !COLUMN_8;
    let mut closed = row_pro & pull_right(own, 1);
    let mut pro = row_pro;
    closed |= pro & pull_right(closed, 1);
    pro &= pull_right(pro, 1);
    closed |= pro & pull_right(closed, 2);
    pro &= pull_right(pro, 2);
    closed |= pro & pull_right(closed, 4);
    targets |= empty & !COLUMN_8 & pull_right(closed, 1);

    let row_pro = opp & !COLUMN_0;
    let mut closed = row_pro & own << 1;
    let mut pro = row_pro;
    closed |= pro & closed << 1;
    pro &= pro << 1;
    closed |= pro & closed << 2;
    pro &= pro << 2;
    closed |= pro & closed << 4;
    targets |= empty & !COLUMN_0 & closed << 1;

    let mut closed = opp & own >> 9;
    let mut pro = opp;
    closed |= pro & closed >> 9;
    pro &= pro >> 9;
    closed |= pro & closed >> 18;
    pro &= pro >> 18;
    closed |= pro & closed >> 36;
    targets |= empty & closed >> 9;

    let mut closed = opp & own << 9;
    let mut pro = opp;
    closed |= pro & closed << 9;
    pro &= pro << 9;
    closed |= pro & closed << 18;
    pro &= pro << 18;
    closed |= pro & closed << 36;
    targets |= empty & closed << 9;

    for (corner, a, b) in CORNERS {
        if opp >> corner & 1 != 0 {
            targets |= (own >> b & 1) << a | (own >> a & 1) << b;
        }
    }
    Bitboard(targets & empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_targets_do_not_wrap_around_rows() {
        let of = |names: &[&str]| {
            names
                .iter()
                .map(|n| Square::parse(n).unwrap().bit())
                .fold(Bitboard::EMPTY, |a, b| a | b)
        };
        // Opponent on 1a (column 8), own on 9b (column 0 of the next row): no
        // run across the row end, so 2a is no target; 1a lies against the edge.
        assert_eq!(capture_targets(of(&["9b"]), of(&["1a"])), Bitboard::EMPTY);
        assert_eq!(capture_targets(of(&["1a"]), of(&["9b"])), Bitboard::EMPTY);
        // A run of two on row e closed by own 3e: 6e is the target.
        assert_eq!(capture_targets(of(&["3e"]), of(&["5e", "4e"])), of(&["6e"]));
        // Column: opponent on 5b, own on 5a: arriving on 5c captures.
        assert_eq!(capture_targets(of(&["5a"]), of(&["5b"])), of(&["5c"]));
        // Corner 9a taken from 8a when own is on 9b.
        assert_eq!(capture_targets(of(&["9b"]), of(&["9a"])), of(&["8a"]));
    }

    /// Captures along row 0 only, as nine bits: both rays of cell `i`.
    fn line_captures(i: usize, own: u128, opp: u128) -> u128 {
        run_captured_upward(RAYS[0][i], own, opp) | run_captured_downward(RAYS[2][i], own, opp)
    }

    #[test]
    fn line_captures_need_an_own_stone_beyond_the_run() {
        // Cell 4 arrives; opponents on 5, 6 closed by own 7; on 3 but open at 2.
        assert_eq!(line_captures(4, 0b1001_0000, 0b0110_1000), 0b0110_0000);
        // Leftward run 1..=3 closed by own 0.
        assert_eq!(line_captures(4, 0b0000_0001, 0b0000_1110), 0b0000_1110);
        // A run reaching the edge is not closed.
        assert_eq!(line_captures(2, 0, 0b11), 0);
        assert_eq!(line_captures(6, 0, 0b1_1000_0000), 0);
        // An own stone right next to the arriving one closes nothing.
        assert_eq!(line_captures(4, 0b0010_1000, 0), 0);
    }

    #[test]
    fn rays_and_neighbours_stop_at_the_edges() {
        let of = |names: &[&str]| {
            names
                .iter()
                .map(|n| Square::parse(n).unwrap().bit().0)
                .fold(0, |a, b| a | b)
        };
        let e5 = Square::parse("5e").unwrap().index();
        assert_eq!(NEIGHBOURS[e5], of(&["5d", "5f", "4e", "6e"]));
        assert_eq!(NEIGHBOURS[0], of(&["8a", "9b"]));
        // Toward higher indices along row a from 2a: only 1a.
        assert_eq!(RAYS[0][Square::parse("2a").unwrap().index()], of(&["1a"]));
        assert_eq!(
            RAYS[3][Square::parse("1c").unwrap().index()],
            of(&["1a", "1b"])
        );
    }

    #[test]
    fn slide_table_stops_before_blockers() {
        // Cell 4 with blockers on 1 and 7 reaches 2, 3, 5, 6.
        assert_eq!(SLIDES[4][0b010_000_010], 0b001_101_100);
        // An empty line from an end reaches the other eight cells.
        assert_eq!(SLIDES[0][0].count_ones(), 8);
    }
}
