//! Yonin Shogi: four players, check priority, elimination and inheritance.
