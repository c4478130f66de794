#!/usr/bin/env bash
# A profile-guided build of gametree and pbrain-gametree: the same program and the same
# search trees as `cargo build --release`, 8 - 20 % faster in Gomoku searches
# (docs/performance.md, "Wave 49"). Three steps: an instrumented build, a training run
# (the bench suite and a few short Gomoku self-play games), and a build that lays the code
# out by the profile. The binaries land in target/pgo/release/.
#
#   rustup component add llvm-tools     # once: llvm-profdata for this toolchain's LLVM
#   tools/pgo/build.sh
#
# Nothing here runs in CI, and a plain `cargo build --release` needs none of it.
set -euo pipefail
cd "$(dirname "$0")/../.."

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
if [[ ! -x "$profdata" ]]; then
    echo "tools/pgo/build.sh: no llvm-profdata at $profdata" >&2
    echo "  install it with: rustup component add llvm-tools" >&2
    exit 1
fi

work=target/pgo-work
rm -rf "$work"
mkdir -p "$work/raw"
raw=$(cd "$work/raw" && pwd)

echo "== 1/3: instrumented build (target/pgo-gen)"
RUSTFLAGS="-Cprofile-generate=$raw" cargo build --release --target-dir target/pgo-gen \
    --bin gametree --bin pbrain-gametree
gen=target/pgo-gen/release/gametree

echo "== 2/3: training run"
# Every game's part of the bench (so that no game's code is laid out as cold), then
# Gomoku as the brain plays it: timed self-play on 15x15 and on Gomocup's 20x20.
"$gen" bench > /dev/null
for moves in "h8 i9 g7" "h8 h9 j8" "g7 i9 h8 h10"; do
    "$gen" selfplay gomoku --moves "$moves" --time-ms 100 --threads 1 --seed 3 > /dev/null
done
"$gen" selfplay gomoku --size 20 --moves "k10 l11 j9" --time-ms 100 --threads 1 --seed 5 \
    --max-moves 60 > /dev/null
# The brain's own front end, a few moves through the protocol (no END: the brain hears it
# at once and would play no more; the end of the input answers every command first).
printf 'START 15\nINFO timeout_turn 200\nBEGIN\nTURN 6,6\nTURN 8,8\n' \
    | target/pgo-gen/release/pbrain-gametree > /dev/null
"$profdata" merge -o "$work/merged.profdata" "$raw"

echo "== 3/3: optimised build (target/pgo)"
RUSTFLAGS="-Cprofile-use=$(pwd)/$work/merged.profdata" cargo build --release \
    --target-dir target/pgo --bin gametree --bin pbrain-gametree

# The profile changes the code's layout, never what it computes: the bench's node
# signature must be the plain build's.
signature() {
    "$@" bench --json | tail -n 1 | sed 's/.*"signature":\([0-9]*\).*/\1/'
}
expected=$(signature cargo run --release --quiet --)
got=$(signature target/pgo/release/gametree)
if [[ "$got" != "$expected" ]]; then
    echo "tools/pgo/build.sh: bench signature $got, expected $expected" >&2
    exit 1
fi
echo "done: target/pgo/release/gametree and target/pgo/release/pbrain-gametree (bench signature $got)"
