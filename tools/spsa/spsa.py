#!/usr/bin/env python3
"""SPSA over Gomoku's evaluation weights ([gomoku.patterns]) in self-play.

Each iteration perturbs every tuned weight at once by a factor exp(+-c) (log space, one
random sign per weight), plays the two weight sets against each other on one balanced
opening with colours swapped (`gametree tournament`, two games), and moves every weight
along its sign by the pair's score difference (Spall's simultaneous perturbation; the
learning rate and perturbation as in Stockfish's fishtest). Weights are rounded
stochastically (x + u, u uniform in [0, 1), floored) so that small weights such as
closed_two = 3 can still move by fractions on average.

Runs `--workers` iterations at once (one tournament process each, one search thread);
appends one line per iteration to `--log` (JSON: iteration, result, weights), and prints
the current weights every 50 iterations. Stop it any time: the last line of the log holds
the weights reached; `--resume` starts from them.

Usage:
  python3 tools/spsa/spsa.py --gametree target/release/gametree \
      --openings openings.txt --iterations 1500 --time-ms 50 --workers 2 --log spsa.log

The openings file is one opening per line in move notation (comments and blank lines are
skipped), e.g. examples/gomoku-balanced-openings.txt. Standard library only.
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import threading

# The weights tuned, their defaults (config.toml) and largest values. five, open_four and
# the four-three / double-four combinations are left alone: the tempo rules decide those
# positions, and their weights only order lost or won leaves.
DEFAULTS = {
    "double_open_three": (5000, 100000),
    "closed_three_open_three": (1000, 100000),
    "closed_four": (500, 100000),
    "open_three": (200, 100000),
    "double_open_two": (100, 100000),
    "closed_three": (50, 100000),
    "open_two": (5, 100000),
    "closed_two": (3, 100000),
    "point_open_four": (40, 100000),
    "point_closed_four": (15, 100000),
    "point_open_three": (8, 100000),
    "point_closed_three": (4, 100000),
    "point_open_two": (2, 100000),
    "point_closed_two": (1, 100000),
    "waiting_combination": (30, 100),
    "waiting_shapes": (60, 100),
    "tempo": (150, 100000),
    "point_table": (20, 100),
}


def read_openings(path):
    with open(path, encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    return [line for line in lines if line and not line.startswith("#")]


def rounded(value, limit, rng):
    """Stochastic rounding into 0..=limit."""
    value = min(max(value, 0.0), float(limit))
    return min(limit, int(math.floor(value + rng.random())))


def entrant(name, weights, args):
    parts = [
        f"name={name}",
        f"time_ms={args.time_ms}",
        "threads=1",
        f"tt_mb={args.tt_mb}",
        "evaluator=patterns",
    ]
    parts += [f"weights.{key}={value}" for key, value in weights.items()]
    return ",".join(parts)


def play_pair(args, opening, plus, minus, seed):
    """Points of `plus` minus points of `minus` over two games of `opening`, or None."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(opening + "\n")
        path = f.name
    try:
        command = [
            args.gametree, "tournament", "--game", "gomoku", "--openings", path,
            "--games", "1", "--jobs", "1", "--seed", str(seed), "--json",
            "--entrant", entrant("plus", plus, args),
            "--entrant", entrant("minus", minus, args),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            print(f"tournament failed: {done.stderr.strip()}", file=sys.stderr)
            return None
        standings = {s["name"]: s["points"] for s in json.loads(done.stdout)["standings"]}
        return standings["plus"] - standings["minus"]
    finally:
        os.unlink(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gametree", required=True)
    parser.add_argument("--openings", required=True)
    parser.add_argument("--iterations", type=int, default=1500)
    parser.add_argument("--time-ms", type=int, default=50)
    parser.add_argument("--tt-mb", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--c", type=float, default=0.2, help="perturbation in log units")
    parser.add_argument("--lr", type=float, default=0.01,
                        help="step: log units per unit of score difference and of c")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", required=True)
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()

    openings = read_openings(args.openings)
    theta = {key: math.log(max(value, 0.5)) for key, (value, _) in DEFAULTS.items()}
    start = 0
    if args.resume and os.path.exists(args.log):
        with open(args.log, encoding="utf-8") as f:
            last = [json.loads(line) for line in f if line.strip()]
        if last:
            theta = {key: math.log(max(v, 1e-3)) for key, v in last[-1]["theta"].items()}
            start = last[-1]["iteration"]
    lock = threading.Lock()
    state = {"next": start, "sum": 0.0, "done": 0}
    log = open(args.log, "a", encoding="utf-8")

    def worker(index):
        rng = random.Random(args.seed * 1000 + index)
        while True:
            with lock:
                k = state["next"]
                if k >= args.iterations:
                    return
                state["next"] += 1
                snapshot = dict(theta)
            # fishtest's schedules: c_k = c / k^0.101, a_k = a / (A + k)^0.602, A = N / 10.
            ck = args.c / (k + 1) ** 0.101
            ak = args.lr * (args.iterations / 10 + 1) ** 0.602 / (args.iterations / 10 + k + 1) ** 0.602
            signs = {key: rng.choice((-1, 1)) for key in DEFAULTS}
            plus = {key: rounded(math.exp(snapshot[key] + ck * signs[key]), DEFAULTS[key][1], rng)
                    for key in DEFAULTS}
            minus = {key: rounded(math.exp(snapshot[key] - ck * signs[key]), DEFAULTS[key][1], rng)
                     for key in DEFAULTS}
            opening = rng.choice(openings)
            result = play_pair(args, opening, plus, minus, rng.randrange(1 << 30))
            if result is None:
                continue
            with lock:
                for key in DEFAULTS:
                    theta[key] += ak * ck * result * signs[key]
                    theta[key] = min(theta[key], math.log(DEFAULTS[key][1]))
                state["sum"] += result
                state["done"] += 1
                record = {
                    "iteration": k + 1,
                    "result": result,
                    "theta": {key: round(math.exp(v), 3) for key, v in theta.items()},
                }
                log.write(json.dumps(record) + "\n")
                log.flush()
                if state["done"] % 50 == 0:
                    shown = ", ".join(f"{key} {math.exp(v):.1f}" for key, v in theta.items())
                    print(f"{k + 1}: {shown}", flush=True)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    log.close()


if __name__ == "__main__":
    main()
