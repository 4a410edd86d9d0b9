"""Whole games through python-chess's protocol objects, ended by the rules or by a turn cap.

    python3 tests/clients/games.py target/release/quill [gladiator|pagan|apocalypse ...]

Gladiator and Pagan (alternating): White is Quill in UCI (``position startpos moves …`` and
``go depth 2``, read back as ``bestmove``), Black is Quill in CECP (``usermove T``, answered by
``move T``; ``accepted turns`` makes a whole turn travel as one token). Apocalypse (sealed): two
UCI engines, each asked ``go sealed w|b`` for its own move, then both given the revealed pair.
Both engines must agree on how the game ended.
"""

import sys

import chess.engine

from quill_client import (
    HANDSHAKE_SECONDS,
    errors_in,
    run,
    uci_ready,
    uci_search,
    uci_set_variant,
    within,
    xb_move,
    xb_sync,
    xb_variant,
)

TURN_CAP = 40


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
    outcome = None
    for _ in range(TURN_CAP):
        search = await uci_search(uci, "position startpos moves " + " ".join(turns), "go depth 2")
        assert not errors_in(search.lines), search.lines
        if search.game_over:
            outcome = search.game_over
            assert search.bestmove == "(none)", search.lines
            break
        assert search.infos and search.infos[-1].get("depth"), search.lines
        turns.append(search.bestmove)
        move, result, lines = await xb.communicate(xb_move([f"usermove {search.bestmove}"]))
        if result is not None:
            # White's turn ended the game: the CECP engine says so and does not move.
            assert move is None, lines
            outcome = result
            break
        assert move is not None, lines
        turns.append(move)
        if result is not None:
            outcome = result
            break
    if outcome is not None:
        # The other engine must see the same end.
        search = await uci_search(uci, "position startpos moves " + " ".join(turns), "go depth 1")
        assert search.game_over == outcome, (search.lines, outcome)
    print(f"{variant}: {len(turns)} turns, {outcome or 'turn cap'}: {' '.join(turns)}")
    for protocol in (uci, xb):
        await protocol.quit()
        assert await protocol.returncode == 0


async def sealed(engine: str) -> None:
    white = (await within(HANDSHAKE_SECONDS, "popen_uci", chess.engine.popen_uci([engine])))[1]
    black = (await within(HANDSHAKE_SECONDS, "popen_uci", chess.engine.popen_uci([engine])))[1]
    for protocol, seed in ((white, 21), (black, 22)):
        await protocol.configure({"Seed": seed})
        await uci_set_variant(protocol, "apocalypse")
        assert await uci_ready(protocol, ["ucinewgame"]) == []

    turns = []
    outcome = None
    for _ in range(TURN_CAP):
        position = "position startpos moves " + " ".join(turns)
        w = await uci_search(white, position, "go sealed w depth 2")
        b = await uci_search(black, position, "go sealed b depth 2")
        for search in (w, b):
            assert not errors_in(search.lines), search.lines
        assert w.game_over == b.game_over, (w.lines, b.lines)
        if w.game_over:
            outcome = w.game_over
            assert w.bestmove == b.bestmove == "(none)", (w.lines, b.lines)
            break
        for search in (w, b):
            assert any(i.get("string", "").startswith("strategy ") for i in search.infos), search.lines
        turns.append(f"{w.bestmove}|{b.bestmove}")
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
