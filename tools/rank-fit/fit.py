#!/usr/bin/env python3
"""Fit the candidate ranking's weights (src/games/gomoku/policy.rs) to a teacher's moves.

usage: fit.py POINTS LAMBDA [all] > weights.rs
       (POINTS from examples/gomoku_rank_data.rs; needs numpy and scipy)

The model: a point's logit is attack[sorted shapes of the mover's stone there] +
defence[... of the opponent's], each `beta * log(1 + pattern score) + correction`, with
the corrections L2-regularised by LAMBDA (so combinations the data rarely shows keep the
pattern table's order), plus a weight on nearness; a softmax over a position's points is
fitted to the teacher's move. Prints the held-out recall (how often the teacher's move is
among the first k points) of today's ranking and of the fitted one on stderr, and the
table rows (hundredths of a logit) on stdout. With `all` nothing is held out.
"""
import itertools, sys
import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize

SINGLE = [0, 3, 5, 50, 200, 500, 10000, 100000]


def score(cls):
    """The assignment's pattern score of four shapes (PatternTable::score)."""
    c = [0] * 8
    for i in range(4):
        c[(cls >> (3 * i)) & 7] += 1
    best = max([SINGLE[i] for i in range(1, 8) if c[i]] + [0])
    pairs = [(c[5] >= 2, 10000), (c[5] and c[4], 10000), (c[4] >= 2, 5000), (c[3] and c[4], 1000), (c[2] >= 2, 100)]
    best = max([best] + [v for ok, v in pairs if ok])
    return best + sum(c[i] * SINGLE[i] for i in range(1, 8))


def log(*args):
    print(*args, file=sys.stderr)


groups = []
for line in open(sys.argv[1]):
    head, body = line.split(' | ')
    if head.split()[0] != '1':
        continue
    points = [tuple(int(x) for x in p.split(',')) for p in body.split()]
    if len(points) > 1:
        groups.append(points)
lam = float(sys.argv[2])
n = len(groups)
classes = sorted({int(''.join(map(str, t)), 8) for t in itertools.combinations_with_replacement(range(7, -1, -1), 4)})
index = {c: i for i, c in enumerate(classes)}
k = len(classes)
rows, cols, dense, current, start = [], [], [], [], []
for points in groups:
    start.append(len(current))
    for att, dfn, loc, cur in points:
        r = len(current)
        rows += [r, r]
        cols += [index[att], k + index[dfn]]
        dense.append([np.log1p(score(att)), np.log1p(score(dfn)), loc])
        current.append(cur)
start = np.array(start)
total = len(current)
x = sp.hstack([sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(total, 2 * k)), sp.csr_matrix(np.array(dense))]).tocsr()
group = np.repeat(np.arange(n), np.diff(np.append(start, total)))
held = np.random.default_rng(1).random(n) < 0.2
if len(sys.argv) > 3 and sys.argv[3] == 'all':
    held[:] = False
train = (~held).astype(float)
reg = np.append(np.ones(2 * k), [0, 0, 0])


def loss(w):
    s = x @ w
    top = np.maximum.reduceat(s, start)
    e = np.exp(s - top[group])
    z = np.add.reduceat(e, start)
    logp = s[start] - top - np.log(z)
    g = e / z[group]
    g[start] -= 1
    g *= train[group]
    return -np.sum(logp * train) / train.sum() + lam * np.sum(reg * w * w), x.T @ g / train.sum() + 2 * lam * reg * w


def recall(values):
    if not held.any():
        return 'nothing held out'
    ranks = []
    for i in np.where(held)[0]:
        s = values[start[i]:(start[i + 1] if i + 1 < n else total)]
        ranks.append(np.sum(s[1:] > s[0]) + 0.5 * np.sum(s[1:] == s[0]))
    ranks = np.array(ranks)
    return ' '.join(f'@{r}: {np.mean(ranks < r):.3f}' for r in (1, 4, 7, 12, 24)) + f', mean rank {ranks.mean():.2f}'


log(f'{n} positions; today\'s ranking, held out: {recall(np.array(current, float))}')
w = minimize(loss, np.zeros(2 * k + 3), jac=True, method='L-BFGS-B', options={'maxiter': 3000}).x
log(f'fitted, held out: {recall(x @ w)}; beta attack {w[2 * k]:.3f}, defence {w[2 * k + 1]:.3f}, nearness {w[2 * k + 2]:.4f}')
for c in classes:
    att = w[2 * k] * np.log1p(score(c)) + w[index[c]]
    dfn = w[2 * k + 1] * np.log1p(score(c)) + w[k + index[c]]
    print(f'    (0o{c:04o}, {round(att * 100)}, {round(dfn * 100)}),')
