"""Bridge between `gametree serve` (JSON lines, docs/protocol.md) and OpenSpiel.

A library for rules.py and match.py, not run by itself:

  from bridge import Gt, TTT, Kalah, Dots, gametree_path
  gt = Gt(gametree_path(None))     # --gametree PATH, else $GAMETREE, else target/release/gametree

Move mappings (gametree index <-> OpenSpiel action):

tic_tac_toe  gt index = row_from_bottom*3 + col  (a1 = 0, bottom-left)
             OS action = row_from_top*3 + col   (0 = top-left)
             => gt = (2 - r_top)*3 + c ; notation = 'abc'[c] + str(3 - r_top)
kalah        gt index i = pit from the mover's left (a = 0), same for both sides
(mancala)    OS board: 0 = P1 store, 1..6 = P0 pits, 7 = P0 store, 8..13 = P1 pits
             P0 (South) pit i <-> OS action i+1 ; P1 (North) pit i <-> OS action 8+i
dots         gt: horizontal lines first, dot row from the bottom: row*C + col (row 0..R),
                 then vertical: H + row*(C+1) + col (row 0..R-1), H = (R+1)*C
             OS: horizontal lines first, row from the top: r*C + c (r 0..R),
                 then vertical: H + r*(C+1) + c (r 0..R-1, from the top)
             => h: gt row = R - r ; v: gt row = R - 1 - r ; column unchanged
             notation h (row, col): '{c}{row+1}-{c+1}{row+1}', v: '{c}{row+1}-{c}{row+2}'
"""
import json
import os
import shutil
import subprocess

import numpy as np
import pyspiel

DEFAULT_GAMETREE = "target/release/gametree"


class GtError(Exception):
    pass


def gametree_path(arg):
    """The gametree binary: `arg` (a --gametree option) if given, else $GAMETREE, else
    target/release/gametree relative to the working directory."""
    path = arg or os.environ.get("GAMETREE") or DEFAULT_GAMETREE
    found = path if os.path.isfile(path) else shutil.which(path)
    if not found:
        raise SystemExit(f"no gametree binary at {path} (give --gametree PATH or set GAMETREE)")
    return found


def timing_hint():
    """Matches play by time a move: say so, and how to pin, when not pinned to one CPU."""
    if hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) == 1:
        return
    print("note: matches are timing-sensitive (gametree plays `go` by time_ms); for "
          "repeatable results pin them to one CPU, e.g. taskset -c 1 ...", flush=True)


class Gt:
    """One long-lived `gametree serve` process."""

    def __init__(self, path):
        self.p = subprocess.Popen([path, "serve"], text=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, bufsize=1)
        self.id = 0

    def ask(self, **req):
        self.id += 1
        req["id"] = self.id
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise GtError("gt serve ended")
            r = json.loads(line)
            if r.get("type") in ("info", "preparing"):
                continue
            if r.get("id") != self.id:
                raise GtError(f"unexpected response {r}")
            if r["type"] == "error":
                raise GtError(f"{req} -> {r['error']}")
            return r

    def new(self, game, options=None):
        return self.ask(cmd="new", game=game, options=options or {})

    def play(self, move):
        return self.ask(cmd="play", move=move)

    def legal(self):
        return self.ask(cmd="legal")

    def state(self):
        return self.ask(cmd="state")

    def go(self, **settings):
        return self.ask(cmd="go", **settings)

    def position(self, moves):
        return self.ask(cmd="position", moves=moves)

    def solve(self, **kw):
        return self.ask(cmd="solve", **kw)

    def close(self):
        try:
            self.ask(cmd="quit")
        except Exception:
            pass
        try:
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


SIDE = {"first": 0, "second": 1, None: None}


class Mapper:
    """Per-game mapping. `gt_to_os(idx, player)` and `os_to_gt(action, player)` where
    player is the OpenSpiel player to move (0/1); `notation(idx, player)` is the gametree
    notation the mapping expects for that gt index."""
    gt_game = None
    gt_options = {}

    def os_game(self, **extra):
        raise NotImplementedError


class TTT(Mapper):
    gt_game = "tictactoe"
    label = "tictactoe"

    def __init__(self):
        self.gt_options = {}

    def os_game(self, **extra):
        return pyspiel.load_game("tic_tac_toe")

    def os_to_gt(self, a, player):
        r, c = divmod(a, 3)
        return (2 - r) * 3 + c

    def gt_to_os(self, i, player):
        rb, c = divmod(i, 3)
        return (2 - rb) * 3 + c

    def notation(self, i, player):
        rb, c = divmod(i, 3)
        return "abc"[c] + str(rb + 1)

    def compare_state(self, gst, os_state):
        rows = gst["position"]["rows"]
        osrows = str(os_state).strip().split("\n")
        mine = [r.upper() for r in osrows]
        if rows != mine:
            return f"board gt={rows} os={mine}"
        return None

    def os_margin(self, os_state):
        return int(os_state.returns()[0])


class Kalah(Mapper):
    gt_game = "kalah"
    label = "kalah(6,4)"
    N = 6

    def __init__(self, empty_capture=False):
        self.gt_options = {"pits": 6, "stones": 4, "empty_capture": empty_capture}
        if empty_capture:
            self.label = "kalah(6,4) empty_capture=true (control)"

    def os_game(self, **extra):
        return pyspiel.load_game("mancala")

    def os_to_gt(self, a, player):
        return a - 1 if player == 0 else a - 8

    def gt_to_os(self, i, player):
        return i + 1 if player == 0 else i + 8

    def notation(self, i, player):
        return "abcdef"[i]

    @staticmethod
    def board(os_state):
        return [int(x) for x in os_state.observation_tensor(0)[:14]]

    def os_margin(self, os_state):
        b = self.board(os_state)
        return sum(b[1:8]) - (sum(b[8:14]) + b[0])

    def compare_state(self, gst, os_state):
        b = self.board(os_state)
        pos = gst["position"]
        if gst["outcome"] is None:
            mine = {"south": b[1:7], "north": b[8:14], "stores": [b[7], b[0]]}
            theirs = {"south": pos["south"], "north": pos["north"], "stores": pos["stores"]}
            if mine != theirs:
                return f"board gt={theirs} os={mine}"
        else:
            # gametree sweeps the pits into the stores at the end; OpenSpiel counts them
            tot = [sum(b[1:8]), sum(b[8:14]) + b[0]]
            if pos["stores"] != tot:
                return f"final totals gt={pos['stores']} os={tot} (os board {b})"
        return None


class Dots(Mapper):
    gt_game = "dots"

    def __init__(self, rows, cols):
        self.R, self.C = rows, cols
        self.H = (rows + 1) * cols
        self.gt_options = {"rows": rows, "cols": cols}
        self.label = f"dots {rows}x{cols}"

    def os_game(self, utility_margin=False, **extra):
        return pyspiel.load_game("dots_and_boxes", {"num_rows": self.R, "num_cols": self.C,
                                                    "utility_margin": utility_margin})

    def os_to_gt(self, a, player):
        # Turning the rows over: the same map takes OpenSpiel's numbers to gametree's and back.
        R, C, H = self.R, self.C, self.H
        if a < H:
            r, c = divmod(a, C)
            return (R - r) * C + c
        r, c = divmod(a - H, C + 1)
        return H + (R - 1 - r) * (C + 1) + c

    def gt_to_os(self, i, player):
        return self.os_to_gt(i, player)

    def notation(self, i, player):
        C, H = self.C, self.H
        L = "abcdefghij"
        if i < H:
            rb, c = divmod(i, C)
            return f"{L[c]}{rb + 1}-{L[c + 1]}{rb + 1}"
        rb, c = divmod(i - H, C + 1)
        return f"{L[c]}{rb + 1}-{L[c]}{rb + 2}"

    def points(self, os_state, game):
        shape = game.observation_tensor_shape()
        t = np.array(os_state.observation_tensor(0)).reshape(shape)
        return [int(t[1, :, 2].sum()), int(t[2, :, 2].sum())]

    def compare_state(self, gst, os_state, game=None):
        pts = self.points(os_state, game or os_state.get_game())
        sc = gst["scores"]
        if [sc["first"], sc["second"]] != pts:
            return f"scores gt={sc} os={pts}"
        return None

    def os_margin(self, os_state):
        p = self.points(os_state, os_state.get_game())
        return p[0] - p[1]


def gt_outcome_margin(gst):
    """Outcome as the first player's margin (win/loss games: +1/0/-1)."""
    o = gst["outcome"]
    if o is None:
        return None
    if o["winner"] is None:
        return 0
    return o["margin"] if o["winner"] == "first" else -o["margin"]
