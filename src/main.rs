//! `yomi`: with no arguments, the USI-like protocol on stdin/stdout (see
//! docs/protocol.md); with a subcommand, a one-shot tool (`perft`, `moves`,
//! `bench`, `review`, `record`) that prints its answer and exits, or prints an
//! error on stderr and exits with a nonzero status.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::Duration;
use yomi_engine::registry::new_session;
use yomi_engine::review::{self, PlyReview, ReviewScale, Verdict};
use yomi_engine::search::{Limits, Score};
use yomi_engine::session::GameSession;
use yomi_engine::Seat;
use yomi_protocol::output::{bench_line, bench_total_line, divide_line, review_end_line};
use yomi_protocol::record::{is_rule, Record};

#[derive(Parser)]
#[command(
    name = "yomi",
    version,
    about = "Yomi: a game-AI engine for Hasami, Annan and Yonin Shogi and Ban-Sugoroku"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand)]
enum Tool {
    /// Counts the leaf nodes of the move tree; the count is the last line.
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Print `<move>: <count>` for every legal move first.
        #[arg(long)]
        divide: bool,
    },
    /// Prints the legal moves, one per line.
    Moves {
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Searches fixed positions of every implemented game at a fixed depth.
    Bench {
        /// Depth instead of each game's bench depth.
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Reviews a whole game: per move the engine's best move, the values of
    /// both, the loss and a verdict (docs/review.md).
    Review {
        #[command(flatten)]
        game: GameArgs,
        /// Milliseconds a move (the default budget: 1000).
        #[arg(long)]
        movetime: Option<u64>,
        /// Nodes a move.
        #[arg(long)]
        nodes: Option<u64>,
        /// Depth a move.
        #[arg(long)]
        depth: Option<u32>,
        /// JSON lines (one per move, then a summary) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Prints a game's record, or checks one read with --record.
    Record {
        #[command(flatten)]
        game: GameArgs,
        /// line: one line (what a URL carries); usi: protocol lines; text:
        /// the readable record.
        #[arg(long, value_enum, default_value = "line")]
        format: RecordFormat,
        /// Readable record with kanji piece names (the shogi games).
        #[arg(long)]
        kanji: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum RecordFormat {
    Line,
    Usi,
    Text,
}

/// A whole game: from a record file, or as for the other tools.
#[derive(Args)]
struct GameArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// A record to read (one line or protocol lines; `-` for stdin) instead of
    /// --game, --sfen, --moves and the house rules of --set.
    #[arg(long, value_name = "FILE")]
    record: Option<String>,
}

impl GameArgs {
    /// The game as a record, checked, on a session of its own (with the
    /// engine options of --set).
    fn session(&self) -> Result<(Record, Box<dyn GameSession>), String> {
        let args = &self.position;
        let probe = new_session(&args.game)?;
        let mut rules = Vec::new();
        let mut options = Vec::new();
        for setting in &args.set {
            let Some((name, value)) = setting.split_once('=') else {
                return Err(format!("--set '{setting}': expected NAME=VALUE"));
            };
            let pair = (name.trim().to_string(), value.trim().to_string());
            match is_rule(&*probe, name.trim()) && self.record.is_none() {
                true => rules.push(pair),
                false => options.push(pair),
            }
        }
        let record = match &self.record {
            Some(path) => {
                let mut text = String::new();
                let read = match path.as_str() {
                    "-" => std::io::stdin().read_to_string(&mut text).map(|_| ()),
                    _ => std::fs::read_to_string(path).map(|t| text = t),
                };
                read.map_err(|e| format!("--record {path}: {e}"))?;
                Record::parse(&text).map_err(|e| format!("--record {path}: {e}"))?
            }
            None => {
                let mut moves: Vec<String> =
                    args.moves.split_whitespace().map(str::to_string).collect();
                moves.extend(args.dice.clone());
                Record {
                    game: args.game.clone(),
                    rules,
                    sfen: args.sfen.clone(),
                    moves,
                }
            }
        };
        let mut session = record.session(&[])?;
        for (name, value) in &options {
            set_option(&mut *session, name, value)?;
        }
        Ok((record, session))
    }
}

/// `--set NAME=VALUE` on `session`; an unknown name or a bad value is an error.
fn set_option(session: &mut dyn GameSession, name: &str, value: &str) -> Result<(), String> {
    match yomi_protocol::usi::set_option(session, name, value) {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!(
            "--set: unknown option '{name}' for {}",
            session.game()
        )),
        Err(e) => Err(format!("--set: {e}")),
    }
}

#[derive(Args)]
struct PositionArgs {
    /// hasami, annan, yonin or sugoroku.
    #[arg(long, default_value = yomi_engine::registry::NAMES[0])]
    game: String,
    /// The position in the game's notation (default: the start position).
    #[arg(long)]
    sfen: Option<String>,
    /// Moves played from the position, separated by spaces.
    #[arg(long, default_value = "")]
    moves: String,
    /// Sugoroku: the dice the side to move plays after the moves, e.g. 52 (the
    /// same as a last entry `52` of --moves).
    #[arg(long)]
    dice: Option<String>,
    /// A house rule or engine option, as NAME=VALUE; may be repeated.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

impl PositionArgs {
    fn session(&self) -> Result<Box<dyn GameSession>, String> {
        let mut session = new_session(&self.game)?;
        for setting in &self.set {
            let Some((name, value)) = setting.split_once('=') else {
                return Err(format!("--set '{setting}': expected NAME=VALUE"));
            };
            set_option(&mut *session, name.trim(), value.trim())?;
        }
        let mut moves: Vec<&str> = self.moves.split_whitespace().collect();
        moves.extend(self.dice.as_deref());
        session
            .set_position(self.sfen.as_deref(), &moves)
            .map_err(|e| e.to_string())?;
        Ok(session)
    }
}

fn run(tool: Tool) -> Result<(), String> {
    match tool {
        Tool::Perft {
            position,
            depth,
            divide,
        } => {
            let session = position.session()?;
            let (moves, total) = session.perft(depth);
            let divided = moves
                .iter()
                .filter(|_| divide)
                .map(|(mv, count)| divide_line(mv, *count));
            print_lines(divided.chain([total.to_string()]));
        }
        Tool::Moves { position } => print_lines(position.session()?.legal_moves()),
        Tool::Bench { depth } => {
            let reports = yomi_engine::bench::all(depth);
            let lines = reports
                .iter()
                .map(|(game, report)| bench_line(game, report));
            print_lines(lines.chain([bench_total_line(reports.iter().map(|(_, r)| r))]));
        }
        Tool::Review {
            game,
            movetime,
            nodes,
            depth,
            json,
        } => {
            let (record, mut session) = game.session()?;
            let limits = Limits {
                movetime: Some(Duration::from_millis(movetime.unwrap_or(1000)))
                    .filter(|_| movetime.is_some() || (nodes.is_none() && depth.is_none())),
                nodes,
                depth,
                ..Limits::default()
            };
            let scale = session.review_scale();
            let progress = std::io::stderr().is_terminal();
            let moves: Vec<&str> = record.moves.iter().map(String::as_str).collect();
            let reviews = review::review(
                &mut *session,
                record.sfen.as_deref(),
                &moves,
                &limits,
                &mut |review, done, total| {
                    if json {
                        print_lines([json_line(review, &scale)]);
                    }
                    if progress {
                        eprint!("\rreviewed {done}/{total} moves");
                    }
                    true
                },
            )
            .map_err(|e| e.to_string())?;
            if progress {
                eprint!("\r\x1b[K");
            }
            if json {
                let end = review_end_line(&reviews, false);
                let words: Vec<&str> = end.split(' ').skip(2).collect();
                let fields: Vec<String> = words
                    .chunks(2)
                    .map(|pair| format!("\"{}\":{}", pair[0], pair[1]))
                    .collect();
                print_lines([format!("{{\"end\":true,{}}}", fields.join(","))]);
            } else {
                print_lines(table(&reviews, &scale, &*session));
            }
        }
        Tool::Record {
            game,
            format,
            kanji,
        } => {
            let (record, session) = game.session()?;
            print_lines(match format {
                RecordFormat::Line => vec![record.line()],
                RecordFormat::Usi => record.protocol_lines(),
                RecordFormat::Text => record.readable(&*session, kanji),
            });
        }
    }
    Ok(())
}

/// A score as JSON: `{"cp":35}`, `{"mate":3}`, `{"points":0.431}`.
fn json_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{{\"cp\":{cp}}}"),
        Score::Mate(plies) => format!("{{\"mate\":{plies}}}"),
        Score::Points(milli) => format!(
            "{{\"points\":{}}}",
            ReviewScale::SUGOROKU.format(milli).trim_start_matches('+')
        ),
    }
}

/// One move of a review as a JSON object on one line (docs/review.md).
fn json_line(review: &PlyReview, scale: &ReviewScale) -> String {
    // Notation is ASCII without quotes or backslashes.
    let text = |t: Option<&str>| t.map_or("null".to_string(), |t| format!("\"{t}\""));
    let number = |v: i32| scale.format(v).trim_start_matches('+').to_string();
    let shares = review.shares.map_or("null".to_string(), |shares| {
        let shares: Vec<String> = shares
            .iter()
            .map(|&s| ReviewScale::YONIN.format(s))
            .collect();
        format!("[{}]", shares.join(","))
    });
    format!(
        "{{\"ply\":{},\"seat\":\"{}\",\"dice\":{},\"played\":\"{}\",\"best\":{},\"bestScore\":{},\"playedScore\":{},\"bestValue\":{},\"playedValue\":{},\"loss\":{},\"unit\":\"{}\",\"verdict\":\"{}\",\"shares\":{}}}",
        review.ply,
        review.seat,
        text(review.dice.as_deref()),
        review.played,
        text(review.best.as_deref()),
        json_score(review.best_score),
        json_score(review.played_score),
        number(review.best_value),
        number(review.played_value),
        scale.format_loss(review.loss),
        scale.unit_name(),
        review.verdict.name(),
        shares
    )
}

/// The review as a table for people, then each seat's count of each verdict
/// and the thresholds.
fn table(reviews: &[PlyReview], scale: &ReviewScale, session: &dyn GameSession) -> Vec<String> {
    let dice = reviews.iter().any(|r| r.dice.is_some());
    let shares = reviews.iter().any(|r| r.shares.is_some());
    let mut lines = vec![format!(
        "{:>4} {:<4} {}{:<14} {:<14} {:>9} {:>10} {:>8}  {:<10}{}",
        "ply",
        "seat",
        if dice { "dice " } else { "" },
        "played",
        "best",
        "value",
        "best value",
        "loss",
        "verdict",
        if shares { "  shares" } else { "" }
    )];
    for r in reviews {
        lines.push(format!(
            "{:>4} {:<4} {}{:<14} {:<14} {:>9} {:>10} {:>8}  {:<10}{}",
            r.ply,
            r.seat,
            r.dice
                .as_deref()
                .map_or(String::new(), |d| format!("{d:<4} ")),
            r.played,
            r.best.as_deref().unwrap_or("-"),
            scale.format(r.played_value),
            scale.format(r.best_value),
            scale.format_loss(r.loss),
            r.verdict.name(),
            r.shares.map_or(String::new(), |s| {
                let s: Vec<String> = s.iter().map(|&v| ReviewScale::YONIN.format(v)).collect();
                format!("  {}", s.join(" "))
            })
        ));
    }
    for seat in Seat::all(session.seats()) {
        let name = session.seat_name(seat);
        let counts: Vec<String> = [Verdict::Inaccuracy, Verdict::Mistake, Verdict::Blunder]
            .iter()
            .map(|&v| {
                let n = reviews
                    .iter()
                    .filter(|r| r.seat == name && r.verdict == v)
                    .count();
                format!("{} {n}", v.name())
            })
            .collect();
        lines.push(format!("seat {name}: {}", counts.join(", ")));
    }
    for line in &mut lines {
        line.truncate(line.trim_end().len());
    }
    let [inaccuracy, mistake, blunder] = scale.thresholds.map(|t| scale.format_loss(t));
    lines.push(format!(
        "values in {}; loss from {inaccuracy} an inaccuracy, {mistake} a mistake, {blunder} a blunder",
        scale.unit_name()
    ));
    lines
}

/// Prints one line each; a reader that stops reading (`| head -3`) ends the
/// output quietly instead of a panic on the closed pipe.
fn print_lines(lines: impl IntoIterator<Item = String>) {
    let mut out = std::io::stdout().lock();
    for line in lines {
        if writeln!(out, "{line}").is_err() {
            return;
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            yomi_protocol::run(std::io::stdin().lock(), std::io::stdout());
            ExitCode::SUCCESS
        }
        Some(tool) => match run(tool) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("yomi: error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}
