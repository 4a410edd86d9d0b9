#!/usr/bin/env python3
"""Independent exact values of Apocalypse endgames, with their root matrices (Python 3.11,
standard library only).

Reads lines `RULES FEN` on standard input (RULES is `apocalypse` or `apocalypse-classic`).  For
each, every position reachable from FEN (joint turns of legal moves, a forced pass counting as a
move, as in perft) is enumerated with the independent rules of apocalypse_ref.py and solved to
the game's end by value iteration (Shapley): every unfinished position starts at 1/2 and, sweep
after sweep (Jacobi: each sweep reads only the previous sweep's values), is replaced by the value
of its one-turn matrix game over its children's values, until no value moves by more than 1e-13.
Play that never ends is worth 1/2.  The matrix games are solved in floating point by this file's
own simplex method (saddle point first, Bland's rule); payoffs are for White: 1 a White win, 0 a
Black win, 1/2 a draw.

Writes one block per position, the format of fixtures/endgames/*.endgame:

    fen FEN                      the root (penalty points included)
    rules RULES
    positions N                  reachable positions solved
    sweeps S residual R          sweeps done, largest change in the last one
    value V                      the root's value for White
    white M1 M2 ...              White's legal moves (rows)
    black M1 M2 ...              Black's legal moves (columns)
    row V11 V12 ...              one line per White move: the value of each joint child
    end
"""

import sys

import apocalypse_ref as ref
from tablebase_ref import expand, solve_game_float

MAX_STATES = 400_000
MAX_SWEEPS = 5_000
TOLERANCE = 1e-13
EPS = 1e-12


def payoff(res):
    return {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[res]


def key(pos):
    """Everything the value depends on: the board and the penalty points (the quiet-turn count
    and turn number are read by no rule)."""
    return (tuple(sorted(pos.board.items())), pos.penalties[ref.WHITE], pos.penalties[ref.BLACK])


def game_value(a):
    """The value of the zero-sum game with payoff matrix a (rows maximise), floats: the float
    simplex of tablebase_ref.py (one reference solver for both scripts, none of it Quill's),
    clamped to the pure maximin and minimax against rounding."""
    maximin = max(min(row) for row in a)
    minimax = min(max(row[j] for row in a) for j in range(len(a[0])))
    if minimax - maximin <= EPS:
        return maximin
    value, _, _ = solve_game_float(a)
    return min(max(value, maximin), minimax)


def solve(rules, fen):
    root = ref.parse_fen(fen)
    if ref.result(root, rules) is not None:
        raise RuntimeError(f"the game is over at {fen}")
    index = {key(root): 0}
    positions = [root]
    graph = []  # per position: None (finished) or (rows, cols, child ids)
    values = []
    moves = []
    k = 0
    while k < len(positions):
        pos = positions[k]
        res = ref.result(pos, rules)
        if res is not None:
            graph.append(None)
            values.append(payoff(res))
            moves.append(None)
        else:
            white, black, ids = expand(pos, rules, key, index, positions)
            graph.append((len(white), len(black), ids))
            values.append(0.5)
            moves.append((white, black))
        if len(positions) > MAX_STATES:
            raise RuntimeError(f"more than {MAX_STATES} positions from {fen}")
        k += 1
    parents = [[] for _ in positions]
    for s, g in enumerate(graph):
        if g is not None:
            for c in set(g[2]):
                parents[c].append(s)
    dirty = {s for s, g in enumerate(graph) if g is not None}
    sweeps, change = 0, 0.0
    while dirty and sweeps < MAX_SWEEPS:
        sweeps += 1
        new = {}
        for s in dirty:
            m, n, ids = graph[s]
            a = [[values[ids[i * n + j]] for j in range(n)] for i in range(m)]
            new[s] = game_value(a)
        change = max(abs(v - values[s]) for s, v in new.items())
        moved = [s for s, v in new.items() if abs(v - values[s]) > TOLERANCE]
        for s, v in new.items():
            values[s] = v
        if change <= TOLERANCE:
            break
        dirty = {p for s in moved for p in parents[s]}
    m, n, ids = graph[0]
    white, black = moves[0]
    print(f"fen {fen}")
    print(f"rules {rules}")
    print(f"positions {len(positions)}")
    print(f"sweeps {sweeps} residual {change:.3e}")
    print(f"value {values[0]:.15f}")
    print("white " + " ".join(white))
    print("black " + " ".join(black))
    for i in range(m):
        print("row " + " ".join(f"{values[ids[i * n + j]]:.15f}" for j in range(n)))
    print("end")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        rules, fen = line.split(" ", 1)
        ref.check_rules(rules)
        solve(rules, fen)


if __name__ == "__main__":
    main()
