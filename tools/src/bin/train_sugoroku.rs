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
//! On many machines: `--games 0` writes the first round's start (the seed's
//! random network); a round of `--games G` is split into `--shard I/N`
//! (counted from 0), each shard training its share of the round's games (by
//! game number, so by seed) from the same checkpoint `--from`, and `--merge`
//! averages every shard of the round, checked by the shard and round each
//! records, into the next checkpoint (see docs/rules/sugoroku.md, "Training
//! on many machines").

use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use yomi_engine::sugoroku::duel::{duel, Player};
use yomi_engine::sugoroku::net::Networks;
use yomi_engine::sugoroku::{Evaluation, SugorokuRules};
use yomi_tools::runner::config::parse_shard;
use yomi_tools::train::{
    average_sets, checkpoint_id, parse_state, shard_games, state_text, train_game, Settings,
    ShardOf,
};

#[derive(Parser)]
#[command(about = "Trains the Sugoroku network by TD(lambda) self-play")]
struct Args {
    /// Train until this many games in all (a resumed run counts those before;
    /// 0 writes the seed's random network, a first round's start).
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
    #[arg(long, default_value_t = 0.003)]
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
    /// Train only shard I of N (counted from 0) of a round of `--games` games
    /// after `--from`'s.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Average these shard checkpoints of one round into `--out`.
    #[arg(long, num_args = 1..)]
    merge: Vec<PathBuf>,
}

/// A checkpoint read back: the weights and their `.state`.
struct Checkpoint {
    settings: Settings,
    network: Networks,
    games: u64,
    shard: Option<ShardOf>,
    id: String,
}

fn read_checkpoint(path: &std::path::Path) -> Result<Checkpoint, String> {
    let state = std::fs::read_to_string(state_path(path))
        .map_err(|e| format!("{}: {e}", state_path(path).display()))?;
    let (settings, games, shard) =
        parse_state(&state).map_err(|e| format!("{}: {e}", state_path(path).display()))?;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let network = Networks::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Checkpoint {
        settings,
        network,
        games,
        shard,
        id: checkpoint_id(&bytes),
    })
}

/// Checks that `shards` are every shard of one round, each once: the same
/// settings, start and end, the same count, no index missing.
fn check_round(paths: &[PathBuf], shards: &[Checkpoint]) -> Result<(), String> {
    let first = &shards[0];
    let of = |i: usize| -> Result<&ShardOf, String> {
        shards[i].shard.as_ref().ok_or_else(|| {
            format!(
                "{}: not a shard's checkpoint (no 'shard' in its state): only the shards of one round merge",
                paths[i].display()
            )
        })
    };
    let round = of(0)?;
    for (i, shard) in shards.iter().enumerate() {
        let this = of(i)?;
        if shard.settings != first.settings
            || shard.games != first.games
            || this.count != round.count
            || this.from_games != round.from_games
            || this.from_id != round.from_id
        {
            return Err(format!(
                "{} and {}: shards of different runs or rounds (games {}..{} of {} in {} shards, against {}..{} of {} in {})",
                paths[i].display(),
                paths[0].display(),
                this.from_games,
                shard.games,
                this.from_id,
                this.count,
                round.from_games,
                first.games,
                round.from_id,
                round.count
            ));
        }
        if let Some(j) =
            (0..i).find(|&j| shards[j].shard.as_ref().map(|s| s.index) == Some(this.index))
        {
            return Err(format!(
                "{} and {}: both shard {}/{}",
                paths[j].display(),
                paths[i].display(),
                this.index,
                this.count
            ));
        }
    }
    let missing: Vec<String> = (0..round.count)
        .filter(|&index| {
            !shards
                .iter()
                .any(|s| s.shard.as_ref().map(|s| s.index) == Some(index))
        })
        .map(|index| format!("{index}/{}", round.count))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the round lacks shard{} {}: every shard of a round must be merged",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", ")
        ));
    }
    Ok(())
}

fn state_path(out: &std::path::Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".state");
    PathBuf::from(name)
}

/// Writes a checkpoint: the weights at `out`, the state beside them.
fn save(out: &std::path::Path, network: &Networks, state: &str) -> Result<(), String> {
    let write = |path: &std::path::Path, bytes: &[u8]| {
        std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    write(out, &network.to_bytes())?;
    write(&state_path(out), state.as_bytes())
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
        let shards: Vec<Checkpoint> = args
            .merge
            .iter()
            .map(|p| read_checkpoint(p))
            .collect::<Result<_, _>>()?;
        check_round(&args.merge, &shards)?;
        let (settings, done) = (shards[0].settings.clone(), shards[0].games);
        let networks: Vec<Networks> = shards.into_iter().map(|c| c.network).collect();
        let merged = average_sets(&networks)?;
        return save(&args.out, &merged, &state_text(&settings, done, None));
    }
    if args.shard.is_some() && (args.from.is_none() || args.resume) {
        return Err(
            "--shard trains a share of a round: give the round's start with --from (not --resume)"
                .into(),
        );
    }
    let (settings, mut network, mut done) = if args.resume {
        let checkpoint = read_checkpoint(&args.out)?;
        (checkpoint.settings, checkpoint.network, checkpoint.games)
    } else if let Some(from) = &args.from {
        let checkpoint = read_checkpoint(from)?;
        if let Some(shard) = &checkpoint.shard {
            return Err(format!(
                "{}: shard {}/{} of a round: merge the round's shards (--merge) and start from that",
                from.display(),
                shard.index,
                shard.count
            ));
        }
        if let Some((index, count)) = args.shard {
            // A shard's checkpoint records the round's end, which every shard
            // shares, and where the round began.
            let of = ShardOf {
                index,
                count,
                from_games: checkpoint.games,
                from_id: checkpoint.id,
            };
            let mut network = checkpoint.network;
            let done = checkpoint.games;
            for game in shard_games(done, args.games, index, count) {
                train_game(&mut network, &checkpoint.settings, game);
            }
            let state = state_text(&checkpoint.settings, done + args.games, Some(&of));
            return save(&args.out, &network, &state);
        }
        (checkpoint.settings, checkpoint.network, checkpoint.games)
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
    let checkpoint = |network: &Networks, done: u64| {
        save(&args.out, network, &state_text(&settings, done, None))
    };
    if done >= args.games {
        // Nothing to train (--games 0 makes a first round's start): the
        // checkpoint as it stands.
        return checkpoint(&network, done);
    }
    let opponent = match &args.opponent {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(Networks::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let started = Instant::now();
    let first = done;
    let mut turns = 0;
    while done < args.games {
        turns += train_game(&mut network, &settings, done);
        done += 1;
        if done % args.checkpoint_every == 0 || done == args.games {
            checkpoint(&network, done)?;
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
