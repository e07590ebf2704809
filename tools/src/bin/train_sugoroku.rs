//! Trains the Sugoroku network by TD(λ) self-play (see `yomi_tools::train`).
//!
//! The embedded network (`engine/src/sugoroku/net.bin`) was made by the command
//! in docs/rules/sugoroku.md, "The network". A run writes its weights and a
//! `.state` file beside them every `--checkpoint-every` games; `--resume`
//! carries on from there and gives the same network as a run never stopped.
//! Every `--bench-every` games it plays the network at 0 ply against the
//! hand-made evaluation at 0 ply on duplicate dice (default rules) and appends
//! the points per game to `--curve`.

use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use yomi_engine::sugoroku::duel::{duel, Player};
use yomi_engine::sugoroku::net::Network;
use yomi_engine::sugoroku::{Evaluation, SugorokuRules};
use yomi_tools::train::{parse_state, state_text, train_game, Settings};

#[derive(Parser)]
#[command(about = "Trains the Sugoroku network by TD(lambda) self-play")]
struct Args {
    /// Train until this many games in all (a resumed run counts those before).
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 64)]
    hidden: usize,
    #[arg(long, default_value_t = 0.1)]
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
    /// The training curve, `games,points_per_game,interval` per benchmark.
    #[arg(long)]
    curve: Option<PathBuf>,
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
    let (settings, mut network, mut done) = if args.resume {
        let state = std::fs::read_to_string(state_path(&args.out))
            .map_err(|e| format!("{}: {e}", state_path(&args.out).display()))?;
        let (settings, done) = parse_state(&state)?;
        let bytes = std::fs::read(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
        (settings, Network::from_bytes(&bytes)?, done)
    } else {
        let settings = Settings {
            seed: args.seed,
            hidden: args.hidden,
            alpha: args.alpha,
            lambda: args.lambda,
        };
        let network = Network::random(settings.hidden, settings.seed);
        (settings, network, 0)
    };
    let save = |network: &Network, done: u64| -> Result<(), String> {
        let write = |path: &std::path::Path, bytes: &[u8]| {
            std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
        };
        write(&args.out, &network.to_bytes())?;
        write(&state_path(&args.out), state_text(&settings, done).as_bytes())
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
                Player::Static(Evaluation::Handmade),
                args.bench_pairs,
                0xBE9C ^ done,
                &rules,
            );
            let rate = (done - first) as f64 / started.elapsed().as_secs_f64();
            eprintln!(
                "games {done}  {rate:.0} games/s  {:.1} turns/game  vs hand-made at 0 ply: {:+.3} +/- {:.3} points/game ({} games; won 1/2/3 {:?}, lost 1/2/3 {:?})",
                turns as f64 / (done - first) as f64,
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
