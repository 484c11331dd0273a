"""Free dice expressions: the grammar, exact distributions, rolls."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.rules import RequestError
from gmscreen.rules._base import ForcedDice
from gmscreen.rules.expr import DiceExpr, parse_expression


@pytest.mark.parametrize("text,expr,canonical", [
    ("2d6+1", DiceExpr(2, 6, 1), "2d6+1"),
    ("2D6+1", DiceExpr(2, 6, 1), "2d6+1"),
    (" 3 d 8 - 2 ", DiceExpr(3, 8, -2), "3d8-2"),
    ("d20", DiceExpr(1, 20, 0), "1d20"),
    ("D12", DiceExpr(1, 12, 0), "1d12"),
    ("1d20+0", DiceExpr(1, 20, 0), "1d20"),
    ("4d6-0", DiceExpr(4, 6, 0), "4d6"),
    ("100d1000", DiceExpr(100, 1000, 0), "100d1000"),
    ("1d2", DiceExpr(1, 2, 0), "1d2"),
    ("7", DiceExpr(0, 0, 7), "7"),
    (" 12 ", DiceExpr(0, 0, 12), "12"),
    ("-3", DiceExpr(0, 0, -3), "-3"),
    ("0", DiceExpr(0, 0, 0), "0"),
])
def test_parse_and_canonical_form(text: str, expr: DiceExpr, canonical: str) -> None:
    parsed = parse_expression(text)
    assert parsed == expr
    assert str(parsed) == canonical
    assert parse_expression(canonical) == parsed


@pytest.mark.parametrize("text,why", [
    ("", "empty"),
    ("   ", "empty"),
    ("0d6", "dice count 0"),
    ("101d6", "dice count 101"),
    ("2d1", "1 sides"),
    ("2d0", "0 sides"),
    ("1d1001", "1001 sides"),
    ("2d6+", "expected"),
    ("2d6+1d4", "expected"),
    ("2x6", "expected"),
    ("d", "expected"),
    ("2d6*2", "expected"),
    ("2d6 + 1 + 1", "expected"),
    ("1 2d6", "expected"),
    ("2d6+1001", "1001"),
    ("-2d6", "expected"),
])
def test_bad_expressions_name_the_field(text: str, why: str) -> None:
    with pytest.raises(RequestError) as caught:
        parse_expression(text)
    assert caught.value.field == "expression"
    assert str(caught.value).startswith("expression: ")
    assert why in str(caught.value)


def test_non_text_is_refused() -> None:
    with pytest.raises(RequestError) as caught:
        parse_expression(6)  # type: ignore[arg-type]
    assert caught.value.field == "expression"


def brute_counts(count: int, sides: int, modifier: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        out[sum(faces) + modifier] = out.get(sum(faces) + modifier, 0) + 1
    return out


@pytest.mark.parametrize("text", ["1d6", "2d6+1", "3d4-2", "2d2", "1d20", "4d6", "3d10+5", "5"])
def test_counts_match_brute_force(text: str) -> None:
    expr = parse_expression(text)
    ways, total = expr.counts()
    assert ways == brute_counts(expr.count, expr.sides, expr.modifier)
    assert total == sum(ways.values())
    dist = expr.distribution()
    assert all(dist[v] == w / total for v, w in ways.items())


@pytest.mark.parametrize("text", ["10d10+3", "5d20-5", "30d6", "3d100", "20d12+1", "100d4"])
def test_distribution_matches_icepool(text: str) -> None:
    expr = parse_expression(text)
    reference = expr.count @ icepool.Die(range(1, expr.sides + 1)) + expr.modifier
    ways, total = expr.counts()
    assert set(ways) == set(reference.outcomes())
    for value, count in ways.items():
        assert Fraction(count, total) == reference.probability(value)


@pytest.mark.parametrize("text", ["1d2", "3d6", "2d12-4", "40d20+7", "100d1000", "-8"])
def test_distribution_sums_to_one_and_spans_min_to_max(text: str) -> None:
    expr = parse_expression(text)
    dist = expr.distribution()
    assert math.isclose(sum(dist.values()), 1.0, abs_tol=1e-12)
    assert min(dist) == expr.minimum and max(dist) == expr.maximum
    assert len(dist) == expr.maximum - expr.minimum + 1


def test_roll_is_seeded_and_in_range() -> None:
    expr = parse_expression("3d8+2")
    first = [expr.roll(random.Random(seed)) for seed in range(200)]
    again = [expr.roll(random.Random(seed)) for seed in range(200)]
    assert first == again
    for total, faces in first:
        assert len(faces) == 3 and all(1 <= f <= 8 for f in faces)
        assert total == sum(faces) + 2
    assert {f for _, faces in first for f in faces} == set(range(1, 9))


def test_roll_takes_forced_dice() -> None:
    expr = parse_expression("2d6-1")
    assert expr.roll(ForcedDice([6, 3], "dice")) == (8, [6, 3])
    with pytest.raises(RequestError) as caught:
        expr.roll(ForcedDice([6, 7], "dice"))
    assert caught.value.field == "dice"


def test_fixed_number_rolls_no_die() -> None:
    assert parse_expression("5").roll(random.Random(1)) == (5, [])


def test_seeded_mean_agrees_with_the_distribution() -> None:
    expr = parse_expression("2d6+1")
    dist = expr.distribution()
    mean = sum(v * p for v, p in dist.items())
    var = sum((v - mean) ** 2 * p for v, p in dist.items())
    rng = random.Random(2024)
    n = 20_000
    sample = sum(expr.roll(rng)[0] for _ in range(n)) / n
    assert mean == pytest.approx(8.0)
    assert abs(sample - mean) <= 4 * math.sqrt(var / n)


@settings(max_examples=200, deadline=None)
@given(count=st.integers(1, 100), sides=st.integers(2, 1000), modifier=st.integers(-1000, 1000),
       upper=st.booleans(), spaces=st.sampled_from(["", " ", "  "]), explicit_one=st.booleans())
def test_round_trip(count, sides, modifier, upper, spaces, explicit_one) -> None:
    expr = DiceExpr(count, sides, modifier)
    assert parse_expression(str(expr)) == expr
    d = "D" if upper else "d"
    n = "" if count == 1 and not explicit_one else str(count)
    sign = "-" if modifier < 0 else "+"
    text = f"{spaces}{n}{spaces}{d}{spaces}{sides}{spaces}{sign}{spaces}{abs(modifier)}{spaces}"
    assert parse_expression(text) == expr
