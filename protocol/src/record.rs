//! Game records (docs/review.md, "Records"): a game as the protocol sets it up
//! (the game, its house rules, `position … moves …`), written and read in two
//! forms, and the readable record people read.
//!
//! - **one line**, which a URL can carry: `<game> [<Rule>=<value>]… position
//!   startpos|sfen <sfen> [moves …]`, e.g. `annan AnnanDeadPiece=forbid
//!   position startpos moves 7g7f 3c3d`;
//! - **protocol lines**: `setoption name USI_Variant value <game>`, one
//!   `setoption` per house rule, then the `position` line (what a host sends).
//!
//! [`Record::parse`] reads either; [`Record::session`] checks everything (the
//! game, each rule and its value, the position and every move) on a session of
//! its own, so that a bad record changes nothing.

use crate::command::{echo, Command};
use crate::driver::{VARIANT_ALIAS, VARIANT_OPTION};
use crate::usi;
use yomi_engine::registry::{self, new_session};
use yomi_engine::session::GameSession;

/// A game: which, under what rules, from where, and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub game: String,
    /// House rules, in the order given.
    pub rules: Vec<(String, String)>,
    /// `None`: the start position.
    pub sfen: Option<String>,
    pub moves: Vec<String>,
}

/// Whether `name` is one of the house rules `session`'s game has (the move
/// limit by either name).
pub fn is_rule(session: &dyn GameSession, name: &str) -> bool {
    let name = usi::engine_name(name);
    session
        .rule_specs()
        .iter()
        .any(|spec| spec.answers_to(name))
}

impl Record {
    /// Reads a record in either form. Blank lines and lines starting with `#`
    /// are skipped in the protocol form, as are `usi`, `isready` and
    /// `usinewgame`.
    pub fn parse(text: &str) -> Result<Record, String> {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        match lines.as_slice() {
            [] => Err("empty record".to_string()),
            [line] if !line.starts_with("setoption") && !line.starts_with("position") => {
                Record::parse_line(line)
            }
            _ => Record::parse_lines(&lines),
        }
    }

    /// The one-line form.
    fn parse_line(line: &str) -> Result<Record, String> {
        let (head, position) = match line.find(" position ") {
            Some(at) => (&line[..at], &line[at + 1..]),
            None => return Err("expected '<game> [Rule=value]... position ...'".to_string()),
        };
        let mut words = head.split_whitespace();
        let game = words.next().unwrap_or_default().to_string();
        let mut rules = Vec::new();
        for word in words {
            let Some((name, value)) = word.split_once('=') else {
                return Err(format!(
                    "'{}': expected a house rule as Name=value",
                    echo(word)
                ));
            };
            rules.push((name.to_string(), value.to_string()));
        }
        let (sfen, moves) = Record::position(position)?;
        Ok(Record {
            game,
            rules,
            sfen,
            moves,
        })
    }

    /// The protocol form.
    fn parse_lines(lines: &[&str]) -> Result<Record, String> {
        let mut game = None;
        let mut rules = Vec::new();
        let mut position = None;
        for line in lines {
            match Command::parse(line).map_err(|e| e.0)? {
                Some(Command::SetOption { name, value }) => {
                    let value = value.unwrap_or_default();
                    if name.eq_ignore_ascii_case(VARIANT_OPTION)
                        || name.eq_ignore_ascii_case(VARIANT_ALIAS)
                    {
                        if game.is_some() || !rules.is_empty() || position.is_some() {
                            return Err(format!("{VARIANT_OPTION} must come first, and once"));
                        }
                        game = Some(value.trim().to_string());
                    } else {
                        rules.push((name, value));
                    }
                }
                Some(Command::Position { sfen, moves }) => {
                    if position.is_some() {
                        return Err("more than one position line".to_string());
                    }
                    position = Some((sfen, moves));
                }
                Some(Command::Usi | Command::IsReady | Command::UsiNewGame) | None => {}
                Some(other) => {
                    return Err(format!(
                        "'{}': a record holds setoption and position lines only",
                        echo(&other.to_string())
                    ))
                }
            }
        }
        let (sfen, moves) = position.ok_or("no position line")?;
        Ok(Record {
            game: game.unwrap_or_else(|| registry::NAMES[0].to_string()),
            rules,
            sfen,
            moves,
        })
    }

    /// `position startpos|sfen … [moves …]` as its SFEN and moves.
    fn position(text: &str) -> Result<(Option<String>, Vec<String>), String> {
        match Command::parse(text).map_err(|e| e.0)? {
            Some(Command::Position { sfen, moves }) => Ok((sfen, moves)),
            _ => Err("expected a position".to_string()),
        }
    }

    /// A session of the record's game with its rules and position, every
    /// part checked; `engine_options` (options that are not house rules, such
    /// as `Threads`) are set first where the game knows them. The error
    /// names what is wrong.
    pub fn session(
        &self,
        engine_options: &[(String, String)],
    ) -> Result<Box<dyn GameSession>, String> {
        let mut session = new_session(&self.game).map_err(|e| format!("{VARIANT_OPTION}: {e}"))?;
        for (name, value) in engine_options {
            let _ = usi::set_option(&mut *session, name, value);
        }
        for (name, value) in &self.rules {
            if !is_rule(&*session, name) {
                return Err(format!(
                    "'{}' is not a house rule of {}",
                    echo(name),
                    self.game
                ));
            }
            usi::set_option(&mut *session, name, value).map_err(|e| e.to_string())?;
        }
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        session
            .set_position(self.sfen.as_deref(), &moves)
            .map_err(|e| format!("position: {e}"))?;
        Ok(session)
    }

    /// `position startpos|sfen … [moves …]`
    pub fn position_line(&self) -> String {
        Command::Position {
            sfen: self.sfen.clone(),
            moves: self.moves.clone(),
        }
        .to_string()
    }

    /// The one-line form.
    pub fn line(&self) -> String {
        let mut words = vec![self.game.clone()];
        words.extend(self.rules.iter().map(|(n, v)| format!("{n}={v}")));
        words.push(self.position_line());
        words.join(" ")
    }

    /// The protocol form, one line each.
    pub fn protocol_lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "setoption name {VARIANT_OPTION} value {}",
            self.game
        )];
        lines.extend(
            self.rules
                .iter()
                .map(|(n, v)| format!("setoption name {n} value {v}")),
        );
        lines.push(self.position_line());
        lines
    }

    /// The readable record of the game set up on `session` (from
    /// [`Record::session`] or the protocol's own): the game, the rules, the
    /// start, then a line per move, `<ply> <seat> <move>`, the moves in
    /// western notation or with kanji piece names (the seats of the
    /// two-player shogi games then ▲ and △).
    pub fn readable(&self, session: &dyn GameSession, kanji: bool) -> Vec<String> {
        let mut lines = vec![format!("game {}", self.game)];
        if !self.rules.is_empty() {
            let rules: Vec<String> = self.rules.iter().map(|(n, v)| format!("{n}={v}")).collect();
            lines.push(format!("rules {}", rules.join(" ")));
        }
        lines.push(match &self.sfen {
            None => "start startpos".to_string(),
            Some(sfen) => format!("start sfen {sfen}"),
        });
        let marks = kanji && session.seats() == 2 && !session.has_chance();
        for entry in session.readable_record(kanji) {
            let seat = match (marks, entry.seat) {
                (true, "b") => "▲",
                (true, "w") => "△",
                (_, seat) => seat,
            };
            lines.push(format!("{} {seat} {}", entry.ply, entry.text));
        }
        lines
    }
}

/// The house rules among `options` (name, value), the move limit under its
/// own name.
pub fn rules_of(session: &dyn GameSession, options: &[(String, String)]) -> Vec<(String, String)> {
    let mut rules: Vec<(String, String)> = Vec::new();
    for (name, value) in options.iter().filter(|(n, _)| is_rule(session, n)) {
        let name = usi::engine_name(name).to_string();
        rules.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
        rules.push((name, value.clone()));
    }
    rules
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_read_back_to_the_same_record() {
        let line = "annan AnnanDeadPiece=forbid MoveLimit=300 position startpos moves 7g7f 3c3d";
        let record = Record::parse(line).unwrap();
        assert_eq!(record.game, "annan");
        assert_eq!(record.moves, ["7g7f", "3c3d"]);
        assert_eq!(record.line(), line);
        let lines = record.protocol_lines().join("\n");
        assert_eq!(Record::parse(&lines).unwrap(), record);
        assert!(record.session(&[]).is_ok());
        let session = record.session(&[]).unwrap();
        let readable = record.readable(&*session, true);
        assert_eq!(readable[3], "1 ▲ ７六歩(77)");
        assert_eq!(record.readable(&*session, false)[4], "2 w P3c-3d");
    }

    #[test]
    fn a_bad_record_says_what_is_wrong() {
        for (text, message) in [
            ("", "empty record"),
            ("annan startpos", "expected '<game>"),
            ("chess position startpos", "USI_Variant: "),
            (
                "annan Nope=1 position startpos",
                "'Nope' is not a house rule of annan",
            ),
            (
                "annan Threads=2 position startpos",
                "'Threads' is not a house rule",
            ),
            (
                "annan AnnanDeadPiece=never position startpos",
                "option AnnanDeadPiece",
            ),
            ("annan position startpos moves 7g7f 7g7f", "position: "),
            ("hasami position sfen xyz", "position: "),
            (
                "setoption name MoveLimit value 9\ngo depth 3",
                "'go depth 3': a record",
            ),
            ("setoption name MoveLimit value 9", "no position line"),
        ] {
            let got = Record::parse(text).and_then(|record| record.session(&[]).map(|_| ()));
            let error = got.expect_err(text);
            assert!(error.starts_with(message), "{text}: {error}");
        }
    }
}
