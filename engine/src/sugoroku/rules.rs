//! Sugoroku house rules: how the game is finished and what closing the home does.

use crate::core::options::OptionValue;
use crate::core::{HouseRules, OptionSpec};

/// How a game is won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Finish {
    /// Late Edo (*iri-gachi*): all fifteen in the home wins; no stone moves below point 1.
    #[default]
    AllHome,
    /// Early Edo: once all are home, stones are borne off; fifteen off wins.
    BearOff,
}

/// What the closed home (*muji*: an opponent stone on the bar and each home point
/// holding two or more of your stones) does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Closeout {
    /// Winning in that state counts 2, or 3 with a 2-2-2-3-3-3 / 2-3-2-3-2-3 home.
    #[default]
    Multiplier,
    /// Forming it wins at once, worth 1.
    Instant,
    /// No special effect.
    Off,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SugorokuRules {
    pub finish: Finish,
    pub closeout: Closeout,
}

const SPECS: &[OptionSpec] = &[
    OptionSpec::combo("SugorokuFinish", "allhome", &["allhome", "bearoff"]),
    OptionSpec::combo(
        "SugorokuCloseout",
        "multiplier",
        &["multiplier", "instant", "off"],
    ),
];

impl HouseRules for SugorokuRules {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn apply(&mut self, spec: &OptionSpec, value: OptionValue) {
        match (spec.name, value) {
            ("SugorokuFinish", OptionValue::Choice(choice)) => {
                self.finish = if choice == "bearoff" {
                    Finish::BearOff
                } else {
                    Finish::AllHome
                }
            }
            ("SugorokuCloseout", OptionValue::Choice(choice)) => {
                self.closeout = match choice {
                    "instant" => Closeout::Instant,
                    "off" => Closeout::Off,
                    _ => Closeout::Multiplier,
                }
            }
            _ => unreachable!("validated option {} reached SugorokuRules", spec.name),
        }
    }
}
