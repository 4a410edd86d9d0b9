"""python-chess's popen_uci against Quill: handshake, configure, ping, the variant, quit.

    python3 tests/clients/uci_handshake.py target/release/quill
"""

import chess.engine

from quill_client import HANDSHAKE_SECONDS, run, uci_ready, uci_set_variant, within


async def main(engine: str) -> None:
    transport, protocol = await within(
        HANDSHAKE_SECONDS, "popen_uci", chess.engine.popen_uci([engine])
    )
    assert protocol.id["name"].startswith("Quill "), protocol.id
    for name in ("UCI_Variant", "Seed", "Hash", "SealedCommit", "Clear Hash"):
        assert name in protocol.options, f"no option {name}: {list(protocol.options)}"
    variants = protocol.options["UCI_Variant"].var
    assert variants == ["apocalypse", "apocalypse-classic", "gladiator", "brawl", "pagan"], variants

    # configure sends setoption for the values that differ from the defaults; Quill answers
    # nothing, so a ping (isready) right after must get readyok and nothing else.
    await protocol.configure({"Hash": 32, "Seed": 7})
    await protocol.ping()
    # `debug on` is accepted silently.
    protocol.debug(True)
    await protocol.ping()
    # A button: python-chess sends `setoption name Clear Hash` with no value.
    await protocol.configure({"Clear Hash": None})
    await protocol.ping()
    # python-chess refuses to configure the options it manages itself (UCI_Variant among them).
    try:
        await protocol.configure({"UCI_Variant": "gladiator"})
    except chess.engine.EngineError as error:
        assert "automatically managed" in str(error), error
    else:
        raise AssertionError("python-chess let UCI_Variant be configured")
    # A bad value is refused by python-chess before it reaches the engine.
    try:
        await protocol.configure({"Hash": 0})
    except chess.engine.EngineError:
        pass
    else:
        raise AssertionError("python-chess let Hash 0 through")

    announcement = await uci_set_variant(protocol, "gladiator")
    start = "rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR w - - 0 1"
    assert announcement.endswith(f" startpos {start}"), announcement
    await protocol.ping()
    printed = await uci_ready(protocol, ["ucinewgame", "position startpos moves c2c7,h1h2"])
    assert printed == [], printed
    await protocol.ping()

    await protocol.quit()
    code = await protocol.returncode
    assert code == 0, f"exit status {code}"
    transport.close()


run(main)
