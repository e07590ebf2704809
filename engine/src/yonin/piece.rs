//! Pieces with an owner and a facing, and the attack tables per facing.

use crate::core::board9::{Bitboard, Square};
use crate::core::{PerSeat, Seat};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    King,
    Rook,
    Gold,
    Silver,
    Pawn,
    Dragon,
    ProSilver,
    Tokin,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::King,
        Kind::Rook,
        Kind::Gold,
        Kind::Silver,
        Kind::Pawn,
        Kind::Dragon,
        Kind::ProSilver,
        Kind::Tokin,
    ];
    /// The kinds a hand holds, in the order hands are written.
    pub const HAND: [Kind; 4] = [Kind::Rook, Kind::Gold, Kind::Silver, Kind::Pawn];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    #[inline]
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }
    /// Index into a hand (rook, gold, silver, pawn) of an unpromoted non-king kind.
    #[inline]
    pub const fn hand_index(self) -> usize {
        self as usize - 1
    }
    #[inline]
    pub const fn can_promote(self) -> bool {
        matches!(self, Kind::Rook | Kind::Silver | Kind::Pawn)
    }
    #[inline]
    pub const fn is_promoted(self) -> bool {
        matches!(self, Kind::Dragon | Kind::ProSilver | Kind::Tokin)
    }
    #[inline]
    pub const fn promoted(self) -> Kind {
        match self {
            Kind::Rook => Kind::Dragon,
            Kind::Silver => Kind::ProSilver,
            Kind::Pawn => Kind::Tokin,
            other => other,
        }
    }
    #[inline]
    pub const fn unpromoted(self) -> Kind {
        match self {
            Kind::Dragon => Kind::Rook,
            Kind::ProSilver => Kind::Silver,
            Kind::Tokin => Kind::Pawn,
            other => other,
        }
    }
    /// The letter of the unpromoted kind (`K R G S P`).
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            Kind::King => 'K',
            Kind::Rook => 'R',
            Kind::Gold => 'G',
            Kind::Silver => 'S',
            _ => 'P',
        }
    }
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c {
            'K' => Kind::King,
            'R' => Kind::Rook,
            'G' => Kind::Gold,
            'S' => Kind::Silver,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }
}

/// A piece: kind, owner and facing (the seat whose direction it advances in).
/// Code 0 is the empty square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    pub const NONE: Piece = Piece(0);
    /// Codes are below this (for key tables).
    pub const CODES: usize = 128;

    #[inline]
    pub const fn new(kind: Kind, owner: Seat, facing: Seat) -> Piece {
        Piece(0x80 | (kind as u8) << 4 | (owner.index() as u8) << 2 | facing.index() as u8)
    }
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn kind(self) -> Kind {
        Kind::from_index((self.0 >> 4 & 7) as usize)
    }
    #[inline]
    pub const fn owner(self) -> Seat {
        Seat::new((self.0 >> 2 & 3) as usize)
    }
    #[inline]
    pub const fn facing(self) -> Seat {
        Seat::new((self.0 & 3) as usize)
    }
    #[inline]
    pub const fn code(self) -> usize {
        (self.0 & 0x7F) as usize
    }
    #[inline]
    pub const fn with_owner(self, owner: Seat) -> Piece {
        Piece::new(self.kind(), owner, self.facing())
    }
    #[inline]
    pub const fn with_kind(self, kind: Kind) -> Piece {
        Piece::new(kind, self.owner(), self.facing())
    }
}

/// The step "forward" of each facing as (row, column) deltas: seat 0 advances
/// toward rank a, seat 1 toward file 1, seat 2 toward rank i, seat 3 toward file 9.
pub const FORWARD: [(i8, i8); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

const fn build_steps(pattern: &[(i8, i8)]) -> [[Bitboard; 81]; 4] {
    let mut table = [[Bitboard(0); 81]; 4];
    let mut f = 0;
    while f < 4 {
        let (fr, fc) = FORWARD[f];
        // Perpendicular to forward; every pattern is left-right symmetric.
        let (lr, lc) = (fc, -fr);
        let mut sq = 0;
        while sq < 81 {
            let (row, col) = ((sq / 9) as i8, (sq % 9) as i8);
            let mut bits = 0u128;
            let mut i = 0;
            while i < pattern.len() {
                let (a, b) = pattern[i];
                let r = row + a * fr + b * lr;
                let c = col + a * fc + b * lc;
                if r >= 0 && r < 9 && c >= 0 && c < 9 {
                    bits |= 1u128 << (r * 9 + c) as u32;
                }
                i += 1;
            }
            table[f][sq] = Bitboard(bits);
            sq += 1;
        }
        f += 1;
    }
    table
}

/// Steps in (forward, sideways) of the own facing.
const GOLD: [(i8, i8); 6] = [(1, 0), (1, 1), (1, -1), (0, 1), (0, -1), (-1, 0)];
const SILVER: [(i8, i8); 5] = [(1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)];
const PAWN: [(i8, i8); 1] = [(1, 0)];
const KING: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (1, -1),
    (0, 1),
    (0, -1),
    (-1, 0),
    (-1, 1),
    (-1, -1),
];

/// Every square within two steps (a 5×5 block): the pieces that can step next
/// to a king stand there.
const NEAR_BLOCK: [(i8, i8); 25] = {
    let mut block = [(0, 0); 25];
    let mut i = 0;
    while i < 25 {
        block[i] = ((i / 5) as i8 - 2, (i % 5) as i8 - 2);
        i += 1;
    }
    block
};

pub static NEAR: [Bitboard; 81] = build_steps(&NEAR_BLOCK)[0];

/// The three ranks and three files through a square and its neighbours: a
/// rook elsewhere attacks nothing next to a king standing there.
pub static CROSS: [Bitboard; 81] = {
    let mut table = [Bitboard(0); 81];
    let mut sq = 0usize;
    while sq < 81 {
        let (row, col) = ((sq / 9) as i32, (sq % 9) as i32);
        let mut bits = 0u128;
        let mut other = 0usize;
        while other < 81 {
            let (r, c) = ((other / 9) as i32, (other % 9) as i32);
            if (r - row).abs() <= 1 || (c - col).abs() <= 1 {
                bits |= 1u128 << other;
            }
            other += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
};
pub static GOLD_STEPS: [[Bitboard; 81]; 4] = build_steps(&GOLD);
pub static SILVER_STEPS: [[Bitboard; 81]; 4] = build_steps(&SILVER);
pub static PAWN_STEPS: [[Bitboard; 81]; 4] = build_steps(&PAWN);
pub static KING_STEPS: [Bitboard; 81] = build_steps(&KING)[0];

const fn region(f: usize, from_far: u8, rows: u8) -> Bitboard {
    let mut bits = 0u128;
    let mut sq = 0u8;
    while sq < 81 {
        let (row, col) = (sq / 9, sq % 9);
        // Distance from the far edge in the direction of facing `f`.
        let depth = match f {
            0 => row,
            1 => 8 - col,
            2 => 8 - row,
            _ => col,
        };
        if depth >= from_far && depth < from_far + rows {
            bits |= 1u128 << sq;
        }
        sq += 1;
    }
    Bitboard(bits)
}

/// The three farthest rows in each facing's direction.
pub static ZONE: PerSeat<Bitboard> = PerSeat::new([
    region(0, 0, 3),
    region(1, 0, 3),
    region(2, 0, 3),
    region(3, 0, 3),
]);
/// The farthest row in each facing's direction.
pub static LAST_ROW: PerSeat<Bitboard> = PerSeat::new([
    region(0, 0, 1),
    region(1, 0, 1),
    region(2, 0, 1),
    region(3, 0, 1),
]);

/// Rays per direction (toward rank a, rank i, file 9, file 1), excluding the
/// origin. The first two and the last two differ in index order.
const fn build_rays() -> [[Bitboard; 81]; 4] {
    let mut rays = [[Bitboard(0); 81]; 4];
    let deltas: [(i8, i8); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 81 {
            let (mut r, mut c) = ((sq / 9) as i8, (sq % 9) as i8);
            let mut bits = 0u128;
            loop {
                r += deltas[d].0;
                c += deltas[d].1;
                if r < 0 || r >= 9 || c < 0 || c >= 9 {
                    break;
                }
                bits |= 1u128 << (r * 9 + c) as u32;
            }
            rays[d][sq] = Bitboard(bits);
            sq += 1;
        }
        d += 1;
    }
    rays
}

static RAYS: [[Bitboard; 81]; 4] = build_rays();
/// Whether a direction of [`RAYS`] runs toward higher square indices.
const INCREASING: [bool; 4] = [false, true, false, true];

/// The squares a rook on `sq` attacks with the given occupancy.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let mut attacks = 0u128;
    for d in 0..4 {
        let ray = RAYS[d][sq.index()].0;
        let blockers = ray & occupied.0;
        if blockers == 0 {
            attacks |= ray;
        } else {
            let first = if INCREASING[d] {
                blockers.trailing_zeros()
            } else {
                127 - blockers.leading_zeros()
            };
            attacks |= ray ^ RAYS[d][first as usize].0;
        }
    }
    Bitboard(attacks)
}

/// The squares strictly between `a` and `b` on their rank or file (none if
/// they share neither).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    let direction = match (a.row().cmp(&b.row()), a.col().cmp(&b.col())) {
        (std::cmp::Ordering::Greater, std::cmp::Ordering::Equal) => 0,
        (std::cmp::Ordering::Less, std::cmp::Ordering::Equal) => 1,
        (std::cmp::Ordering::Equal, std::cmp::Ordering::Greater) => 2,
        (std::cmp::Ordering::Equal, std::cmp::Ordering::Less) => 3,
        _ => return Bitboard::EMPTY,
    };
    Bitboard(RAYS[direction][a.index()].0 ^ RAYS[direction][b.index()].0 ^ b.bit().0)
}

/// The squares `piece` on `sq` attacks.
#[inline(always)]
pub fn piece_attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    let f = piece.facing().index();
    let i = sq.index();
    match piece.kind() {
        Kind::King => KING_STEPS[i],
        Kind::Gold | Kind::ProSilver | Kind::Tokin => GOLD_STEPS[f][i],
        Kind::Silver => SILVER_STEPS[f][i],
        Kind::Pawn => PAWN_STEPS[f][i],
        Kind::Rook => rook_attacks(sq, occupied),
        Kind::Dragon => rook_attacks(sq, occupied) | KING_STEPS[i],
    }
}

const COLUMN_0: u128 = {
    let mut bits = 0u128;
    let mut row = 0;
    while row < 9 {
        bits |= 1u128 << (row * 9);
        row += 1;
    }
    bits
};

/// The line a pawn's two-pawn rule looks along: the file for seats 0 and 2,
/// the rank for seats 1 and 3.
#[inline]
pub fn pawn_line(facing: Seat, sq: Square) -> Bitboard {
    if facing.index() & 1 == 0 {
        Bitboard(COLUMN_0 << sq.col())
    } else {
        Bitboard(0x1FFu128 << (sq.row() as u32 * 9))
    }
}
