//! Ban-Sugoroku: old Japanese backgammon with two dice.
