"""Reads labelled positions (`moves<TAB>value`, argv[1]), keeps the quiet ones, and writes their
pattern-pair counts to feats.npz (argv[2], default ./feats.npz). See README.md."""
import numpy as np, sys, itertools, time, json
from patterns import build_table, KINDS, F2C, K
N = 15
TAB = build_table()
F2C_ARR = np.array(F2C, dtype=np.int64)
DIRS = [(0,1),(1,0),(1,1),(1,-1)]
OFFS = [k for k in range(-4,5) if k != 0]
POW3 = [3**j for j in range(8)]
DPAIRS = list(itertools.combinations(range(4), 2))
def pair_index(n):
    m = -np.ones((n,n), dtype=np.int64); idx = 0; names = []
    for a in range(n):
        for b in range(a, n):
            m[a,b] = m[b,a] = idx; idx += 1; names.append((a,b))
    return m, names
FPAIR, FPAIR_NAMES = pair_index(13)   # 91
CPAIR, CPAIR_NAMES = pair_index(8)    # 36
# C4: multisets of 4 coarse kinds -> 330
C4_NAMES = list(itertools.combinations_with_replacement(range(8), 4))
C4_MAP = np.full(8**4, -1, dtype=np.int64)
for i, ms in enumerate(C4_NAMES):
    for perm in set(itertools.permutations(ms)):
        C4_MAP[((perm[0]*8+perm[1])*8+perm[2])*8+perm[3]] = i

def kinds_for_side(board, s):
    """board 15x15 ints (0 empty,1 black,2 white). returns fine kinds (4,15,15) for side s placing at each cell."""
    P = np.full((N+8, N+8), 2, dtype=np.int64)
    inner = np.where(board == 0, 0, np.where(board == s, 1, 2))
    P[4:4+N, 4:4+N] = inner
    out = np.empty((4, N, N), dtype=np.int64)
    for d, (dr, dc) in enumerate(DIRS):
        code = np.zeros((N, N), dtype=np.int64)
        for j, k in enumerate(OFFS):
            r0 = 4 + dr*k; c0 = 4 + dc*k
            code += POW3[j] * P[r0:r0+N, c0:c0+N]
        out[d] = TAB[code]
    return out

def parse_moves(ms):
    mv = []
    for m in ms.split():
        c = ord(m[0]) - 97; r = int(m[1:]) - 1
        assert 0 <= c < N and 0 <= r < N, m
        mv.append((r, c))
    return mv

def main():
    global LABELS, OUT
    LABELS = sys.argv[1]
    OUT = sys.argv[2] if len(sys.argv) > 2 else 'feats.npz'
    t0 = time.time()
    rows = []
    stats = dict(total=0, bigval=0, few=0, dup=0, five_on_board=0, not_quiet_five=0, not_quiet_f4=0, kept=0)
    Xfp, Xcp, Xc4, Xfs, Xcs, y, nst, line_no, game_id = [], [], [], [], [], [], [], [], []
    prev_moves = None; gid = -1
    for li, line in enumerate(open(LABELS)):
        stats['total'] += 1
        ms, v = line.rstrip('\n').split('\t'); v = float(v)
        # game grouping: a line continues the previous game if previous move list is a prefix
        if prev_moves is None or not (ms.startswith(prev_moves + ' ')):
            gid += 1
        prev_moves = ms
        if abs(v) > 1500: stats['bigval'] += 1; continue
        mv = parse_moves(ms)
        if len(mv) < 4: stats['few'] += 1; continue
        board = np.zeros((N, N), dtype=np.int64); bad = False
        for i, (r, c) in enumerate(mv):
            if board[r, c]: bad = True; break
            board[r, c] = 1 + (i % 2)
        if bad: stats['dup'] += 1; continue
        mover = 1 if len(mv) % 2 == 0 else 2; waiting = 3 - mover
        empty = board == 0
        # five already on board? (an occupied stone whose line is a five): check via kinds of own stones
        km = kinds_for_side(board, mover); kw = kinds_for_side(board, waiting)
        # five on board check: for each stone of colour s, kinds_for_side computed at occupied cells treats center as own -> F5 means existing five
        if ((km == K['F5']) & (board == mover)[None]).any() or ((kw == K['F5']) & (board == waiting)[None]).any():
            stats['five_on_board'] += 1; continue
        if ((km == K['F5']) & empty[None]).any() or ((kw == K['F5']) & empty[None]).any():
            stats['not_quiet_five'] += 1; continue
        if ((km == K['F4']) & empty[None]).any():
            stats['not_quiet_f4'] += 1; continue
        occ = ~empty
        Pd = np.zeros((N+4, N+4), dtype=bool); Pd[2:2+N, 2:2+N] = occ
        near = np.zeros((N, N), dtype=bool)
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                near |= Pd[2+dr:2+dr+N, 2+dc:2+dc+N]
        near &= empty
        fp, cp, c4, fs, cs = [], [], [], [], []
        for kk in (km, kw):
            pts = kk[:, near].T          # (npts, 4) fine kinds
            cpts = F2C_ARR[pts]          # coarse kinds
            fpi = np.concatenate([FPAIR[pts[:, a], pts[:, b]] for a, b in DPAIRS])
            cpi = np.concatenate([CPAIR[cpts[:, a], cpts[:, b]] for a, b in DPAIRS])
            srt = np.sort(cpts, axis=1)
            c4i = C4_MAP[((srt[:, 0]*8 + srt[:, 1])*8 + srt[:, 2])*8 + srt[:, 3]]
            fp.append(np.bincount(fpi, minlength=91)); cp.append(np.bincount(cpi, minlength=36))
            c4.append(np.bincount(c4i, minlength=330))
            fs.append(np.bincount(pts.ravel(), minlength=13)); cs.append(np.bincount(cpts.ravel(), minlength=8))
        Xfp.append(np.concatenate(fp)); Xcp.append(np.concatenate(cp)); Xc4.append(np.concatenate(c4))
        Xfs.append(np.concatenate(fs)); Xcs.append(np.concatenate(cs))
        y.append(1.0 / (1.0 + np.exp(-v / 182.0))); nst.append(len(mv)); line_no.append(li); game_id.append(gid)
        stats['kept'] += 1
        if stats['total'] % 5000 == 0: print(stats, f'{time.time()-t0:.0f}s', flush=True)
    print(stats, f'{time.time()-t0:.0f}s', 'games:', gid + 1)
    np.savez_compressed(OUT, Xfp=np.array(Xfp, dtype=np.float32), Xcp=np.array(Xcp, dtype=np.float32),
                        Xc4=np.array(Xc4, dtype=np.float32), Xfs=np.array(Xfs, dtype=np.float32), Xcs=np.array(Xcs, dtype=np.float32),
                        y=np.array(y), nst=np.array(nst), line=np.array(line_no), game=np.array(game_id))
    json.dump(stats, open(OUT + '.filter.json', 'w'))

if __name__ == '__main__':
    main()
