#!/usr/bin/env python3
"""What a strong brain (the judge) thinks our moves cost, in recorded games or in a fixed set.

usage:
  loss.py label JUDGE GAMES...              > labels.jsonl
      the judge's move and value in every position after the opening of the games that
      entrant A lost as White (the second player); one JSON line a game
  loss.py values JUDGE SEED N GAMES...      > values.tsv
      the judge's value (for the side to move) of two positions of each game, from four
      plies past the opening to six before the end, games shuffled by SEED, until N:
      `moves<TAB>value`, what examples/gomoku_point_fit.rs and gomoku_eval_fit.rs read
  loss.py drift labels.jsonl
      per game: does the loss turn on one move or drift; per side: the mean loss a move
      and how often the move was the judge's
  loss.py measure labels.jsonl N PLAYER...  [--brain] [--out losses.json]
      the mean loss of PLAYER's moves in N positions (White to move, within 1,500 of even)
      of the labels: PLAYER is a gametree binary and options of its `selfplay gomoku`
      (give --depth D --time-ms 0 --threads 1 --no-random-ties for repeatable moves), or
      with --brain a Gomocup brain command and its arguments, asked at 300 ms; --out keeps
      each position's move and loss, for `paired`
  loss.py paired A.json B.json
      two players' losses on the same positions (`measure --out`): the mean difference
      with its standard error, also with the losses capped at 300 and 100
  loss.py leaves DEPTH GAMETREE < values.tsv > leaves.tsv
      for each labelled position of `values`, the leaf of GAMETREE's principal variation
      at DEPTH (through `gametree serve`), labelled with the root's value for the leaf's
      side to move: the targets of a TD-leaf fit (docs/performance.md, "Wave 32")

JUDGE is a Gomocup brain command run at a fixed depth (`INFO max_depth 10`), e.g. Rapfi;
its values are in its own units (Rapfi: about 200 a 75 % win chance). The loss of a move is
the mover's value before it minus after it (0 when it is the judge's own move; capped at
1,000 for a move into a forced loss). GAMES are `gametree tournament --games-out` files.
The judge's answers are cached in `loss-cache.json` beside the labels. Nothing here runs
in CI; see docs/performance.md, "Wave 28", for what it measured.
"""
import json, os, random, re, shlex, subprocess, sys

MATE = 30000


def value(text):
    """A judge's evaluation as a number: `+M9` (win in 9) becomes MATE - 9."""
    if not text:
        return None
    if 'M' in text:
        plies = int(text.replace('M', '').lstrip('+-') or 0)
        return (-1 if text.startswith('-') else 1) * (MATE - plies)
    return int(text)


def xy(move):
    return ord(move[0]) - ord('a'), 15 - int(move[1:])


def notation(answer):
    x, y = map(int, answer.split(','))
    return chr(ord('a') + x) + str(15 - y)


class Brain:
    def __init__(self, command, infos):
        # Run in the brain's own directory (Rapfi finds its model there), so a relative
        # path to it is made absolute first.
        args = shlex.split(command)
        if os.sep in args[0]:
            args[0] = os.path.abspath(args[0])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1,
                                     cwd=os.path.dirname(args[0]) or None)
        self.send('START 15')
        while not self.proc.stdout.readline().startswith('OK'):
            pass
        for info in ('timeout_match 1000000000', 'time_left 1000000000',
                     'max_memory 83886080') + infos:
            self.send('INFO ' + info)

    def send(self, line):
        self.proc.stdin.write(line + '\n')
        self.proc.stdin.flush()

    def ask(self, moves):
        """The brain's move and last evaluation in the position after `moves`."""
        self.send('BOARD')
        for i, move in enumerate(moves):
            x, y = xy(move)
            self.send('%d,%d,%d' % (x, y, 1 if i % 2 == len(moves) % 2 else 2))
        self.send('DONE')
        evaluation = ''
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit('the brain ended')
            line = line.strip()
            # Rapfi's `Eval +M9`, gametree's `ev +M9`.
            found = re.search(r'(?:[Ee]val:?|\bev) ([+-]?M?\d+)', line)
            if found:
                evaluation = found.group(1)
            if re.fullmatch(r'\d+,\d+', line):
                return notation(line), value(evaluation)


def judge(command):
    return Brain(command, ('timeout_turn 5000', 'max_depth 10'))


def label(command, files):
    brain = judge(command)
    for name in files:
        for line in open(name):
            cols = line.rstrip('\n').split('\t')
            if line.startswith('#') or len(cols) < 7 or cols[2] != 'A' or cols[3] != '1-0':
                continue
            opening, moves = int(cols[5]), cols[6].split()
            evals = [(k, moves[k]) + brain.ask(moves[:k]) for k in range(opening, len(moves))]
            print(json.dumps({'file': name, 'game': cols[0], 'moves': moves, 'evals': evals}),
                  flush=True)


def values(command, seed, n, files):
    found = set()
    for name in files:
        for line in open(name):
            cols = line.rstrip('\n').split('\t')
            if not line.startswith('#') and len(cols) >= 7:
                found.add((int(cols[5]), cols[6]))
    rng = random.Random(seed)
    shuffled = sorted(found)
    rng.shuffle(shuffled)
    brain, done = judge(command), 0
    for opening, moves in shuffled:
        moves = moves.split()
        if len(moves) < opening + 8:
            continue
        plies = list(range(opening + 4, max(opening + 5, len(moves) - 6)))
        for k in rng.sample(plies, min(2, len(plies))):
            v = brain.ask(moves[:k])[1]
            if v is not None:
                print(' '.join(moves[:k]) + '\t' + str(v), flush=True)
                done += 1
        if done >= n:
            break


def games(labels):
    for line in open(labels):
        game = json.loads(line)
        evals = ((k, m, best, value(v) if isinstance(v, str) else v)
                 for k, m, best, v in game['evals'])
        yield game, {k: (m, best, v) for k, m, best, v in evals if v is not None}


def drift(labels):
    turns, drifts, loss, same = 0, 0, {0: [], 1: []}, {0: 0, 1: 0}
    for game, evals in games(labels):
        white = {k: v if k % 2 else -v for k, (_, _, v) in evals.items()}
        if any(k % 2 and k + 1 in white and white[k] > -400 and white[k + 1] < -1500
               for k in white):
            turns += 1
        else:
            drifts += 1
        for k, (move, best, v) in evals.items():
            if k + 1 in evals and abs(v) < 1500 and abs(evals[k + 1][2]) < 1500:
                loss[k % 2].append(v + evals[k + 1][2])
                same[k % 2] += move == best
    print('%d games turn on one move, %d drift' % (turns, drifts))
    for side, name in ((1, 'White (A)'), (0, 'Black (B)')):
        moves = loss[side]
        print('%s: %d moves, mean loss %.1f, the judge\'s move %.0f %%'
              % (name, len(moves), sum(moves) / len(moves), 100 * same[side] / len(moves)))


def measure(labels, n, player, brain_mode, judge_command, out_file=None):
    positions = [(game['moves'][:k], best, v)
                 for game, evals in games(labels)
                 for k, (_, best, v) in evals.items()
                 if k % 2 and abs(v) < 1500 and k + 1 in evals]
    random.seed(7)
    random.shuffle(positions)
    cache_file = os.path.join(os.path.dirname(os.path.abspath(labels)), 'loss-cache.json')
    cache = json.load(open(cache_file)) if os.path.exists(cache_file) else {}
    judge_brain = None
    ours = Brain(' '.join(player), ('timeout_turn 300',)) if brain_mode else None
    total, agree, kept = 0, 0, []
    for moves, best, v in positions[:n]:
        if ours:
            move = ours.ask(moves)[0]
        else:
            out = subprocess.run(player[:1] + ['selfplay', 'gomoku'] + player[1:] +
                                 ['--max-moves', '1', '--json', '--moves', ' '.join(moves)],
                                 capture_output=True, text=True, check=True).stdout
            move = json.loads(out.splitlines()[0])['move']
        if move == best:
            agree += 1
            kept.append((move, 0))
            continue
        key = ' '.join(moves + [move])
        if key not in cache:
            judge_brain = judge_brain or judge(judge_command)
            cache[key] = judge_brain.ask(moves + [move])[1] or 0
        kept.append((move, min(1000, max(0, v + cache[key]))))
        total += kept[-1][1]
    json.dump(cache, open(cache_file, 'w'))
    if out_file:
        json.dump(kept, open(out_file, 'w'))
    count = min(n, len(positions))
    print('mean loss %.1f, the judge\'s move %.1f %% (%d positions)'
          % (total / count, 100 * agree / count, count))


def paired(first, second):
    a, b = json.load(open(first)), json.load(open(second))
    n = min(len(a), len(b))
    for cap in (1000, 300, 100):
        d = [min(x[1], cap) - min(y[1], cap) for x, y in zip(a[:n], b[:n])]
        mean = sum(d) / n
        sd = (sum((x - mean) ** 2 for x in d) / max(n - 1, 1)) ** 0.5
        print('capped at %4d: %+.1f +- %.1f (standard error), %d positions, %d the same move'
              % (cap, mean, sd / n ** 0.5, n, sum(x[0] == y[0] for x, y in zip(a, b))))


def leaves(depth, binary):
    proc = subprocess.Popen([binary, 'serve'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    ids = iter(range(1, 1 << 62))

    def request(**fields):
        fields['id'] = next(ids)
        proc.stdin.write(json.dumps(fields) + '\n')
        proc.stdin.flush()
        while True:
            answer = json.loads(proc.stdout.readline())
            if answer.get('id') == fields['id'] and answer['type'] != 'info':
                return answer

    request(cmd='new', game='gomoku')
    for line in sys.stdin:
        moves, v = line.rstrip('\n').split('\t')
        state = request(cmd='position', moves=moves.split())
        if state['type'] != 'state' or state['outcome'] is not None:
            continue
        found = request(cmd='go', depth=depth, threads=1, random_ties=False, time_ms=0)
        if found['type'] != 'bestmove':
            continue
        pv = found.get('pv') or []
        print(' '.join(moves.split() + pv) + '\t' + str(int(v) * (-1) ** len(pv)), flush=True)


if __name__ == '__main__':
    args = sys.argv[1:]
    if len(args) >= 3 and args[0] == 'label':
        label(args[1], args[2:])
    elif len(args) >= 5 and args[0] == 'values':
        values(args[1], int(args[2]), int(args[3]), args[4:])
    elif len(args) == 2 and args[0] == 'drift':
        drift(args[1])
    elif len(args) >= 4 and args[0] == 'measure':
        brain_mode = '--brain' in args
        out_file = None
        if '--out' in args[:-1]:
            at = args.index('--out')
            out_file = args[at + 1]
            args = args[:at] + args[at + 2:]
        rest = [a for a in args[3:] if a != '--brain']
        measure(args[1], int(args[2]), rest, brain_mode,
                os.environ.get('JUDGE', '/tmp/rapfi/pbrain-rapfi'), out_file)
    elif len(args) == 3 and args[0] == 'paired':
        paired(args[1], args[2])
    elif len(args) == 3 and args[0] == 'leaves':
        leaves(int(args[1]), args[2])
    else:
        sys.exit(__doc__)
