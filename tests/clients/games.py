"""Whole games through python-chess's protocol objects, ended by the rules or by a turn cap.

    python3 tests/clients/games.py target/release/quill [gladiator|pagan|apocalypse ...]

Gladiator and Pagan (alternating): White is Quill in UCI (``position startpos moves …`` and
``go depth 2``, read back as ``bestmove``), Black is Quill in CECP (``usermove T``, answered by
``move T``; ``accepted turns`` makes a whole turn travel as one token). Apocalypse (sealed): two
UCI engines, each asked ``go sealed w|b`` for its own move, then both given the revealed pair;
White in commit–reveal mode, its every opening checked against its commitment.
Both engines must agree on how the game ended.
"""

import sys

import chess.engine

from quill_client import (
    HANDSHAKE_SECONDS,
    errors_in,
    run,
    uci_committed,
    uci_ready,
    uci_search,
    uci_set_variant,
    within,
    xb_move,
    xb_sync,
    xb_variant,
)

TURN_CAP = 40


def position(turns: list) -> str:
    """The UCI ``position`` command for the game so far."""
    return "position startpos" + (" moves " + " ".join(turns) if turns else "")


async def alternating(engine: str, variant: str) -> None:
    _, uci = await within(HANDSHAKE_SECONDS, "popen_uci", chess.engine.popen_uci([engine]))
    _, xb = await within(HANDSHAKE_SECONDS, "popen_xboard", chess.engine.popen_xboard([engine]))
    await uci.configure({"Seed": 11})
    await xb.configure({"Seed": 12})
    await uci_set_variant(uci, variant)
    assert await uci_ready(uci, ["ucinewgame"]) == []
    # `new` makes the CECP engine Black, out of force mode: it answers each usermove.
    assert await xb_sync(xb, ["accepted turns"]) == []
    await xb_variant(xb, variant, ["sd 2"])

    turns = []
    uci_outcome = xb_outcome = None
    for _ in range(TURN_CAP):
        search = await uci_search(uci, position(turns), "go depth 2")
        assert not errors_in(search.lines), search.lines
        if search.game_over:
            assert search.bestmove == "(none)", search.lines
            uci_outcome = search.game_over
            break
        assert search.infos and search.infos[-1].get("depth"), search.lines
        turns.append(search.bestmove)
        move, xb_outcome, lines = await xb.communicate(xb_move([f"usermove {search.bestmove}"]))
        if move is not None:
            turns.append(move)
        if xb_outcome is not None:
            # White's turn or Black's answer ended the game: the CECP engine said so.
            break
        assert move is not None, lines
    if uci_outcome is not None or xb_outcome is not None:
        # Both engines must see the same end: the one that did not report it is asked.
        if uci_outcome is None:
            search = await uci_search(uci, position(turns), "go depth 1")
            uci_outcome = search.game_over
        assert uci_outcome == xb_outcome, f"UCI: {uci_outcome}, CECP: {xb_outcome}"
    outcome = uci_outcome
    print(f"{variant}: {len(turns)} turns, {outcome or 'turn cap'}: {' '.join(turns)}")
    for protocol in (uci, xb):
        await protocol.quit()
        assert await protocol.returncode == 0


async def sealed(engine: str) -> None:
    white = (await within(HANDSHAKE_SECONDS, "popen_uci", chess.engine.popen_uci([engine])))[1]
    black = (await within(HANDSHAKE_SECONDS, "popen_uci", chess.engine.popen_uci([engine])))[1]
    # White plays in commit–reveal mode: it commits, sees Black's move, then opens.
    await white.configure({"SealedCommit": True})
    for protocol, seed in ((white, 21), (black, 22)):
        await protocol.configure({"Seed": seed})
        await uci_set_variant(protocol, "apocalypse")
        assert await uci_ready(protocol, ["ucinewgame"]) == []

    turns = []
    outcome = None
    for _ in range(TURN_CAP):
        b = await uci_search(black, position(turns), "go sealed b depth 2")
        assert not errors_in(b.lines), b.lines
        if b.game_over:
            outcome = b.game_over
            assert b.bestmove == "(none)", b.lines
            w = await uci_search(white, position(turns), "go sealed w depth 1")
            assert (w.game_over, w.bestmove) == (outcome, "(none)"), (w.lines, b.lines)
            break
        assert any(i.get("string", "").startswith("strategy ") for i in b.infos), b.lines
        w = await uci_committed(white, position(turns), "go sealed w depth 2", b.bestmove)
        turns.append(f"{w}|{b.bestmove}")
    print(f"apocalypse: {len(turns)} turns, {outcome or 'turn cap'}: {' '.join(turns)}")
    for protocol in (white, black):
        await protocol.quit()
        assert await protocol.returncode == 0


async def main(engine: str) -> None:
    for variant in sys.argv[2:] or ["gladiator", "pagan", "apocalypse"]:
        if variant == "apocalypse":
            await sealed(engine)
        else:
            await alternating(engine, variant)


run(main, timeout=120)
