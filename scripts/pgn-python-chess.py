#!/usr/bin/env python3
"""Reads a PGN file that `quill match` wrote with python-chess, as a standard reader would.

    pip install chess==1.11.2
    scripts/pgn-python-chess.py games.pgn

For each game it prints the tags python-chess read, the errors it collected, and the turns it
found: with Quill's movetext (protocol-docs/pgn.md) each turn is a comment that follows its move
number, so python-chess hands them over as the game's comment text. It exits 1 when a game was
lost (fewer games read than `[Event ` lines in the file) or a game's result was not read.
"""
import logging
import re
import sys

import chess.pgn

MOVE = r"(?:[a-z]\d+[a-z]\d+[wag]?|0000)"
TURN = re.compile(rf"^{MOVE}(?:[,|]{MOVE})*$")


def main(path):
    logging.disable(logging.CRITICAL)  # python-chess logs each error it collects
    with open(path, encoding="utf-8") as f:
        expected = sum(1 for line in f if line.startswith("[Event "))
    read = 0
    bad = False
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            read += 1
            h = game.headers
            turns = [w for w in game.comment.split(" ") if TURN.match(w)]
            print(
                f"round {h.get('Round')} {h.get('Variant')}: result {h.get('Result')}, "
                f"{len(h)} tags, PlyCount {h.get('PlyCount')}, {len(turns)} turns in comments, "
                f"{len(list(game.mainline_moves()))} chess moves"
            )
            for e in game.errors:
                print(f"    error: {str(e)[:100]}")
            if h.get("Result") not in ("1-0", "0-1", "1/2-1/2"):
                bad = True
    print(f"{read} of {expected} games read")
    return 1 if bad or read != expected else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
