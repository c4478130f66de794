#!/usr/bin/env python3
"""Forced wins a strong brain sees in recorded games, and how fast another player finds them.

usage:
  mates.py collect JUDGE MS GAMES.games [GAME_NO...]  > sweeps.jsonl
      replays each game of a `gametree tournament --games-out` file to the judge (a Gomocup
      brain command, e.g. Rapfi) at MS a position, from the end of the opening until the
      judge has seen a forced win twice in a row; one JSON line a game with the judge's
      value (Black's view; a forced win in n plies as +-(30000 - n), as tools/move-loss
      reads it) and move in every position swept
  mates.py positions sweeps.jsonl > positions.json
      the first position of each game where the judge saw a forced win, with the winner to
      move (one ply later when the first sighting had the loser to move)
  mates.py find BRAIN MS positions.json
      how many of those forced wins BRAIN (a Gomocup brain command) reports (`+M` in its
      MESSAGE lines: gametree's `ev +M5`, Rapfi's `Eval +M5`) within MS a position

  mates.py holds JUDGE MS positions.json > holds.json
      the defending half: for each position, the one a ply before it, with the loser to
      move, kept when the judge at MS says it is not lost yet while the move played in the
      game loses (a move that threw a held position away)
  mates.py defend BRAIN MS JUDGE JUDGE_MS holds.json
      how many of those positions BRAIN (at MS a move) still holds: its move is not the
      one played, and after it the judge (at JUDGE_MS) sees no forced win for the opponent

Coordinates: gametree's notation (`h8`: columns a.. from the left, rows 1.. from the
bottom); the protocol's X,Y counts columns from the left and rows from the top, from 0.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "move-loss"))
from loss import MATE, Brain  # noqa: E402  (the Gomocup brain driver and its values)

# A value this close to MATE is a forced win (`+M…`: MATE less its plies); Rapfi also
# prints plain values near 30000 (29449 once), which are not counted.
WIN = MATE - 256


def brain(command, ms):
    """A Gomocup brain on a 15x15 board, MS a move, no match limit."""
    return Brain(command, ("timeout_turn %d" % ms,))


def is_win(value):
    return value is not None and value >= WIN


def collect(judge, ms, games_file, wanted):
    player = brain(judge, ms)
    for line in open(games_file):
        if line.startswith("#"):
            continue
        game = line.rstrip("\n").split("\t")
        if wanted and game[0] not in wanted:
            continue
        moves, opening = game[6].split(), int(game[5])
        values, best = [], []
        for ply in range(opening, len(moves)):
            move, value = player.ask(moves[:ply])
            value = max(-MATE, min(MATE, value or 0))
            values.append(value if ply % 2 == 0 else -value)
            best.append(move)
            if len(values) >= 2 and abs(values[-1]) >= WIN and abs(values[-2]) >= WIN:
                break
        print(json.dumps({
            "game": game[0], "first": game[1], "second": game[2], "result": game[3],
            "opening": opening, "moves": moves, "black_value": values, "judge_best": best,
        }))
        sys.stdout.flush()
    player.send("END")


def positions(sweeps):
    out = []
    for line in open(sweeps):
        sweep = json.loads(line)
        values, opening = sweep["black_value"], sweep["opening"]
        for i, value in enumerate(values):
            if abs(value) < WIN:
                continue
            ply = opening + i
            black_wins = value > 0
            if (ply % 2 == 0) != black_wins:
                i, ply = i + 1, ply + 1
            if i < len(values) and abs(values[i]) >= WIN and ply < len(sweep["moves"]) - 2:
                out.append({
                    "game": sweep["game"], "moves": sweep["moves"][:ply],
                    "winner": "black" if black_wins else "white",
                    "judge": sweep["judge_best"][i],
                })
            break
    json.dump(out, sys.stdout, indent=0)
    print()


def find(command, ms, positions_file):
    wins = json.load(open(positions_file))
    player = brain(command, ms)
    found = [is_win(player.ask(position["moves"])[1]) for position in wins]
    player.send("END")
    print("%s at %d ms: %d of %d forced wins found" % (command, ms, sum(found), len(found)))
    print(" ".join("%s:%s" % (p["game"], "W" if f else ".") for p, f in zip(wins, found)))


def is_lost(value):
    return value is not None and value <= -WIN


def holds(judge, ms, positions_file):
    player = brain(judge, ms)
    out = []
    for position in json.load(open(positions_file)):
        before, played = position["moves"][:-1], position["moves"][-1]
        move, value = player.ask(before)
        if is_lost(value) or move == played:
            continue
        if not is_win(player.ask(position["moves"])[1]):
            continue
        out.append({"game": position["game"], "moves": before, "played": played,
                    "judge": move, "judge_value": value})
    player.send("END")
    json.dump(out, sys.stdout, indent=0)
    print()


def defend(command, ms, judge, judge_ms, holds_file):
    positions = json.load(open(holds_file))
    player = brain(command, ms)
    moves = [player.ask(position["moves"])[0] for position in positions]
    player.send("END")
    judge = brain(judge, judge_ms)
    held = [move != position["played"] and not is_win(judge.ask(position["moves"] + [move])[1])
            for position, move in zip(positions, moves)]
    judge.send("END")
    print("%s at %d ms: held %d of %d" % (command, ms, sum(held), len(held)))
    print(" ".join("%s:%s%s" % (p["game"], m, "" if h else "x")
                   for p, m, h in zip(positions, moves, held)))


def main(args):
    if len(args) >= 4 and args[0] == "collect":
        collect(args[1], int(args[2]), args[3], set(args[4:]))
    elif len(args) == 2 and args[0] == "positions":
        positions(args[1])
    elif len(args) == 4 and args[0] == "find":
        find(args[1], int(args[2]), args[3])
    elif len(args) == 4 and args[0] == "holds":
        holds(args[1], int(args[2]), args[3])
    elif len(args) == 6 and args[0] == "defend":
        defend(args[1], int(args[2]), args[3], int(args[4]), args[5])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
