//! Text: the position notation, turns (`24/18,13/11`), record entries with dice
//! (`52:13/8,13/11`, `55`, partial turns) and the board diagram.

use crate::core::Notation;

use super::dice::{Dice, Roll};
use super::movegen::{Step, SugorokuMove};
use super::position::{mirror, Sugoroku, BAR, HOME, OFF, STONES};
use super::rules::{Finish, SugorokuRules};
use crate::core::error::truncate;
use crate::core::sfen::read_move_number;
use crate::core::{Game, MoveError, MoveList, ParseError, Seat};
use crate::search::ChanceGame;

fn side_letter(side: Seat) -> char {
    if side == Seat::FIRST {
        'b'
    } else {
        'w'
    }
}

/// Reads `<points> <bar> <off> <side> <dice> [turn]`; see docs/notation.md, "Sugoroku".
pub fn parse_position(text: &str, rules: &SugorokuRules) -> Result<Sugoroku, ParseError> {
    let err = |reason: String| ParseError::new(text, reason);
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(5..=6).contains(&fields.len()) {
        return Err(err(format!(
            "expected 'points bar off side dice [turn]', found {} fields",
            fields.len()
        )));
    }
    let side = match fields[3] {
        "b" => Seat::FIRST,
        "w" => Seat::SECOND,
        other => return Err(err(format!("side '{}', expected b or w", truncate(other)))),
    };
    let turn = match fields.get(5) {
        None => 1,
        Some(n) => read_move_number("turn", n).map_err(err)?,
    };
    let mut pos = Sugoroku::empty(side, turn - 1, rules);
    let mut totals = [0u32; 2];

    let points: Vec<&str> = fields[0].split('/').collect();
    if points.len() != 24 {
        return Err(err(format!(
            "points: {} entries, expected 24 (point 1 to 24 of b)",
            points.len()
        )));
    }
    for (i, token) in points.iter().enumerate() {
        let point = i as u8 + 1;
        if *token == "0" {
            continue;
        }
        let parts = [
            (token.strip_suffix('b'), Seat::FIRST),
            (token.strip_suffix('w'), Seat::SECOND),
        ];
        let (count, owner) = match parts
            .into_iter()
            .find_map(|(count, owner)| Some((count?, owner)))
        {
            Some(found) => found,
            None => {
                return Err(err(format!(
                    "points: point {point} is '{}', expected 0 or a count and b or w such as 5b",
                    truncate(token)
                )))
            }
        };
        let count = match count.parse::<u8>() {
            Ok(n) if (1..=STONES).contains(&n) => n,
            _ => {
                return Err(err(format!(
                    "points: point {point} is '{}', expected a count of 1 to 15",
                    truncate(token)
                )))
            }
        };
        // White's stones are kept in white's own numbering.
        let own_point = if owner == Seat::FIRST {
            point
        } else {
            mirror(point)
        };
        pos.set_count(owner, own_point, count);
        totals[owner.index()] += count as u32;
    }
    for (field, name, point) in [(fields[1], "bar", BAR), (fields[2], "off", OFF)] {
        let counts: Vec<&str> = field.split('/').collect();
        let parsed: Vec<Option<u8>> = counts
            .iter()
            .map(|c| c.parse::<u8>().ok().filter(|&n| n <= STONES))
            .collect();
        let [Some(b), Some(w)] = parsed[..] else {
            return Err(err(format!(
                "{name} '{}', expected two counts of 0 to 15 such as 1/0",
                truncate(field)
            )));
        };
        for (owner, count) in [(Seat::FIRST, b), (Seat::SECOND, w)] {
            pos.set_count(owner, point, count);
            totals[owner.index()] += count as u32;
        }
    }
    for owner in Seat::all(2) {
        if totals[owner.index()] != STONES as u32 {
            return Err(err(format!(
                "{} has {} stones in all, expected 15",
                side_letter(owner),
                totals[owner.index()]
            )));
        }
    }
    if rules.finish == Finish::AllHome
        && (pos.count(Seat::FIRST, OFF) > 0 || pos.count(Seat::SECOND, OFF) > 0)
    {
        return Err(err(
            "off: no stone is borne off under the all-home finish".to_string()
        ));
    }
    let dice = match fields[4] {
        "-" => Dice::NONE,
        digits => {
            let values: Vec<u8> = digits.bytes().map(|c| c.wrapping_sub(b'0')).collect();
            Dice::from_digits(&values)
                .filter(|d| !d.is_none())
                .ok_or_else(|| {
                    err(format!(
                        "dice '{}', expected - or one or two dice 1 to 6 such as 52",
                        truncate(digits)
                    ))
                })?
        }
    };
    pos.settle().map_err(|reason| err(reason.to_string()))?;
    if pos.outcome().is_some() && !dice.is_none() {
        return Err(err(format!("dice '{dice}': the game is over, expected -")));
    }
    pos.set_dice(dice);
    Ok(pos)
}

pub fn write_position(pos: &Sugoroku) -> String {
    let points: Vec<String> = (1..=24u8)
        .map(|point| {
            let (b, w) = (
                pos.count(Seat::FIRST, point),
                pos.count(Seat::SECOND, mirror(point)),
            );
            match (b, w) {
                (0, 0) => "0".to_string(),
                (b, 0) => format!("{b}b"),
                (_, w) => format!("{w}w"),
            }
        })
        .collect();
    format!(
        "{} {}/{} {}/{} {} {} {}",
        points.join("/"),
        pos.count(Seat::FIRST, BAR),
        pos.count(Seat::SECOND, BAR),
        pos.count(Seat::FIRST, OFF),
        pos.count(Seat::SECOND, OFF),
        side_letter(pos.side_to_move()),
        pos.dice(),
        pos.ply() + 1
    )
}

/// At most two stone steps: a turn is one or two moves, a double too.
#[derive(Clone, Copy, Default)]
struct Steps {
    steps: [Step; 2],
    len: usize,
}

impl Steps {
    fn as_slice(&self) -> &[Step] {
        &self.steps[..self.len]
    }
}

fn parse_point(text: &str) -> Option<u8> {
    match text {
        "bar" => Some(BAR),
        "off" => Some(OFF),
        _ => text.parse::<u8>().ok().filter(|&p| p <= BAR),
    }
}

/// Reads `24/18,13/11`: steps joined by commas, each `from/to` with an optional
/// `*` hit mark after a point; also chains (`24/18/13`) and a count (`13/8(2)`).
fn parse_steps(text: &str) -> Result<Steps, MoveError> {
    let bad = |reason: String| MoveError::new(text, reason);
    let mut out = Steps::default();
    for part in text.split(',') {
        let part = part.trim();
        let (chain, times) = match part.strip_suffix(')').and_then(|p| p.split_once('(')) {
            Some((chain, n)) => match n.parse::<usize>() {
                Ok(n @ 1..=2) => (chain, n),
                _ => {
                    return Err(bad(format!(
                        "'{}': a count must be (1) or (2)",
                        truncate(part)
                    )))
                }
            },
            None => (part, 1),
        };
        let points: Vec<&str> = chain.split('/').collect();
        if points.len() < 2 {
            return Err(bad(format!(
                "'{}' is not a stone move: expected from/to such as 13/8, or pass",
                truncate(part)
            )));
        }
        let mut parsed = Vec::with_capacity(points.len());
        for p in points {
            let name = p.trim().trim_end_matches('*');
            let point = parse_point(name).ok_or_else(|| {
                bad(format!(
                    "'{}' is not a point: expected 1 to 24, bar or off",
                    truncate(p)
                ))
            })?;
            parsed.push(point);
        }
        for _ in 0..times {
            for pair in parsed.windows(2) {
                if out.len == 2 {
                    return Err(bad(
                        "more than two stone moves: a turn is two moves, a double too".to_string(),
                    ));
                }
                out.steps[out.len] = Step {
                    from: pair[0],
                    to: pair[1],
                };
                out.len += 1;
            }
        }
    }
    Ok(out)
}

/// Why `step` cannot be played now with any of the dice left.
fn explain(pos: &Sugoroku, step: Step) -> String {
    let side = pos.side_to_move();
    let dice = pos.dice();
    if dice.is_none() {
        return format!("{step}: no dice are left to play");
    }
    if step.from == OFF || step.to == BAR || step.to >= step.from {
        return format!("{step}: stones move from higher points to lower ones");
    }
    if pos.count(side, step.from) == 0 {
        let place = if step.from == BAR {
            "the bar".to_string()
        } else {
            step.from.to_string()
        };
        return format!("{step}: no stone of the side to move on {place}");
    }
    if step.from != BAR && pos.count(side, BAR) > 0 {
        return format!("{step}: a stone on the bar must enter first");
    }
    if step.to == OFF {
        if pos.rules().finish == Finish::AllHome {
            return format!("{step}: no stone moves below point 1 under the all-home finish");
        }
        if (HOME + 1..=BAR).any(|p| pos.count(side, p) > 0) {
            return format!("{step}: bearing off needs every stone home");
        }
        if !(dice.hi() >= step.from || dice.lo() >= step.from) {
            return format!("{step}: no die of {} or more to play ({dice})", step.from);
        }
        return format!(
            "{step}: a stone stands higher than {}: bear off by the exact number or move inside",
            step.from
        );
    }
    let distance = step.from - step.to;
    if !dice.has(distance) {
        return format!("{step}: no die of {distance} to play ({dice})");
    }
    format!(
        "{step}: point {} is closed (two or more opposing stones)",
        step.to
    )
}

/// Walks the written steps on copies of `pos`, trying each die a step could
/// use (the smaller first), and calls `visit` on every complete walk until it
/// returns true. The first reason a step failed is kept in `error`.
fn walk(
    pos: &Sugoroku,
    steps: &[Step],
    error: &mut Option<String>,
    visit: &mut dyn FnMut(&Sugoroku) -> bool,
) -> bool {
    let Some((&step, rest)) = steps.split_first() else {
        return visit(pos);
    };
    if pos.mover_won() {
        error.get_or_insert_with(|| format!("{step}: the game is already won"));
        return false;
    }
    let dice = pos.dice();
    let (mut tried, mut legal) = (false, false);
    for die in [dice.lo(), dice.hi()] {
        let fits = match step.to {
            OFF => die >= step.from,
            to => step.from > to && step.from - to == die,
        };
        if die == 0 || !fits || (die == dice.lo() && die == dice.hi() && tried) {
            continue;
        }
        tried = true;
        if pos.target(step.from, die) != Some(step.to) {
            continue;
        }
        legal = true;
        let mut next = *pos;
        next.play_partial(&[step], dice.without(die));
        if walk(&next, rest, error, visit) {
            return true;
        }
    }
    if !legal {
        error.get_or_insert_with(|| explain(pos, step));
    }
    false
}

/// What a written turn turned out to be.
enum Resolved {
    Whole(SugorokuMove),
    /// A legal beginning of a turn: the position after it, dice left to play.
    Partial(Sugoroku),
}

fn resolve(pos: &Sugoroku, text: &str) -> Result<Resolved, MoveError> {
    let text = text.trim();
    let fail = |reason: String| Err(MoveError::new(text, reason));
    if pos.outcome().is_some() {
        return fail("the game is over".to_string());
    }
    if pos.dice().is_none() {
        return fail("the dice are not rolled yet".to_string());
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    if text == "pass" {
        return match moves.first() {
            Some(&mv) if mv.is_pass() => Ok(Resolved::Whole(mv)),
            _ => fail(format!(
                "pass is not legal: a stone can move with {}",
                pos.dice()
            )),
        };
    }
    let written = parse_steps(text)?;
    if written.len == 0 {
        return fail("no stone move written".to_string());
    }
    let results: Vec<(SugorokuMove, Sugoroku)> = moves
        .iter()
        .map(|&mv| {
            let mut after = *pos;
            for &step in mv.steps() {
                after.apply_step(step);
            }
            (mv, after)
        })
        .collect();
    let mut error = None;
    let mut found = None;
    walk(pos, written.as_slice(), &mut error, &mut |after| {
        found = results
            .iter()
            .find(|(mv, result)| mv.steps().len() == written.len && result.board() == after.board())
            .map(|&(mv, _)| mv);
        found.is_some()
    });
    if let Some(mv) = found {
        return Ok(Resolved::Whole(mv));
    }
    if let Some(reason) = error {
        return fail(reason);
    }
    // Every step was legal on its own: a beginning of a turn when the dice left
    // can still be played from there.
    let mut partial = None;
    walk(pos, written.as_slice(), &mut None, &mut |after| {
        let mut rest = MoveList::new();
        after.generate_moves(&mut rest);
        let playable = !after.mover_won() && rest.first().is_some_and(|mv| !mv.is_pass());
        if playable {
            partial = Some(*after);
        }
        playable
    });
    match partial {
        Some(after) => Ok(Resolved::Partial(after)),
        None => fail(format!(
            "not a legal turn for {}: play as many dice as possible, and with one the larger",
            pos.dice()
        )),
    }
}

pub fn parse_turn(pos: &Sugoroku, text: &str) -> Result<SugorokuMove, MoveError> {
    match resolve(pos, text)? {
        Resolved::Whole(mv) => Ok(mv),
        Resolved::Partial(after) => Err(MoveError::new(
            text,
            format!("only part of the turn: {} is still to play", after.dice()),
        )),
    }
}

/// Digits `52`, `25`, `5` as dice.
fn parse_dice(text: &str) -> Option<Dice> {
    if !(1..=2).contains(&text.len()) || !text.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let digits: Vec<u8> = text.bytes().map(|c| c - b'0').collect();
    Dice::from_digits(&digits)
}

fn play_turn(pos: &mut Sugoroku, text: &str) -> Result<(), MoveError> {
    match resolve(pos, text)? {
        Resolved::Whole(mv) => pos.make(mv),
        Resolved::Partial(after) => *pos = after,
    }
    Ok(())
}

/// One record entry: `52` (the roll), `52:13/8,13/11`, `2:8/6`, a bare turn, or a
/// partial turn that leaves dice to play. Leaves `pos` unchanged on error.
pub fn play_text(pos: &mut Sugoroku, text: &str) -> Result<(), MoveError> {
    let text = text.trim();
    let fail = |reason: String| Err(MoveError::new(text, reason));
    if pos.outcome().is_some() {
        return fail("the game is over".to_string());
    }
    let (dice_text, turn) = match text.split_once(':') {
        Some((dice, turn)) => (Some(dice.trim()), Some(turn)),
        None if text.len() == 2 && text.bytes().all(|c| c.is_ascii_digit()) => (Some(text), None),
        None => (None, Some(text)),
    };
    let mut next = *pos;
    if let Some(dice_text) = dice_text {
        let Some(dice) = parse_dice(dice_text) else {
            return fail(format!(
                "'{}' is not dice: expected one or two numbers 1 to 6 such as 52",
                truncate(dice_text)
            ));
        };
        if next.at_chance() {
            if dice.count() != 2 {
                return fail(format!(
                    "'{}': a roll is two dice such as 52",
                    truncate(dice_text)
                ));
            }
            next.apply_chance(Roll::new(dice.hi(), dice.lo()));
        } else if turn.is_none() {
            return fail(format!(
                "the dice are already rolled: {} to play",
                pos.dice()
            ));
        } else if dice != next.dice() {
            return fail(format!(
                "dice {dice_text} are not the dice to play ({})",
                next.dice()
            ));
        }
    } else if next.at_chance() {
        return fail(
            "the dice are not rolled: write the roll (52) or dice and turn (52:13/8,13/11)"
                .to_string(),
        );
    }
    if let Some(turn) = turn {
        play_turn(&mut next, turn)?;
    }
    *pos = next;
    Ok(())
}

/// The board as seat b sees it: points 13–24 along the top, 12–1 along the
/// bottom (b's home at the lower right), then the bars, borne-off stones and the
/// position's facts.
pub fn diagram(pos: &Sugoroku) -> String {
    let cell = |point: u8| -> String {
        match (
            pos.count(Seat::FIRST, point),
            pos.count(Seat::SECOND, mirror(point)),
        ) {
            (0, 0) => ".".to_string(),
            (b, 0) => format!("{b}b"),
            (_, w) => format!("{w}w"),
        }
    };
    let row = |points: &mut dyn Iterator<Item = u8>| -> String {
        let cells: Vec<String> = points.map(|p| format!("{:>4}", cell(p))).collect();
        format!("{} |{}", cells[..6].concat(), cells[6..].concat())
    };
    let numbers = |points: &mut dyn Iterator<Item = u8>| -> String {
        let cells: Vec<String> = points.map(|p| format!("{p:>4}")).collect();
        format!("{} |{}", cells[..6].concat(), cells[6..].concat())
    };
    let mut out = String::new();
    out.push_str(&numbers(&mut (13..=24)));
    out.push('\n');
    out.push_str(&row(&mut (13..=24)));
    out.push('\n');
    out.push_str(&row(&mut (1..=12).rev()));
    out.push('\n');
    out.push_str(&numbers(&mut (1..=12).rev()));
    out.push('\n');
    out.push_str(&format!(
        "bar b {} w {}  off b {} w {}\nsfen {}\nkey {:016x}\nside {}\n{}",
        pos.count(Seat::FIRST, BAR),
        pos.count(Seat::SECOND, BAR),
        pos.count(Seat::FIRST, OFF),
        pos.count(Seat::SECOND, OFF),
        pos.sfen(),
        pos.key(),
        side_letter(pos.side_to_move()),
        pos.status_details()
    ));
    out
}
