// The Elo of each CPU level, per game: `Level` 0 … n−1 and then full
// strength (`Level` n), as measured in docs/cpu-seats.md#the-tables (Elo 0 is
// a player moving at random). The engine announces only the range (`USI_Elo`'s
// min and max), so the page keeps the measured figures here; a test checks they
// equal the docs' tables and the engine's range.
export const LEVEL_ELO = {
  hasami: [
    1088, 1136, 1196, 1237, 1315, 1385, 1388, 1499, 1558, 1611, 1649, 1752, 1874, 1871, 1967, 2001, 2112, 2215, 2307,
    2399, 2448, 2540, 2589, 2677, 2776, 2825, 2851, 2950, 3077, 3163, 3287, 3333, 3449, 3556, 3615, 3696, 3779,
  ],
  annan: [
    1057, 1138, 1174, 1310, 1425, 1497, 1563, 1623, 1672, 1710, 1758, 1839, 1924, 1994, 2084, 2095, 2147, 2206, 2306,
    2401, 2493, 2581, 2687, 2801, 2893, 2949, 3034,
  ],
  yonin: [131, 163, 169, 193, 212, 241, 248, 280, 285, 307, 308, 326, 338, 362, 405, 426, 461, 482, 500, 513, 528],
  sugoroku: [80, 143, 188, 237, 300, 328, 391, 425, 432, 517, 632, 684, 708, 782, 806, 809, 858, 903, 928, 928, 990],
};
