//! Annan rule tests on hand-built positions.

use crate::core::Notation;
use crate::session::Playable;

use super::*;
use crate::core::{Game, Seat};
use crate::perft::perft;

#[test]
fn perft_from_start() {
    let mut pos = Annan::start(&AnnanRules::default());
    for (depth, count) in [(1, 32), (2, 1_023), (3, 32_008)] {
        assert_eq!(perft(&mut pos, depth), count, "depth {depth}");
    }
}

#[test]
fn perft_depth_4_under_both_dead_piece_settings() {
    let mut pos = Annan::start(&AnnanRules::default());
    assert_eq!(perft(&mut pos, 4), 1_002_013);
    let forbid = AnnanRules {
        dead_piece: DeadPiece::Forbid,
        ..AnnanRules::default()
    };
    let mut pos = Annan::start(&forbid);
    assert_eq!(perft(&mut pos, 4), 1_002_012);
}

#[test]
#[ignore = "deep perft"]
fn perft_depth_5() {
    let mut pos = Annan::start(&AnnanRules::default());
    assert_eq!(perft(&mut pos, 5), 31_324_744);
}

use crate::core::game::GameResult;
use crate::core::{HouseRules, MoveList, Outcome};

fn forbid() -> AnnanRules {
    let mut rules = AnnanRules::default();
    rules.set("AnnanDeadPiece", "forbid").unwrap();
    rules
}

fn at(sfen: &str) -> Annan {
    Annan::from_sfen(sfen, &AnnanRules::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn legal(pos: &Annan) -> Vec<String> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    out.sort();
    out
}

/// The legal moves starting with `prefix` (a square or a drop such as `P*`).
fn legal_from(pos: &Annan, prefix: &str) -> Vec<String> {
    legal(pos)
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect()
}

fn play(pos: &mut Annan, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
        pos.make(mv);
    }
}

#[test]
fn a_piece_moves_like_its_own_back_piece() {
    // Gold on 5e with a rook behind moves like a rook, and only so.
    let pos = at("k8/9/9/9/4G4/4R4/9/9/8K b - 1");
    assert_eq!(
        legal_from(&pos, "5e"),
        [
            "5e1e", "5e2e", "5e3e", "5e4e", "5e5a", "5e5b", "5e5c", "5e5d", "5e6e", "5e7e", "5e8e",
            "5e9e"
        ]
    );
}

#[test]
fn a_promoted_back_piece_lends_its_promoted_movement() {
    // A dragon behind a pawn: rook slides plus diagonal steps; promotion by the
    // pawn's own type; 5a without promotion would leave it dead (nothing behind).
    let pos = at("k8/9/9/9/4P4/4+R4/9/9/8K b - 1");
    let moves = legal_from(&pos, "5e");
    for expected in [
        "5e5c", "5e5c+", "5e5b", "5e5b+", "5e5a+", "5e4d", "5e6d", "5e4f", "5e1e",
    ] {
        assert!(
            moves.contains(&expected.to_string()),
            "{expected} in {moves:?}"
        );
    }
    assert!(!moves.contains(&"5e5a".to_string()));
    assert!(
        !moves.contains(&"5e4d+".to_string()),
        "4d is outside the zone"
    );
}

#[test]
fn borrowing_is_not_transitive() {
    // Silver ← gold ← rook: the silver moves like a gold, not like a rook.
    let pos = at("k8/9/9/9/4S4/4G4/4R4/9/8K b - 1");
    assert_eq!(
        legal_from(&pos, "5e"),
        ["5e4d", "5e4e", "5e5d", "5e6d", "5e6e"]
    );
}

#[test]
fn an_opponent_piece_behind_lends_nothing() {
    let pos = at("k8/9/9/9/4G4/4r4/9/9/8K b - 1");
    assert_eq!(
        legal_from(&pos, "5e"),
        ["5e4d", "5e4e", "5e5d", "5e5f", "5e6d", "5e6e"]
    );
}

#[test]
fn the_king_borrows_and_lends_too() {
    // King with a rook behind slides like a rook; the rook on the first rank keeps
    // its own movement.
    let pos = at("k8/9/9/9/9/9/9/4K4/4R4 b - 1");
    let king = legal_from(&pos, "5h");
    assert!(king.contains(&"5h5b".to_string()) && king.contains(&"5h9h".to_string()));
    assert!(
        !king.contains(&"5h4g".to_string()),
        "no diagonal step while moving like a rook"
    );
    assert!(legal_from(&pos, "5i").contains(&"5i1i".to_string()));
    // A lance in front of the king moves like a king.
    let pos = at("k8/9/9/9/9/9/4L4/4K4/9 b - 1");
    assert_eq!(
        legal_from(&pos, "5g"),
        ["5g4f", "5g4g", "5g4h", "5g5f", "5g6f", "5g6g", "5g6h"]
    );
}

#[test]
fn white_borrows_in_its_own_direction() {
    // White gold on 5e with a white rook behind it (toward white's camp, 5d).
    let pos = Annan::from_sfen("K8/9/9/4r4/4g4/9/9/9/8k w - 1", &AnnanRules::default()).unwrap();
    let moves = legal_from(&pos, "5e");
    assert!(
        moves.contains(&"5e5i".to_string()),
        "slides toward black's camp"
    );
    assert!(!moves.contains(&"5e4f".to_string()), "no gold step");
}

#[test]
fn arriving_behind_a_piece_can_give_check() {
    // The rook steps behind the pawn on 1e, which now moves like a rook up to 1a.
    let mut pos = at("8k/9/9/9/8P/7R1/9/9/K8 b - 1");
    assert!(!pos.state().in_check(Seat::SECOND));
    play(&mut pos, "2f1f");
    assert!(
        pos.in_check(),
        "white is in check from a pawn moving like a rook"
    );
}

#[test]
fn capturing_the_back_piece_can_answer_a_check() {
    // The white pawn on 5c moves like the rook behind it and checks down the file;
    // taking that rook turns the pawn back into a pawn.
    let pos = at("k8/4r4/4p4/9/7B1/9/4K4/9/9 b - 1");
    assert!(pos.in_check());
    let moves = legal(&pos);
    assert!(moves.contains(&"2e5b".to_string()) && moves.contains(&"2e5b+".to_string()));
    assert!(
        !moves.contains(&"2e3d".to_string()),
        "a move that leaves the check is illegal"
    );
}

#[test]
fn capturing_the_back_piece_can_expose_the_own_king() {
    // The white pawn on 5f moves like the bishop behind it; capturing the bishop
    // makes it a pawn again, attacking the black king on 5g.
    let pos = at("k8/4R4/9/9/4b4/4p4/4K4/9/9 b - 1");
    assert!(!pos.in_check());
    let moves = legal_from(&pos, "5b");
    assert!(!moves.contains(&"5b5e".to_string()) && !moves.contains(&"5b5e+".to_string()));
    assert!(moves.contains(&"5b5d".to_string()));
}

#[test]
fn promotion_goes_by_original_type() {
    // A gold moving like a rook into the zone cannot promote.
    let pos = at("k8/9/9/9/4G4/4R4/9/9/8K b - 1");
    assert!(legal_from(&pos, "5e").iter().all(|m| !m.ends_with('+')));
    // A pawn moving like a gold sideways inside the zone may promote.
    let pos = at("k8/9/4P4/4G4/9/9/9/9/8K b - 1");
    let moves = legal_from(&pos, "5c");
    for expected in ["5c4c", "5c4c+", "5c5b", "5c5b+", "5c4b", "5c4b+"] {
        assert!(
            moves.contains(&expected.to_string()),
            "{expected} in {moves:?}"
        );
    }
}

#[test]
fn dead_piece_rule_under_both_settings() {
    // Pawn on 6b moves like the gold behind it; on 5a the silver on 5b supports it.
    let sfen = "k8/3PS4/3G5/9/9/9/9/9/8K b - 1";
    let support = Annan::from_sfen(sfen, &AnnanRules::default()).unwrap();
    let forbidding = Annan::from_sfen(sfen, &forbid()).unwrap();
    let with_support = legal_from(&support, "6b");
    let by_type = legal_from(&forbidding, "6b");
    assert!(
        with_support.contains(&"6b5a".to_string()),
        "{with_support:?}"
    );
    assert!(!by_type.contains(&"6b5a".to_string()));
    for moves in [&with_support, &by_type] {
        assert!(moves.contains(&"6b5a+".to_string()));
        assert!(
            !moves.contains(&"6b6a".to_string()),
            "nothing behind 6a once the pawn leaves 6b"
        );
        assert!(moves.contains(&"6b6a+".to_string()));
    }

    // Drops: a pawn on 5a with the silver behind it; a knight on 5b with a gold behind.
    let pawn = "k8/4S4/9/9/9/9/9/9/8K b P 1";
    let knight = "k8/9/4G4/9/9/9/9/9/8K b N 1";
    for (sfen, supported, unsupported) in [(pawn, "P*5a", "P*4a"), (knight, "N*5b", "N*4b")] {
        let support = Annan::from_sfen(sfen, &AnnanRules::default()).unwrap();
        let forbidding = Annan::from_sfen(sfen, &forbid()).unwrap();
        assert!(
            support.parse_move(supported).is_ok(),
            "{supported} with support"
        );
        assert!(
            forbidding.parse_move(supported).is_err(),
            "{supported} forbidden by type"
        );
        assert!(
            support.parse_move(unsupported).is_err() && forbidding.parse_move(unsupported).is_err()
        );
    }
}

/// White's `P*5h` in front of its knight on 5g (it would move like the knight,
/// which has no square from 5h) and black's `P*9b`, `L*9b` in front of its knight
/// on 9c: none is on the piece's last rank, so the dead-piece rule does not
/// concern them under either setting (issue 13; they were refused under `support`).
const BORROWED_DEAD_END_POSITIONS: [(&str, &[&str]); 2] = [
    (
        "l1pG3S+P/2s4+L1/kb3pp+N1/6P1P/1PR5s/1p1PG1n2/+p+pP1nP1NK/LB7/1GS2+p3 w RGL3Pp 174",
        &["P*5h"],
    ),
    (
        "1+N1g2snl/3ks4/N2g1pp1p/L5bp1/3pp4/6P1R/3BP2PP/3+rSKS2/4GP1NL b LPg6p 61",
        &["P*9b", "L*9b"],
    ),
];

#[test]
fn a_borrowed_movement_going_nowhere_off_the_last_ranks_refuses_nothing() {
    for (sfen, drops) in BORROWED_DEAD_END_POSITIONS {
        for rules in [AnnanRules::default(), forbid()] {
            let pos = Annan::from_sfen(sfen, &rules).unwrap();
            for drop in drops {
                let mv = pos.parse_move(drop);
                assert!(
                    mv.is_ok(),
                    "{drop} in {sfen} ({:?}): {mv:?}",
                    rules.dead_piece
                );
                // The piece stands, stuck by what it borrows, and the game goes on.
                let mut after = pos.clone();
                after.make(mv.unwrap());
                assert!(after.outcome().is_none(), "{drop} in {sfen}");
            }
        }
    }
    // The same on a bare board. Off its own dead ranks only a pawn or lance on
    // the second rank in front of a knight can be stuck by what it borrows: by
    // a drop, or by a board move (the pawn on 4c moves like the gold behind it
    // and steps to 5b, in front of the knight on 5c).
    for rules in [AnnanRules::default(), forbid()] {
        let pos = Annan::from_sfen("k8/9/4NP3/5G3/9/9/9/9/8K b PL 1", &rules).unwrap();
        for mv in ["P*5b", "L*5b", "4c5b", "4c5b+"] {
            assert!(pos.parse_move(mv).is_ok(), "{mv} ({:?})", rules.dead_piece);
        }
        // The same for white: P*5h and 6g5h in front of the knight on 5g.
        let pos = Annan::from_sfen("8k/9/9/9/9/3g5/3pn4/9/K8 w pl 1", &rules).unwrap();
        for mv in ["P*5h", "L*5h", "6g5h", "6g5h+"] {
            assert!(pos.parse_move(mv).is_ok(), "{mv} ({:?})", rules.dead_piece);
        }
    }
}

#[test]
fn the_dead_piece_rule_still_applies_on_the_last_ranks() {
    // (position, move, legal under support, legal under forbid)
    let cases = [
        // A lance or knight dropped on the last rank in front of a gold moves like it.
        ("k8/4G4/9/9/9/9/9/9/8K b LN 1", "L*5a", true, false),
        ("k8/4G4/9/9/9/9/9/9/8K b LN 1", "N*5a", true, false),
        // Nothing behind: stuck by its own kind under both settings.
        ("k8/4G4/9/9/9/9/9/9/8K b LN 1", "L*4a", false, false),
        ("k8/4G4/9/9/9/9/9/9/8K b LN 1", "N*4b", false, false),
        // A knight on the third rank is no dead piece at all.
        ("k8/4G4/9/9/9/9/9/9/8K b LN 1", "N*4c", true, true),
        // A support that goes nowhere from the last rank helps nothing.
        ("k8/4N4/9/9/9/9/9/9/8K b LP 1", "L*5a", false, false),
        ("k8/4N4/9/9/9/9/9/9/8K b LP 1", "P*5a", false, false),
        ("k8/4L4/9/9/9/9/9/9/8K b N 1", "N*5a", false, false),
        // A knight on the second rank in front of a pawn moves like the pawn.
        ("k8/9/4P4/9/9/9/9/9/8K b N 1", "N*5b", true, false),
        // A knight jumping to the second rank: in front of the silver on 5c it
        // moves like a silver; on 3b nothing is behind it.
        ("k8/9/4S4/5N3/9/9/9/9/8K b - 1", "4d5b", true, false),
        ("k8/9/4S4/5N3/9/9/9/9/8K b - 1", "4d5b+", true, true),
        ("k8/9/4S4/5N3/9/9/9/9/8K b - 1", "4d3b", false, false),
        ("k8/9/4S4/5N3/9/9/9/9/8K b - 1", "4d3b+", true, true),
        // White: a lance dropped on its last rank (i) in front of its gold on 5h.
        ("8k/9/9/9/9/9/9/4g4/K8 w l 1", "L*5i", true, false),
        ("8k/9/9/9/9/9/9/4g4/K8 w l 1", "L*4i", false, false),
    ];
    for (sfen, mv, with_support, by_type) in cases {
        for (rules, expected) in [(AnnanRules::default(), with_support), (forbid(), by_type)] {
            let pos = Annan::from_sfen(sfen, &rules).unwrap();
            assert_eq!(
                pos.parse_move(mv).is_ok(),
                expected,
                "{mv} in {sfen} under {:?}",
                rules.dead_piece
            );
        }
    }
}

/// Random playouts from the start and from the positions: in every
/// position visited, each move legal under `forbid` is legal under `support`,
/// and the moves only `support` allows are plain moves and drops of a pawn,
/// lance or knight onto a square its own kind could never leave.
#[test]
fn support_allows_every_move_forbid_allows() {
    use super::attacks::no_destination;
    use super::movegen::for_each_legal;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use std::collections::BTreeSet;

    let support = AnnanRules::default();
    let forbidding = forbid();
    let legal_under = |pos: &Annan, rules: &AnnanRules| {
        let mut moves = BTreeSet::new();
        for_each_legal(pos.state(), pos.side_to_move(), rules, &mut |mv| {
            moves.insert(pos.format_move(mv));
            false
        });
        moves
    };
    let starts = [
        START_SFEN,
        BORROWED_DEAD_END_POSITIONS[0].0,
        BORROWED_DEAD_END_POSITIONS[1].0,
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let (mut positions, mut only_support) = (0, 0);
    for (game, sfen) in starts.iter().cycle().take(45).enumerate() {
        let mut pos = Annan::from_sfen(sfen, &support).unwrap();
        for _ in 0..160 {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            let by_type = legal_under(&pos, &forbidding);
            let with_support = legal_under(&pos, &support);
            let at = || format!("{} (game {game})", pos.sfen());
            assert_eq!(with_support.len(), moves.len(), "{}", at());
            assert!(
                by_type.is_subset(&with_support),
                "legal only under forbid in {}: {:?}",
                at(),
                by_type.difference(&with_support).collect::<Vec<_>>()
            );
            let (state, us) = (pos.state(), pos.side_to_move());
            for &mv in moves.iter() {
                if by_type.contains(&pos.format_move(mv)) {
                    continue;
                }
                only_support += 1;
                let kind = mv
                    .dropped()
                    .unwrap_or_else(|| state.at(mv.from().unwrap()).kind());
                assert!(
                    matches!(kind, Kind::Pawn | Kind::Lance | Kind::Knight)
                        && !mv.promotes()
                        && no_destination(us, kind).has(mv.to()),
                    "{} legal only under support in {}",
                    pos.format_move(mv),
                    at()
                );
            }
            positions += 1;
            if moves.is_empty() {
                break;
            }
            // Captures and drops half of the time, to fill the hands.
            let lively: Vec<AnnanMove> = moves
                .iter()
                .copied()
                .filter(|mv| mv.dropped().is_some() || !state.at(mv.to()).is_none())
                .collect();
            let mv = if !lively.is_empty() && rng.gen_bool(0.5) {
                lively[rng.gen_range(0..lively.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            pos.make(mv);
        }
    }
    assert!(
        positions > 4_000 && only_support > 0,
        "{positions} positions, {only_support} moves legal only under support"
    );
}

#[test]
fn two_pawns_on_a_file_by_original_type() {
    // From the start, the pawn on 8g moves like the bishop behind it (so not to
    // 8f), and only 8g4c+ avoids a second pawn on a file.
    let start = Annan::start(&AnnanRules::default());
    assert_eq!(legal_from(&start, "8g"), ["8g4c+"]);

    // Drops count unpromoted own pawns only.
    assert!(at("k8/9/9/9/9/9/4P4/9/8K b P 1")
        .parse_move("P*5e")
        .is_err());
    assert!(at("k8/9/9/9/9/9/4P4/9/8K b P 1").parse_move("P*4e").is_ok());
    assert!(at("k8/9/9/9/9/9/4+P4/9/8K b P 1")
        .parse_move("P*5e")
        .is_ok());
    assert!(at("k8/9/9/9/9/9/4p4/9/8K b P 1").parse_move("P*5e").is_ok());

    // A pawn moving like a gold may not step diagonally onto a file with another pawn.
    let pos = at("k8/9/9/9/4PP3/4G4/9/9/8K b - 1");
    let moves = legal_from(&pos, "5e");
    assert!(moves.contains(&"5e6d".to_string()) && moves.contains(&"5e6e".to_string()));
    assert!(!moves.contains(&"5e4d".to_string()));
}

#[test]
fn drop_pawn_mate_is_illegal_whoever_gives_the_check() {
    // The rules' example: the pawn makes the bishop in front of it move like a pawn.
    let pos = at("7lk/7pB/9/9/9/9/9/9/4K4 b P 1");
    let err = pos.parse_move("P*1c").unwrap_err();
    assert!(err.reason.contains("not a legal move"), "{err}");
    assert!(pos.parse_move("P*5e").is_ok());
    // With 2a free the king escapes: the same drop is a legal check.
    let mut pos = at("8k/7pB/9/9/9/9/9/9/4K4 b P 1");
    play(&mut pos, "P*1c");
    assert!(pos.in_check());
    assert!(pos.outcome().is_none());

    // The dropped pawn itself checks with the movement it borrows: on 1b in front
    // of the gold on 1c it moves like a gold and covers 2a too, so the king has no
    // escape (a plain pawn would leave 2a free).
    let pos = at("8k/9/8G/9/9/9/9/9/K8 b P 1");
    assert!(pos.parse_move("P*1b").is_err());
    assert!(pos.parse_move("P*2b").is_ok());
}

#[test]
fn checkmate_and_no_legal_move_lose() {
    // Gold on 2b moves like the silver behind it and checks 1a; every escape is covered.
    let pos = Annan::from_sfen("8k/7G1/7S1/9/9/9/9/9/K8 w - 1", &AnnanRules::default()).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::win(Seat::FIRST, "checkmate")));
    // Not in check, but no legal move.
    let pos = Annan::from_sfen("8k/6S2/8G/9/9/9/9/9/K8 w - 1", &AnnanRules::default()).unwrap();
    assert!(!pos.in_check());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::FIRST, "no-legal-move"))
    );
}

#[test]
fn fourfold_repetition_is_a_draw() {
    let mut pos = at("8k/9/9/9/9/9/9/9/K8 b - 1");
    for _ in 0..3 {
        assert_eq!(pos.outcome(), None);
        play(&mut pos, "9i9h 1a1b 9h9i 1b1a");
    }
    assert_eq!(pos.occurrences(), 4);
    assert_eq!(pos.outcome(), Some(Outcome::draw("repetition")));
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    let mut pos = at("8k/9/7R1/9/9/9/9/9/K8 b - 1");
    for _ in 0..3 {
        assert_eq!(pos.outcome(), None);
        play(&mut pos, "2c1c 1a2a 1c2c 2a1a");
    }
    let outcome = pos.outcome().unwrap();
    assert_eq!(
        outcome.result,
        GameResult::Win {
            winner: Seat::SECOND,
            points: 1
        }
    );
    assert_eq!(outcome.reason, "perpetual-check");
}

#[test]
fn move_limit_draws() {
    let rules = AnnanRules {
        move_limit: 2,
        ..AnnanRules::default()
    };
    let mut pos = Annan::start(&rules);
    play(&mut pos, "7g7f");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "3c3d");
    assert_eq!(pos.outcome(), Some(Outcome::draw("move-limit")));
}

#[test]
fn sfen_round_trips_and_bad_sfens_are_refused() {
    for sfen in [
        START_SFEN,
        "ln1g1g1nl/1ks2r3/1pppp1bpp/p4pp2/9/2P1P1P2/PP1P1P1PP/1BK1GS1R1/LNSG3NL b S 25",
        "7lk/7pB/9/9/9/9/9/9/4K4 b P 1",
        "k8/9/9/9/4P4/4+R4/9/9/8K w B2P3p 7",
    ] {
        assert_eq!(at(sfen).sfen(), sfen);
    }
    for (sfen, why) in [
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
            "covers 8",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1",
            "covers 10",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            "side to move",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1",
            "cannot be promoted",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b X 1",
            "unknown piece",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
            "at most 18",
        ),
        ("k8/9/9/9/9/9/9/9/KK7 b - 1", "two black kings"),
        ("k8/R8/9/9/9/9/9/9/8K b - 1", "not to move is in check"),
    ] {
        let err = Annan::from_sfen(sfen, &AnnanRules::default()).expect_err(sfen);
        assert!(err.reason.contains(why), "{sfen}: {}", err.reason);
    }
}

#[test]
fn garbled_and_illegal_moves_are_refused() {
    let pos = Annan::start(&AnnanRules::default());
    for (text, why) in [
        ("7g7", "expected a move"),
        ("7g7f++", "expected a move"),
        ("K*5e", "expected a move"),
        ("p*5e", "expected a move"),
        ("5e5d", "no piece"),
        ("P*5e", "no P in hand"),
        ("7g7e", "not a legal move"),
    ] {
        let err = pos.parse_move(text).expect_err(text);
        assert!(err.reason.contains(why), "{text}: {}", err.reason);
    }
}

#[test]
fn conformance_under_both_dead_piece_settings() {
    crate::core::conformance::random_playouts(
        &Annan::start(&AnnanRules::default()),
        &AnnanRules::default(),
        12,
        160,
        1,
    );
    crate::core::conformance::random_playouts(&Annan::start(&forbid()), &forbid(), 12, 160, 2);
}

mod search {
    use super::*;
    use crate::search::alphabeta::AlphaBeta;
    use crate::search::{Limits, Score, SearchConfig, SearchControl, Searcher};

    fn search(sfen: &str, depth: u32) -> (String, Score) {
        let pos = at(sfen);
        let mut searcher: AlphaBeta<_> = Searcher::<Annan>::new(&SearchConfig::default());
        let result = searcher.search(
            &pos,
            &Limits::depth(depth),
            &SearchControl::new(false),
            &mut |_| {},
        );
        (pos.format_move(result.best.expect("a move")), result.score)
    }

    #[test]
    fn finds_a_drop_mate() {
        let (mv, score) = search("8k/9/7S1/9/9/9/9/9/K8 b G 1", 3);
        assert_eq!(score, Score::Mate(1));
        let mut pos = at("8k/9/7S1/9/9/9/9/9/K8 b G 1");
        play(&mut pos, &mv);
        assert_eq!(pos.outcome(), Some(Outcome::win(Seat::FIRST, "checkmate")));
    }

    #[test]
    fn sees_the_mate_it_walks_into() {
        // White to move is mated whatever it does after black's drop: the losing
        // side's search reports the mate against it.
        let (_, score) = search("8k/9/7S1/9/9/9/9/9/K8 w G 1", 4);
        assert!(matches!(score, Score::Mate(n) if n < 0), "{score:?}");
    }

    #[test]
    fn self_play_at_low_depth_ends_games_by_the_rules() {
        use crate::core::MoveList;
        for seed in 0..2u64 {
            let mut pos = Annan::start(&AnnanRules {
                move_limit: 120,
                ..AnnanRules::default()
            });
            let mut searcher: AlphaBeta<_> = Searcher::<Annan>::new(&SearchConfig {
                hash_mb: 4,
                seed,
                ..Default::default()
            });
            // A different first move per game.
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            pos.make(moves[seed as usize * 7 % moves.len()]);
            while pos.outcome().is_none() {
                let result = searcher.search(
                    &pos,
                    &Limits::depth(2),
                    &SearchControl::new(false),
                    &mut |_| {},
                );
                let mv = result.best.expect("a game not over has a move");
                let text = pos.format_move(mv);
                assert_eq!(
                    pos.parse_move(&text),
                    Ok(mv),
                    "the searcher plays legal moves"
                );
                pos.make(mv);
            }
            assert!(pos.ply() <= 120);
        }
    }
}
