#!/usr/bin/env python3
"""Ask a Gomocup brain (the teacher) for its move in positions of recorded games.

usage: label.py BRAIN_COMMAND MS N SEED GAMES... > positions.tsv

GAMES are `gametree tournament --games-out` files (tab separated, moves in the seventh
column, opening plies in the sixth). Every position after the opening is a candidate; N of
them, chosen by SEED, go to the brain one by one (BOARD ... DONE, INFO timeout_turn MS), and
each line of output is `moves<TAB>teacher's move<TAB>its evaluation`, as
examples/gomoku_rank_data.rs reads them. Run it where the brain finds its own files.
"""
import random, re, shlex, subprocess, sys

brain, ms, n, seed, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
positions = set()
for name in files:
    for line in open(name):
        if line.startswith('#'):
            continue
        cols = line.rstrip('\n').split('\t')
        if len(cols) < 7:
            continue
        opening, moves = int(cols[5]), cols[6].split()
        for i in range(max(opening, 3), len(moves) - 1):
            positions.add(' '.join(moves[:i]))
positions = sorted(positions)
random.seed(seed)
random.shuffle(positions)

proc = subprocess.Popen(shlex.split(brain), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    proc.stdin.write(line + '\n')
    proc.stdin.flush()


def answer():
    evaluation = ''
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit('the brain ended')
        line = line.strip()
        found = re.search(r'[Ee]val:? ([+-]?M?\d+)', line)
        if found:
            evaluation = found.group(1)
        if re.fullmatch(r'\d+,\d+', line):
            return line, evaluation


def xy(move):
    return ord(move[0]) - ord('a'), 15 - int(move[1:])


send('START 15')
proc.stdout.readline()
for info in (f'timeout_turn {ms}', 'timeout_match 1000000000', 'max_memory 67108864'):
    send('INFO ' + info)
for position in positions[:n]:
    moves = position.split()
    send('BOARD')
    for i, move in enumerate(moves):
        x, y = xy(move)
        send(f'{x},{y},{1 if (len(moves) - 1 - i) % 2 == 1 else 2}')
    send('DONE')
    best, evaluation = answer()
    x, y = map(int, best.split(','))
    print(f'{position}\t{chr(ord("a") + x)}{15 - y}\t{evaluation}', flush=True)
send('END')
