#!/usr/bin/env python3
"""compare.py BASE.games NEW.games [BASE2.games NEW2.games ...] : entrant A's points in NEW
against BASE, paired by opening. Each pair of files must come from runs with the same seed
(the same openings, each played with both colours). For every opening the difference of
A's points (0 - 2 in each run) is taken, and the standard error of their sum is estimated
from how those differences spread, so the openings' own difficulty (some are lost with both
colours in most runs, some won) drops out of the noise.

Prints, per pair and over all of them: NEW - BASE in points, its standard error, and the
same as White alone; the openings where NEW gained or lost both games' worth."""
import collections
import math
import sys

from summary import read_games


def by_opening(path):
    """{opening: [points as Black, points as White]} of entrant A in one match file."""
    openings = collections.defaultdict(lambda: [None, None])
    for _number, first, second, first_points, second_points, opening in read_games(path):
        if first == "A":
            openings[opening][0] = first_points
        elif second == "A":
            openings[opening][1] = second_points
    return {o: p for o, p in openings.items() if None not in p}


def spread(differences):
    """(sum, standard error of the sum) of per-opening differences."""
    n = len(differences)
    total = sum(differences)
    if n < 2:
        return total, float("nan")
    mean = total / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    return total, math.sqrt(n * variance)


def main():
    paths = sys.argv[1:]
    if not paths or len(paths) % 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    all_total, all_white = [], []
    for base_path, new_path in zip(paths[::2], paths[1::2]):
        base, new = by_opening(base_path), by_opening(new_path)
        common = sorted(set(base) & set(new))
        if len(common) < len(base) or len(common) < len(new):
            print(
                f"  note: {len(common)} openings in common "
                f"({len(base)} in {base_path}, {len(new)} in {new_path}): same seed?"
            )
        total = [sum(new[o]) - sum(base[o]) for o in common]
        white = [new[o][1] - base[o][1] for o in common]
        all_total += total
        all_white += white
        t, t_se = spread(total)
        w, w_se = spread(white)
        swings = collections.Counter(total)
        print(
            f"{new_path} - {base_path}: {t:+g} ({t_se:.1f} SE) of {2 * len(common)} games; "
            f"as White {w:+g} ({w_se:.1f}); openings +2: {swings[2.0]}, -2: {swings[-2.0]}"
        )
    if len(paths) > 2:
        t, t_se = spread(all_total)
        w, w_se = spread(all_white)
        print(
            f"all: {t:+g} ({t_se:.1f} SE) of {2 * len(all_total)} games; "
            f"as White {w:+g} ({w_se:.1f})"
        )


if __name__ == "__main__":
    main()
