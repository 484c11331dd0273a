"""Magisphère: seed examples, exact odds against enumeration and icepool, random-mode policy,
properties of forced rolls, errors and the description shown on screen."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.rules import RequestError, get_system, odds, resolve
from gmscreen.rules._base import Reader
from gmscreen.rules.magisphere import OPPOSITIONS

SYSTEM = get_system("magisphere")
FAILING = ("failure", "critical_failure")


def req(kind: str, **fields) -> dict:
    return {"system": "magisphere", "kind": kind, **fields}


# ---------------------------------------------------------------- independent reference rules


def ref_outcome(natural: int, score: int, target: int) -> str:
    """R1, R10, R11 written out again, apart from the module."""
    naturals = {20: "critical_success", 1: "critical_failure"}
    return naturals.get(natural, "success" if score >= target else "failure")


def ref_winner(a_nat: int, a_score: int, o_nat: int, o_score: int) -> str:
    """R14–R17 as the rules state them."""
    if a_nat == 20 and o_nat == 20:
        return "actor" if a_score > o_score else "opponent" if a_score < o_score else "tie"
    if a_nat == 20:
        return "actor"
    if o_nat == 20:
        return "opponent"
    if a_nat == 1 and o_nat == 1:
        return "tie"
    if a_nat == 1:
        return "opponent"
    if o_nat == 1:
        return "actor"
    return "actor" if a_score > o_score else "opponent" if a_score < o_score else "tie"


# The round points table of magisphere.md, row by row (actor's view; the opponent's mirrors it).
def ref_points(a_nat: int, a_score: int, o_nat: int, o_score: int) -> tuple[int, int]:
    if a_nat == 20 and o_nat == 20:
        return (2, 0) if a_score > o_score else (0, 2) if a_score < o_score else (1, 1)
    if a_nat == 20:
        return (3, 0) if o_nat == 1 else (2, 0)
    if o_nat == 20:
        return (0, 3) if a_nat == 1 else (0, 2)
    if a_nat == 1 and o_nat == 1:
        return (1, 1)
    if a_nat == 1:
        return (0, 2)
    if o_nat == 1:
        return (2, 0)
    return (1, 0) if a_score > o_score else (0, 1) if a_score < o_score else (0, 0)


def brute_simple(base: int, impulse_bonus: bool, target: int, rerolls: int) -> dict[str, Fraction]:
    """Every d20 sequence the policy can produce: reroll while failing and points remain."""

    @lru_cache(maxsize=None)
    def roll(rerolled: bool, left: int) -> tuple[tuple[str, Fraction], ...]:
        out: dict[str, Fraction] = {}
        for face in range(1, 21):
            score = face + base + (3 if impulse_bonus and not rerolled else 0)
            outcome = ref_outcome(face, score, target)
            if outcome in FAILING and left > 0:
                for name, p in roll(True, left - 1):
                    out[name] = out.get(name, 0) + p / 20
            else:
                out[outcome] = out.get(outcome, 0) + Fraction(1, 20)
        return tuple(out.items())

    result = {name: Fraction(0) for name in ("critical_success", "critical_failure", "success", "failure")}
    result.update(dict(roll(False, rerolls)))
    return result


def brute_opposed(a_base: int, a_ib: bool, a_left: int, o_base: int, o_ib: bool, o_left: int) -> dict[str, Fraction]:
    """Every d20 the loser-rerolls policy can roll, enumerated state by state."""

    def score(base, ib, face, rerolled):
        return face + base + (3 if ib and not rerolled else 0)

    @lru_cache(maxsize=None)
    def state(a, a_rer, a_pts, o, o_rer, o_pts) -> tuple[Fraction, Fraction, Fraction]:
        w = ref_winner(a, score(a_base, a_ib, a, a_rer), o, score(o_base, o_ib, o, o_rer))
        if w == "opponent" and a_pts:
            parts = [state(f, True, a_pts - 1, o, o_rer, o_pts) for f in range(1, 21)]
        elif w == "actor" and o_pts:
            parts = [state(a, a_rer, a_pts, g, True, o_pts - 1) for g in range(1, 21)]
        else:
            return tuple(Fraction(int(w == name)) for name in ("actor", "opponent", "tie"))
        return tuple(sum(p[i] for p in parts) / 20 for i in range(3))

    total = [Fraction(0)] * 3
    for a in range(1, 21):
        for o in range(1, 21):
            for i, p in enumerate(state(a, False, a_left, o, False, o_left)):
                total[i] += p / 400
    return dict(zip(("actor", "opponent", "tie"), total))


def brute_extended(a_base: int, o_base: int, target: int) -> dict[str, Fraction]:
    """Round by round over the 400 face pairs; a pointless round repeats, so
    P(s) = sum(p * P(s')) / (1 - p00) over the scoring rounds."""
    rounds: dict[tuple[int, int], Fraction] = {}
    for a in range(1, 21):
        for o in range(1, 21):
            pts = ref_points(a, a + a_base, o, o + o_base)
            rounds[pts] = rounds.get(pts, 0) + Fraction(1, 400)
    stay = rounds.pop((0, 0), Fraction(0))

    @lru_cache(maxsize=None)
    def value(pa: int, pb: int) -> tuple[Fraction, Fraction, Fraction]:
        if pa >= target or pb >= target:
            if pa >= target and pb >= target:
                w = "actor" if pa > pb else "opponent" if pb > pa else "tie"
            else:
                w = "actor" if pa >= target else "opponent"
            return tuple(Fraction(int(w == n)) for n in ("actor", "opponent", "tie"))
        acc = [Fraction(0)] * 3
        for (x, y), p in rounds.items():
            for i, v in enumerate(value(pa + x, pb + y)):
                acc[i] += p * v
        return tuple(v / (1 - stay) for v in acc)

    return dict(zip(("actor", "opponent", "tie"), value(0, 0)))


def assert_close(got: dict[str, float], want: dict[str, Fraction], tol: float = 1e-12) -> None:
    assert set(got) == set(want)
    for name in want:
        assert abs(got[name] - float(want[name])) <= tol, (name, got[name], float(want[name]))


# ---------------------------------------------------------------- seed examples


def test_shady_sells_stolen_goods():
    """Seed: bonus 2, maluses 3 + 2 on Standard: the threshold to beat is 25."""
    out = resolve(req("simple", stat=10, skill=3, bonus=2, threshold=20, malus=3 + 2, dice=[10]))
    assert (out["target"], out["score"], out["margin"], out["outcome"]) == (25, 25, 0, "success")
    assert out["no_roll_needed"] is False
    worse = resolve(req("simple", stat=10, skill=3, bonus=2, threshold=20, malus=5, dice=[9]))
    assert worse["outcome"] == "failure" and worse["margin"] == -1


def test_granok_beats_gros_bob_with_a_natural_20():
    """Seed: Granok 10 + 20 = 30 beats gros Bob's 9 + 4 + 18 = 31 by a critical."""
    out = resolve(req("opposed", actor_stat=10, opponent_stat=9, opponent_skill=4,
                      actor_dice=[20], opponent_dice=[18]))
    assert out["winner"] == "actor" and out["decided_by"] == "critical"
    assert (out["actor_score"], out["opponent_score"], out["margin"]) == (30, 31, -1)
    assert (out["actor_points"], out["opponent_points"]) == (2, 0)
    words = SYSTEM.describe(out)
    assert words.headline == "l'acteur l'emporte" and words.good is True
    assert [d.status for d in words.groups[0].dice] == ["critical"]


def test_doue_helper_grants_two():
    out = resolve(req("simple", stat=8, helper_skills=[4], threshold=20, dice=[10]))
    assert out["cooperation_bonus"] == 2 and out["score"] == 20 and out["outcome"] == "success"


def test_granok_odds_without_impulsion():
    """Odds of the arm wrestling: exactly the counts of the 400 face pairs."""
    got = odds(req("opposed", actor_stat=10, opponent_stat=9, opponent_skill=4))
    want = {"actor": Fraction(0), "opponent": Fraction(0), "tie": Fraction(0)}
    for a in range(1, 21):
        for o in range(1, 21):
            want[ref_winner(a, a + 10, o, o + 13)] += Fraction(1, 400)
    assert_close(got["winner"], want)
    assert got["chance"] == got["winner"]["actor"]


# ---------------------------------------------------------------- simple: rules


@pytest.mark.parametrize("dice, impulse_bonus, score, applied, spent", [
    ([7], True, 22, True, 1),          # R5: +3 before the roll
    ([7, 7], True, 19, False, 2),      # R6: the +3 is lost on a reroll
    ([7, 7, 7], False, 19, False, 2),  # R7: each reroll costs a point
])
def test_impulsion_bonus_and_rerolls(dice, impulse_bonus, score, applied, spent):
    out = resolve(req("simple", stat=10, skill=2, impulse_bonus=impulse_bonus, threshold=22, dice=dice))
    assert out["score"] == score
    assert out["impulse_bonus_applied"] is applied
    assert out["impulsions_spent"] == spent
    assert out["rerolls"] == len(dice) - 1
    assert out["dice"] == dice


def test_reroll_limit_one_refuses_a_second_reroll():
    request = req("simple", stat=10, threshold=20, dice=[2, 3, 4], reroll_limit="one")
    with pytest.raises(RequestError) as err:
        resolve(request)
    assert err.value.field == "dice" and "one reroll" in str(err.value)
    assert resolve({**request, "dice": [2, 3]})["rerolls"] == 1
    assert resolve({**request, "reroll_limit": "unlimited"})["rerolls"] == 2


@pytest.mark.parametrize("fields, field", [
    ({"reroll_limit": "twice"}, "reroll_limit"),
    ({"impulse_bonus": True, "impulsions": 0}, "impulsions"),
    ({"impulsions": 1, "dice": [3, 4, 5]}, "impulsions"),
    ({"helper_skills": [4, 21]}, "helper_skills"),
    ({"skill": 21}, "skill"),
    ({"bonus": -1}, "bonus"),
    ({"threshold": 51}, "threshold"),
    ({"dice": [10] * 101}, "dice"),
    ({"dice": [10.0]}, "dice"),
    ({"impulse_bonus": 1}, "impulse_bonus"),
    ({"stats": 10}, "stats"),
])
def test_simple_bad_requests_name_the_field(fields, field):
    request = req("simple", stat=10, threshold=20, dice=[10])
    request.update(fields)
    with pytest.raises(RequestError) as err:
        resolve(request)
    assert err.value.field == field


def test_no_roll_needed_counts_the_die_as_zero():
    """R13 (interpretation): stat + skill + bonus + cooperation >= threshold + malus."""
    at = resolve(req("simple", stat=15, skill=3, helper_skills=[4], threshold=18, malus=2, dice=[5]))
    below = resolve(req("simple", stat=15, skill=2, helper_skills=[4], threshold=18, malus=2, dice=[5]))
    assert at["no_roll_needed"] is True and below["no_roll_needed"] is False
    with_impulse = resolve(req("simple", stat=15, skill=2, impulse_bonus=True, threshold=18, malus=2, dice=[5]))
    assert with_impulse["no_roll_needed"] is False   # the +3 is bought for the roll, not counted here


# ---------------------------------------------------------------- simple: odds


SIMPLE_CASES = [
    (10, 0, False, 20, None, "unlimited"),
    (10, 3, False, 25, 1, "unlimited"),
    (5, 2, True, 22, 3, "unlimited"),
    (12, 4, True, 30, 4, "unlimited"),
    (0, 0, False, 50, 3, "unlimited"),
    (30, 20, False, 15, 2, "unlimited"),
    (8, 0, True, 20, 5, "one"),
    (8, 0, False, 19, 0, "unlimited"),
]


@pytest.mark.parametrize("stat, skill, ib, threshold, impulsions, limit", SIMPLE_CASES)
def test_simple_odds_match_enumeration(stat, skill, ib, threshold, impulsions, limit):
    request = req("simple", stat=stat, skill=skill, impulse_bonus=ib, threshold=threshold, reroll_limit=limit)
    if impulsions is not None:
        request["impulsions"] = impulsions
    got = odds(request)
    rerolls = 0 if impulsions is None else impulsions - int(ib)
    if limit == "one":
        rerolls = min(rerolls, 1)
    assert_close(got["outcome"], brute_simple(stat + skill, ib, threshold, rerolls))
    assert "reroll" in got["policy"]
    assert math.isclose(sum(got["outcome"].values()), 1.0, abs_tol=1e-12)


@pytest.mark.parametrize("base, target, rerolls", [(10, 20, 0), (10, 20, 1), (4, 25, 7), (0, 35, 40), (20, 12, 99)])
def test_simple_odds_match_icepool(base, target, rerolls):
    """Without the +3, the kept natural is icepool's d20 rerolled on failing faces."""
    failing = [f for f in range(1, 21) if ref_outcome(f, f + base, target) in FAILING]
    die = icepool.d20.reroll(failing, depth=rerolls) if rerolls and failing else icepool.d20
    want = {name: Fraction(0) for name in ("critical_success", "critical_failure", "success", "failure")}
    for face in range(1, 21):
        want[ref_outcome(face, face + base, target)] += die.probability(face)
    got = odds(req("simple", stat=base, threshold=target, impulsions=rerolls))
    assert_close(got["outcome"], want)


def test_simple_odds_many_points_stay_exact():
    """98 rerolls: the failure mass is (16/20)^98 * ... and must not vanish or go negative."""
    got = odds(req("simple", stat=0, threshold=20, impulsions=99, impulse_bonus=True))["outcome"]
    q = Fraction(19, 20)                 # a reroll fails a target of 20 from 0 on faces 1..19
    first_fail = Fraction(16, 20)        # with +3 the first roll fails on faces 1..16
    assert got["critical_failure"] == pytest.approx(float(first_fail * q ** 97 * Fraction(1, 20)), rel=1e-12)
    assert got["failure"] > 0 and math.isclose(sum(got.values()), 1.0, abs_tol=1e-12)


# ---------------------------------------------------------------- opposed


@pytest.mark.parametrize("a_stat, a_ib, a_pts, o_stat, o_ib, o_pts, limit", [
    (10, False, 1, 10, False, 1, "unlimited"),
    (10, True, 3, 12, False, 2, "unlimited"),
    (15, False, 2, 9, True, 3, "unlimited"),
    (0, False, 3, 30, False, 0, "unlimited"),
    (10, True, 4, 10, True, 4, "one"),
    (20, False, 0, 5, False, 2, "unlimited"),
])
def test_opposed_odds_match_enumeration(a_stat, a_ib, a_pts, o_stat, o_ib, o_pts, limit):
    request = req("opposed", actor_stat=a_stat, actor_impulse_bonus=a_ib, actor_impulsions=a_pts,
                  opponent_stat=o_stat, opponent_impulse_bonus=o_ib, opponent_impulsions=o_pts, reroll_limit=limit)
    got = odds(request)
    cap = 1 if limit == "one" else 99
    want = brute_opposed(a_stat, a_ib, min(a_pts - a_ib, cap), o_stat, o_ib, min(o_pts - o_ib, cap))
    assert_close(got["winner"], want)
    assert got["policy"]


@pytest.mark.parametrize("a_base, o_base", [(10, 13), (13, 13), (0, 30), (25, 3)])
def test_opposed_odds_without_points_match_icepool(a_base, o_base):
    die = icepool.map(lambda a, o: ref_winner(a, a + a_base, o, o + o_base), icepool.d20, icepool.d20)
    want = {name: die.probability(name) for name in ("actor", "opponent", "tie")}
    got = odds(req("opposed", actor_stat=a_base, opponent_stat=o_base))
    assert_close(got["winner"], want)
    assert got["policy"].startswith("no reroll")


def test_opposed_points_follow_the_round_table():
    for a in range(1, 21):
        for o in range(1, 21):
            out = resolve(req("opposed", actor_stat=7, opponent_stat=9, actor_dice=[a], opponent_dice=[o]))
            assert out["winner"] == ref_winner(a, a + 7, o, o + 9)
            assert (out["actor_points"], out["opponent_points"]) == ref_points(a, a + 7, o, o + 9)


def test_opposed_impulsions_checked_per_side():
    with pytest.raises(RequestError) as err:
        resolve(req("opposed", actor_stat=10, opponent_stat=10, opponent_impulsions=1,
                    actor_dice=[5], opponent_dice=[3, 4, 5]))
    assert err.value.field == "opponent_impulsions"
    with pytest.raises(RequestError) as err:
        resolve(req("opposed", actor_stat=10, opponent_stat=10, opponent_dice=[5]))
    assert err.value.field == "actor_dice"


# ---------------------------------------------------------------- extended opposition


@pytest.mark.parametrize("a_base, o_base, target", [(10, 10, 1), (10, 10, 2), (10, 12, 3), (5, 14, 5), (20, 0, 4)])
def test_extended_odds_match_the_chain(a_base, o_base, target):
    got = odds(req("extended_opposed", target=target, actor_stat=a_base, opponent_stat=o_base))
    assert_close(got["winner"], brute_extended(a_base, o_base, target))
    assert got["policy"] is None


def test_extended_odds_target_ten_symmetric():
    got = odds(req("extended_opposed", target=10, actor_stat=10, opponent_stat=10))["winner"]
    assert got["actor"] == pytest.approx(got["opponent"], abs=1e-15)
    assert_close(got, brute_extended(10, 10, 10))


def test_extended_opposition_refuses_impulsion_and_accepts_reroll_limit():
    for key, value in (("actor_impulsions", 1), ("opponent_impulse_bonus", True)):
        with pytest.raises(RequestError) as err:
            resolve(req("extended_opposed", target=2, actor_stat=10, opponent_stat=10, **{key: value}))
        assert err.value.field == key
    out = resolve(req("extended_opposed", target=2, actor_stat=10, opponent_stat=10, reroll_limit="one",
                      actor_dice=[], opponent_dice=[]))
    assert (out["winner"], out["rounds"], out["actor_points"]) == ("pending", 0, 0)


def test_extended_rounds_add_the_table_points():
    dice_a, dice_o = [1, 20, 20, 9], [1, 20, 5, 9]
    out = resolve(req("extended_opposed", target=4, actor_stat=10, opponent_stat=11,
                      actor_dice=dice_a, opponent_dice=dice_o))
    pa = pb = 0
    for a, o in zip(dice_a, dice_o):
        x, y = ref_points(a, a + 10, o, o + 11)
        pa, pb = pa + x, pb + y
    assert (out["actor_points"], out["opponent_points"]) == (pa, pb) == (3, 4)
    assert out["winner"] == "opponent" and out["rounds"] == 4


# ---------------------------------------------------------------- random mode: Monte Carlo and replay


def sample(kind: str, request: dict, n: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    resolver = SYSTEM.kinds[kind].resolve
    counts: dict[str, int] = {}
    key = "winner" if SYSTEM.kinds[kind].contest else "outcome"
    for _ in range(n):
        value = resolver(Reader(request), rng)[key]
        counts[value] = counts.get(value, 0) + 1
    return counts


def assert_within_4_sigma(counts: dict[str, int], probabilities: dict[str, float], n: int) -> None:
    assert set(counts) <= set(probabilities)
    for name, p in probabilities.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(counts.get(name, 0) / n - p) <= 4 * sigma + 1e-9, (name, counts.get(name, 0) / n, p)


@pytest.mark.parametrize("kind, fields", [
    ("simple", {"stat": 8, "skill": 2, "impulse_bonus": True, "impulsions": 3, "threshold": 24}),
    ("opposed", {"actor_stat": 10, "actor_impulsions": 2, "opponent_stat": 11, "opponent_impulsions": 2}),
    ("extended_opposed", {"target": 3, "actor_stat": 10, "opponent_stat": 12}),
])
def test_monte_carlo_agrees_with_odds(kind, fields):
    n = 20_000
    request = req(kind, **fields)
    probabilities = odds(request)["winner" if SYSTEM.kinds[kind].contest else "outcome"]
    body = {k: v for k, v in request.items() if k not in ("system", "kind")}
    assert_within_4_sigma(sample(kind, body, n, seed=20240), probabilities, n)


def test_random_policy_rerolls_only_failures_within_budget():
    for seed in range(300):
        out = resolve(req("simple", stat=5, threshold=25, impulsions=2), seed=seed)
        assert out["rerolls"] <= 2
        for face in out["dice"][:-1]:                      # every replaced roll had failed
            assert ref_outcome(face, face + 5, 25) in FAILING
        if out["rerolls"] < 2:
            assert out["outcome"] not in FAILING
    for seed in range(100):
        assert resolve(req("simple", stat=5, threshold=25), seed=seed)["rerolls"] == 0


def test_random_opposed_loser_rerolls():
    for seed in range(300):
        out = resolve(req("opposed", actor_stat=10, actor_impulsions=3, opponent_stat=10, opponent_impulsions=1,
                          reroll_limit="unlimited"), seed=seed)
        assert out["actor_impulsions_spent"] <= 3 and out["opponent_impulsions_spent"] <= 1
        if out["winner"] == "opponent":
            assert out["actor_impulsions_spent"] == 3     # the loser stopped only when out of points
        if out["winner"] == "actor":
            assert out["opponent_impulsions_spent"] == 1


@pytest.mark.parametrize("kind, fields, dice_fields", [
    ("simple", {"stat": 9, "impulsions": 4, "impulse_bonus": True, "threshold": 25}, ("dice",)),
    ("opposed", {"actor_stat": 9, "actor_impulsions": 2, "opponent_stat": 10, "opponent_impulsions": 3},
     ("actor_dice", "opponent_dice")),
    ("extended_opposed", {"target": 5, "actor_stat": 9, "opponent_stat": 10}, ("actor_dice", "opponent_dice")),
])
def test_random_results_replay_as_forced_dice(kind, fields, dice_fields):
    for seed in range(60):
        rolled = resolve(req(kind, **fields), seed=seed)
        assert rolled == resolve(req(kind, **fields), seed=seed)
        forced = req(kind, **fields, **{name: rolled[name] for name in dice_fields})
        assert resolve(forced) == rolled


# ---------------------------------------------------------------- properties of forced rolls

roller = st.fixed_dictionaries({
    "stat": st.integers(0, 30),
    "skill": st.integers(0, 20),
    "bonus": st.integers(0, 20),
    "helper_skills": st.lists(st.integers(0, 20), max_size=2),
    "impulse_bonus": st.booleans(),
})
d20s = st.lists(st.integers(1, 20), min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(roller, st.integers(1, 50), st.integers(0, 20), d20s)
def test_simple_properties(r, threshold, malus, dice):
    out = resolve(req("simple", threshold=threshold, malus=malus, dice=dice, **r))
    coop = sum(h // 2 for h in r["helper_skills"])
    natural, rerolls = dice[-1], len(dice) - 1
    bonus3 = 3 if r["impulse_bonus"] and rerolls == 0 else 0
    assert out["natural"] == natural and out["dice"] == dice
    assert out["score"] == natural + r["stat"] + r["skill"] + r["bonus"] + coop + bonus3
    assert out["target"] == threshold + malus and out["margin"] == out["score"] - out["target"]
    assert out["cooperation_bonus"] == coop
    assert out["impulsions_spent"] == rerolls + int(r["impulse_bonus"])
    assert out["no_roll_needed"] == (r["stat"] + r["skill"] + r["bonus"] + coop >= threshold + malus)
    if natural == 20:
        assert out["outcome"] == "critical_success"
    elif natural == 1:
        assert out["outcome"] == "critical_failure"
    else:
        assert out["outcome"] == ("success" if out["margin"] >= 0 else "failure")
    assert out["outcome"] != "failure" or natural != 20
    assert out["outcome"] not in ("success", "critical_success") or natural != 1
    words = SYSTEM.describe(out)
    assert words.good == (out["outcome"] in ("success", "critical_success"))
    statuses = [d.status for d in words.groups[0].dice]
    assert statuses[:-1] == ["rerolled"] * rerolls and statuses[-1] in ("kept", "critical", "fumble")


@settings(max_examples=200, deadline=None)
@given(roller, roller, d20s, d20s)
def test_opposed_properties(a, o, a_dice, o_dice):
    fields = {f"actor_{k}": v for k, v in a.items()} | {f"opponent_{k}": v for k, v in o.items()}
    out = resolve(req("opposed", actor_dice=a_dice, opponent_dice=o_dice, **fields))
    a_nat, o_nat = a_dice[-1], o_dice[-1]
    assert out["margin"] == out["actor_score"] - out["opponent_score"]
    assert out["winner"] == ref_winner(a_nat, out["actor_score"], o_nat, out["opponent_score"])
    assert (out["actor_points"], out["opponent_points"]) == ref_points(a_nat, out["actor_score"],
                                                                       o_nat, out["opponent_score"])
    if a_nat == 20 and o_nat != 20:
        assert out["winner"] == "actor" and out["decided_by"] == "critical"
    if a_nat == 1 and o_nat not in (1, 20):
        assert out["winner"] == "opponent" and out["decided_by"] == "critical_failure"
    if out["winner"] == "actor":
        assert out["actor_points"] > out["opponent_points"]
    swapped = resolve(req("opposed", actor_dice=o_dice, opponent_dice=a_dice,
                          **{f"actor_{k}": v for k, v in o.items()}, **{f"opponent_{k}": v for k, v in a.items()}))
    mirror = {"actor": "opponent", "opponent": "actor", "tie": "tie"}
    assert swapped["winner"] == mirror[out["winner"]]
    assert (swapped["actor_points"], swapped["opponent_points"]) == (out["opponent_points"], out["actor_points"])


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10), st.integers(0, 30), st.integers(0, 30),
       st.lists(st.tuples(st.integers(1, 20), st.integers(1, 20)), max_size=12))
def test_extended_properties(target, a_stat, o_stat, rounds):
    pa = pb = 0
    played = []
    for a, o in rounds:
        x, y = ref_points(a, a + a_stat, o, o + o_stat)
        pa, pb = pa + x, pb + y
        played.append((a, o))
        if pa >= target or pb >= target:
            break
    request = req("extended_opposed", target=target, actor_stat=a_stat, opponent_stat=o_stat,
                  actor_dice=[a for a, _ in played], opponent_dice=[o for _, o in played])
    out = resolve(request)
    assert (out["actor_points"], out["opponent_points"], out["rounds"]) == (pa, pb, len(played))
    if pa < target and pb < target:
        assert out["winner"] == "pending"
        assert SYSTEM.describe(out).headline == "en cours"
    elif pa >= target and pb >= target:
        assert out["winner"] == ("actor" if pa > pb else "opponent" if pb > pa else "tie")
    else:
        assert out["winner"] == ("actor" if pa >= target else "opponent")
    if len(played) < len(rounds) and out["winner"] != "pending":
        longer = dict(request, actor_dice=request["actor_dice"] + [10], opponent_dice=request["opponent_dice"] + [10])
        with pytest.raises(RequestError) as err:
            resolve(longer)
        assert err.value.field == "actor_dice"


@settings(max_examples=200, deadline=None)
@given(roller, st.integers(1, 50), st.integers(0, 6), st.sampled_from(["unlimited", "one"]))
def test_simple_odds_sum_to_one(r, threshold, points, limit):
    fields = dict(r, threshold=threshold, reroll_limit=limit, impulsions=points + int(r["impulse_bonus"]))
    got = odds(req("simple", **fields))["outcome"]
    assert set(got) == {"critical_success", "critical_failure", "success", "failure"}
    assert all(0 <= p <= 1 for p in got.values())
    assert math.isclose(sum(got.values()), 1.0, abs_tol=1e-12)
    assert got["critical_success"] >= 1 / 20 - 1e-15   # a natural 20 always succeeds


@settings(max_examples=200, deadline=None)
@given(roller, roller, st.integers(0, 4), st.integers(0, 4))
def test_opposed_odds_sum_to_one(a, o, a_pts, o_pts):
    fields = {f"actor_{k}": v for k, v in a.items()} | {f"opponent_{k}": v for k, v in o.items()}
    fields.update(actor_impulsions=a_pts + int(a["impulse_bonus"]), opponent_impulsions=o_pts + int(o["impulse_bonus"]))
    got = odds(req("opposed", **fields))["winner"]
    assert set(got) == {"actor", "opponent", "tie"}
    assert all(-1e-15 <= p <= 1 for p in got.values())
    assert math.isclose(sum(got.values()), 1.0, abs_tol=1e-12)


# ---------------------------------------------------------------- system and description


def test_system_description():
    assert SYSTEM.id == "magisphere" and SYSTEM.difficulty_field == "threshold"
    assert set(SYSTEM.kinds) == {"simple", "opposed", "extended_opposed"}
    assert SYSTEM.extra_tables[0][1] == OPPOSITIONS
    assert [d.value for d in OPPOSITIONS] == [2, 3, 5]
    assert [d.value for d in SYSTEM.difficulties] == [15, 18, 20, 22, 25]
    for kind in SYSTEM.kinds.values():
        names = {f.name for f in kind.fields}
        assert set(kind.dice_fields) <= names
    assert "impulsions" not in {f.name for f in SYSTEM.kinds["extended_opposed"].fields}


def test_describe_words():
    crit = SYSTEM.describe(resolve(req("simple", stat=0, threshold=25, dice=[20])))
    assert crit.headline == "réussite critique" and crit.good is True
    fumble = SYSTEM.describe(resolve(req("simple", stat=20, threshold=15, dice=[1])))
    assert fumble.headline == "échec critique" and fumble.good is False
    assert [d.status for d in fumble.groups[0].dice] == ["fumble"]
    rerolled = SYSTEM.describe(resolve(req("simple", stat=10, threshold=20, dice=[3, 12])))
    assert [d.status for d in rerolled.groups[0].dice] == ["rerolled", "kept"]
    assert "marge +2" in rerolled.detail
    tie = SYSTEM.describe(resolve(req("opposed", actor_stat=9, opponent_stat=9, actor_dice=[1], opponent_dice=[1])))
    assert tie.headline == "égalité" and tie.good is None
    lost = SYSTEM.describe(resolve(req("extended_opposed", target=2, actor_stat=10, opponent_stat=10,
                                       actor_dice=[1], opponent_dice=[5])))
    assert lost.headline == "l'opposant l'emporte" and lost.good is False
    assert [d.status for d in lost.groups[0].dice] == ["fumble"]
