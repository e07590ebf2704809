//! A baseline player for calibrating strength levels: a small engine that
//! speaks the Yomi protocol well enough for the match runner, in every game,
//! and answers every `go` at once (whatever its limits). Its input is read
//! and parsed as the engine's is, by the protocol crate's reader and
//! command parser; the commands a baseline player has no use for are
//! answered with an error line.
//!
//! `baseline MODE [--seed N]`, modes:
//!
//! | mode | what it plays |
//! |---|---|
//! | `random` | a legal move drawn uniformly (Sugoroku: one of the distinct turns) |
//! | `greedy` | the move that gains the most at once by the engine library's measure (`GameEntry::move_gains`: captures and promotions, stones captured in Hasami, the race to the finish in Sugoroku; a move that wins at once first), ties drawn at random |
//! | `greedy:P` | greedy's move in `P` % of positions (drawn like the moves), random's in the rest: the rungs between the two, where random never scores against greedy |
//!
//! The draw is a function of the seed (`--seed` or the `Seed` option, 0 by
//! default) and the position (its key and ply), never of what was played
//! before, so the same seed replays the same games.

use std::io::Write;
use yomi_engine::core::options::{find_spec, OptionSpec};
use yomi_engine::registry::{self, GameEntry};
use yomi_engine::search::Limits;
use yomi_engine::session::{GameSession, ENGINE_OPTIONS, SEARCH_ALGORITHM, SEED};
use yomi_protocol::driver::VARIANT_OPTION;
use yomi_protocol::reader::LineReader;
use yomi_protocol::usi;
use yomi_protocol::{Command, Go};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Random,
    /// Greedy in this many positions out of a hundred (100: always).
    Greedy(u8),
}

impl Mode {
    fn name(self) -> String {
        match self {
            Mode::Random => "random".to_string(),
            Mode::Greedy(100) => "greedy".to_string(),
            Mode::Greedy(percent) => format!("greedy:{percent}"),
        }
    }

    fn parse(word: &str) -> Option<Mode> {
        match word {
            "random" => Some(Mode::Random),
            "greedy" => Some(Mode::Greedy(100)),
            _ => {
                let percent: u8 = word.strip_prefix("greedy:")?.parse().ok()?;
                (percent <= 100).then_some(Mode::Greedy(percent))
            }
        }
    }
}

const USAGE: &str = "usage: baseline random|greedy|greedy:P [--seed N]";

fn parse_args(args: &[String]) -> Result<(Mode, u64), String> {
    let mut mode = None;
    let mut seed = 0;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            word if mode.is_none() && Mode::parse(word).is_some() => mode = Mode::parse(word),
            "--seed" => {
                let value = words.next().ok_or("--seed needs a value")?;
                seed = value
                    .parse()
                    .map_err(|_| format!("--seed '{value}': expected a number 0 or more"))?;
            }
            other => return Err(format!("unexpected argument '{other}'")),
        }
    }
    mode.map(|m| (m, seed))
        .ok_or_else(|| "give a mode: random, greedy or greedy:P (P 0 to 100)".to_string())
}

/// Input as it may be echoed in a reply: one ASCII line, cut short.
fn quote(text: &str) -> String {
    yomi_engine::core::error::quote(text, 80)
}

/// SplitMix64's finaliser: a well-mixed 64-bit value of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Index in `0..n` drawn from `seed` and the position.
fn draw(seed: u64, key: u64, ply: u32, n: usize) -> usize {
    let value = mix(mix(seed ^ mix(key)) ^ u64::from(ply));
    (value % n.max(1) as u64) as usize
}

struct Baseline {
    mode: Mode,
    seed: u64,
    game: &'static GameEntry,
    session: Box<dyn GameSession>,
    /// The options the session took since the variant was set, in order
    /// (house rules among them), for the gains of the greedy player.
    options: Vec<(String, String)>,
    /// The current position as set: the SFEN (`None`: the start) and moves.
    sfen: Option<String>,
    moves: Vec<String>,
    /// A `bestmove` line held until `stop` / `ponderhit` (`go infinite`,
    /// `go ponder`).
    held: Option<String>,
    out: std::io::Stdout,
}

impl Baseline {
    fn new(mode: Mode, seed: u64) -> Baseline {
        let game = &registry::GAMES[0];
        Baseline {
            mode,
            seed,
            game,
            session: (game.new_session)(),
            options: Vec::new(),
            sfen: None,
            moves: Vec::new(),
            held: None,
            out: std::io::stdout(),
        }
    }

    fn say(&self, line: &str) {
        let mut out = self.out.lock();
        // A reader that has gone away ends us at the next read.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn error(&self, text: &str) {
        self.say(&format!("info string error: {text}"));
    }

    /// The house rules of the current game (the options the real engine
    /// announces that are not engine settings), then the seed.
    fn usi(&self) {
        self.say(&format!("id name yomi-baseline {}", self.mode.name()));
        self.say("id author the Yomi developers");
        self.say(&usi::option_line(&OptionSpec::combo(
            VARIANT_OPTION,
            registry::NAMES[0],
            &registry::NAMES,
        )));
        for spec in self.session.option_specs() {
            if find_spec(ENGINE_OPTIONS, spec.name).is_none() && spec.name != SEARCH_ALGORITHM {
                self.say(&usi::option_line(&spec));
            }
        }
        self.say(&usi::option_line(&OptionSpec::spin(SEED, 0, 0, i64::MAX)));
        self.say("usiok");
    }

    fn set_option(&mut self, name: String, value: &str) {
        if name.eq_ignore_ascii_case(VARIANT_OPTION) {
            match registry::find(value) {
                Ok(game) => {
                    self.game = game;
                    self.session = (game.new_session)();
                    self.options.clear();
                    self.sfen = None;
                    self.moves.clear();
                    self.say(&format!("info string variant {}", game.name()));
                }
                Err(e) => self.error(&format!("setoption: {e}")),
            }
            return;
        }
        if name.eq_ignore_ascii_case(SEED) {
            match value.parse::<u64>() {
                Ok(seed) => self.seed = seed,
                Err(_) => self.error(&format!(
                    "setoption: Seed '{}': expected a number 0 or more",
                    quote(value)
                )),
            }
            return;
        }
        match usi::set_option(&mut *self.session, &name, value) {
            Ok(true) => {
                let name = usi::engine_name(&name).to_string();
                self.options.push((name, value.to_string()))
            }
            Ok(false) => self.error(&format!("setoption: no option named '{}'", quote(&name))),
            Err(e) => self.error(&format!("setoption: {e}")),
        }
    }

    fn position(&mut self, sfen: Option<String>, moves: Vec<String>) {
        let list: Vec<&str> = moves.iter().map(String::as_str).collect();
        match self.session.set_position(sfen.as_deref(), &list) {
            Ok(()) => {
                self.sfen = sfen;
                self.moves = moves;
            }
            Err(e) => self.error(&format!("position: {e}")),
        }
    }

    /// The move to play, or `None` when there is none (the game is over).
    fn choose(&self) -> Result<Option<String>, String> {
        let state = self.session.state();
        let pick = |n: usize| draw(self.seed, self.session.key(), state.ply, n);
        // Whether to play greedy's move is drawn apart from the move itself.
        let greedy = match self.mode {
            Mode::Random => false,
            Mode::Greedy(percent) => {
                draw(!self.seed, self.session.key(), state.ply, 100) < percent as usize
            }
        };
        if !greedy {
            let legal = self.session.legal_moves();
            return Ok((!legal.is_empty()).then(|| legal[pick(legal.len())].clone()));
        }
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        let gains = self
            .game
            .move_gains(&self.options, self.sfen.as_deref(), &moves)?;
        let Some(best) = gains.iter().map(|(_, gain)| *gain).max() else {
            return Ok(None);
        };
        let top: Vec<&String> = gains
            .iter()
            .filter(|(_, gain)| *gain == best)
            .map(|(mv, _)| mv)
            .collect();
        Ok(Some(top[pick(top.len())].clone()))
    }

    fn go(&mut self, go: &Go) {
        if let Some(refusal) = self.session.search_refusal(&Limits::default()) {
            return self.error(&format!("go: {}", usi::refusal_text(&refusal)));
        }
        let line = match self.choose() {
            Ok(Some(mv)) => format!("bestmove {mv}"),
            Ok(None) => "bestmove resign".to_string(),
            Err(e) => {
                // Cannot happen with a position the session took; play on.
                self.error(&format!("go: {e}; playing the first legal move"));
                let legal = self.session.legal_moves();
                match legal.first() {
                    Some(mv) => format!("bestmove {mv}"),
                    None => "bestmove resign".to_string(),
                }
            }
        };
        if go.infinite || go.ponder {
            self.held = Some(line);
        } else {
            self.say(&line);
        }
    }

    /// Says the `bestmove` held for `stop`, if any.
    fn release(&mut self) {
        if let Some(held) = self.held.take() {
            self.say(&held);
        }
    }

    /// Handles one line (read by the protocol's own parser); `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let command = match Command::parse(line) {
            Ok(None) => return true,
            Ok(Some(command)) => command,
            Err(e) => {
                self.release();
                self.error(&e.0);
                return true;
            }
        };
        // The real engine refuses other commands while a search waits for
        // `stop`; answering first keeps a careless host going.
        if !matches!(
            command,
            Command::Stop
                | Command::PonderHit(_)
                | Command::Quit
                | Command::GameOver(_)
                | Command::IsReady
                | Command::Usi
        ) {
            self.release();
        }
        match command {
            Command::Usi => self.usi(),
            Command::IsReady => self.say("readyok"),
            Command::SetOption { name, value } => {
                self.set_option(name, value.as_deref().unwrap_or("").trim())
            }
            Command::UsiNewGame => {
                self.session.new_game();
                self.sfen = None;
                self.moves.clear();
            }
            Command::Position { sfen, moves } => self.position(sfen, moves),
            Command::Go(go) => self.go(&go),
            Command::Stop | Command::PonderHit(_) => self.release(),
            Command::GameOver(_) => self.held = None,
            Command::Quit => {
                self.release();
                return false;
            }
            _ => {
                let word = line.split_whitespace().next().unwrap_or("");
                self.error(&format!(
                    "'{}': not a command of the baseline players",
                    quote(word)
                ))
            }
        }
        true
    }
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, seed) = match parse_args(&args) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("baseline: {e}\n{USAGE}");
            return std::process::ExitCode::from(2);
        }
    };
    let mut engine = Baseline::new(mode, seed);
    let mut input = LineReader::new(std::io::stdin().lock());
    while let Some(line) = input.next_text() {
        match line {
            Ok(line) => {
                if !engine.command(&line) {
                    break;
                }
            }
            Err(ignored) => engine.error(&ignored),
        }
    }
    std::process::ExitCode::SUCCESS
}
