//! Expectimax with Star1/Star2 pruning over [`super::ChanceGame`].
