//! Self-play between two settings of the engine, in process, for the two-player
//! games without dice (Hasami, Annan): a quick strength check for a search or
//! evaluation change, and a sanity run (every game must end by the rules without
//! an illegal move). Yonin and Sugoroku go through the match runner.
//!
//! Each engine is a session of its own with its own options, `Tune_…`
//! included, so two tunings play each other in one process:
//!
//! `cargo run --release -p yomi-tools --bin selfplay -- --game hasami --games 40 \
//!    --nodes 20000 --a Tune_HasamiHanging=60 --b Tune_HasamiHanging=36 --seed 1`
//!
//! Each opening (random plies from the seed) is played twice, colours swapped.

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use yomi_engine::core::game::GameResult;
use yomi_engine::registry::new_session;
use yomi_engine::search::{Limits, SearchControl};
use yomi_engine::session::GameSession;

#[derive(Parser)]
#[command(about = "Plays the engine against itself with two sets of options")]
struct Args {
    #[arg(long, default_value = yomi_engine::registry::NAMES[0])]
    game: String,
    /// Games in all (rounded up to an even number: each opening twice).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Node limit per move.
    #[arg(long, default_value_t = 10_000)]
    nodes: u64,
    /// Random plies played before the engines take over.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Options of engine A, NAME=VALUE (repeatable).
    #[arg(long = "a")]
    a_options: Vec<String>,
    /// Options of engine B, NAME=VALUE (repeatable).
    #[arg(long = "b")]
    b_options: Vec<String>,
}

fn session(game: &str, options: &[String]) -> Result<Box<dyn GameSession>, String> {
    let mut session = new_session(game)?;
    for option in options {
        let (name, value) = option
            .split_once('=')
            .ok_or_else(|| format!("option '{option}': expected NAME=VALUE"))?;
        match yomi_protocol::usi::set_option(&mut *session, name, value) {
            Ok(true) => {}
            Ok(false) => return Err(format!("unknown option '{name}'")),
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(session)
}

/// Plays one game; returns A's score (1, ½, 0) and the reason.
fn play(
    engines: &mut [Box<dyn GameSession>; 2],
    a_seat: usize,
    opening: &[String],
    args: &Args,
) -> Result<(f64, String), String> {
    let mut moves: Vec<String> = opening.to_vec();
    for engine in engines.iter_mut() {
        engine.new_game();
    }
    loop {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        for engine in engines.iter_mut() {
            engine
                .set_position(None, &refs)
                .map_err(|e| e.to_string())?;
        }
        let state = engines[0].state();
        if let Some(outcome) = state.outcome {
            let score = match outcome.result {
                GameResult::Win { winner, .. } if winner.index() == a_seat => 1.0,
                GameResult::Win { .. } => 0.0,
                _ => 0.5,
            };
            return Ok((score, outcome.reason.to_string()));
        }
        if moves.len() as u32 >= args.max_plies {
            return Ok((0.5, "adjudicated: ply limit".into()));
        }
        let to_move = state.to_move.index();
        let engine = if to_move == a_seat { 0 } else { 1 };
        let control = SearchControl::new(false);
        let best = engines[engine].search(&Limits::nodes(args.nodes), &control, &mut |_| {});
        match best.best {
            Some(mv) => moves.push(mv),
            None => return Err(format!("no move in a position not over: ply {}", state.ply)),
        }
    }
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let game = yomi_engine::registry::find(&args.game)?;
    if game.seats != 2 || game.profile.has_chance {
        return Err(format!(
            "selfplay plays the two-player games without dice; for {} use the match \
             runner (docs/match.md), which rotates seats and rolls dice",
            game.name()
        ));
    }
    let mut engines = [
        session(&args.game, &args.a_options)?,
        session(&args.game, &args.b_options)?,
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let pairs = args.games.div_ceil(2);
    println!(
        "selfplay game {} pairs {pairs} nodes {} seed {}",
        args.game, args.nodes, args.seed
    );
    for pair in 0..pairs {
        let mut opening = Vec::new();
        let mut probe = session(&args.game, &args.a_options)?;
        for _ in 0..args.opening_plies {
            let legal = probe.legal_moves();
            if legal.is_empty() {
                break;
            }
            opening.push(legal[rng.gen_range(0..legal.len())].clone());
            let refs: Vec<&str> = opening.iter().map(String::as_str).collect();
            probe.set_position(None, &refs).map_err(|e| e.to_string())?;
        }
        for a_seat in [0, 1] {
            let (score, reason) = play(&mut engines, a_seat, &opening, &args)?;
            match score {
                s if s > 0.75 => wins += 1,
                s if s < 0.25 => losses += 1,
                _ => draws += 1,
            }
            println!(
                "pair {pair} A as {} : {score} ({reason})  opening {}",
                if a_seat == 0 { "b" } else { "w" },
                opening.join(" ")
            );
        }
    }
    let games = (wins + draws + losses) as f64;
    let score = (wins as f64 + draws as f64 / 2.0) / games;
    let elo = if score <= 0.0 || score >= 1.0 {
        f64::NAN
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    };
    println!(
        "A vs B: +{wins} ={draws} -{losses}  score {:.3}  elo {elo:+.0}",
        score
    );
    Ok(())
}
