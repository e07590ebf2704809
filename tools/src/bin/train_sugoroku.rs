//! Trains the Sugoroku network by TD(λ) self-play (see `yomi_tools::train`).
//!
//! The embedded network (`engine/src/sugoroku/net.bin`) was made by the command
//! in docs/rules/sugoroku.md, "The network". A run writes its weights and a
//! `.state` file beside them every `--checkpoint-every` games; `--resume`
//! carries on from there and gives the same network as a run never stopped.
//! Every `--bench-every` games it plays the network at 0 ply against the
//! hand-made evaluation at 0 ply on duplicate dice (default rules) and appends
//! the points per game to `--curve`.
//!
//! On many machines: a round of `--games G` is split into `--shard I/N`, each
//! shard training its share of the round's games (by game number, so by seed)
//! from the same checkpoint `--from`, and `--merge` averages the shards into
//! the next checkpoint (see docs/rules/sugoroku.md, "Training on many
//! machines").

use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use yomi_engine::sugoroku::duel::{duel, Player};
use yomi_engine::sugoroku::net::Networks;
use yomi_engine::sugoroku::{Evaluation, SugorokuRules};
use yomi_tools::train::{average_sets, parse_state, shard_games, state_text, train_game, Settings};

#[derive(Parser)]
#[command(about = "Trains the Sugoroku network by TD(lambda) self-play")]
struct Args {
    /// Train until this many games in all (a resumed run counts those before).
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Hidden units of the contact network.
    #[arg(long, default_value_t = 256)]
    hidden: usize,
    /// Hidden units of the race network (0: none; the contact network plays races).
    #[arg(long, default_value_t = 128)]
    race_hidden: usize,
    #[arg(long, default_value_t = 0.01)]
    alpha: f32,
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// The weights file written (and its `.state` beside it).
    #[arg(long)]
    out: PathBuf,
    /// Carry on from the checkpoint at `--out`.
    #[arg(long)]
    resume: bool,
    #[arg(long, default_value_t = 5_000)]
    checkpoint_every: u64,
    /// Games between benchmarks (0: none).
    #[arg(long, default_value_t = 10_000)]
    bench_every: u64,
    /// Pairs of duplicate-dice games per benchmark.
    #[arg(long, default_value_t = 200)]
    bench_pairs: u32,
    /// Benchmark against this network file at 0 ply (default: the hand-made evaluation).
    #[arg(long)]
    opponent: Option<PathBuf>,
    /// The training curve, `games,points_per_game,interval` per benchmark.
    #[arg(long)]
    curve: Option<PathBuf>,
    /// Start from this checkpoint (weights and `.state`) rather than at random.
    #[arg(long)]
    from: Option<PathBuf>,
    /// Train only shard I of N of a round of `--games` games after `--from`'s.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Average these shard checkpoints of one round into `--out`.
    #[arg(long, num_args = 1..)]
    merge: Vec<PathBuf>,
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let (i, n) = text.split_once('/').ok_or("expected I/N, e.g. 0/8")?;
    let (i, n): (u64, u64) = (
        i.parse().map_err(|e| format!("shard index: {e}"))?,
        n.parse().map_err(|e| format!("shard count: {e}"))?,
    );
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: the index must be below the count"));
    }
    Ok((i, n))
}

/// A checkpoint: the weights and their `.state`.
fn read_checkpoint(path: &std::path::Path) -> Result<(Settings, Networks, u64), String> {
    let state = std::fs::read_to_string(state_path(path))
        .map_err(|e| format!("{}: {e}", state_path(path).display()))?;
    let (settings, done) = parse_state(&state)?;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((settings, Networks::from_bytes(&bytes)?, done))
}

fn state_path(out: &std::path::Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".state");
    PathBuf::from(name)
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("train_sugoroku: {e}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), String> {
    if !args.merge.is_empty() {
        let shards: Vec<(Settings, Networks, u64)> = args
            .merge
            .iter()
            .map(|p| read_checkpoint(p))
            .collect::<Result<_, _>>()?;
        let (settings, _, done) = shards[0].clone();
        if shards.iter().any(|(s, _, d)| *s != settings || *d != done) {
            return Err("the shards to merge come from different runs or rounds".into());
        }
        let networks: Vec<Networks> = shards.into_iter().map(|(_, n, _)| n).collect();
        let merged = average_sets(&networks)?;
        std::fs::write(&args.out, merged.to_bytes())
            .map_err(|e| format!("{}: {e}", args.out.display()))?;
        return std::fs::write(state_path(&args.out), state_text(&settings, done))
            .map_err(|e| format!("{}: {e}", state_path(&args.out).display()));
    }
    let (settings, mut network, mut done) = if args.resume {
        read_checkpoint(&args.out)?
    } else if let Some(from) = &args.from {
        read_checkpoint(from)?
    } else {
        let settings = Settings {
            seed: args.seed,
            hidden: args.hidden,
            race_hidden: args.race_hidden,
            alpha: args.alpha,
            lambda: args.lambda,
        };
        let network = settings.initial_networks();
        (settings, network, 0)
    };
    let save = |network: &Networks, done: u64| -> Result<(), String> {
        let write = |path: &std::path::Path, bytes: &[u8]| {
            std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
        };
        write(&args.out, &network.to_bytes())?;
        write(
            &state_path(&args.out),
            state_text(&settings, done).as_bytes(),
        )
    };
    if let Some((index, count)) = args.shard {
        // A shard's checkpoint records the round's end, which every shard shares.
        let games = shard_games(done, args.games, index, count);
        for game in games {
            train_game(&mut network, &settings, game);
        }
        return save(&network, done + args.games);
    }
    let opponent = match &args.opponent {
        Some(path) => Some(
            Networks::from_bytes(
                &std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?,
            )
            .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    let started = Instant::now();
    let first = done;
    let mut turns = 0;
    while done < args.games {
        turns += train_game(&mut network, &settings, done);
        done += 1;
        if done % args.checkpoint_every == 0 || done == args.games {
            save(&network, done)?;
        }
        if args.bench_every > 0 && (done % args.bench_every == 0 || done == args.games) {
            let rules = SugorokuRules::default();
            let b = duel(
                Player::Network(&network),
                match &opponent {
                    Some(opponent) => Player::Network(opponent),
                    None => Player::Static(Evaluation::Handmade),
                },
                args.bench_pairs,
                0xBE9C ^ done,
                &rules,
            );
            let rate = (done - first) as f64 / started.elapsed().as_secs_f64();
            eprintln!(
                "games {done}  {rate:.0} games/s  {:.1} turns/game  vs {} at 0 ply: {:+.3} +/- {:.3} points/game ({} games; won 1/2/3 {:?}, lost 1/2/3 {:?})",
                turns as f64 / (done - first) as f64,
                if opponent.is_some() { "the opponent" } else { "hand-made" },
                b.points,
                b.error95,
                b.games,
                &b.results[..3],
                &b.results[3..]
            );
            if let Some(curve) = &args.curve {
                let mut file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(curve)
                    .map_err(|e| format!("{}: {e}", curve.display()))?;
                writeln!(file, "{done},{:.4},{:.4}", b.points, b.error95)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}
