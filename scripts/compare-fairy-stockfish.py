#!/usr/bin/env python3
"""Quill beside Fairy-Stockfish 11.1 (Debian's `fairy-stockfish`), like with like, by CPU time.

What is compared (and printed with every table):

1. Move generation: bulk perft. Fairy-Stockfish's `go perft N` on chess and on 5x5 Gardner
   (`UCI_Variant gardner`), Quill's `quill perft N` on each of its variants. Both count leaves
   without playing the last turn (bulk counting). The CPU time is the child's user+system time
   (from wait4's rusage, microsecond resolution) minus the median CPU time of a bare start-up
   of that engine. Two figures divide it:
   - per *generated move at the last ply*, the like-with-like one: what the move generator
     lists at the last ply. For Fairy-Stockfish that is the leaf count (bulk perft counts the
     legal move list's length). For Quill it is counted by `examples/perft_generated.rs`
     (built by `cargo build --release --examples`): in Apocalypse the last ply generates
     White's and Black's move lists and counts their *product* as leaves, so the generated
     moves are the *sum*; in Gladiator, Brawl and Pagan the last ply visits every turn one by
     one, so generated moves and leaves are the same;
   - per leaf, as `quill perft` counts them (in Apocalypse a leaf is a pair of moves).
   The games differ, so the ratio says how costly one generated move is, not which engine is
   faster at one game.
2. Search: nodes per CPU-second at a fixed depth from the start position (`go depth N`, or
   `go sealed w depth N` for Apocalypse), each engine using its own node definition.
3. Start-up: from spawn to `uciok` and then `readyok` (wall ms, median) and the peak resident
   memory of that process (KiB, median).

All runs are interleaved (round r runs every case once, in turn), so that load on the shared
machine falls on both engines alike; figures are medians over the rounds, with min..max.

    scripts/compare-fairy-stockfish.py [--quill target/release/quill] [--rounds 5]
        [--generated target/release/examples/perft_generated]

Installs nothing: run `apt-get install -y fairy-stockfish` and `cargo build --release --bins
--examples` first. Measures; asserts nothing.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

FSF = "/usr/games/fairy-stockfish"

# (label, engine, variant or None, perft depth). Depths are chosen to cost 0.05-1 CPU-s.
PERFT = [
    ("fsf chess", "fsf", None, 5),
    ("fsf gardner (5x5)", "fsf", "gardner", 6),
    ("quill apocalypse", "quill", "apocalypse", 4),
    ("quill apocalypse-classic", "quill", "apocalypse-classic", 4),
    ("quill gladiator", "quill", "gladiator", 2),
    ("quill brawl", "quill", "brawl", 2),
    ("quill pagan", "quill", "pagan", 6),
]

# (label, engine, variant or None, search depth).
SEARCH = [
    ("fsf chess", "fsf", None, 12),
    ("fsf gardner (5x5)", "fsf", "gardner", 14),
    ("quill apocalypse", "quill", "apocalypse", 4),
    ("quill gladiator", "quill", "gladiator", 7),
    ("quill brawl", "quill", "brawl", 6),
    ("quill pagan", "quill", "pagan", 8),
]


def run(argv, script, until=None):
    """Runs argv with `script` lines on stdin; returns (output lines, CPU s, peak KiB, wall s
    to the first line starting with each of `until`)."""
    start = time.monotonic()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    marks = {}
    lines = []
    if until is None:
        p.stdin.write("".join(s + "\n" for s in script))
        p.stdin.close()
        lines = p.stdout.read().splitlines()
    else:
        # Send the script line by line, the next one after its awaited answer.
        for send, wait in script:
            p.stdin.write(send + "\n")
            p.stdin.flush()
            if wait is None:
                continue
            for line in p.stdout:
                lines.append(line.rstrip("\n"))
                if line.startswith(wait):
                    marks[wait] = time.monotonic() - start
                    break
        p.stdin.close()
        lines += p.stdout.read().splitlines()
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"{argv[0]} failed (status {status})")
    return lines, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, marks


def uci_setup(engine, variant):
    lines = ["uci"]
    if variant is not None:
        lines.append(f"setoption name UCI_Variant value {variant}")
    return lines


def fsf_perft(variant, depth):
    script = uci_setup("fsf", variant) + ["position startpos", f"go perft {depth}", "quit"]
    out, cpu, _, _ = run([FSF], script)
    return leaves(out), cpu


def quill_perft(quill, variant, depth):
    out, cpu, _, _ = run([quill, "perft", "--variant", variant, str(depth)], [])
    return leaves(out), cpu


def quill_generated(tool, variant, depth):
    """The moves Quill's bulk perft generates at its last ply (see the module text)."""
    out = subprocess.run([tool, variant, str(depth)], capture_output=True, text=True,
                         check=True).stdout.split()
    if out[:1] != ["leaves"] or out[2:3] != ["generated"]:
        sys.exit(f"{tool}: unexpected output {out!r}")
    return int(out[1]), int(out[3])


def leaves(out):
    for line in out:
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    sys.exit("no 'Nodes searched' line in the perft output")


def search(argv, variant, depth, sealed):
    go = f"go sealed w depth {depth}" if sealed else f"go depth {depth}"
    script = [(s, None) for s in uci_setup(None, variant)]
    script += [("isready", "readyok"), ("position startpos", None), (go, "bestmove"),
               ("quit", None)]
    out, cpu, _, _ = run(argv, script, until=True)
    nodes = None
    for line in out:
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words:
            nodes = int(words[words.index("nodes") + 1])
    if nodes is None:
        sys.exit(f"{argv[0]}: no 'info ... nodes' line")
    return nodes, cpu


def startup(argv):
    _, cpu, kib, marks = run(argv, [("uci", "uciok"), ("isready", "readyok"), ("quit", None)],
                             until=True)
    return marks["readyok"] * 1000.0, cpu, kib


def med(v):
    return statistics.median(v)


def span(v, fmt):
    return f"{fmt.format(med(v))} ({fmt.format(min(v))}..{fmt.format(max(v))})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quill", default="target/release/quill")
    ap.add_argument("--generated", default="target/release/examples/perft_generated")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--startups", type=int, default=21)
    ap.add_argument("--no-search", action="store_true", help="skip the search comparison")
    args = ap.parse_args()
    if not (1 <= args.rounds <= 100 and 1 <= args.startups <= 1000):
        sys.exit("--rounds must be 1..100 and --startups 1..1000")
    for path in (FSF, args.quill, args.generated):
        if not os.access(path, os.X_OK):
            sys.exit(f"no executable at {path} (apt-get install -y fairy-stockfish; "
                     "cargo build --release --bins --examples)")
    engines = {"fsf": [FSF], "quill": [args.quill]}

    # Start-up, interleaved; its CPU time is also what a perft run pays before counting.
    st = {k: [] for k in engines}
    for _ in range(args.startups):
        for k, argv in engines.items():
            st[k].append(startup(argv))
    base_cpu = {k: med([c for _, c, _ in v]) for k, v in st.items()}

    # The generated moves of Quill's last ply (counted once: they do not vary), checked
    # against the leaves `quill perft` reports below.
    generated = {}
    for label, engine, variant, depth in PERFT:
        if engine == "quill":
            generated[label] = quill_generated(args.generated, variant, depth)

    # Perft, interleaved.
    per_leaf = {c[0]: [] for c in PERFT}
    per_move = {c[0]: [] for c in PERFT}
    counts = {}
    for _ in range(args.rounds):
        for label, engine, variant, depth in PERFT:
            if engine == "fsf":
                n, cpu = fsf_perft(variant, depth)
            else:
                n, cpu = quill_perft(args.quill, variant, depth)
            counts[label] = n
            if engine == "quill" and generated[label][0] != n:
                sys.exit(f"{label}: quill perft counts {n} leaves, perft_generated "
                         f"{generated[label][0]}: not the same walk")
            moves = generated[label][1] if engine == "quill" else n
            spent = max(cpu - base_cpu[engine], 1e-6) * 1e9
            per_leaf[label].append(spent / n)
            per_move[label].append(spent / moves)

    print("== 1. Move generation: bulk perft from the start position, CPU ns per generated move ==")
    print("(child user+system CPU from rusage, minus the engine's median start-up CPU, divided by")
    print(" the moves generated at the last ply: Fairy-Stockfish's leaves; Quill's counted by")
    print(" perft_generated, in Apocalypse White's plus Black's list, not their product;")
    print(f" median (min..max) of {args.rounds} interleaved rounds; lower is cheaper)")
    print(f"{'case':28} {'depth':>5} {'leaves':>14} {'generated':>12} {'ns/generated move':>22}"
          f" {'ns/leaf':>20}")
    for label, engine, _, depth in PERFT:
        moves = generated[label][1] if engine == "quill" else counts[label]
        print(f"{label:28} {depth:>5} {counts[label]:>14} {moves:>12} "
              f"{span(per_move[label], '{:.2f}'):>22} {span(per_leaf[label], '{:.2f}'):>20}")
    for ref in ("fsf chess", "fsf gardner (5x5)"):
        r = med(per_move[ref])
        ratios = ", ".join(f"{label.split()[1]} {med(per_move[label]) / r:.2f}x"
                           for label, e, _, _ in PERFT if e == "quill")
        print(f"quill cost per generated move / {ref}: {ratios}")
    print("(per generated move compares like with like; per leaf, an Apocalypse leaf is a pair")
    print(" of moves counted as a product, so its cost per leaf looks far lower than it is)")

    if not args.no_search:
        nps = {c[0]: [] for c in SEARCH}
        for _ in range(args.rounds):
            for label, engine, variant, depth in SEARCH:
                n, cpu = search(engines[engine], variant, depth, variant == "apocalypse")
                nps[label].append(n / max(cpu - base_cpu[engine], 1e-6) / 1e6)
        print()
        print("== 2. Search: nodes per CPU-second at a fixed depth from the start position ==")
        print("(each engine's own node definition, different games: a rate of work, not of")
        print(f" strength; median (min..max) of {args.rounds} interleaved rounds)")
        print(f"{'case':28} {'depth':>5} {'M nodes/CPU-s':>24}")
        for label, _, _, depth in SEARCH:
            print(f"{label:28} {depth:>5} {span(nps[label], '{:.2f}'):>24}")

    print()
    print("== 3. Start-up: spawn to uciok + readyok, and peak memory of that process ==")
    print(f"(median (min..max) of {args.startups} interleaved start-ups)")
    print(f"{'engine':28} {'wall ms':>22} {'CPU ms':>22} {'peak KiB':>22}")
    for k in engines:
        ms = [m for m, _, _ in st[k]]
        cpu = [c * 1000 for _, c, _ in st[k]]
        kib = [float(x) for _, _, x in st[k]]
        print(f"{k:28} {span(ms, '{:.1f}'):>22} {span(cpu, '{:.1f}'):>22} "
              f"{span(kib, '{:.0f}'):>22}")
    f_ms, q_ms = (med([m for m, _, _ in st[k]]) for k in ("fsf", "quill"))
    f_kib, q_kib = (med([x for _, _, x in st[k]]) for k in ("fsf", "quill"))
    print(f"quill / fsf: start-up {q_ms / f_ms:.2f}x, peak memory {q_kib / f_kib:.2f}x "
          "(target: at most 0.5x each)")


if __name__ == "__main__":
    main()
