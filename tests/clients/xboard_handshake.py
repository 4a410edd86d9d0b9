"""python-chess's popen_xboard against Quill: handshake, configure, a variant, ping, quit.

python-chess answers no feature during the handshake (it waits for ``feature done=1``, two
seconds unless a ``done=0`` stops its timer), and after it sends ``accepted memory`` (Quill
declares memory=1).

    python3 tests/clients/xboard_handshake.py target/release/quill
"""

import re

import chess.engine

from quill_client import HANDSHAKE_SECONDS, run, within, xb_sync, xb_variant


async def main(engine: str) -> None:
    transport, protocol = await within(
        HANDSHAKE_SECONDS, "popen_xboard", chess.engine.popen_xboard([engine])
    )
    features = protocol.features
    for name in ("ping", "setboard", "usermove", "memory"):
        assert features.get(name) == 1, f"feature {name}: {features}"
    assert features.get("done") == 1, features
    assert protocol.id["name"].startswith("Quill "), protocol.id
    variants = str(features["variants"]).split(",")
    for variant in ("gladiator", "brawl", "pagan"):
        assert variant in variants, variants
    for name in ("Seed", "SealedCommit", "memory"):
        assert name in protocol.options, f"no option {name}: {list(protocol.options)}"

    # configure: `option Seed=7` and `memory 32`; neither is answered.
    await protocol.configure({"Seed": 7, "memory": 32})
    await protocol.ping()
    assert await xb_sync(protocol, ["option SealedCommit=0"]) == []

    printed = await xb_variant(protocol, "gladiator")
    assert printed[0].startswith("setup (PNBRQ") and " 8x8+0_lion " in printed[0], printed
    printed = await xb_variant(protocol, "pagan")
    assert " 7x11+" in printed[0], printed
    await protocol.ping()

    # python-chess never answers `accepted sealed`, so a sealed variant is refused loudly (with
    # a message for the user), and so is normal chess after `new`: never a move.
    printed = await xb_sync(protocol, ["new", "variant apocalypse"])
    assert any(l.startswith("tellusererror ") for l in printed), printed
    assert any(re.match(r"^Error \(.+\): variant apocalypse$", l) for l in printed), printed
    printed = await xb_sync(protocol, ["new", "go"])
    assert any(re.match(r"^Error \(.+\): go$", l) for l in printed), printed
    assert not any(l.startswith("move ") for l in printed), printed

    await protocol.quit()
    code = await protocol.returncode
    assert code == 0, f"exit status {code}"
    transport.close()


run(main)
