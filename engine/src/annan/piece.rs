//! Shogi pieces: kinds, colours, movements.

use crate::core::Seat;

/// The eight board directions `(drow, dcol)`, the king's steps. Direction
/// `7 − d` is the opposite of `d`, and the last four run towards higher square
/// indices.
pub const EIGHT_DIRECTIONS: [(i8, i8); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// Piece kinds; the first seven can be held in hand, in SFEN hand order's reverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Kind {
    #[default]
    Pawn = 0,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    Tokin,
    PromotedLance,
    PromotedKnight,
    PromotedSilver,
    Horse,
    Dragon,
}

pub const KINDS: usize = 14;
/// Kinds that can be in hand: pawn … rook, the first seven of `Kind::ALL`.
pub const HAND_KINDS: [Kind; 7] = {
    let mut kinds = [Kind::Pawn; 7];
    let mut i = 0;
    while i < 7 {
        kinds[i] = Kind::ALL[i];
        i += 1;
    }
    kinds
};

impl Kind {
    pub const ALL: [Kind; KINDS] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
        Kind::King,
        Kind::Tokin,
        Kind::PromotedLance,
        Kind::PromotedKnight,
        Kind::PromotedSilver,
        Kind::Horse,
        Kind::Dragon,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    #[inline]
    pub const fn can_promote(self) -> bool {
        matches!(
            self,
            Kind::Pawn | Kind::Lance | Kind::Knight | Kind::Silver | Kind::Bishop | Kind::Rook
        )
    }

    #[inline]
    pub fn promoted(self) -> Kind {
        match self {
            Kind::Pawn => Kind::Tokin,
            Kind::Lance => Kind::PromotedLance,
            Kind::Knight => Kind::PromotedKnight,
            Kind::Silver => Kind::PromotedSilver,
            Kind::Bishop => Kind::Horse,
            Kind::Rook => Kind::Dragon,
            other => other,
        }
    }

    /// The kind a captured piece becomes in hand.
    #[inline]
    pub fn unpromoted(self) -> Kind {
        match self {
            Kind::Tokin => Kind::Pawn,
            Kind::PromotedLance => Kind::Lance,
            Kind::PromotedKnight => Kind::Knight,
            Kind::PromotedSilver => Kind::Silver,
            Kind::Horse => Kind::Bishop,
            Kind::Dragon => Kind::Rook,
            other => other,
        }
    }

    #[inline]
    pub const fn is_promoted(self) -> bool {
        self as u8 >= Kind::Tokin as u8
    }

    /// SFEN letter of the unpromoted kind (upper case).
    pub fn letter(self) -> char {
        ['P', 'L', 'N', 'S', 'G', 'B', 'R', 'K'][self.unpromoted().index()]
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'L' => Kind::Lance,
            'N' => Kind::Knight,
            'S' => Kind::Silver,
            'G' => Kind::Gold,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'K' => Kind::King,
            _ => return None,
        })
    }

    /// Single steps `(drow, dcol)` for black (forward is row − 1).
    pub const fn steps(self) -> &'static [(i8, i8)] {
        const GOLD: &[(i8, i8)] = &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)];
        match self {
            Kind::Pawn => &[(-1, 0)],
            Kind::Lance | Kind::Bishop | Kind::Rook => &[],
            Kind::Knight => &[(-2, -1), (-2, 1)],
            Kind::Silver => &[(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)],
            Kind::Gold
            | Kind::Tokin
            | Kind::PromotedLance
            | Kind::PromotedKnight
            | Kind::PromotedSilver => GOLD,
            Kind::King => &EIGHT_DIRECTIONS,
            Kind::Horse => &[(-1, 0), (0, -1), (0, 1), (1, 0)],
            Kind::Dragon => &[(-1, -1), (-1, 1), (1, -1), (1, 1)],
        }
    }

    /// Sliding directions for black.
    pub const fn slides(self) -> &'static [(i8, i8)] {
        const DIAGONAL: &[(i8, i8)] = &[(-1, -1), (-1, 1), (1, -1), (1, 1)];
        const ORTHOGONAL: &[(i8, i8)] = &[(-1, 0), (0, -1), (0, 1), (1, 0)];
        match self {
            Kind::Lance => &[(-1, 0)],
            Kind::Bishop | Kind::Horse => DIAGONAL,
            Kind::Rook | Kind::Dragon => ORTHOGONAL,
            _ => &[],
        }
    }
}

/// A piece on the board: colour and kind in one byte, 0 = empty square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    pub const NONE: Piece = Piece(0);
    pub const CODES: usize = 32;

    #[inline]
    pub const fn new(color: Seat, kind: Kind) -> Piece {
        Piece(1 + kind as u8 + 16 * color.index() as u8)
    }
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn color(self) -> Seat {
        Seat::new(((self.0 - 1) / 16) as usize)
    }
    #[inline]
    pub fn kind(self) -> Kind {
        Kind::from_index(((self.0 - 1) % 16) as usize)
    }
    /// Below `Piece::CODES`, 0 for no piece: for tables indexed by piece.
    #[inline]
    pub const fn code(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub fn is(self, color: Seat) -> bool {
        self.0 != 0 && self.color() == color
    }
}
