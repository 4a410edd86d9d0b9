"""Helpers for driving Quill with python-chess's engine protocol objects.

python-chess (``pip install chess==1.11.2``) speaks UCI and XBoard, but its ``chess.Board``
knows none of Quill's games, so its ``play()`` and ``analysis()`` cannot be given a Quill
position. What it does offer is the transport (``popen_uci``/``popen_xboard``: the handshake,
``configure``, ``ping``, ``quit``) and ``Protocol.communicate(command)`` for commands of one's
own: a ``chess.engine.BaseCommand`` subclass that sends lines with ``send_line`` and reads
every engine line in ``line_received`` until it sets its result. The commands below do that for
Quill's positions, searches, analysis and CECP moves, and never hand a Quill move to
``chess.Board``.

Every test script in this folder runs ``main(engine_path)`` under :func:`run`, which fails
(exit status 1) on an assertion, a timeout, or any warning logged by ``chess.engine``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import sys
import traceback
from typing import Callable, List, Optional

import chess.engine

# ---------------------------------------------------------------------------------------------
# Running a test script
# ---------------------------------------------------------------------------------------------


class WarningLog(logging.Handler):
    """Collects every record of WARNING and above logged by python-chess's ``chess.engine``."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: List[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.levelname}: {record.getMessage()}")


def run(main: Callable[[str], "asyncio.Future[None]"], timeout: float = 60.0) -> None:
    """Runs ``main(ENGINE)`` (ENGINE: the first command-line argument) and exits 0 on success.

    Fails when ``main`` raises, when it takes more than ``timeout`` seconds, or when
    ``chess.engine`` logged a warning or an error (python-chess logs engine output it did not
    expect, engine stderr, rejected features and handshake timeouts that way).
    """
    engine = sys.argv[1]
    log = WarningLog()
    logger = logging.getLogger("chess.engine")
    logger.addHandler(log)
    logger.setLevel(logging.WARNING)
    name = sys.argv[0].rsplit("/", 1)[-1]
    try:
        asyncio.run(asyncio.wait_for(main(engine), timeout))
    except asyncio.TimeoutError:
        print(f"FAIL {name}: no end within {timeout:.0f} s", file=sys.stderr)
        report_warnings(log)
        sys.exit(1)
    except Exception:
        traceback.print_exc()
        report_warnings(log)
        sys.exit(1)
    if log.records:
        report_warnings(log)
        print(f"FAIL {name}: python-chess logged warnings", file=sys.stderr)
        sys.exit(1)
    print(f"ok {name}")


async def within(seconds: float, what: str, awaitable):
    """Awaits ``awaitable``; fails with ``what`` if it takes more than ``seconds``."""
    try:
        return await asyncio.wait_for(awaitable, seconds)
    except asyncio.TimeoutError:
        raise AssertionError(f"{what}: no end within {seconds:.0f} s") from None


HANDSHAKE_SECONDS = 10.0


def report_warnings(log: WarningLog) -> None:
    for record in log.records:
        print(f"chess.engine logged {record}", file=sys.stderr)


def exchange(lines: List[str], until: Optional[Callable[[str], bool]]):
    """A command that sends ``lines`` and returns every line read up to the one ``until`` accepts.

    With ``until`` None it returns at once. Use it as
    ``await protocol.communicate(exchange([...], lambda line: line == "readyok"))``.
    """

    class Exchange(chess.engine.BaseCommand[List[str]]):
        def start(self) -> None:
            self.received: List[str] = []
            for line in lines:
                self._engine.send_line(line)
            if until is None:
                self.result.set_result([])
                self.set_finished()

        def line_received(self, line: str) -> None:
            self.received.append(line)
            if until is not None and until(line):
                self.result.set_result(self.received)
                self.set_finished()

    return Exchange


# ---------------------------------------------------------------------------------------------
# UCI
# ---------------------------------------------------------------------------------------------

INFO_INTEGERS = {"depth", "seldepth", "nodes", "time", "nps", "hashfull", "tbhits", "multipv"}
INFO_KEYWORDS = INFO_INTEGERS | {"score", "pv", "string", "currmove", "currmovenumber"}


def parse_info(text: str) -> dict:
    """Parses the words after ``info`` into a dict, keeping moves as text.

    ``score`` becomes a ``chess.engine.Cp`` or ``Mate`` from the engine's point of view, ``pv``
    a list of Quill turns (``c2c7,h1h2``, ``a1b3|e5d3``), ``string`` the rest of the line.
    python-chess's own info parser would hand the pv to ``chess.Board`` and log an error for
    every turn it cannot read.
    """
    words = text.split()
    info: dict = {}
    i = 0
    while i < len(words):
        key = words[i]
        if key == "string":
            info["string"] = " ".join(words[i + 1 :])
            break
        if key in INFO_INTEGERS:
            info[key] = int(words[i + 1])
            i += 2
        elif key == "score":
            kind, value = words[i + 1], int(words[i + 2])
            info["score"] = chess.engine.Cp(value) if kind == "cp" else chess.engine.Mate(value)
            i += 3
            if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                info[words[i]] = True
                i += 1
        elif key == "pv":
            i += 1
            pv = []
            while i < len(words) and words[i] not in INFO_KEYWORDS:
                pv.append(words[i])
                i += 1
            info["pv"] = pv
        else:
            raise AssertionError(f"unknown info field {key!r} in {text!r}")
    return info


def errors_in(lines: List[str]) -> List[str]:
    """The UCI error lines among ``lines``."""
    return [line for line in lines if line.startswith("info string error")]


async def uci_ready(protocol: chess.engine.UciProtocol, lines: List[str]) -> List[str]:
    """Sends ``lines`` and ``isready``; returns what the engine printed before ``readyok``."""
    received = await protocol.communicate(exchange(lines + ["isready"], lambda l: l == "readyok"))
    return received[:-1]


async def uci_set_variant(protocol: chess.engine.UciProtocol, variant: str) -> str:
    """Chooses ``variant`` with ``setoption name UCI_Variant`` and returns its board announcement.

    python-chess manages UCI_Variant itself (``configure`` refuses it) from the class of the
    ``chess.Board`` it is given, so a Quill variant is set with a command of our own.
    """
    printed = await uci_ready(protocol, [f"setoption name UCI_Variant value {variant}"])
    # The announcement, then for a sealed variant `info string sealed NAME`.
    sealed = variant.startswith("apocalypse")
    assert len(printed) == 1 + sealed, f"expected the board announcement, got {printed}"
    announcement = printed[0]
    assert announcement.startswith(f"info string variant {variant} files "), announcement
    if sealed:
        assert printed[1] == f"info string sealed {variant}", printed
    return announcement


class Search:
    """What one ``go`` printed: its info lines (parsed), other lines, and the bestmove token."""

    def __init__(self, lines: List[str]) -> None:
        self.lines = lines
        self.infos = [parse_info(l[len("info ") :]) for l in lines if l.startswith("info ")]
        last = lines[-1].split()
        assert last[0] == "bestmove", lines
        self.bestmove = last[1]
        over = [i["string"] for i in self.infos if i.get("string", "").startswith("game over: ")]
        self.game_over: Optional[str] = over[0][len("game over: ") :] if over else None


async def uci_search(protocol: chess.engine.UciProtocol, position: str, go: str) -> Search:
    """Sends ``position`` and ``go``; returns everything up to and including the ``bestmove``."""
    lines = await protocol.communicate(
        exchange([position, go], lambda l: l.startswith("bestmove"))
    )
    return Search(lines)


def commitment_digest(move: str, nonce: str) -> str:
    """SHA-256 of ``quill-sealed-v1:MOVE:NONCE`` in hex, as protocol-docs/sealed.md lays it out."""
    return hashlib.sha256(f"quill-sealed-v1:{move}:{nonce}".encode("ascii")).hexdigest()


async def uci_committed(
    protocol: chess.engine.UciProtocol, position: str, go: str, opponent: str
) -> str:
    """A sealed move in commit–reveal mode (``SealedCommit`` on): reads up to the commitment,
    checks that nothing before it shows the move (no score, line, strategy or bestmove), passes
    the opponent's move, reads the opening up to ``bestmove`` and checks it against the
    commitment independently. Returns the move.
    """
    sealed = await protocol.communicate(
        exchange([position, go], lambda l: l.startswith("info string commit "))
    )
    digest = sealed[-1].split()[3]
    assert re.fullmatch(r"[0-9a-f]{64}", digest), sealed
    for line in sealed[:-1]:
        info = parse_info(line[len("info ") :]) if line.startswith("info ") else None
        assert info is not None and set(info) <= {"depth", "seldepth", "nodes", "time", "nps"}, (
            f"before the commitment: {line!r}"
        )
    opened = await protocol.communicate(
        exchange([f"opponent {opponent}"], lambda l: l.startswith("bestmove"))
    )
    reveals = [l.split() for l in opened if l.startswith("info string reveal ")]
    assert len(reveals) == 1, opened
    move, nonce = reveals[0][3], reveals[0][4]
    assert commitment_digest(move, nonce) == digest, (digest, opened)
    assert opened[-1] == f"bestmove {move}", opened
    assert not errors_in(opened), opened
    return move


def uci_analysis(position: str, go: str = "go infinite"):
    """A command that starts an analysis of a Quill position and returns python-chess's
    ``AnalysisResult``: iterate it for each info (as :func:`parse_info` dicts), ``stop()`` it,
    ``await wait()`` it. The bestmove token is left in ``result.bestmove``.
    """

    class Analysis(chess.engine.BaseCommand[chess.engine.AnalysisResult]):
        def start(self) -> None:
            self.analysis = chess.engine.AnalysisResult(stop=lambda: self.cancel())
            self._engine.send_line(position)
            self._engine.send_line(go)
            self.result.set_result(self.analysis)

        def line_received(self, line: str) -> None:
            token, _, rest = line.partition(" ")
            if token == "info":
                self.analysis.post(parse_info(rest))
            elif token == "bestmove":
                self.analysis.bestmove = rest.split()[0]
                self.set_finished()
                self.analysis.set_finished(chess.engine.BestMove(None, None))
            else:
                raise chess.engine.EngineError(f"unexpected engine output: {line!r}")

        def cancel(self) -> None:
            self._engine.send_line("stop")

    return Analysis


# ---------------------------------------------------------------------------------------------
# CECP (XBoard)
# ---------------------------------------------------------------------------------------------

XBOARD_ERROR = re.compile(r"^(Error|Illegal move)\b")
RESULT = re.compile(r"^(1-0|0-1|1/2-1/2) \{.*\}$")
_pings = iter(range(1, 1_000_000))


async def xb_sync(protocol: chess.engine.XBoardProtocol, lines: List[str]) -> List[str]:
    """Sends ``lines`` and a ``ping``; returns what the engine printed before the ``pong``."""
    n = next(_pings)
    received = await protocol.communicate(
        exchange(lines + [f"ping {n}"], lambda l: l == f"pong {n}")
    )
    return received[:-1]


async def xb_variant(
    protocol: chess.engine.XBoardProtocol, variant: str, extra: List[str] = []
) -> List[str]:
    """``new`` and ``variant NAME`` (then ``extra``); returns the ``setup`` and ``piece`` lines.

    python-chess sends ``variant`` only for the variants its own boards know.
    """
    printed = await xb_sync(protocol, ["new", f"variant {variant}"] + extra)
    assert printed and printed[0].startswith("setup ("), printed
    assert all(l.startswith(("setup ", "piece ")) for l in printed), printed
    return printed


def xb_move(lines: List[str]):
    """A command that sends ``lines`` (``usermove T``, ``go``), waits for the engine's
    ``move M`` or for a game-ending ``RESULT`` line, then pings so that a ``RESULT`` after the
    move is read too. Returns (move or None, result or None, every line before the ``pong``).
    """

    class Move(chess.engine.BaseCommand[tuple]):
        def start(self) -> None:
            self.move: Optional[str] = None
            self.outcome: Optional[str] = None
            self.received: List[str] = []
            self.pong: Optional[str] = None
            for line in lines:
                self._engine.send_line(line)

        def _ping(self) -> None:
            if self.pong is None:
                n = next(_pings)
                self.pong = f"pong {n}"
                self._engine.send_line(f"ping {n}")

        def line_received(self, line: str) -> None:
            if line == self.pong:
                self.result.set_result((self.move, self.outcome, self.received))
                self.set_finished()
                return
            self.received.append(line)
            if XBOARD_ERROR.match(line):
                raise chess.engine.EngineError(line)
            if line.startswith("move "):
                assert self.move is None, f"a second move: {self.received}"
                self.move = line.split()[1]
                self._ping()
            elif RESULT.match(line):
                self.outcome = line
                self._ping()

    return Move
