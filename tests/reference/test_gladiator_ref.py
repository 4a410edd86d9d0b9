"""Hand-worked checks of gladiator_ref.py against protocol-docs/rules.md (a copy of the project's binding rules) section 2.

Run from this folder:  python3 -m unittest test_gladiator_ref
Every expected move list and FEN below was worked out by hand from the rules text (the diagonal
walks are written out in the comments), not produced by the code.  FEN rows list rank 8 first.
"""

import io
import json
import os
import random
import subprocess
import sys
import unittest

import gladiator_ref as ref

G, B = ref.GLADIATOR, ref.BRAWL
HERE = os.path.dirname(os.path.abspath(__file__))


def pawn_targets(fen, variant, square):
    """Sorted destination names of the pawn on `square`."""
    pos = ref.parse_fen(fen)
    return sorted(ref.sq_name(to) for frm, to in ref.pawn_moves(pos.board, pos.side, variant)
                  if ref.sq_name(frm) == square)


def run(variant, fen, *turns):
    """Applies turns; returns (fen, result, error)."""
    pos, err = ref.apply_turns(ref.parse_fen(fen), variant, list(turns))
    return ref.to_fen(pos), ref.result(pos, variant), err


class StartPosition(unittest.TestCase):
    # White: Ra1 Nb1 Bc1 Qd1 Ke1 Bf1 Ng1 Rh1, pawns b2-g2, b3, g3; a2 and h2 are empty.
    # Diagonal walks (first piece met):
    #   b2: a1=R, c1=B, a3 then off the board, c3-d4-e5-f6-g7=black pawn  -> powered by R, B
    #   c2: b1=N, d1=Q, b3=own pawn, d3-e4-f5-g6=black pawn                -> N, Q
    #   d2: c1=B, e1=K, c3-b4-a5 off, e3-f4-g5-h6 off                      -> B, K
    #   e2: d1=Q, f1=B, d3-c4-b5-a6 off, f3-g4-h5 off                      -> Q, B
    #   f2: e1=K, g1=N, e3-d4-c5-b6=black pawn, g3=own pawn                -> K, N
    #   g2: f1=B, h1=R, f3-...-b7=black pawn, h3 off                       -> B, R
    #   b3: a2 off, a4 off, c2=own pawn, c4-d5-e6-f7=black pawn            -> cannot move
    #   g3: h2 off, h4 off, f2=own pawn, f4-e5-d6-c7=black pawn            -> cannot move
    GLADIATOR_MOVES = {
        # bishop from b2: c3..f6 empty, g7 a black pawn (capture, and the slide stops); a3 border.
        # rook from b2: b3/c2/b1 own pieces, a2 border.
        "b2": "c3 d4 e5 f6 g7",
        # knight from c2: b4 d4 e3 (a3 border, a1/e1 own); queen: c3-c7 (c7 capture, c8 not
        # reached), d3-e4-f5-g6 (capture), everything else own pieces.
        "c2": "b4 c3 c4 c5 c6 c7 d3 d4 e3 e4 f5 g6",
        # bishop from d2: c3 b4 (a5 border), e3 f4 g5 (h6 border); king: c3 d3 e3.
        "d2": "b4 c3 d3 e3 f4 g5",
        # queen from e2: e3-e7 (e7 capture), d3 c4 b5 (a6 border), f3 g4 (h5 border).
        "e2": "b5 c4 d3 e3 e4 e5 e6 e7 f3 g4",
        # knight from f2: d3 e4 g4 (h3 border, d1/h1 own); king: e3 f3.
        "f2": "d3 e3 e4 f3 g4",
        # bishop from g2: f3 e4 d5 c6 b7 (capture); h3 border; rook: h2 border, rest own.
        "g2": "b7 c6 d5 e4 f3",
        "b3": "",
        "g3": "",
    }
    # Brawl: no arena, so the border squares listed above come back.
    BRAWL_EXTRA = {"b2": "a2 a3", "c2": "a3", "d2": "a5 h6", "e2": "a6 h5", "f2": "h3",
                   "g2": "h2 h3"}

    def test_start_fen(self):
        pos = ref.parse_fen("startpos")
        self.assertEqual(ref.to_fen(pos), ref.START_FEN)
        self.assertEqual(ref.to_fen(ref.parse_fen("rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR")),
                         "rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR w - - 0 1")
        self.assertIsNone(ref.result(pos, G))

    def test_white_pawn_moves_gladiator(self):
        for sq, dests in self.GLADIATOR_MOVES.items():
            self.assertEqual(pawn_targets("startpos", G, sq), sorted(dests.split()), sq)
        pos = ref.parse_fen("startpos")
        self.assertEqual(len(ref.pawn_moves(pos.board, ref.WHITE, G)), 43)  # 5+12+6+10+5+5

    def test_white_pawn_moves_brawl(self):
        for sq, dests in self.GLADIATOR_MOVES.items():
            want = sorted(dests.split() + self.BRAWL_EXTRA.get(sq, "").split())
            self.assertEqual(pawn_targets("startpos", B, sq), want, sq)
        pos = ref.parse_fen("startpos")
        self.assertEqual(len(ref.pawn_moves(pos.board, ref.WHITE, B)), 53)  # 43 + 10

    def test_black_mirrors_white(self):
        pos = ref.parse_fen("rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR b - - 0 1")
        self.assertEqual(len(ref.pawn_moves(pos.board, ref.BLACK, G)), 43)
        self.assertEqual(len(ref.pawn_moves(pos.board, ref.BLACK, B)), 53)

    def test_perft1_gladiator(self):
        # Each of the 43 pawn moves, then none or one of 8 supporters jumping to one of the
        # 12 vacant border squares (a2-a7, h2-h7): 43 * (1 + 8*12) = 4171.
        self.assertEqual(ref.perft(ref.parse_fen("startpos"), G, 1), 43 * 97)
        self.assertEqual(len(ref.legal_tokens(ref.parse_fen("startpos"), G)), 4171)

    def test_brawl_second_parts_after_b2c3(self):
        # After b2c3: Ra1 a2-a7 (6), Nb1 a3 (c3 own, d2 own), Bc1 b2 a3, Ng1 f3 h3, Rh1 h2-h7 (6);
        # Qd1, Ke1, Bf1 are boxed in. 17 moves + the bare pawn move = 18 turns.
        toks = [t for t in ref.legal_tokens(ref.parse_fen("startpos"), B) if t.startswith("b2c3")]
        self.assertEqual(len(toks), 18)
        self.assertIn("b2c3,c1a3", toks)
        self.assertNotIn("b2c3,b1c3", toks)  # would land on the pawn: supporters capture nothing

    def test_border_rule(self):
        # rules: "It may never end on the border" (Gladiator) / "No arena" (Brawl).
        g = ref.legal_tokens(ref.parse_fen("startpos"), G)
        b = ref.legal_tokens(ref.parse_fen("startpos"), B)
        for tok in ("b2a3", "b2a2", "e2a6", "g2h2", "f2h3"):
            self.assertNotIn(tok, g)
            self.assertIn(tok, b)
        # A Gladiator jump goes to a vacant border square only: a2 yes, c3 (arena) no.
        self.assertIn("c2c3,a1a2", g)
        self.assertNotIn("c2c3,a1c4", g)

    def test_gladiator_jump_targets(self):
        g = set(ref.legal_tokens(ref.parse_fen("startpos"), G))
        self.assertIn("c2c3,b1a3", g)   # jumps are not knight moves: any vacant border square
        self.assertIn("c2c3,e1h7", g)
        self.assertNotIn("c2c3,e1a8", g)  # a8 holds a black rook: not vacant
        self.assertNotIn("c2c3,b3a4", g)  # b3 is a pawn, not a supporter


class PawnPower(unittest.TestCase):
    # White Ra1, Ke1, pawn d4; Black Ke8, pawn d5.  d4's diagonals: c3-b2-a1=R; e3-f2-g1 off;
    # c5-b6-a7 off; e5-f6-g7-h8 off -> rook power only.
    ROOK = "4k3/8/8/3p4/3P4/8/8/R3K3 w - - 0 1"

    def test_rook_powered_pawn_moves_backwards_and_sideways(self):
        # rook from d4: up d5 (black pawn: capture, stop); down d3 d2 (d1 border); left c4 b4 (a4
        # border); right e4 f4 g4 (h4 border).
        self.assertEqual(pawn_targets(self.ROOK, G, "d4"), "b4 c4 d2 d3 d5 e4 f4 g4".split())
        self.assertEqual(pawn_targets(self.ROOK, B, "d4"),
                         "a4 b4 c4 d1 d2 d3 d5 e4 f4 g4 h4".split())
        fen, res, err = run(G, self.ROOK, "d4d2")
        self.assertEqual((fen, res, err), ("4k3/8/8/3p4/8/8/3P4/R3K3 b - - 0 1", None, None))
        self.assertEqual(run(G, self.ROOK, "d4d1")[2], "0 d4d1")  # border

    def test_blocked_slide(self):
        # Own pawn on d3 stops the downward slide; d3 itself has no supporter on its diagonals
        # (c2-b1, e2-f1, c4-b5-a6, e4-f5-g6-h7 all empty).
        fen = "4k3/8/8/3p4/3P4/3P4/8/R3K3 w - - 0 1"
        self.assertEqual(pawn_targets(fen, G, "d4"), "b4 c4 d5 e4 f4 g4".split())
        self.assertEqual(pawn_targets(fen, G, "d3"), [])
        # A slide stops at an enemy pawn (captured) and goes no further: from the start, c2's
        # queen power takes c7 but never reaches c8.
        self.assertIn("c7", pawn_targets("startpos", G, "c2"))
        self.assertNotIn("c8", pawn_targets("startpos", B, "c2"))

    def test_knight_powered_leap(self):
        # c2 is walled in by own pawns b2 d2 b3 c3 d3; Nb1 on its diagonal lends the knight leap.
        # c2's other diagonals: d1-e0 off, b3 own, d3 own.  Knight from c2: a1 a3 b4 d4 e1 e3.
        fen = "4k3/8/8/3p4/8/1PPP4/1PPP4/1N6 w - - 0 1"
        self.assertEqual(pawn_targets(fen, G, "c2"), "b4 d4 e3".split())
        self.assertEqual(pawn_targets(fen, B, "c2"), "a1 a3 b4 d4 e1 e3".split())
        fen2, _, err = run(G, fen, "c2e3")
        self.assertIsNone(err)
        self.assertEqual(fen2, "4k3/8/8/3p4/8/1PPPP3/1P1P4/1N6 b - - 0 1")

    def test_no_landing_on_supporters_in_gladiator(self):
        # Bishop-powered d4 (Ba1) would reach g7 where a black knight stands.
        fen = "8/6n1/8/7p/3P4/8/8/B7 w - - 0 1"
        self.assertEqual(pawn_targets(fen, G, "d4"), "b2 b6 c3 c5 e3 e5 f2 f6".split())
        self.assertIn("g7", pawn_targets(fen, B, "d4"))
        self.assertNotIn("g1", pawn_targets(fen, G, "d4"))

    def test_enemy_supporter_does_not_power(self):
        # A black king on c3 sits on d4's diagonal: it blocks and does not power the white pawn.
        fen = "8/8/8/3p4/3P4/2k5/8/R3K3 w - - 0 1"
        self.assertEqual(pawn_targets(fen, G, "d4"), [])


class ForcedJump(unittest.TestCase):
    # White Ra8, pawn d4; Black Ke8, pawn b4.  d4's diagonals are empty out to a1, g1, a7, h8, so
    # White has no pawn move and must jump; only jumps onto a1, a7, g1 or h8 give d4 a rook.
    FEN = "R3k3/8/8/8/1p1P4/8/8/8 w - - 0 1"

    def test_jump_must_restore_a_pawn_move(self):
        self.assertEqual(ref.legal_tokens(ref.parse_fen(self.FEN), G),
                         ["a8a1", "a8a7", "a8g1", "a8h8"])
        fen, res, err = run(G, self.FEN, "a8g1")
        self.assertEqual((fen, res, err), ("4k3/8/8/8/1p1P4/8/8/6R1 b - - 1 1", None, None))
        self.assertEqual(run(G, self.FEN, "a8b8")[2], "0 a8b8")

    def test_any_jump_when_none_helps(self):
        # Black pawns c5 e5 c3 e3 close all four diagonals of d4: the rook may jump to any of the
        # 26 vacant border squares (28 minus a8 and e8).
        fen = "R3k3/8/8/2p1p3/3P4/2p1p3/8/8 w - - 0 1"
        toks = ref.legal_tokens(ref.parse_fen(fen), G)
        self.assertEqual(len(toks), 26)
        self.assertIn("a8b8", toks)

    def test_brawl_forced_supporter_move(self):
        # Nb1 can go to a3, c3, d2; only c3 is on d4's diagonal.
        fen = "8/7p/8/8/3P4/8/8/1N6 w - - 0 1"
        self.assertEqual(ref.legal_tokens(ref.parse_fen(fen), B), ["b1c3"])
        # With c3 taken by a black pawn, no move helps: all of the knight's moves (a3, d2).
        fen = "8/7p/8/8/3P4/2p5/8/1N6 w - - 0 1"
        self.assertEqual(ref.legal_tokens(ref.parse_fen(fen), B), ["b1a3", "b1d2"])


class BrawlPlacement(unittest.TestCase):
    # White Ba1, pawn d4; Black knight g7, pawn h5.  d4 is bishop-powered; the slide e5-f6-g7
    # lands on the black knight.
    FEN = "8/6n1/8/7p/3P4/8/8/B7 w - - 0 1"

    def test_placement_leg(self):
        toks = set(ref.legal_tokens(ref.parse_fen(self.FEN), B))
        self.assertNotIn("d4g7", toks)          # the placement is part of the turn
        self.assertIn("d4g7,g7d4", toks)        # the square the pawn left is allowed
        self.assertNotIn("d4g7,g7a1", toks)     # occupied
        self.assertNotIn("d4g7,g7g7", toks)     # the pawn stands there now
        # 64 squares minus Ba1, Pg7, ph5 = 61 placements.
        self.assertEqual(len([t for t in toks if t.startswith("d4g7,g7") and t.count(",") == 1]), 61)

    def test_supporter_move_sees_placed_piece(self):
        toks = set(ref.legal_tokens(ref.parse_fen(self.FEN), B))
        self.assertIn("d4g7,g7d4,a1c3", toks)
        self.assertNotIn("d4g7,g7d4,a1e5", toks)  # the knight placed on d4 blocks the bishop
        self.assertIn("d4g7,g7h3,a1e5", toks)     # d4 was vacated by the pawn
        fen, res, err = run(B, self.FEN, "d4g7,g7d4,a1c3")
        self.assertEqual((fen, res, err), ("8/6P1/8/7p/3n4/2B5/8/8 b - - 0 1", None, None))


class EndOfGame(unittest.TestCase):
    def test_win(self):
        # rules: "a player whose last pawn is captured has lost".
        fen, res, err = run(G, PawnPower.ROOK, "d4d5")
        self.assertEqual((fen, res, err), ("4k3/8/8/3P4/8/8/8/R3K3 b - - 0 1", "1-0", None))
        fen, res, err = run(G, PawnPower.ROOK, "d4d5,a1a2")
        self.assertEqual((fen, res, err), ("4k3/8/8/3P4/8/8/R7/4K3 b - - 0 1", "1-0", None))
        # A finished game has no turns and no perft children.
        pos = ref.parse_fen("4k3/8/8/3P4/8/8/8/R3K3 b - - 0 1")
        self.assertEqual(ref.legal_tokens(pos, G), [])
        self.assertEqual(ref.perft(pos, G, 2), 0)
        self.assertEqual(run(G, PawnPower.ROOK, "d4d5", "e8d8")[2], "1 e8d8")

    def test_four_turn_draw(self):
        # White Rf8 Bh8 Nh6 Kd1 pawn b2; Black ba1 rc1 na3 ke8 pawn g7.  b2's diagonals: a1, c1,
        # a3 black pieces, c3..f6 then the black pawn g7; g7's: h8, f8, h6 white pieces, f6..c3
        # then b2.  Neither side has a pawn move and, while the kings shuttle (d1/e1 and e8/d8
        # are on no pawn's diagonal), no jump can give one: every jump is allowed.
        fen0 = "4kR1B/6p1/7N/8/8/n7/1P6/b1rK4 w - - 0 1"
        pos = ref.parse_fen(fen0)
        self.assertEqual(len(ref.legal_tokens(pos, G)), 4 * 20)  # 28 - 8 vacant border squares
        self.assertEqual(run(G, fen0, "d1e1", "e8d8", "e1d1"),
                         ("3k1R1B/6p1/7N/8/8/n7/1P6/b1rK4 b - - 3 2", None, None))
        self.assertEqual(run(G, fen0, "d1e1", "e8d8", "e1d1", "d8e8"),
                         ("4kR1B/6p1/7N/8/8/n7/1P6/b1rK4 w - - 4 3", "1/2-1/2", None))
        self.assertEqual(run(G, fen0, "d1e1", "e8d8", "e1d1", "d8e8", "d1e1")[2], "4 d1e1")
        # Moving Rf8 away would open g7's diagonal: Black's jump is then forced onto it.
        self.assertEqual(ref.legal_tokens(ref.parse_fen(run(G, fen0, "f8g8")[0]), G),
                         ["a1f8", "a3f8", "c1f8", "e8f8"])
        # A pawn move resets the clock: from the start, 1 jump-free pawn turn gives 0.
        self.assertEqual(run(G, "startpos", "c2c3")[0],
                         "rnbqkbnr/1pppppp1/1p4p1/8/8/1PP3P1/1P1PPPP1/RNBQKBNR b - - 0 1")

    def test_fullmove_counter(self):
        # c7's diagonals: b8=n, d8=q -> queen power down the c-file; c6 is empty.
        fen, _, err = run(G, "startpos", "c2c3", "c7c6")
        self.assertIsNone(err)
        self.assertTrue(fen.endswith(" w - - 0 2"), fen)

    def test_no_legal_turn_draws(self):
        # White has a pawn but no supporter: no pawn move, no supporter move.
        self.assertEqual(ref.result(ref.parse_fen("4k3/8/8/3p4/3P4/8/8/8 w - - 0 1"), B),
                         "1/2-1/2")
        # The win check comes first.
        self.assertEqual(ref.result(ref.parse_fen("4k3/8/8/8/3P4/8/8/8 b - - 9 1"), B), "1-0")


class Consistency(unittest.TestCase):
    def test_random_games(self):
        rng = random.Random(7)
        for variant in (G, B):
            for _ in range(3):
                pos = ref.parse_fen("startpos")
                for _ in range(40):
                    turns = ref.legal_turns(pos, variant)
                    toks = [t for t, _ in turns]
                    self.assertEqual(len(toks), len(set(toks)))
                    self.assertEqual(len(toks), ref.count_turns(pos, variant))
                    if not turns:
                        self.assertIsNotNone(ref.result(pos, variant))
                        break
                    pos = rng.choice(turns)[1]
                    self.assertEqual(ref.to_fen(ref.parse_fen(ref.to_fen(pos))), ref.to_fen(pos))
                    for sq in ref.ALL_SQUARES:
                        piece = pos.at(sq)
                        if variant == G and piece != ref.EMPTY:
                            # pawns in the arena, supporters on the border
                            self.assertEqual(ref.is_pawn(piece), not ref.is_border(*sq))
                    # supporters are never removed (8 a side)
                    flat = "".join("".join(row) for row in pos.board)
                    self.assertEqual(sum(flat.count(c) for c in "NBRQK"), 8)
                    self.assertEqual(sum(flat.count(c) for c in "nbrqk"), 8)


class CommandLine(unittest.TestCase):
    def cli(self, *args, stdin=None):
        return subprocess.run([sys.executable, os.path.join(HERE, "gladiator_ref.py")] + list(args),
                              input=stdin, capture_output=True, text=True, check=True).stdout

    def test_apply_and_errors(self):
        self.assertEqual(self.cli("gladiator", PawnPower.ROOK, "d4d5"),
                         "Fen: 4k3/8/8/3P4/8/8/8/R3K3 b - - 0 1\nResult: 1-0\n")
        self.assertEqual(self.cli("brawl", "startpos", "b2a2", "xx"), "Error: 1 xx\n")

    def test_perft_and_legal(self):
        out = self.cli("perft", "gladiator", "startpos", "1").splitlines()
        self.assertEqual(out[-1], "Nodes searched: 4171")
        self.assertEqual(out[0], "b2c3: 1")
        out = self.cli("legal", "gladiator", ForcedJump.FEN).splitlines()
        self.assertEqual(out, ["a8a1", "a8a7", "a8g1", "a8h8", "Total: 4"])

    def test_serve(self):
        reqs = [{"variant": "brawl", "fen": BrawlPlacement.FEN, "turns": ["d4g7,g7d4,a1c3"]},
                {"variant": "gladiator", "fen": ForcedJump.FEN, "turns": [], "perft": 1,
                 "legal": True},
                {"variant": "gladiator", "fen": "startpos", "turns": ["b3b4"]}]
        out = self.cli("serve", stdin="".join(json.dumps(r) + "\n" for r in reqs))
        replies = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(replies[0]["fen"], "8/6P1/8/7p/3n4/2B5/8/8 b - - 0 1")
        self.assertIsNone(replies[0]["error"])
        self.assertEqual(replies[1]["perft"], {"divide": {"a8a1": 1, "a8a7": 1, "a8g1": 1,
                                                          "a8h8": 1}, "nodes": 4})
        self.assertEqual(replies[1]["legal"], ["a8a1", "a8a7", "a8g1", "a8h8"])
        self.assertEqual(replies[2]["error"], "0 b3b4")
        self.assertEqual(replies[2]["fen"], ref.START_FEN)


if __name__ == "__main__":
    unittest.main()
