//! Checks every game must pass: random playouts with undo (through chance
//! nodes too), notation round trips (the incremental key equal to the key of
//! the position reread), well-formed outcomes. Each game's tests run them from
//! positions of its own; [`Suite`] runs them, with perft and a search, over
//! every registered game.

use crate::core::Notation;

use super::game::GameResult;
use super::{Game, MoveList, Outcome};
use crate::registry::{GameEntry, GameVisitor};
use crate::search::{ChanceGame, Limits, SearchControl};
use crate::session::Playable;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays `games` random games of at most `max_plies` from `start` (under
/// `rules`, which reread its notation), checking at every node that the game's parts agree with each other; a game stops where
/// dice are due ([`random_chance_playouts`] throws them).
pub fn random_playouts<G: Notation>(
    start: &G,
    rules: &G::Rules,
    games: usize,
    max_plies: usize,
    seed: u64,
) {
    playouts::<G, NoChance>(start, rules, games, max_plies, seed, &mut |_| {});
}

/// [`random_playouts`] for a game with chance nodes: each is checked (weights
/// summing to `CHANCE_WEIGHT`, undo, no player's moves) and stepped through
/// with an outcome drawn by the weights; `each_node` adds the game's own checks
/// at every node where a player is to move and the game goes on. Returns how each game ended (`None`:
/// still going after `max_plies` moves, chance steps not counted).
pub fn random_chance_playouts<G: ChanceGame + Notation>(
    start: &G,
    rules: &G::Rules,
    games: usize,
    max_plies: usize,
    seed: u64,
    each_node: &mut dyn FnMut(&G),
) -> Vec<Option<Outcome>> {
    playouts::<G, WithChance>(start, rules, games, max_plies, seed, each_node)
}

/// How the playouts meet chance nodes.
trait ChanceSteps<G: Game> {
    type Outcome: Copy;
    /// At a chance node, checks it and draws an outcome; `None` where a player
    /// is to move.
    fn draw(pos: &G, rules: &G::Rules, rng: &mut Xoshiro256PlusPlus) -> Option<Self::Outcome>;
    fn apply(pos: &mut G, outcome: Self::Outcome);
    fn undo(pos: &mut G, outcome: Self::Outcome);
}

/// Games without chance nodes.
struct NoChance;

impl<G: Game> ChanceSteps<G> for NoChance {
    type Outcome = ();
    fn draw(_: &G, _: &G::Rules, _: &mut Xoshiro256PlusPlus) -> Option<()> {
        None
    }
    fn apply(_: &mut G, _: ()) {}
    fn undo(_: &mut G, _: ()) {}
}

struct WithChance;

impl<G: ChanceGame + Notation> ChanceSteps<G> for WithChance {
    type Outcome = G::Chance;

    fn draw(pos: &G, rules: &G::Rules, rng: &mut Xoshiro256PlusPlus) -> Option<G::Chance> {
        if !pos.at_chance() {
            return None;
        }
        check_position(pos, rules);
        assert!(pos.outcome().is_none(), "a finished game waits for no dice");
        assert_eq!(pos.count_moves(), 0, "no player moves at a chance node");
        let outcomes = pos.chance_outcomes();
        for (i, &(outcome, weight)) in outcomes.iter().enumerate() {
            assert!(weight > 0, "{outcome:?} can happen");
            assert!(
                outcomes[..i].iter().all(|&(o, _)| o != outcome),
                "{outcome:?} listed twice"
            );
        }
        // The chances sum to one.
        let total: u32 = outcomes.iter().map(|&(_, weight)| weight).sum();
        assert_eq!(total, G::CHANCE_WEIGHT);
        let mut ticket = rng.gen_range(0..total);
        let &(outcome, _) = outcomes
            .iter()
            .find(|&&(_, weight)| {
                let hit = ticket < weight;
                ticket = ticket.saturating_sub(weight);
                hit
            })
            .expect("the weights cover the ticket");
        Some(outcome)
    }

    fn apply(pos: &mut G, outcome: G::Chance) {
        let seat = pos.side_to_move();
        pos.apply_chance(outcome);
        assert!(!pos.at_chance(), "{outcome:?} settles the chance event");
        assert_eq!(
            pos.side_to_move(),
            seat,
            "the same seat moves after {outcome:?}"
        );
    }

    fn undo(pos: &mut G, outcome: G::Chance) {
        pos.undo_chance(outcome);
    }
}

/// A move of the game or an outcome of a chance event, to unwind in order.
enum Step<M, C> {
    Move(M),
    Chance(C),
}

fn playouts<G: Notation, C: ChanceSteps<G>>(
    start: &G,
    rules: &G::Rules,
    games: usize,
    max_plies: usize,
    seed: u64,
    each_node: &mut dyn FnMut(&G),
) -> Vec<Option<Outcome>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut ends = Vec::with_capacity(games);
    for _ in 0..games {
        let mut pos = start.clone();
        let mut played = Vec::new();
        let mut plies = 0;
        while plies < max_plies {
            if let Some(outcome) = C::draw(&pos, rules, &mut rng) {
                let (sfen, key) = (pos.sfen(), pos.key());
                C::apply(&mut pos, outcome);
                C::undo(&mut pos, outcome);
                assert_eq!((pos.sfen(), pos.key()), (sfen, key), "undo restores");
                C::apply(&mut pos, outcome);
                played.push(Step::Chance(outcome));
                continue;
            }
            if pos.at_chance() {
                // Dice due, and these playouts do not throw them.
                break;
            }
            check_node(&pos, rules);
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            each_node(&pos);
            let mv = moves[rng.gen_range(0..moves.len())];
            let (sfen, key, ply) = (pos.sfen(), pos.key(), pos.ply());
            pos.make(mv);
            assert_eq!(pos.ply(), ply + 1);
            pos.unmake(mv);
            assert_eq!((pos.sfen(), pos.key()), (sfen, key), "unmake restores");
            pos.make(mv);
            played.push(Step::Move(mv));
            plies += 1;
        }
        ends.push(pos.outcome());
        // Unwinding the whole game returns to the start.
        while let Some(step) = played.pop() {
            match step {
                Step::Move(mv) => pos.unmake(mv),
                Step::Chance(outcome) => C::undo(&mut pos, outcome),
            }
        }
        assert_eq!((pos.sfen(), pos.key()), (start.sfen(), start.key()));
    }
    ends
}

/// The key and the notation: what every node, chance nodes included, must keep.
fn check_position<G: Notation>(pos: &G, rules: &G::Rules) {
    let reread = G::from_sfen(&pos.sfen(), rules).expect("own notation reads back");
    assert_eq!(reread.sfen(), pos.sfen());
    assert_eq!(
        reread.key(),
        pos.key(),
        "notation carries everything the key covers"
    );
}

/// A node with a player to move: [`check_position`], the moves and the outcome.
pub fn check_node<G: Notation>(pos: &G, rules: &G::Rules) {
    check_position(pos, rules);
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    assert_eq!(pos.count_moves(), moves.len() as u64);
    let mut again = moves.clone();
    pos.generate_moves(&mut again);
    assert!(
        again[..] == moves[..],
        "generating replaces what the list held"
    );
    for (i, &mv) in moves.iter().enumerate() {
        let text = pos.format_move(mv);
        assert_eq!(pos.parse_move(&text), Ok(mv), "{text} reads back");
        assert!(!moves[..i].contains(&mv), "{text} generated twice");
    }
    match pos.outcome() {
        None => assert!(!moves.is_empty(), "a game with no legal move is over"),
        Some(outcome) => {
            assert!(!outcome.reason.is_empty());
            if let GameResult::Win { winner, points } = outcome.result {
                assert!(winner.index() < G::SEATS && points >= 1);
            }
        }
    }
    assert!(pos.side_to_move().index() < G::SEATS);
}

/// Feeds `count` garbled versions of the notation of positions along a random
/// playout from `start` (characters dropped, doubled, replaced, fields cut) to
/// `from_sfen`, and garbled moves to `play_text`: nothing panics, a text that
/// reads is a position that round-trips and can be played from, and a refused
/// move leaves the position as it was.
pub fn garbled_inputs<G: Notation>(start: &G, rules: &G::Rules, count: usize, seed: u64) {
    const ALPHABET: &[u8] = b"0123456789abcdefghiwbKRGSPLNBkrgspnl+-*/:@ ,.x";
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = start.clone();
    for _ in 0..count {
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() || pos.outcome().is_some() || rng.gen_range(0..8) == 0 {
            pos = start.clone();
        } else {
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
        let mut text = pos.sfen().into_bytes();
        for _ in 0..rng.gen_range(1..4) {
            let at = rng.gen_range(0..text.len().max(1));
            let byte = ALPHABET[rng.gen_range(0..ALPHABET.len())];
            match rng.gen_range(0..5) {
                0 if !text.is_empty() => {
                    text.remove(at.min(text.len() - 1));
                }
                1 => text.insert(at.min(text.len()), byte),
                2 if !text.is_empty() => {
                    let at = at.min(text.len() - 1);
                    text[at] = byte;
                }
                3 => text.truncate(at),
                _ => {
                    let copy = text[at.min(text.len())..].to_vec();
                    text.extend_from_slice(&copy);
                }
            }
        }
        let text = String::from_utf8_lossy(&text).into_owned();
        if let Ok(read) = G::from_sfen(&text, rules) {
            let again = G::from_sfen(&read.sfen(), rules).expect("own notation reads back");
            assert_eq!(again.sfen(), read.sfen(), "from {text}");
            let mut moves = MoveList::new();
            read.generate_moves(&mut moves);
            if let Some(&mv) = moves.first() {
                let mut after = read.clone();
                after.make(mv);
                after.unmake(mv);
                assert_eq!(after.sfen(), read.sfen(), "from {text}");
            }
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let word = match moves.first() {
            Some(&mv) if rng.gen_bool(0.5) => pos.format_move(mv),
            _ => String::new(),
        };
        let mut word = word.into_bytes();
        for _ in 0..rng.gen_range(1..4) {
            let byte = ALPHABET[rng.gen_range(0..ALPHABET.len())];
            let at = rng.gen_range(0..=word.len());
            word.insert(at, byte);
        }
        let word = String::from_utf8_lossy(&word).into_owned();
        let mut tried = pos.clone();
        if tried.play_text(&word).is_err() {
            assert_eq!(
                tried.sfen(),
                pos.sfen(),
                "a refused '{word}' changes nothing"
            );
            assert_eq!(tried.key(), pos.key());
        }
    }
}

/// The generic suite, run over a registry with
/// `for_each_game(&mut conformance::Suite)`: for each game, its entry agrees
/// with its session; from the start and from every bench and perft bench
/// position, random playouts ([`random_playouts`]) and garbled input
/// ([`garbled_inputs`]) pass; perft at the perft bench positions (at most two
/// plies) counts the same made or bulk and sums its divide; and a search of
/// two plies from every bench position answers a legal move. A game's own
/// tests add its rules and the positions that reach its special ones.
pub struct Suite;

/// Garbled inputs fed per game, shared among its starting positions.
const GARBLED_PER_GAME: usize = 3_000;

impl GameVisitor for Suite {
    fn visit<G: Playable>(&mut self, entry: &'static GameEntry) {
        let name = entry.name();
        assert_eq!(G::PROFILE.name, name);
        assert_eq!(
            G::PROFILE.seat_names.len(),
            G::SEATS,
            "{name}: a name for every seat"
        );
        let mut session = (entry.new_session)();
        assert_eq!(session.game(), name);
        assert_eq!(
            (session.seats(), session.has_chance()),
            (entry.seats, entry.profile.has_chance),
            "{name}: the entry's seats and dice are the session's"
        );
        let rules = G::Rules::default();
        let read = |sfen: &str| {
            G::from_sfen(sfen, &rules).unwrap_or_else(|e| panic!("{name}: '{sfen}': {e}"))
        };
        let perft_bench = G::PROFILE.perft_bench.iter().map(|&(sfen, _)| sfen);
        let starts: Vec<G> = std::iter::once(G::start(&rules))
            .chain(
                G::PROFILE
                    .bench
                    .iter()
                    .copied()
                    .chain(perft_bench)
                    .map(read),
            )
            .collect();
        for (seed, start) in (0..).zip(&starts) {
            random_playouts(start, &rules, 4, 80, seed);
            garbled_inputs(start, &rules, GARBLED_PER_GAME / starts.len(), seed);
        }
        for &(sfen, depth) in G::PROFILE.perft_bench {
            let (pos, depth) = (read(sfen), depth.min(2));
            let made = pos.perft(depth, false);
            assert_eq!(
                pos.perft(depth, true),
                made,
                "{name}: bulk perft of '{sfen}'"
            );
            let divided: u64 = pos.divide(depth).iter().map(|(_, n)| n).sum();
            assert_eq!(divided, made, "{name}: divide of '{sfen}'");
        }
        session
            .set_option(crate::session::HASH, "1")
            .expect("a hash size");
        session.prepare().expect("the session prepares");
        for sfen in G::PROFILE.bench {
            session
                .set_position(Some(sfen), &[])
                .expect("a bench position");
            let limits = Limits {
                depth: Some(2),
                ..Limits::default()
            };
            if let Some(refusal) = session.search_refusal(&limits) {
                panic!("{name}: the bench position '{sfen}' cannot be searched: {refusal:?}");
            }
            let best = session.search(&limits, &SearchControl::new(false), &mut |_| {});
            let best = best.best.expect("a bench position has a move");
            assert!(
                session.legal_moves().contains(&best),
                "{name}: '{best}' is not legal in '{sfen}'"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_registered_game_passes_the_generic_suite() {
        crate::registry::for_each_game(&mut super::Suite);
    }
}
