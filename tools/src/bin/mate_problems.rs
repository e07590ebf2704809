//! Finds mate problems in real games: plays the engine against itself (random
//! opening plies from the seed, then a node-limited search a move) and asks the
//! game's mate solver at every position; the first position of each game with a
//! forced mate of the wanted length is printed as a line of
//! `benches/mate_problems.txt` (`sfen | plies | note`), after the mating line
//! was replayed to checkmate by the rules.
//!
//! `cargo run --release -p yomi-tools --bin mate_problems -- --game annan \
//!    --games 20 --min 3 --max 15 --seed 1`

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
}

/// Whether `line` played from `sfen` ends the game by checkmate.
fn mates(session: &mut dyn GameSession, sfen: &str, line: &[String]) -> bool {
    let moves: Vec<&str> = line.iter().map(String::as_str).collect();
    session.set_position(Some(sfen), &moves).is_ok()
        && session
            .state()
            .outcome
            .is_some_and(|outcome| outcome.reason == "checkmate")
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let mut session = new_session(&args.game)?;
    if !session.has_mate_solver() {
        return Err(format!("{} has no mate solver", session.game()));
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
            let control = SearchControl::new(false);
            if let MateAnswer::Mate(line) = session.mate(&Limits::nodes(args.mate_nodes), &control)
            {
                if (args.min..=args.max).contains(&line.len()) {
                    let sfen = session.sfen();
                    if !mates(&mut *referee, &sfen, &line) {
                        return Err(format!("{sfen}: {} does not mate", line.join(" ")));
                    }
                    println!(
                        "{sfen} | {} | self-play seed {} game {game} ply {}",
                        line.len(),
                        args.seed,
                        moves.len()
                    );
                    break;
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
            moves.push(next);
        }
    }
    Ok(())
}
