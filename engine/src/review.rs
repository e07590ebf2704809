//! A review of a whole game (docs/review.md): for every move, the engine's best
//! move and its value, the value of the move played (the same search with the
//! root limited to it), the loss and a verdict against the game's thresholds;
//! in Yonin each seat's share too. Written once over [`GameSession`], so that
//! the protocol's `review` and the command line share it.

use crate::core::PerSeat;
use crate::search::{Limits, Score, SearchControl, SearchInfo};
use crate::session::{GameSession, PositionError};

/// What a review's values count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Centipawns of the side to move (a mate counts as [`MATE_CP`] less its plies).
    Centipawns,
    /// Thousandths of a point of equity for the side to move (Sugoroku).
    Points,
    /// Thousandths of a place point for the side to move (Yonin: 1st 1,
    /// 2nd ⅔, 3rd ⅓, 4th 0).
    PlacePoints,
}

/// What a mate in n plies is worth in centipawns: `MATE_CP - n` (a missed mate
/// is a loss far above any blunder threshold; of two mates the shorter is better).
pub const MATE_CP: i32 = 20_000;

/// A game's unit and thresholds: a loss of at least `thresholds[0]` is an
/// inaccuracy, `[1]` a mistake, `[2]` a blunder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewScale {
    pub unit: Unit,
    pub thresholds: [i32; 3],
}

/// How good the move played was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// The engine's own move (or one to the same position).
    Best,
    /// A loss below the inaccuracy threshold.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Verdict {
    pub const ALL: [Verdict; 5] = [
        Verdict::Best,
        Verdict::Good,
        Verdict::Inaccuracy,
        Verdict::Mistake,
        Verdict::Blunder,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }
}

impl ReviewScale {
    /// Annan: a pawn is 100. An inaccuracy is half a pawn, a mistake a pawn
    /// and a half, a blunder 400 (a lance, a knight or more: a piece).
    pub const SHOGI: ReviewScale = ReviewScale {
        unit: Unit::Centipawns,
        thresholds: [50, 150, 400],
    };
    /// Hasami: a stone is 100 and five win; a stone's worth is a mistake
    /// already, two stones' a blunder.
    pub const HASAMI: ReviewScale = ReviewScale {
        unit: Unit::Centipawns,
        thresholds: [30, 80, 180],
    };
    /// Sugoroku: equity, as backgammon analysers judge it: 0.04, 0.08 and
    /// 0.16 points.
    pub const SUGOROKU: ReviewScale = ReviewScale {
        unit: Unit::Points,
        thresholds: [40, 80, 160],
    };
    /// Yonin: place points, 0.005, 0.015 and 0.040 (about 300, 900 and 2 400
    /// centipawns of the search between 2nd and 3rd place; a gold is 619).
    pub const YONIN: ReviewScale = ReviewScale {
        unit: Unit::PlacePoints,
        thresholds: [5, 15, 40],
    };

    /// A search's score in this unit.
    pub fn value(&self, score: Score) -> i32 {
        match (self.unit, score) {
            (Unit::PlacePoints, Score::Mate(plies)) => {
                if plies > 0 {
                    1000
                } else {
                    0
                }
            }
            // The search's root-relative values put the places at 20 000 (1st),
            // 10 000, −10 000 and −20 000 (crate::search::multi, "Values"):
            // linear between them, place points 1, ⅔, ⅓, 0.
            (Unit::PlacePoints, Score::Cp(cp) | Score::Points(cp)) => {
                let cp = cp.clamp(-20_000, 20_000);
                match cp {
                    10_000.. => 667 + (cp - 10_000) / 30,
                    ..=-10_000 => 333 + (cp + 10_000) / 30,
                    _ => 500 + cp / 60,
                }
            }
            (_, Score::Cp(v) | Score::Points(v)) => v,
            (_, Score::Mate(plies)) => {
                let value = MATE_CP - plies.abs();
                if plies > 0 {
                    value
                } else {
                    -value
                }
            }
        }
    }

    /// The verdict on a move that loses `loss` (≥ 0); `best` when it is the
    /// engine's own move.
    pub fn verdict(&self, loss: i32, best: bool) -> Verdict {
        let [inaccuracy, mistake, blunder] = self.thresholds;
        match loss {
            _ if best => Verdict::Best,
            l if l >= blunder => Verdict::Blunder,
            l if l >= mistake => Verdict::Mistake,
            l if l >= inaccuracy => Verdict::Inaccuracy,
            _ => Verdict::Good,
        }
    }

    /// A value as the review writes it: centipawns as an integer, points and
    /// place points with three decimals (`+0.042`, `0.667`).
    pub fn format(&self, value: i32) -> String {
        let decimal =
            |v: i32| format!("{}.{:03}", v.unsigned_abs() / 1000, v.unsigned_abs() % 1000);
        match self.unit {
            Unit::Centipawns => value.to_string(),
            Unit::Points => format!("{}{}", if value < 0 { '-' } else { '+' }, decimal(value)),
            Unit::PlacePoints if value < 0 => format!("-{}", decimal(value)),
            Unit::PlacePoints => decimal(value),
        }
    }

    /// A loss as the review writes it (never signed).
    pub fn format_loss(&self, loss: i32) -> String {
        match self.unit {
            Unit::Points => self.format(loss)[1..].to_string(),
            _ => self.format(loss),
        }
    }

    pub fn unit_name(&self) -> &'static str {
        match self.unit {
            Unit::Centipawns => "centipawns",
            Unit::Points => "points",
            Unit::PlacePoints => "place points",
        }
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyReview {
    /// The ply the move plays (`status`'s ply after it).
    pub ply: u32,
    /// Who played it, as the game writes seats.
    pub seat: &'static str,
    /// Sugoroku: the roll the turn was played with.
    pub dice: Option<String>,
    pub played: String,
    /// The engine's move; `None` where it had none to offer.
    pub best: Option<String>,
    pub best_score: Score,
    pub played_score: Score,
    /// The scores in the game's unit ([`ReviewScale::value`]).
    pub best_value: i32,
    pub played_value: i32,
    /// `best_value - played_value`, at least 0: a move played that the search
    /// finds better than its own best loses nothing.
    pub loss: i32,
    pub verdict: Verdict,
    /// Yonin: every seat's expected place points after the move, thousandths.
    pub shares: Option<PerSeat<i32>>,
}

/// One move of the game to review, found in the record.
struct Turn {
    /// The entries before it (with the roll of its turn, in Sugoroku).
    before: Vec<String>,
    played: String,
    dice: Option<String>,
}

/// Whether `text` is a roll of two dice (`52`) or what is left of one (`2`).
fn is_roll(text: &str) -> bool {
    !text.is_empty() && text.len() <= 2 && text.bytes().all(|b| (b'1'..=b'6').contains(&b))
}

/// The moves of a game as reviewed: one per turn, with a turn played in parts
/// (`52:13/8`, then `8/6`) joined into one move (`13/8,8/6`).
fn turns(
    session: &mut dyn GameSession,
    sfen: Option<&str>,
    moves: &[&str],
) -> Result<Vec<Turn>, PositionError> {
    let mut turns = Vec::new();
    let mut roll = None;
    let mut i = 0;
    while i < moves.len() {
        session.set_position(sfen, &moves[..i])?;
        let state = session.state();
        let mut before: Vec<String> = moves[..i].iter().map(|m| m.to_string()).collect();
        let entry = moves[i];
        let mut parts = Vec::new();
        if session.has_chance() {
            match entry.split_once(':') {
                Some((dice, rest)) => {
                    if state.awaits_chance {
                        before.push(dice.to_string());
                        roll = Some(dice.to_string());
                    }
                    parts.push(rest.to_string());
                }
                None if state.awaits_chance || is_roll(entry) => {
                    // A roll alone: its turn is the next entry.
                    roll = Some(entry.to_string());
                    i += 1;
                    continue;
                }
                None => parts.push(entry.to_string()),
            }
            // A position set with its dice rolled: the dice its status gives.
            if roll.is_none() && !state.awaits_chance {
                let details = session.status_details();
                let mut words = details.split(' ').skip_while(|w| *w != "dice").skip(1);
                roll = words.next().filter(|d| is_roll(d)).map(str::to_string);
            }
        } else {
            parts.push(entry.to_string());
        }
        let mut next = i + 1;
        while session.has_chance() && next < moves.len() {
            session.set_position(sfen, &moves[..next])?;
            let after = session.state();
            if after.awaits_chance || after.outcome.is_some() || after.to_move != state.to_move {
                break;
            }
            let rest = moves[next];
            parts.push(
                rest.split_once(':')
                    .map_or(rest, |(_, rest)| rest)
                    .to_string(),
            );
            next += 1;
        }
        turns.push(Turn {
            before,
            played: parts.join(","),
            dice: roll.take(),
        });
        i = next;
    }
    Ok(turns)
}

/// The search's move and its score: the last first line reported for it.
fn search(session: &mut dyn GameSession, limits: &Limits) -> (Option<String>, Score) {
    let mut last: Option<SearchInfo<String>> = None;
    let best = session.search(limits, &SearchControl::new(false), &mut |info| {
        if info.multipv <= 1 {
            last = Some(info.clone());
        }
    });
    let score = last.map_or(Score::Cp(0), |info| info.score);
    (best.best, score)
}

/// How many moves [`review`] will judge in the game of `sfen` and `moves`.
pub fn count(
    session: &mut dyn GameSession,
    sfen: Option<&str>,
    moves: &[&str],
) -> Result<usize, PositionError> {
    let counted = turns(session, sfen, moves).map(|turns| turns.len());
    let _ = session.set_position(sfen, moves);
    counted
}

/// Reviews the game of `sfen` (the start if `None`) and `moves`, each move
/// searched within `limits` (their `searchmoves` are ignored) at full
/// strength, and hands each move's review to `each` with the number done and
/// the total; `each` returns whether to go on. An illegal game is refused
/// before anything is searched; either way the session is left on the game
/// of `sfen` and `moves` if it stands, else on what it had.
pub fn review(
    session: &mut dyn GameSession,
    sfen: Option<&str>,
    moves: &[&str],
    limits: &Limits,
    each: &mut dyn FnMut(&PlyReview, usize, usize) -> bool,
) -> Result<Vec<PlyReview>, PositionError> {
    session.set_position(sfen, moves)?;
    let turns = turns(session, sfen, moves)?;
    let limits = Limits {
        searchmoves: Vec::new(),
        ..limits.clone()
    };
    session.set_analysis(true);
    let reviewed = judge(session, sfen, &turns, &limits, each);
    session.set_analysis(false);
    session.set_position(sfen, moves)?;
    reviewed
}

/// Judges each of `turns` (see [`review`]).
fn judge(
    session: &mut dyn GameSession,
    sfen: Option<&str>,
    turns: &[Turn],
    limits: &Limits,
    each: &mut dyn FnMut(&PlyReview, usize, usize) -> bool,
) -> Result<Vec<PlyReview>, PositionError> {
    let scale = session.review_scale();
    let mut reviews = Vec::new();
    for (done, turn) in turns.iter().enumerate() {
        let before: Vec<&str> = turn.before.iter().map(String::as_str).collect();
        session.set_position(sfen, &before)?;
        let state = session.state();
        let only_played = Limits {
            searchmoves: vec![turn.played.clone()],
            ..limits.clone()
        };
        // An unfinished last turn (half a roll played) is not a move to judge.
        if session.search_refusal(&only_played).is_some() {
            continue;
        }
        let (seat, ply) = (session.seat_name(state.to_move), state.ply + 1);
        let (best, best_score) = search(session, limits);
        // The position after a move, to tell moves apart that lead to the same.
        let mut key_after = |mv: &str| {
            let mut line = before.clone();
            line.push(mv);
            session
                .set_position(sfen, &line)
                .map(|()| session.key())
                .ok()
        };
        let same = best
            .as_deref()
            .is_some_and(|best| key_after(best) == key_after(&turn.played));
        session.set_position(sfen, &before)?;
        let played_score = if same {
            best_score
        } else {
            search(session, &only_played).1
        };
        let (best_value, played_value) = (scale.value(best_score), scale.value(played_score));
        let loss = (best_value - played_value).max(0);
        let mut after = before.clone();
        after.push(&turn.played);
        session.set_position(sfen, &after)?;
        let review = PlyReview {
            ply,
            seat,
            dice: turn.dice.clone(),
            played: turn.played.clone(),
            best,
            best_score,
            played_score,
            best_value,
            played_value,
            loss,
            verdict: scale.verdict(loss, same),
            shares: session.place_shares(),
        };
        let go_on = each(&review, done + 1, turns.len());
        reviews.push(review);
        if !go_on {
            break;
        }
    }
    Ok(reviews)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::new_session;

    #[test]
    fn scores_become_values_and_losses_verdicts() {
        let shogi = ReviewScale::SHOGI;
        assert_eq!(shogi.value(Score::Cp(-35)), -35);
        assert_eq!(shogi.value(Score::Mate(3)), MATE_CP - 3);
        assert_eq!(shogi.value(Score::Mate(-2)), -(MATE_CP - 2));
        assert_eq!(shogi.verdict(0, true), Verdict::Best);
        assert_eq!(shogi.verdict(49, false), Verdict::Good);
        assert_eq!(shogi.verdict(50, false), Verdict::Inaccuracy);
        assert_eq!(shogi.verdict(399, false), Verdict::Mistake);
        assert_eq!(shogi.verdict(400, false), Verdict::Blunder);
        let yonin = ReviewScale::YONIN;
        assert_eq!(yonin.value(Score::Cp(0)), 500);
        assert_eq!(yonin.value(Score::Cp(10_000)), 667);
        assert_eq!(yonin.value(Score::Cp(-20_000)), 333 - 333);
        assert_eq!(yonin.value(Score::Mate(5)), 1000);
        assert_eq!(yonin.format(667), "0.667");
        let sugoroku = ReviewScale::SUGOROKU;
        assert_eq!(sugoroku.format(-1_205), "-1.205");
        assert_eq!(sugoroku.format(42), "+0.042");
        assert_eq!(sugoroku.format_loss(42), "0.042");
    }

    #[test]
    fn a_turn_in_parts_is_one_move_and_a_bare_roll_none() {
        let mut session = new_session("sugoroku").unwrap();
        let moves = ["31:8/5,6/5", "64", "24/18,18/14", "52:13/8", "8/6"];
        let turns = turns(&mut *session, None, &moves).unwrap();
        let played: Vec<(&str, Option<&str>)> = turns
            .iter()
            .map(|t| (t.played.as_str(), t.dice.as_deref()))
            .collect();
        assert_eq!(
            played,
            [
                ("8/5,6/5", Some("31")),
                ("24/18,18/14", Some("64")),
                ("13/8,8/6", Some("52"))
            ]
        );
        assert_eq!(count(&mut *session, None, &moves).unwrap(), 3);
    }

    #[test]
    fn an_illegal_game_is_refused_and_the_position_kept() {
        let mut session = new_session("hasami").unwrap();
        session.set_position(None, &["9i9h"]).unwrap();
        let before = session.sfen();
        let refused = review(
            &mut *session,
            None,
            &["9i9h", "9i9h"],
            &Limits::depth(1),
            &mut |_, _, _| true,
        );
        assert!(matches!(refused, Err(PositionError::Move { index: 1, .. })));
        assert_eq!(session.sfen(), before);
    }
}
