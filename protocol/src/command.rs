//! Commands as typed values: parsed from one input line, printed back by `Display`.
//!
//! Parsing only checks the shape of a line (known words, numbers where numbers
//! belong); whether a position or a move is legal is the game's business and is
//! checked when the command is applied.

use std::fmt;
use yomi_engine::core::{PerSeat, Seat};

/// Deepest `go depth`, `go perft` and `bench` depth accepted.
pub const MAX_DEPTH: u32 = 255;

/// One command of the protocol (see docs/protocol.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Usi,
    IsReady,
    /// `setoption name <name> [value <value>]`; `value` is `None` for buttons.
    SetOption {
        name: String,
        value: Option<String>,
    },
    UsiNewGame,
    /// `position startpos|sfen <sfen> [moves <m>…]`; `sfen` is `None` for `startpos`.
    Position {
        sfen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    /// `go perft <depth>` (extension).
    Perft {
        depth: u32,
    },
    /// `go mate [<ms>|infinite|nodes <n>]`: a mate search within `ms`
    /// milliseconds or `nodes` nodes; neither for `infinite` (or no limit).
    Mate {
        ms: Option<u64>,
        nodes: Option<u64>,
    },
    Stop,
    /// `ponderhit [btime … wtime … byoyomi …]`: the clock, when one is given
    /// (YaneuraOu's early ponder), replaces the one `go ponder` gave.
    PonderHit(GoClock),
    GameOver(GameOverResult),
    Quit,
    /// `d`: the board diagram (extension).
    Display,
    /// `moves`: the legal moves, one per line (extension).
    Moves,
    /// `status`: `status ongoing …` or `status over …` (extension).
    Status,
    /// `bench [depth]` (extension).
    Bench {
        depth: Option<u32>,
    },
    /// `review [movetime <ms>] [nodes <n>] [depth <d>]` (extension): a review
    /// of the game of the last `position`, each move searched within these.
    Review {
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
    },
    /// `record [usi | text [kanji] | load <record>]` (extension).
    Record(RecordCommand),
}

/// What `record` does (docs/review.md, "Records").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordCommand {
    /// `record`: the game as one line, `record <game> [Rule=value]… position …`.
    Line,
    /// `record usi`: the game as protocol lines.
    Usi,
    /// `record text [kanji]`: the readable record.
    Text { kanji: bool },
    /// `record load <record>`: sets the game, its rules and its position from
    /// a one-line record, all or nothing.
    Load(String),
}

/// `gameover win|lose|draw`, from the engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOverResult {
    Win,
    Lose,
    Draw,
}

/// The clock fields of `go` (and of `ponderhit`), in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoClock {
    /// Time left per seat: `btime`/`time0`, `wtime`/`time1`, `time2`, `time3`.
    pub time: PerSeat<Option<u64>>,
    /// Increment per seat: `binc`/`inc0`, `winc`/`inc1`, `inc2`, `inc3`.
    pub inc: PerSeat<Option<u64>>,
    pub byoyomi: Option<u64>,
}

impl GoClock {
    /// Whether any field was given.
    pub fn is_set(&self) -> bool {
        self.time.iter().chain(&self.inc).any(Option::is_some) || self.byoyomi.is_some()
    }
}

/// The parameters of `go`; times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub clock: GoClock,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// `searchmoves m1 m2 …`: only these root moves (notation as given).
    pub searchmoves: Vec<String>,
}

/// A line that is not a well-formed command; the message says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CommandError {}

fn error(message: impl Into<String>) -> CommandError {
    CommandError(message.into())
}

/// Input echoed in messages: at most 40 characters, in ASCII (see
/// [`yomi_engine::core::error::quote`]).
pub fn echo(text: &str) -> String {
    yomi_engine::core::error::quote(text, 40)
}

impl Command {
    /// Parses one line (without its line end). `Ok(None)` for a blank line.
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&word, args)) = tokens.split_first() else {
            return Ok(None);
        };
        let no_args = |command: Command| -> Result<Option<Command>, CommandError> {
            match args.first() {
                None => Ok(Some(command)),
                Some(extra) => Err(error(format!(
                    "{word}: unexpected '{}' (it takes no arguments)",
                    echo(extra)
                ))),
            }
        };
        match word {
            "usi" => no_args(Command::Usi),
            "isready" => no_args(Command::IsReady),
            "usinewgame" => no_args(Command::UsiNewGame),
            "stop" => no_args(Command::Stop),
            "ponderhit" => parse_ponderhit(args).map(Some),
            "quit" => no_args(Command::Quit),
            "d" => no_args(Command::Display),
            "moves" => no_args(Command::Moves),
            "status" => no_args(Command::Status),
            "setoption" => parse_setoption(args).map(Some),
            "position" => parse_position(args).map(Some),
            "go" => parse_go(args).map(Some),
            "gameover" => parse_gameover(args).map(Some),
            "bench" => match args {
                [] => Ok(Some(Command::Bench { depth: None })),
                [depth] => Ok(Some(Command::Bench {
                    depth: Some(parse_depth("bench", depth)?),
                })),
                [_, extra, ..] => Err(error(format!(
                    "bench: unexpected '{}' (expected 'bench [depth]')",
                    echo(extra)
                ))),
            },
            "review" => parse_review(args).map(Some),
            "record" => match args {
                [] => Ok(Some(Command::Record(RecordCommand::Line))),
                ["usi"] => Ok(Some(Command::Record(RecordCommand::Usi))),
                ["text"] => Ok(Some(Command::Record(RecordCommand::Text { kanji: false }))),
                ["text", "kanji"] => Ok(Some(Command::Record(RecordCommand::Text { kanji: true }))),
                ["load"] => Err(error("record load: the record is missing")),
                ["load", record @ ..] => Ok(Some(Command::Record(RecordCommand::Load(
                    record.join(" "),
                )))),
                [other, ..] => Err(error(format!(
                    "record: unexpected '{}' (expected 'record [usi | text [kanji] | load <record>]')",
                    echo(other)
                ))),
            },
            other => Err(error(format!("unknown command '{}'", echo(other)))),
        }
    }
}

fn parse_review(args: &[&str]) -> Result<Command, CommandError> {
    let (mut movetime, mut nodes, mut depth) = (None, None, None);
    let mut tokens = args.iter();
    while let Some(&word) = tokens.next() {
        let Some(&value) = tokens.next() else {
            return Err(error(format!("review {word}: missing value")));
        };
        match word {
            "movetime" => movetime = Some(parse_time("review", word, value)?.max(1)),
            "nodes" => nodes = Some(parse_nodes("review nodes", value)?),
            "depth" => depth = Some(parse_depth("review depth", value)?),
            _ => {
                return Err(error(format!(
                    "review: unknown parameter '{}' (expected movetime, nodes or depth)",
                    echo(word)
                )))
            }
        }
    }
    if movetime.is_none() && nodes.is_none() && depth.is_none() {
        return Err(error(
            "review: give a budget a move: movetime <ms>, nodes <n> or depth <d>",
        ));
    }
    Ok(Command::Review {
        movetime,
        nodes,
        depth,
    })
}

fn parse_setoption(args: &[&str]) -> Result<Command, CommandError> {
    let usage = "expected 'setoption name <name> [value <value>]'";
    match args.first() {
        Some(&"name") => {}
        Some(other) => {
            return Err(error(format!(
                "setoption: unexpected '{}', {usage}",
                echo(other)
            )))
        }
        None => return Err(error(format!("setoption: missing name, {usage}"))),
    }
    let rest = &args[1..];
    let (name, value) = match rest.iter().position(|&t| t == "value") {
        Some(at) => (&rest[..at], Some(rest[at + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(error(format!("setoption: missing name, {usage}")));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(args: &[&str]) -> Result<Command, CommandError> {
    let usage = "expected 'position startpos|sfen <sfen> [moves ...]'";
    let (sfen, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (None, rest),
        Some((&"sfen", rest)) => {
            let end = rest
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(rest.len());
            if end == 0 {
                return Err(error("position sfen: the SFEN is missing"));
            }
            (Some(rest[..end].join(" ")), &rest[end..])
        }
        Some((other, _)) => {
            return Err(error(format!(
                "position: unexpected '{}', {usage}",
                echo(other)
            )))
        }
        None => return Err(error(format!("position: {usage}"))),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|m| m.to_string()).collect(),
        Some((other, _)) => {
            return Err(error(format!(
                "position: unexpected '{}', {usage}",
                echo(other)
            )))
        }
    };
    Ok(Command::Position { sfen, moves })
}

fn parse_gameover(args: &[&str]) -> Result<Command, CommandError> {
    let result = match args {
        ["win"] => GameOverResult::Win,
        ["lose"] => GameOverResult::Lose,
        ["draw"] => GameOverResult::Draw,
        [] => {
            return Err(error(
                "gameover: missing result, expected win, lose or draw",
            ))
        }
        [other] => {
            return Err(error(format!(
                "gameover: '{}' is not a result, expected win, lose or draw",
                echo(other)
            )))
        }
        [_, extra, ..] => return Err(error(format!("gameover: unexpected '{}'", echo(extra)))),
    };
    Ok(Command::GameOver(result))
}

fn parse_depth(what: &str, text: &str) -> Result<u32, CommandError> {
    match text.parse::<u32>() {
        Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(d),
        _ => Err(error(format!(
            "{what}: depth '{}' is not a number from 1 to {MAX_DEPTH}",
            echo(text)
        ))),
    }
}

/// A time in milliseconds; negative times (some GUIs send them when a clock runs
/// out) count as 0.
fn parse_time(command: &str, what: &str, text: &str) -> Result<u64, CommandError> {
    match text.parse::<i64>() {
        Ok(ms) => Ok(ms.max(0) as u64),
        Err(_) => Err(error(format!(
            "{command} {what}: '{}' is not a number of milliseconds",
            echo(text)
        ))),
    }
}

fn parse_nodes(what: &str, text: &str) -> Result<u64, CommandError> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(error(format!(
            "{what}: '{}' is not a positive number",
            echo(text)
        ))),
    }
}

/// `btime`, `time2`, `winc`, … as (is an increment, seat).
fn seat_clock_field(word: &str) -> Option<(bool, Seat)> {
    match word {
        "btime" => Some((false, Seat::FIRST)),
        "wtime" => Some((false, Seat::SECOND)),
        "binc" => Some((true, Seat::FIRST)),
        "winc" => Some((true, Seat::SECOND)),
        _ => {
            let (is_increment, seat) = match word.strip_prefix("time") {
                Some(seat) => (false, seat),
                None => (true, word.strip_prefix("inc")?),
            };
            match seat {
                "0" | "1" | "2" | "3" => Some((is_increment, Seat::new(seat.parse().ok()?))),
                _ => None,
            }
        }
    }
}

/// Reads one clock field (`btime 1000`, `byoyomi 500`, …) into `clock`;
/// `Ok(false)` when `word` is not a clock field.
fn parse_clock_field<'a>(
    what: &str,
    word: &str,
    tokens: &mut impl Iterator<Item = &'a &'a str>,
    clock: &mut GoClock,
) -> Result<bool, CommandError> {
    let field = match (word, seat_clock_field(word)) {
        ("byoyomi", _) => &mut clock.byoyomi,
        (_, Some((false, seat))) => &mut clock.time[seat],
        (_, Some((true, seat))) => &mut clock.inc[seat],
        (_, None) => return Ok(false),
    };
    let Some(&value) = tokens.next() else {
        return Err(error(format!("{what} {word}: missing value")));
    };
    *field = Some(parse_time(what, word, value)?);
    Ok(true)
}

fn parse_ponderhit(args: &[&str]) -> Result<Command, CommandError> {
    let mut clock = GoClock::default();
    let mut tokens = args.iter();
    while let Some(&word) = tokens.next() {
        if !parse_clock_field("ponderhit", word, &mut tokens, &mut clock)? {
            return Err(error(format!(
                "ponderhit: unexpected '{}' (it takes only clock fields: btime, wtime, binc, winc, byoyomi, time0..3, inc0..3)",
                echo(word)
            )));
        }
    }
    Ok(Command::PonderHit(clock))
}

/// The words that begin a `go` parameter (and end a `searchmoves` list).
fn is_go_word(word: &str) -> bool {
    matches!(
        word,
        "infinite" | "ponder" | "byoyomi" | "movetime" | "depth" | "nodes" | "searchmoves" | "mate"
    ) || seat_clock_field(word).is_some()
}

fn parse_go(args: &[&str]) -> Result<Command, CommandError> {
    match args.first() {
        Some(&"perft") => {
            return match &args[1..] {
                [depth] => match depth.parse::<u32>() {
                    Ok(depth) if depth <= MAX_DEPTH => Ok(Command::Perft { depth }),
                    _ => Err(error(format!(
                        "go perft: depth '{}' is not a number from 0 to {MAX_DEPTH}",
                        echo(depth)
                    ))),
                },
                [] => Err(error("go perft: missing depth")),
                [_, extra, ..] => Err(error(format!("go perft: unexpected '{}'", echo(extra)))),
            }
        }
        Some(&"mate") => {
            let (ms, nodes) = match &args[1..] {
                [] | ["infinite"] => (None, None),
                ["nodes", n] => (None, Some(parse_nodes("go mate nodes", n)?)),
                ["nodes"] => return Err(error("go mate nodes: missing value")),
                [ms] => (Some(parse_time("go", "mate", ms)?), None),
                [_, extra, ..] => {
                    return Err(error(format!("go mate: unexpected '{}'", echo(extra))))
                }
            };
            return Ok(Command::Mate { ms, nodes });
        }
        _ => {}
    }
    let mut go = Go::default();
    let mut tokens = args.iter().peekable();
    while let Some(&word) = tokens.next() {
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(&&mv) = tokens.peek() {
                    if is_go_word(mv) {
                        break;
                    }
                    go.searchmoves.push(mv.to_string());
                    tokens.next();
                }
                if go.searchmoves.is_empty() {
                    return Err(error("go searchmoves: no move given"));
                }
            }
            "mate" => {
                return Err(error(
                    "go mate: give it alone ('go mate <ms>' or 'go mate infinite')",
                ))
            }
            "movetime" | "depth" | "nodes" => {
                let Some(&value) = tokens.next() else {
                    return Err(error(format!("go {word}: missing value")));
                };
                match word {
                    "movetime" => go.movetime = Some(parse_time("go", word, value)?),
                    "depth" => go.depth = Some(parse_depth("go depth", value)?),
                    _ => go.nodes = Some(parse_nodes("go nodes", value)?),
                }
            }
            _ => {
                if !parse_clock_field("go", word, &mut tokens, &mut go.clock)? {
                    return Err(error(format!("go: unknown parameter '{}'", echo(word))));
                }
            }
        }
    }
    Ok(Command::Go(go))
}

impl fmt::Display for GameOverResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameOverResult::Win => "win",
            GameOverResult::Lose => "lose",
            GameOverResult::Draw => "draw",
        })
    }
}

impl fmt::Display for GoClock {
    /// The fields with a leading space each: two-player clocks as USI has
    /// them, four as time0 … time3.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let four = self
            .time
            .iter()
            .skip(2)
            .chain(self.inc.iter().skip(2))
            .any(Option::is_some);
        let (time_names, inc_names) = if four {
            (
                ["time0", "time1", "time2", "time3"],
                ["inc0", "inc1", "inc2", "inc3"],
            )
        } else {
            (
                ["btime", "wtime", "time2", "time3"],
                ["binc", "winc", "inc2", "inc3"],
            )
        };
        for (names, values) in [(time_names, self.time), (inc_names, self.inc)] {
            for (name, value) in names.iter().zip(values) {
                if let Some(value) = value {
                    write!(f, " {name} {value}")?;
                }
            }
        }
        if let Some(byoyomi) = self.byoyomi {
            write!(f, " byoyomi {byoyomi}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        write!(f, "{}", self.clock)?;
        for (name, value) in [("movetime", self.movetime), ("nodes", self.nodes)] {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if let Some(depth) = self.depth {
            write!(f, " depth {depth}")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Usi => f.write_str("usi"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value: None } => write!(f, "setoption name {name}"),
            Command::SetOption {
                name,
                value: Some(value),
            } => write!(f, "setoption name {name} value {value}"),
            Command::UsiNewGame => f.write_str("usinewgame"),
            Command::Position { sfen, moves } => {
                match sfen {
                    None => f.write_str("position startpos")?,
                    Some(sfen) => write!(f, "position sfen {sfen}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "{go}"),
            Command::Perft { depth } => write!(f, "go perft {depth}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit(clock) => write!(f, "ponderhit{clock}"),
            Command::Mate { ms: Some(ms), .. } => write!(f, "go mate {ms}"),
            Command::Mate {
                nodes: Some(nodes), ..
            } => write!(f, "go mate nodes {nodes}"),
            Command::Mate { .. } => f.write_str("go mate infinite"),
            Command::GameOver(result) => write!(f, "gameover {result}"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Moves => f.write_str("moves"),
            Command::Status => f.write_str("status"),
            Command::Bench { depth: None } => f.write_str("bench"),
            Command::Bench { depth: Some(depth) } => write!(f, "bench {depth}"),
            Command::Review {
                movetime,
                nodes,
                depth,
            } => {
                f.write_str("review")?;
                for (name, value) in [("movetime", *movetime), ("nodes", *nodes)] {
                    if let Some(value) = value {
                        write!(f, " {name} {value}")?;
                    }
                }
                if let Some(depth) = depth {
                    write!(f, " depth {depth}")?;
                }
                Ok(())
            }
            Command::Record(RecordCommand::Line) => f.write_str("record"),
            Command::Record(RecordCommand::Usi) => f.write_str("record usi"),
            Command::Record(RecordCommand::Text { kanji: false }) => f.write_str("record text"),
            Command::Record(RecordCommand::Text { kanji: true }) => {
                f.write_str("record text kanji")
            }
            Command::Record(RecordCommand::Load(record)) => write!(f, "record load {record}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(f: impl FnOnce(&mut Go)) -> Command {
        let mut go = Go::default();
        f(&mut go);
        Command::Go(go)
    }

    const START: &str = "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1";

    #[test]
    fn good_lines_parse_and_print_back() {
        let table: Vec<(&str, Command, &str)> = vec![
            ("usi", Command::Usi, "usi"),
            ("  isready \t", Command::IsReady, "isready"),
            ("usinewgame", Command::UsiNewGame, "usinewgame"),
            (
                "setoption name USI_Hash value 128",
                Command::SetOption {
                    name: "USI_Hash".into(),
                    value: Some("128".into()),
                },
                "setoption name USI_Hash value 128",
            ),
            (
                "setoption name Clear Hash",
                Command::SetOption {
                    name: "Clear Hash".into(),
                    value: None,
                },
                "setoption name Clear Hash",
            ),
            (
                "setoption name Book File value my  book.bin",
                Command::SetOption {
                    name: "Book File".into(),
                    value: Some("my book.bin".into()),
                },
                "setoption name Book File value my book.bin",
            ),
            (
                "setoption name USI_Variant value",
                Command::SetOption {
                    name: "USI_Variant".into(),
                    value: Some(String::new()),
                },
                "setoption name USI_Variant value ",
            ),
            (
                "position startpos",
                Command::Position {
                    sfen: None,
                    moves: vec![],
                },
                "position startpos",
            ),
            (
                "position startpos moves",
                Command::Position {
                    sfen: None,
                    moves: vec![],
                },
                "position startpos",
            ),
            (
                "position startpos moves 9i9h 1a1b",
                Command::Position {
                    sfen: None,
                    moves: vec!["9i9h".into(), "1a1b".into()],
                },
                "position startpos moves 9i9h 1a1b",
            ),
            (
                "position sfen ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP  b - 1 moves 9i9h",
                Command::Position {
                    sfen: Some(START.into()),
                    moves: vec!["9i9h".into()],
                },
                "position sfen ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1 moves 9i9h",
            ),
            ("go", go(|_| {}), "go"),
            ("go infinite", go(|g| g.infinite = true), "go infinite"),
            ("go depth 5", go(|g| g.depth = Some(5)), "go depth 5"),
            (
                "go nodes 10000",
                go(|g| g.nodes = Some(10_000)),
                "go nodes 10000",
            ),
            (
                "go movetime 250",
                go(|g| g.movetime = Some(250)),
                "go movetime 250",
            ),
            (
                "go btime 60000 wtime 50000 byoyomi 1000",
                go(|g| {
                    g.clock.time = PerSeat::new([Some(60_000), Some(50_000), None, None]);
                    g.clock.byoyomi = Some(1_000);
                }),
                "go btime 60000 wtime 50000 byoyomi 1000",
            ),
            (
                "go ponder btime -5 wtime 0 binc 100 winc 200",
                go(|g| {
                    g.ponder = true;
                    g.clock.time = PerSeat::new([Some(0), Some(0), None, None]);
                    g.clock.inc = PerSeat::new([Some(100), Some(200), None, None]);
                }),
                "go ponder btime 0 wtime 0 binc 100 winc 200",
            ),
            (
                "go time0 1000 time1 2000 time2 3000 time3 4000 inc2 50 byoyomi 0",
                go(|g| {
                    g.clock.time =
                        PerSeat::new([Some(1_000), Some(2_000), Some(3_000), Some(4_000)]);
                    g.clock.inc[Seat::new(2)] = Some(50);
                    g.clock.byoyomi = Some(0);
                }),
                "go time0 1000 time1 2000 time2 3000 time3 4000 inc2 50 byoyomi 0",
            ),
            (
                "go time0 500 time1 600",
                go(|g| g.clock.time = PerSeat::new([Some(500), Some(600), None, None])),
                "go btime 500 wtime 600",
            ),
            ("go perft 3", Command::Perft { depth: 3 }, "go perft 3"),
            ("go perft 0", Command::Perft { depth: 0 }, "go perft 0"),
            ("stop", Command::Stop, "stop"),
            (
                "ponderhit",
                Command::PonderHit(GoClock::default()),
                "ponderhit",
            ),
            (
                "ponderhit btime 1000 wtime 1000 byoyomi 500",
                Command::PonderHit(GoClock {
                    time: PerSeat::new([Some(1_000), Some(1_000), None, None]),
                    byoyomi: Some(500),
                    ..GoClock::default()
                }),
                "ponderhit btime 1000 wtime 1000 byoyomi 500",
            ),
            (
                "ponderhit time0 1 time1 2 time2 3 time3 4 inc3 5",
                Command::PonderHit(GoClock {
                    time: PerSeat::new([Some(1), Some(2), Some(3), Some(4)]),
                    inc: PerSeat::new([None, None, None, Some(5)]),
                    byoyomi: None,
                }),
                "ponderhit time0 1 time1 2 time2 3 time3 4 inc3 5",
            ),
            (
                "go searchmoves 9i9h 1i1b depth 3",
                go(|g| {
                    g.searchmoves = vec!["9i9h".into(), "1i1b".into()];
                    g.depth = Some(3);
                }),
                "go depth 3 searchmoves 9i9h 1i1b",
            ),
            (
                "go btime 10 searchmoves 24/18,13/11",
                go(|g| {
                    g.clock.time[Seat::FIRST] = Some(10);
                    g.searchmoves = vec!["24/18,13/11".into()];
                }),
                "go btime 10 searchmoves 24/18,13/11",
            ),
            (
                "go mate 5000",
                Command::Mate {
                    ms: Some(5_000),
                    nodes: None,
                },
                "go mate 5000",
            ),
            (
                "go mate infinite",
                Command::Mate {
                    ms: None,
                    nodes: None,
                },
                "go mate infinite",
            ),
            (
                "go mate",
                Command::Mate {
                    ms: None,
                    nodes: None,
                },
                "go mate infinite",
            ),
            (
                "go mate nodes 100000",
                Command::Mate {
                    ms: None,
                    nodes: Some(100_000),
                },
                "go mate nodes 100000",
            ),
            (
                "gameover win",
                Command::GameOver(GameOverResult::Win),
                "gameover win",
            ),
            (
                "gameover lose",
                Command::GameOver(GameOverResult::Lose),
                "gameover lose",
            ),
            (
                "gameover draw",
                Command::GameOver(GameOverResult::Draw),
                "gameover draw",
            ),
            ("quit", Command::Quit, "quit"),
            ("d", Command::Display, "d"),
            ("moves", Command::Moves, "moves"),
            ("status", Command::Status, "status"),
            ("bench", Command::Bench { depth: None }, "bench"),
            ("bench 3", Command::Bench { depth: Some(3) }, "bench 3"),
            (
                "review nodes 5000 movetime 200",
                Command::Review {
                    movetime: Some(200),
                    nodes: Some(5_000),
                    depth: None,
                },
                "review movetime 200 nodes 5000",
            ),
            ("record", Command::Record(RecordCommand::Line), "record"),
            (
                "record usi",
                Command::Record(RecordCommand::Usi),
                "record usi",
            ),
            (
                "record text kanji",
                Command::Record(RecordCommand::Text { kanji: true }),
                "record text kanji",
            ),
            (
                "record load annan  position startpos moves 7g7f",
                Command::Record(RecordCommand::Load(
                    "annan position startpos moves 7g7f".into(),
                )),
                "record load annan position startpos moves 7g7f",
            ),
        ];
        for (line, command, printed) in table {
            assert_eq!(Command::parse(line), Ok(Some(command.clone())), "{line}");
            assert_eq!(command.to_string(), printed, "{line}");
            if !matches!(command, Command::SetOption { .. }) {
                assert_eq!(
                    Command::parse(printed),
                    Ok(Some(command)),
                    "round trip of {printed}"
                );
            }
        }
    }

    #[test]
    fn blank_lines_are_nothing() {
        assert_eq!(Command::parse(""), Ok(None));
        assert_eq!(Command::parse(" \t "), Ok(None));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let table = [
            ("foo", "unknown command 'foo'"),
            ("USI", "unknown command 'USI'"),
            ("usi now", "usi: unexpected 'now'"),
            ("isready 1", "isready: unexpected '1'"),
            ("setoption", "setoption: missing name"),
            ("setoption name", "setoption: missing name"),
            ("setoption name value 3", "setoption: missing name"),
            ("setoption USI_Hash 3", "setoption: unexpected 'USI_Hash'"),
            ("position", "position: expected"),
            ("position sfen", "position sfen: the SFEN is missing"),
            (
                "position sfen moves 9i9h",
                "position sfen: the SFEN is missing",
            ),
            ("position startpos 9i9h", "position: unexpected '9i9h'"),
            ("position start", "position: unexpected 'start'"),
            ("go depth", "go depth: missing value"),
            ("go depth abc", "go depth: depth 'abc' is not a number"),
            ("go depth 0", "go depth: depth '0' is not a number"),
            ("go depth -1", "go depth: depth '-1' is not a number"),
            (
                "go depth 99999999999",
                "go depth: depth '99999999999' is not a number",
            ),
            ("go nodes 0", "go nodes: '0' is not a positive number"),
            (
                "go btime x",
                "go btime: 'x' is not a number of milliseconds",
            ),
            ("go time4 100", "go: unknown parameter 'time4'"),
            ("go inc3", "go inc3: missing value"),
            ("go movetime", "go movetime: missing value"),
            ("go mate nodes", "go mate nodes: missing value"),
            (
                "go mate nodes 0",
                "go mate nodes: '0' is not a positive number",
            ),
            ("go mate x", "go mate: 'x' is not a number of milliseconds"),
            ("go mate 5 6", "go mate: unexpected '6'"),
            ("go depth 3 mate 5", "go mate: give it alone"),
            ("go searchmoves", "go searchmoves: no move given"),
            ("go searchmoves depth 3", "go searchmoves: no move given"),
            ("ponderhit now", "ponderhit: unexpected 'now'"),
            ("ponderhit btime", "ponderhit btime: missing value"),
            ("ponderhit depth 3", "ponderhit: unexpected 'depth'"),
            (
                "ponderhit byoyomi x",
                "ponderhit byoyomi: 'x' is not a number",
            ),
            ("go infinite 5", "go: unknown parameter '5'"),
            ("go perft", "go perft: missing depth"),
            ("go perft x", "go perft: depth 'x' is not a number"),
            ("go perft 1 2", "go perft: unexpected '2'"),
            ("gameover", "gameover: missing result"),
            ("gameover won", "gameover: 'won' is not a result"),
            ("gameover win now", "gameover: unexpected 'now'"),
            ("bench x", "bench: depth 'x' is not a number"),
            ("bench 1 2", "bench: unexpected '2'"),
            ("review", "review: give a budget"),
            ("review nodes", "review nodes: missing value"),
            (
                "review nodes 0",
                "review nodes: '0' is not a positive number",
            ),
            ("review ply 3", "review: unknown parameter 'ply'"),
            ("record load", "record load: the record is missing"),
            ("record kifu", "record: unexpected 'kifu'"),
        ];
        for (line, message) in table {
            match Command::parse(line) {
                Err(CommandError(text)) => {
                    assert!(text.starts_with(message), "{line}: got '{text}'")
                }
                other => panic!("{line}: expected an error, got {other:?}"),
            }
        }
    }

    #[test]
    fn echoed_input_is_short_and_printable() {
        let long = "x".repeat(1_000_000);
        let Err(CommandError(text)) = Command::parse(&long) else {
            panic!()
        };
        assert!(text.len() < 100, "{text}");
        assert_eq!(echo("a\u{1b}b"), "a?b");
    }
}
