#!/usr/bin/env python3
"""summary.py FILE.games ... : entrant A's points in each match file written by
`gametree tournament --games-out` (match.sh), as Black (first) and as White, and how its
openings went (each opening is played twice, colours swapped): won with both colours,
split by colour, lost with both. `--lost` lists the openings lost with both colours."""
import collections
import sys

POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0)}


def read_games(path):
    """The games of one match file: (number, first, second, first's points, second's points,
    opening) for each line (a draw or an unknown result counts half)."""
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 7:
                continue
            number, first, second, result, _margin, plies, moves = fields[:7]
            first_points, second_points = POINTS.get(result, (0.5, 0.5))
            opening = " ".join(moves.split()[: int(plies)])
            yield number, first, second, first_points, second_points, opening


def summarize(path, list_lost):
    black = white = 0.0
    games_black = games_white = 0
    by_opening = collections.defaultdict(list)
    for number, first, second, first_points, second_points, opening in read_games(path):
        if first == "A":
            black += first_points
            games_black += 1
            points = first_points
        elif second == "A":
            white += second_points
            games_white += 1
            points = second_points
        else:
            continue
        by_opening[opening].append((points, number))
    kinds = collections.Counter()
    lost = []
    for opening, games in by_opening.items():
        total = sum(points for points, _ in games)
        if len(games) != 2:
            kinds["unpaired"] += 1
        elif total == 2:
            kinds["won both"] += 1
        elif total == 0:
            kinds["lost both"] += 1
            lost.append((opening, [number for _, number in games]))
        else:
            kinds["split"] += 1
    games = games_black + games_white
    print(
        f"{path}: A {black + white:g} of {games}  Black {black:g} of {games_black}  "
        f"White {white:g} of {games_white}  openings: "
        + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    )
    if list_lost:
        for opening, numbers in lost:
            print(f"   lost both: {opening}  (games {', '.join(numbers)})")


def main():
    args = [a for a in sys.argv[1:] if a != "--lost"]
    if not args:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    for path in args:
        summarize(path, "--lost" in sys.argv[1:])


if __name__ == "__main__":
    main()
