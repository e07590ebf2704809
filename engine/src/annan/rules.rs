//! Annan house rules.

use crate::core::options::{OptionValue, MOVE_LIMIT};
use crate::core::{HouseRules, OptionSpec};

/// May a pawn, lance or knight stand where its own movement could never move again?
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeadPiece {
    /// Allowed when, with the support behind that square, it can move from there.
    #[default]
    Support,
    /// Not allowed, as in ordinary shogi.
    Forbid,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnnanRules {
    pub dead_piece: DeadPiece,
    /// Plies after which the game is drawn; 0 = no limit.
    pub move_limit: u32,
}

const SPECS: &[OptionSpec] = &[
    OptionSpec::combo("AnnanDeadPiece", "support", &["support", "forbid"]),
    MOVE_LIMIT,
];

impl HouseRules for AnnanRules {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn apply(&mut self, spec: &OptionSpec, value: OptionValue) {
        match (spec.name, value) {
            ("AnnanDeadPiece", OptionValue::Choice(choice)) => {
                self.dead_piece = if choice == "forbid" {
                    DeadPiece::Forbid
                } else {
                    DeadPiece::Support
                }
            }
            ("MoveLimit", OptionValue::Int(limit)) => self.move_limit = limit as u32,
            _ => unreachable!("validated option {} reached AnnanRules", spec.name),
        }
    }
}
