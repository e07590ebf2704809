//! Sugoroku house rules: how the game is finished and what closing the home does.

use super::net::Networks;
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

/// The evaluation the engine's search uses. Not a rule of the game: it travels
/// with the position as the rules do, so that every leaf sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The trained network ([`super::net`]); races the tables hold are
    /// valued exactly ([`super::race`]).
    #[default]
    Network,
    /// The hand-made evaluation, kept for comparison.
    Handmade,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SugorokuRules {
    pub finish: Finish,
    pub closeout: Closeout,
    pub evaluation: Evaluation,
    /// A network read from `SugorokuWeights`; `None`: the embedded one.
    pub network: Option<&'static Networks>,
}

impl SugorokuRules {
    /// The network the evaluation uses.
    pub fn network(&self) -> &'static Networks {
        self.network.unwrap_or_else(super::net::embedded)
    }
}

const SPECS: &[OptionSpec] = &[
    OptionSpec::combo("SugorokuFinish", "allhome", &["allhome", "bearoff"]),
    OptionSpec::combo(
        "SugorokuCloseout",
        "multiplier",
        &["multiplier", "instant", "off"],
    ),
    OptionSpec::combo("SugorokuEval", "network", &["network", "handmade"]),
    OptionSpec::text("SugorokuWeights", ""),
];

impl HouseRules for SugorokuRules {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    /// `SugorokuWeights`: a network file to read (empty or `<empty>`: the
    /// embedded network); a file that cannot be read or is not a valid network
    /// is refused and the network in use stays.
    fn try_apply(&mut self, spec: &OptionSpec, value: OptionValue) -> Result<(), String> {
        let OptionValue::Text(path) = &value else {
            self.apply(spec, value);
            return Ok(());
        };
        if path.is_empty() || path == "<empty>" {
            self.network = None;
            return Ok(());
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read the file: {e}"))?;
        let network = Networks::from_bytes(&bytes)?;
        // Options change seldom: a network read lives as long as the process.
        self.network = Some(Box::leak(Box::new(network)));
        Ok(())
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
            ("SugorokuEval", OptionValue::Choice(choice)) => {
                self.evaluation = if choice == "handmade" {
                    Evaluation::Handmade
                } else {
                    Evaluation::Network
                }
            }
            _ => unreachable!("validated option {} reached SugorokuRules", spec.name),
        }
    }
}
