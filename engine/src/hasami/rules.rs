//! Hasami house rules.

use crate::core::options::{OptionValue, MOVE_LIMIT};
use crate::core::{HouseRules, OptionSpec};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WinCondition {
    /// Capture five.
    #[default]
    Five,
    /// Lead the opponent by three captures.
    Lead3,
    /// Capture all the opponent's pieces.
    All,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HasamiRules {
    pub win: WinCondition,
    /// Plies after which the game is drawn; 0 = no limit.
    pub move_limit: u32,
}

const SPECS: &[OptionSpec] = &[
    OptionSpec::combo("HasamiWin", "five", &["five", "lead3", "all"]),
    MOVE_LIMIT,
];

impl HouseRules for HasamiRules {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn apply(&mut self, spec: &OptionSpec, value: OptionValue) {
        match (spec.name, value) {
            ("HasamiWin", OptionValue::Choice(choice)) => {
                self.win = match choice {
                    "lead3" => WinCondition::Lead3,
                    "all" => WinCondition::All,
                    _ => WinCondition::Five,
                }
            }
            ("MoveLimit", OptionValue::Int(limit)) => self.move_limit = limit as u32,
            _ => unreachable!("validated option {} reached HasamiRules", spec.name),
        }
    }
}
