"""Rule agreement: random games played in lockstep in gametree and OpenSpiel.

Usage (with a Python that has open_spiel and numpy, e.g. /tmp/os-venv/bin/python):

  python tools/openspiel/rules.py [--quick] [--scale N] [--gametree PATH] [--out FILE]

  --quick          1/50 of the games of each configuration (at least 2): a smoke test
  --scale N        N times the games of each configuration (default 1)
  --gametree PATH  the gametree binary (default $GAMETREE, else target/release/gametree)
  --out FILE       the JSON results (default rules_results[_quick]_xN.json in the
                   working directory)

Each game is played with uniformly random moves (Kalah also with a "biggest pit" policy)
in OpenSpiel and, move by move, in one `gametree serve` process (moves sent by notation
in even-numbered games, by index in odd ones). Before every move it checks the board (Dots:
the scores), the side to move, the legal moves and their notation; after it, the last move
and the extra turn; at the end the margin and the result. The fixed seed (2026) makes a
run repeatable. `stats` counts the Kalah sowings of 13 or more stones (a full lap). Prints one summary line per configuration (and up to three
mismatches). Every configuration should agree in every game except the control, Kalah
with `empty_capture = true`, which is not OpenSpiel's rule and must show mismatches (it
shows that the checks see a rule difference).
"""
import argparse
import json
import random
import time

from bridge import Gt, TTT, Kalah, Dots, SIDE, gt_outcome_margin, gametree_path


STATS = {"sowings_13plus": 0}


def lockstep(gt, mapper, game, rng, policy="uniform", use_index=False):
    """One random game. Returns (record, mismatch or None)."""
    gst = gt.new(mapper.gt_game, mapper.gt_options)
    s = game.new_initial_state()
    moves_os, moves_gt = [], []

    def fail(what):
        return {"os_actions": list(moves_os), "gt_moves": list(moves_gt), "what": what}

    while True:
        os_term = s.is_terminal()
        gt_term = gst["outcome"] is not None
        if os_term != gt_term:
            return None, fail(f"terminal gt={gt_term} os={os_term} gt_state={gst['position']}")
        diff = mapper.compare_state(gst, s)
        if diff:
            return None, fail(diff)
        if os_term:
            gm = gt_outcome_margin(gst)
            om = mapper.os_margin(s)
            ret = s.returns()[0]
            if gm != om:
                return None, fail(f"final margin gt={gm} os={om}")
            if (gm > 0) != (ret > 0) or (gm < 0) != (ret < 0):
                return None, fail(f"final result gt margin={gm} os returns={s.returns()}")
            return {"plies": len(moves_os), "margin": gm}, None
        player = s.current_player()
        if SIDE[gst["to_move"]] != player:
            return None, fail(f"to_move gt={gst['to_move']} os={player}")
        lg = gt.legal()
        if SIDE[lg["to_move"]] != player:
            return None, fail(f"legal.to_move gt={lg['to_move']} os={player}")
        for m in lg["moves"]:
            if m["move"] != mapper.notation(m["index"], player):
                return None, fail(f"notation of index {m['index']}: gt={m['move']} "
                                  f"expected {mapper.notation(m['index'], player)}")
        gt_set = sorted(mapper.gt_to_os(m["index"], player) for m in lg["moves"])
        os_set = sorted(s.legal_actions())
        if gt_set != os_set:
            return None, fail(f"legal gt(as os)={gt_set} os={os_set}")
        acts = os_set
        if policy == "biggest" and rng.random() < 0.6:
            board = mapper.board(s)
            a = max(acts, key=lambda x: (board[x], rng.random()))
        else:
            a = rng.choice(acts)
        if hasattr(mapper, "board"):
            STATS["sowings_13plus"] += mapper.board(s)[a] >= 13
        gi = mapper.os_to_gt(a, player)
        note = mapper.notation(gi, player)
        moves_os.append(a)
        moves_gt.append(note)
        s.apply_action(a)
        gst = gt.play(gi if use_index else note)
        if gst["last_move"] != note:
            return None, fail(f"last_move gt={gst['last_move']} expected {note}")
        extra = gst["extra_turn"]
        if not s.is_terminal():
            os_extra = s.current_player() == player
            if extra != os_extra:
                return None, fail(f"extra_turn gt={extra} os={os_extra}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="1/50 of the games of each configuration (at least 2)")
    ap.add_argument("--scale", type=int, default=1, help="N times the games (default 1)")
    ap.add_argument("--gametree", default=None,
                    help="gametree binary (default $GAMETREE, else target/release/gametree)")
    ap.add_argument("--out", default=None,
                    help="JSON results (default rules_results[_quick]_xN.json here)")
    args = ap.parse_args()
    quick, scale = args.quick, args.scale
    out = args.out or "rules_results" + ("_quick" if quick else "") + f"_x{scale}.json"
    rng = random.Random(2026)
    configs = [
        (TTT(), 300, "uniform"),
        (Kalah(), 250, "uniform"),
        (Kalah(), 250, "biggest"),
        (Kalah(empty_capture=True), 100, "uniform"),
        (Dots(1, 1), 30, "uniform"),
        (Dots(1, 3), 50, "uniform"),
        (Dots(2, 2), 300, "uniform"),
        (Dots(2, 3), 200, "uniform"),
        (Dots(3, 2), 200, "uniform"),
        (Dots(3, 3), 300, "uniform"),
        (Dots(4, 4), 100, "uniform"),
        (Dots(5, 5), 100, "uniform"),
        (Dots(4, 6), 50, "uniform"),
    ]
    gt = Gt(gametree_path(args.gametree))
    results = []
    for mapper, n, policy in configs:
        if quick:
            n = max(2, n // 50)
        n *= scale
        game = mapper.os_game(utility_margin=True)
        t0 = time.time()
        ok, mism, margins, plies = 0, [], {}, 0
        for k in range(n):
            rec, bad = lockstep(gt, mapper, game, rng, policy, use_index=(k % 2 == 1))
            if bad:
                mism.append(bad)
            else:
                ok += 1
                plies += rec["plies"]
                margins[rec["margin"]] = margins.get(rec["margin"], 0) + 1
        r = {"game": mapper.label, "policy": policy, "games": n, "agreed": ok,
             "plies_checked": plies, "mismatches": mism[:10], "mismatch_count": len(mism),
             "margins_first": dict(sorted(margins.items())), "secs": round(time.time() - t0, 1)}
        results.append(r)
        print(json.dumps({k: v for k, v in r.items() if k != "mismatches"}), flush=True)
        for m in mism[:3]:
            print("   MISMATCH", json.dumps(m), flush=True)
    gt.close()
    print("stats", STATS)
    results.append({"stats": STATS})
    with open(out, "w") as f:
        json.dump(results, f, indent=1)
    print("wrote", out)


if __name__ == "__main__":
    main()
