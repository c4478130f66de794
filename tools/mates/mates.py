#!/usr/bin/env python3
"""Forced wins a strong brain sees in recorded games, and how fast another player finds them.

usage:
  mates.py collect JUDGE MS GAMES.games [GAME_NO...]  > sweeps.jsonl
      replays each game of a `gametree tournament --games-out` file to the judge (a Gomocup
      brain command, e.g. Rapfi) at MS a position, from the end of the opening until the
      judge has seen a forced win twice in a row; one JSON line a game with the judge's
      value (Black's view, a forced win as +-20000) and move in every position swept
  mates.py positions sweeps.jsonl > positions.json
      the first position of each game where the judge saw a forced win, with the winner to
      move (one ply later when the first sighting had the loser to move)
  mates.py find BRAIN MS positions.json
      how many of those forced wins BRAIN (a Gomocup brain command) reports (`+M` in its
      MESSAGE lines: gametree's `ev +M5`, Rapfi's `Eval +M5`) within MS a position

Coordinates: gametree's notation (`h8`: columns a.. from the left, rows 1.. from the
bottom); the protocol's X,Y counts columns from the left and rows from the top, from 0.
"""

import json
import re
import subprocess
import sys

SIZE = 15
MATE = 20000


def protocol_point(move):
    return ord(move[0]) - 97, SIZE - int(move[1:])


def notation(x, y):
    return "%s%d" % (chr(97 + x), SIZE - y)


class Brain:
    """A Gomocup brain on a 15x15 board with a fixed time a move and no match limit."""

    def __init__(self, command, ms):
        self.proc = subprocess.Popen(
            command.split(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.send("START %d" % SIZE)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("%s: no OK to START" % command)
            if line.strip() == "OK":
                break
        for info in ("timeout_turn %d" % ms, "timeout_match 100000000", "time_left 100000000"):
            self.send("INFO " + info)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def think(self, moves):
        """The brain's move in the position after `moves`, and its last value line."""
        side = len(moves) % 2
        self.send("BOARD")
        for i, move in enumerate(moves):
            x, y = protocol_point(move)
            self.send("%d,%d,%d" % (x, y, 1 if i % 2 == side else 2))
        self.send("DONE")
        value_line = ""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("the brain exited")
            line = line.strip()
            if line.startswith("MESSAGE") and re.search(r"(\bev |Eval )", line):
                value_line = line
            if re.match(r"^\d+,\d+$", line):
                x, y = map(int, line.split(","))
                return notation(x, y), value_line

    def close(self):
        self.send("END")


def value_of(line):
    """The side to move's value in a MESSAGE line: +-MATE for a forced win or loss."""
    m = re.search(r"(?:\bev|Eval) ([+-]?)(M?)(\d+)", line)
    if not m:
        return 0
    sign = -1 if m.group(1) == "-" else 1
    return sign * (MATE if m.group(2) else int(m.group(3)))


def collect(judge, ms, games_file, wanted):
    brain = Brain(judge, ms)
    for line in open(games_file):
        if line.startswith("#"):
            continue
        game = line.rstrip("\n").split("\t")
        if wanted and game[0] not in wanted:
            continue
        moves, opening = game[6].split(), int(game[5])
        values, best = [], []
        for ply in range(opening, len(moves)):
            move, text = brain.think(moves[:ply])
            value = value_of(text)
            values.append(value if ply % 2 == 0 else -value)
            best.append(move)
            if len(values) >= 2 and abs(values[-1]) == MATE and abs(values[-2]) == MATE:
                break
        print(json.dumps({
            "game": game[0], "first": game[1], "second": game[2], "result": game[3],
            "opening": opening, "moves": moves, "black_value": values, "judge_best": best,
        }))
        sys.stdout.flush()
    brain.close()


def positions(sweeps):
    out = []
    for line in open(sweeps):
        sweep = json.loads(line)
        values, opening = sweep["black_value"], sweep["opening"]
        for i, value in enumerate(values):
            if abs(value) != MATE:
                continue
            ply = opening + i
            black_wins = value > 0
            if (ply % 2 == 0) != black_wins:
                i, ply = i + 1, ply + 1
            if i < len(values) and abs(values[i]) == MATE and ply < len(sweep["moves"]) - 2:
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
    brain = Brain(command, ms)
    found = []
    for position in wins:
        _, text = brain.think(position["moves"])
        found.append(value_of(text) == MATE)
    brain.close()
    print("%s at %d ms: %d of %d forced wins found" % (command, ms, sum(found), len(found)))
    print(" ".join("%s:%s" % (p["game"], "W" if f else ".") for p, f in zip(wins, found)))


def main(args):
    if len(args) >= 4 and args[0] == "collect":
        collect(args[1], int(args[2]), args[3], set(args[4:]))
    elif len(args) == 2 and args[0] == "positions":
        positions(args[1])
    elif len(args) == 4 and args[0] == "find":
        find(args[1], int(args[2]), args[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
