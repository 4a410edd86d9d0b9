"""Hand-worked checks of the reference implementation against protocol-docs/rules.md (a copy of the project's binding rules) section 1.

Run from this folder:  python3 -m unittest
Every expected FEN below was worked out by hand from the rules text, not produced by the code.
FEN boards list rank 5 first; White upper case.
"""

import io
import json
import unittest

import apocalypse_ref as ref

SEED, CLASSIC = ref.SEED, ref.CLASSIC


def run(rules, fen, *turns):
    """Applies joint turns; returns (fen, result, error)."""
    pos, err = ref.apply_turns(ref.parse_fen(fen), rules, list(turns))
    return ref.to_fen(pos), ref.result(pos, rules), err


class StartPosition(unittest.TestCase):
    def test_nine_moves_each_and_perft1(self):
        for rules in (SEED, CLASSIC):
            pos = ref.parse_fen("startpos")
            self.assertEqual(ref.legal_moves(pos, ref.WHITE, rules),
                             "a1b3 a1c2 a2a3 b1b2 c1c2 d1d2 e1c2 e1d3 e2e3".split())
            self.assertEqual(len(ref.legal_moves(pos, ref.BLACK, rules)), 9)
            self.assertEqual(ref.perft(pos, rules, 1), 81)
            self.assertEqual(ref.to_fen(pos), "npppn/p3p/5/P3P/NPPPN w - - 0 1 0/0")

    def test_fen_defaults(self):
        self.assertEqual(ref.to_fen(ref.parse_fen("npppn/p3p/5/P3P/NPPPN")), ref.START_FEN)


class Resolution(unittest.TestCase):
    def test_swap(self):
        # "Two pieces that capture each other swap squares and both survive." No footman moved,
        # nothing removed: Q 0 -> 1.
        self.assertEqual(run(SEED, "4p/5/2n2/5/PN3", "b1c3|c3b1"),
                         ("4p/5/2N2/5/Pn3 w - - 1 2 0/0", None, None))

    def test_escape(self):
        # Horseman takes c3, but the footman there stepped away to c2: it escapes.
        self.assertEqual(run(SEED, "4p/5/2p2/5/PN3", "b1c3|c3c2"),
                         ("4p/5/2N2/2p2/P4 w - - 0 2 0/0", None, None))

    def test_illegal_move_is_void_and_piece_can_be_captured(self):
        # c3c1 is a wrong shape: void, 1 point; the footman stayed on c3 and is captured.
        self.assertEqual(run(SEED, "4p/5/2p2/5/PN3", "b1c3|c3c1"),
                         ("4p/5/2N2/5/P4 w - - 0 2 0/1", None, None))

    def test_horseman_beats_footman_in_collision(self):
        self.assertEqual(run(SEED, "p4/4n/5/2P2/P4", "c2c3|e4c3"),
                         ("p4/5/2n2/5/P4 w - - 0 2 0/0", None, None))

    def test_footmen_collide_both_removed(self):
        self.assertEqual(run(SEED, "4p/2p2/5/2P2/P4", "c2c3|c4c3"),
                         ("4p/5/5/5/P4 w - - 0 2 0/0", None, None))

    def test_horsemen_collide_both_removed(self):
        # b1 and d5 both reach c3 (empty); same type: both removed.
        self.assertEqual(run(SEED, "3np/5/5/5/PN3", "b1c3|d5c3"),
                         ("4p/5/5/5/P4 w - - 0 2 0/0", None, None))

    def test_diagonal_footman_target_moved_away(self):
        # b2c3 is legal (enemy on c3 at the start); the horseman leaves, the footman still steps.
        self.assertEqual(run(SEED, "4p/5/2n2/1P3/P4", "b2c3|c3e4"),
                         ("4p/4n/2P2/5/P4 w - - 0 2 0/0", None, None))

    def test_off_board_texts_are_moves_with_penalties(self):
        self.assertEqual(run(SEED, "startpos", "z9a1|a0a1"),
                         ("npppn/p3p/5/P3P/NPPPN w - - 1 2 1/1", None, None))

    def test_footmen_collide_from_start(self):
        # a2a3 and a4a3 both end on the empty a3: both footmen removed.
        self.assertEqual(run(SEED, "startpos", "a2a3|a4a3")[0],
                         "npppn/4p/5/4P/NPPPN w - - 0 2 0/0")

    def test_protocol_errors(self):
        for turn in ("a2a3q|a4a3", "a2a3,a3a4,a4a5|a4a3", "a2a3", "a2a3|a4a3|a4a3",
                     "A2A3|a4a3", "pass|a4a3", "0000,a2a3|a4a3"):
            self.assertEqual(run(SEED, "startpos", "a2a3|a4a3", turn)[2], "1 " + turn)


class Promotion(unittest.TestCase):
    def test_promotes_with_fewer_than_two_horsemen(self):
        # White has one horseman: d4d5 becomes a horseman (both rule sets; in classic White
        # has two footmen so this is not "your only footman").
        for rules in (SEED, CLASSIC):
            self.assertEqual(run(rules, "5/p2P1/5/5/P3N", "d4d5|a4a3"),
                             ("3N1/5/p4/5/P3N w - - 0 2 0/0", None, None))

    def test_seed_stuck_footman(self):
        # Two horsemen: in the seed rules the footman stays on d5, and can never move again.
        fen, res, err = run(SEED, "5/p2P1/5/P4/N3N", "d4d5|a4a3")
        self.assertEqual(fen, "3P1/5/p4/P4/N3N w - - 0 2 0/0")
        white = ref.legal_moves(ref.parse_fen(fen), ref.WHITE, SEED)
        self.assertFalse([m for m in white if m.startswith("d5")])

    def test_seed_forced_pass(self):
        # White's only piece is stuck: the only legal move is 0000, with no penalty.
        pos = ref.parse_fen("3P1/p4/5/5/5")
        self.assertEqual(ref.legal_moves(pos, ref.WHITE, SEED), ["0000"])
        self.assertEqual(run(SEED, "3P1/p4/5/5/5", "0000|a4a3"),
                         ("3P1/5/p4/5/5 w - - 0 2 0/0", None, None))
        # A pass while a legal move exists costs a point.
        self.assertEqual(run(SEED, "startpos", "0000|a4a3")[0],
                         "npppn/4p/p4/P3P/NPPPN w - - 0 2 1/0")
        # Classic: a player without a legal move means the game is drawn.
        self.assertEqual(run(CLASSIC, "3P1/p4/5/5/5")[1], "1/2-1/2")
        self.assertEqual(run(CLASSIC, "3P1/p4/5/5/5", "0000|a4a3")[2], "0 0000|a4a3")
        # Seed: neither can move -> draw.
        self.assertEqual(run(SEED, "3P1/5/5/5/3p1")[1], "1/2-1/2")


class ClassicRedeploy(unittest.TestCase):
    START = "4n/p2P1/5/P4/N3N"  # White: 2 horsemen, footmen d4 and a2

    def test_redeploy(self):
        # With two horsemen the footman reaching d5 must be put on a vacant square (b3).
        self.assertEqual(run(CLASSIC, self.START, "d4d5,d5b3|a4a3"),
                         ("4n/5/pP3/P4/N3N w - - 0 2 0/0", None, None))

    def test_bad_redeploys_are_illegal(self):
        void = "4n/3P1/p4/P4/N3N w - - 0 2 1/0"  # White's move void, Black's a4a3 played
        for bad in ("d4d5", "d4d5,d5a2", "d4d5,d5c5", "d4d5,d4b3", "d4d5,d5f3"):
            self.assertEqual(run(CLASSIC, self.START, bad + "|a4a3")[0], void, bad)
        # Seed: any two-leg move is illegal; the single leg is legal and stays a footman.
        self.assertEqual(run(SEED, self.START, "d4d5,d5b3|a4a3")[0], void)

    def test_redeploy_to_origin_collides(self):
        # The black horseman attacks d4; White redeploys back onto d4: collision, horseman wins.
        self.assertEqual(run(CLASSIC, "1p3/3P1/5/P1n2/N3N", "d4d5,d5d4|c2d4"),
                         ("1p3/3n1/5/P4/N3N w - - 0 2 0/0", None, None))

    def test_diagonal_promotion_captures_then_redeploys(self):
        # d4xe5 takes the horseman that stayed, then the footman is redeployed to its origin d4.
        self.assertEqual(run(CLASSIC, "1p2n/3P1/5/P4/N3N", "d4e5,e5d4|b5b4"),
                         ("5/1p1P1/5/P4/N3N w - - 0 2 0/0", None, None))
        # The horseman moved away: it escapes, and the footman is still redeployed.
        self.assertEqual(run(CLASSIC, "1p2n/3P1/5/P4/N3N", "d4e5,e5d4|e5c4"),
                         ("1p3/2nP1/5/P4/N3N w - - 0 2 0/0", None, None))

    def test_only_footman_may_not_promote(self):
        pos = ref.parse_fen("5/p2P1/5/5/4N")  # one footman, one horseman
        self.assertNotIn("d4d5", ref.legal_moves(pos, ref.WHITE, CLASSIC))
        self.assertIn("d4d5", ref.legal_moves(pos, ref.WHITE, SEED))
        # Seed: it promotes and White, with no footman left, has lost.
        self.assertEqual(run(SEED, "5/p2P1/5/5/4N", "d4d5|a4a3")[1], "0-1")


class EndOfGame(unittest.TestCase):
    def test_two_penalties_lose(self):
        fen, res, err = run(SEED, "npppn/p3p/5/P3P/NPPPN w - - 0 1 1/0", "a2a4|a4a3")
        self.assertEqual((res, err), ("0-1", None))
        self.assertTrue(fen.endswith(" 2/0"))
        # The finished game takes no more turns and has no children.
        self.assertEqual(run(SEED, fen, "a2a3|e4e3")[2], "0 a2a3|e4e3")
        self.assertEqual(ref.perft(ref.parse_fen(fen), SEED, 2), 0)

    def test_both_losing_is_a_draw(self):
        self.assertEqual(run(SEED, "npppn/p3p/5/P3P/NPPPN w - - 0 1 1/1", "a1a1|a5a5")[1],
                         "1/2-1/2")
        # Last footmen collide: both have no footmen.
        self.assertEqual(run(CLASSIC, "4n/2p2/5/2P2/N4", "c2c3|c4c3"),
                         ("4n/5/5/5/N4 w - - 0 2 0/0", "1/2-1/2", None))

    def test_no_footmen_beats_no_legal_move(self):
        for rules in (SEED, CLASSIC):
            self.assertEqual(run(rules, "3P1/5/5/5/n4")[1], "1-0")


class Server(unittest.TestCase):
    def test_serve(self):
        out = io.StringIO()
        req = {"rules": SEED, "fen": "startpos", "turns": ["a2a3|e4e3"], "perft": 1}
        ref.serve(io.StringIO(json.dumps(req) + "\n"), out)
        reply = json.loads(out.getvalue())
        self.assertEqual(reply["fen"], "npppn/p4/P3p/4P/NPPPN w - - 0 2 0/0")
        self.assertIsNone(reply["error"])
        self.assertEqual(reply["perft"]["nodes"], sum(reply["perft"]["divide"].values()))


if __name__ == "__main__":
    unittest.main()
