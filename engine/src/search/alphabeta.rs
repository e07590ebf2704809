//! Alpha-beta searcher (to be written).
use super::*;
use crate::core::Game;

pub struct AlphaBeta {
    config: SearchConfig,
}

impl<G: TwoPlayerGame> Searcher<G> for AlphaBeta {
    fn new(config: &SearchConfig) -> Self {
        AlphaBeta {
            config: config.clone(),
        }
    }
    fn configure(&mut self, config: &SearchConfig) {
        self.config = config.clone();
    }
    fn clear(&mut self) {}
    fn search(
        &mut self,
        pos: &G,
        _limits: &Limits,
        _control: &SearchControl,
        _report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        SearchResult {
            best: moves.first().copied(),
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        }
    }
    fn hashfull(&self) -> u32 {
        0
    }
}
