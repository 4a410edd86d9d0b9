"""A tiny CECP client without python-chess, for the two ways GUIs answer features.

    python3 tests/clients/cecp_client.py target/release/quill silent
    python3 tests/clients/cecp_client.py target/release/quill accepting

``silent`` answers no feature at all, as python-chess does; ``accepting`` answers every
feature with ``accepted NAME`` as soon as it is read, as cutechess-cli and XBoard do. Both must
read ``feature done=1`` within the handshake timeout (XBoard allows 2 s after the last feature
until ``done=1``; here 5 s in all), then get ``pong`` for a ``ping``, a ``setup`` for a
``variant`` and a ``move`` for a ``go``.
"""

import queue
import re
import shlex
import subprocess
import sys
import threading
import time

HANDSHAKE_SECONDS = 5.0
ANSWER_SECONDS = 10.0


class Engine:
    """An engine process with a reader thread, so that every read can time out."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: "queue.Queue[str | None]" = queue.Queue()
        self.dialogue: list = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.dialogue.append(f"> {line}")
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self, deadline: float, waiting_for: str) -> str:
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.fail(f"no line within the time allowed, waiting for {waiting_for}")
        if line is None:
            self.fail(f"end of output, waiting for {waiting_for}")
        self.dialogue.append(f"< {line}")
        if re.match(r"^(Error|Illegal move)\b", line):
            self.fail(f"error answer, waiting for {waiting_for}")
        return line

    def until(self, pattern: str, seconds: float = ANSWER_SECONDS) -> list:
        """Reads lines until one matches ``pattern``; returns them all."""
        deadline = time.monotonic() + seconds
        read = []
        while True:
            line = self.read(deadline, f"a line matching {pattern!r}")
            read.append(line)
            if re.fullmatch(pattern, line):
                return read

    def fail(self, message: str) -> None:
        print("\n".join(self.dialogue[-40:]), file=sys.stderr)
        self.process.kill()
        raise AssertionError(message)


def features(line: str) -> dict:
    """The NAME=VALUE pairs of one ``feature`` line (values may be double-quoted)."""
    pairs = {}
    for word in shlex.split(line[len("feature ") :]):
        name, _, value = word.partition("=")
        pairs[name] = value
    return pairs


def handshake(engine: Engine, accepting: bool) -> dict:
    """Sends ``xboard`` and ``protover 2``, reads features until ``done=1``; returns them."""
    engine.send("xboard")
    engine.send("protover 2")
    deadline = time.monotonic() + HANDSHAKE_SECONDS
    declared: dict = {}
    while True:
        line = engine.read(deadline, "feature done=1")
        if not line.startswith("feature "):
            assert line.startswith("#"), f"not a feature during the handshake: {line!r}"
            continue
        pairs = features(line)
        for name, value in pairs.items():
            if name == "option":
                declared.setdefault("option", []).append(value)
                continue
            declared[name] = value
            if accepting:
                engine.send(f"accepted {name}")
        if pairs.get("done") == "1":
            return declared


def main() -> None:
    command, kind = sys.argv[1], sys.argv[2]
    assert kind in ("silent", "accepting"), kind
    engine = Engine(command)
    declared = handshake(engine, accepting=(kind == "accepting"))
    for name in ("ping", "setboard", "usermove", "myname", "variants"):
        assert name in declared, f"no feature {name}: {declared}"
    variants = declared["variants"].split(",")
    assert {"gladiator", "brawl", "pagan"} <= set(variants), variants

    engine.send("ping 1")
    assert engine.until(r"pong 1") == ["pong 1"], engine.dialogue

    engine.send("new")
    engine.send("variant gladiator")
    engine.send("force")
    engine.send("ping 2")
    printed = engine.until(r"pong 2")
    assert printed[0].startswith("setup (") and " 8x8+0_lion " in printed[0], printed

    # The engine plays White's first turn. A silent client gets it as XBoard's three plies,
    # of which `go` brings the first (the pawn leg); an accepting one (accepted turns) whole.
    engine.send("sd 2")
    engine.send("go")
    move = engine.until(r"move \S+")[-1].split()[1]
    legs = move.split(",")
    assert all(re.fullmatch(r"[a-h][1-8][a-h][1-8]", leg) for leg in legs), move
    assert len(legs) == (1 if kind == "silent" else 2), move
    engine.send("force")
    engine.send("ping 3")
    engine.until(r"pong 3")

    if kind == "accepting":
        # accepted sealed: the sealed variants are offered, and a sealed turn works.
        assert "sealed" in declared and "apocalypse" in variants, declared
        engine.send("new")
        engine.send("variant apocalypse")
        engine.send("force")
        engine.send("sealed white")
        engine.send("go")
        engine.until(r"move [a-e][1-5][a-e][1-5]")
        engine.send("force")
        engine.send("ping 4")
        engine.until(r"pong 4")

    engine.send("quit")
    code = engine.process.wait(timeout=ANSWER_SECONDS)
    assert code == 0, f"exit status {code}"
    print(f"ok cecp_client.py {kind}")


main()
