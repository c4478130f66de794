#!/usr/bin/env python3
"""The table of docs/performance.md from criterion's results of `cargo bench --bench
versus_minimax`: per benchmark the median time and nodes/s of both sides and their ratios.

Usage: python3 benches/versus_minimax/summary.py [CRITERION_DIR ...]
(default target/criterion). With several directories (copies of target/criterion from
repeated runs) each figure is the median over the runs.
"""

import glob
import json
import os
import statistics
import sys


def load(root):
    """{(group, function): (median ns per search, nodes per search)} of one run."""
    results = {}
    pattern = os.path.join(root, "*", "*", "new", "benchmark.json")
    for path in glob.glob(pattern):
        with open(path) as f:
            bench = json.load(f)
        with open(os.path.join(os.path.dirname(path), "estimates.json")) as f:
            median = json.load(f)["median"]["point_estimate"]
        nodes = bench["throughput"]["Elements"]
        results[(bench["group_id"], bench["function_id"])] = (median, nodes)
    return results


def main():
    roots = sys.argv[1:] or ["target/criterion"]
    runs = [load(root) for root in roots]
    groups = {}
    for run in runs:
        for group, function in run:
            groups.setdefault(group, set()).add(function)

    def figures(group, function):
        times = [run[(group, function)][0] for run in runs if (group, function) in run]
        rates = [
            run[(group, function)][1] / run[(group, function)][0] * 1e9
            for run in runs
            if (group, function) in run
        ]
        nodes = next(run[(group, function)][1] for run in runs if (group, function) in run)
        return statistics.median(times), statistics.median(rates), nodes

    print(f"Medians over {len(runs)} run(s).\n")
    print("| benchmark | game | ours | ours nodes | ours time | ours Mnodes/s "
          "| minimax nodes | minimax time | minimax Mnodes/s | nodes/s ratio | time ratio |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for group in sorted(groups, key=lambda g: (order(g), g)):
        kind, game = group.split("/", 1)
        functions = sorted(groups[group])
        theirs = [f for f in functions if f.startswith("minimax")]
        if not theirs:
            continue
        their_time, their_rate, their_nodes = figures(group, theirs[0])
        for ours in (f for f in functions if f.startswith("ours")):
            time, rate, nodes = figures(group, ours)
            print(
                f"| {kind} | {game} | {ours[5:]} | {nodes:,} | {ms(time)} | {rate / 1e6:.1f} "
                f"| {their_nodes:,} | {ms(their_time)} | {their_rate / 1e6:.1f} "
                f"| {rate / their_rate:.2f} | {their_time / time:.2f} |"
            )


def order(group):
    kinds = ["perft", "alphabeta", "iterative", "solve"]
    kind = group.split("/", 1)[0]
    return kinds.index(kind) if kind in kinds else len(kinds)


def ms(ns):
    return f"{ns / 1e6:.3f} ms" if ns >= 1e5 else f"{ns / 1e3:.1f} µs"


if __name__ == "__main__":
    main()
