"""An infinite UCI analysis of a Gladiator position through python-chess, streamed and stopped.

python-chess's own ``analysis()`` needs a ``chess.Board``, which cannot hold a Gladiator game,
so the position is sent by a command of our own that returns python-chess's ``AnalysisResult``.

    python3 tests/clients/uci_analysis.py target/release/quill
"""

import chess.engine

from quill_client import HANDSHAKE_SECONDS, run, uci_analysis, uci_set_variant, within


async def main(engine: str) -> None:
    transport, protocol = await within(
        HANDSHAKE_SECONDS, "popen_uci", chess.engine.popen_uci([engine])
    )
    await uci_set_variant(protocol, "gladiator")

    analysis = await protocol.communicate(uci_analysis("position startpos moves c2c7,h1h2"))
    infos = []
    async for info in analysis:
        infos.append(info)
        if info.get("depth", 0) >= 4:
            analysis.stop()
    await analysis.wait()

    searched = [i for i in infos if "depth" in i]
    assert searched, f"no info with a depth: {infos}"
    depths = [i["depth"] for i in searched]
    assert depths == sorted(depths) and depths[0] == 1, depths
    for info in searched:
        assert isinstance(info.get("score"), chess.engine.Cp), info
        assert info.get("nodes", 0) > 0, info
        assert info.get("pv"), info
        assert 0 <= info.get("hashfull", -1) <= 1000, info
    # The table only fills within a search: its hashfull never falls from one depth to the next.
    full = [i["hashfull"] for i in searched]
    assert full == sorted(full) and full[-1] > 0, full
    # Black is to move after White's turn: the line starts with a Black turn.
    first = searched[-1]["pv"][0]
    assert analysis.bestmove == first, (analysis.bestmove, searched[-1])
    assert analysis.info["depth"] == searched[-1]["depth"], analysis.info

    await protocol.ping()
    await protocol.quit()
    transport.close()


run(main)
