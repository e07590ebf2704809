//! Dice: the rolls a chance node offers and the dice a position still has to play.

/// A roll of two dice, the higher first (`52`, `55`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Roll {
    pub hi: u8,
    pub lo: u8,
}

impl Roll {
    pub const fn new(a: u8, b: u8) -> Self {
        if a >= b {
            Roll { hi: a, lo: b }
        } else {
            Roll { hi: b, lo: a }
        }
    }

    pub const fn is_double(self) -> bool {
        self.hi == self.lo
    }
}

impl std::fmt::Display for Roll {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.hi, self.lo)
    }
}

const fn roll_table() -> [(Roll, u32); 21] {
    let mut table = [(Roll { hi: 0, lo: 0 }, 0); 21];
    let mut i = 0;
    let mut hi = 1;
    while hi <= 6 {
        let mut lo = 1;
        while lo <= hi {
            table[i] = (Roll { hi, lo }, if hi == lo { 1 } else { 2 });
            i += 1;
            lo += 1;
        }
        hi += 1;
    }
    table
}

/// The 21 distinct rolls with their weights out of 36 (doubles 1, others 2), in
/// the fixed order 11, 21, 22, 31, 32, 33, …, 66.
pub const ROLLS: [(Roll, u32); 21] = roll_table();

/// The dice a position still has to play: none (waiting for the roll), one die
/// (what is left of a roll, or the second move of a double), or a whole roll.
/// A double is two moves of its number, not four.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dice {
    /// The higher die; 0 when there is nothing to play.
    hi: u8,
    /// The lower die; 0 when at most one die is left.
    lo: u8,
}

impl Dice {
    pub const NONE: Dice = Dice { hi: 0, lo: 0 };

    pub const fn one(die: u8) -> Self {
        Dice { hi: die, lo: 0 }
    }

    pub const fn roll(roll: Roll) -> Self {
        Dice {
            hi: roll.hi,
            lo: roll.lo,
        }
    }

    /// Dice from their digits in either order: `[5, 2]`, `[5]`, `[]`.
    pub fn from_digits(digits: &[u8]) -> Option<Self> {
        let valid = |d: u8| (1..=6).contains(&d);
        match *digits {
            [] => Some(Dice::NONE),
            [d] if valid(d) => Some(Dice::one(d)),
            [a, b] if valid(a) && valid(b) => Some(Dice::roll(Roll::new(a, b))),
            _ => None,
        }
    }

    /// How many stone moves are still to play: 0, 1 or 2.
    #[inline]
    pub const fn count(self) -> usize {
        (self.hi > 0) as usize + (self.lo > 0) as usize
    }

    #[inline]
    pub const fn is_none(self) -> bool {
        self.hi == 0
    }

    #[inline]
    pub const fn hi(self) -> u8 {
        self.hi
    }

    #[inline]
    pub const fn lo(self) -> u8 {
        self.lo
    }

    /// Two different numbers still to play (the larger-die rule applies).
    #[inline]
    pub const fn is_split(self) -> bool {
        self.lo > 0 && self.lo != self.hi
    }

    /// What is left after playing one `die` of these (which must be among them).
    #[inline]
    pub const fn without(self, die: u8) -> Self {
        if self.lo == 0 {
            Dice::NONE
        } else if die == self.hi {
            Dice::one(self.lo)
        } else {
            Dice::one(self.hi)
        }
    }

    /// Whether `die` is one of the dice still to play.
    #[inline]
    pub const fn has(self, die: u8) -> bool {
        die > 0 && (die == self.hi || die == self.lo)
    }

    /// A small index for key tables: 0 for none, below 49.
    #[inline]
    pub const fn index(self) -> usize {
        self.hi as usize * 7 + self.lo as usize
    }
}

impl std::fmt::Display for Dice {
    /// `52`, `55`, `5`, or `-` when nothing is to play.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.hi, self.lo) {
            (0, _) => write!(f, "-"),
            (hi, 0) => write!(f, "{hi}"),
            (hi, lo) => write!(f, "{hi}{lo}"),
        }
    }
}
