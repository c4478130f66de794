"""Matches of gametree against OpenSpiel's bots.

gametree plays through `gametree serve`: `go` with time_ms, threads 1, other settings
default.

Usage (with a Python that has open_spiel and numpy, e.g. /tmp/os-venv/bin/python):

  python tools/openspiel/match.py GAME OPP N [--time-ms T] [--seed S] [--out FILE]
                                  [--deadline HH:MM] [--gametree PATH]

  GAME: ttt | kalah | dots2x2 | dots3x3 | dots4x4 | dots5x5 ... (dotsRxC, R and C boxes)
  OPP:  mcts:SIMS (open_spiel.python.algorithms.mcts, uct_c=2, 1 random rollout, solve=True)
        cmcts:SIMS (pyspiel.MCTSBot, the C++ port of the same algorithm, same settings)
        ab:DEPTH (open_spiel.python.algorithms.minimax.alpha_beta_search, heuristic at depth;
              Tic-tac-toe always to depth 9)
        random
  N:    games per seat (gametree first, then gametree second, alternating)
  --time-ms T      gametree's time a move (default 200)
  --seed S         game k uses seed S*1000+k for the bot (default 1)
  --out FILE       appends one JSON line per game, with every move (default matches.jsonl
                   in the working directory)
  --deadline HH:MM UTC; no new game is started after it
  --gametree PATH  the gametree binary (default $GAMETREE, else target/release/gametree)

Prints a line per game and a summary per seat. gametree plays by time: for repeatable
results run matches one at a time, pinned to one CPU (taskset -c 1 ...).
"""
import argparse
import json
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts, minimax

from bridge import Gt, TTT, Kalah, Dots, SIDE, gt_outcome_margin, gametree_path, timing_hint


def make_mapper(name):
    if name == "ttt":
        return TTT()
    if name == "kalah":
        return Kalah()
    if name.startswith("dots"):
        r, c = name[4:].split("x")
        return Dots(int(r), int(c))
    raise SystemExit(f"unknown game {name}")


class ABBot:
    """OpenSpiel's alpha_beta_search to a fixed depth with a heuristic at the horizon."""

    def __init__(self, mapper, game, depth):
        self.mapper, self.game, self.depth = mapper, game, depth

    def value_fn(self, me):
        m = self.mapper
        if isinstance(m, Kalah):
            def v(s):
                b = m.board(s)
                st = [b[7], b[0]]
                # store difference, scaled inside (-1, 1) so a terminal win (+1) dominates
                return (st[me] - st[1 - me]) / 100.0
            return v
        if isinstance(m, Dots):
            def v(s):
                p = m.points(s, self.game)
                return p[me] - p[1 - me]   # same units as the margin game's returns
            return v
        return None

    def step(self, s):
        me = s.current_player()
        depth = self.depth
        if isinstance(self.mapper, TTT):
            depth = 9
        _, a = minimax.alpha_beta_search(self.game, state=s, value_function=self.value_fn(me),
                                         maximum_depth=depth, maximizing_player_id=me)
        return a


class RandomBot:
    def __init__(self, rng):
        self.rng = rng

    def step(self, s):
        return self.rng.choice(s.legal_actions())


def make_bot(opp, mapper, seed):
    kind, _, arg = opp.partition(":")
    if kind == "mcts":
        game = mapper.os_game(utility_margin=False)
        rs = np.random.RandomState(seed)
        ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        return game, mcts.MCTSBot(game, uct_c=2.0, max_simulations=int(arg), evaluator=ev,
                                  solve=True, random_state=rs)
    if kind == "cmcts":
        game = mapper.os_game(utility_margin=False)
        ev = pyspiel.RandomRolloutEvaluator(1, seed)
        return game, pyspiel.MCTSBot(game, ev, 2.0, int(arg), 1000, True, seed, False)
    if kind == "ab":
        game = mapper.os_game(utility_margin=True)
        return game, ABBot(mapper, game, int(arg))
    if kind == "random":
        game = mapper.os_game(utility_margin=False)
        return game, RandomBot(random.Random(seed))
    raise SystemExit(f"unknown opponent {opp}")


def play_game(gt, mapper, opp, gt_seat, seed, time_ms):
    game, bot = make_bot(opp, mapper, seed)
    gst = gt.new(mapper.gt_game, mapper.gt_options)
    s = game.new_initial_state()
    plies = []
    t_gt = t_bot = 0.0
    while not s.is_terminal():
        player = s.current_player()
        if SIDE[gst["to_move"]] != player:
            raise RuntimeError(f"to_move disagrees: gt {gst['to_move']} os {player}")
        if player == gt_seat:
            t0 = time.time()
            bm = gt.go(time_ms=time_ms, threads=1)
            t_gt += time.time() - t0
            gi = bm["index"]
            a = mapper.gt_to_os(gi, player)
            plies.append({"by": "gt", "move": bm["move"], "value": bm["value"],
                          "depth": bm["depth"], "completed": bm["completed"]})
        else:
            t0 = time.time()
            a = bot.step(s)
            t_bot += time.time() - t0
            gi = mapper.os_to_gt(a, player)
            plies.append({"by": "os", "move": mapper.notation(gi, player)})
        if a not in s.legal_actions():
            raise RuntimeError(f"illegal action {a}")
        s.apply_action(a)
        gst = gt.play(gi)
    if gst["outcome"] is None:
        raise RuntimeError("OpenSpiel ended, gametree did not")
    m_first = gt_outcome_margin(gst)
    m_os = mapper.os_margin(s)
    gt_margin = m_first if gt_seat == 0 else -m_first
    res = "W" if gt_margin > 0 else ("L" if gt_margin < 0 else "D")
    return {"game": mapper.label, "opp": opp, "gt_seat": gt_seat, "seed": seed,
            "time_ms": time_ms, "result": res, "gt_margin": gt_margin,
            "os_margin_check": m_os == m_first,
            "moves": [p["move"] for p in plies], "plies": plies,
            "gt_secs": round(t_gt, 2), "bot_secs": round(t_bot, 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", help="ttt | kalah | dotsRxC")
    ap.add_argument("opp", help="mcts:SIMS | cmcts:SIMS | ab:DEPTH | random")
    ap.add_argument("n", type=int, help="games per seat")
    ap.add_argument("--time-ms", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="matches.jsonl", help="JSON lines, appended")
    ap.add_argument("--deadline", default=None, help="HH:MM UTC; no new game after it")
    ap.add_argument("--gametree", default=None,
                    help="gametree binary (default $GAMETREE, else target/release/gametree)")
    args = ap.parse_args()
    timing_hint()
    mapper = make_mapper(args.game)
    gt = Gt(gametree_path(args.gametree))
    tally = {0: {"W": 0, "D": 0, "L": 0, "m": []}, 1: {"W": 0, "D": 0, "L": 0, "m": []}}
    t_start = time.time()
    for k in range(2 * args.n):
        if args.deadline and time.strftime("%H:%M", time.gmtime()) >= args.deadline:
            print("deadline reached", flush=True)
            break
        seat = k % 2
        rec = play_game(gt, mapper, args.opp, seat, args.seed * 1000 + k, args.time_ms)
        with open(args.out, "a") as f:
            f.write(json.dumps(rec) + "\n")
        t = tally[seat]
        t[rec["result"]] += 1
        t["m"].append(rec["gt_margin"])
        print(f"{mapper.label} vs {args.opp} seat={seat} {rec['result']} margin={rec['gt_margin']} "
              f"check={rec['os_margin_check']} gt_s={rec['gt_secs']} bot_s={rec['bot_secs']} "
              f"moves={' '.join(rec['moves'])}", flush=True)
    for seat in (0, 1):
        t = tally[seat]
        print(f"SUMMARY {mapper.label} opp={args.opp} gt_time_ms={args.time_ms} gt_seat={seat}: "
              f"W{t['W']} D{t['D']} L{t['L']} margins={t['m']}", flush=True)
    print(f"elapsed {time.time() - t_start:.0f}s", flush=True)
    gt.close()


if __name__ == "__main__":
    main()
