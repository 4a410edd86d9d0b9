#!/usr/bin/env python3
"""Prints random Apocalypse endgame FENs (board part), one a line, for `quill exploit --fen`.

    python3 scripts/random-endgames.py --seed 11 --count 25              # 3-5 pieces, any mix
    python3 scripts/random-endgames.py --seed 21 --count 12 --balanced   # N+P each, maybe a 5th P

Each side has a footman at least, and at most two horsemen. Plain: 3 to 5 pieces, footmen on
ranks 2-4. Balanced: each side a footman and a horseman, and in half of them a fifth footman;
footmen two ranks or more from promotion (White on ranks 2-3, Black on 3-4). The same seed
gives the same list.
"""

import argparse
import random


def fen(board):
    rows = []
    for rank in range(4, -1, -1):
        row, empty = "", 0
        for square in board[rank]:
            if square:
                row += (str(empty) if empty else "") + square
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def place(rng, pieces, balanced):
    board = [[""] * 5 for _ in range(5)]
    for piece in pieces:
        while True:
            if piece in "Nn":
                rank = rng.randrange(5)
            elif balanced:
                rank = rng.randrange(1, 3) if piece == "P" else rng.randrange(2, 4)
            else:
                rank = rng.randrange(1, 4)
            file = rng.randrange(5)
            if not board[rank][file]:
                board[rank][file] = piece
                break
    return fen(board)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--balanced", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = []
    while len(out) < args.count:
        if args.balanced:
            pieces = ["P", "p", "N", "n"] + ([rng.choice("Pp")] if rng.choice([4, 5]) == 5 else [])
        else:
            pieces = ["P", "p"] + [rng.choice("PpNn") for _ in range(rng.choice([3, 4, 4, 5, 5, 5]) - 2)]
            if pieces.count("N") > 2 or pieces.count("n") > 2:
                continue
        out.append(place(rng, pieces, args.balanced))
    print("\n".join(out))


if __name__ == "__main__":
    main()
