#!/usr/bin/env python3
"""Checks a built table file against tablebase_ref.py on a random sample (standard library only).

    tablebase_sample.py QUILL TABLE RULES PIECES [--seed S] [--roots N] [--signature WFWHBFBH]

Draws N random unfinished positions of exactly PIECES pieces (or of one signature), solves every
position reachable from each with tablebase_ref.py's strategy iteration (its own rules, simplex
and components; a root that reaches more positions than the reference's cap is named and set
aside, up to 4N of them), asks `QUILL tablebase probe TABLE` for the same positions, and prints
the number compared, the largest difference and the positions above 1e-8; exits 1 if any
differs by more than 1e-8, a position is missing, or no root could be compared.
"""

import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import apocalypse_ref as ref  # noqa: E402
import tablebase_ref as ref_solver  # noqa: E402

CHUNK = 1500


def random_position(rng, sig):
    """A FEN with the pieces of signature (wf, wh, bf, bh) on random squares, penalties random."""
    wf, wh, bf, bh = sig
    squares = rng.sample(range(25), wf + wh + bf + bh)
    board = [["."] * 5 for _ in range(5)]
    for n, letter in zip((wf, wh, bf, bh), "PNpn"):
        for _ in range(n):
            sq = squares.pop()
            board[4 - sq // 5][sq % 5] = letter
    rows = []
    for r in board:
        text, empty = "", 0
        for c in r:
            if c == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + c
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows) + f" w - - 0 1 {rng.randrange(2)}/{rng.randrange(2)}"


def signatures(pieces):
    out = []
    for wf in range(1, pieces):
        for bf in range(1, pieces):
            for wh in range(pieces):
                bh = pieces - wf - bf - wh
                if bh >= 0:
                    out.append((wf, wh, bf, bh))
    return out


def probe(quill, table, fens):
    values = {}
    for i in range(0, len(fens), CHUNK):
        out = subprocess.run(
            [quill, "tablebase", "probe", table, *fens[i : i + CHUNK]],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for fen, line in zip(fens[i : i + CHUNK], out.splitlines()):
            if "value" in line:
                values[fen] = float(line.split("value ")[1].split(";")[0])
    return values


def main():
    args = sys.argv[1:]
    opt = {}
    while len(args) > 4:
        opt[args[-2]] = args[-1]
        args = args[:-2]
    quill, table, rules, pieces = args[0], args[1], args[2], int(args[3])
    rng = random.Random(int(opt.get("--seed", "1")))
    roots = int(opt.get("--roots", "4"))
    sigs = signatures(pieces)
    if "--signature" in opt:
        sigs = [tuple(int(c) for c in opt["--signature"])]
    requests, skipped, expected = [], [], {}
    while len(requests) < roots and len(skipped) < 4 * roots:
        fen = random_position(rng, rng.choice(sigs))
        pos = ref.parse_fen(fen)
        if ref.result(pos, rules) is not None:
            continue
        # One root at a time: a root whose reachable graph is beyond the reference's size cap
        # is set aside (and named), not a failure of the table.
        solver = subprocess.run(
            [sys.executable, str(HERE / "tablebase_ref.py"), "--strategy-iteration"],
            input=f"{rules} {fen}\n",
            capture_output=True,
            text=True,
        )
        if solver.returncode == ref_solver.TOO_LARGE:
            skipped.append(fen)
            continue
        if solver.returncode != 0:
            sys.exit(f"tablebase_ref.py failed on {fen}:\n{solver.stderr}")
        requests.append(fen)
        for line in solver.stdout.splitlines():
            if line.startswith(("converged", "not-converged")):
                print(f"{fen}: {line}", flush=True)
                if not line.startswith("converged"):
                    sys.exit(1)
                continue
            at, value = line.rsplit(" ", 1)
            expected[at] = float(value)
    if skipped:
        print(f"skipped (beyond the reference's size cap) {' | '.join(skipped)}")
    if not requests:
        sys.exit("no root could be compared: every one drawn was beyond the reference's cap")
    got = probe(quill, table, list(expected))
    missing = [f for f in expected if f not in got]
    off = sorted(((abs(got[f] - v), f) for f, v in expected.items() if f in got), reverse=True)
    worst = off[0][0] if off else 0.0
    print(f"roots {' | '.join(requests)}")
    print(f"compared {len(got)} positions, missing {len(missing)}, largest difference {worst:.2e}")
    above = [(d, f) for d, f in off if d > 1e-8]
    if above:
        print(f"{len(above)} positions differ by more than 1e-8; the largest:")
        for d, f in above[:5]:
            print(f"  {f}: reference {expected[f]:.12f}, table {got[f]:.12f} ({d:.2e})")
    sys.exit(0 if not missing and not above else 1)


if __name__ == "__main__":
    main()
