"""End-to-end tests of `quill gui` in headless Chromium through WebDriver (selenium).

Run by tests/gui.rs (`cargo test --release --test gui`), or directly:
    python3 -m unittest -v tests/gui/test_gui.py      (after cargo build --release)
Screenshots go to target/gui-shots/."""

import hashlib
import http.client
import json
import os
import random
import re
import signal
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402


WRAP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wrap_engine.py")
FAST = f"cmd={h.QUILL} name=quill depth=1"


def entry(d):
    return d.execute_script("return window.quillTest.entry")


def my_turn(d, side=None):
    s = h.state(d)
    e = entry(d)
    return (s and s.get("entering") and not s.get("result") and e and e["next"]
            and (side is None or s["entering"] == side)
            and d.execute_script("return window.quillTest.me === window.quillTest.controller"))


def enter_move(d, rng, prefer=None):
    """Enters one whole move leg by leg with clicks, as a person would: lift a piece the
    server marks as movable, click a highlighted target; then the next leg, or end the turn.
    Returns the move entered."""
    h.wait(d, lambda d: my_turn(d), what="the person's turn")
    legs = []
    while True:
        e = h.wait(d, lambda d: (lambda e: e if e["legs"] == legs and (e["next"] or e["complete"] or e["promotions"]) else None)(entry(d)),
                   what=f"leg options after {legs}")
        options = e["next"]
        if not legs and options == ["0000"]:
            d.execute_script("document.getElementById('pass').click()")
            return "0000"
        if legs and e["complete"] and not options:
            return ",".join(legs)  # the page sends a move that cannot go on by itself
        if legs and (e["complete"] and rng.random() < 0.3):
            if e["promotions"] and not e["complete"]:
                pass
            else:
                d.execute_script("document.getElementById('finish').click()")
                return ",".join(legs)
        if e["promotions"] and not options and not e["complete"]:
            p = e["promotions"][0]
            d.execute_script("document.querySelector(`button.promotion[data-piece='${arguments[0]}']`).click()", p)
            return ",".join(legs) + p
        if prefer:
            wanted = [o for o in options if o.startswith(prefer(legs, options) or "~")]
            leg = wanted[0] if wanted else rng.choice(options)
        else:
            leg = rng.choice(options)
        m = re.match(r"^([a-z]\d+)([a-z]\d+)$", leg)
        frm, to = m.group(1), m.group(2)
        if h.entering(d) and d.execute_script("return window.quillTest.entry.lifted") != frm:
            h.click_square(d, frm)
            h.wait(d, lambda d: to in h.targets(d), what=f"target {to} of {frm}")
        h.click_square(d, to)
        legs.append(leg)
        # Either the move went (legs reset, new state) or the page asks for more.
        def settled(d):
            en = entry(d)
            if en["legs"] == legs and (en["next"] or en["promotions"] or en["complete"]):
                return "more"
            if en["legs"] == [] and not d.execute_script(
                    "return document.querySelector('#choices').children.length"):
                return "sent"
            return None
        r = h.wait(d, settled, what="the move to be sent or continued")
        if r == "sent":
            return ",".join(legs)


def new_game(d, variant, white, black, fen=""):
    before = h.state(d)["version"] if h.state(d) else -1
    d.execute_script(
        "window.quillTest.send({t: 'new', variant: arguments[0], fen: arguments[1], white: arguments[2], black: arguments[3]})",
        variant, fen, white, black)
    h.wait(d, lambda d: h.state(d)["version"] > before and h.state(d)["variant"] == variant, what="the new game")


def open_page(server):
    d = h.browser()
    d.get(server.url)
    h.wait(d, lambda d: h.state(d) and h.state(d).get("seats"), what="the first state")
    return d


class Gui(unittest.TestCase):
    def setUp(self):
        self.servers = []
        self.drivers = []

    def tearDown(self):
        for d in self.drivers:
            h.close(d)
        for s in self.servers:
            s.stop()

    def server(self, *args):
        s = h.Server(*args)
        self.servers.append(s)
        return s

    def page(self, server):
        d = open_page(server)
        self.drivers.append(d)
        return d

    # -- sealed games ----------------------------------------------------------------------

    def test_whole_apocalypse_game_every_commitment_verified(self):
        s = self.server("--engine", FAST)
        d = self.page(s)
        rng = random.Random(7)
        h.shot(d, "apocalypse-start")
        checked = 0
        for turn in range(1, 120):
            st = h.state(d)
            if st["result"]:
                break
            # Quill's commitment is shown before the person moves.
            h.wait(d, lambda d: h.state(d)["seats"][1]["half"]["state"] == "committed" or h.state(d)["result"],
                   what="Quill's commitment")
            if h.state(d)["result"]:
                break
            digest = h.state(d)["seats"][1]["half"]["digest"]
            shown = h.wait(d, lambda d: d.execute_script(
                "const e = document.querySelector('#half-1 .digest');"
                "return e ? [e.textContent, e.parentElement.textContent] : null"), what="the commitment shown")
            self.assertEqual(shown[0], digest)
            self.assertIn("has sealed its move", shown[1])
            mine = enter_move(d, rng)
            rv = h.wait(d, lambda d: (lambda r: r if r and r["turn"] == turn else None)(h.state(d)["reveal"]),
                        what=f"the reveal of turn {turn}")
            if turn == 2:
                h.shot(d, "apocalypse-mid-reveal")
            self.assertEqual(rv["moves"][0], mine)
            o = rv["openings"][1]
            self.assertEqual(o["digest"], digest)
            # Recomputed here, independently of the page and the server.
            ours = hashlib.sha256(f"quill-sealed-v1:{o['move']}:{o['nonce']}".encode()).hexdigest()
            self.assertEqual(ours, digest)
            self.assertEqual(o["move"], rv["moves"][1])
            v = h.wait(d, lambda d: d.execute_script(
                "const e = document.getElementById('verify-1');"
                "return e && e.dataset.turn === String(arguments[0]) && e.dataset.verified !== 'pending'"
                " ? [e.dataset.verified, e.textContent] : null", turn), what="the page's verdict")
            self.assertEqual(v[0], "true", v[1])
            self.assertIn(digest, v[1])
            checked += 1
        st = h.wait(d, lambda d: h.state(d)["result"], timeout=5, what="the end of the game")
        self.assertGreater(checked, 2)
        self.assertEqual(len(h.state(d)["moves"]), checked)
        self.assertTrue(d.find_element("id", "result").is_displayed())
        h.shot(d, "apocalypse-end")
        # The PGN is the referee's: Variant, turns as comments, the result.
        pgn = d.execute_script("return fetch('/pgn?token=' + new URLSearchParams(location.search).get('token')).then(r => r.text())")
        self.assertIn('[Variant "apocalypse"]', pgn)
        self.assertIn(f'[Result "{st["result"]}"]', pgn)
        self.assertIn("1. {", pgn)

    def test_a_tampered_opening_is_flagged(self):
        s = self.server("--engine", f"cmd='{WRAP} tamper {h.QUILL}' name=tamperer depth=1")
        d = self.page(s)
        rng = random.Random(3)
        h.wait(d, lambda d: h.state(d)["seats"][1]["half"]["state"] == "committed", what="the commitment")
        enter_move(d, rng)
        v = h.wait(d, lambda d: d.execute_script(
            "const e = document.getElementById('verify-1');"
            "return e && e.dataset.verified === 'false' ? [e.textContent, e.className] : null"),
            what="the page to flag the opening")
        self.assertIn("TAMPERED", v[0])
        self.assertIn("tampered", v[1])
        st = h.wait(d, lambda d: h.state(d)["result"], what="the forfeit")
        self.assertEqual(st["result"], "1-0")
        self.assertIn("broke its commitment", st["reason"])
        h.shot(d, "apocalypse-tampered")

    def test_two_people_seal_behind_a_hand_over_screen(self):
        s = self.server("--engine", FAST)
        d = self.page(s)
        new_game(d, "apocalypse", "person", "person")
        rng = random.Random(5)
        ov = d.find_element("id", "handover")
        h.wait(d, lambda d: ov.is_displayed() and ov.get_attribute("data-side") == "white", what="hand over to White")
        d.find_element("id", "handover-ready").click()
        w = enter_move(d, rng)
        h.wait(d, lambda d: ov.is_displayed() and ov.get_attribute("data-side") == "black", what="hand over to Black")
        # White's move is nowhere in what the page was sent.
        self.assertEqual(h.state(d)["seats"][0]["half"], {"state": "sealed"})
        self.assertNotIn(w, json.dumps(h.state(d)["moves"]))
        h.shot(d, "apocalypse-hand-over")
        d.find_element("id", "handover-ready").click()
        b = enter_move(d, rng)
        rv = h.wait(d, lambda d: h.state(d)["reveal"], what="the reveal")
        self.assertEqual(rv["moves"], [w, b])

    # -- alternating games -----------------------------------------------------------------

    def test_gladiator_two_part_turns(self):
        s = self.server("--engine", FAST, "--variant", "gladiator")
        d = self.page(s)
        new_game(d, "gladiator", "person", "engine:0")
        h.shot(d, "gladiator-start")
        rng = random.Random(11)
        # An illegal drag: a pawn onto a square it cannot reach changes nothing.
        e = h.wait(d, lambda d: my_turn(d) and entry(d), what="the first turn")
        version = h.state(d)["version"]
        frm = e["next"][0][:2]
        reach = {l[2:] for l in e["next"] if l.startswith(frm)}
        wrong = next(sq for sq in ["d5", "e5", "c5", "f5", "d4", "e4"] if sq not in reach)
        h.drag(d, frm, wrong)
        h.wait(d, lambda d: "not a legal move" in (d.find_element("id", "notice").get_attribute("data-text") or ""),
               what="the refusal of the drag")
        self.assertEqual(h.state(d)["version"], version)
        self.assertEqual(h.state(d)["moves"], [])
        # Turn 1: a pawn move and a supporter jump, the jump chosen from the choices shown.
        e = h.wait(d, lambda d: entry(d)["next"] and entry(d), what="options")
        pawn = e["next"][0]
        h.click_square(d, pawn[:2])
        h.wait(d, lambda d: pawn[2:] in h.targets(d), what="the pawn's targets")
        h.click_square(d, pawn[2:])
        e = h.wait(d, lambda d: (lambda e: e if e["legs"] == [pawn] and e["next"] else None)(entry(d)),
                   what="the supporter part")
        self.assertTrue(e["complete"], "the jump is optional")
        self.assertTrue(d.execute_script("return !!document.getElementById('finish')"))
        h.shot(d, "gladiator-second-part")
        jump = e["next"][0]
        h.drag(d, jump[:2], jump[2:])
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 1, what="the two-part turn")
        self.assertEqual(h.state(d)["moves"][0]["turn"], f"{pawn},{jump}")
        # Two more turns, one ended after its pawn part.
        h.wait(d, lambda d: my_turn(d), what="the second turn")
        m = enter_move(d, rng)
        h.wait(d, lambda d: my_turn(d) and len(h.state(d)["moves"]) >= 4, what="the third turn")
        self.assertEqual(h.state(d)["moves"][2]["turn"], m)
        # Undo takes back the person's move and the engine's reply.
        d.find_element("id", "undo").click()
        h.wait(d, lambda d: len(h.state(d)["moves"]) == 2, what="the undo")
        h.wait(d, lambda d: my_turn(d), what="the turn after the undo")
        self.assertIn("arena", d.execute_script("return [...document.querySelectorAll('#board rect.square')].map(r => r.dataset.region).join(' ')"))
        self.assertTrue(d.find_element("id", "arena"))
        h.shot(d, "gladiator")

    def test_brawl_board_and_a_move(self):
        s = self.server("--engine", FAST)
        d = self.page(s)
        new_game(d, "brawl", "person", "engine:0")
        enter_move(d, random.Random(2))
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2, what="Quill's reply")
        regions = d.execute_script("return new Set([...document.querySelectorAll('#board rect.square')].map(r => r.dataset.region)).size")
        self.assertEqual(regions, 1)
        h.shot(d, "brawl")

    def test_pagan_withdrawal_and_reincarnation(self):
        s = self.server("--engine", FAST)
        d = self.page(s)
        fen = "k6/3w3/3Gp2/7/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1"
        new_game(d, "pagan", "person", "engine:0", fen)
        # The frame: 7 files, 11 ranks, holes left out: 5x7 + 4x5 = 55 squares, a bridge.
        n = d.execute_script("return document.querySelectorAll('#board rect.square').length")
        self.assertEqual(n, 55)
        self.assertTrue(d.find_element("id", "bridge"))
        h.wait(d, lambda d: my_turn(d), what="White's turn")
        h.click_square(d, "d9")
        t = h.wait(d, lambda d: h.targets(d), what="the Pagan's targets")
        self.assertIn("b9", t)
        h.shot(d, "pagan-lifted")
        h.click_square(d, "b9")
        st = h.wait(d, lambda d: h.state(d)["moves"] and h.state(d), what="the withdrawal")
        self.assertEqual(st["moves"][0]["turn"], "d9b9")
        words = " ".join(st["moves"][0]["words"])
        self.assertIn("e9 is gone", words)           # captured by withdrawal
        self.assertIn("b4 (dead board)", words)      # and reincarnated
        # The board the server sends after the move (the rules' own): e9 empty, the pawn on b4.
        st = h.state(d)
        self.assertNotIn("e9", st["pieces"])
        self.assertEqual(st["pieces"].get("b4"), "p")
        h.shot(d, "pagan")

    # -- failures ----------------------------------------------------------------------------

    def test_an_engine_that_crashes_mid_game_forfeits(self):
        s = self.server("--engine", f"cmd='{WRAP} crash 2 {h.QUILL}' name=crasher depth=1")
        d = self.page(s)
        new_game(d, "gladiator", "person", "engine:0")
        rng = random.Random(4)
        enter_move(d, rng)
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2, what="the first reply")
        enter_move(d, rng)
        st = h.wait(d, lambda d: h.state(d)["result"], what="the forfeit")
        self.assertEqual(st["result"], "1-0")
        self.assertIn("crasher exited", st["reason"])
        self.assertIn("crasher exited", d.find_element("id", "result").text)
        h.shot(d, "engine-crashed")

    def test_a_reload_returns_to_the_game(self):
        s = self.server("--engine", FAST)
        d = self.page(s)
        new_game(d, "gladiator", "person", "engine:0")
        rng = random.Random(9)
        enter_move(d, rng)
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2 and my_turn(d), what="Quill's reply")
        before = h.state(d)
        d.refresh()
        h.wait(d, lambda d: h.state(d) and h.state(d).get("moves") is not None, what="the state after the reload")
        after = h.state(d)
        self.assertEqual(after["moves"], before["moves"])
        self.assertEqual(after["fen"], before["fen"])
        enter_move(d, rng)
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 4, what="play after the reload")

    def test_wrong_inputs(self):
        s = self.server("--engine", f"cmd={h.QUILL} name=slow st=2")
        d = self.page(s)
        new_game(d, "gladiator", "person", "engine:0")
        rng = random.Random(1)
        enter_move(d, rng)
        # While Quill thinks: a click on a piece, and a move sent as raw text, are refused.
        h.wait(d, lambda d: h.state(d)["seats"][1]["running"], what="Quill thinking")
        h.click_square(d, "d3")
        h.wait(d, lambda d: "not your turn" in (d.find_element("id", "notice").get_attribute("data-text") or ""),
               what="the click refused")
        d.execute_script("window.quillTest.send({t: 'move', move: 'c3c4'})")
        h.wait(d, lambda d: "not your turn" in d.execute_script("return window.quillTest.lastError"),
               what="the raw move refused")
        self.assertEqual(len(h.state(d)["moves"]), 1)
        h.wait(d, lambda d: my_turn(d), timeout=30, what="the person's turn")
        # Garbage and an illegal move on the wire get the rules' reasons.
        d.execute_script("window.quillTest.send({t: 'move', move: 'hello'})")
        h.wait(d, lambda d: "is not a move" in d.execute_script("return window.quillTest.lastError"), what="garbage refused")
        d.execute_script("window.quillTest.send({t: 'move', move: 'a1a8'})")
        h.wait(d, lambda d: "illegal move a1a8" in d.execute_script("return window.quillTest.lastError"), what="illegal refused")
        d.execute_script("window.quillTest.send({t: 'new', variant: 'pagan', fen: 'not a fen', white: 'person', black: 'engine:0'})")
        h.wait(d, lambda d: "refused" in d.execute_script("return window.quillTest.lastError"), what="bad FEN refused")
        d.execute_script("window.quillTest.send({t: 'new', variant: 'gladiator', white: 'engine:7', black: 'person'})")
        h.wait(d, lambda d: "no engine 7" in d.execute_script("return window.quillTest.lastError"), what="bad seat refused")
        self.assertEqual(h.state(d)["variant"], "gladiator")
        # A second tab takes the game over; the first is told, and its moves are refused.
        first = d.current_window_handle
        d.switch_to.new_window("tab")
        d.get(s.url)
        h.wait(d, lambda d: h.state(d) and h.state(d).get("moves") is not None and my_turn(d), what="the second tab")
        d.switch_to.window(first)
        h.wait(d, lambda d: d.find_element("id", "takeover").is_displayed(), what="the first tab told")
        h.shot(d, "second-tab")
        d.execute_script("window.quillTest.send({t: 'move', move: 'c3c4'})")
        h.wait(d, lambda d: "another tab" in d.execute_script("return window.quillTest.lastError"), what="the old tab refused")
        d.find_element("id", "claim").click()
        h.wait(d, lambda d: not d.find_element("id", "takeover").is_displayed() and my_turn(d), what="control back")
        enter_move(d, rng)
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2, what="a move from the tab in control")

    def test_engine_vs_engine_with_pause(self):
        s = self.server("--engine", f"cmd={h.QUILL} name=uci depth=1",
                        "--engine", f"cmd={h.QUILL} name=xb proto=cecp depth=1")
        d = self.page(s)
        new_game(d, "apocalypse", "engine:0", "engine:1")
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2, what="two turns")
        rv = h.state(d)["reveal"]
        d.find_element("id", "pause").click()
        h.wait(d, lambda d: h.state(d)["paused"], what="the pause")
        time.sleep(0.5)
        n = len(h.state(d)["moves"])
        time.sleep(1.5)
        self.assertLessEqual(len(h.state(d)["moves"]), n + 1)
        n = len(h.state(d)["moves"])
        time.sleep(1.0)
        self.assertEqual(len(h.state(d)["moves"]), n)
        # Both committed: the page verifies both openings of the last turn shown. Checked once
        # paused: while two depth-1 engines play on, each new turn redraws the verdicts before
        # the hash of the last one can be shown.
        for i in (0, 1):
            h.wait(d, lambda d: d.find_element("id", f"verify-{i}").get_attribute("data-verified") == "true",
                   what=f"the verdict on seat {i}")
        d.find_element("id", "pause").click()
        h.wait(d, lambda d: len(h.state(d)["moves"]) > n or h.state(d)["result"], what="play resumed")
        self.assertIsNotNone(rv)

    # -- safety ------------------------------------------------------------------------------

    def test_requests_without_the_token_or_from_another_origin_are_refused(self):
        s = self.server("--engine", FAST)

        def get(path, headers=None):
            c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=5)
            c.request("GET", path, headers=headers or {})
            r = c.getresponse()
            body = r.read().decode()
            c.close()
            return r.status, body

        self.assertEqual(get(f"/?token={s.token}")[0], 200)
        self.assertEqual(get("/")[0], 403)
        self.assertEqual(get("/?token=" + "0" * 32)[0], 403)
        self.assertEqual(get("/app.js")[0], 403)
        self.assertEqual(get("/pgn")[0], 403)
        status, body = get(f"/?token={s.token}", {"Origin": "http://evil.example"})
        self.assertEqual((status, "cross-origin" in body), (403, True))
        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
        self.assertEqual(get("/ws", upgrade)[0], 403)
        self.assertEqual(get(f"/ws?token={s.token}", {**upgrade, "Origin": "http://evil.example"})[0], 403)
        self.assertEqual(get(f"/ws?token={s.token}", {**upgrade, "Origin": f"http://127.0.0.1:{s.port}"})[0], 101)
        # A page of another origin in the same browser cannot open the socket either.
        d = self.page(s)
        other = f"http://localhost:{s.port}/?token={s.token}"
        d.get(f"http://127.0.0.1:{s.port}/?token={s.token}")
        code = d.execute_script(
            "return new Promise(res => { const w = new WebSocket('ws://127.0.0.1:' + arguments[0] + '/ws');"
            " w.onopen = () => res('open'); w.onerror = () => res('refused'); })", s.port)
        self.assertEqual(code, "refused")
        self.assertTrue(other)

    def test_no_engine_process_outlives_the_page_or_the_server(self):
        s = self.server("--engine", FAST, "--abandon-secs", "2")
        d = open_page(s)
        h.wait(d, lambda d: h.state(d)["seats"][1]["half"]["state"] == "committed", what="the commitment")
        engines = s.children()
        self.assertTrue(engines, "the engine runs while the page is open")
        h.close(d)
        h.wait(None, lambda _: not any(h.alive(p) for p in engines), timeout=10, what="the engines to end after the tab closed")
        # Back to the page: the game goes on with a new engine; then the server is killed.
        d = self.page(s)
        h.wait(d, lambda d: h.state(d)["seats"][1]["half"]["state"] == "committed", what="the commitment again")
        engines = s.children()
        self.assertTrue(engines)
        s.stop(signal.SIGTERM)
        h.wait(None, lambda _: not any(h.alive(p) for p in engines), timeout=10, what="the engines to end with the server")
        s2 = self.server("--engine", FAST)
        d2 = self.page(s2)
        h.wait(d2, lambda d: h.state(d)["seats"][1]["half"]["state"] == "committed", what="a commitment")
        engines = s2.children()
        s2.stop(signal.SIGINT)
        h.wait(None, lambda _: not any(h.alive(p) for p in engines), timeout=10, what="the engines to end on SIGINT")


if __name__ == "__main__":
    unittest.main()
