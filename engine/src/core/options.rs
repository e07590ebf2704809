//! House rules and engine options as typed, validated values.
//!
//! A game's rules are a small struct implementing [`HouseRules`]; its options are
//! described once by [`OptionSpec`]s, data which the protocol announces in its
//! own words and which validate every incoming value before the struct changes.

use super::error::OptionError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    /// One of a fixed list of words; `default` is one of `choices`.
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
    },
    Check {
        default: bool,
    },
    /// Free text (a file name).
    Text {
        default: &'static str,
    },
    Button,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// A validated option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Int(i64),
    Choice(&'static str),
    Bool(bool),
    Text(String),
    Pressed,
}

impl OptionSpec {
    pub const fn spin(name: &'static str, default: i64, min: i64, max: i64) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Spin { default, min, max },
        }
    }

    pub const fn combo(
        name: &'static str,
        default: &'static str,
        choices: &'static [&'static str],
    ) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Combo { default, choices },
        }
    }

    pub const fn check(name: &'static str, default: bool) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Check { default },
        }
    }

    pub const fn text(name: &'static str, default: &'static str) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Text { default },
        }
    }

    pub const fn button(name: &'static str) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Button,
        }
    }

    /// Option names compare without regard to case, as most GUIs expect.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }

    pub fn validate(&self, value: &str) -> Result<OptionValue, OptionError> {
        let value = value.trim();
        match self.kind {
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(OptionValue::Int(v)),
                Ok(_) => Err(OptionError::new(
                    self.name,
                    value,
                    format!("out of range {min}..={max}"),
                )),
                Err(_) => Err(OptionError::new(self.name, value, "not an integer")),
            },
            OptionKind::Combo { choices, .. } => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(value))
                .map(|c| OptionValue::Choice(c))
                .ok_or_else(|| {
                    OptionError::new(
                        self.name,
                        value,
                        format!("expected one of {}", choices.join(", ")),
                    )
                }),
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                _ => Err(OptionError::new(self.name, value, "expected true or false")),
            },
            OptionKind::Text { .. } => Ok(OptionValue::Text(value.to_string())),
            OptionKind::Button => Ok(OptionValue::Pressed),
        }
    }
}

/// Looks a name up among specs, as `setoption` does.
pub fn find_spec<'a>(specs: &'a [OptionSpec], name: &str) -> Option<&'a OptionSpec> {
    specs.iter().find(|s| s.answers_to(name))
}

/// A game's house rules: typed, validated once, read as small enums in hot paths.
pub trait HouseRules:
    Clone + Default + std::fmt::Debug + PartialEq + Send + Sync + 'static
{
    /// The options this game's rules answer to; none by default (a game
    /// without house rules).
    fn specs() -> &'static [OptionSpec] {
        &[]
    }

    /// Applies an already validated value of one of [`Self::specs`]; games
    /// with house rules say how.
    fn apply(&mut self, spec: &OptionSpec, value: OptionValue) {
        let _ = value;
        unreachable!("no house rule is named {}", spec.name)
    }

    /// As [`HouseRules::apply`], for values that can still fail once validated
    /// (a file to read); the error is the reason.
    fn try_apply(&mut self, spec: &OptionSpec, value: OptionValue) -> Result<(), String> {
        self.apply(spec, value);
        Ok(())
    }

    /// Validates and applies `name = value`; `Ok(false)` when no rule has that name.
    fn set(&mut self, name: &str, value: &str) -> Result<bool, OptionError> {
        match find_spec(Self::specs(), name) {
            Some(spec) => {
                let valid = spec.validate(value)?;
                self.try_apply(spec, valid)
                    .map_err(|reason| OptionError::new(spec.name, value, reason))?;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// The house rules of a game that has none (the games the tests make up).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NoHouseRules;

impl HouseRules for NoHouseRules {}

/// The move-limit option every board game shares.
pub const MOVE_LIMIT: OptionSpec = OptionSpec::spin("MoveLimit", 0, 0, 100_000);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spin_rejects_out_of_range_and_garbage() {
        let spec = OptionSpec::spin("Threads", 1, 1, 256);
        assert_eq!(spec.validate("4"), Ok(OptionValue::Int(4)));
        assert!(spec.validate("0").is_err());
        assert!(spec.validate("257").is_err());
        assert!(spec.validate("four").is_err());
    }

    #[test]
    fn combo_matches_without_case() {
        let spec = OptionSpec::combo("HasamiWin", "five", &["five", "lead3", "all"]);
        assert_eq!(spec.validate("LEAD3"), Ok(OptionValue::Choice("lead3")));
        assert!(spec.validate("six").is_err());
        assert!(spec.answers_to("hasamiwin"));
        assert!(!spec.answers_to("Hasami"));
    }
}
