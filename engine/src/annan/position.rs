//! The Annan position: state, side to move, key, the moves to unmake and the
//! keys repetition is counted on.

use super::movegen::{count_legal, for_each_check, for_each_legal, has_legal_move};
use super::piece::{Kind, Piece};
use super::rules::AnnanRules;
use super::state::{AnnanMove, State, BLACK, WHITE};
use crate::core::board9::Square;
use crate::core::zobrist::key_table;
use crate::core::Notation;
use crate::core::{Game, KeyHistory, MoveError, MoveList, Outcome, ParseError, Seat};

/// A move of `us` that mates at once (see [`Annan::mate_in_one`]).
fn mate_in_one(state: &State, us: Seat, rules: &AnnanRules) -> Option<AnnanMove> {
    let mut found = None;
    for_each_check(state, us, rules, &mut |mv, after| {
        let mates = !has_legal_move(after, us.other(), rules);
        if mates {
            found = Some(mv);
        }
        mates
    });
    found
}

/// Per piece code and square; no piece is keyed 0, so that an empty square
/// needs no test.
static PIECE_KEYS: [u64; Piece::CODES * 81] = {
    let mut keys = key_table(0x414E_4E41_4E00);
    let mut sq = 0;
    while sq < 81 {
        keys[Piece::NONE.code() * 81 + sq] = 0;
        sq += 1;
    }
    keys
};
/// Per colour, hand kind and count (0 … 18).
static HAND_KEYS: [u64; 2 * 7 * 19] = key_table(0x414E_4E41_4E01);
const SIDE_KEY: u64 = 0x6A09_E667_F3BC_C909;

#[inline]
fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.code() * 81 + sq.index()]
}

#[inline]
fn hand_key(color: Seat, kind: Kind, count: u8) -> u64 {
    HAND_KEYS[(color.index() * 7 + kind.index()) * 19 + count as usize]
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: AnnanMove,
    captured: Piece,
}

#[derive(Clone, Debug)]
pub struct Annan {
    state: State,
    side: Seat,
    key: u64,
    base_ply: u32,
    history: Vec<Undo>,
    /// Nothing is irreversible: a captured piece can be dropped back and a
    /// promoted one, captured, returns unpromoted, so any position can recur.
    keys: KeyHistory<2>,
    rules: AnnanRules,
}

pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

impl Annan {
    pub(super) fn from_parts(state: State, side: Seat, ply: u32, rules: &AnnanRules) -> Annan {
        let mut pos = Annan {
            state,
            side,
            key: 0,
            base_ply: ply,
            history: Vec::with_capacity(256),
            keys: KeyHistory::with_capacity(256),
            rules: rules.clone(),
        };
        pos.key = pos.compute_key();
        pos
    }

    #[inline]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.state.in_check(self.side)
    }

    /// On the fourth occurrence: a draw, or a loss for a side every one of whose
    /// moves since the first of the four gave check.
    fn repetition(&self) -> Option<Outcome> {
        let first = self.keys.earlier(self.key, 0).nth(2)?;
        // Walk back to the first occurrence, noting whether each move left the
        // opponent in check.
        let mut state = self.state;
        let mut side = self.side;
        let mut all_checks = [true, true];
        for undo in self.history[first..].iter().rev() {
            let mover = side.other();
            if !state.in_check(side) {
                all_checks[mover.index()] = false;
            }
            state.revert(undo.mv, mover, undo.captured);
            side = mover;
        }
        Some(match all_checks {
            [true, false] => Outcome::win(WHITE, "perpetual-check"),
            [false, true] => Outcome::win(BLACK, "perpetual-check"),
            _ => Outcome::draw("repetition"),
        })
    }

    fn no_move_outcome(&self) -> Outcome {
        Outcome::win(
            self.side.other(),
            if self.in_check() {
                "checkmate"
            } else {
                "no-legal-move"
            },
        )
    }

    fn move_limit_reached(&self) -> bool {
        self.rules.move_limit > 0 && self.ply() >= self.rules.move_limit
    }

    /// How often the current position has stood, this time included.
    pub fn occurrences(&self) -> usize {
        self.keys.occurrences(self.key)
    }

    /// A move that mates at once: a check after which the opponent has no
    /// legal move (a drop-pawn mate is no legal move, rule 7). What the df-pn
    /// solver calls a mate in one; `None` if there is none.
    pub fn mate_in_one(&self) -> Option<AnnanMove> {
        mate_in_one(&self.state, self.side, &self.rules)
    }

    /// The legal moves of the side to move that give check.
    pub fn generate_checks(&self, moves: &mut MoveList<AnnanMove>) {
        moves.clear();
        for_each_check(&self.state, self.side, &self.rules, &mut |mv, _| {
            moves.push(mv);
            false
        });
    }
}

impl Annan {
    pub fn rules(&self) -> &AnnanRules {
        &self.rules
    }
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == WHITE { SIDE_KEY } else { 0 };
        for sq in Square::all() {
            key ^= piece_key(self.state.at(sq), sq);
        }
        for color in [BLACK, WHITE] {
            for kind in super::piece::HAND_KINDS {
                key ^= hand_key(color, kind, self.state.hands[color.index()][kind.index()]);
            }
        }
        key
    }
}

impl Game for Annan {
    type Move = AnnanMove;
    type Rules = AnnanRules;

    #[inline]
    fn side_to_move(&self) -> Seat {
        self.side
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.base_ply + self.history.len() as u32
    }

    fn generate_moves(&self, moves: &mut MoveList<AnnanMove>) {
        moves.clear();
        for_each_legal(&self.state, self.side, &self.rules, &mut |mv| {
            moves.push(mv);
            false
        });
    }

    fn count_moves(&self) -> u64 {
        count_legal(&self.state, self.side, &self.rules)
    }

    fn make(&mut self, mv: AnnanMove) {
        let us = self.side;
        let to = mv.to();
        let mut key = self.key ^ SIDE_KEY;
        key ^= piece_key(self.state.at(to), to);
        let touched_hand = match mv.from() {
            Some(from) => {
                key ^= piece_key(self.state.at(from), from);
                let captured = self.state.at(to);
                (!captured.is_none()).then(|| captured.kind().unpromoted())
            }
            None => mv.dropped(),
        };
        if let Some(kind) = touched_hand {
            key ^= hand_key(us, kind, self.state.hands[us.index()][kind.index()]);
        }
        let captured = self.state.apply(mv, us);
        key ^= piece_key(self.state.at(to), to);
        if let Some(kind) = touched_hand {
            key ^= hand_key(us, kind, self.state.hands[us.index()][kind.index()]);
        }
        self.history.push(Undo { mv, captured });
        self.keys.push(self.key);
        self.key = key;
        self.side = self.side.other();
        debug_assert_eq!(self.key, self.compute_key());
    }

    fn unmake(&mut self, mv: AnnanMove) {
        let undo = self.history.pop().expect("unmake without a move");
        debug_assert_eq!(undo.mv, mv);
        self.side = self.side.other();
        self.state.revert(mv, self.side, undo.captured);
        self.key = self.keys.pop();
        debug_assert_eq!(self.key, self.compute_key());
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn outcome(&self) -> Option<Outcome> {
        if !has_legal_move(&self.state, self.side, &self.rules) {
            return Some(self.no_move_outcome());
        }
        self.repetition().or_else(|| {
            self.move_limit_reached()
                .then(|| Outcome::draw("move-limit"))
        })
    }

    fn decided(&self) -> Option<Outcome> {
        // Repetition and the move limit are rare: only then is it worth asking
        // whether the side to move is mated, which comes first.
        let ended = self.repetition().or_else(|| {
            self.move_limit_reached()
                .then(|| Outcome::draw("move-limit"))
        })?;
        Some(if has_legal_move(&self.state, self.side, &self.rules) {
            ended
        } else {
            self.no_move_outcome()
        })
    }

    fn repeats_since(&self, since_ply: u32) -> bool {
        let since = since_ply.saturating_sub(self.base_ply) as usize;
        self.keys.repeats_since(self.key, since)
    }
}

impl Notation for Annan {
    fn format_move(&self, mv: AnnanMove) -> String {
        super::notation::format_move(mv)
    }

    fn parse_move(&self, text: &str) -> Result<AnnanMove, MoveError> {
        let mv = super::notation::parse_move(text)?;
        let mut legal = false;
        for_each_legal(&self.state, self.side, &self.rules, &mut |m| {
            legal = m == mv;
            legal
        });
        if legal {
            Ok(mv)
        } else {
            Err(MoveError::new(text, super::notation::why_illegal(self, mv)))
        }
    }
    fn from_sfen(sfen: &str, rules: &AnnanRules) -> Result<Self, ParseError> {
        super::notation::parse_sfen(sfen, rules)
    }
    fn sfen(&self) -> String {
        super::notation::sfen(&self.state, self.side, self.ply())
    }
    fn diagram(&self) -> String {
        super::notation::diagram(self)
    }
    fn status_details(&self) -> String {
        format!("check {}", if self.in_check() { "yes" } else { "no" })
    }

    fn readable_move(&self, mv: AnnanMove, kanji: bool) -> String {
        const LETTERS: [&str; 14] = [
            "P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R",
        ];
        let state = self.state();
        let on = |sq| {
            Some(state.at(sq))
                .filter(|p| !p.is_none())
                .map(|p| p.kind())
        };
        crate::core::readable::ReadableMove::shogi(mv, on, |k| LETTERS[k.index()], kanji)
    }
}
