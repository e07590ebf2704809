//! What is USI's own in the engine's options and refusals: the names USI gives
//! some engine options, the other name of the move limit a client expects, the
//! `option` lines of `usi`, and the words of a refused `go`.
//!
//! The engine describes its options as data ([`OptionSpec`]) under its own
//! names; everything that reaches a session from outside by name (the
//! protocol's `setoption`, a record's rules, the command line's `--set`, the
//! tools' option lists) goes through [`set_option`], which takes either name.

use yomi_engine::core::options::{OptionKind, MOVE_LIMIT};
use yomi_engine::core::{OptionError, OptionSpec};
use yomi_engine::session::{GameSession, Refusal, ELO, HASH, LIMIT_STRENGTH, PONDER};

/// Engine options USI names its own way: (the engine's name, USI's).
const USI_NAMES: &[(&str, &str)] = &[
    (HASH, "USI_Hash"),
    (PONDER, "USI_Ponder"),
    (LIMIT_STRENGTH, "USI_LimitStrength"),
    (ELO, "USI_Elo"),
];

/// shogiarena sets `MaxMovesToDraw` and waits for ever when it is not
/// announced: announced after the move limit, it sets the same rule.
pub const MAX_MOVES_TO_DRAW: OptionSpec = OptionSpec {
    name: "MaxMovesToDraw",
    ..MOVE_LIMIT
};

/// The name `usi` announces the engine's option `name` under.
pub fn usi_name(name: &str) -> &str {
    USI_NAMES
        .iter()
        .find(|(engine, _)| *engine == name)
        .map_or(name, |(_, usi)| usi)
}

/// The engine's name of the option a client calls `name` (USI's name, the
/// engine's own, or `MaxMovesToDraw`), in any case.
pub fn engine_name(name: &str) -> &str {
    if MAX_MOVES_TO_DRAW.answers_to(name) {
        return MOVE_LIMIT.name;
    }
    USI_NAMES
        .iter()
        .find(|(_, usi)| usi.eq_ignore_ascii_case(name))
        .map_or(name, |(engine, _)| engine)
}

/// Sets the option a client calls `name` in `session`: `Ok(false)` when it
/// has none of that name; an error names the option as USI does.
pub fn set_option(
    session: &mut dyn GameSession,
    name: &str,
    value: &str,
) -> Result<bool, OptionError> {
    session
        .set_option(engine_name(name), value)
        .map_err(|mut error| {
            error.name = usi_name(&error.name).to_string();
            error
        })
}

/// The `option` line announcing `spec`.
pub fn option_line(spec: &OptionSpec) -> String {
    let name = usi_name(spec.name);
    match spec.kind {
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Combo { default, choices } => {
            let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionKind::Check { default } => {
            format!("option name {name} type check default {default}")
        }
        OptionKind::Text { default } => format!(
            "option name {name} type string default {}",
            if default.is_empty() {
                "<empty>"
            } else {
                default
            }
        ),
        OptionKind::Button => format!("option name {name} type button"),
    }
}

/// Why `go` cannot search, in the protocol's words.
pub fn refusal_text(refusal: &Refusal) -> String {
    match refusal {
        Refusal::AwaitsChance => "the side to move has not rolled yet: give the roll as the \
                                  last entry of the moves list (position ... moves ... 52)"
            .to_string(),
        Refusal::SearchMoves(error) => format!("searchmoves: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines() {
        let spec = OptionSpec::combo("HasamiWin", "five", &["five", "lead3", "all"]);
        assert_eq!(
            option_line(&spec),
            "option name HasamiWin type combo default five var five var lead3 var all"
        );
        assert_eq!(
            option_line(&OptionSpec::spin(HASH, 64, 1, 32_768)),
            "option name USI_Hash type spin default 64 min 1 max 32768"
        );
        assert_eq!(
            option_line(&OptionSpec::text("SugorokuWeights", "")),
            "option name SugorokuWeights type string default <empty>"
        );
    }

    #[test]
    fn either_name_reaches_the_engine_option() {
        for name in ["USI_Hash", "usi_hash", "Hash", "HASH"] {
            assert!(engine_name(name).eq_ignore_ascii_case(HASH), "{name}");
        }
        assert_eq!(engine_name("maxmovestodraw"), MOVE_LIMIT.name);
        assert_eq!(engine_name("Threads"), "Threads");
        assert_eq!(usi_name(ELO), "USI_Elo");
        assert_eq!(usi_name("Threads"), "Threads");
    }
}
