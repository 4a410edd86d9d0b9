"""Unit tests of pagan_capture_ref.py's moves, hand-checked against the rules (the solve itself
takes minutes; its counts are quoted in protocol-docs/variants/pagan.md and agree with a second,
forward solver)."""
import unittest

from pagan_capture_ref import piece_moves, sq


class PieceMoves(unittest.TestCase):
    def test_a_pagan_withdraws_only_straight_away_from_the_king(self):
        # Pagan c2, lone king b1 (diagonally below-left): stepping to d3 or e4 captures.
        g, king = sq(2, 1), sq(1, 0)
        moves = dict(piece_moves('G', g, {g, king}, king))
        self.assertTrue(moves[sq(3, 2)] and moves[sq(4, 3)])
        self.assertFalse(moves[sq(2, 2)] or moves[sq(3, 1)])
        # A blocked first step stops the withdrawal and the slide.
        blocked = dict(piece_moves('G', g, {g, king, sq(3, 2)}, king))
        self.assertNotIn(sq(3, 2), blocked)
        self.assertNotIn(sq(4, 3), blocked)

    def test_a_wazir_lands_on_the_king_over_an_empty_square_only(self):
        w, king = sq(0, 0), sq(0, 2)
        self.assertIn((king, True), piece_moves('W', w, {w, king}, king))
        self.assertNotIn((king, True), piece_moves('W', w, {w, king, sq(0, 1)}, king))
        # Never diagonally.
        self.assertNotIn(sq(1, 1), dict(piece_moves('W', w, {w}, sq(6, 4))))

    def test_an_alchemist_leaps_diagonally_over_anything(self):
        a, king = sq(0, 0), sq(2, 2)
        self.assertIn((king, True), piece_moves('A', a, {a, king, sq(1, 1)}, king))
        self.assertNotIn(sq(1, 0), dict(piece_moves('A', a, {a}, king)))


if __name__ == '__main__':
    unittest.main()
