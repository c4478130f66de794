#!/bin/bash
# match.sh NAME A_BRAIN B_BRAIN : one match of two Gomocup brains through `gametree
# tournament`, from the balanced openings, each opening with both colours.
#   env: SEED (13), GAMES (openings: 60 = 120 games), TA / TB (ms a move, 300),
#        MATCH (a match clock: ms for all of a side's moves in one game; 0 = none),
#        OUT (directory for NAME.out and NAME.games, .), DRIVER (the gametree binary that
#        runs the tournament; default a copy of target/release/gametree made now, since a
#        rebuild rewrites that file in place and kills a running match; removed at the end).
# A brain is a path to an executable; wrap a gametree build as
#   printf '#!/bin/sh\nexec /path/to/copy brain --threads 1 "$@"\n' > w-name
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: match.sh NAME A_BRAIN B_BRAIN   (env SEED GAMES TA TB MATCH OUT DRIVER)" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-.}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Paths as given, made absolute: the tournament runs in a directory of its own (below).
abs() { if [ -e "$1" ]; then realpath "$1"; else echo "$1"; fi; }
brain_a=$(abs "$2")
brain_b=$(abs "$3")
driver=${DRIVER:-}
if [ -z "$driver" ]; then
  driver="$out/gt-driver-$1"
  cp "$root/target/release/gametree" "$driver"
  driver_copy=$driver
fi
driver=$(abs "$driver")
# Brains start in a directory of their own: Rapfi reads a config.toml from its working
# directory, and the repository's (gametree's) made it play at random (wave 47 lost a run).
here=$(mktemp -d)
trap 'rm -f "${driver_copy:-}"; rm -rf "$here"' EXIT
cd "$here"
"$driver" tournament --game gomoku --games "${GAMES:-60}" --jobs 1 \
  --seed "${SEED:-13}" --openings "$root/examples/gomoku-balanced-openings.txt" \
  --entrant "name=A,brain=$brain_a,time_ms=${TA:-300},match_ms=${MATCH:-0},tt_mb=64" \
  --entrant "name=B,brain=$brain_b,time_ms=${TB:-300},match_ms=${MATCH:-0},tt_mb=64" \
  --games-out "$out/$1.games" > "$out/$1.out" 2>&1
