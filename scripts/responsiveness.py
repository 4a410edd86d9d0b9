#!/usr/bin/env python3
"""Measures how fast Quill answers isready/ping, stop/?, and quit during searches and perft,
and while a sealed search waits for a built-in tablebase to load (each engine new, so the
table is loading when the command is sent 20 ms after `go`).

Usage: scripts/responsiveness.py [QUILL] [ROUNDS]. Prints the worst and median latency per
command and situation, in milliseconds (wall clock; run it on a quiet machine and read the
figures, never use them as a pass/fail test).
"""
import queue
import statistics
import subprocess
import sys
import threading
import time

QUILL = sys.argv[1] if len(sys.argv) > 1 else "target/release/quill"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3


def engine():
    p = subprocess.Popen([QUILL], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.lines = queue.Queue()

    def drain():
        for line in p.stdout:
            p.lines.put(line)
        p.lines.put(None)

    threading.Thread(target=drain, daemon=True).start()
    return p


def send(p, line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def wait_for(p, prefix):
    t0 = time.perf_counter()
    while True:
        line = p.lines.get(timeout=30)
        if line is None:
            raise SystemExit(f"engine closed while waiting for {prefix}")
        if line.startswith(prefix):
            return (time.perf_counter() - t0) * 1000


UCI = [
    ("apocalypse", "position startpos", "go sealed w infinite"),
    ("gladiator", "position startpos", "go infinite"),
    ("brawl", "position startpos", "go infinite"),
    ("pagan", "position startpos", "go infinite"),
    ("apocalypse", "position startpos", "go perft 32"),
    ("gladiator", "position startpos", "go perft 32"),
    ("pagan", "position startpos", "go perft 32"),
]

# A 5-piece root: the search waits for the 5-piece table (about half a second to load).
LOADING = ("apocalypse-classic", "position fen 4n/5/p2P1/2P2/1N3 w - - 0 1 0/0", "go sealed w infinite")


def searching(variant, position, go, wait):
    """A new engine that has been running `go` for `wait` seconds."""
    p = engine()
    send(p, "uci"); wait_for(p, "uciok")
    send(p, f"setoption name UCI_Variant value {variant}")
    send(p, position)
    send(p, go)
    time.sleep(wait)
    return p


results = {}
for variant, position, go in UCI:
    for _ in range(ROUNDS):
        p = searching(variant, position, go, 1.0)
        while not p.lines.empty():
            p.lines.get()
        send(p, "isready"); results.setdefault((variant, go, "isready"), []).append(wait_for(p, "readyok"))
        send(p, "stop")
        stop_prefix = "info string perft stopped" if "perft" in go else "bestmove"
        results.setdefault((variant, go, "stop"), []).append(wait_for(p, stop_prefix))
        send(p, go)
        time.sleep(0.5)
        t0 = time.perf_counter()
        send(p, "quit")
        p.wait(timeout=10)
        results.setdefault((variant, go, "quit"), []).append((time.perf_counter() - t0) * 1000)

for cmd, answer in [("isready", "readyok"), ("stop", "bestmove"), ("quit", None)]:
    variant, position, go = LOADING
    key = (variant, go + " (table loading)", cmd)
    for _ in range(ROUNDS):
        p = searching(variant, position, go, 0.02)
        t0 = time.perf_counter()
        send(p, cmd)
        if answer:
            results.setdefault(key, []).append(wait_for(p, answer))
            send(p, "quit")
            p.wait(timeout=10)
        else:
            p.wait(timeout=10)
            results.setdefault(key, []).append((time.perf_counter() - t0) * 1000)

for (variant, go, cmd), ms in results.items():
    print(f"{variant:18} {go:38} {cmd:8} median {statistics.median(ms):7.2f} ms  worst {max(ms):7.2f} ms")
