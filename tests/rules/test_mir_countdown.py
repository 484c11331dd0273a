"""MIR extended test with a countdown (R15–R18): the odds are exact rationals, equal to a plain
test-by-test walk, on both ways the module computes them (a few tests stepped, a longer
countdown as one series division) and up to the largest pool, threshold and countdown."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gmscreen.rules import mir, odds


def walk(n: int, threshold: int, max_tests: int) -> Fraction:
    """P(success), walking the tests one by one from the rules text: a test of n d12 (1–6 no
    success, 7–11 one, 12 two), none ends it (R17), the threshold wins (R16), the countdown
    loses (R18)."""
    per_test = {0: 1}
    for _ in range(n):
        grown: dict[int, int] = {}
        for s, ways in per_test.items():
            for add, faces in ((0, 6), (1, 5), (2, 1)):
                grown[s + add] = grown.get(s + add, 0) + ways * faces
        per_test = grown
    die = Fraction(1, 12 ** n)
    undecided, won = {0: Fraction(1)}, Fraction(0)
    for _ in range(max_tests):
        after: dict[int, Fraction] = {}
        for total, p in undecided.items():
            for s, ways in per_test.items():
                if s == 0:
                    continue
                if total + s >= threshold:
                    won += p * ways * die
                else:
                    after[total + s] = after.get(total + s, 0) + p * ways * die
        undecided = after
    return won


CASES = [(1, 5, 1), (3, 5, 3), (3, 5, 4), (2, 9, 4), (6, 20, 5), (12, 40, 20), (12, 40, 39), (9, 60, 7),
         (1, 40, 20), (12, 99, 98), (12, 25, 3), (12, 25, 4)]


@pytest.mark.parametrize("n, threshold, max_tests", CASES)
def test_countdown_odds_are_the_exact_walk(n: int, threshold: int, max_tests: int) -> None:
    num, den = mir._extended_success_ways(n, threshold, max_tests)
    assert Fraction(num, den) == walk(n, threshold, max_tests)
    request = {"system": "mir", "kind": "extended", "pool": n, "threshold": threshold, "max_tests": max_tests}
    assert abs(odds(request)["outcome"]["success"] - num / den) <= 1e-12
