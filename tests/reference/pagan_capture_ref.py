#!/usr/bin/env python3
"""Which two pieces beside a king capture a lone live king on the game board of Pagan Chess
(protocol-docs/variants/pagan.md, "Which endings can be won")? Solved backwards from the
captures, written from the rules: the game board only (7 files, 5 ranks; nothing crosses the
bridge); the attacker has its king and two of Wazir (W: 1 or 2 squares orthogonally, the middle
one empty), Alchemist (A: a diagonal step, or a 2-square diagonal leap over anything) and Pagan
(G: 1 or 2 squares any way over empty squares; it captures only by withdrawing: next to the
king, it steps 1 or 2 squares straight away from it); W and A capture by landing. The attacker
wins by capturing the king. The lone king draws by taking a piece (it lands on it; kings never
take kings) or by having no move; with `pass` it may also pass, as it nearly always can in play
(its side has other pieces, live or dead).

Prints, for each pair, how many placements (king, the two pieces, the lone king; the two
pieces unordered when alike) the attacker to move wins and the longest win in plies:
  GG: 611,362 of 628,320 in at most 31 plies; with pass 142,024 (only captures at once)
  WG: 1,187,406 of 1,256,640 (47); with pass 1,187,046 (75)
  AG: 1,233,456 of 1,256,640 (55); with pass 297,724 (9)
  WW: 564,244 of 628,320 (57); with pass 205,952 (15)
  WA: 380,412 of 1,256,640 (37); with pass 353,548 (27)
  AA: 390,322 of 628,320 (37); with pass 154,760 (5)
Run: python3 tests/reference/pagan_capture_ref.py [PAIR…] (a few minutes for all)
"""
import sys
from collections import deque

F, R = 7, 5
N = F * R
DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def sq(f, r):
    return r * F + f if 0 <= f < F and 0 <= r < R else None


def fr(s):
    return s % F, s // F


KING = [[t for t in (sq(fr(s)[0] + dx, fr(s)[1] + dy) for dx, dy in DIRS) if t is not None]
        for s in range(N)]


def slides(f, r, dirs, occupied, lone, withdraws):
    """(target, captures) of a slide of 1 or 2 squares along each of `dirs` over empty squares:
    a Pagan's (`withdraws`: it captures a king straight behind it) or a Wazir's (it captures by
    landing on the king)."""
    out = []
    for dx, dy in dirs:
        behind = withdraws and sq(f - dx, r - dy) == lone
        for n in (1, 2):
            t = sq(f + dx * n, r + dy * n)
            if t is None:
                break
            if t == lone and not withdraws:
                out.append((t, True))
                break
            if t in occupied:
                break
            out.append((t, behind))
    return out


def piece_moves(kind, s, occupied, lone):
    """(target, captures the lone king) for a piece of `kind` on `s`."""
    f, r = fr(s)
    if kind == 'G':
        return slides(f, r, DIRS, occupied, lone, True)
    if kind == 'W':
        return slides(f, r, ((1, 0), (-1, 0), (0, 1), (0, -1)), occupied, lone, False)
    out = []  # 'A': a diagonal step, or a leap of two
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        for n in (1, 2):
            t = sq(f + dx * n, r + dy * n)
            if t is None:
                continue
            if t == lone:
                out.append((t, True))
            elif t not in occupied:
                out.append((t, False))
    return out


def solve(a_kind, b_kind, can_pass):
    """Plies to capture, attacker to move, of every placement (k, a, b, x) it wins."""
    placements = [(k, a, b, x) for k in range(N) for a in range(N) for b in range(N)
                  for x in range(N) if len({k, a, b, x}) == 4]
    attacker = {}
    defender = {}
    open_moves = {}
    queue = deque()

    def quiet(p):
        """The attacker's quiet moves from p: each is its own inverse."""
        k, a, b, x = p
        occ = {k, a, b, x}
        out = [(t, a, b, x) for t in KING[k] if t not in occ]
        out += [(k, t, b, x) for t, takes in piece_moves(a_kind, a, occ, x) if not takes]
        out += [(k, a, t, x) for t, takes in piece_moves(b_kind, b, occ, x) if not takes]
        return out

    for p in placements:
        k, a, b, x = p
        occ = {k, a, b, x}
        if any(takes for kind, s in ((a_kind, a), (b_kind, b))
               for _, takes in piece_moves(kind, s, occ, x)):
            attacker[p] = 1
            queue.append(p)
        open_moves[p] = sum(1 for t in KING[x] if t != k) + (1 if can_pass else 0)
    while queue:
        won = queue.popleft()
        d = attacker[won]
        k, a, b, x = won
        # The lone king's placements that lead here: a step from a free neighbour, or a pass.
        sources = [(k, a, b, s) for s in KING[x] if s not in (k, a, b)]
        if can_pass:
            sources.append(won)
        for src in sources:
            if src in defender:
                continue
            open_moves[src] -= 1
            if open_moves[src] == 0:
                defender[src] = d + 1
                for before in quiet(src):
                    if before not in attacker:
                        attacker[before] = d + 2
                        queue.append(before)
    return attacker


def main():
    pairs = sys.argv[1:] or ['GG', 'WG', 'AG', 'WW', 'WA', 'AA']
    bad = [p for p in pairs if len(p) != 2 or any(k not in 'WAG' for k in p)]
    if bad:
        sys.exit(f'not a pair of W, A and G: {" ".join(bad)} (say GG, WG, AG, WW, WA or AA)')
    for pair in pairs:
        for can_pass in (False, True):
            won = solve(pair[0], pair[1], can_pass)
            # Alike pieces: count each unordered pair of squares once.
            keys = [p for p in won if pair[0] != pair[1] or p[1] < p[2]]
            total = N * (N - 1) * (N - 2) * (N - 3) // (2 if pair[0] == pair[1] else 1)
            longest = max(won[p] for p in keys)
            print(f'{pair} pass={can_pass}: {len(keys):,} of {total:,}, longest {longest}')


if __name__ == '__main__':
    main()
