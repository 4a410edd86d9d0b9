"""Unit tests of tablebase_ref.py's matrix-game solvers (python3 -m unittest)."""

import random
import unittest
from fractions import Fraction

import tablebase_ref as ref

# Matching pennies on payoffs 0..1, shifted: value 1/2, both players 1/2 and 1/2.
PENNIES = [[1.0, 0.0], [0.0, 1.0]]


class FloatSolver(unittest.TestCase):
    def test_agrees_with_the_exact_solver(self):
        rng = random.Random(3)
        for _ in range(200):
            m, n = rng.randint(1, 5), rng.randint(1, 5)
            a = [[rng.choice([0.0, 0.25, 0.5, 0.75, 1.0, rng.random()]) for _ in range(n)]
                 for _ in range(m)]
            value, x, y = ref.solve_game_float(a)
            exact, _, _ = ref.solve_game_exact(a)
            self.assertAlmostEqual(value, float(exact), places=12, msg=a)
            self.assertAlmostEqual(sum(x), 1.0, places=12)
            self.assertAlmostEqual(sum(y), 1.0, places=12)
            # x earns the value against every column, y concedes no more to any row.
            for j in range(n):
                self.assertGreaterEqual(sum(x[i] * a[i][j] for i in range(m)), value - 1e-12)
            for i in range(m):
                self.assertLessEqual(sum(a[i][j] * y[j] for j in range(n)), value + 1e-12)

    def test_a_tableau_it_cannot_pivot_is_solved_on_fractions(self):
        # With every entry below the pivot threshold the float simplex finds an improving
        # column and no row to pivot on, which a positive game's LP cannot have: the answer
        # must come from the exact solver, not an error (it once stopped tablebase_sample.py
        # on a classic 1 2 1 1 root with "unbounded LP").
        saved = ref.PIVOT_EPS
        ref.PIVOT_EPS = 1e9
        try:
            value, x, y = ref.solve_game_float(PENNIES)
        finally:
            ref.PIVOT_EPS = saved
        self.assertEqual((value, x, y), (0.5, [0.5, 0.5], [0.5, 0.5]))
        self.assertEqual(ref.solve_game_exact(PENNIES)[0], Fraction(1, 2))


if __name__ == "__main__":
    unittest.main()
