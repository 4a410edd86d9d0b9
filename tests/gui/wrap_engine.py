#!/usr/bin/env python3
"""A test-only engine: Quill (UCI) behind a pipe that misbehaves on purpose.

    wrap_engine.py tamper QUILL   # alters the nonce of every opening (`info string reveal M N`)
    wrap_engine.py crash N QUILL  # exits (status 3) when it is asked for its N-th move (`go`)
    wrap_engine.py hold FILE QUILL  # holds back each `bestmove` until FILE exists (30 s at most):
                                    # a test decides how long the engine thinks, whatever the load

Everything else passes through unchanged in both directions."""

import os
import subprocess
import sys
import threading
import time


def main():
    mode = sys.argv[1]
    crash_at = int(sys.argv[2]) if mode == "crash" else 0
    gate = sys.argv[2] if mode == "hold" else None
    quill = sys.argv[3] if mode in ("crash", "hold") else sys.argv[2]
    engine = subprocess.Popen([quill], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def out():
        for line in engine.stdout:
            if mode == "tamper" and line.startswith("info string reveal "):
                words = line.split()
                nonce = words[4]
                flipped = ("1" if nonce[-1] != "1" else "2")
                words[4] = nonce[:-1] + flipped
                line = " ".join(words) + "\n"
            if gate and line.startswith("bestmove"):
                end = time.time() + 30
                while not os.path.exists(gate) and time.time() < end:
                    time.sleep(0.05)
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=out, daemon=True).start()
    goes = 0
    for line in sys.stdin:
        if line.startswith("go"):
            goes += 1
            if mode == "crash" and goes >= crash_at:
                engine.kill()
                sys.exit(3)
        engine.stdin.write(line)
        engine.stdin.flush()
        if line.strip() == "quit":
            break
    engine.wait(2)


if __name__ == "__main__":
    main()
