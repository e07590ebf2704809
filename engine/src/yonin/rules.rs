//! Yonin house rules.

use crate::core::options::{OptionValue, MOVE_LIMIT};
use crate::core::{HouseRules, OptionSpec, Seat};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YoninRules {
    /// Seats 0 and 2 against 1 and 3; the first checkmate ends the game (rules 11, 22).
    pub pairs: bool,
    /// The seat to move in the start position (rule 12).
    pub first_seat: Seat,
    /// Plies after which the game ends and places are judged; 0 = no limit.
    pub move_limit: u32,
}

impl YoninRules {
    /// Checkmates that end the game.
    #[inline]
    pub fn mates_to_end(&self) -> usize {
        if self.pairs {
            1
        } else {
            2
        }
    }
}

const SPECS: &[OptionSpec] = &[
    OptionSpec::check("YoninPairs", false),
    OptionSpec::spin("YoninFirstSeat", 0, 0, 3),
    MOVE_LIMIT,
];

impl HouseRules for YoninRules {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn apply(&mut self, spec: &OptionSpec, value: OptionValue) {
        match (spec.name, value) {
            ("YoninPairs", OptionValue::Bool(on)) => self.pairs = on,
            ("YoninFirstSeat", OptionValue::Int(seat)) => {
                self.first_seat = Seat::new(seat as usize)
            }
            ("MoveLimit", OptionValue::Int(limit)) => self.move_limit = limit as u32,
            _ => unreachable!("validated option {} reached YoninRules", spec.name),
        }
    }
}
