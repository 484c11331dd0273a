"""What a game's own `resolve` needs is public in `gmscreen.rules`: dice drawn or forced with
the standard errors, and the exact chance as a float."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import gmscreen.rules as rules
from gmscreen.rules import ForcedDice, RandomDice, RequestError, probability


def test_they_are_the_surface() -> None:
    assert {"ForcedDice", "RandomDice", "DiceSource", "probability"} <= set(rules.__all__)
    assert all(getattr(rules, name, None) is not None for name in rules.__all__)


def test_forced_dice_say_the_standard_errors() -> None:
    dice = ForcedDice([6, 2], "dice")
    assert [dice.roll(6), dice.roll(6)] == [6, 2] and dice.remaining == 0
    dice.done()
    with pytest.raises(RequestError) as few:
        ForcedDice([], "dice").roll(6)
    assert few.value.field == "dice"
    with pytest.raises(RequestError):
        ForcedDice([7], "dice").roll(6)
    left = ForcedDice([1, 2], "dice")
    left.roll(6)
    with pytest.raises(RequestError):
        left.done()


def test_random_dice_keep_their_faces_and_probability_is_exact_but_never_zero() -> None:
    dice = RandomDice(random.Random(3))
    faces = [dice.roll(6) for _ in range(20)]
    assert dice.faces == faces and all(1 <= f <= 6 for f in faces)
    assert probability(Fraction(1, 4)) == 0.25 and probability(1, 6) == 1 / 6
    assert 0.0 < probability(Fraction(1, 10**400))
