#!/usr/bin/env bash
# The regression guard: builds the engine of an earlier commit and plays it
# against the current build in every game (or the games named), one match each
# through the match runner, and prints each match's summary.
#
#   tools/regress.sh <commit> [--games N] [--nodes N | --movetime MS] [--seed S] [GAME ...]
#
# Defaults: 100 games a game at 20000 nodes a move, seed 1. Untimed matches
# play two games at once (the machine's load cannot decide them); with
# --movetime one at a time.
# The earlier build is kept in $TMPDIR/yomi-regress-<commit> for the next call.
set -euo pipefail

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[ $# -ge 1 ] || usage
commit=$1
shift
games=100
tc=(--nodes 20000)
concurrency=2
seed=1
wanted=()
while [ $# -gt 0 ]; do
    case $1 in
        --games) games=$2; shift 2 ;;
        --nodes) tc=(--nodes "$2"); concurrency=2; shift 2 ;;
        --movetime) tc=(--movetime "$2"); concurrency=1; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "regress: unknown flag $1" >&2; usage ;;
        *) wanted+=("$1"); shift ;;
    esac
done

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
sha=$(git rev-parse --short "$commit^{commit}")
base=${TMPDIR:-/tmp}/yomi-regress-$sha
if [ ! -x "$base/target/release/yomi" ]; then
    echo "regress: building $sha in $base" >&2
    rm -rf "$base"
    mkdir -p "$base"
    git archive "$sha" | tar -x -C "$base"
    cargo build --release --quiet --manifest-path "$base/Cargo.toml" --bin yomi
fi
cargo build --release --quiet -p yomi --bin yomi
cargo build --release --quiet -p yomi-tools --bin match
new=target/release/yomi

# The games the current build knows, from its usi answer.
if [ ${#wanted[@]} -eq 0 ]; then
    read -r -a wanted < <(echo usi | "$new" | sed -n 's/^option name USI_Variant .* default [a-z]* //p' | sed 's/var //g')
fi

for game in "${wanted[@]}"; do
    echo "== $game: current build (new) against $sha (base), $games games, ${tc[*]}, seed $seed"
    target/release/match --game "$game" --games "$games" "${tc[@]}" --quiet \
        --concurrency "$concurrency" --seed "$seed" --each option.Threads=1 \
        --engine name=new cmd="$new" --engine name=base cmd="$base/target/release/yomi" |
        grep -E '^(Score|Elo|Points|Standings|  engine|  new|  base)' || true
done
