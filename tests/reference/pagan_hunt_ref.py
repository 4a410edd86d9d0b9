#!/usr/bin/env python3
"""Independent reference for src/variants/pagan/hunt.rs: two Pagans against a lone king on the
dead board (protocol-docs/rules.md section 3), solved by retrograde analysis, written from the
rules without the engine's code. The Pagans stand on the dead board or on frame ranks 7-8; the
defender has nothing else that moves. The attacker wins by mate; the defender draws by taking a
Pagan that no other Pagan guards (one Pagan cannot mate) or by stalemate.

Prints the counts that the Rust test `the_tables_match_the_reference_solver` pins, and two
positions' plies to mate. Run: python3 tests/reference/pagan_hunt_ref.py

`--pass attacker` or `--pass defender` solves the same placements when that side has a spare
move elsewhere (another piece that can move) and may pass instead of moving (the defender only
when it is not in check): protocol-docs/variants/pagan.md, "Conversion".
"""
import itertools, sys
PASS = None
if len(sys.argv) == 3 and sys.argv[1] == '--pass' and sys.argv[2] in ('attacker', 'defender'):
    PASS = sys.argv[2]
elif len(sys.argv) != 1:
    sys.exit('usage: pagan_hunt_ref.py [--pass attacker|defender]')
def exists(f, r):
    if not (0 <= f < 7 and 1 <= r <= 8): return False
    if r in (5, 6): return False
    if r <= 4 and f in (0, 6): return False
    return True
DIRS = [(1,1),(0,1),(-1,1),(1,0),(-1,0),(1,-1),(0,-1),(-1,-1)]
def pstep(sq, d):
    f, r = sq; df, dr = DIRS[d]; nf, nr = f+df, r+dr
    if exists(nf, nr): return (nf, nr)
    if 1 <= f <= 5 and 1 <= nf <= 5:
        if r == 7 and dr == -1: return (nf, 4)
        if r == 4 and dr == 1: return (nf, 7)
    return None
def kstep(sq, d):
    f, r = sq; df, dr = DIRS[d]; nf, nr = f+df, r+dr
    return (nf, nr) if exists(nf, nr) and nr <= 4 else None
SQ = [(f, r) for r in range(1, 9) for f in range(7) if exists(f, r)]
DEAD = [s for s in SQ if s[1] <= 4]
def attacked(k, pagans, occ):
    for d in range(8):
        p = pstep(k, d)
        if p in pagans:
            away = pstep(p, d)
            if away is not None and away not in occ: return True
    return False
def pagan_moves(p, occ):
    for d in range(8):
        one = pstep(p, d)
        if one is None or one in occ: continue
        yield one
        two = pstep(one, d)
        if two is not None and two not in occ: yield two
states = [(k, a, b) for k in DEAD for a in SQ for b in SQ if a < b and k != a and k != b]
idx = {s: i for i, s in enumerate(states)}
key = lambda k, a, b: (k, min(a, b), max(a, b))
# attacker to move: win_a[s] = plies to mate or None; defender to move: lose_d[s]
win_a = {}; lose_d = {}
def d_moves(s):
    k, a, b = s; out = []
    for d in range(8):
        t = kstep(k, d)
        if t is None: continue
        if t == a or t == b:
            # captures the Pagan: it leaves the game -> draw unless illegal
            rest = (b,) if t == a else (a,)
            if not attacked(t, rest, {t, rest[0]}): out.append('draw')
            continue
        if not attacked(t, (a, b), {t, a, b}): out.append(key(t, a, b))
    if PASS == 'defender' and not attacked(k, (a, b), {k, a, b}): out.append(s)
    return out
def a_moves(s):
    k, a, b = s; occ = {k, a, b}; out = []
    for p, q in ((a, b), (b, a)):
        for t in pagan_moves(p, occ):
            # a withdrawal from the king captures nothing; legal for the attacker always
            out.append(key(k, t, q))
    if PASS == 'attacker': out.append(s)
    return out
DM = {s: d_moves(s) for s in states}
AM = {s: a_moves(s) for s in states}
# Ply by ply: at even plies the king's positions whose every move reaches a won one (none at
# all and in check: mate), at odd plies the Pagans' positions with a move to a lost king.
ply, idle = 0, 0
while idle < 2:
    found = False
    for s in states:
        if ply % 2 == 1 and s not in win_a:
            if any(lose_d.get(t) == ply - 1 for t in AM[s]):
                win_a[s] = ply; found = True
        elif ply % 2 == 0 and s not in lose_d:
            moves = DM[s]
            if 'draw' in moves: continue
            if not moves and not attacked(s[0], (s[1], s[2]), set(s)): continue
            if all(t in win_a and win_a[t] < ply for t in moves):
                lose_d[s] = ply; found = True
    idle = 0 if found else idle + 1
    ply += 1
print('attacker-to-move won', len(win_a), 'defender-to-move lost', len(lose_d),
      'longest', max(win_a.values()))
sq = lambda f, r: (f, r)
for k, a, b in [((4, 4), (3, 3), (2, 2)), ((4, 1), (3, 3), (2, 2))]:
    print('king', k, 'Pagans', a, b, 'Pagans to move: plies to mate', win_a.get(key(k, a, b)))
