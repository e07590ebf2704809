//! `yomi`: with no arguments, the USI-like protocol on stdin/stdout (see
//! docs/protocol.md); with a subcommand, a one-shot tool (`perft`, `moves`,
//! `bench`) that prints its answer and exits, or prints an error on stderr and
//! exits with a nonzero status.

use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use yomi_engine::registry::new_session;
use yomi_engine::session::GameSession;
use yomi_protocol::output::{bench_line, bench_total_line, divide_line};

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
            match session.set_option(name.trim(), value.trim()) {
                Ok(true) => {}
                Ok(false) => {
                    return Err(format!(
                        "--set: unknown option '{name}' for {}",
                        session.game()
                    ))
                }
                Err(e) => return Err(format!("--set: {e}")),
            }
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
    }
    Ok(())
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
