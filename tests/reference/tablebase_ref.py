#!/usr/bin/env python3
"""Independent check of the Apocalypse tablebase (Python 3.11, standard library only).

Reads lines `RULES FEN` on standard input (RULES is `apocalypse` or `apocalypse-classic`).  For
each, every position reachable from FEN (joint turns of legal moves, a forced pass counting as a
move, as in perft) is enumerated with the independent rules of apocalypse_ref.py, and the values
are computed by value iteration: every unfinished position starts at 1/2 and is replaced by the
value of its one-turn matrix game over its children's current values, until nothing changes.
The matrix games are solved exactly, on fractions (saddle point, else the simplex method with
Bland's rule).  Payoffs are for White: 1 a White win, 0 a Black win, 1/2 a draw.

Writes one line `FEN VALUE` per reachable position (FEN with its penalty points; the quiet-turn
count and turn number, which no rule reads, are set to 0 and 1), VALUE a decimal with 15
digits, then `converged SWEEPS` or `not-converged SWEEPS`.
"""

import sys
from fractions import Fraction

import apocalypse_ref as ref

HALF = Fraction(1, 2)
MAX_SWEEPS = 500
MAX_STATES = 200_000


def payoff(res):
    return {"1-0": Fraction(1), "0-1": Fraction(0), "1/2-1/2": HALF}[res]


def canonical_fen(pos):
    p = pos.copy()
    p.quiet, p.turn = 0, 1
    return ref.to_fen(p)


def solve_game(a):
    """Value of the zero-sum game with payoff matrix a (rows maximise), exactly."""
    m, n = len(a), len(a[0])
    maximin = max(min(row) for row in a)
    minimax = min(max(a[i][j] for i in range(m)) for j in range(n))
    if maximin == minimax:
        return maximin
    # Shift to positive payoffs; column player's LP: max sum y, A y <= 1, y >= 0.
    low = min(min(row) for row in a)
    shift = 1 - low
    # Tableau rows: m constraints [A | I | 1], objective row [-1 ... | 0 | 0].
    width = n + m + 1
    t = []
    for i in range(m):
        row = [a[i][j] + shift for j in range(n)] + [Fraction(0)] * m + [Fraction(1)]
        row[n + i] = Fraction(1)
        t.append(row)
    obj = [Fraction(-1)] * n + [Fraction(0)] * (m + 1)
    basis = [n + i for i in range(m)]
    while True:
        # Bland's rule: the lowest-index column with a negative reduced cost.
        col = next((j for j in range(width - 1) if obj[j] < 0), None)
        if col is None:
            break
        best = None
        for i in range(m):
            if t[i][col] > 0:
                ratio = t[i][-1] / t[i][col]
                if best is None or ratio < best[0] or (ratio == best[0] and basis[i] < basis[best[1]]):
                    best = (ratio, i)
        if best is None:
            raise RuntimeError("unbounded LP (impossible for a positive game)")
        r = best[1]
        piv = t[r][col]
        t[r] = [x / piv for x in t[r]]
        for i in range(m):
            if i != r and t[i][col] != 0:
                f = t[i][col]
                t[i] = [x - f * y for x, y in zip(t[i], t[r])]
        f = obj[col]
        obj = [x - f * y for x, y in zip(obj, t[r])]
        basis[r] = col
    total = obj[-1]  # the optimum of sum y
    return 1 / total - shift


def solve(rules, fen):
    root = ref.parse_fen(fen)
    index = {canonical_fen(root): 0}
    positions = [root]
    graph = []  # per position: None (finished: value) or (rows, cols, child ids)
    terminal = []
    k = 0
    while k < len(positions):
        pos = positions[k]
        res = ref.result(pos, rules)
        if res is not None:
            graph.append(None)
            terminal.append(payoff(res))
        else:
            white = ref.legal_moves(pos, ref.WHITE, rules)
            black = ref.legal_moves(pos, ref.BLACK, rules)
            ids = []
            for w in white:
                for b in black:
                    child = ref.play_turn(pos, rules, w, b)
                    key = canonical_fen(child)
                    if key not in index:
                        index[key] = len(positions)
                        positions.append(child)
                    ids.append(index[key])
            graph.append((len(white), len(black), ids))
            terminal.append(None)
        if len(positions) > MAX_STATES:
            raise RuntimeError(f"more than {MAX_STATES} positions from {fen}")
        k += 1
    values = [t if t is not None else HALF for t in terminal]
    sweeps = 0
    converged = False
    while sweeps < MAX_SWEEPS:
        sweeps += 1
        new = list(values)
        for s, g in enumerate(graph):
            if g is None:
                continue
            m, n, ids = g
            a = [[values[ids[i * n + j]] for j in range(n)] for i in range(m)]
            new[s] = solve_game(a)
        changed = new != values
        values = new
        if not changed:
            converged = True
            break
    for key, i in index.items():
        print(f"{key} {float(values[i]):.15f}")
    print(("converged" if converged else "not-converged") + f" {sweeps}")


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        rules, fen = line.split(" ", 1)
        ref.check_rules(rules)
        solve(rules, fen)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
