"""End-to-end tests of `quill gui` in headless Chromium through WebDriver (selenium).

Run by tests/gui.rs (`cargo test --release --test gui`), or directly:
    python3 -m unittest -v tests/gui/test_gui.py      (after cargo build --release)
Screenshots go to target/gui-shots/; with QUILL_DOC_SHOTS=1 the README's pictures in docs/img/
are rewritten from the same run."""

import hashlib
import http.client
import json
import os
import random
import re
import shutil
import signal
import tempfile
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
            # Sent: the entry is reset. Its choices are empty, unless the next turn has begun
            # with nothing to enter but a pass (its button is then the one choice shown).
            if en["legs"] == [] and (en["next"] == ["0000"] or not d.execute_script(
                    "return document.querySelector('#choices').children.length")):
                return "sent"
            return None
        r = h.wait(d, settled, what="the move to be sent or continued")
        if r == "sent":
            return ",".join(legs)


def new_game(d, variant, white, black, fen="", cap=""):
    """Starts a new game and waits for its first state, drawn. The game counter tells the new
    game's state from a late one of the last game (an engine's reply, in the same variant)."""
    # A page just (re)loaded may not have its socket yet: a message sent then is dropped.
    h.wait(d, h.connected, what="the page connected")
    before = h.state(d)["game"]
    d.execute_script(
        "window.quillTest.send({t: 'new', variant: arguments[0], fen: arguments[1], white: arguments[2], black: arguments[3], cap: arguments[4]})",
        variant, fen, white, black, cap)
    h.wait(d, lambda d: h.state(d)["game"] != before and h.state(d)["variant"] == variant, what="the new game")
    h.wait_rendered(d)


def open_page(server):
    d = h.browser()
    d.get(server.url)
    h.wait(d, lambda d: h.state(d) and h.state(d).get("seats"), what="the first state")
    return d


class Processes(unittest.TestCase):
    """Tests that own their servers: they kill them."""

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

    def test_no_engine_process_outlives_the_page_or_the_server(self):
        s = self.server("--engine", FAST, "--abandon-secs", "2")
        d = self.page(s)
        committed = lambda d: h.state(d) and h.state(d)["seats"][1]["half"]["state"] == "committed"
        h.wait(d, committed, what="the commitment")
        # A page that took longer than the abandonment (2 s) to open finds the engines stopped
        # and restarted; the state it saw first may be the commitment from before that.
        engines = h.wait(None, lambda _: s.children(), what="the engine to run while the page is open")
        # The tab is closed (a blank tab keeps the browser open).
        page_tab = d.current_window_handle
        d.switch_to.new_window("tab")
        blank = d.current_window_handle
        d.switch_to.window(page_tab)
        d.close()
        d.switch_to.window(blank)
        h.wait(None, lambda _: not any(h.alive(p) for p in engines), timeout=10, what="the engines to end after the tab closed")
        # Back to the page: the game goes on with a new engine; then the server is killed, by
        # SIGTERM, and another by SIGINT.
        for server, sig in [(s, signal.SIGTERM), (self.server("--engine", FAST), signal.SIGINT)]:
            d.get(server.url)
            h.wait(d, committed, what="the commitment again")
            engines = h.wait(None, lambda _: server.children(), what="the engine to run again")
            server.stop(sig)
            h.wait(None, lambda _: not any(h.alive(p) for p in engines), timeout=10,
                   what=f"the engines to end on signal {sig}")

class OneServer(unittest.TestCase):
    """Situations reached from fixed FENs in a few clicks, on one server and one page shared by
    the class (a new game each test), so the suite stays quick on a loaded machine."""

    @classmethod
    def setUpClass(cls):
        # engine:0 Quill at depth 1, 1 one that breaks its commitment, 2 one that crashes,
        # 3 one that thinks until the test lets it move (`cls.release()`), 4 Quill in XBoard.
        cls.gate_dir = tempfile.mkdtemp(prefix="quill-gui-gate-")
        cls.gate = os.path.join(cls.gate_dir, "go")
        cls.s = h.Server("--engine", FAST,
                         "--engine", f"cmd='{WRAP} tamper {h.QUILL}' name=tamperer depth=1",
                         "--engine", f"cmd='{WRAP} crash 2 {h.QUILL}' name=crasher depth=1",
                         "--engine", f"cmd='{WRAP} hold {cls.gate} {h.QUILL}' name=slow depth=1",
                         "--engine", f"cmd={h.QUILL} name=xb proto=cecp depth=1")
        try:
            cls.d = open_page(cls.s)
        except Exception:
            cls.s.stop()
            raise

    @classmethod
    def release(cls):
        """Lets the holding engine (engine:3) play its moves, this one and every later one."""
        open(cls.gate, "w").close()

    @classmethod
    def tearDownClass(cls):
        h.close(cls.d)
        cls.s.stop()
        shutil.rmtree(cls.gate_dir, ignore_errors=True)

    def click_to(self, frm, to):
        self.lift(frm, to)
        h.click_square(self.d, to)

    def lift(self, frm, to):
        """Clicks the piece on `frm` until `to` is among its targets."""
        d = self.d
        # A click that lands while the page redraws for a state that arrives just then (the
        # engine's, on a loaded machine) can be lost, as a person's can: the piece is not
        # lifted. Then it is clicked again, as a person would, at most once a second.
        last = [0.0]

        def lifted(d):
            if to in h.targets(d):
                return True
            if entry(d)["lifted"] is None and h.rendered(d) and time.time() - last[0] >= 1.0:
                h.click_square(d, frm)
                last[0] = time.time()
            return False

        h.wait(d, lifted, what=f"target {to} of {frm}")

    def test_a_state_that_changes_nothing_keeps_the_lifted_piece(self):
        # A state that leaves the game, the position and the side entering as they were must
        # not drop the piece a person has lifted: the server sends one when the person's clock
        # starts, just after the engine's move, and on a loaded machine it came after the
        # person's click and dropped it. Here the state is one a "resume" that changes nothing
        # brings.
        d = self.d
        new_game(d, "gladiator", "person", "engine:0")
        h.wait(d, lambda d: my_turn(d), what="White's turn")
        leg = sorted(entry(d)["next"])[0]
        frm, to = leg[:2], leg[2:]
        self.lift(frm, to)
        version = h.state(d)["version"]
        d.execute_script("window.quillTest.send({t: 'pause', on: false})")
        h.wait(d, lambda d: h.state(d)["version"] > version, what="the state after the resume")
        h.wait_rendered(d)
        self.assertEqual(h.state(d)["fen"], h.state(d)["start_fen"])
        self.assertEqual(entry(d)["lifted"], frm)
        self.assertIn(to, h.targets(d))
        h.click_square(d, to)
        # The leg taken: a turn with more to enter, or the move sent.
        h.wait(d, lambda d: entry(d)["legs"] == [leg]
               or any(m["turn"].startswith(leg) for m in h.state(d)["moves"]), what=f"the leg {leg}")

    def test_whole_apocalypse_game_every_commitment_verified(self):
        d = self.d
        # Quill's game against these seeded random moves is not the same from run to run, and it
        # can go on for ever (a CI run reached a position where the random side could only pass
        # and Quill, with horsemen alone, could not win): the game's own turn cap ends it.
        cap = 150
        new_game(d, "apocalypse", "person", "engine:0", cap=str(cap))
        self.assertEqual(h.state(d)["cap"], cap)
        rng = random.Random(7)
        h.shot(d, "apocalypse-start")
        checked = 0
        for turn in range(1, cap + 1):
            st = h.state(d)
            if st["result"]:
                break
            # Quill's commitment is shown before the person moves.
            h.wait(d, lambda d: h.state(d)["seats"][1]["half"]["state"] == "committed" or h.state(d)["result"],
                   what="Quill's commitment")
            if h.state(d)["result"]:
                break
            digest = h.state(d)["seats"][1]["half"]["digest"]
            # The page draws once a frame: until it has drawn this state, it may show the
            # commitment of no turn, or of the last one.
            shown = h.wait(d, lambda d: d.execute_script(
                "const e = document.querySelector('#half-1 .digest');"
                "return e && e.textContent === arguments[0] ? [e.textContent, e.parentElement.textContent] : null",
                digest), what=f"the commitment {digest} shown")
            self.assertEqual(shown[0], digest)
            self.assertIn("has sealed its move", shown[1])
            mine = enter_move(d, rng)
            rv = h.wait(d, lambda d: (lambda r: r if r and r["turn"] == turn else None)(h.state(d)["reveal"]),
                        what=f"the reveal of turn {turn}")
            if turn == 2:
                h.shot(d, "apocalypse-mid-reveal", doc="apocalypse-reveal")
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
        if st["termination"] == "adjudication":
            self.assertEqual(checked, cap)
            self.assertEqual(st["reason"], f"adjudicated: turn cap of {cap} turns reached")
            self.assertEqual(st["result"], "1/2-1/2")
        else:
            self.assertLess(checked, cap)
        h.wait_rendered(d)
        self.assertTrue(d.find_element("id", "result").is_displayed())
        h.shot(d, "apocalypse-end")
        # The PGN is the referee's: Variant, turns as comments, the result.
        pgn = d.execute_script("return fetch('/pgn?token=' + new URLSearchParams(location.search).get('token')).then(r => r.text())")
        self.assertIn('[Variant "apocalypse"]', pgn)
        self.assertIn(f'[Result "{st["result"]}"]', pgn)
        self.assertIn("1. {", pgn)

    def test_two_people_seal_behind_a_hand_over_screen(self):
        d = self.d
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

    def test_gladiator_two_part_turns(self):
        d = self.d
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
        # WireTurn 1: a pawn move and a supporter jump, the jump chosen from the choices shown.
        e = h.wait(d, lambda d: entry(d)["next"] and entry(d), what="options")
        pawn = e["next"][0]
        h.click_square(d, pawn[:2])
        h.wait(d, lambda d: pawn[2:] in h.targets(d), what="the pawn's targets")
        h.click_square(d, pawn[2:])
        e = h.wait(d, lambda d: (lambda e: e if e["legs"] == [pawn] and e["next"] else None)(entry(d)),
                   what="the supporter part")
        self.assertTrue(e["complete"], "the jump is optional")
        self.assertTrue(d.execute_script("return !!document.getElementById('finish')"))
        h.shot(d, "gladiator-second-part", doc="gladiator")
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
        d = self.d
        new_game(d, "brawl", "person", "engine:0")
        enter_move(d, random.Random(2))
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2, what="Quill's reply")
        regions = d.execute_script("return new Set([...document.querySelectorAll('#board rect.square')].map(r => r.dataset.region)).size")
        self.assertEqual(regions, 1)
        h.shot(d, "brawl")

    def test_pagan_withdrawal_and_reincarnation(self):
        d = self.d
        fen = "k6/3w3/3Gp2/7/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1"
        new_game(d, "pagan", "person", "engine:0", fen)
        # The frame: 7 files, 11 ranks, holes left out: 5x7 + 4x5 = 55 squares, a bridge.
        n = d.execute_script("return document.querySelectorAll('#board rect.square').length")
        self.assertEqual(n, 55)
        self.assertTrue(d.find_element("id", "bridge"))
        h.wait(d, lambda d: my_turn(d), what="White's turn")
        # The Pagan lifted (clicked again if a redraw lost the click), b9 among its targets.
        self.lift("d9", "b9")
        h.shot(d, "pagan-lifted", doc="pagan")
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

    def test_a_new_game_clears_the_last_games_notice_and_the_board_stays(self):
        d = self.d
        new_game(d, "gladiator", "person", "engine:0")
        enter_move(d, random.Random(6))
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2 and my_turn(d), what="Quill's reply")
        d.find_element("id", "undo").click()
        h.wait(d, lambda d: "took back" in (d.find_element("id", "notice").text or ""), what="the undo's notice")
        board = lambda d: d.execute_script(
            "const b = document.getElementById('board').getBoundingClientRect(); return [b.x, b.y, b.width, b.height]")
        before = board(d)
        game = h.state(d)["game"]
        d.execute_script(
            "window.quillTest.send({t: 'new', variant: 'gladiator', fen: '', white: 'person', black: 'engine:0'})")
        # Looked at in the same script as the state that brings the new game: at once, not
        # after the notice's 6 s.
        seen = h.wait(d, lambda d: d.execute_script(
            "const s = window.quillTest.state; return s && s.game !== arguments[0]"
            " ? [document.getElementById('notice').textContent, s.notice] : null", game),
            what="the new game")
        self.assertEqual(seen, ["", None])
        h.wait(d, lambda d: my_turn(d), what="White's turn in the new game")
        self.assertEqual(board(d), before)

    def test_a_reload_returns_to_the_game(self):
        d = self.d
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


    def test_a_tampered_opening_is_flagged(self):
        d = self.d
        new_game(d, "apocalypse", "person", "engine:1")
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
        h.shot(d, "apocalypse-tampered", doc="apocalypse-tampered")

    def test_an_engine_that_crashes_mid_game_forfeits(self):
        d = self.d
        new_game(d, "gladiator", "person", "engine:2")
        rng = random.Random(4)
        enter_move(d, rng)
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2, what="the first reply")
        enter_move(d, rng)
        st = h.wait(d, lambda d: h.state(d)["result"], what="the forfeit")
        self.assertEqual(st["result"], "1-0")
        self.assertIn("crasher exited", st["reason"])
        h.wait_rendered(d)
        self.assertIn("crasher exited", d.find_element("id", "result").text)
        self.assertIn("you win", d.find_element("id", "result").text)
        h.shot(d, "engine-crashed")

    def test_wrong_inputs(self):
        d = self.d
        new_game(d, "gladiator", "person", "engine:3")
        rng = random.Random(1)
        enter_move(d, rng)
        # While Quill thinks (it moves when the test releases it): a click on a piece, and a
        # move sent as raw text, are refused.
        h.wait(d, lambda d: h.state(d)["seats"][1]["running"], what="Quill thinking")
        h.wait_rendered(d)
        h.click_square(d, "d3")
        h.wait(d, lambda d: "it is not your turn" == (d.find_element("id", "notice").get_attribute("data-text") or ""),
               what="the click refused")
        # The server's refusal, told from the page's own one by its words.
        d.execute_script("window.quillTest.clearError()")
        d.execute_script("window.quillTest.send({t: 'move', move: 'c3c4'})")
        refusal = h.wait(d, lambda d: d.execute_script("return window.quillTest.lastError"), what="the raw move refused")
        self.assertIn("not your turn", refusal)
        self.assertNotEqual(refusal, "it is not your turn", "the server's words, not the page's")
        self.assertEqual(len(h.state(d)["moves"]), 1)
        self.assertTrue(h.state(d)["seats"][1]["running"])
        self.release()
        h.wait(d, lambda d: my_turn(d), timeout=30, what="the person's turn")
        # Garbage and an illegal move on the wire get the rules' reasons.
        d.execute_script("window.quillTest.send({t: 'move', move: 'hello'})")
        h.wait(d, lambda d: "is not a move" in d.execute_script("return window.quillTest.lastError"), what="garbage refused")
        d.execute_script("window.quillTest.send({t: 'move', move: 'a1a8'})")
        h.wait(d, lambda d: "illegal move a1a8" in d.execute_script("return window.quillTest.lastError"), what="illegal refused")
        # A message past the server's bound is not sent (the server would close the socket).
        d.execute_script("window.quillTest.send({t: 'move', move: 'x'.repeat(20000)})")
        h.wait(d, lambda d: "too long" in d.execute_script("return window.quillTest.lastError"), what="an oversized message held back")
        self.assertEqual(d.find_element("id", "connection").text, "connected")
        d.execute_script("window.quillTest.send({t: 'new', variant: 'pagan', fen: 'not a fen', white: 'person', black: 'engine:0'})")
        h.wait(d, lambda d: "refused" in d.execute_script("return window.quillTest.lastError"), what="bad FEN refused")
        d.execute_script("window.quillTest.send({t: 'new', variant: 'gladiator', white: 'engine:7', black: 'person'})")
        h.wait(d, lambda d: "no engine 7" in d.execute_script("return window.quillTest.lastError"), what="bad seat refused")
        # A turn cap outside 1..=2000, or not a whole number, is refused by name.
        for cap in ["0", "2001", "'ten'", "1.5", "-3"]:
            d.execute_script("window.quillTest.clearError()")
            d.execute_script(f"window.quillTest.send({{t: 'new', variant: 'pagan', white: 'person', black: 'engine:0', cap: {cap}}})")
            h.wait(d, lambda d: "a turn cap is a whole number from 1 to 2000" in d.execute_script("return window.quillTest.lastError"),
                   what=f"the turn cap {cap} refused")
        self.assertEqual(h.state(d)["variant"], "gladiator")
        # A second tab takes the game over; the first is told, and its moves are refused.
        first = d.current_window_handle
        d.switch_to.new_window("tab")
        d.get(self.s.url)
        second = d.current_window_handle
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
        d.switch_to.window(second)
        d.close()
        d.switch_to.window(first)

    def test_engine_vs_engine_with_pause(self):
        d = self.d
        new_game(d, "apocalypse", "engine:0", "engine:4")
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2, what="two turns")
        rv = h.state(d)["reveal"]
        d.find_element("id", "pause").click()
        st = h.wait(d, lambda d: h.state(d)["paused"] and h.state(d), what="the pause")
        paused_at = len(st["moves"])
        # An engine thinking finishes its step first (protocol-docs/gui.md): the server then
        # sends one more state, and no other while paused. How long that step takes depends on
        # the machine's load, so the test waits for the states to stop (none for 2 s), not for
        # a fixed time.
        quiet = {"version": st["version"], "since": time.time()}

        def settled(d):
            v = h.state(d)["version"]
            if v != quiet["version"]:
                quiet.update(version=v, since=time.time())
            return time.time() - quiet["since"] >= 2.0
        h.wait(d, settled, what="the states to stop while paused")
        n = len(h.state(d)["moves"])
        self.assertLessEqual(n, paused_at + 1, "at most the turn under way is played after the pause")
        time.sleep(1.5)
        self.assertEqual(len(h.state(d)["moves"]), n, "no turn is played while paused")
        self.assertTrue(h.state(d)["paused"])
        # Both committed: the page verifies both openings of the last turn shown. Checked once
        # paused: while two depth-1 engines play on, each new turn redraws the verdicts before
        # the hash of the last one can be shown.
        for i in (0, 1):
            h.wait(d, lambda d: d.find_element("id", f"verify-{i}").get_attribute("data-verified") == "true",
                   what=f"the verdict on seat {i}")
        d.find_element("id", "pause").click()
        h.wait(d, lambda d: len(h.state(d)["moves"]) > n or h.state(d)["result"], what="play resumed")
        self.assertIsNotNone(rv)
        # Two depth-1 engines can shuffle horsemen for the whole turn cap: stop them.
        new_game(d, "gladiator", "person", "engine:0")

    def test_requests_without_the_token_or_from_another_origin_are_refused(self):
        s = self.s

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
        d = self.d
        other = f"http://localhost:{s.port}/?token={s.token}"
        d.get(f"http://127.0.0.1:{s.port}/?token={s.token}")
        code = d.execute_script(
            "return new Promise(res => { const w = new WebSocket('ws://127.0.0.1:' + arguments[0] + '/ws');"
            " w.onopen = () => res('open'); w.onerror = () => res('refused'); })", s.port)
        self.assertEqual(code, "refused")
        self.assertTrue(other)


    def test_brawl_relocation_of_a_captured_supporter(self):
        d = self.d
        # White's pawn b2 moves as the rook a1 behind it and lands on Black's knight b5.
        new_game(d, "brawl", "person", "engine:0", "7k/6p1/8/1n6/8/8/1P6/R6K w - - 0 1")
        h.wait(d, lambda d: my_turn(d), what="White's turn")
        self.click_to("b2", "b5")
        # The knight is White's to place: any vacant square of the board once the pawn has
        # landed (b2 included), i.e. all but the five squares the pieces stand on.
        e = h.wait(d, lambda d: (lambda e: e if e["legs"] == ["b2b5"] and e["next"] else None)(entry(d)),
                   what="the relocation part")
        self.assertFalse(e["complete"], "the relocation is part of the turn")
        self.assertEqual(e["lifted"], "b5")
        taken = {"b5", "a1", "h1", "h8", "g7"}
        every = {f + str(r) for f in "abcdefgh" for r in range(1, 9)}
        self.assertEqual(set(h.targets(d)), every - taken)
        text = d.find_element("id", "choices").text
        self.assertIn("Part 2", text)
        self.assertIn("place the captured knight on any marked square", text)
        # The captured knight is off the board while it waits to be placed.
        self.assertIsNone(d.execute_script(
            "return document.querySelector('#board g.piece[data-piece=\"n\"]')"))
        h.shot(d, "brawl-relocation", doc="brawl")
        h.click_square(d, "h5")
        # Then the optional supporter move, which may be left out.
        e = h.wait(d, lambda d: (lambda e: e if e["legs"] == ["b2b5", "b5h5"] and e["next"] else None)(entry(d)),
                   what="the optional supporter part")
        self.assertTrue(e["complete"])
        self.assertTrue(all(l[:2] in ("a1", "h1") for l in e["next"]), e["next"])
        self.assertEqual(d.execute_script(
            "return document.querySelector('#board g.piece[data-sq=\"h5\"]').dataset.piece"), "n")
        # A state message re-renders the page between a person's sight of the button and the
        # press: the button must still be the one pressed (it was replaced once, and the click
        # was lost: StaleElementReferenceException here).
        finish = d.find_element("id", "finish")
        d.execute_script("window.quillTest.render()")
        finish.click()
        st = h.wait(d, lambda d: h.state(d)["moves"] and h.state(d), what="the turn played")
        self.assertEqual(st["moves"][0]["turn"], "b2b5,b5h5")
        self.assertEqual(st["moves"][0]["words"][0][:4], "You:")
        h.wait(d, lambda d: len(h.state(d)["moves"]) >= 2, what="Quill's reply")
        pieces = h.state(d)["pieces"]
        self.assertEqual(pieces.get("b5"), "P")
        self.assertNotIn("b2", pieces)
        self.assertIn("n", pieces.values())

    def test_pagan_promotion_with_the_choice_shown(self):
        d = self.d
        fen = "k6/7/1P5/7/6K/*******/*******/*5*/*5*/*5*/*5* w - - 0 1"
        new_game(d, "pagan", "person", "engine:0", fen)
        h.wait(d, lambda d: my_turn(d), what="White's turn")
        # a9 is seed a3, one of Black's original squares: the pawn must promote there.
        self.click_to("b9", "a9")
        e = h.wait(d, lambda d: (lambda e: e if e["legs"] == ["b9a9"] and e["promotions"] else None)(entry(d)),
                   what="the promotion choice")
        self.assertEqual(sorted(e["promotions"]), ["a", "g", "w"])
        self.assertFalse(e["complete"], "a pawn on a9 must promote")
        buttons = d.execute_script(
            "return [...document.querySelectorAll('button.promotion')].map(b => [b.dataset.piece, b.textContent])")
        self.assertEqual(sorted(b[0] for b in buttons), ["a", "g", "w"])
        self.assertIn("promote to pagan", [b[1] for b in buttons])
        h.shot(d, "pagan-promotion")
        d.execute_script("document.querySelector(\"button.promotion[data-piece='g']\").click()")
        st = h.wait(d, lambda d: h.state(d)["moves"] and h.state(d), what="the promotion played")
        self.assertEqual(st["moves"][0]["turn"], "b9a9g")
        self.assertIn("promoting to pagan", st["moves"][0]["words"][0])
        self.assertEqual(st["pieces"].get("a9"), "G")
        self.assertNotIn("b9", st["pieces"])

    def test_apocalypse_classic_redeploy_in_a_sealed_turn(self):
        d = self.d
        # White has two horsemen, so d4-d5 must name a redeploy square (Elliott's rule).
        new_game(d, "apocalypse-classic", "person", "engine:0", "5/3Pp/5/P1n2/N3N")
        dig = h.wait(d, lambda d: (lambda x: x["digest"] if x["state"] == "committed" else None)(
            h.state(d)["seats"][1]["half"]), what="Quill's commitment")
        h.wait(d, lambda d: my_turn(d), what="White's sealed move")
        self.click_to("d4", "d5")
        e = h.wait(d, lambda d: (lambda e: e if e["legs"] == ["d4d5"] and e["next"] else None)(entry(d)),
                   what="the redeploy part")
        self.assertFalse(e["complete"], "a promotion with two horsemen needs a redeploy")
        # Any square vacant once the footman has left (d4 included), not on the far rank.
        vacant = {"a4", "b4", "c4", "d4", "a3", "b3", "c3", "d3", "e3", "b2", "d2", "e2", "b1", "c1", "d1"}
        self.assertEqual({l[2:] for l in e["next"]}, vacant)
        self.assertTrue(all(l[:2] == "d5" for l in e["next"]))
        self.assertIn("redeploy the footman", d.find_element("id", "choices").text)
        h.shot(d, "apocalypse-classic-redeploy", doc="apocalypse-classic")
        h.click_square(d, "b3")
        rv = h.wait(d, lambda d: h.state(d)["reveal"], what="the reveal")
        self.assertEqual(rv["moves"][0], "d4d5,d5b3")
        o = rv["openings"][1]
        self.assertEqual(o["digest"], dig)
        ours = hashlib.sha256(f"quill-sealed-v1:{o['move']}:{o['nonce']}".encode()).hexdigest()
        self.assertEqual(ours, dig)
        v = h.wait(d, lambda d: d.execute_script(
            "const e = document.getElementById('verify-1');"
            "return e && e.dataset.verified !== 'pending' ? e.dataset.verified : null"), what="the verdict")
        self.assertEqual(v, "true")
        words = " ".join(rv["words"])
        self.assertIn("redeployed to b3", words)
        self.assertNotIn("did not survive", words)
        h.shot(d, "apocalypse-classic")
        pieces = h.state(d)["pieces"]
        self.assertEqual(pieces.get("b3"), "P")
        self.assertNotIn("d5", pieces)
        # For 1.5 s after a reveal the board shows the pair before it resolved, while the
        # next move is already entered on the position after it. A touch on the board then
        # must draw that position, not leave the person acting on a board that is not the one
        # their move is judged on.
        h.wait(d, lambda d: my_turn(d), what="White's next sealed move")
        h.wait(d, lambda d: not d.execute_script("return window.quillTest.revealStage.showBefore"),
               what="the reveal's first board to end")
        d.execute_script("window.quillTest.replayReveal()")
        drawn = lambda d: d.execute_script(
            "return Object.fromEntries([...document.querySelectorAll('#board g.piece')]"
            ".map(g => [g.dataset.sq, g.dataset.piece]))")
        st = h.state(d)
        self.assertNotEqual(st["reveal"]["before"], st["pieces"])
        self.assertEqual(drawn(d), st["reveal"]["before"], "the board before the turn")
        frm = entry(d)["next"][0][:2]
        h.click_square(d, frm)
        h.wait(d, lambda d: entry(d)["lifted"] == frm, what=f"{frm} lifted")
        self.assertFalse(d.execute_script("return window.quillTest.revealStage.showBefore"))
        self.assertEqual(drawn(d), st["pieces"], "the board after the turn, on which the move is entered")


class PersonClock(unittest.TestCase):
    def test_the_persons_clock_runs_down_and_flags(self):
        s = h.Server("--engine", FAST, "--person-tc", "6", "--variant", "gladiator")
        d = None
        try:
            d = open_page(s)
            new_game(d, "gladiator", "person", "engine:0")
            h.wait(d, lambda d: my_turn(d), what="White's turn")
            h.wait_rendered(d)
            clock = lambda d: d.execute_script(
                "return document.querySelector('.seat[data-seat=\"0\"] .clock').textContent")
            first = h.wait(d, lambda d: clock(d), what="the clock shown")
            time.sleep(1.2)
            later = clock(d)
            secs = lambda t: int(t.split(":")[0]) * 60 + float(t.split(":")[1])
            self.assertLess(secs(later), secs(first) - 0.5, (first, later))
            self.assertLessEqual(secs(first), 6.0)
            r = h.wait(d, lambda d: h.state(d)["result"], timeout=15, what="the flag")
            self.assertEqual(r["result"], "0-1")
            self.assertEqual(r["termination"], "time forfeit")
            self.assertIn("lost on time", r["reason"])
            h.wait_rendered(d)
            self.assertIn("lost on time", d.find_element("id", "result").text)
            self.assertIn("quill (Black) wins", d.find_element("id", "result").text)
            self.assertEqual(secs(clock(d)), 0.0)
            h.shot(d, "person-flag")
        finally:
            if d:
                h.close(d)
            s.stop()


if __name__ == "__main__":
    unittest.main()
