//! Attack tables, built at compile time: step targets per colour, kind and
//! square, sliding rays, and the squares where a kind could never move again.

use super::piece::{Kind, EIGHT_DIRECTIONS, KINDS};
use crate::core::board9::{Bitboard, Square, SQUARES};
use crate::core::Seat;

const DIRS: [(i8, i8); 8] = EIGHT_DIRECTIONS;

const fn offset(sq: usize, dr: i8, dc: i8) -> Option<usize> {
    let row = (sq / 9) as i8 + dr;
    let col = (sq % 9) as i8 + dc;
    if row >= 0 && row < 9 && col >= 0 && col < 9 {
        Some(row as usize * 9 + col as usize)
    } else {
        None
    }
}

/// Black moves up the board (row − 1); white's steps are black's turned round.
const fn sign(color: usize) -> i8 {
    if color == 0 {
        1
    } else {
        -1
    }
}

const fn direction_index(dr: i8, dc: i8) -> usize {
    let mut d = 0;
    while DIRS[d].0 != dr || DIRS[d].1 != dc {
        d += 1;
    }
    d
}

const fn build_steps() -> [[[Bitboard; SQUARES]; KINDS]; 2] {
    let mut table = [[[Bitboard::EMPTY; SQUARES]; KINDS]; 2];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < KINDS {
            let steps = Kind::ALL[kind].steps();
            let mut sq = 0;
            while sq < SQUARES {
                let mut bits = 0u128;
                let mut i = 0;
                while i < steps.len() {
                    let s = sign(color);
                    if let Some(to) = offset(sq, steps[i].0 * s, steps[i].1 * s) {
                        bits |= 1 << to;
                    }
                    i += 1;
                }
                table[color][kind][sq] = Bitboard(bits);
                sq += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    table
}

const fn build_slides() -> [[u8; KINDS]; 2] {
    let mut table = [[0; KINDS]; 2];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < KINDS {
            let slides = Kind::ALL[kind].slides();
            let mut i = 0;
            while i < slides.len() {
                let s = sign(color);
                table[color][kind] |= 1 << direction_index(slides[i].0 * s, slides[i].1 * s);
                i += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    table
}

const fn build_rays() -> [[Bitboard; SQUARES]; 8] {
    let mut table = [[Bitboard::EMPTY; SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < SQUARES {
            let mut bits = 0u128;
            let mut at = sq;
            while let Some(next) = offset(at, DIRS[d].0, DIRS[d].1) {
                bits |= 1 << next;
                at = next;
            }
            table[d][sq] = Bitboard(bits);
            sq += 1;
        }
        d += 1;
    }
    table
}

/// Per colour and kind, the squares from which that movement reaches no square.
const fn build_no_destination() -> [[Bitboard; KINDS]; 2] {
    let mut table = [[Bitboard::EMPTY; KINDS]; 2];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < KINDS {
            let mut sq = 0;
            while sq < SQUARES {
                let mut reach = STEPS[color][kind][sq].0;
                let mut d = 0;
                while d < 8 {
                    if SLIDES[color][kind] >> d & 1 != 0 {
                        reach |= RAYS[d][sq].0;
                    }
                    d += 1;
                }
                if reach == 0 {
                    table[color][kind].0 |= 1 << sq;
                }
                sq += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    table
}

const fn build_lines() -> [Bitboard; SQUARES] {
    let mut table = [Bitboard::EMPTY; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 8 {
            table[sq].0 |= RAYS[d][sq].0;
            d += 1;
        }
        sq += 1;
    }
    table
}

static STEPS: [[[Bitboard; SQUARES]; KINDS]; 2] = build_steps();
/// Per colour and kind, the directions (bits of `DIRS`) it slides in.
static SLIDES: [[u8; KINDS]; 2] = build_slides();
static RAYS: [[Bitboard; SQUARES]; 8] = build_rays();
static NO_DESTINATION: [[Bitboard; KINDS]; 2] = build_no_destination();
/// The squares sharing a rank, file or diagonal with each square.
static LINES: [Bitboard; SQUARES] = build_lines();

/// The first square of `blockers` seen from the start of a ray in direction `d`.
#[inline]
fn first_blocker(d: usize, blockers: Bitboard) -> Option<Square> {
    if blockers.is_empty() {
        None
    } else if d >= 4 {
        Some(Square(blockers.0.trailing_zeros() as u8))
    } else {
        Some(Square(127 - blockers.0.leading_zeros() as u8))
    }
}

/// The squares a piece moving as `kind` for `color` on `sq` attacks.
#[inline]
pub fn attacks(color: Seat, kind: Kind, sq: Square, occupied: Bitboard) -> Bitboard {
    let mut targets = STEPS[color.index()][kind.index()][sq.index()];
    let mut dirs = SLIDES[color.index()][kind.index()];
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let ray = RAYS[d][sq.index()];
        targets |= match first_blocker(d, ray & occupied) {
            Some(blocker) => ray ^ RAYS[d][blocker.index()],
            None => ray,
        };
    }
    targets
}

/// Whether a piece moving as `kind` for `color` on `from` steps (not slides) to `to`.
#[inline]
pub fn steps_to(color: Seat, kind: Kind, from: Square, to: Square) -> bool {
    STEPS[color.index()][kind.index()][from.index()].has(to)
}

/// The squares from which a step of `color` can reach `sq`: a king's step or a
/// knight's jump away.
#[inline]
pub fn step_sources(color: Seat, sq: Square) -> Bitboard {
    let other = color.other().index();
    STEPS[other][Kind::King.index()][sq.index()] | STEPS[other][Kind::Knight.index()][sq.index()]
}

/// The first occupied square beyond `from` in direction `d`.
#[inline]
pub fn next_on_ray(d: usize, from: Square, occupied: Bitboard) -> Option<Square> {
    first_blocker(d, RAYS[d][from.index()] & occupied)
}

/// Whether a piece moving as `kind` for `color` slides towards direction `d`'s
/// start, that is in direction `7 − d`.
#[inline]
pub fn slides_back_along(color: Seat, kind: Kind, d: usize) -> bool {
    SLIDES[color.index()][kind.index()] >> (7 - d) & 1 != 0
}

/// The squares where a piece moving as `kind` for `color` has no destination.
#[inline]
pub fn no_destination(color: Seat, kind: Kind) -> Bitboard {
    NO_DESTINATION[color.index()][kind.index()]
}

/// The squares strictly between `a` and `b` on a rank, file or diagonal;
/// none when they share no line.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    (0..8)
        .find(|&d| RAYS[d][a.index()].has(b))
        .map_or(Bitboard::EMPTY, |d| {
            RAYS[d][a.index()] & !RAYS[d][b.index()] & !b.bit()
        })
}

/// The squares sharing a rank, file or diagonal with `sq`.
#[inline]
pub fn lines(sq: Square) -> Bitboard {
    LINES[sq.index()]
}

/// The squares a knight's jump away from `sq`, in either direction.
#[inline]
pub fn knight_apart(sq: Square) -> Bitboard {
    STEPS[0][Kind::Knight.index()][sq.index()] | STEPS[1][Kind::Knight.index()][sq.index()]
}

/// `color`'s promotion zone, the farthest three ranks.
#[inline]
pub const fn zone(color: Seat) -> Bitboard {
    const TOP: u128 = (1 << 27) - 1;
    if color.index() == 0 {
        Bitboard(TOP)
    } else {
        Bitboard(TOP << 54)
    }
}

/// `color`'s farthest two ranks, the only ones where a piece can be dead.
#[inline]
pub const fn last_two_ranks(color: Seat) -> Bitboard {
    const TOP: u128 = (1 << 18) - 1;
    if color.index() == 0 {
        Bitboard(TOP)
    } else {
        Bitboard(TOP << 63)
    }
}

/// Every square of `squares` moved one rank forward for `color`.
#[inline]
pub const fn ahead(squares: Bitboard, color: Seat) -> Bitboard {
    if color.index() == 0 {
        Bitboard(squares.0 >> 9)
    } else {
        Bitboard(squares.0 << 9 & Bitboard::FULL.0)
    }
}

/// Every square of `squares` moved one rank back for `color`.
#[inline]
pub const fn behind(squares: Bitboard, color: Seat) -> Bitboard {
    ahead(squares, color.other())
}

/// One bit per rank in column 0: a file's squares when shifted by the column.
const EVERY_ROW: u128 = {
    let mut bits = 0;
    let mut row = 0;
    while row < 9 {
        bits |= 1 << (9 * row);
        row += 1;
    }
    bits
};

/// The whole files on which `squares` has a square.
#[inline]
pub fn files_of(squares: Bitboard) -> Bitboard {
    let columns = (0..9).fold(0, |columns, row| columns | squares.row_bits(row));
    Bitboard(columns as u128 * EVERY_ROW)
}

/// The file of `sq`.
#[inline]
pub const fn file(sq: Square) -> Bitboard {
    Bitboard(EVERY_ROW << sq.col())
}
