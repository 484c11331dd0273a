"""Dice are fair: a chi-square test per die size over a seeded sample.

The sample is large enough that a die which never shows one face, or shows a face
outside its range (an off-by-one), fails by a wide margin; the tests below prove it.
"""

from __future__ import annotations

import math
import random

import pytest

from gmscreen.rules import resolve
from gmscreen.rules._base import RandomDice

DICE = [(10, 0), (10, 1), (12, 1), (20, 1), (4, 1), (6, 1), (8, 1)]   # (sides, lowest face)
ROLLS_PER_FACE = 2_000
P_FLOOR = 1e-4


def chi_square_p_value(statistic: float, df: int) -> float:
    """Upper tail of the chi-square law: Q(df/2, x/2), regularised incomplete gamma."""
    a, x = df / 2, statistic / 2
    if x <= 0:
        return 1.0
    if x < a + 1:
        # Series for the lower part P, then Q = 1 - P.
        term = total = 1 / a
        k = a
        while term > total * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # Continued fraction (modified Lentz) for Q.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi_square(faces: list[int], sides: int, low: int) -> tuple[float, int]:
    """Statistic over the die's faces; faces outside the range are missed by every cell."""
    counts = {face: 0 for face in range(low, low + sides)}
    for face in faces:
        if face in counts:
            counts[face] += 1
    expected = len(faces) / sides
    return sum((c - expected) ** 2 / expected for c in counts.values()), sides - 1


def test_p_value_matches_known_quantiles() -> None:
    assert chi_square_p_value(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p_value(11.070, 5) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p_value(30.144, 19) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p_value(2.0, 11) == pytest.approx(0.99850, abs=1e-4)


@pytest.mark.parametrize("sides,low", DICE, ids=lambda v: str(v))
def test_random_dice_are_fair(sides: int, low: int) -> None:
    source = RandomDice(random.Random(1000 + sides + low))
    faces = [source.roll(sides, low) for _ in range(sides * ROLLS_PER_FACE)]
    assert set(faces) == set(range(low, low + sides))
    statistic, df = chi_square(faces, sides, low)
    assert chi_square_p_value(statistic, df) > P_FLOOR


@pytest.mark.parametrize("sides,low", DICE, ids=lambda v: str(v))
def test_an_off_by_one_die_is_caught(sides: int, low: int) -> None:
    """Same sample size: a die missing its top face, or shifted by one, is rejected."""
    rng = random.Random(7)
    missing_top = [low + int(rng.random() * (sides - 1)) for _ in range(sides * ROLLS_PER_FACE)]
    shifted = [low + 1 + int(rng.random() * sides) for _ in range(sides * ROLLS_PER_FACE)]
    for faces in (missing_top, shifted):
        statistic, df = chi_square(faces, sides, low)
        assert chi_square_p_value(statistic, df) < 1e-12


def test_eclats_die_through_resolve_reads_0_to_9() -> None:
    request = {"system": "eclats", "kind": "simple", "characteristic": 1, "threshold": 1, "policy": "single"}
    faces = [resolve(request, seed=seed)["kept_die"] for seed in range(10 * ROLLS_PER_FACE)]
    statistic, df = chi_square(faces, 10, 0)
    assert chi_square_p_value(statistic, df) > P_FLOOR


def test_mir_die_through_resolve_reads_1_to_12() -> None:
    request = {"system": "mir", "kind": "simple", "pool": 12, "difficulty": 1}
    faces = [f for seed in range(2 * ROLLS_PER_FACE) for f in resolve(request, seed=seed)["dice"]]
    statistic, df = chi_square(faces, 12, 1)
    assert chi_square_p_value(statistic, df) > P_FLOOR
