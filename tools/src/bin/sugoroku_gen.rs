//! Training the Sugoroku network in generations (see `yomi_tools::train::generations`
//! and docs/rules/sugoroku.md, "Training in generations"):
//!
//! - `label`: plays sampling games with a networks file and writes the kept
//!   positions with their look-ahead labels; a shard `--shard I/N` (counted
//!   from 0) takes its share of `--games` by game number. A rerun of the same
//!   shard into the same file carries on where it stopped; a file of another
//!   run is refused.
//! - `join`: joins the shards of one run into one data file, refusing shards
//!   that are incomplete, of another run, or that leave games out.
//! - `fit`: fits a networks file to the union of data files, an epoch at a
//!   time, checkpointing after each; `--resume` carries on.

use clap::{Parser, Subcommand};
use rayon::prelude::*;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use yomi_engine::sugoroku::net::{fnv1a, Networks};
use yomi_tools::runner::config::parse_shard;
use yomi_tools::train::generations::{
    encode, fit_epoch, held_out, label_game, loss, read_records, Header, Labels, Sample, Sampling,
    HEADER_BYTES, RECORD_BYTES,
};
use yomi_tools::train::shard_games;

#[derive(Parser)]
#[command(about = "Trains the Sugoroku network in generations: label, join, fit")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Samples positions from self-play and labels them by look-ahead.
    Label {
        /// The networks that play and label (a weights file).
        #[arg(long)]
        networks: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games in the whole run (every shard's share of them).
        #[arg(long)]
        games: u64,
        /// This shard's share, I/N counted from 0 (default: all the games).
        #[arg(long, value_parser = parse_shard)]
        shard: Option<(u64, u64)>,
        /// Turns of look-ahead of the labels (1 or 2).
        #[arg(long, default_value_t = 1)]
        plies: u32,
        /// Label by this many truncated rollouts a position instead (games
        /// played on at 0 ply, the luck of each roll taken off).
        #[arg(long, conflicts_with = "plies")]
        rollouts: Option<u16>,
        /// The turns after which a rollout is cut and valued by the networks.
        #[arg(long, default_value_t = 10, requires = "rollouts")]
        turns: u8,
        /// Keep every position whose 0-ply and 1-turn values differ by this many points.
        #[arg(long, default_value_t = 0.04)]
        keep_above: f32,
        /// Keep the others with this probability.
        #[arg(long, default_value_t = 0.25)]
        keep_rest: f32,
        /// The probability of a random turn in the sampling games.
        #[arg(long, default_value_t = 0.05)]
        explore: f32,
        #[arg(long)]
        out: PathBuf,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Stop after this many more games (a time-limited batch job); the
        /// same command later carries on.
        #[arg(long)]
        stop_after: Option<u64>,
    },
    /// Joins the shards of one labelling run into one data file.
    Join {
        #[arg(long)]
        out: PathBuf,
        shards: Vec<PathBuf>,
    },
    /// Plays two networks files on duplicate dice, at 0 ply or through the
    /// engine's search to `--depth` (a generation's quick measures; the
    /// engine's own strength is measured by timed matches).
    Duel {
        #[arg(long)]
        networks: PathBuf,
        #[arg(long)]
        against: PathBuf,
        #[arg(long, default_value_t = 1000)]
        pairs: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// House rules as NAME=VALUE (e.g. SugorokuFinish=bearoff).
        #[arg(long = "rule")]
        rules: Vec<String>,
        /// Which side evaluates with integer first layers, as the engine
        /// plays (the others in f32, as trained).
        #[arg(long, value_parser = ["networks", "against", "both"])]
        integer: Option<String>,
        /// Both sides play through the engine's search to this depth (its
        /// root filters and exact races; 2 is one turn of look-ahead, what
        /// 100 ms a move mostly reaches); 0: the networks alone at 0 ply.
        #[arg(long, default_value_t = 0)]
        depth: u32,
        /// Also give the points less each roll's luck, valued by the
        /// `--against` networks at 0 ply: the same mean, a narrower interval,
        /// at the cost of valuing all 21 rolls every turn.
        #[arg(long)]
        luck: bool,
        /// Threads (default: every core); the games are the same on any number.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Fits networks to labelled data.
    Fit {
        /// The networks to start from.
        #[arg(long)]
        from: PathBuf,
        /// Data files (their union is fitted).
        #[arg(long, num_args = 1.., required = true)]
        data: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 10)]
        epochs: u64,
        /// The learning rate of the first epoch.
        #[arg(long, default_value_t = 0.002)]
        alpha: f32,
        /// The learning rate's factor from one epoch to the next.
        #[arg(long, default_value_t = 0.8)]
        decay: f32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Carry on from the checkpoint at `--out`.
        #[arg(long)]
        resume: bool,
    },
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Label {
            networks,
            seed,
            games,
            shard,
            plies,
            rollouts,
            turns,
            keep_above,
            keep_rest,
            explore,
            out,
            threads,
            stop_after,
        } => {
            let labels = match rollouts {
                Some(0) => fail("--rollouts: at least 1".into()),
                Some(trials) if turns > 0 => Labels::Rollout { trials, turns },
                Some(_) => fail("--turns: at least 1".into()),
                None if (1..=2).contains(&plies) => Labels::LookAhead(plies),
                None => fail("--plies: 1 or 2".into()),
            };
            let sampling = Sampling {
                seed,
                labels,
                keep_above,
                keep_rest,
                explore,
            };
            let (index, count) = shard.unwrap_or((0, 1));
            let range = shard_games(0, games, index, count);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads.unwrap_or(0))
                .build()
                .expect("a thread pool");
            pool.install(|| label(&networks, &sampling, games, range, &out, stop_after))
        }
        Command::Join { out, shards } => join(&shards, &out),
        Command::Duel {
            networks,
            against,
            pairs,
            seed,
            rules,
            integer,
            depth,
            luck,
            threads,
        } => rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .build()
            .expect("a thread pool")
            .install(|| {
                duel(
                    &networks,
                    &against,
                    pairs,
                    seed,
                    &rules,
                    integer.as_deref(),
                    depth,
                    luck,
                )
            }),
        Command::Fit {
            from,
            data,
            out,
            epochs,
            alpha,
            decay,
            seed,
            resume,
        } => fit(&from, &data, &out, epochs, alpha, decay, seed, resume),
    };
    if let Err(e) = result {
        fail(e);
    }
}

fn fail(message: String) -> ! {
    eprintln!("sugoroku_gen: {message}");
    std::process::exit(2);
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn state_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".state");
    PathBuf::from(name)
}

/// A `.state` file's `key value` lines.
fn state_field(text: &str, key: &str) -> Result<u64, String> {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
        .ok_or(format!("the state has no '{key}'"))?
        .trim()
        .parse()
        .map_err(|e| format!("state '{key}': {e}"))
}

/// Games done and records written by an earlier run into `out`, if it was
/// this run; refuses a file of another run.
fn resume_point(out: &Path, header: &Header) -> Result<(u64, u64), String> {
    let Ok(bytes) = std::fs::read(out) else {
        return Ok((0, 0));
    };
    let theirs = Header::from_bytes(&bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    if theirs != *header {
        return Err(format!(
            "{} holds games {}..{} of another run or shard; remove it or choose another --out",
            out.display(),
            theirs.first,
            theirs.end
        ));
    }
    let state = std::fs::read_to_string(state_path(out)).unwrap_or_default();
    let done = state_field(&state, "games").unwrap_or(0);
    let records = state_field(&state, "records").unwrap_or(0);
    Ok((done, records))
}

fn label(
    networks_path: &Path,
    sampling: &Sampling,
    run_games: u64,
    games: std::ops::Range<u64>,
    out: &Path,
    stop_after: Option<u64>,
) -> Result<(), String> {
    let bytes = read(networks_path)?;
    let networks =
        Networks::from_bytes(&bytes).map_err(|e| format!("{}: {e}", networks_path.display()))?;
    let header = Header {
        seed: sampling.seed,
        labels: sampling.labels,
        keep_above: sampling.keep_above,
        keep_rest: sampling.keep_rest,
        explore: sampling.explore,
        networks: fnv1a(&bytes),
        games: run_games,
        first: games.start,
        end: games.end,
    };
    let (mut done, mut records) = resume_point(out, &header)?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    // Whatever was written after the last recorded game goes.
    let keep = (HEADER_BYTES + RECORD_BYTES * records as usize) as u64;
    file.set_len(keep).map_err(|e| e.to_string())?;
    file.seek(std::io::SeekFrom::Start(0))
        .map_err(|e| e.to_string())?;
    file.write_all(&header.to_bytes())
        .map_err(|e| e.to_string())?;
    file.seek(std::io::SeekFrom::End(0))
        .map_err(|e| e.to_string())?;
    let total = games.end - games.start;
    if done > 0 {
        eprintln!("label: carrying on after {done} of {total} games ({records} positions)");
    }
    let started = Instant::now();
    let resumed_at = done;
    let mut last_line = Instant::now();
    let batch = 4 * rayon::current_num_threads() as u64;
    let stop = stop_after.map_or(total, |n| (done + n).min(total));
    while done < stop {
        let from = games.start + done;
        let to = (from + batch).min(games.start + stop);
        let labelled: Vec<Vec<Sample>> = (from..to)
            .into_par_iter()
            .map(|g| label_game(&networks, sampling, g))
            .collect();
        for sample in labelled.iter().flatten() {
            file.write_all(&encode(sample)).map_err(|e| e.to_string())?;
            records += 1;
        }
        file.flush().map_err(|e| e.to_string())?;
        file.sync_data().map_err(|e| e.to_string())?;
        done += to - from;
        write(
            &state_path(out),
            format!("games {done}\nrecords {records}\n").as_bytes(),
        )?;
        if last_line.elapsed().as_secs() >= 10 || done == stop {
            last_line = Instant::now();
            let rate = (done - resumed_at) as f64 / started.elapsed().as_secs_f64();
            eprintln!(
                "label: games {done}/{total} ({:.1} %), {records} positions, {rate:.2} games/s, {:.0} min left",
                100.0 * done as f64 / total as f64,
                (total - done) as f64 / rate / 60.0
            );
        }
    }
    Ok(())
}

fn join(shards: &[PathBuf], out: &Path) -> Result<(), String> {
    if shards.is_empty() {
        return Err("no shards to join".into());
    }
    let mut parts = Vec::new();
    for path in shards {
        let bytes = read(path)?;
        let header = Header::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let state = std::fs::read_to_string(state_path(path)).unwrap_or_default();
        let done = state_field(&state, "games").unwrap_or(0);
        let records = state_field(&state, "records").unwrap_or(0);
        if done != header.end - header.first {
            return Err(format!(
                "{} is incomplete: {done} of its {} games (run its label command again to finish it)",
                path.display(),
                header.end - header.first
            ));
        }
        let body = bytes.len() - HEADER_BYTES;
        if body != RECORD_BYTES * records as usize {
            return Err(format!(
                "{}: {body} bytes of records where its state counts {records} records",
                path.display()
            ));
        }
        parts.push((header, bytes, path));
    }
    parts.sort_by_key(|(h, _, _)| h.first);
    let first = parts[0].0;
    let mut expected = 0;
    for (header, _, path) in &parts {
        if !header.same_run(&first) {
            return Err(format!(
                "{} is a shard of another run (seed, look-ahead, sampling or networks differ)",
                path.display()
            ));
        }
        if header.first != expected {
            return Err(if header.first > expected {
                format!(
                    "games {expected}..{} are in none of the shards",
                    header.first
                )
            } else {
                format!("{} overlaps another shard", path.display())
            });
        }
        expected = header.end;
    }
    if expected != first.games {
        return Err(format!(
            "games {expected}..{} are in none of the shards",
            first.games
        ));
    }
    let joined = Header {
        first: 0,
        end: expected,
        ..first
    };
    let mut bytes = joined.to_bytes().to_vec();
    let mut records = 0;
    for (_, shard, _) in &parts {
        bytes.extend_from_slice(&shard[HEADER_BYTES..]);
        records += (shard.len() - HEADER_BYTES) / RECORD_BYTES;
    }
    write(out, &bytes)?;
    write(
        &state_path(out),
        format!("games {}\nrecords {records}\n", joined.end - joined.first).as_bytes(),
    )?;
    eprintln!(
        "join: games {}..{} from {} shards, {records} positions",
        joined.first,
        joined.end,
        parts.len()
    );
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn duel(
    a: &Path,
    b: &Path,
    pairs: u32,
    seed: u64,
    rules: &[String],
    integer: Option<&str>,
    depth: u32,
    luck: bool,
) -> Result<(), String> {
    use std::sync::Arc;
    use yomi_engine::core::HouseRules;
    use yomi_engine::session::Playable;
    use yomi_engine::sugoroku::duel::{duel_with_luck, Player};
    use yomi_engine::sugoroku::Sugoroku;
    use yomi_engine::sugoroku::SugorokuEval;
    let load = |path: &Path, side: &str| {
        let read =
            Networks::from_bytes(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
        let integer = integer.is_some_and(|which| which == side || which == "both");
        Ok::<_, String>(if integer { read.quantised() } else { read })
    };
    let (a_nets, b_nets) = (load(a, "networks")?, load(b, "against")?);
    let mut house = yomi_engine::sugoroku::SugorokuRules::default();
    for rule in rules {
        let (name, value) = rule
            .split_once('=')
            .ok_or(format!("--rule {rule}: expected NAME=VALUE"))?;
        house
            .set(name, value)
            .map_err(|e| format!("--rule {rule}: {e}"))?;
    }
    let (a_nets, b_nets) = (Arc::new(a_nets), Arc::new(b_nets));
    let evaluator = |networks: &Arc<Networks>| SugorokuEval {
        network: Some(networks.clone()),
        ..SugorokuEval::default()
    };
    let (a_eval, b_eval) = (evaluator(&a_nets), evaluator(&b_nets));
    let player = |networks, eval| match depth {
        0 => Player::Network(networks),
        _ => Player::Search { depth, eval },
    };
    let starts = vec![Sugoroku::start(&house); pairs as usize];
    let r = duel_with_luck(
        player(&a_nets, &a_eval),
        player(&b_nets, &b_eval),
        &starts,
        seed,
        luck.then_some(&*b_nets),
    );
    let played = match depth {
        0 => "at 0 ply".to_string(),
        _ => format!("searched to depth {depth}"),
    };
    println!(
        "{} against {} {played}: {:+.3} +/- {:.3} points/game ({} games; won 1/2/3 {:?}, lost 1/2/3 {:?})",
        a.display(),
        b.display(),
        r.points,
        r.error95,
        r.games,
        &r.results[..3],
        &r.results[3..]
    );
    if let Some(adjusted) = r.luck_adjusted {
        println!(
            "less the dice's luck: {:+.3} +/- {:.3} points/game",
            adjusted.points, adjusted.error95
        );
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn fit(
    from: &Path,
    data: &[PathBuf],
    out: &Path,
    epochs: u64,
    alpha: f32,
    decay: f32,
    seed: u64,
    resume: bool,
) -> Result<(), String> {
    let start = if resume { out } else { from };
    let mut networks =
        Networks::from_bytes(&read(start)?).map_err(|e| format!("{}: {e}", start.display()))?;
    let mut first_epoch = 0;
    if resume {
        let state = std::fs::read_to_string(state_path(out))
            .map_err(|e| format!("{}: {e}", state_path(out).display()))?;
        first_epoch = state_field(&state, "epochs")?;
    }
    let mut samples = Vec::new();
    for path in data {
        let bytes = read(path)?;
        Header::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        samples.extend(read_records(&bytes).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    let (mut held, mut train) = (Vec::new(), Vec::new());
    for (i, sample) in samples.into_iter().enumerate() {
        if held_out(i) { &mut held } else { &mut train }.push(sample);
    }
    let report = |networks: &Networks, epoch: u64, started: Instant| {
        let (train_ce, train_se) = loss(networks, &train[..train.len().min(50_000)]);
        let (held_ce, held_se) = loss(networks, &held);
        eprintln!(
            "fit: epoch {epoch}/{epochs}  cross-entropy {train_ce:.4} (held out {held_ce:.4})  equity rms {:.4} (held out {:.4})  {:.0} s",
            train_se.sqrt(),
            held_se.sqrt(),
            started.elapsed().as_secs_f64()
        );
    };
    eprintln!(
        "fit: {} positions to fit, {} held out",
        train.len(),
        held.len()
    );
    let started = Instant::now();
    report(&networks, first_epoch, started);
    for epoch in first_epoch..epochs {
        let rate = alpha * decay.powi(epoch as i32);
        fit_epoch(&mut networks, &train, rate, seed, epoch);
        write(out, &networks.to_bytes())?;
        write(
            &state_path(out),
            format!("epochs {}\nseed {seed}\n", epoch + 1).as_bytes(),
        )?;
        report(&networks, epoch + 1, started);
    }
    Ok(())
}
