//! The one writer every output line goes through, and the formats of the replies.
//!
//! Lines from the reading thread and the search thread never interleave: each
//! line (or block of lines, such as a diagram) is written under one lock and
//! flushed at once.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};
use yomi_engine::core::error::quote;
use yomi_engine::core::game::GameResult;
use yomi_engine::review::{PlyReview, ReviewScale, Verdict};
use yomi_engine::search::{Odds, Score, SearchInfo};
use yomi_engine::session::{BenchReport, BestMove, GameSession, MateAnswer};

/// A shared, locked, line-flushed writer.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

/// The writer held locked: lines written through it come out together.
pub struct Locked<'a> {
    guard: MutexGuard<'a, Box<dyn Write + Send>>,
}

impl Locked<'_> {
    /// Writes one line and flushes. Write errors (a closed pipe) are ignored: the
    /// engine keeps its state and ends when its input ends.
    ///
    /// Replies are ASCII whatever they quote: clients read them as Shift-JIS
    /// or ASCII, so any other character is escaped here, the last guard.
    pub fn line(&mut self, text: &str) {
        let _ = if text.is_ascii() {
            writeln!(self.guard, "{text}")
        } else {
            writeln!(self.guard, "{}", quote(text, usize::MAX))
        };
        let _ = self.guard.flush();
    }
}

impl Output {
    pub fn new(writer: impl Write + Send + 'static) -> Self {
        Output {
            inner: Arc::new(Mutex::new(Box::new(writer))),
        }
    }

    pub fn lock(&self) -> Locked<'_> {
        Locked {
            guard: self.inner.lock().unwrap_or_else(|e| e.into_inner()),
        }
    }

    pub fn line(&self, text: &str) {
        self.lock().line(text);
    }

    /// Several lines as one block.
    pub fn lines<S: AsRef<str>>(&self, lines: impl IntoIterator<Item = S>) {
        let mut out = self.lock();
        for line in lines {
            out.line(line.as_ref());
        }
    }

    /// `info string error: <message>`, the one line every rejected input gets.
    pub fn error(&self, message: &str) {
        self.line(&error_line(message));
    }
}

pub fn error_line(message: &str) -> String {
    // A message is one line whatever it quotes.
    let message: String = message
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    format!("info string error: {message}")
}

/// `info depth … seldepth … multipv … score cp|mate … nodes … nps … hashfull … time … pv …`
pub fn info_line(info: &SearchInfo<String>) -> String {
    let score = match info.score {
        // USI tools read `cp`; `points` is the same value as expected points.
        Score::Points(milli) => format!("cp {milli} {}", score_words(info.score)),
        other => score_words(other),
    };
    let nps = info.nodes.saturating_mul(1000) / info.time_ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {nps} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv.max(1),
        info.nodes,
        info.hashfull,
        info.time_ms
    );
    if let Some(scores) = info.scores {
        let scores: Vec<String> = scores.iter().map(|v| v.to_string()).collect();
        line.push_str(" scores ");
        line.push_str(&scores.join(" "));
    }
    if let Some(odds) = info.odds {
        let Odds {
            win,
            win2,
            win3,
            lose2,
            lose3,
        } = odds;
        line.push_str(&format!(" probs {win} {win2} {win3} {lose2} {lose3}"));
    }
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&info.pv.join(" "));
    }
    line
}

/// A score as `cp <n>`, `mate <plies>` or `points <±p.ppp>`.
pub fn score_words(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(plies) => format!("mate {plies}"),
        Score::Points(milli) => format!("points {}", points_text(milli)),
    }
}

/// One move of a review (docs/review.md): `review ply <n> seat <s> [dice <d>]
/// played <m> best <m>|none bestscore <score> playedscore <score> bestvalue
/// <v> playedvalue <v> loss <l> verdict <verdict> [shares <p0>,<p1>,<p2>,<p3>]`.
pub fn review_line(review: &PlyReview, scale: &ReviewScale) -> String {
    let mut line = format!("review ply {} seat {}", review.ply, review.seat);
    if let Some(dice) = &review.dice {
        line.push_str(&format!(" dice {dice}"));
    }
    line.push_str(&format!(
        " played {} best {} bestscore {} playedscore {} bestvalue {} playedvalue {} loss {} verdict {}",
        review.played,
        review.best.as_deref().unwrap_or("none"),
        score_words(review.best_score),
        score_words(review.played_score),
        scale.format(review.best_value),
        scale.format(review.played_value),
        scale.format_loss(review.loss),
        review.verdict.name()
    ));
    if let Some(shares) = review.shares {
        let shares: Vec<String> = shares
            .iter()
            .map(|&s| ReviewScale::YONIN.format(s))
            .collect();
        line.push_str(&format!(" shares {}", shares.join(",")));
    }
    line
}

/// The last line of a review: `review end plies <n> best <n> good <n>
/// inaccuracy <n> mistake <n> blunder <n>` (`review end stopped …` when
/// `stop` cut it short).
pub fn review_end_line(reviews: &[PlyReview], stopped: bool) -> String {
    let mut line = format!(
        "review end{} plies {}",
        if stopped { " stopped" } else { "" },
        reviews.len()
    );
    for verdict in Verdict::ALL {
        let n = reviews.iter().filter(|r| r.verdict == verdict).count();
        line.push_str(&format!(" {} {n}", verdict.name()));
    }
    line
}

/// Thousandths of a point as a signed decimal: `+0.412`, `-1.000`.
fn points_text(milli: i32) -> String {
    ReviewScale::SUGOROKU.format(milli)
}

/// `bestmove <move> [ponder <move>]` or `bestmove resign`.
pub fn bestmove_line(best: &BestMove, ponder_enabled: bool) -> String {
    match (&best.best, &best.ponder) {
        (None, _) => "bestmove resign".to_string(),
        (Some(mv), Some(reply)) if ponder_enabled => format!("bestmove {mv} ponder {reply}"),
        (Some(mv), _) => format!("bestmove {mv}"),
    }
}

/// The words after `status`: `ongoing turn <seat> ply <n> …` or `over <result>
/// reason <why> ply <n> …`, then the game's own details (docs/protocol.md).
pub fn status_words(session: &dyn GameSession) -> String {
    let state = session.state();
    let details = session.status_details();
    match state.outcome {
        None => format!(
            "ongoing turn {} ply {} {details}",
            session.seat_name(state.to_move),
            state.ply
        ),
        Some(outcome) => {
            let result = match outcome.result {
                GameResult::Win { winner, points } => {
                    format!("winner {} points {points}", session.seat_name(winner))
                }
                GameResult::Draw => "draw".to_string(),
                GameResult::Places(places) => {
                    let places: Vec<String> = places.iter().map(|p| p.to_string()).collect();
                    format!("places {}", places.join(","))
                }
            };
            format!(
                "over {result} reason {} ply {} {details}",
                outcome.reason, state.ply
            )
        }
    }
}

/// `checkmate <moves>`, `checkmate nomate`, `checkmate timeout` or
/// `checkmate notimplemented`.
pub fn checkmate_line(answer: &MateAnswer<String>) -> String {
    match answer {
        MateAnswer::Mate(line) => format!("checkmate {}", line.join(" ")),
        MateAnswer::NoMate => "checkmate nomate".to_string(),
        MateAnswer::Timeout => "checkmate timeout".to_string(),
        MateAnswer::NotImplemented => "checkmate notimplemented".to_string(),
    }
}

/// `perft` per move: `<move>: <count>`.
pub fn divide_line(mv: &str, count: u64) -> String {
    format!("{mv}: {count}")
}

/// Nodes per second, guarded against a zero time.
pub fn nps(nodes: u64, elapsed: std::time::Duration) -> u64 {
    let micros = elapsed.as_micros().max(1);
    (nodes as u128 * 1_000_000 / micros) as u64
}

/// `bench <game> positions P depth D nodes N time MS nps X`
pub fn bench_line(game: &str, report: &BenchReport) -> String {
    format!(
        "bench {game} positions {} depth {} nodes {} time {} nps {}",
        report.positions,
        report.depth,
        report.nodes,
        report.elapsed.as_millis(),
        nps(report.nodes, report.elapsed)
    )
}

/// `bench total nodes N time MS nps X`
pub fn bench_total_line<'a>(reports: impl IntoIterator<Item = &'a BenchReport>) -> String {
    let (nodes, elapsed) = reports
        .into_iter()
        .fold((0u64, std::time::Duration::ZERO), |(n, t), r| {
            (n + r.nodes, t + r.elapsed)
        });
    format!(
        "bench total nodes {nodes} time {} nps {}",
        elapsed.as_millis(),
        nps(nodes, elapsed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_have_every_field() {
        let info = SearchInfo {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: Score::Cp(-12),
            nodes: 20_000,
            time_ms: 100,
            hashfull: 7,
            pv: vec!["9i9h".to_string(), "1a1b".to_string()],
            scores: None,
            odds: None,
        };
        assert_eq!(
            info_line(&info),
            "info depth 5 seldepth 9 multipv 1 score cp -12 nodes 20000 nps 200000 hashfull 7 time 100 pv 9i9h 1a1b"
        );
        let mate = SearchInfo {
            score: Score::Mate(-3),
            time_ms: 0,
            pv: vec![],
            ..info.clone()
        };
        assert_eq!(
            info_line(&mate),
            "info depth 5 seldepth 9 multipv 1 score mate -3 nodes 20000 nps 20000000 hashfull 7 time 0"
        );
        let equity = SearchInfo {
            score: Score::Points(-1_205),
            pv: vec!["24/18,13/11".to_string()],
            ..info.clone()
        };
        assert_eq!(
            info_line(&equity),
            "info depth 5 seldepth 9 multipv 1 score cp -1205 points -1.205 nodes 20000 nps 200000 hashfull 7 time 100 pv 24/18,13/11"
        );
        assert!(info_line(&SearchInfo {
            score: Score::Points(42),
            ..info.clone()
        })
        .contains("score cp 42 points +0.042 "));
        let vector = SearchInfo {
            scores: Some([120, -40, -35, -45].into()),
            ..info
        };
        assert!(info_line(&vector).ends_with("time 100 scores 120 -40 -35 -45 pv 9i9h 1a1b"));
        let details = SearchInfo {
            odds: Some(Odds {
                win: 612,
                win2: 40,
                win3: 3,
                lose2: 20,
                lose3: 1,
            }),
            ..equity
        };
        assert!(info_line(&details).ends_with("points -1.205 nodes 20000 nps 200000 hashfull 7 time 100 probs 612 40 3 20 1 pv 24/18,13/11"));
    }

    #[test]
    fn bestmove_lines() {
        let best = BestMove {
            best: Some("9i9h".into()),
            ponder: Some("1a1b".into()),
            ..BestMove::default()
        };
        assert_eq!(bestmove_line(&best, true), "bestmove 9i9h ponder 1a1b");
        assert_eq!(bestmove_line(&best, false), "bestmove 9i9h");
        assert_eq!(
            bestmove_line(
                &BestMove {
                    best: None,
                    ponder: None,
                    ..BestMove::default()
                },
                true
            ),
            "bestmove resign"
        );
    }

    #[test]
    fn error_lines_stay_one_line() {
        assert_eq!(error_line("bad\nthing"), "info string error: bad?thing");
    }
}
