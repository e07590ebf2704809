//! Checks every game must pass, run from each game's tests: random playouts with
//! undo, notation round trips, key twins, well-formed outcomes.

use super::game::GameResult;
use super::{Game, MoveList};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays `games` random games of at most `max_plies` from `start`, checking at
/// every node that the game's parts agree with each other.
pub fn random_playouts<G: Game>(start: &G, games: usize, max_plies: usize, seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..games {
        let mut pos = start.clone();
        let mut played = Vec::new();
        for _ in 0..max_plies {
            check_node(&pos);
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            let (sfen, key, ply) = (pos.sfen(), pos.key(), pos.ply());
            pos.make(mv);
            assert_eq!(pos.ply(), ply + 1);
            pos.unmake(mv);
            assert_eq!((pos.sfen(), pos.key()), (sfen, key), "unmake restores");
            pos.make(mv);
            played.push(mv);
        }
        // Unwinding the whole game returns to the start.
        while let Some(mv) = played.pop() {
            pos.unmake(mv);
        }
        assert_eq!((pos.sfen(), pos.key()), (start.sfen(), start.key()));
    }
}

pub fn check_node<G: Game>(pos: &G) {
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "incremental key equals its twin"
    );
    let reread = G::from_sfen(&pos.sfen(), pos.rules()).expect("own notation reads back");
    assert_eq!(reread.sfen(), pos.sfen());
    assert_eq!(
        reread.key(),
        pos.key(),
        "notation carries everything the key covers"
    );

    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    assert_eq!(pos.count_moves(), moves.len() as u64);
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
                assert!((winner as usize) < G::SEATS && points >= 1);
            }
        }
    }
    assert!((pos.side_to_move() as usize) < G::SEATS);
}
