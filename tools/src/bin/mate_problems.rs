//! Finds mate problems in real games: plays the engine against itself (random
//! opening plies from the seed, then a node-limited search a move) and asks the
//! game's mate solver at every position; the first position of each game with a
//! forced mate of the wanted length is printed as a line of
//! `benches/mate_problems.txt` (`sfen | plies | note`), after the mating line
//! was replayed to checkmate by the rules.
//!
//! `cargo run --release -p yomi-tools --bin mate_problems -- --game annan \
//!    --games 20 --min 3 --max 15 --seed 1`
//!
//! With `--threats`, the mates looked for are the opponent's after the move
//! the self-play chooses (its threat guard off): the first position of each
//! game where that move lets the opponent mate within `--min`…`--max` plies
//! while another move is proven to let no mate through is printed as a line
//! of `benches/mate_threats.txt` (`sfen | losing move | plies | safe move |
//! note`), the mate replayed to checkmate.
//!
//! `cargo run --release -p yomi-tools --bin mate_problems -- --threats \
//!    --games 200 --min 9 --max 15 --seed 1`

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use yomi_engine::registry::new_session;
use yomi_engine::search::{Limits, SearchControl};
use yomi_engine::session::{GameSession, MateAnswer};

#[derive(Parser)]
#[command(about = "Finds forced mates in self-play games, verified by replay")]
struct Args {
    #[arg(long, default_value = "annan")]
    game: String,
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Node limit per move of the self-play.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Node limit of each mate search.
    #[arg(long, default_value_t = 50_000)]
    mate_nodes: u64,
    /// Shortest and longest mate (plies) worth a problem.
    #[arg(long, default_value_t = 3)]
    min: usize,
    #[arg(long, default_value_t = 15)]
    max: usize,
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Mates the self-play's move lets the opponent give, where a safe move exists.
    #[arg(long)]
    threats: bool,
}

/// Whether `line` played from `sfen` after `first` ends the game by checkmate.
fn mates(session: &mut dyn GameSession, sfen: &str, first: &[&str], line: &[String]) -> bool {
    let moves: Vec<&str> = first
        .iter()
        .copied()
        .chain(line.iter().map(String::as_str))
        .collect();
    session.set_position(Some(sfen), &moves).is_ok()
        && session
            .state()
            .outcome
            .is_some_and(|outcome| outcome.reason == "checkmate")
}

/// The mate the side to move has after `first` from `sfen`, as the solver
/// answers within `nodes`.
fn mate_after(
    session: &mut dyn GameSession,
    sfen: &str,
    first: &[&str],
    nodes: u64,
) -> MateAnswer<String> {
    if session.set_position(Some(sfen), first).is_err() {
        return MateAnswer::NoMate;
    }
    session.mate(&Limits::nodes(nodes), &SearchControl::new(false))
}

/// A move from `sfen` after which the solver proves the opponent has no mate.
fn safe_move(session: &mut dyn GameSession, sfen: &str, nodes: u64) -> Option<String> {
    session.set_position(Some(sfen), &[]).ok()?;
    let legal = session.legal_moves();
    legal
        .into_iter()
        .find(|mv| mate_after(session, sfen, &[mv.as_str()], nodes) == MateAnswer::NoMate)
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let mut session = new_session(&args.game)?;
    if !session.has_mate_solver() {
        return Err(format!("{} has no mate solver", session.game()));
    }
    if args.threats {
        // The engine as it played before the guard.
        session
            .set_option("Tune_MateThreatNodes", "0")
            .map_err(|e| e.to_string())?;
    }
    let mut referee = new_session(&args.game)?;
    for game in 0..args.games as u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed ^ (game << 32));
        session.new_game();
        session
            .set_option("Seed", &(args.seed + game).to_string())
            .map_err(|e| e.to_string())?;
        let mut moves: Vec<String> = Vec::new();
        while (moves.len() as u32) < args.max_plies {
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            session
                .set_position(None, &refs)
                .map_err(|e| e.to_string())?;
            if session.state().outcome.is_some() {
                break;
            }
            let sfen = session.sfen();
            let note = format!(
                "self-play seed {} game {game} ply {}",
                args.seed,
                moves.len()
            );
            if !args.threats {
                let control = SearchControl::new(false);
                if let MateAnswer::Mate(line) =
                    session.mate(&Limits::nodes(args.mate_nodes), &control)
                {
                    if (args.min..=args.max).contains(&line.len()) {
                        if !mates(&mut *referee, &sfen, &[], &line) {
                            return Err(format!("{sfen}: {} does not mate", line.join(" ")));
                        }
                        println!("{sfen} | {} | {note}", line.len());
                        break;
                    }
                }
            }
            let next = if (moves.len() as u32) < args.opening_plies {
                let legal = session.legal_moves();
                legal[rng.gen_range(0..legal.len())].clone()
            } else {
                let control = SearchControl::new(false);
                match session
                    .search(&Limits::nodes(args.nodes), &control, &mut |_| {})
                    .best
                {
                    Some(mv) => mv,
                    None => break,
                }
            };
            if args.threats {
                let first = [next.as_str()];
                if let MateAnswer::Mate(line) =
                    mate_after(&mut *referee, &sfen, &first, args.mate_nodes)
                {
                    if (args.min..=args.max).contains(&line.len()) {
                        if !mates(&mut *referee, &sfen, &first, &line) {
                            return Err(format!("{sfen} {next}: {} does not mate", line.join(" ")));
                        }
                        if let Some(safe) = safe_move(&mut *referee, &sfen, args.mate_nodes) {
                            println!("{sfen} | {next} | {} | {safe} | {note}", line.len());
                            break;
                        }
                    }
                }
            }
            moves.push(next);
        }
    }
    Ok(())
}
