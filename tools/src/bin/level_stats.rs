//! How each strength level errs: self-play games of the level, every move it
//! plays judged by the full engine.
//!
//! `cargo run --release -p yomi-tools --bin level_stats -- --game hasami --games 4`
//!
//! Per level two figures:
//! - **hangs**: the share of its moves that a one-ply search (depth 1 with
//!   quiescence) rates at least `--hang` below that search's own best: material
//!   left en prise that the shallowest look would have seen;
//! - **loss**: the average score lost per move against the full engine's
//!   judgement (`--nodes` per judgement): its best move's score minus the
//!   played move's, mates counted as ±`MATE_AS`.
//!
//! Sugoroku's dice are rolled from the seed.

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use yomi_engine::registry::new_session;
use yomi_engine::search::{Limits, Score, SearchControl};
use yomi_engine::session::GameSession;

/// A mate as a score, for averaging: beyond any material swing.
const MATE_AS: i64 = 3000;

#[derive(Parser)]
#[command(about = "Measures how each strength level errs, judged by the full engine")]
struct Args {
    #[arg(long, default_value = yomi_engine::registry::NAMES[0])]
    game: String,
    /// Self-play games per level.
    #[arg(long, default_value_t = 4)]
    games: u32,
    /// Levels (`Level`) to measure, e.g. 0,5,10 (default: every level below full strength).
    #[arg(long, value_delimiter = ',')]
    levels: Vec<u32>,
    /// Nodes of the full engine's judgement of a move.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// A move this far below the one-ply best hangs material (centipawns;
    /// Sugoroku: thousandths of a point).
    #[arg(long, default_value_t = 100)]
    hang: i64,
    /// Plies after which a game stops.
    #[arg(long, default_value_t = 200)]
    max_plies: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn value(score: Score) -> i64 {
    match score {
        Score::Cp(v) | Score::Points(v) => v as i64,
        Score::Mate(n) if n > 0 => MATE_AS,
        Score::Mate(_) => -MATE_AS,
    }
}

/// The judge's score of the position with `limits`, restricted to `only` if given.
fn judged(judge: &mut dyn GameSession, limits: &Limits, only: Option<&str>) -> i64 {
    let limits = Limits {
        searchmoves: only.map(|mv| vec![mv.to_string()]).unwrap_or_default(),
        ..limits.clone()
    };
    let mut score = None;
    judge.search(&limits, &SearchControl::new(false), &mut |info| {
        if info.multipv == 1 {
            score = Some(info.score);
        }
    });
    score.map_or(0, value)
}

#[derive(Default)]
struct Tally {
    moves: u64,
    hangs: u64,
    loss: i64,
}

fn set_options(session: &mut dyn GameSession, options: &[(&str, String)]) -> Result<(), String> {
    for (name, value) in options {
        session
            .set_option(name, value)
            .map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// One self-play game of `level`, each of its moves judged.
fn play(game: &str, level: u32, seed: u64, args: &Args, tally: &mut Tally) -> Result<(), String> {
    let mut player = new_session(game)?;
    set_options(
        &mut *player,
        &[("Level", level.to_string()), ("Seed", seed.to_string())],
    )?;
    let mut judge = new_session(game)?;
    set_options(&mut *judge, &[("Threads", "1".into())])?;
    let mut dice = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves: Vec<String> = Vec::new();
    let one_ply = Limits::depth(1);
    let full = Limits::nodes(args.nodes);
    while (moves.len() as u32) < args.max_plies {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        player
            .set_position(None, &refs)
            .map_err(|e| e.to_string())?;
        let state = player.state();
        if state.outcome.is_some() {
            break;
        }
        if state.awaits_chance {
            let (a, b) = (dice.gen_range(1..=6), dice.gen_range(1..=6));
            moves.push(format!("{}{}", a.max(b), a.min(b)));
            continue;
        }
        let best = player.search(&Limits::default(), &SearchControl::new(false), &mut |_| {});
        let Some(mv) = best.best else { break };
        judge.set_position(None, &refs).map_err(|e| e.to_string())?;
        let shallow_best = judged(&mut *judge, &one_ply, None);
        let shallow_played = judged(&mut *judge, &one_ply, Some(&mv));
        let full_best = judged(&mut *judge, &full, None);
        let full_played = judged(&mut *judge, &full, Some(&mv));
        tally.moves += 1;
        tally.hangs += (shallow_best - shallow_played >= args.hang) as u64;
        tally.loss += (full_best - full_played).max(0);
        moves.push(mv);
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let entry = yomi_engine::registry::find(&args.game)?;
    let game = entry.name();
    let levels: Vec<u32> = if args.levels.is_empty() {
        (0..entry.profile.levels.count).collect()
    } else {
        args.levels.clone()
    };
    println!(
        "level_stats game {game} games {} judge nodes {} hang {} seed {}",
        args.games, args.nodes, args.hang, args.seed
    );
    println!("level  moves  hangs%  loss/move");
    for &level in &levels {
        let mut tally = Tally::default();
        for game_index in 0..args.games {
            let seed = args.seed ^ ((level as u64) << 32) ^ game_index as u64;
            play(game, level, seed, &args, &mut tally)?;
        }
        let moves = tally.moves.max(1) as f64;
        println!(
            "{level:>5}  {:>5}  {:>6.1}  {:>9.1}",
            tally.moves,
            100.0 * tally.hangs as f64 / moves,
            tally.loss as f64 / moves
        );
    }
    Ok(())
}
