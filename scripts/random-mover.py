#!/usr/bin/env python3
"""A UCI engine that plays a uniformly random legal move, for `quill match` seats.

It runs a Quill child process for the rules: every command is passed to the child, except
`go ...`, which becomes `go perft 1`; the engine answers `bestmove M` with one of the listed
moves, chosen uniformly by a generator seeded with `--seed`. Alternating variants only (a
sealed `go sealed` is refused with an `info string`).

    quill match --variant pagan --engine "cmd=target/release/quill" \
        --engine "cmd='python3 scripts/random-mover.py --quill target/release/quill --seed 7' name=random" \
        --each nodes=20000
"""

import argparse
import random
import re
import subprocess
import sys
import threading

MOVE = re.compile(r"^(\S+): \d+$")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quill", default="target/release/quill", help="the Quill binary")
    parser.add_argument("--seed", type=int, default=1, help="seed of the move choices")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    child = subprocess.Popen(
        [args.quill],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    lock = threading.Lock()
    state = {"collecting": False, "moves": []}

    def out(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def reader() -> None:
        assert child.stdout is not None
        for raw in child.stdout:
            line = raw.rstrip("\n")
            with lock:
                if not state["collecting"]:
                    if line.startswith("id name"):
                        line = "id name random-mover"
                    out(line)
                    continue
                m = MOVE.match(line)
                if m:
                    state["moves"].append(m.group(1))
                elif line.startswith("Nodes searched"):
                    state["collecting"] = False
                    moves = state["moves"]
                    out("bestmove " + (rng.choice(moves) if moves else "0000"))

    threading.Thread(target=reader, daemon=True).start()

    def send(line: str) -> None:
        assert child.stdin is not None
        child.stdin.write(line + "\n")
        child.stdin.flush()

    for raw in sys.stdin:
        line = raw.strip()
        if line.startswith("go"):
            if line.split()[1:2] == ["sealed"]:
                out("info string random-mover plays alternating variants only")
                continue
            with lock:
                state["collecting"] = True
                state["moves"] = []
            send("go perft 1")
        elif line == "stop":
            continue
        else:
            send(line)
            if line == "quit":
                break
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
