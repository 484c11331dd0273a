"""Luck checked by brute force over the dice, never through the odds code under test.

Every face combination of a small request is forced into `resolve`, weighed by its exact
probability (Fractions), and ordered by each kind's order written here again from the rules'
words (gmscreen/docs/luck.md); the luck of an outcome must be the mass of every outcome at least
as good, to 1e-12, and the opponent's luck the mass of every outcome at most as good. Where a
choice is made during the roll (Éclats rerolls, Magisphère Impulsion), the policy is played
again here from its words, over the whole roll: the final results' law is the one checked.
Open dice (Arpèges jets ouverts, Te Deum) have endless chains: combinations below 1e-16 are
left out, and the mass left out (known exactly: 1 minus what was enumerated, asserted below
5e-13) is all the room luck gets above the enumerated chance (1e-13 of float rounding aside). Where the rules carry only a number from one step to the
next (a side's chance − malchance, a running total, the points of a round), one representative
dice list stands for all the lists that give it, with their summed probability.
"""

from __future__ import annotations

import random
import tomllib
from bisect import bisect_left, bisect_right
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmscreen.rules import RequestError, get_system, resolve

from gmscreen.rules import SYSTEMS

SYSTEM_IDS = tuple(SYSTEMS)
VECTOR_DIR = Path(__file__).resolve().parents[1] / "data" / "vectors"

EPS = Fraction(1, 10 ** 16)
Options = list[tuple[dict[str, Any], Fraction]]


# ---------------------------------------------------------------- the enumeration


def enumerate_dice(request: dict, first: str, options: Callable[[str, dict], Options]) -> list[tuple[dict, Fraction]]:
    """Every outcome of `request` over every face combination, with its probability.

    Starts by forcing `first`; a field `resolve` then asks for (a parry rolled only after a
    success, a negative die after an initial 1, the other side's dice) is forced in turn."""
    out: list[tuple[dict, Fraction]] = []

    def walk(forced: dict, p: Fraction, field: str) -> None:
        for faces, q in options(field, forced):
            pq = p * q
            if pq < EPS:
                continue
            trial = {**forced, **faces}
            try:
                result = resolve({**request, **trial})
            except RequestError as err:
                if err.field in trial:
                    raise
                walk(trial, pq, err.field)
                continue
            out.append((result, pq))

    walk({}, Fraction(1), first)
    return out


def check_luck(pairs: list[tuple[dict, Fraction]], key: Callable[[dict], Any], *, finite: bool = True,
               opponent: bool = False) -> dict:
    """Each outcome's luck is the mass of the outcomes at least as good; the worst has luck 1,
    the best (when the dice are finite) its own probability. With `opponent`, each outcome's
    `opponent_luck` is the mass of the outcomes at most as good. Returns the mass by key."""
    mass: dict[Any, Fraction] = defaultdict(Fraction)
    for result, p in pairs:
        mass[key(result)] += p
    omitted = 1 - sum(mass.values())
    assert 0 <= omitted <= Fraction(5, 10 ** 13), float(omitted)
    assert finite is (omitted == 0) or not finite
    keys = sorted(mass)
    at_least: dict[Any, Fraction] = {}
    acc = Fraction(0)
    for k in reversed(keys):
        acc += mass[k]
        at_least[k] = acc
    at_most = {k: 1 - at_least[k] + mass[k] - omitted for k in keys}
    # The true chance lies between what was enumerated and that plus the mass left out.
    tolerance = float(omitted) + 1e-13
    for result, _p in pairs:
        luck = result["luck"]
        assert type(luck) is float and 0 < luck <= 1
        low = float(at_least[key(result)])
        assert low - 1e-13 <= luck <= low + tolerance, (key(result), luck, low)
        if opponent:
            theirs = result["opponent_luck"]
            assert type(theirs) is float and 0 < theirs <= 1
            low = float(at_most[key(result)])
            assert low - 1e-13 <= theirs <= low + tolerance, (key(result), theirs, low)
        else:
            assert result.get("opponent_luck") is None
    worst = next(r for r, _ in pairs if key(r) == keys[0])
    assert abs(worst["luck"] - 1) <= tolerance
    if finite:
        best = next(r for r, _ in pairs if key(r) == keys[-1])
        assert abs(best["luck"] - float(mass[keys[-1]])) <= 1e-12
        if opponent:
            assert abs(best["opponent_luck"] - 1) <= 1e-12
            assert abs(worst["opponent_luck"] - float(mass[keys[0]])) <= 1e-12
    return mass


def ladder(pairs: Iterable[tuple[Any, Fraction]]) -> Callable[[Any], tuple[Fraction, Fraction]]:
    """From (key, mass) pairs: key -> (mass at least as good, mass at most as good)."""
    mass: dict[Any, Fraction] = defaultdict(Fraction)
    for k, p in pairs:
        mass[k] += p
    keys = sorted(mass)
    below = [Fraction(0)]
    for k in keys:
        below.append(below[-1] + mass[k])

    def at(k: Any) -> tuple[Fraction, Fraction]:
        return below[-1] - below[bisect_left(keys, k)], below[bisect_right(keys, k)]

    return at


def faces(sides: int, n: int, low: int = 1) -> Options:
    """Every list of n faces of a die, each with its probability."""
    p = Fraction(1, sides ** n)
    return [(list(combo), p) for combo in product(range(low, low + sides), repeat=n)]


def chains(sides: int) -> list[tuple[list[int], Fraction]]:
    """An open die's chains: k maxima then a lower face, while the chain is worth counting."""
    out = []
    k = 0
    while Fraction(1, sides ** (k + 1)) >= EPS:
        for last in range(1, sides):
            out.append(([sides] * k + [last], Fraction(1, sides ** (k + 1))))
        k += 1
    return out


def field_options(table: dict[str, Options]) -> Callable[[str, dict], Options]:
    """Options by field name, each a single field."""
    return lambda field, forced: [({field: f}, p) for f, p in table[field]]


# ---------------------------------------------------------------- MIR


def mir_successes(dice: Iterable[int]) -> int:
    """R1: 7–11 one success, 12 two."""
    return sum(2 if f == 12 else 1 if f >= 7 else 0 for f in dice)


def needed_dice(request: dict, forced: dict, field: str) -> int:
    """How many d12 `resolve` wants in `field` (it says so when given none)."""
    empty = {field: []}
    while True:
        try:
            resolve({**request, **forced, **empty})
        except RequestError as err:
            if err.code == "forced_all":          # the other side's dice are asked for first
                empty[err.field] = []
                continue
            assert err.code == "exact_dice" and err.field == field, err
            return err.params["n"]
        raise AssertionError("an empty list was accepted")


def mir_options(request: dict) -> Callable[[str, dict], Options]:
    def options(field: str, forced: dict) -> Options:
        if field == "helper_dice":
            per_helper = [faces(12, max(1, p)) for p in request["helper_pools"]]
            return [({field: [f for f, _ in combo]}, Fraction(1, 12 ** sum(len(f) for f, _ in combo)))
                    for combo in product(*per_helper)]
        return [({field: f}, p) for f, p in faces(12, needed_dice(request, forced, field))]

    return options


MIR_SIMPLE = [
    {"system": "mir", "kind": "simple", "pool": 2, "difficulty": 2},
    {"system": "mir", "kind": "simple", "pool": 4, "modifier": -1, "penalty": 1, "difficulty": 1},
    {"system": "mir", "kind": "simple", "skill": 1, "voie": 2, "difficulty": 3},
]


@pytest.mark.parametrize("request_", MIR_SIMPLE)
def test_mir_simple(request_: dict) -> None:
    pairs = enumerate_dice(request_, "dice", mir_options(request_))
    check_luck(pairs, lambda r: mir_successes(r["dice"]))


def test_mir_trivial_action_rolls_nothing_and_has_no_luck() -> None:
    result = resolve({"system": "mir", "kind": "simple", "pool": 3, "difficulty": 0})
    assert result["dice"] == [] and "luck" in result and result["luck"] is None


@pytest.mark.parametrize("request_", [
    {"system": "mir", "kind": "group", "skill": 0, "voie": 1, "difficulty": 1, "helper_pools": [1]},
    {"system": "mir", "kind": "group", "skill": 1, "voie": 1, "difficulty": 2, "helper_pools": [0]},
])
def test_mir_group(request_: dict) -> None:
    pairs = enumerate_dice(request_, "helper_dice", mir_options(request_))
    check_luck(pairs, lambda r: mir_successes(r["dice"]))


def mir_opposed_key(r: dict) -> tuple[int, int]:
    """R13: two 12s on one side only first; then the margin of successes."""
    a_crit, o_crit = r["actor_dice"].count(12) >= 2, r["opponent_dice"].count(12) >= 2
    return 1 + a_crit - o_crit, mir_successes(r["actor_dice"]) - mir_successes(r["opponent_dice"])


@pytest.mark.parametrize("request_", [
    {"system": "mir", "kind": "opposed", "actor_pool": 2, "opponent_pool": 1},
    {"system": "mir", "kind": "opposed", "actor_pool": 1, "opponent_pool": 2, "initiator": "opponent"},
    {"system": "mir", "kind": "opposed", "actor_pool": 2, "opponent_pool": 2, "initiator": "opponent"},
])
def test_mir_opposed(request_: dict) -> None:
    pairs = enumerate_dice(request_, "actor_dice", mir_options(request_))
    check_luck(pairs, mir_opposed_key, opponent=True)


def by_horizon(request: dict, field_of: Callable[[list], dict], steps: Options, state: Callable[[dict], Any],
               decided: Callable[[dict], bool], count: Callable[[dict], int], horizon: int,
               key: Callable[[dict], Any]) -> None:
    """A test made of steps (tests, rounds): after each number of steps j, every way of standing
    (a series decided earlier stays as it ended) against the luck of the results of j steps.
    Undecided series are grouped by the state the rules carry on (`state`)."""
    frontier: dict[Any, tuple[list, Fraction]] = {None: ([], Fraction(1))}
    ended: list[tuple[dict, Fraction]] = []
    for j in range(1, horizon + 1):
        now: list[tuple[dict, Fraction]] = []
        following: dict[Any, tuple[list, Fraction]] = {}
        for prefix, p in frontier.values():
            for step, q in steps:
                result = resolve({**request, **field_of(prefix + [step])})
                assert count(result) == j
                now.append((result, p * q))
                if not decided(result):
                    rep, mass = following.get(state(result), (prefix + [step], Fraction(0)))
                    following[state(result)] = (rep, mass + p * q)
        mass: dict[Any, Fraction] = defaultdict(Fraction)
        for result, p in ended + now:
            mass[key(result)] += p
        assert sum(mass.values()) == 1
        for result, _p in now:
            expected = sum(m for k, m in mass.items() if k >= key(result))
            assert abs(result["luck"] - float(expected)) <= 1e-12, (j, key(result))
        worst = min(mass)
        assert all(r["luck"] == pytest.approx(1, abs=1e-12) for r, _ in now if key(r) == worst)
        ended += [(r, p) for r, p in now if decided(r)]
        frontier = following
        if not frontier:
            break


def mir_extended_key(r: dict) -> tuple[int, int]:
    """Success sooner first, then a running test by its total, then a failure by its total."""
    total = sum(mir_successes(f) for f in r["rolls"])
    if r["outcome"] == "success":
        return 2, -len(r["rolls"])
    return (1 if r["outcome"] == "pending" else 0), total


@pytest.mark.parametrize("request_,dice,horizon", [
    ({"system": "mir", "kind": "extended", "pool": 1, "threshold": 3}, 1, 4),
    ({"system": "mir", "kind": "extended", "pool": 2, "threshold": 4, "max_tests": 2}, 2, 2),
    ({"system": "mir", "kind": "extended", "pool": 2, "threshold": 3}, 2, 3),
])
def test_mir_extended(request_: dict, dice: int, horizon: int) -> None:
    by_horizon(request_, lambda rolls: {"rolls": rolls}, faces(12, dice),
               state=lambda r: r["total_successes"], decided=lambda r: r["outcome"] != "pending",
               count=lambda r: r["tests"], horizon=horizon, key=mir_extended_key)


# ---------------------------------------------------------------- Arpèges


@lru_cache(maxsize=None)
def d10_side(prefix: str, open_roll: bool) -> Options:
    """One roll's chance and malchance dice; an open roll grouped by chance − malchance (R4:
    only the difference counts), with a representative pair of chains for each value."""
    if not open_roll:
        return [({prefix + "chance_dice": [c], prefix + "malchance_dice": [m]}, Fraction(1, 100))
                for c in range(1, 11) for m in range(1, 11)]
    by_value: dict[int, tuple[dict, Fraction]] = {}
    tens = [([10] * k + [last], p) for k in range(20) for last in range(1, 10)
            for p in [Fraction(1, 10 ** (k + 1))]]
    for c, pc in tens:
        for m, pm in tens:
            if pc * pm < EPS:
                continue
            value = sum(c) - sum(m)
            rep, mass = by_value.get(value, ({prefix + "chance_dice": c, prefix + "malchance_dice": m}, Fraction(0)))
            by_value[value] = (rep, mass + pc * pm)
    return list(by_value.values())


def arpeges_options(open_roll: bool) -> Callable[[str, dict], Options]:
    def options(field: str, forced: dict) -> Options:
        prefix = field[: -len("chance_dice")] if field.endswith("_chance_dice") or field == "chance_dice" else \
            field[: -len("malchance_dice")]
        return d10_side(prefix, open_roll)

    return options


def roll_of(r: dict, prefix: str = "") -> int:
    return sum(r[prefix + "chance_dice"]) - sum(r[prefix + "malchance_dice"])


@pytest.mark.parametrize("open_roll", [False, True])
@pytest.mark.parametrize("request_", [
    {"system": "arpeges", "kind": "simple", "difficulty": -3, "skill_level": 2},
    {"system": "arpeges", "kind": "opposed_one_roll", "actor_skill_level": 1, "opponent_skill_level": 3},
])
def test_arpeges_one_roll(request_: dict, open_roll: bool) -> None:
    """One roll, the actor's: the opponent rolls no die and has no luck of their own."""
    request_ = {**request_, "open_roll": open_roll}
    pairs = enumerate_dice(request_, "chance_dice", arpeges_options(open_roll))
    check_luck(pairs, roll_of, finite=not open_roll)
    assert all("opponent_luck" not in r for r, _ in pairs)


@pytest.mark.parametrize("open_roll", [False, True])
def test_arpeges_two_rolls(open_roll: bool) -> None:
    request_ = {"system": "arpeges", "kind": "opposed_two_rolls", "actor_skill_level": 2,
                "opponent_skill_level": 0, "open_roll": open_roll}
    pairs = enumerate_dice(request_, "actor_chance_dice", arpeges_options(open_roll))
    check_luck(pairs, lambda r: roll_of(r, "actor_") - roll_of(r, "opponent_"), finite=not open_roll, opponent=True)


@pytest.mark.parametrize("open_roll,parry", [(False, True), (False, False), (True, True)])
def test_arpeges_confrontation(open_roll: bool, parry: bool) -> None:
    """The defender rolls only to parry a success: their luck is the reversed order's, given the
    parry was rolled (none when it was not)."""
    request_ = {"system": "arpeges", "kind": "confrontation", "difficulty": 0, "actor_skill_level": 1,
                "opponent_skill_level": -2, "parry": parry, "open_roll": open_roll}
    pairs = enumerate_dice(request_, "actor_chance_dice", arpeges_options(open_roll))
    assert any(r["parry_rolled"] for r, _ in pairs) is parry

    def key(r: dict) -> tuple[bool, int]:
        return r["outcome"] == "success", roll_of(r, "actor_")

    mass = check_luck([(dict(r, opponent_luck=None), p) for r, p in pairs], key, finite=not open_roll)
    assert sum(mass.values()) <= 1
    parried = [(r, p) for r, p in pairs if r["parry_rolled"]]
    assert all(r["opponent_luck"] is None for r, _ in pairs if not r["parry_rolled"])
    rolled = sum(p for _, p in parried)
    theirs = ladder((key(r), p) for r, p in parried)
    for r, _p in parried:
        expected = float(theirs(key(r))[1] / rolled)
        assert abs(r["opponent_luck"] - expected) <= 1e-12 + 1e-12 / float(rolled), (key(r), r["opponent_luck"])


# ---------------------------------------------------------------- Éclats

ECLATS_RANK = {"critical_failure": 0, "automatic_failure": 1, "failure": 2, "success": 3}


def eclats_key(r: dict) -> tuple[int, int]:
    """The outcome, then the result (kept die + skill)."""
    return ECLATS_RANK[r["outcome"]], r["result"]


def eclats_policy(request: dict) -> list[tuple[dict, Fraction]]:
    """The whole roll as the policy plays it, played again here: `best` rolls again while the
    dice so far would not succeed, within the characteristic (R3, R4); `single` rolls once. What
    stopping would give is read from `resolve` with those dice forced."""
    last = 1 if request.get("policy") == "single" else request["characteristic"]
    out: list[tuple[dict, Fraction]] = []

    def walk(prefix: list[int], p: Fraction) -> None:
        for face in range(10):
            dice, q = prefix + [face], p / 10
            result = resolve({**request, "dice": dice})
            if result["outcome"] == "success" or len(dice) == last:
                out.append((result, q))
            else:
                walk(dice, q)

    walk([], Fraction(1))
    return out


@pytest.mark.parametrize("request_", [
    {"system": "eclats", "kind": "simple", "characteristic": 3, "skill": 2, "threshold": 8},
    {"system": "eclats", "kind": "simple", "characteristic": 3, "skill": 0, "threshold": 5,
     "level3_second_zero": "none"},
    {"system": "eclats", "kind": "simple", "characteristic": 2, "skill": 1, "threshold": 6,
     "single_zero": "automatic_failure"},
    {"system": "eclats", "kind": "simple", "characteristic": 3, "skill": 1, "threshold": 9, "policy": "single"},
    {"system": "eclats", "kind": "simple", "characteristic": 2, "skill": 5, "threshold": 3},
])
def test_eclats(request_: dict) -> None:
    """Over the whole roll: a die rerolled away is part of it. Every list of dice the GM may type
    (the policy's own, and those that stop early or go on after a success) has the luck of its
    result against the policy's law."""
    finals = eclats_policy(request_)
    assert sum(p for _, p in finals) == 1
    law = ladder((eclats_key(r), p) for r, p in finals)
    for rolls in range(1, request_["characteristic"] + 1):
        for dice in product(range(10), repeat=rolls):
            result = resolve({**request_, "dice": list(dice)})
            assert abs(result["luck"] - float(law(eclats_key(result))[0])) <= 1e-12, (dice, result["luck"])
    assert resolve({**request_, "dice": []})["luck"] is None


def test_eclats_a_reroll_that_saves_the_roll_is_not_lucky() -> None:
    """Issue 22: characteristic 3, threshold 9, no skill. A failure saved on the third roll by a
    9 was 'a 10 % roll' when only its own die counted; over the whole roll, 9 is the result a
    roll gets 27.1 % of the time, and a first-roll 9 gets the same luck."""
    request = {"system": "eclats", "kind": "simple", "characteristic": 3, "threshold": 9}
    saved = resolve({**request, "dice": [3, 5, 9]})
    assert saved["outcome"] == "success" and saved["luck"] == pytest.approx(1 - 0.9 ** 3, abs=1e-12)
    assert resolve({**request, "dice": [9]})["luck"] == saved["luck"]
    failed = resolve({**request, "dice": [3, 5, 8]})
    assert failed["outcome"] == "failure" and failed["luck"] > 0.271


def test_a_roll_with_no_die_has_no_luck() -> None:
    """R5 (the skill reaches the threshold) and characteristic 0 roll nothing: `luck` is null."""
    for request in ({"system": "eclats", "kind": "simple", "characteristic": 2, "skill": 5, "threshold": 3},
                    {"system": "eclats", "kind": "simple", "characteristic": 0, "skill": 1, "threshold": 1}):
        result = resolve(request, seed=3)
        assert result["rolls"] == 0 and "luck" in result and result["luck"] is None


# ---------------------------------------------------------------- Magisphère

MAGI_RANK = {"critical_failure": 0, "failure": 1, "success": 2, "critical_success": 3}
MAGI_FAILING = ("failure", "critical_failure")


def magi_budget(request: dict, prefix: str = "") -> int:
    """Rerolls the policy may buy (R5–R7): the points left after the +3, one at most under the
    `one` reroll limit."""
    if prefix + "impulsions" not in request:
        return 0
    points = request[prefix + "impulsions"] - int(request.get(prefix + "impulse_bonus", False))
    return min(points, 1) if request.get("reroll_limit") == "one" else points


def magisphere_policy(request: dict) -> list[tuple[dict, Fraction]]:
    """The whole roll as the policy plays it, played again here: reroll while the kept d20 fails
    (a natural 1 included) and points remain (R6, R7); the outcome of stopping is read from
    `resolve` with those dice forced."""
    budget = magi_budget(request)
    out: list[tuple[dict, Fraction]] = []

    def walk(prefix: list[int], p: Fraction) -> None:
        for face in range(1, 21):
            dice, q = prefix + [face], p / 20
            result = resolve({**request, "dice": dice})
            if result["outcome"] in MAGI_FAILING and len(dice) - 1 < budget:
                walk(dice, q)
            else:
                out.append((result, q))

    walk([], Fraction(1))
    return out


def magi_simple_key(r: dict) -> tuple[int, int]:
    return MAGI_RANK[r["outcome"]], r["score"]


@pytest.mark.parametrize("request_", [
    {"system": "magisphere", "kind": "simple", "stat": 10, "skill": 2, "threshold": 20, "malus": 2,
     "impulse_bonus": True, "impulsions": 1},
    {"system": "magisphere", "kind": "simple", "stat": 10, "threshold": 19, "impulsions": 2},
    {"system": "magisphere", "kind": "simple", "stat": 12, "threshold": 25, "impulse_bonus": True, "impulsions": 3,
     "reroll_limit": "one"},
    {"system": "magisphere", "kind": "simple", "stat": 12, "threshold": 25, "impulse_bonus": True},
])
def test_magisphere_simple(request_: dict) -> None:
    """Over the whole roll, the rerolls bought included: the policy's own dice and any other list
    the points allow have the luck of their result against the policy's law."""
    finals = magisphere_policy(request_)
    assert sum(p for _, p in finals) == 1
    law = ladder((magi_simple_key(r), p) for r, p in finals)
    lists = [r["dice"] for r, _ in finals] + [[f] for f in range(1, 21)]
    if request_.get("impulsions", 0) - int(request_.get("impulse_bonus", False)) >= 1:
        lists += [[a, b] for a in range(1, 21, 3) for b in range(1, 21)]
    for dice in lists:
        result = resolve({**request_, "dice": dice})
        assert abs(result["luck"] - float(law(magi_simple_key(result))[0])) <= 1e-12, (dice, result["luck"])


def test_magisphere_a_reroll_that_saves_the_roll_is_not_lucky() -> None:
    """Issue 22: 2 Impulsion points, 9 or more to succeed. Saved by the second reroll with a 19,
    the roll was 'a 10 % roll' when only the kept die counted; over the whole roll a 19 or a 20
    comes 15.6 % of the time, and a first-roll 19 has that same luck."""
    request = {"system": "magisphere", "kind": "simple", "stat": 10, "threshold": 19, "impulsions": 2}
    saved = resolve({**request, "dice": [3, 5, 19]})
    assert saved["outcome"] == "success"
    assert saved["luck"] == pytest.approx(0.1 + 0.4 * 0.1 + 0.4 ** 2 * 0.1, abs=1e-12)
    assert resolve({**request, "dice": [19]})["luck"] == saved["luck"]
    assert resolve({**request, "dice": [3, 5, 9]})["luck"] == pytest.approx(1 - 0.4 ** 3, abs=1e-12)


def magi_base(request: dict, prefix: str) -> int:
    return (request[prefix + "stat"] + request.get(prefix + "skill", 0) + request.get(prefix + "bonus", 0)
            + sum(h // 2 for h in request.get(prefix + "helper_skills", [])))


def magi_score(request: dict, prefix: str, face: int, rerolled: bool) -> int:
    """R1, R5, R6: the +3 bought before the roll is lost once the test is rerolled."""
    bonus = 3 if request.get(prefix + "impulse_bonus") and not rerolled else 0
    return face + magi_base(request, prefix) + bonus


def magi_exchange(a: int, a_score: int, o: int, o_score: int) -> tuple[str, int, int]:
    """R14–R17 and the round points of R19–R21, from the rules' table: (winner, actor's, opponent's)."""
    if a == 20 and o == 20:
        return ("actor", 2, 0) if a_score > o_score else ("opponent", 0, 2) if o_score > a_score else ("tie", 1, 1)
    if a == 20:
        return "actor", 3 if o == 1 else 2, 0
    if o == 20:
        return "opponent", 0, 3 if a == 1 else 2
    if a == 1 and o == 1:
        return "tie", 1, 1
    if a == 1:
        return "opponent", 0, 2
    if o == 1:
        return "actor", 2, 0
    return ("actor", 1, 0) if a_score > o_score else ("opponent", 0, 1) if o_score > a_score else ("tie", 0, 0)


WINNER_RANK = {"opponent": 0, "tie": 1, "actor": 2}


def magi_contest_key(a: int, a_score: int, o: int, o_score: int) -> tuple[int, int, int]:
    """Who wins, then the réussites the exchange gives (actor's minus opponent's), then the margin."""
    winner, ap, op = magi_exchange(a, a_score, o, o_score)
    return WINNER_RANK[winner], ap - op, a_score - o_score


def magisphere_opposed_law(request: dict) -> dict[tuple[int, bool, int, bool], Fraction]:
    """The final kept dice (face, rerolled) of each side under the policy, played again here:
    the side that loses rerolls while it has points; a tie stops."""
    budgets = magi_budget(request, "actor_"), magi_budget(request, "opponent_")

    @lru_cache(maxsize=None)
    def go(a: int, ar: bool, o: int, orr: bool, a_left: int, o_left: int) -> tuple:
        """Ends from here, as integer ways out of 20**(a_left + o_left)."""
        winner = magi_exchange(a, magi_score(request, "actor_", a, ar), o, magi_score(request, "opponent_", o, orr))[0]
        if winner == "opponent" and a_left:
            nexts = [go(f, True, o, orr, a_left - 1, o_left) for f in range(1, 21)]
        elif winner == "actor" and o_left:
            nexts = [go(a, ar, f, True, a_left, o_left - 1) for f in range(1, 21)]
        else:
            return (((a, ar, o, orr), 20 ** (a_left + o_left)),)
        out: dict = defaultdict(int)
        for law in nexts:
            for k, w in law:
                out[k] += w
        return tuple(out.items())

    total: dict = defaultdict(int)
    for a in range(1, 21):
        for o in range(1, 21):
            for k, w in go(a, False, o, False, *budgets):
                total[k] += w
    return {k: Fraction(w, 400 * 20 ** sum(budgets)) for k, w in total.items()}


@pytest.mark.parametrize("request_", [
    {"system": "magisphere", "kind": "opposed", "actor_stat": 12, "actor_skill": 2, "actor_impulse_bonus": True,
     "opponent_stat": 14},
    {"system": "magisphere", "kind": "opposed", "actor_stat": 12, "actor_skill": 2, "actor_impulse_bonus": True,
     "actor_impulsions": 2, "opponent_stat": 14},
    {"system": "magisphere", "kind": "opposed", "actor_stat": 10, "opponent_stat": 11, "actor_impulsions": 1,
     "opponent_impulsions": 2, "opponent_impulse_bonus": True},
    {"system": "magisphere", "kind": "opposed", "actor_stat": 10, "opponent_stat": 9, "actor_impulsions": 3,
     "opponent_impulsions": 3, "reroll_limit": "one"},
])
def test_magisphere_opposed(request_: dict) -> None:
    """Every way the exchange can end (each side's last d20, rerolled or not) has, for the actor,
    the mass of the ends at least as good and, for the opponent, of those at most as good."""
    law = magisphere_opposed_law(request_)
    assert sum(law.values()) == 1

    def key(a: int, ar: bool, o: int, orr: bool) -> tuple[int, int, int]:
        return magi_contest_key(a, magi_score(request_, "actor_", a, ar), o, magi_score(request_, "opponent_", o, orr))

    ranked = ladder((key(*k), p) for k, p in law.items())
    firsts = {key(*k): k for k in sorted(law)}                 # every key once, and a third of the ends
    for a, ar, o, orr in sorted({*firsts.values(), *(k for k in law if (k[0] + k[2]) % 3 == 0)}):
        result = resolve({**request_, "actor_dice": [1, a] if ar else [a], "opponent_dice": [1, o] if orr else [o]})
        mine, theirs = ranked(key(a, ar, o, orr))
        assert abs(result["luck"] - float(mine)) <= 1e-12, ((a, ar, o, orr), result["luck"], float(mine))
        assert abs(result["opponent_luck"] - float(theirs)) <= 1e-12, ((a, ar, o, orr), result["opponent_luck"])


def test_magisphere_a_double_natural_20_outranks_a_one_point_win() -> None:
    """Issue 22: two natural 20s, the higher score winning, give two réussites (R20): better than
    an ordinary win by one point, which gives one."""
    request = {"system": "magisphere", "kind": "opposed", "actor_stat": 10, "opponent_stat": 10}
    double = resolve({**request, "actor_dice": [20], "opponent_dice": [20], "actor_bonus": 1})
    plain = resolve({**request, "actor_dice": [12], "opponent_dice": [11], "actor_bonus": 0})
    assert double["winner"] == plain["winner"] == "actor" and double["margin"] == plain["margin"] == 1
    assert double["luck"] < plain["luck"]


def magi_round_options(request: dict, sides: dict | None = None) -> list[tuple[tuple[int, int], dict, Fraction]]:
    """One round's points (R19–R21) from the rules' table, with one face pair standing for all
    that give them: (points, dice, probability)."""
    r = {**request, **(sides or {})}
    by: dict[tuple[int, int], tuple[dict, Fraction]] = {}
    for a in range(1, 21):
        for o in range(1, 21):
            _w, ap, op = magi_exchange(a, a + magi_base(r, "actor_"), o, o + magi_base(r, "opponent_"))
            rep, mass = by.get((ap, op), ({"actor_dice": [a], "opponent_dice": [o]}, Fraction(0)))
            by[(ap, op)] = (rep, mass + Fraction(1, 400))
    return [(points, rep, mass) for points, (rep, mass) in by.items()]


def magi_final_key(a: int, o: int, target: int, rounds: int) -> tuple[int, int, int] | None:
    """R18, R22: first to the target wins, both at once the more réussites; then the margin, then a
    win sooner and a loss later. None while running."""
    if a < target and o < target:
        return None
    rank = 2 if a > o else 0 if o > a else 1
    return rank, a - o, -rounds if rank == 2 else rounds if rank == 0 else 0


def magisphere_extended_law(request: dict, round_sides: list[dict] = (), leftover: float = 1e-14):
    """Every way the opposition goes, round by round, until what still runs weighs under
    `leftover`: (ended: [(key, dice, mass)], running: [ {points: (dice, mass)} after each round ],
    the mass still running)."""
    target = request["target"]
    ended: list[tuple[tuple, dict, Fraction]] = []
    running = [{(0, 0): ({"actor_dice": [], "opponent_dice": []}, Fraction(1))}]
    j = 0
    while sum(m for _, m in running[-1].values()) > leftover:
        options = magi_round_options(request, round_sides[j] if j < len(round_sides) else None)
        j += 1
        now: dict[tuple[int, int], tuple[dict, Fraction]] = {}
        for (pa, pb), (dice, p) in running[-1].items():
            for (x, y), step, q in options:
                joined = {k: dice[k] + step[k] for k in dice}
                key = magi_final_key(pa + x, pb + y, target, j)
                if key is None:
                    rep, mass = now.get((pa + x, pb + y), (joined, Fraction(0)))
                    now[(pa + x, pb + y)] = (rep, mass + p * q)
                else:
                    ended.append((key, joined, p * q))
        running.append(now)
    return ended, running, float(sum(m for _, m in running[-1].values()))


@pytest.mark.parametrize("request_", [
    {"system": "magisphere", "kind": "extended_opposed", "target": 2, "actor_stat": 10, "opponent_stat": 12},
    {"system": "magisphere", "kind": "extended_opposed", "target": 3, "actor_stat": 14, "opponent_stat": 12},
    {"system": "magisphere", "kind": "extended_opposed", "target": 1, "actor_stat": 10, "opponent_stat": 10},
])
def test_magisphere_extended_opposed(request_: dict) -> None:
    """Decided: against every way the opposition can end, however many rounds it takes (never
    only those ended after as many rounds). Still running: against every way of standing after
    as many rounds, an opposition decided before counting as it ended."""
    ended, running, left = magisphere_extended_law(request_)
    finals = ladder((key, mass) for key, _dice, mass in ended)
    checked: set[tuple] = set()
    for key, dice, _mass in ended:
        if key in checked:
            continue
        checked.add(key)
        result = resolve({**request_, **dice})
        assert result["winner"] != "pending"
        mine, theirs = finals(key)
        assert float(mine) - 1e-12 <= result["luck"] <= float(mine) + left + 1e-12, (key, result["luck"])
        assert float(theirs) - 1e-12 <= result["opponent_luck"] <= float(theirs) + left + 1e-12, key
    for j in range(1, 4):
        standing = [(key, mass) for key, dice, mass in ended if len(dice["actor_dice"]) <= j]
        standing += [((1, pa - pb, 0), mass) for (pa, pb), (_d, mass) in running[j].items()]
        assert sum(m for _, m in standing) == 1
        law = ladder(standing)
        for (pa, pb), (dice, _mass) in running[j].items():
            result = resolve({**request_, **dice})
            assert result["winner"] == "pending" and result["rounds"] == j
            mine, theirs = law((1, pa - pb, 0))
            assert abs(result["luck"] - float(mine)) <= 1e-12 and abs(result["opponent_luck"] - float(theirs)) <= 1e-12
    none = resolve({**request_, "actor_dice": [], "opponent_dice": []})
    assert none["luck"] is None and none["opponent_luck"] is None


def test_magisphere_a_quick_wide_win_and_a_slow_win_stand_against_the_same_ends() -> None:
    """Issue 22 (14 against 12, to 3): a win's luck is over every way the opposition ends, so a
    win by the same margin is luckier the sooner it comes, whatever the number of rounds."""
    request = {"system": "magisphere", "kind": "extended_opposed", "target": 3, "actor_stat": 14, "opponent_stat": 12}
    quick = resolve({**request, "actor_dice": [20, 15], "opponent_dice": [5, 3]})           # 2 + 1: 3 – 0
    slow = resolve({**request, "actor_dice": [15, 9, 5, 15], "opponent_dice": [3, 3, 7, 3]})    # 1, 1, 0, 1
    assert (quick["winner"], quick["actor_points"], quick["opponent_points"]) == ("actor", 3, 0)
    assert (slow["winner"], slow["actor_points"], slow["opponent_points"]) == ("actor", 3, 0)
    assert quick["rounds"] == 2 and slow["rounds"] == 4 and quick["luck"] < slow["luck"]


def test_magisphere_rounds_with_their_own_settings() -> None:
    """R18: rounds played with their own statistics follow their own points, the later rounds the
    opposition's; the luck is the whole opposition's standing, as for any other round."""
    from gmscreen.rules.magisphere import extended_luck

    request = {"system": "magisphere", "kind": "extended_opposed", "target": 2, "actor_stat": 10,
               "opponent_stat": 9, "opponent_skill": 4}
    own = [{"actor_stat": 6, "opponent_stat": 12}, {}]
    luck = extended_luck(request, own)
    ended, running, left = magisphere_extended_law(request, own)
    finals = ladder((key, mass) for key, _dice, mass in ended)
    seen: set[tuple] = set()
    for key, dice, _mass in ended:
        if key in seen:
            continue
        seen.add(key)
        outcome = {"winner": {2: "actor", 0: "opponent", 1: "tie"}[key[0]], "rounds": len(dice["actor_dice"]),
                   **_own_points(request, own, dice)}
        mine, theirs = finals(key)
        assert float(mine) - 1e-12 <= luck.actor(outcome) <= float(mine) + left + 1e-12, (key, float(mine))
        assert float(theirs) - 1e-12 <= luck.opponent(outcome) <= float(theirs) + left + 1e-12, key
    plain = extended_luck(request, [{}, {}])
    first = {"winner": "actor", "rounds": 1, "actor_points": 2, "opponent_points": 0}
    assert plain.actor(first) == resolve({**request, "actor_dice": [20], "opponent_dice": [5]})["luck"]
    assert luck.actor(first) != plain.actor(first)


def _own_points(request: dict, own: list[dict], dice: dict) -> dict:
    a_points = o_points = 0
    for n, (a, o) in enumerate(zip(dice["actor_dice"], dice["opponent_dice"])):
        r = {**request, **(own[n] if n < len(own) else {})}
        _w, ap, op = magi_exchange(a, a + magi_base(r, "actor_"), o, o + magi_base(r, "opponent_"))
        a_points, o_points = a_points + ap, o_points + op
    return {"actor_points": a_points, "opponent_points": o_points}


# ---------------------------------------------------------------- Te Deum


def tedeum_options(request: dict) -> Callable[[str, dict], Options]:
    def options(field: str, forced: dict) -> Options:
        side = field[: field.index("_") + 1] if field.startswith(("actor_", "opponent_")) else ""
        name = field[len(side):]
        if name == "dice":
            return [({field: c}, p) for c, p in chains(request[side + "die"])]
        if name == "providence_dice":
            return [({field: f}, p) for f, p in faces(request[side + "providence_die"], 1)]
        sides = request[side + "negative_die"]
        table = chains(sides) if request.get("open_negative_die") else faces(sides, 1)
        return [({field: f}, p) for f, p in table]

    return options


def tedeum_simple_key(r: dict) -> tuple[int, int]:
    """An initial 1 under any total, a critical failure lowest; else the total."""
    if r["dice"][0] == 1:
        return (0, 0) if r["outcome"] == "critical_failure" else (1, 0)
    return 2, r["total"]


@pytest.mark.parametrize("request_", [
    {"system": "tedeum", "kind": "simple", "die": 4, "skill": 2, "negative_die": 4, "difficulty": 7},
    {"system": "tedeum", "kind": "simple", "die": 6, "skill": 1, "negative_die": 4, "difficulty": 5,
     "providence_die": 4, "use_providence": True},
    {"system": "tedeum", "kind": "simple", "die": 4, "skill": 3, "negative_die": 4, "difficulty": 9,
     "open_negative_die": True},
])
def test_tedeum_simple(request_: dict) -> None:
    pairs = enumerate_dice(request_, "dice", tedeum_options(request_))
    check_luck(pairs, tedeum_simple_key, finite=False)


def tedeum_worse(r: dict, request: dict, side: str) -> bool:
    """R16: after an initial 1, the negative die above the skill is a critical failure."""
    return r[side + "dice"][0] == 1 and sum(r[side + "negative_dice"]) > request.get(side + "skill", 0)


def tedeum_opposed_key(request: dict) -> Callable[[dict], tuple[int, int, int]]:
    """R5–R7: an initial 1 on one side only decides (a critical failure worse than an automatic
    one, R16); two are a margin of 0, the worse failure losing the tie-break; else the margin."""
    def key(r: dict) -> tuple[int, int, int]:
        a1, o1 = r["actor_dice"][0] == 1, r["opponent_dice"][0] == 1
        a_worse, o_worse = tedeum_worse(r, request, "actor_"), tedeum_worse(r, request, "opponent_")
        if a1 != o1:
            return (0, 0 if a_worse else 1, 0) if a1 else (2, 1 if o_worse else 0, 0)
        if a1:
            return 1, 0, int(o_worse) - int(a_worse)
        return 1, r["actor_total"] - r["opponent_total"], 0

    return key


@pytest.mark.parametrize("request_", [
    {"system": "tedeum", "kind": "opposed", "actor_die": 4, "actor_skill": 2, "actor_negative_die": 4,
     "opponent_die": 6, "opponent_skill": 1, "opponent_negative_die": 4},
    {"system": "tedeum", "kind": "opposed", "actor_die": 4, "actor_negative_die": 4, "actor_providence_die": 4,
     "actor_use_providence": True, "opponent_die": 4, "opponent_skill": 3, "opponent_negative_die": 4},
    {"system": "tedeum", "kind": "opposed", "actor_die": 4, "actor_skill": 1, "actor_negative_die": 4,
     "opponent_die": 4, "opponent_skill": 2, "opponent_negative_die": 4, "open_negative_die": True},
])
def test_tedeum_opposed(request_: dict) -> None:
    pairs = enumerate_dice(request_, "actor_dice", tedeum_options(request_))
    check_luck(pairs, tedeum_opposed_key(request_), finite=False, opponent=True)


def test_tedeum_an_automatic_failure_in_an_opposition_is_not_the_worst() -> None:
    """Issue 22: an initial 1 whose negative die stays under the skill is an automatic failure;
    a critical one was possible, so it is not luck 1 (the same dice give the same in `simple`)."""
    side = {"die": 8, "skill": 3, "negative_die": 6}
    opposed = {"system": "tedeum", "kind": "opposed", **{"actor_" + k: v for k, v in side.items()},
               "opponent_die": 8, "opponent_negative_die": 6}
    automatic = resolve({**opposed, "actor_dice": [1], "actor_negative_dice": [2], "opponent_dice": [5]})
    critical = resolve({**opposed, "actor_dice": [1], "actor_negative_dice": [6], "opponent_dice": [5]})
    assert (automatic["actor_failure"], critical["actor_failure"]) == ("automatic", "critical")
    assert critical["luck"] == 1.0 and automatic["luck"] == pytest.approx(1 - 1 / 8 * 3 / 6 * 7 / 8, abs=1e-15)
    simple = resolve({"system": "tedeum", "kind": "simple", **side, "difficulty": 7, "dice": [1], "negative_dice": [2]})
    assert simple["luck"] == pytest.approx(1 - 1 / 8 * 3 / 6, abs=1e-15) and simple["luck"] < 1


ATTACK_RANK = {"critical_failure": 0, "automatic_failure": 1, "failure": 2, "success": 3, "critical_success": 4}


def tedeum_attack_key(r: dict) -> tuple[int, int]:
    rank = ATTACK_RANK[r["outcome"]]
    return rank, r["actor_total"] if rank >= 2 else 0


@pytest.mark.parametrize("request_", [
    {"system": "tedeum", "kind": "attack", "actor_die": 4, "actor_skill": 4, "actor_negative_die": 4,
     "opponent_die": 4, "opponent_skill": 2, "opponent_negative_die": 4},
    {"system": "tedeum", "kind": "attack", "actor_die": 6, "actor_skill": 3, "actor_negative_die": 6,
     "defender_reacts": False},
    {"system": "tedeum", "kind": "attack", "actor_die": 4, "actor_skill": 3, "actor_negative_die": 4,
     "actor_providence_die": 4, "actor_use_providence": True, "opponent_die": 4, "opponent_skill": 4,
     "opponent_negative_die": 4},
    {"system": "tedeum", "kind": "attack", "actor_die": 6, "actor_skill": 1, "actor_negative_die": 6,
     "opponent_die": 4, "opponent_negative_die": 4},
])
def test_tedeum_attack(request_: dict) -> None:
    """The defender who reacts rolled dice too: their luck is the order reversed."""
    pairs = enumerate_dice(request_, "actor_dice", tedeum_options(request_))
    reacts = request_.get("defender_reacts", True)
    check_luck(pairs, tedeum_attack_key, finite=False, opponent=reacts)
    assert all("opponent_luck" in r for r, _ in pairs)


# ---------------------------------------------------------------- every kind, every system


def every_kind() -> set[tuple[str, str]]:
    return {(sid, kind) for sid in SYSTEM_IDS for kind in get_system(sid).kinds}


def test_every_kind_of_every_system_is_brute_forced_here() -> None:
    """The tests above cover each kind (a new kind must bring its brute force)."""
    covered = {("mir", k) for k in ("simple", "group", "opposed", "extended")} | \
        {("arpeges", k) for k in ("simple", "opposed_one_roll", "opposed_two_rolls", "confrontation")} | \
        {("eclats", "simple")} | {("magisphere", k) for k in ("simple", "opposed", "extended_opposed")} | \
        {("tedeum", k) for k in ("simple", "opposed", "attack")}
    assert every_kind() == covered


# ---------------------------------------------------------------- properties


def _vector_requests() -> list[dict]:
    out = []
    for sid in SYSTEM_IDS:
        with open(VECTOR_DIR / f"{sid}.toml", "rb") as handle:
            cases = tomllib.load(handle)["case"]
        for case in cases:
            out.append(case["request"])
    return out


VECTOR_REQUESTS = _vector_requests()


def _no_die(out: dict, kind: Any) -> bool:
    """A roll with no die (MIR Triviale, Éclats R5): every dice field of the outcome empty."""
    return all(not out.get(name) for name in kind.dice_fields)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(VECTOR_REQUESTS) - 1), seed=st.integers(0, 2 ** 32))
def test_luck_is_a_probability_for_rolled_and_forced_dice(index: int, seed: int) -> None:
    """0 < luck <= 1 for every kind, dice rolled or forced, and None for a roll with no die
    (Éclats R5); the same outcome forced again has the same luck as when it was rolled."""
    request = VECTOR_REQUESTS[index]
    kind = get_system(request["system"]).kinds[request["kind"]]
    forced = resolve(request)
    plain = {k: v for k, v in request.items() if k not in kind.dice_fields}
    rolled = resolve(plain, seed=seed)
    for out in (forced, rolled):
        if _no_die(out, kind):
            assert out["luck"] is None
        else:
            assert 0 < out["luck"] <= 1
    replay = {**plain, **{name: rolled[name] for name in kind.dice_fields if name in rolled}}
    if any(name in rolled for name in kind.dice_fields):
        try:
            again = resolve(replay)
        except RequestError:
            return       # a kind whose outcome names its dice otherwise (MIR extended rolls)
        assert again["luck"] == rolled["luck"]


@settings(max_examples=40, deadline=None)
@given(pool=st.integers(1, 3), modifier=st.integers(-2, 2), difficulty=st.integers(1, 7))
def test_mir_best_has_its_own_probability_worst_one(pool: int, modifier: int, difficulty: int) -> None:
    request = {"system": "mir", "kind": "simple", "pool": pool, "modifier": modifier, "difficulty": difficulty}
    n = max(1, pool + modifier)
    assert resolve({**request, "dice": [1] * n})["luck"] == 1.0
    assert resolve({**request, "dice": [12] * n})["luck"] == pytest.approx(12.0 ** -n, abs=1e-15)


@settings(max_examples=40, deadline=None)
@given(difficulty=st.integers(-30, 30), level=st.integers(-30, 30))
def test_arpeges_best_and_worst_closed_rolls(difficulty: int, level: int) -> None:
    request = {"system": "arpeges", "kind": "simple", "difficulty": difficulty, "skill_level": level}
    assert resolve({**request, "chance_dice": [1], "malchance_dice": [10]})["luck"] == 1.0
    assert resolve({**request, "chance_dice": [10], "malchance_dice": [1]})["luck"] == pytest.approx(0.01, abs=1e-15)


@settings(max_examples=40, deadline=None)
@given(characteristic=st.integers(1, 3), skill=st.integers(0, 5), threshold=st.integers(1, 15),
       data=st.data())
def test_eclats_property(characteristic: int, skill: int, threshold: int, data: st.DataObject) -> None:
    """A better kept die is never less lucky; the dice before it change nothing but the outcome
    they lead to (its result stands against the whole roll's law)."""
    request = {"system": "eclats", "kind": "simple", "characteristic": characteristic, "skill": skill,
               "threshold": threshold}
    rolls = data.draw(st.integers(1, characteristic))
    before = data.draw(st.lists(st.integers(0, 9), min_size=rolls - 1, max_size=rolls - 1))
    lucks = [resolve({**request, "dice": [*before, face]})["luck"] for face in range(10)]
    assert all(0 < luck <= 1 for luck in lucks)
    assert all(a >= b for a, b in zip(lucks, lucks[1:]))
    other = [(f + 1) % 10 for f in before]
    for face in range(1, 10):       # a face above 0 reads the same after any dice before it
        assert resolve({**request, "dice": [*other, face]})["luck"] == lucks[face]


@settings(max_examples=40, deadline=None)
@given(stat=st.integers(0, 30), threshold=st.integers(1, 50), rerolls=st.integers(0, 3), seed=st.integers(0, 99))
def test_magisphere_natural_20_and_1(stat: int, threshold: int, rerolls: int, seed: int) -> None:
    request = {"system": "magisphere", "kind": "simple", "stat": stat, "threshold": threshold}
    first = [random.Random(seed).randint(1, 20) for _ in range(rerolls)]
    assert resolve({**request, "dice": [*first, 20]})["luck"] == pytest.approx(0.05, abs=1e-15)
    assert resolve({**request, "dice": [*first, 1]})["luck"] == 1.0


def test_golden_vectors_carry_no_luck_and_compare_only_what_they_list() -> None:
    """tests/rules/test_vectors.py checks the keys a vector lists: `luck` is checked here."""
    for request in VECTOR_REQUESTS:
        out = resolve(request)
        if _no_die(out, get_system(request["system"]).kinds[request["kind"]]):
            assert out["luck"] is None
        else:
            assert 0 < out["luck"] <= 1
    for sid in SYSTEM_IDS:
        with open(VECTOR_DIR / f"{sid}.toml", "rb") as handle:
            assert all("luck" not in case["expect"] for case in tomllib.load(handle)["case"])


def test_pathological_open_chain_keeps_a_positive_luck() -> None:
    """A thousand-face open chain is astronomically lucky, never 0."""
    request = {"system": "arpeges", "kind": "simple", "difficulty": 0, "skill_level": 0, "open_roll": True,
               "chance_dice": [10] * 400 + [3], "malchance_dice": [1]}
    assert 0 < resolve(request)["luck"] < 1e-300
