"""Hand-worked checks of pagan_ref.py against protocol-docs/rules.md (a copy of the project's binding rules) section 3 (Pagan Chess).

Run from this folder:  python3 -m unittest test_pagan_ref
Every expected move list and board below was worked out by hand from the rules text (the reasoning
is written in the comments), not produced by the code.  Squares are FRAME squares: game board
ranks 7-11 (seed 1-5), bridge ranks 5-6 (holes), dead board ranks 1-4 on files b-f (seed -1..-4).
Reincarnation order in frame squares:
    White f4 f3 e4 e3 d4 d3 c4 c3 b4 b3, then f2 f1 e2 e1 d2 d1 c2 c1 b2 b1
    Black b4 b3 c4 c3 d4 d3 e4 e3 f4 f3, then b2 b1 c2 c1 d2 d1 e2 e1 f2 f1
"""

import io
import json
import os
import subprocess
import sys
import unittest

import pagan_ref as ref

HERE = os.path.dirname(os.path.abspath(__file__))


def make_fen(pieces, side="w", half=0, full=1):
    """pieces: {'g7': 'K', ...} in frame squares -> frame FEN (holes written as '*')."""
    rows = []
    for r in range(11, 0, -1):
        row, run = "", 0
        for f in "abcdefg":
            hole = r in (5, 6) or (r <= 4 and f in "ag")
            name = f + str(r)
            if hole or name in pieces:
                if run:
                    row += str(run)
                    run = 0
                row += "*" if hole else pieces[name]
            else:
                run += 1
        if run:
            row += str(run)
        rows.append(row)
    return "%s %s - - %d %d" % ("/".join(rows), side, half, full)


def board(pos):
    return {ref.sq_name(sq): p for sq, p in pos.board.items()}


def legal(pieces, side="w"):
    return ref.legal_tokens(ref.parse_fen(make_fen(pieces, side)))


def from_sq(tokens, sq):
    return sorted(t for t in tokens if t.startswith(sq) and not t[len(sq)].isdigit())


def play(pieces, side, *moves):
    pos, err = ref.apply_moves(ref.parse_fen(make_fen(pieces, side)), list(moves))
    assert err is None, err
    return pos


class Geometry(unittest.TestCase):
    def test_orders_and_promotion_squares(self):
        self.assertEqual([ref.sq_name(s) for s in ref.REINCARNATION_ORDER["w"]],
                         "f4 f3 e4 e3 d4 d3 c4 c3 b4 b3 f2 f1 e2 e1 d2 d1 c2 c1 b2 b1".split())
        self.assertEqual([ref.sq_name(s) for s in ref.REINCARNATION_ORDER["b"]],
                         "b4 b3 c4 c3 d4 d3 e4 e3 f4 f3 b2 b1 c2 c1 d2 d1 e2 e1 f2 f1".split())
        self.assertEqual(sorted(map(ref.sq_name, ref.PROMOTION_SQUARES["w"])),
                         ["a10", "a11", "a8", "a9"])
        self.assertEqual(sorted(map(ref.sq_name, ref.PROMOTION_SQUARES["b"])),
                         ["g10", "g7", "g8", "g9"])

    def test_fen(self):
        pos = ref.parse_fen("startpos")
        self.assertEqual(ref.to_fen(pos), ref.START_FEN)
        # seed: White K g1 A g2 G g3 W g4, pawns f1 f2 f3 g5 -> frame g7 g8 g9 g10, f7 f8 f9 g11
        self.assertEqual(board(pos), {
            "g7": "K", "g8": "A", "g9": "G", "g10": "W", "f7": "P", "f8": "P", "f9": "P",
            "g11": "P", "a11": "k", "a10": "a", "a9": "g", "a8": "w", "b9": "p", "b10": "p",
            "b11": "p", "a7": "p"})
        self.assertEqual(make_fen(board(pos)), ref.START_FEN)
        self.assertEqual(ref.to_fen(ref.parse_fen(ref.START_FEN.split()[0])), ref.START_FEN)
        bad = [
            ref.START_FEN.replace("*******/*******", "7/*******"),     # digit over the bridge
            ref.START_FEN.replace("*5*/*5* w", "*5*/6 w"),             # digit over a hole
            ref.START_FEN.replace("*5*/*5* w", "*5*/K4* w"),           # piece on a hole
            ref.START_FEN.replace("p4PK", "p4P1"),                     # no white king
            ref.START_FEN.replace(" w ", " x "),
            ref.START_FEN.replace("w - -", "w KQ -"),
        ]
        for fen in bad:
            with self.assertRaises(ValueError, msg=fen):
                ref.parse_fen(fen)


class StartPosition(unittest.TestCase):
    # White: pawns f7 f8 f9 step west to e7 e8 e9, g11 to f11; their sideways targets (same file
    # +-1 rank) are own pieces, empty or holes.  K g7: f7 f8 g8 own, f6 g6 holes.  A g8: ferz f7
    # f9 own; alfil e10 (e6 is a hole).  G g9: f9 f8 g8 g10 own; (-1,+1) f10 then e11; no enemy
    # behind.  W g10: f10 e10; g11 g9 own.
    WHITE = sorted("f7e7 f8e8 f9e9 g11f11 g8e10 g9f10 g9e11 g10f10 g10e10".split())
    # Black mirrored: pawns b9 b10 b11 -> c9 c10 c11, a7 -> b7; a a10: alfil c8; g a9: b8 c7;
    # w a8: b8 c8; k a11 boxed in.
    BLACK = sorted("b9c9 b10c10 b11c11 a7b7 a10c8 a9b8 a9c7 a8b8 a8c8".split())

    def test_white_moves(self):
        self.assertEqual(ref.legal_tokens(ref.parse_fen("startpos")), self.WHITE)

    def test_black_moves(self):
        pos, err = ref.apply_moves(ref.parse_fen("startpos"), ["f7e7"])
        self.assertIsNone(err)
        self.assertEqual(ref.legal_tokens(pos), self.BLACK)

    def test_perft_1_2(self):
        # No white move touches a square a black move uses (or stands next to the black Pagan's
        # path), so depth 2 is 9 * 9.
        pos = ref.parse_fen("startpos")
        self.assertEqual(ref.perft(pos, 1), 9)
        self.assertEqual(ref.perft(pos, 2), 81)

    def test_counters(self):
        pos, err = ref.apply_moves(ref.parse_fen("startpos"), ["g10f10", "a8b8", "f7e7"])
        self.assertIsNone(err)
        self.assertEqual(ref.to_fen(pos).split()[1:], ["b", "-", "-", "0", "2"])
        pos, err = ref.apply_moves(ref.parse_fen("startpos"), ["g10f10", "a8b8"])
        self.assertEqual(ref.to_fen(pos).split()[1:], ["w", "-", "-", "2", "2"])


class Withdrawal(unittest.TestCase):
    # White G d9 with black p c9 (west), w d10 (north), a e10 (north-east).
    P = {"g7": "K", "a11": "k", "d9": "G", "c9": "p", "d10": "w", "e10": "a"}

    def test_pagan_moves(self):
        # E: e9 f9 (withdraws from c9); S: d8 d7 (from d10); SW: c8 b7 (from e10);
        # NW: c10 b11, SE: e8 f7 (nothing behind); W, N, NE blocked.
        self.assertEqual(from_sq(legal(self.P), "d9"),
                         sorted("d9e9 d9f9 d9d8 d9d7 d9c8 d9b7 d9c10 d9b11 d9e8 d9f7".split()))

    def test_directions(self):
        for move, gone, kind in (("d9e9", "c9", "p"), ("d9f9", "c9", "p"),
                                 ("d9d8", "d10", "w"), ("d9d7", "d10", "w"),
                                 ("d9c8", "e10", "a"), ("d9b7", "e10", "a")):
            pos = play(self.P, "w", move)
            b = board(pos)
            self.assertNotIn(gone, b, move)
            self.assertEqual(b["b4"], kind, move)     # black's first reincarnation square
            self.assertEqual(b[move[2:]], "G")
            self.assertEqual(pos.halfmove, 0)
        pos = play(self.P, "w", "d9b11")               # nothing behind (e8 empty)
        self.assertEqual(len(pos.board), len(self.P))
        self.assertEqual(pos.halfmove, 1)

    def test_never_captures_by_landing_nor_own_pieces(self):
        p = dict(self.P, c9="P")
        pos = play(p, "w", "d9f9")
        self.assertEqual(board(pos)["c9"], "P")
        self.assertNotIn("d9c9", legal(self.P))

    def test_live_pagan_withdraws_from_dead_piece(self):
        # G c7 and a dead black pawn on c4: c4 is next to c7 across the bridge.
        p = {"g11": "K", "a11": "k", "c7": "G", "c4": "p"}
        for move in ("c7c8", "c7c9"):
            b = board(play(p, "w", move))
            self.assertEqual(b, {"g11": "K", "a11": "k", move[2:]: "G"})  # out of the game
        # diagonal across the bridge: b4 is (-1,-1) from c7; withdraw along (+1,+1): d8, e9
        p = {"g11": "K", "a11": "k", "c7": "G", "b4": "a"}
        for move in ("c7d8", "c7e9"):
            self.assertEqual(board(play(p, "w", move)), {"g11": "K", "a11": "k", move[2:]: "G"})

    def test_live_pagan_crosses_while_withdrawing(self):
        # G c7 withdraws from w c8 by moving down across the bridge to c4 (or c3).
        p = {"g11": "K", "a11": "k", "c7": "G", "c8": "w"}
        self.assertEqual(board(play(p, "w", "c7c4")), {"g11": "K", "a11": "k", "c4": "G", "b4": "w"})
        self.assertEqual(board(play(p, "w", "c7c3")), {"g11": "K", "a11": "k", "c3": "G", "b4": "w"})
        # The mover lands first: G c7 withdraws from d8 onto b4 (black's first square) -> victim b3.
        p = {"g11": "K", "a11": "k", "c7": "G", "d8": "w"}
        self.assertEqual(board(play(p, "w", "c7b4")), {"g11": "K", "a11": "k", "b4": "G", "b3": "w"})

    def test_dead_pagan_withdraws_from_live_piece(self):
        # Black g f4 (dead), white W f7 (live, next to f4 across the bridge). Moving down frees
        # f4, white's first square, and the W goes there.
        p = {"g11": "K", "a11": "k", "f4": "g", "f7": "W"}
        self.assertEqual(board(play(p, "b", "f4f3")), {"g11": "K", "a11": "k", "f3": "g", "f4": "W"})
        self.assertEqual(board(play(p, "b", "f4f2")), {"g11": "K", "a11": "k", "f2": "g", "f4": "W"})

    def test_dead_pagan_crosses_back_withdrawing_from_dead_piece(self):
        p = {"g11": "K", "a11": "k", "d4": "g", "d3": "A"}
        self.assertEqual(board(play(p, "b", "d4d7")), {"g11": "K", "a11": "k", "d7": "g"})
        self.assertEqual(board(play(p, "b", "d4d8")), {"g11": "K", "a11": "k", "d8": "g"})

    def test_withdraw_on_bent_crossing(self):
        # G b7, black piece a8: (+1,-1) from b7 crosses b->c to c4 and captures a8 (live).
        p = {"g11": "K", "e11": "k", "b7": "G", "a8": "w"}
        self.assertEqual(board(play(p, "w", "b7c4")), {"g11": "K", "e11": "k", "c4": "G", "b4": "w"})


class Bridge(unittest.TestCase):
    KINGS = {"g11": "K", "e11": "k"}

    def pagan(self, sq):
        return from_sq(legal(dict(self.KINGS, **{sq: "G"})), sq)

    def test_a8(self):
        # b8 c8, a9 a10, a7 (then a7->a4 would cross from file a: no), b9 c10, b7 then c4.
        self.assertEqual(self.pagan("a8"),
                         sorted("a8b8 a8c8 a8a9 a8a10 a8a7 a8b9 a8c10 a8b7 a8c4".split()))

    def test_a7(self):
        # b7 c7, a8 a9, b8 c9; a7b4 is not a move.
        self.assertEqual(self.pagan("a7"), sorted("a7b7 a7c7 a7a8 a7a9 a7b8 a7c9".split()))

    def test_c4_dead(self):
        # up: c7 c8; (+1,+1): d7 e8; (-1,+1): b7 a8; d4 e4; b4 (a4 hole); c3 c2; d3 e2; b3 (a2 hole)
        self.assertEqual(self.pagan("c4"), sorted(
            "c4c7 c4c8 c4d7 c4e8 c4b7 c4a8 c4d4 c4e4 c4b4 c4c3 c4c2 c4d3 c4e2 c4b3".split()))

    def test_b4_dead(self):
        # (-1,+1) would cross to file a: no.  b7 b8, c7 d8, c4 d4, b3 b2, c3 d2.
        self.assertEqual(self.pagan("b4"), sorted(
            "b4b7 b4b8 b4c7 b4d8 b4c4 b4d4 b4b3 b4b2 b4c3 b4d2".split()))

    def test_f7(self):
        # down f4 f3; (-1,-1) e4 d3; (+1,-1) would land on file g: no; g7; e7 d7; f8 f9; g8;
        # e8 d9.
        self.assertEqual(self.pagan("f7"), sorted(
            "f7f4 f7f3 f7e4 f7d3 f7g7 f7e7 f7d7 f7f8 f7f9 f7g8 f7e8 f7d9".split()))

    def test_g7_cannot_cross(self):
        self.assertEqual(self.pagan("g7"), sorted("g7f7 g7e7 g7g8 g7g9 g7f8 g7e9".split()))

    def test_middle_square_blocks(self):
        p = dict(self.KINGS, c7="G", c4="P")   # own pawn on c4 blocks c7-c4-c3 and c7c4
        toks = from_sq(legal(p), "c7")
        self.assertNotIn("c7c4", toks)
        self.assertNotIn("c7c3", toks)
        self.assertIn("c7b4", toks)

    def test_other_pieces_never_cross(self):
        p = dict(self.KINGS, c7="W", d7="A", b8="P")
        toks = legal(p)
        self.assertEqual(from_sq(toks, "c7"), sorted("c7b7 c7a7 c7c8 c7c9".split()))
        # A d7: ferz c8 e8, alfil b9 (over the own pawn b8) f9; c6 e6 b5 f5 are holes.
        self.assertEqual(from_sq(toks, "d7"), sorted("d7c8 d7e8 d7b9 d7f9".split()))

    def test_alchemist_d7(self):
        p = dict(self.KINGS, d7="A")
        self.assertEqual(from_sq(legal(p), "d7"), sorted("d7c8 d7e8 d7b9 d7f9".split()))


class Reincarnation(unittest.TestCase):
    def test_sequence_of_captures(self):
        # 1 d8d9 W takes p (-> b4)   2 d11d9 w via empty d10 takes W (-> f4)
        # 3 f11d9 A leaps e10, takes w (-> b3)   4 b11d9 a leaps c10, takes A (-> f3)
        # 5 e8d9 K takes a (-> c4)   6 c9b9 g withdraws west from d9: the white K (-> e4)
        p = {"e8": "K", "d8": "W", "f11": "A", "a11": "k", "d9": "p", "d11": "w", "b11": "a",
             "c9": "g"}
        pos = play(p, "w", "d8d9", "d11d9", "f11d9", "b11d9", "e8d9", "c9b9")
        self.assertEqual(board(pos), {"a11": "k", "b9": "g", "b4": "p", "b3": "w", "c4": "a",
                                      "f4": "W", "f3": "A", "e4": "K"})
        self.assertEqual(ref.to_fen(pos).split()[1:], ["w", "-", "-", "0", "4"])
        # K e4 (dead): d3 is attacked by a c4 (ferz) and w b3 (via c3); d4 and e3 are free.
        self.assertEqual(from_sq(ref.legal_tokens(pos), "e4"), ["e4d4", "e4e3"])

    def test_second_half_of_white_order(self):
        # ranks 4 and 3 of the dead board full -> f2, then f1, then e2.
        p = {"g11": "K", "d9": "P", "a11": "k", "d10": "w",
             "f4": "A", "f3": "A", "e4": "A", "e3": "A", "d4": "A", "d3": "A", "c4": "A",
             "c3": "p", "b4": "p", "b3": "p"}
        self.assertEqual(board(play(p, "b", "d10d9"))["f2"], "P")
        p["f2"] = "p"
        self.assertEqual(board(play(p, "b", "d10d9"))["f1"], "P")
        p["f1"] = "p"
        self.assertEqual(board(play(p, "b", "d10d9"))["e2"], "P")

    def test_second_half_of_black_order(self):
        p = {"g11": "K", "d8": "W", "a11": "k", "d9": "p",
             "b4": "a", "b3": "a", "c4": "a", "c3": "a", "d4": "a", "d3": "a", "e4": "a",
             "e3": "P", "f4": "P", "f3": "P"}
        self.assertEqual(board(play(p, "w", "d8d9"))["b2"], "p")

    def test_capture_on_dead_board_removes(self):
        p = {"g11": "K", "d3": "W", "a11": "k", "d4": "p"}
        pos = play(p, "w", "d3d4")
        self.assertEqual(board(pos), {"g11": "K", "d4": "W", "a11": "k"})
        self.assertEqual(pos.halfmove, 0)

    def test_king_captured_on_game_board(self):
        p = {"d9": "K", "a11": "k", "d10": "p"}
        self.assertEqual(board(play(p, "b", "d10d9")), {"d9": "p", "a11": "k", "f4": "K"})
        # kings never capture kings
        p = {"d9": "K", "d10": "k", "a7": "p"}
        self.assertNotIn("d9d10", legal(p, "w"))
        self.assertNotIn("d10d9", legal(p, "b"))
        # a pawn may capture the king
        p = {"d9": "P", "d10": "k", "g11": "K", "a7": "p"}
        self.assertEqual(board(play(p, "w", "d9d10")), {"d10": "P", "b4": "k", "g11": "K", "a7": "p"})

    def test_promoted_piece_reincarnates_as_itself(self):
        p = {"g11": "K", "b8": "P", "e11": "k", "b9": "a"}
        pos = play(p, "w", "b8a8w", "b9a8")
        self.assertEqual(board(pos), {"g11": "K", "e11": "k", "a8": "a", "f4": "W"})


class DeadKing(unittest.TestCase):
    def test_exposing_refused(self):
        # K d2 (dead) shielded by A d3 from w d4 (1-2 orthogonal slider): every A move empties d3.
        p = {"d2": "K", "d3": "A", "a11": "k", "d4": "w"}
        self.assertEqual(legal(p), sorted("d2c1 d2c2 d2c3 d2d1 d2e1 d2e2 d2e3".split()))

    def test_reincarnated_victim_gives_check(self):
        # K b3 (dead).  W d8 takes p d9 -> p reincarnates on b4 and attacks b3 (same file): no.
        # W d8 takes a c8 -> a on b4 attacks c3 a3 d2 ... not b3: yes.
        p = {"b3": "K", "d8": "W", "a11": "k", "d9": "p", "c8": "a"}
        toks = legal(p)
        self.assertEqual(from_sq(toks, "d8"), sorted("d8c8 d8e8 d8f8 d8d7".split()))
        self.assertEqual(from_sq(toks, "b3"), sorted("b3b4 b3b2 b3c4 b3c3 b3c2".split()))
        # The victim is the black king: on b4 it stands next to the white king: refused.
        p = {"b3": "K", "d8": "W", "d9": "k"}
        self.assertNotIn("d8d9", legal(p))
        self.assertIn("d8e8", legal(p))

    def test_reincarnated_victim_blocks_check(self):
        # K d2 in check from w d4 via empty d3.  Black's squares b4 b3 c4 c3 d4 are full, so a
        # captured a goes to d3 and blocks (ruling R2).  K: c2 (pawn c3), c3 (pawn c4), d3 (w d4)
        # are attacked; c1 d1 e1 e2 e3 are free.
        p = {"d2": "K", "f9": "W", "a11": "k", "f10": "a",
             "b4": "p", "b3": "p", "c4": "p", "c3": "p", "d4": "w"}
        pos = ref.parse_fen(make_fen(p))
        self.assertTrue(ref.in_check(pos.board, "w"))
        self.assertEqual(ref.legal_tokens(pos), sorted("d2c1 d2d1 d2e1 d2e2 d2e3 f9f10".split()))

    def test_live_pagan_attacks_across_bridge(self):
        # K c4 (dead), black g c7 (live), white W c8.  g c7 attacks b4 (away d8 empty), d4 (away
        # b8 empty), and c4 only if c8 is empty.  Any W move off c8 exposes c4, except c8c7
        # which takes the g: it goes to b4, next to c4, but its away square a4 is a hole.
        p = {"c4": "K", "c8": "W", "a11": "k", "c7": "g"}
        pos = ref.parse_fen(make_fen(p))
        self.assertFalse(ref.in_check(pos.board, "w"))
        self.assertEqual(ref.legal_tokens(pos), sorted("c4b3 c4c3 c4d3 c8c7".split()))
        p = {"c4": "K", "a11": "k", "c7": "g", "g11": "W"}
        self.assertTrue(ref.in_check(ref.parse_fen(make_fen(p)).board, "w"))

    def test_dead_pagan_attack_needs_away_square(self):
        p = {"c3": "K", "a11": "k", "b3": "g", "g11": "W"}
        self.assertFalse(ref.in_check(ref.parse_fen(make_fen(p)).board, "w"))   # a3 is a hole
        p = {"c3": "K", "a11": "k", "d3": "g", "g11": "W"}
        self.assertTrue(ref.in_check(ref.parse_fen(make_fen(p)).board, "w"))    # e3 empty
        p = {"c3": "K", "a11": "k", "d3": "g", "e3": "W"}
        self.assertFalse(ref.in_check(ref.parse_fen(make_fen(p)).board, "w"))   # e3 full

    def test_dead_king_cannot_be_captured(self):
        # w d4 next to the white K d3 (an illegal FEN with Black to move): no d4d3.
        p = {"d3": "K", "a11": "k", "d4": "w"}
        self.assertNotIn("d4d3", legal(p, "b"))
        # kings never adjacent on the dead board
        p = {"d2": "K", "b4": "k", "g11": "P"}
        self.assertNotIn("d2c3", legal(p, "w"))
        self.assertIn("d2d3", legal(p, "w"))


class Endings(unittest.TestCase):
    def test_checkmate(self):
        # w b4b3 checks K b1 via b2; b2 (w), c1 (p c2), c2 (p c3 guards) all attacked; a1 a2 holes.
        p = {"b1": "K", "a11": "k", "b4": "w", "c2": "p", "c3": "p"}
        pos = play(p, "b", "b4b3")
        self.assertTrue(ref.in_check(pos.board, "w"))
        self.assertEqual(ref.legal_tokens(pos), [])
        self.assertEqual(ref.result(pos), "0-1")

    def test_stalemate(self):
        # w d4b4 (via c4): b1 not attacked, but b2, c1, c2 are.
        p = {"b1": "K", "a11": "k", "d4": "w", "c2": "p", "c3": "p"}
        pos = play(p, "b", "d4b4")
        self.assertFalse(ref.in_check(pos.board, "w"))
        self.assertEqual(ref.legal_tokens(pos), [])
        self.assertEqual(ref.result(pos), "1/2-1/2")

    def test_bare_kings(self):
        p = {"c2": "K", "a11": "k", "d3": "p"}
        pos = play(p, "w", "c2d3")
        self.assertEqual(board(pos), {"d3": "K", "a11": "k"})
        self.assertEqual(ref.result(pos), "1/2-1/2")
        self.assertEqual(ref.legal_tokens(pos), [])       # ruling R1
        # a capture on the game board never bares: the victim only moves to the dead board
        p = {"g7": "K", "a11": "k", "f7": "p"}
        pos = play(p, "w", "g7f7")
        self.assertIsNone(ref.result(pos))


class Pawns(unittest.TestCase):
    def test_each_promotion_choice(self):
        p = {"g11": "K", "b8": "P", "e11": "k"}
        self.assertEqual(from_sq(legal(p), "b8"), ["b8a8a", "b8a8g", "b8a8w"])
        for s, piece in (("w", "W"), ("a", "A"), ("g", "G")):
            self.assertEqual(board(play(p, "w", "b8a8" + s))["a8"], piece)
        self.assertEqual(ref.apply_moves(ref.parse_fen(make_fen(p)), ["b8a8"])[1], "0 b8a8")
        self.assertEqual(ref.apply_moves(ref.parse_fen(make_fen(p)), ["b8a8q"])[1], "0 b8a8q")

    def test_promotion_by_capture_and_stuck_pawn(self):
        # White P a7 (seed a1, not a promotion square) cannot step; it captures a8 and promotes.
        p = {"g11": "K", "a7": "P", "e11": "k", "a8": "p"}
        self.assertEqual(from_sq(legal(p), "a7"), ["a7a8a", "a7a8g", "a7a8w"])
        self.assertEqual(board(play(p, "w", "a7a8g")), {"g11": "K", "a8": "G", "e11": "k", "b4": "p"})
        # b7 -> a7 is no promotion
        p = {"g11": "K", "b7": "P", "e11": "k"}
        self.assertEqual(from_sq(legal(p), "b7"), ["b7a7"])

    def test_black_promotion(self):
        p = {"a11": "K", "f8": "p", "f11": "p", "e7": "k"}
        toks = legal(p, "b")
        self.assertEqual(from_sq(toks, "f8"), ["f8g8a", "f8g8g", "f8g8w"])
        self.assertEqual(from_sq(toks, "f11"), ["f11g11"])   # g11 (seed g5) is no promotion
        self.assertEqual(board(play(p, "b", "f8g8a"))["g8"], "a")

    def test_sideways_captures_only(self):
        # White P d9: step c9 (black w there: no capture forward), captures d10 and d8.
        p = {"g11": "K", "d9": "P", "a11": "k", "c9": "w", "d10": "a", "d8": "p"}
        self.assertEqual(from_sq(legal(p), "d9"), ["d9d10", "d9d8"])

    def test_dead_pawns(self):
        # white P c2 steps to b2; P b3 is stuck (a3 hole) but takes b4; black p e3 -> f3;
        # p f2 stuck (g2 hole).  Nothing promotes.
        p = {"g11": "K", "c2": "P", "b3": "P", "e11": "k", "b4": "a", "e3": "p", "f2": "p"}
        toks = legal(p, "w")
        self.assertEqual(from_sq(toks, "c2"), ["c2b2"])
        self.assertEqual(from_sq(toks, "b3"), ["b3b4"])
        self.assertEqual(board(play(p, "w", "b3b4"))["b4"], "P")
        self.assertNotIn("a", board(play(p, "w", "b3b4")).values())  # gone from the game
        btoks = legal(p, "b")
        self.assertEqual(from_sq(btoks, "e3"), ["e3f3"])
        self.assertEqual(from_sq(btoks, "f2"), [])


class Interfaces(unittest.TestCase):
    def cli(self, *args, stdin=None):
        return subprocess.run([sys.executable, os.path.join(HERE, "pagan_ref.py")] + list(args),
                              input=stdin, capture_output=True, text=True, check=True).stdout

    def test_apply(self):
        out = self.cli("startpos", "f7e7", "b9c9")
        self.assertEqual(out, "Fen: kp4P/ap4W/g1p2PG/w4PA/p3P1K/*******/*******/*5*/*5*/*5*/*5*"
                              " w - - 0 2\n")
        self.assertEqual(self.cli("startpos", "f7e7", "b9b8"), "Error: 1 b9b8\n")
        self.assertEqual(self.cli("startpos", "zz"), "Error: 0 zz\n")
        fen = make_fen({"b1": "K", "a11": "k", "b4": "w", "c2": "p", "c3": "p"}, "b")
        self.assertEqual(self.cli(fen, "b4b3").splitlines()[1], "Result: 0-1")

    def test_perft_legal(self):
        out = self.cli("perft", "startpos", "2").splitlines()
        self.assertEqual(out[-1], "Nodes searched: 81")
        self.assertEqual(out[:-1], ["%s: 9" % t for t in StartPosition.WHITE])
        out = self.cli("legal", "startpos").splitlines()
        self.assertEqual(out, StartPosition.WHITE + ["Total: 9"])

    def test_serve(self):
        reqs = [{"fen": "startpos", "moves": ["f7e7"], "perft": 1, "legal": True},
                {"fen": "startpos", "moves": ["a7b7"]}]
        out = self.cli("serve", stdin="".join(json.dumps(r) + "\n" for r in reqs)).splitlines()
        a, b = json.loads(out[0]), json.loads(out[1])
        self.assertEqual(a["legal"], StartPosition.BLACK)
        self.assertEqual(a["perft"]["nodes"], 9)
        self.assertIsNone(a["error"])
        self.assertIsNone(a["result"])
        self.assertEqual(b["error"], "0 a7b7")
        self.assertEqual(b["fen"], ref.START_FEN)
        buf = io.StringIO()
        ref.serve(io.StringIO('{"fen": "nonsense"}\n'), buf)
        self.assertTrue(json.loads(buf.getvalue())["error"].startswith("request:"))


if __name__ == "__main__":
    unittest.main()
