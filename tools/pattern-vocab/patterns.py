"""Line-pattern classifier (Rapfi-like 13 freestyle kinds) per brief. Window = 9 cells, center index 4.
Cell codes: 0 empty, 1 own, 2 blocked (opponent or off-board)."""
import itertools
KINDS = ['DEAD','B1','F1','B2','F2','F2A','F2B','B3','F3','F3S','B4','F4','F5']
K = {k:i for i,k in enumerate(KINDS)}
COARSE_NAMES = ['None','ClosedTwo','OpenTwo','ClosedThree','OpenThree','ClosedFour','OpenFour','Five']
FINE2COARSE = {'DEAD':0,'B1':0,'F1':0,'B2':1,'F2':2,'F2A':2,'F2B':2,'B3':3,'F3':4,'F3S':4,'B4':5,'F4':6,'F5':7}
F2C = [FINE2COARSE[k] for k in KINDS]

def is_five(t):
    # run of own stones containing index 4 of length >= 5
    if t[4] != 1: return False
    l = 4
    while l-1 >= 0 and t[l-1] == 1: l -= 1
    r = 4
    while r+1 <= 8 and t[r+1] == 1: r += 1
    return r - l + 1 >= 5

_memo = {}
def kind(t):
    """t: 9-tuple with t[4]==1 (stone placed at c). returns kind name."""
    if t in _memo: return _memo[t]
    if is_five(t):
        res = 'F5'
    else:
        empties = [i for i in range(9) if t[i] == 0]
        placed = [t[:i] + (1,) + t[i+1:] for i in empties]
        n5 = sum(is_five(p) for p in placed)
        if n5 >= 2: res = 'F4'
        elif n5 == 1: res = 'B4'
        else:
            sub = [kind(p) for p in placed]
            n4 = sub.count('F4')
            if n4 >= 2: res = 'F3S'
            elif n4 == 1: res = 'F3'
            elif 'B4' in sub: res = 'B3'
            else:
                n3 = sum(s in ('F3','F3S') for s in sub)
                if n3 >= 4: res = 'F2B'
                elif n3 == 3: res = 'F2A'
                elif n3 >= 1: res = 'F2'
                elif 'B3' in sub: res = 'B2'
                elif any(s in ('F2','F2A','F2B') for s in sub): res = 'F1'
                elif 'B2' in sub: res = 'B1'
                else: res = 'DEAD'
    _memo[t] = res
    return res

def build_table():
    """table[code] -> fine kind index, code = sum_{j} cell_j * 3^j over the 8 non-center cells
    ordered k=-4..-1,+1..+4."""
    import numpy as np
    tab = np.zeros(3**8, dtype=np.int8)
    for code in range(3**8):
        cells = []; c = code
        for j in range(8):
            cells.append(c % 3); c //= 3
        t = tuple(cells[:4]) + (1,) + tuple(cells[4:])
        tab[code] = K[kind(t)]
    return tab

def parse(s):
    """string with '.' = point c, 'O' own, 'X' opp, '_' empty; cells beyond the string = blocked.
    The string is aligned so that '.' is at index 4."""
    p = s.index('.')
    t = []
    for k in range(-4, 5):
        i = p + k
        if i < 0 or i >= len(s): t.append(2)
        else:
            ch = s[i]
            t.append({'.':1,'O':1,'X':2,'_':0}[ch])
    return tuple(t)

if __name__ == '__main__':
    tests = ['_OO.__', '__OO.___', '___OO.___', 'X.____', 'X._____','____.____', '___O.____', '___O._O__',
             'X_O.O__', '__O_.O__', '_OOO.____', 'XOOO.____', '_O_O.O_X', '__OOO.___', 'OO.OO', 'X_OO._X',
             '___OX.____', '____.O___', 'X___.___X', 'XO.OOX', '__O_._O__']
    for s in tests:
        t = parse(s)
        print(f'{s:12s} window={"".join("_O#"[x] if i!=4 else "." for i,x in enumerate(t))}  ->  {kind(t):4s} (coarse {COARSE_NAMES[FINE2COARSE[kind(t)]]})')
    import numpy as np
    tab = build_table()
    print('table kind histogram:', {KINDS[i]: int((tab==i).sum()) for i in range(len(KINDS))})
