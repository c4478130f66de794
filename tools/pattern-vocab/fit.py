"""Logistic regression (soft targets) on pattern-count features. Reads feats.npz (argv[1], default
./feats.npz), prints the results and writes results.json beside it. See README.md."""
import numpy as np, json, sys, os
from scipy.optimize import minimize
from patterns import KINDS, COARSE_NAMES
from features import FPAIR_NAMES, CPAIR_NAMES
FEATS_PATH = sys.argv[1] if len(sys.argv) > 1 else 'feats.npz'
RESULTS = os.path.join(os.path.dirname(os.path.abspath(FEATS_PATH)), 'results.json')
d = np.load(FEATS_PATH)
y = d['y']; nst = d['nst']; line = d['line']; game = d['game']
def agg_pairs(Xfp, group):
    # aggregate fine (13-kind) pair counts into pair counts of a merged vocabulary; group[k] = new kind id
    G = max(group) + 1; npair = G * (G + 1) // 2
    pidx = {}; 
    for a in range(G):
        for b in range(a, G): pidx[(a, b)] = len(pidx)
    A = np.zeros((91, npair))
    for i, (a, b) in enumerate(FPAIR_NAMES):
        ga, gb = sorted((group[a], group[b])); A[i, pidx[(ga, gb)]] = 1
    return np.hstack([Xfp[:, :91] @ A, Xfp[:, 91:] @ A])
from patterns import F2C
# sanity: aggregating fine pairs with the coarse map must reproduce the directly computed coarse pairs
assert np.allclose(agg_pairs(d['Xfp'].astype(np.float64), F2C), d['Xcp'])
# DEAD B1 F1 | B2 F2 F2A F2B | B3 F3 F3S | B4 F4 F5
SPLIT_NONE = [0, 1, 2, 3, 4, 4, 4, 5, 6, 6, 7, 8, 9]      # coarse, but None split into DEAD/B1/F1 (10 kinds)
SPLIT_23 = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]        # coarse, but F2/F2A/F2B and F3/F3S split (11 kinds)
FEATS = {
    'coarse pairs': [d['Xcp']],
    'fine pairs': [d['Xfp']],
    'coarse C4': [d['Xc4']],
    'fine pairs + coarse C4': [d['Xfp'], d['Xc4']],
    'ablation: coarse + None split (10 kinds) pairs': [agg_pairs(d['Xfp'].astype(np.float64), SPLIT_NONE)],
    'ablation: coarse + two/three split (11 kinds) pairs': [agg_pairs(d['Xfp'].astype(np.float64), SPLIT_23)],
}
LAMBDAS = [1e-4, 1e-3, 1e-2, 1e-1]
PHASES = [('7-12 (all <=12)', (nst >= 4) & (nst <= 12)), ('13-24', (nst >= 13) & (nst <= 24)), ('25+', nst >= 25)]

def xent(p, q):
    q = np.clip(q, 1e-12, 1 - 1e-12)
    return -(p * np.log(q) + (1 - p) * np.log(1 - q))

def fit(X, yt, lam):
    n, m = X.shape
    def f(w):
        z = X @ w[1:] + w[0]
        q = 1 / (1 + np.exp(-z))
        loss = xent(yt, q).mean() + 0.5 * lam * (w[1:] @ w[1:])
        g = q - yt
        grad = np.empty_like(w); grad[0] = g.mean(); grad[1:] = X.T @ g / n + lam * w[1:]
        return loss, grad
    w0 = np.zeros(m + 1); p0 = yt.mean(); w0[0] = np.log(p0 / (1 - p0))
    r = minimize(f, w0, jac=True, method='L-BFGS-B', options=dict(maxiter=5000, maxfun=10000))
    return r.x, r

def predict(X, w): return 1 / (1 + np.exp(-(X @ w[1:] + w[0])))

def run(split_name, tr, te):
    out = {}
    yt, ye = y[tr], y[te]
    const_q = yt.mean()
    per_pos = {'constant': xent(ye, np.full(te.sum(), const_q))}
    out['constant'] = dict(lam=None, nfeat=0)
    # inner split of the training set for lambda selection: alternate training rows
    idx_tr = np.flatnonzero(tr)
    inner_a = np.zeros(len(y), bool); inner_b = np.zeros(len(y), bool)
    if split_name.startswith('even/odd'):
        inner_a[idx_tr[(line[idx_tr] // 2) % 2 == 0]] = True
    else:
        inner_a[idx_tr[(game[idx_tr] // 2) % 2 == 0]] = True
    inner_b[idx_tr] = True; inner_b &= ~inner_a
    weights = {}
    for name, blocks in FEATS.items():
        X = np.hstack(blocks).astype(np.float64)
        keep = X[tr].std(0) > 0          # drop features constant on train
        X = X[:, keep]
        def stdz(mask):
            mu = X[mask].mean(0); sd = X[mask].std(0); sd[sd == 0] = 1
            return mu, sd
        # lambda selection on inner split
        mu, sd = stdz(inner_a)
        val = {}
        for lam in LAMBDAS:
            w, _ = fit((X[inner_a] - mu) / sd, y[inner_a], lam)
            val[lam] = xent(y[inner_b], predict((X[inner_b] - mu) / sd, w)).mean()
        lam = min(val, key=val.get)
        mu, sd = stdz(tr)
        w, r = fit((X[tr] - mu) / sd, yt, lam)
        qe = predict((X[te] - mu) / sd, w)
        per_pos[name] = xent(ye, qe)
        train_loss = xent(yt, predict((X[tr] - mu) / sd, w)).mean()
        out[name] = dict(lam=lam, val={str(k): float(v) for k, v in val.items()}, nfeat=int(keep.sum()),
                         train_loss=float(train_loss), converged=bool(r.success), iters=int(r.nit))
        weights[name] = (w, mu, sd, keep)
    ent = xent(ye, ye)   # irreducible part (entropy of soft target)
    res = {'n_train': int(tr.sum()), 'n_test': int(te.sum()), 'models': out, 'loss': {}, 'phase_n': {}}
    for name, pp in per_pos.items():
        res['loss'][name] = {'all': float(pp.mean())}
        for ph, m in PHASES:
            res['loss'][name][ph] = float(pp[m[te]].mean())
    res['loss']['(target entropy floor)'] = {'all': float(ent.mean()), **{ph: float(ent[m[te]].mean()) for ph, m in PHASES}}
    for ph, m in PHASES: res['phase_n'][ph] = int(m[te].sum())
    # paired differences with game-clustered standard errors
    g = game[te]
    def clustered(diff, mask=None):
        if mask is not None: diff = diff[mask]; gg = g[mask]
        else: gg = g
        ug, inv = np.unique(gg, return_inverse=True)
        s = np.bincount(inv, weights=diff); n = len(diff); G = len(ug)
        mean = diff.mean()
        c = np.bincount(inv) 
        resid = s - mean * c
        se = np.sqrt(G / (G - 1) * (resid ** 2).sum()) / n
        return float(mean), float(se)
    comps = [('coarse pairs', 'fine pairs'), ('coarse C4', 'fine pairs + coarse C4'), ('coarse pairs', 'coarse C4'), ('coarse C4', 'fine pairs'),
             ('coarse pairs', 'ablation: coarse + None split (10 kinds) pairs'), ('coarse pairs', 'ablation: coarse + two/three split (11 kinds) pairs')]
    res['diffs'] = {}
    for a, b in comps:
        dd = per_pos[a] - per_pos[b]
        res['diffs'][f'{a} minus {b}'] = {'all': clustered(dd), **{ph: clustered(dd, m[te]) for ph, m in PHASES}}
    return res, weights

if __name__ == '__main__':
    results = {}
    tr = line % 2 == 0; te = ~tr
    results['even/odd lines'], W = run('even/odd lines', tr, te)
    # top fine-pair weights from the fine-pairs model of the main split
    w, mu, sd, keep = W['fine pairs']
    names = []
    for role in ('mover', 'waiting'):
        for a, b in FPAIR_NAMES: names.append(f'{role}: {KINDS[a]}+{KINDS[b]}')
    names = np.array(names)[keep]
    Xfp = d['Xfp'][:, keep]
    prev = (Xfp[tr] > 0).mean(0); meancnt = Xfp[tr].mean(0)
    raw = w[1:] / sd; stdw = w[1:]
    top = []
    for order_name, key in (('by |standardized weight| (logit change per 1 SD of the count)', np.abs(stdw)),
                            ('by |raw weight| (logit change per one extra direction-pair), features in >=1% of train positions', np.where(prev >= 0.01, np.abs(raw), -1))):
        o = np.argsort(-key)[:10]
        top.append((order_name, [dict(feature=str(names[i]), std_w=float(stdw[i]), raw_w=float(raw[i]), prevalence=float(prev[i]), mean_count=float(meancnt[i])) for i in o]))
    results['top_fine_pair_weights'] = top
    tr2 = game % 2 == 0; te2 = ~tr2
    results['game-grouped (even/odd game id)'], _ = run('game-grouped', tr2, te2)
    json.dump(results, open(RESULTS, 'w'), indent=1)
    print(json.dumps(results, indent=1))
