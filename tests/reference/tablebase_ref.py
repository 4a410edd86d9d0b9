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

With `--strategy-iteration` the values are computed in floating point by value iteration and then
strategy iteration (see solve_strategy_iteration), for families where exact value iteration
converges only geometrically; the last line is then `converged ...` only if the largest residual
is at most 1e-12 and the last strategy-iteration round moved no value by more than 1e-12.

With `--discount` only the root's value is printed: the limit of the discounted values as the
discount vanishes, for roots where play can loop forever (see solve_discount).
"""

import sys
from fractions import Fraction

import apocalypse_ref as ref

HALF = Fraction(1, 2)
MAX_SWEEPS = 500
MAX_STATES = 200_000
# The exit status when a root reaches more than MAX_STATES positions (tablebase_sample.py sets
# such a root aside).
TOO_LARGE = 3


class TooLarge(RuntimeError):
    """A root reaches more positions than MAX_STATES."""


def payoff(res):
    return {"1-0": Fraction(1), "0-1": Fraction(0), "1/2-1/2": HALF}[res]


def canonical_fen(pos):
    p = pos.copy()
    p.quiet, p.turn = 0, 1
    return ref.to_fen(p)


def solve_game(a):
    """Value of the zero-sum game with payoff matrix a (rows maximise), exactly."""
    return solve_game_exact(a)[0]


def solve_game_exact(a):
    """(value, row strategy, column strategy) of the game a (rows maximise), on fractions: any
    numbers the entries are (floats are read exactly), Fractions out."""
    a = [[Fraction(v) for v in row] for row in a]
    m, n = len(a), len(a[0])
    row_min = [min(r) for r in a]
    col_max = [max(a[i][j] for i in range(m)) for j in range(n)]
    best_row = max(range(m), key=lambda i: row_min[i])
    best_col = min(range(n), key=lambda j: col_max[j])
    if row_min[best_row] == col_max[best_col]:
        x = [Fraction(int(i == best_row)) for i in range(m)]
        y = [Fraction(int(j == best_col)) for j in range(n)]
        return row_min[best_row], x, y
    # Shift to positive payoffs; column player's LP: max sum y, A y <= 1, y >= 0.
    low = min(row_min)
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
    y = [Fraction(0)] * n
    for i, b in enumerate(basis):
        if b < n:
            y[b] = t[i][-1] / total
    x = [obj[n + i] / total for i in range(m)]
    return 1 / total - shift, x, y


def expand(pos, rules, key, index, positions):
    """Both sides' legal moves at the unfinished `pos`, and the ids of its children in
    row-major order (White's move by Black's); a child not seen before (by `key`) is appended
    to `positions` and given the next id in `index`."""
    white = ref.legal_moves(pos, ref.WHITE, rules)
    black = ref.legal_moves(pos, ref.BLACK, rules)
    ids = []
    for w in white:
        for b in black:
            child = ref.play_turn(pos, rules, w, b)
            k = key(child)
            if k not in index:
                index[k] = len(positions)
                positions.append(child)
            ids.append(index[k])
    return white, black, ids


def enumerate_from(rules, fen):
    """Every position reachable from FEN: the FEN index, the positions, and per position None
    (finished) or (rows, cols, child ids), with the payoffs of the finished ones."""
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
            white, black, ids = expand(pos, rules, canonical_fen, index, positions)
            graph.append((len(white), len(black), ids))
            terminal.append(None)
        if len(positions) > MAX_STATES:
            raise TooLarge(f"more than {MAX_STATES} positions from {fen}")
        k += 1
    return index, graph, terminal


def solve(rules, fen):
    index, graph, terminal = enumerate_from(rules, fen)
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


# ----------------------------------------------------------------------------------------------
# --strategy-iteration: for positions whose value iteration converges only geometrically (long
# mixed chases), where exact fractions grow without bound.  Floating point throughout:
# 1. Jacobi value iteration from 1/2 until no value moves by more than VI_TOLERANCE;
# 2. rounds of strategy iteration: solve every matrix game at the current values (its
#    equilibrium strategies by the simplex method), fix both strategies, and solve the Markov
#    chain they make exactly: strongly connected components (Kosaraju) from the sinks up, each
#    by sparse elimination; a component never left keeps its values (ties, or endless play);
# 3. the answer is accepted when the residual (largest |T(v) - v|, T re-solving each game) is
#    at most RESIDUAL and the last round moved no value by more than STEADY (its strategies
#    evaluated to the values they were chosen at: strategy iteration's own fixed point).
#
# The residual alone is not enough: where play leaves a part of the graph with a probability
# of about 2e-7 a turn (from P1p1N/4n/5/5/5 w - - 0 1 0/1), values 1.6e-7 off have a residual
# of 4e-14, since an error there shrinks by only that much per turn. Stopping at the residual
# left 303 of those 5,410 values up to 1.6e-7 off; run on until a round changes nothing, they
# agree with Quill's table to its precision (7e-10).
# ----------------------------------------------------------------------------------------------
VI_TOLERANCE = 1e-5
VI_MAX_SWEEPS = 20_000
ROUNDS = 60
RESIDUAL = 1e-12
STEADY = 1e-12
EPS = 1e-12


UNBOUNDED_SLACK = 1e-9
# The smallest pivot: entries of a tableau whose payoffs are 1 to 2 that are smaller than this
# are rounding noise of zeros, and pivoting on them blows the tableau up.
PIVOT_EPS = 1e-9
# A float answer whose bracket is wider than this (times the payoff range) is solved again on
# fractions.
BRACKET = 1e-12


def pivot_row(t, basis, col, m):
    """(ratio, row) of the ratio test on column col, ties to the lowest basic variable."""
    best = None
    for i in range(m):
        if t[i][col] > PIVOT_EPS:
            ratio = t[i][-1] / t[i][col]
            if best is None or ratio < best[0] - EPS or (
                abs(ratio - best[0]) <= EPS and basis[i] < basis[best[1]]
            ):
                best = (ratio, i)
    return best


def solve_game_float(a):
    """(value, row strategy, column strategy) of the zero-sum game a (rows maximise)."""
    m, n = len(a), len(a[0])
    row_min = [min(r) for r in a]
    col_max = [max(a[i][j] for i in range(m)) for j in range(n)]
    best_row = max(range(m), key=lambda i: row_min[i])
    best_col = min(range(n), key=lambda j: col_max[j])
    if row_min[best_row] >= col_max[best_col]:
        x = [0.0] * m
        y = [0.0] * n
        x[best_row] = 1.0
        y[best_col] = 1.0
        return row_min[best_row], x, y
    low = min(row_min)
    shift = 1.0 - low
    width = n + m + 1
    t = []
    for i in range(m):
        row = [a[i][j] + shift for j in range(n)] + [0.0] * m + [1.0]
        row[n + i] = 1.0
        t.append(row)
    obj = [-1.0] * n + [0.0] * (m + 1)
    basis = [n + i for i in range(m)]
    for _ in range(10_000):
        # Bland's rule: the first improving column that has a pivot. A column that improves
        # by rounding only (reduced cost within UNBOUNDED_SLACK of 0) and has no positive
        # entry is rounding noise, not an unbounded ray: it is skipped.
        col, best = None, None
        for j in range(width - 1):
            if obj[j] >= -EPS:
                continue
            best = pivot_row(t, basis, j, m)
            if best is not None:
                col = j
                break
            if obj[j] < -UNBOUNDED_SLACK:
                # A positive game's LP is bounded, so an improving column without a pivot is
                # the tableau's rounding, larger than the slack allows: solve on fractions.
                return solve_game_exact_float(a)
        if col is None:
            break
        r = best[1]
        piv = t[r][col]
        t[r] = [v / piv for v in t[r]]
        for i in range(m):
            if i != r and t[i][col] != 0.0:
                f = t[i][col]
                t[i] = [v - f * w for v, w in zip(t[i], t[r])]
        f = obj[col]
        obj = [v - f * w for v, w in zip(obj, t[r])]
        basis[r] = col
    else:
        return solve_game_exact_float(a)
    total = obj[-1]
    y = [0.0] * n
    for i, b in enumerate(basis):
        if b < n:
            y[b] = max(t[i][-1], 0.0) / total
    x = [max(obj[n + i], 0.0) / total for i in range(m)]
    sx, sy = sum(x), sum(y)
    x, y = [v / sx for v in x], [v / sy for v in y]
    # Floating point can stop the simplex at a basis that is not optimal when payoffs nearly
    # tie: check the answer's bracket (what x earns against every column, what y concedes to
    # every row) and solve such a game again on fractions.
    earned = min(sum(x[i] * a[i][j] for i in range(m)) for j in range(n))
    conceded = max(sum(a[i][j] * y[j] for j in range(n)) for i in range(m))
    if conceded - earned > BRACKET * (max(col_max) - low) + 1e-15:
        return solve_game_exact_float(a)
    return 1.0 / total - shift, x, y


def solve_game_exact_float(a):
    """solve_game_exact's answer as floats: where the float simplex cannot be trusted."""
    value, x, y = solve_game_exact(a)
    return float(value), [float(v) for v in x], [float(v) for v in y]


def bellman(graph, values):
    """Per position the game's (value, x, y) at `values` (None for finished ones)."""
    out = []
    for g in graph:
        if g is None:
            out.append(None)
            continue
        m, n, ids = g
        out.append(solve_game_float([[values[ids[i * n + j]] for j in range(n)] for i in range(m)]))
    return out


def components(succ):
    """Strongly connected components of the graph succ (lists of successors), sinks first."""
    n = len(succ)
    pred = [[] for _ in range(n)]
    for v in range(n):
        for w in succ[v]:
            pred[w].append(v)
    # Kosaraju: finishing order on the reversed graph, then components on the graph itself in
    # decreasing finishing order; each is found after every component it leads to.
    seen = [False] * n
    order = []
    for s in range(n):
        if seen[s]:
            continue
        seen[s] = True
        stack = [(s, iter(pred[s]))]
        while stack:
            v, it = stack[-1]
            w = next(it, None)
            if w is None:
                stack.pop()
                order.append(v)
            elif not seen[w]:
                seen[w] = True
                stack.append((w, iter(pred[w])))
    comp = [-1] * n
    comps = []
    for s in reversed(order):
        if comp[s] != -1:
            continue
        members = [s]
        comp[s] = len(comps)
        k = 0
        while k < len(members):
            for w in succ[members[k]]:
                if comp[w] == -1:
                    comp[w] = len(comps)
                    members.append(w)
            k += 1
        comps.append(members)
    return comps


def evaluate_chain(graph, terminal, games, current, discount=0.0):
    """Values of the Markov chain of the strategies in `games` (finished positions fixed); with
    a discount, each turn ends the game as a draw with that probability."""
    n = len(graph)
    trans = [dict() for _ in range(n)]
    for s, g in enumerate(graph):
        if g is None:
            continue
        m, k, ids = g
        _, x, y = games[s]
        for i in range(m):
            if x[i] <= 0.0:
                continue
            for j in range(k):
                if y[j] > 0.0:
                    c = ids[i * k + j]
                    trans[s][c] = trans[s].get(c, 0.0) + (1.0 - discount) * x[i] * y[j]
    succ = [list(t) for t in trans]
    values = [float(t) if t is not None else None for t in terminal]
    for members in components(succ):
        if all(values[v] is not None for v in members):
            continue  # finished positions
        inside = set(members)
        # Row v: x_v = rhs[v] + sum row[v][w] x_w over w inside the component.
        row = {}
        rhs = {}
        leave = 0.0
        for v in members:
            row[v] = {}
            rhs[v] = discount / 2
            leave += discount
            for w, p in trans[v].items():
                if w in inside:
                    row[v][w] = row[v].get(w, 0.0) + p
                else:
                    rhs[v] += p * values[w]
                    leave += p
        # The probability of leaving is summed from the moves that leave, not taken as 1 minus
        # the moves that stay: over thousands of positions the rounding of 1 - stay adds up to
        # more than the threshold, and a closed component then went to the elimination, which
        # met a pivot of zero ("a component left with probability 0 from within").
        if leave <= 1e-13:
            for v in members:
                values[v] = current[v]
            continue
        # Sparse elimination: each variable in turn is solved from its own row (its self-loop
        # divided out) and substituted into every row that still names it; then the rows are
        # read back in reverse order.
        users = {v: set() for v in members}
        for v in members:
            for w in row[v]:
                users[w].add(v)
        order = []
        for v in members:
            r = row[v]
            loop = r.pop(v, 0.0)
            users[v].discard(v)
            if loop >= 1.0 - 1e-15:
                # Once the variables before it are substituted, v is left with probability
                # 0 (to rounding): part of the component that play (nearly) never leaves,
                # which keeps its value, as a closed component does.
                r.clear()
                rhs[v] = current[v]
            else:
                scale = 1.0 / (1.0 - loop)
                for w in r:
                    r[w] *= scale
                rhs[v] *= scale
            for u in list(users[v]):
                ru = row[u]
                f = ru.pop(v)
                rhs[u] += f * rhs[v]
                for w, c in r.items():
                    if w not in ru:
                        users[w].add(u)
                    ru[w] = ru.get(w, 0.0) + f * c
            users[v].clear()
            order.append(v)
        for v in reversed(order):
            x = rhs[v] + sum(c * values[w] for w, c in row[v].items())
            values[v] = min(max(x, 0.0), 1.0)
    return values


def solve_strategy_iteration(rules, fen):
    index, graph, terminal = enumerate_from(rules, fen)
    values = [float(t) if t is not None else 0.5 for t in terminal]
    sweeps = 0
    while sweeps < VI_MAX_SWEEPS:
        sweeps += 1
        games = bellman(graph, values)
        change = 0.0
        for s, g in enumerate(games):
            if g is not None:
                change = max(change, abs(g[0] - values[s]))
                values[s] = g[0]
        if change <= VI_TOLERANCE:
            break
    games = bellman(graph, values)
    residual = max((abs(g[0] - values[s]) for s, g in enumerate(games) if g), default=0.0)
    rounds = 0
    moved = float("inf")
    while (residual > RESIDUAL or moved > STEADY) and rounds < ROUNDS:
        rounds += 1
        new = evaluate_chain(graph, terminal, games, values)
        moved = max(abs(a - b) for a, b in zip(new, values))
        values = new
        games = bellman(graph, values)
        residual = max((abs(g[0] - values[s]) for s, g in enumerate(games) if g), default=0.0)
    for key, i in index.items():
        print(f"{key} {values[i]:.15f}")
    status = "converged" if residual <= RESIDUAL and moved <= STEADY else "not-converged"
    print(f"{status} {sweeps} sweeps {rounds} rounds residual {residual:.1e} states {len(graph)}")


# ----------------------------------------------------------------------------------------------
# --discount: the value where play may loop forever (a closed loop of pure strategies at a tie,
# or play whose turn-capped values alternate with the cap's parity) is the limit of the
# discounted values as the discount vanishes (each turn ends the game as a draw with
# probability L). Per L in (DISCOUNT, 2 DISCOUNT, 4 DISCOUNT): DISCOUNT_SWEEPS Jacobi sweeps of
# the discounted game, then discounted strategy iteration until a
# round moves no value by more than 1e-14; the three are extrapolated to L = 0 (Richardson,
# exact for values quadratic in L). Prints only the root's line, then `converged`: values
# that go as the square root of L (slow double roots at 0 and 1) are not extrapolated right.
# ----------------------------------------------------------------------------------------------
DISCOUNT = 1e-3
# Value-iteration sweeps before the rounds (the rounds converge from anywhere near).
DISCOUNT_SWEEPS = 50


def discounted(graph, terminal, discount):
    values = [float(t) if t is not None else 0.5 for t in terminal]

    def step(values):
        games = bellman(graph, values)
        for s, g in enumerate(games):
            if g is not None:
                games[s] = (discount / 2 + (1 - discount) * g[0], g[1], g[2])
        return games

    for _ in range(DISCOUNT_SWEEPS):
        games = step(values)
        for s, g in enumerate(games):
            if g is not None:
                values[s] = g[0]
    for _ in range(ROUNDS):
        games = step(values)
        new = evaluate_chain(graph, terminal, games, values, discount)
        moved = max(abs(a - b) for a, b in zip(new, values))
        values = new
        if moved <= 1e-14:
            break
    return values, moved


def solve_discount(rules, fen):
    index, graph, terminal = enumerate_from(rules, fen)
    runs = [discounted(graph, terminal, k * DISCOUNT) for k in (1, 2, 4)]
    (h, _), (h2, _), (h4, _) = runs
    root = (8 * h[0] - 6 * h2[0] + h4[0]) / 3
    print(f"{canonical_fen(ref.parse_fen(fen))} {root:.15f}")
    moved = max(m for _, m in runs)
    status = "converged" if moved <= 1e-14 else "not-converged"
    print(f"{status} states {len(graph)} last round moved {moved:.1e}")


def main():
    args = sys.argv[1:]
    if "--discount" in args:
        method = solve_discount
    elif "--strategy-iteration" in args:
        method = solve_strategy_iteration
    else:
        method = solve
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        rules, fen = line.split(" ", 1)
        ref.check_rules(rules)
        try:
            method(rules, fen)
        except TooLarge as e:
            sys.stdout.flush()
            print(e, file=sys.stderr)
            sys.exit(TOO_LARGE)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
