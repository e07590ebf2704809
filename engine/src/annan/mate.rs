//! Tsume for `go mate`: a df-pn mate solver (depth-first proof-number search
//! with thresholds, Nagai 2002) for the side to move.
//!
//! The attacker (the side to move at the root) plays only checks, the defender
//! every legal answer; a defender in check without a legal move is mated. Moves
//! come from the position's own generator, so borrowed movement, the dead-piece
//! rule, two pawns on a file and drop-pawn mate (rule 7: refused by the
//! generator) are exactly those of `moves` and perft.
//!
//! A position repeated on the current path, or a path longer than `MAX_PLY`,
//! counts as no mate (a perpetual check loses for the checker); that verdict
//! depends on the path and is never stored. Under a move limit the mate has to
//! come within the plies left.
//!
//! The table keeps per position (Zobrist key, hands included) a proof with its
//! mate length, a disproof with the plies it covers, and proof and disproof
//! numbers estimated for one number of plies left. Searching again with fewer
//! plies left ("a mate shorter than the one found?") reuses all of it: this is
//! how the solver reports the shortest mate, and a line along which the
//! defender always takes the longest defence.

use super::position::Annan;
use super::state::AnnanMove;
use crate::clock::Instant;
use crate::core::{Game, MoveList};
use crate::search::tables::Scratch;
use crate::search::{Limits, SearchControl};
use crate::session::{MateAnswer, MateGoal};

/// Proof and disproof numbers at this value are infinite (resolved).
const INFINITE: u32 = u32::MAX / 4;
/// Plies left when no move limit bounds the search.
const UNBOUNDED: u16 = u16::MAX;
/// The longest path searched; a longer line counts as no mate.
const MAX_PLY: usize = 256;
/// Nodes between looks at the clock and at `stop`.
const POLL_INTERVAL: u64 = 1024;
/// Entries of the table by default (24 bytes each: 24 MiB).
pub const DEFAULT_TABLE_BITS: u32 = 20;
const WAYS: usize = 4;
/// Nodes allowed, past the deadline, to rebuild a mating line whose proof was
/// complete but partly overwritten in the table.
const GRACE_NODES: u64 = 100_000;

/// Proof and disproof numbers of a node, and when proven the plies to mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    pn: u32,
    dn: u32,
    /// Proven: plies from this node to the mate.
    plies: u16,
}

impl Numbers {
    const NO_MATE: Numbers = Numbers {
        pn: INFINITE,
        dn: 0,
        plies: 0,
    };

    const fn mate(plies: u16) -> Numbers {
        Numbers {
            pn: 0,
            dn: INFINITE,
            plies,
        }
    }

    const fn estimate(pn: u32, dn: u32) -> Numbers {
        Numbers { pn, dn, plies: 0 }
    }

    fn proven(self) -> bool {
        self.pn == 0
    }

    fn disproven(self) -> bool {
        self.dn == 0
    }
}

/// One less ply left, `UNBOUNDED` staying so.
#[inline]
fn fewer(plies_left: u16) -> u16 {
    if plies_left == UNBOUNDED {
        UNBOUNDED
    } else {
        plies_left.saturating_sub(1)
    }
}

/// Sum of proof (or disproof) numbers: infinite if one is, else at most
/// `INFINITE - 1`, so that an unresolved node never looks resolved.
#[inline]
fn add(a: u32, b: u32) -> u32 {
    if a >= INFINITE || b >= INFINITE {
        INFINITE
    } else {
        (a + b).min(INFINITE - 1)
    }
}

/// The threshold a best child gets from its nearest rival: a little above the
/// rival (the 1 + ε trick, ε = 1/4), so that the search does not flip between
/// two children of almost equal promise.
#[inline]
fn beyond(second: u32) -> u32 {
    if second >= INFINITE {
        INFINITE
    } else {
        (second + 1 + second / 4).min(INFINITE)
    }
}

/// The part of a summed threshold `limit` left to one child: what the other
/// children do not use. An infinite limit stays infinite, so that a search
/// without limits only ends at a proof or disproof.
#[inline]
fn share(limit: u32, sum: u32, child: u32) -> u32 {
    if limit >= INFINITE {
        INFINITE
    } else {
        limit - sum + child
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// Proof: plies to mate; disproof: the plies left it holds for (and fewer);
    /// estimate: the plies left it was made for.
    plies: u16,
    /// Nodes spent under this entry; 0 = empty slot.
    work: u32,
}

impl Entry {
    fn proof(&self) -> bool {
        self.pn == 0
    }
    fn disproof(&self) -> bool {
        self.dn == 0
    }
    fn resolved(&self) -> bool {
        self.proof() || self.disproof()
    }
}

/// A bounded table of `WAYS`-entry buckets. A full bucket gives up its
/// cheapest estimate or disproof; proofs go last, since the mating line is
/// read back from them.
struct Table {
    entries: Vec<Entry>,
    bucket_mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        let size = 1usize << bits.max(2);
        Table {
            entries: vec![Entry::default(); size],
            bucket_mask: size / WAYS - 1,
        }
    }

    /// A table of `2^bits` entries: one an earlier solve gave back (emptied),
    /// or a new one.
    fn reused(bits: u32, scratch: &Scratch) -> Table {
        let size = 1usize << bits.max(2);
        match scratch.take(|table: &Table| table.entries.len() == size) {
            Some(mut table) => {
                table.entries.fill(Entry::default());
                table
            }
            None => Table::new(bits),
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let start = ((key >> 32) as usize & self.bucket_mask) * WAYS;
        start..start + WAYS
    }

    /// What is known of the position `key` with `plies_left` plies to mate in.
    fn probe(&self, key: u64, plies_left: u16) -> Option<Numbers> {
        let mut estimate = None;
        for entry in &self.entries[self.bucket(key)] {
            if entry.work == 0 || entry.key != key {
                continue;
            }
            if entry.proof() {
                if entry.plies <= plies_left {
                    return Some(Numbers::mate(entry.plies));
                }
            } else if entry.disproof() {
                if entry.plies >= plies_left {
                    return Some(Numbers::NO_MATE);
                }
            } else if entry.plies == plies_left {
                estimate = Some(Numbers::estimate(entry.pn, entry.dn));
            }
        }
        estimate
    }

    fn store(&mut self, key: u64, plies_left: u16, numbers: Numbers, work: u64) {
        let work = work.clamp(1, u32::MAX as u64) as u32;
        let plies = if numbers.proven() {
            numbers.plies
        } else {
            plies_left
        };
        let fresh = Entry {
            key,
            pn: numbers.pn,
            dn: numbers.dn,
            plies,
            work,
        };
        let range = self.bucket(key);
        let bucket = &mut self.entries[range];
        // The same position's entry of the same sort is updated in place (one
        // proof, one disproof and one estimate per position at most).
        for entry in bucket.iter_mut() {
            if entry.work == 0 || entry.key != key {
                continue;
            }
            if entry.proof() && fresh.proof() {
                if fresh.plies < entry.plies {
                    *entry = fresh;
                }
                return;
            }
            if entry.disproof() && fresh.disproof() {
                if fresh.plies > entry.plies {
                    *entry = fresh;
                }
                return;
            }
            if !entry.resolved() {
                // A resolved result supersedes the estimate it came from.
                if !fresh.resolved() || entry.plies == plies_left {
                    *entry = fresh;
                    return;
                }
            }
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|entry| (entry.work != 0, entry.proof(), entry.work))
            .expect("a bucket has entries");
        *victim = fresh;
    }
}

/// A child in a node being searched.
#[derive(Clone, Copy)]
struct Child {
    mv: AnnanMove,
    key: u64,
    numbers: Numbers,
    /// Its verdict depends on the path (a repetition, the depth cap): not
    /// looked up in the table.
    path_bound: bool,
}

/// Per ply, reused: no allocation once the search has been that deep.
#[derive(Default)]
struct Frame {
    moves: MoveList<AnnanMove>,
    children: Vec<Child>,
}

/// The outcome of one search, with its node count.
pub struct MateReport {
    pub answer: MateAnswer<AnnanMove>,
    pub nodes: u64,
}

pub struct MateSolver<'a> {
    pos: Annan,
    table: Table,
    control: &'a SearchControl,
    deadline: Option<Instant>,
    node_limit: u64,
    nodes: u64,
    next_poll: u64,
    aborted: bool,
    /// Past the deadline, completing a line: only `node_limit` counts.
    grace: bool,
    /// The root's ply: a position that stood at this ply or later is a
    /// repetition on the path (the position's own key history tells).
    root_ply: u32,
    frames: Vec<Frame>,
}

/// `go mate` for Annan, its table taken from `scratch` and given back.
pub fn solve(
    pos: &Annan,
    limits: &Limits<AnnanMove>,
    control: &SearchControl,
    scratch: &Scratch,
    goal: MateGoal,
) -> MateAnswer<AnnanMove> {
    // A search bounded by nodes gets a table it can fill: the play's short
    // probes would otherwise spend more time clearing it than solving.
    let bits = match limits.nodes {
        Some(nodes) if !limits.infinite => {
            (64 - nodes.leading_zeros()).clamp(12, DEFAULT_TABLE_BITS)
        }
        _ => DEFAULT_TABLE_BITS,
    };
    let report = MateSolver::new(pos, limits, control, bits, scratch).run(scratch, goal);
    control.add_nodes(report.nodes);
    report.answer
}

impl<'a> MateSolver<'a> {
    pub fn new(
        pos: &Annan,
        limits: &Limits<AnnanMove>,
        control: &'a SearchControl,
        table_bits: u32,
        scratch: &Scratch,
    ) -> MateSolver<'a> {
        let deadline = match (limits.infinite, limits.movetime) {
            (false, Some(time)) => Some(control.started() + time),
            _ => None,
        };
        MateSolver {
            pos: pos.clone(),
            table: Table::reused(table_bits, scratch),
            control,
            deadline,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            next_poll: POLL_INTERVAL,
            aborted: false,
            grace: false,
            root_ply: pos.ply(),
            frames: Vec::new(),
        }
    }

    /// Solves the root: a mate as `goal` asks and its line, no mate, or
    /// timeout; then gives the table back to `scratch`.
    pub fn run(mut self, scratch: &Scratch, goal: MateGoal) -> MateReport {
        let answer = self.answer(goal);
        let empty = Table {
            entries: Vec::new(),
            bucket_mask: 0,
        };
        scratch.give(std::mem::replace(&mut self.table, empty));
        MateReport {
            answer,
            nodes: self.nodes,
        }
    }

    fn answer(&mut self, goal: MateGoal) -> MateAnswer<AnnanMove> {
        let plies_left = match self.pos.rules().move_limit {
            0 => UNBOUNDED,
            limit if self.pos.ply() >= limit => return MateAnswer::NoMate,
            limit => (limit - self.pos.ply()).min(UNBOUNDED as u32 - 1) as u16,
        };
        if self.pos.outcome().is_some() {
            // Mated, without a move, or drawn already.
            return MateAnswer::NoMate;
        }
        let Some(found) = self.search(0, true, plies_left) else {
            return MateAnswer::Timeout;
        };
        if !found.proven() {
            return MateAnswer::NoMate;
        }
        // Shorter mates, until none is left or the time runs out.
        let mut plies = found.plies;
        let mut shortest = goal == MateGoal::Shortest;
        while shortest && plies >= 3 {
            match self.search(0, true, plies - 2) {
                Some(shorter) if shorter.proven() => plies = shorter.plies,
                Some(_) => break,
                None => {
                    shortest = false;
                    break;
                }
            }
        }
        match self.principal_variation(plies, shortest) {
            Some(line) => MateAnswer::Mate(line),
            None => MateAnswer::Timeout,
        }
    }

    /// Searches the current position (at `ply` from the root, the attacker to
    /// move or not) to a proof or disproof with `plies_left`; `None` when
    /// stopped first.
    fn search(&mut self, ply: usize, attacker: bool, plies_left: u16) -> Option<Numbers> {
        let numbers = self.mid(ply, attacker, INFINITE, INFINITE, plies_left);
        (!self.aborted).then_some(numbers)
    }

    /// Counts a node; every `POLL_INTERVAL` nodes looks at `stop` and the clock.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL_INTERVAL;
            if !self.grace
                && (self.control.stopped()
                    || self
                        .deadline
                        .is_some_and(|deadline| Instant::now() >= deadline))
            {
                self.aborted = true;
            }
        }
    }

    fn frame(&mut self, ply: usize) -> &mut Frame {
        while self.frames.len() <= ply {
            self.frames.push(Frame::default());
        }
        &mut self.frames[ply]
    }

    /// Generates the children of the current node with what is known of
    /// them, into `frames[ply]`. Returns the
    /// node's own numbers when that settles it: an attacker without a check,
    /// a defender without a move.
    fn expand(&mut self, ply: usize, attacker: bool, plies_left: u16) -> Option<Numbers> {
        let child_left = fewer(plies_left);
        let too_deep = ply + 1 >= MAX_PLY;
        self.frame(ply);
        let frame = &mut self.frames[ply];
        if attacker {
            self.pos.generate_checks(&mut frame.moves);
        } else {
            self.pos.generate_moves(&mut frame.moves);
        }
        frame.children.clear();
        for i in 0..self.frames[ply].moves.len() {
            let mv = self.frames[ply].moves[i];
            self.pos.make(mv);
            self.count_node();
            let key = self.pos.key();
            let path_bound = too_deep || self.pos.repeats_since(self.root_ply);
            let numbers = if path_bound {
                Numbers::NO_MATE
            } else if let Some(known) = self.table.probe(key, child_left) {
                known
            } else if attacker {
                // The defender's answers: none is mate; as many as there are is
                // the first guess at the work of proving it (df-pn+).
                match self.pos.count_moves() {
                    0 => Numbers::mate(0),
                    _ if child_left == 0 => Numbers::NO_MATE,
                    replies => Numbers::estimate(replies.min(INFINITE as u64 - 1) as u32, 1),
                }
            } else if child_left == 0 {
                // The attacker needs a ply at least.
                Numbers::NO_MATE
            } else {
                Numbers::estimate(1, 1)
            };
            self.pos.unmake(mv);
            self.frames[ply].children.push(Child {
                mv,
                key,
                numbers,
                path_bound,
            });
            if self.aborted {
                // The caller discards an incomplete node.
                break;
            }
        }
        self.frames[ply].children.is_empty().then(|| {
            if attacker {
                Numbers::NO_MATE
            } else {
                Numbers::mate(0)
            }
        })
    }

    /// The node's numbers from its children's.
    fn combine(children: &[Child], attacker: bool) -> Numbers {
        if attacker {
            let mut node = Numbers::estimate(INFINITE, 0);
            let mut shortest = u16::MAX;
            for child in children {
                let n = child.numbers;
                node.pn = node.pn.min(n.pn);
                node.dn = add(node.dn, n.dn);
                if n.proven() {
                    shortest = shortest.min(n.plies);
                }
            }
            if node.proven() {
                return Numbers::mate(shortest.saturating_add(1));
            }
            node
        } else {
            let mut node = Numbers::estimate(0, INFINITE);
            let mut longest = 0;
            for child in children {
                let n = child.numbers;
                node.pn = add(node.pn, n.pn);
                node.dn = node.dn.min(n.dn);
                longest = longest.max(n.plies);
            }
            if node.proven() {
                return Numbers::mate(longest.saturating_add(1));
            }
            node
        }
    }

    /// Multiple iterative deepening at the current node: searches its most
    /// promising child until the node's proof number reaches `pn_limit` or its
    /// disproof number `dn_limit`, or it is resolved.
    fn mid(
        &mut self,
        ply: usize,
        attacker: bool,
        pn_limit: u32,
        dn_limit: u32,
        plies_left: u16,
    ) -> Numbers {
        let started_at = self.nodes;
        let key = self.pos.key();
        let numbers = self.mid_at(ply, attacker, pn_limit, dn_limit, plies_left);
        if !self.aborted {
            self.table
                .store(key, plies_left, numbers, self.nodes - started_at + 1);
        }
        numbers
    }

    fn mid_at(
        &mut self,
        ply: usize,
        attacker: bool,
        pn_limit: u32,
        dn_limit: u32,
        plies_left: u16,
    ) -> Numbers {
        if let Some(settled) = self.expand(ply, attacker, plies_left) {
            return settled;
        }
        let child_left = fewer(plies_left);
        loop {
            // What other lines have learnt about the children meanwhile.
            let frame = &mut self.frames[ply];
            for child in frame.children.iter_mut() {
                if !child.path_bound && !child.numbers.proven() && !child.numbers.disproven() {
                    if let Some(known) = self.table.probe(child.key, child_left) {
                        child.numbers = known;
                    }
                }
            }
            let node = Self::combine(&frame.children, attacker);
            if node.pn >= pn_limit || node.dn >= dn_limit || node.proven() || node.disproven() {
                return node;
            }
            if self.aborted {
                return node;
            }
            // The attacker tries the child nearest a proof, the defender the
            // one nearest a disproof; the runner-up sets the threshold.
            let score = |c: &Child| {
                if attacker {
                    c.numbers.pn
                } else {
                    c.numbers.dn
                }
            };
            let (mut best, mut second) = (0, INFINITE);
            for (i, child) in frame.children.iter().enumerate().skip(1) {
                let s = score(child);
                if s < score(&frame.children[best]) {
                    second = score(&frame.children[best]);
                    best = i;
                } else if s < second {
                    second = s;
                }
            }
            let chosen = frame.children[best];
            let (child_pn_limit, child_dn_limit) = if attacker {
                (
                    pn_limit.min(beyond(second)),
                    share(dn_limit, node.dn, chosen.numbers.dn),
                )
            } else {
                (
                    share(pn_limit, node.pn, chosen.numbers.pn),
                    dn_limit.min(beyond(second)),
                )
            };
            self.pos.make(chosen.mv);
            let result = self.mid(
                ply + 1,
                !attacker,
                child_pn_limit,
                child_dn_limit,
                child_left,
            );
            self.pos.unmake(chosen.mv);
            self.frames[ply].children[best].numbers = result;
        }
    }

    /// The mating line from the root, mated in `plies`: the attacker's moves
    /// keep to the shortest mate, the defender's to the longest defence. With
    /// `shortest` false (the time ran out while shortening) the line keeps to
    /// the proofs in the table.
    fn principal_variation(&mut self, plies: u16, shortest: bool) -> Option<Vec<AnnanMove>> {
        let mut line = Vec::with_capacity(plies as usize);
        let found = self.walk(&mut line, plies, shortest);
        for &mv in line.iter().rev() {
            self.pos.unmake(mv);
        }
        found.then_some(line)
    }

    fn walk(&mut self, line: &mut Vec<AnnanMove>, mut plies: u16, mut exact: bool) -> bool {
        let mut attacker = true;
        while plies > 0 {
            let ply = line.len();
            let mut settled = self.expand(ply, attacker, plies);
            if self.aborted && !self.grace {
                // Cut short: once more, on the grace nodes.
                exact = false;
                self.start_grace();
                settled = self.expand(ply, attacker, plies);
            }
            if self.aborted || settled.is_some() {
                return false;
            }
            let Some((mv, child_plies)) = self.choose(ply, attacker, plies, &mut exact) else {
                return false;
            };
            self.pos.make(mv);
            line.push(mv);
            plies = child_plies;
            attacker = !attacker;
        }
        // The line ends with the defender to move and mated.
        !attacker && self.pos.count_moves() == 0 && self.pos.in_check()
    }

    /// Past the deadline with a proof in hand: a few more nodes to finish the line.
    fn start_grace(&mut self) {
        if !self.grace {
            self.grace = true;
            self.aborted = false;
            self.node_limit = self.nodes.saturating_add(GRACE_NODES);
        }
    }

    /// The move of the line at a node mated in `plies`, and the child's plies.
    fn choose(
        &mut self,
        ply: usize,
        attacker: bool,
        plies: u16,
        exact: &mut bool,
    ) -> Option<(AnnanMove, u16)> {
        let mut children = std::mem::take(&mut self.frames[ply].children);
        let target = plies - 1;
        // Proven children first: shortest for the attacker, longest for the
        // defender; then the rest by promise.
        children.sort_by_key(|c| {
            let n = c.numbers;
            match (n.proven(), attacker) {
                (true, true) => (0, n.plies as u32),
                (true, false) => (0, u16::MAX as u32 - n.plies as u32),
                (false, _) => (1, if attacker { n.pn } else { n.dn }),
            }
        });
        let chosen = if attacker {
            self.attacker_choice(ply, &children, target)
        } else {
            self.defender_choice(ply, &children, target, exact)
        };
        self.frames[ply].children = children;
        chosen
    }

    /// A check after which the defender is mated within `target` plies.
    fn attacker_choice(
        &mut self,
        ply: usize,
        children: &[Child],
        target: u16,
    ) -> Option<(AnnanMove, u16)> {
        for child in children.iter().filter(|c| !c.path_bound) {
            if child.numbers.proven() && child.numbers.plies <= target {
                return Some((child.mv, child.numbers.plies));
            }
            if let Some(found) = self.search_child(ply, child.mv, false, target) {
                if found.proven() {
                    return Some((child.mv, found.plies));
                }
            }
        }
        None
    }

    /// The defender's longest defence when every answer is mated within
    /// `target` plies: exactly, an answer with no mate within `target − 2`;
    /// otherwise the answer with the longest proof known.
    fn defender_choice(
        &mut self,
        ply: usize,
        children: &[Child],
        target: u16,
        exact: &mut bool,
    ) -> Option<(AnnanMove, u16)> {
        if *exact && target >= 3 {
            for child in children {
                if child.numbers.proven() && child.numbers.plies < target {
                    continue;
                }
                match self.search_child(ply, child.mv, true, target - 2) {
                    Some(found) if found.disproven() => return Some((child.mv, target)),
                    Some(_) => {}
                    None => {
                        *exact = false;
                        self.start_grace();
                        break;
                    }
                }
            }
        }
        // Every answer is mated within `target`: the longest proof known, or,
        // where the table lost it, one found again.
        let child = children.first()?;
        if child.numbers.proven() && child.numbers.plies <= target {
            return Some((child.mv, child.numbers.plies));
        }
        let found = self.search_child(ply, child.mv, true, target)?;
        found.proven().then_some((child.mv, found.plies))
    }

    /// Searches the child reached by `mv` from the node at `ply`.
    fn search_child(
        &mut self,
        ply: usize,
        mv: AnnanMove,
        attacker: bool,
        plies_left: u16,
    ) -> Option<Numbers> {
        self.pos.make(mv);
        let found = self.search(ply + 1, attacker, plies_left);
        self.pos.unmake(mv);
        if self.aborted {
            self.start_grace();
        }
        found
    }
}
