"""Les Arpèges: seed examples, exact odds (open rolls included) against enumeration and
icepool, random mode, properties of forced rolls, errors and the description on screen."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.rules import RequestError, check, get_system, odds, resolve
from gmscreen.rules._base import Reader

SYSTEM = get_system("arpeges")
FACES = range(1, 11)


def req(kind: str, **fields) -> dict:
    return {"system": "arpeges", "kind": kind, **fields}


def closed_roll() -> dict[int, Fraction]:
    """chance − malchance of two plain d10, every pair enumerated."""
    out: dict[int, Fraction] = {}
    for c in FACES:
        for m in FACES:
            out[c - m] = out.get(c - m, 0) + Fraction(1, 100)
    return out


def open_die(depth: int) -> dict[int, Fraction]:
    """One open d10, chains of at most `depth` tens (the rest, 10^-(depth+1), left out)."""
    return {10 * k + r: Fraction(1, 10 ** (k + 1)) for k in range(depth + 1) for r in range(1, 10)}


def difference(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    """The law of x - y, x ~ a and y ~ b independent: every pair's chance added to its value's."""
    law: defaultdict[int, Fraction] = defaultdict(Fraction)
    for (x, px), (y, py) in product(a.items(), b.items()):
        law[x - y] += px * py
    return dict(law)


def at_least(law: dict[int, Fraction], x: int) -> Fraction:
    return sum((p for z, p in law.items() if z >= x), Fraction(0))


def assert_close(got: dict[str, float], want: dict[str, Fraction], tol: float = 1e-12) -> None:
    assert set(got) == set(want)
    for name, p in want.items():
        assert abs(got[name] - float(p)) <= tol, (name, got[name], float(p))


# ---------------------------------------------------------------- seed examples


def test_fast_talking_the_merchant():
    """Seed 4.2: Intuition +2, Manœuvre +3, Baratin −1 = +4 at difficulty −3; dice 6 − 5."""
    out = resolve(req("simple", difficulty=-3, skill_level=2 + 3 - 1, chance_dice=[6], malchance_dice=[5]))
    assert (out["final_difficulty"], out["roll"], out["margin"], out["outcome"]) == (1, 1, 2, "success")
    words = SYSTEM.describe(out)
    assert words.headline == "réussite" and "marge +2" in words.detail
    assert [g.label for g in words.groups] == ["dé de chance", "dé de malchance"]


def test_the_merchant_parries_or_not():
    base = req("confrontation", difficulty=-3, actor_skill_level=4, opponent_skill_level=5,
               actor_chance_dice=[6], actor_malchance_dice=[5])
    fooled = resolve({**base, "opponent_chance_dice": [2], "opponent_malchance_dice": [7]})
    assert fooled["outcome"] == "success" and fooled["parried"] is False and fooled["defender_margin"] == -3
    kept = resolve({**base, "opponent_chance_dice": [5], "opponent_malchance_dice": [4]})
    assert kept["outcome"] == "failure" and kept["parried"] is True and kept["defender_margin"] == 3
    assert SYSTEM.describe(kept).headline == "parade réussie"
    assert SYSTEM.describe(fooled).headline == "réussite"
    # R11: a +10 margin does not make the parry harder.
    huge = resolve({**base, "actor_chance_dice": [10], "actor_malchance_dice": [1],
                    "opponent_chance_dice": [3], "opponent_malchance_dice": [5]})
    assert huge["actor_margin"] == 10 and huge["defender_final_difficulty"] == 2 and huge["parried"] is True


def test_merchant_odds():
    """P(success) = P(actor margin >= 0) * P(parry fails), each over the 100 pairs."""
    roll = closed_roll()
    want = at_least(roll, -1) * (1 - at_least(roll, -2))
    got = odds(req("confrontation", difficulty=-3, actor_skill_level=4, opponent_skill_level=5))
    assert_close(got["outcome"], {"success": want, "failure": 1 - want})
    assert got["policy"] == "parry"
    unparried = odds(req("confrontation", difficulty=-3, actor_skill_level=4, opponent_skill_level=5, parry=False))
    assert unparried["policy"] == "no parry"
    assert unparried["outcome"]["success"] == pytest.approx(float(at_least(roll, -1)), abs=1e-15)


def test_even_chance_at_difficulty_zero():
    """Published rules: an average character at difficulty 0 has exactly 55%."""
    assert odds(req("simple", difficulty=0, skill_level=0))["outcome"]["success"] == pytest.approx(0.55, abs=1e-15)


# ---------------------------------------------------------------- odds without open rolls


@pytest.mark.parametrize("difficulty, skill, actions", [(0, 0, 1), (-3, 4, 1), (5, 3, 2), (-30, 0, 1),
                                                        (30, 30, 1), (0, 2, 3), (-9, 0, 1), (10, -1, 1)])
def test_simple_odds_match_enumeration(difficulty, skill, actions):
    final = difficulty + skill - 3 * (actions - 1)
    p = at_least(closed_roll(), -final)
    got = odds(req("simple", difficulty=difficulty, skill_level=skill, simultaneous_actions=actions))
    assert_close(got["outcome"], {"success": p, "failure": 1 - p})
    assert got["policy"] is None


@pytest.mark.parametrize("actor, opponent", [(3, 1), (0, 2), (5, 5), (-30, 30), (12, -7)])
def test_opposed_one_roll_matches_icepool(actor, opponent):
    margin = icepool.d10 - icepool.d10 + (actor - opponent)
    want = {"actor": margin.probability(">", 0), "opponent": margin.probability("<", 0),
            "tie": margin.probability("==", 0)}
    assert_close(odds(req("opposed_one_roll", actor_skill_level=actor, opponent_skill_level=opponent))["winner"], want)


@pytest.mark.parametrize("actor, opponent", [(2, 3), (1, 1), (-30, 30), (10, 0), (0, 17)])
def test_opposed_two_rolls_match_enumeration(actor, opponent):
    diff = difference(closed_roll(), closed_roll())    # actor roll − opponent roll, 10^4 cases
    offset = actor - opponent
    want = {"actor": at_least(diff, 1 - offset), "tie": diff.get(-offset, Fraction(0))}
    want["opponent"] = 1 - want["actor"] - want["tie"]
    got = odds(req("opposed_two_rolls", actor_skill_level=actor, opponent_skill_level=opponent))
    assert_close(got["winner"], want)
    dice = (icepool.d10 - icepool.d10) - (icepool.d10 - icepool.d10) + offset
    assert got["winner"]["actor"] == pytest.approx(float(dice.probability(">", 0)), abs=1e-12)


# ---------------------------------------------------------------- odds with open rolls


@pytest.mark.parametrize("final", [0, 1, -1, 9, -9, 10, -10, 17, -17, 25, -30, 60])
def test_open_simple_odds_bracketed_by_enumeration(final):
    """Chains of up to 11 tens enumerated; the mass left out (< 2.1e-12) bounds the answer."""
    depth = 11
    law = difference(open_die(depth), open_die(depth))
    missing = 1 - (1 - Fraction(1, 10 ** (depth + 1))) ** 2
    low = at_least(law, -final)
    difficulty = max(-30, min(30, final))
    got = odds(req("simple", difficulty=difficulty, skill_level=final - difficulty,
                   open_roll=True))["outcome"]["success"]
    assert float(low) - 1e-15 <= got <= float(low + missing) + 1e-15


@pytest.mark.parametrize("actor, opponent", [(0, 0), (4, 1), (-10, 3), (20, -20)])
def test_open_one_roll_matches_icepool(actor, opponent):
    """icepool's explosion stops at depth 13 (the rest, 1e-14 a die, is lumped): equal to 1e-12."""
    die = icepool.d10.explode(depth=13)
    margin = die - die + (actor - opponent)
    want = {"actor": margin.probability(">", 0), "opponent": margin.probability("<", 0),
            "tie": margin.probability("==", 0)}
    got = odds(req("opposed_one_roll", actor_skill_level=actor, opponent_skill_level=opponent, open_roll=True))
    assert_close(got["winner"], want)


@pytest.mark.parametrize("actor, opponent", [(0, 0), (3, -2), (-25, 12)])
def test_open_two_rolls_bracketed_by_enumeration(actor, opponent):
    depth = 5
    one = difference(open_die(depth), open_die(depth))
    diff = difference(one, one)
    missing = 1 - (1 - Fraction(1, 10 ** (depth + 1))) ** 4
    offset = actor - opponent
    got = odds(req("opposed_two_rolls", actor_skill_level=actor, opponent_skill_level=opponent, open_roll=True))
    win, tie = got["winner"]["actor"], got["winner"]["tie"]
    assert float(at_least(diff, 1 - offset)) - 1e-15 <= win <= float(at_least(diff, 1 - offset) + missing) + 1e-15
    assert float(diff.get(-offset, 0)) - 1e-15 <= tie <= float(diff.get(-offset, 0) + missing) + 1e-15
    assert math.isclose(sum(got["winner"].values()), 1.0, abs_tol=1e-12)


def test_open_two_rolls_match_icepool():
    die = icepool.d10.explode(depth=12)
    margin = (die - die) - (die - die) + 3
    got = odds(req("opposed_two_rolls", actor_skill_level=4, opponent_skill_level=1, open_roll=True))["winner"]
    assert got["actor"] == pytest.approx(float(margin.probability(">", 0)), abs=1e-11)
    assert got["tie"] == pytest.approx(float(margin.probability("==", 0)), abs=1e-11)


def test_open_roll_closed_forms():
    """An open die is 10k + r: P(J = 0) = 9/11 so P(roll = 0) = 9/11 * 9/81 = 1/11."""
    tie = odds(req("opposed_one_roll", actor_skill_level=0, opponent_skill_level=0, open_roll=True))["winner"]["tie"]
    assert tie == pytest.approx(1 / 11, abs=1e-15)
    # Symmetry: P(success at final difficulty d) + P(success at -d - 1) = 1 (Z and -Z have one law).
    for d in range(-25, 26):
        p = odds(req("simple", difficulty=d, skill_level=0, open_roll=True))["outcome"]["success"]
        q = odds(req("simple", difficulty=-d - 1, skill_level=0, open_roll=True))["outcome"]["success"]
        assert p + q == pytest.approx(1.0, abs=1e-14)


# ---------------------------------------------------------------- R12 in oppositions, both sides


@pytest.mark.parametrize("actor, opponent, a_actions, o_actions", [(4, 2, 2, 3), (0, 0, 3, 1), (-5, 7, 1, 4),
                                                                   (10, 10, 10, 2)])
def test_opposition_malus_on_both_sides_exact_against_every_roll(actor, opponent, a_actions, o_actions):
    """Every face of every die resolved: the winners counted are exactly the odds (R7, R8, R12)."""
    malus = dict(actor_simultaneous_actions=a_actions, opponent_simultaneous_actions=o_actions)
    levels = dict(actor_skill_level=actor, opponent_skill_level=opponent, **malus)
    one: dict[str, Fraction] = defaultdict(Fraction)
    for c, m in product(FACES, FACES):
        out = resolve(req("opposed_one_roll", **levels, chance_dice=[c], malchance_dice=[m]))
        assert out["difficulty"] == (actor - 3 * (a_actions - 1)) - (opponent - 3 * (o_actions - 1))
        one[out["winner"]] += Fraction(1, 100)
    assert_close(odds(req("opposed_one_roll", **levels))["winner"], {k: one[k] for k in ("actor", "opponent", "tie")},
                 tol=1e-15)
    two: dict[str, Fraction] = defaultdict(Fraction)
    for ac, am, oc, om in product(FACES, FACES, FACES, FACES):
        out = resolve(req("opposed_two_rolls", **levels, actor_chance_dice=[ac], actor_malchance_dice=[am],
                          opponent_chance_dice=[oc], opponent_malchance_dice=[om]))
        two[out["winner"]] += Fraction(1, 10 ** 4)
    assert out["actor_margin"] == actor - 3 * (a_actions - 1) + ac - am
    assert out["opponent_margin"] == opponent - 3 * (o_actions - 1) + oc - om
    assert_close(odds(req("opposed_two_rolls", **levels))["winner"], {k: two[k] for k in ("actor", "opponent", "tie")},
                 tol=1e-15)


def test_open_opposition_malus_on_both_sides_bracketed_by_enumeration():
    """Open rolls: chains of up to 5 tens enumerated, the mass left out bounds the exact odds."""
    depth = 5
    one = difference(open_die(depth), open_die(depth))
    diff = difference(one, one)
    missing = 1 - (1 - Fraction(1, 10 ** (depth + 1))) ** 4
    offset = (3 - 3 * 2) - (-1 - 3 * 1)          # actor 3 with 3 actions, opponent −1 with 2
    got = odds(req("opposed_two_rolls", actor_skill_level=3, opponent_skill_level=-1, open_roll=True,
                   actor_simultaneous_actions=3, opponent_simultaneous_actions=2))["winner"]
    low = at_least(diff, 1 - offset)
    assert float(low) - 1e-15 <= got["actor"] <= float(low + missing) + 1e-15
    assert float(diff.get(-offset, 0)) - 1e-15 <= got["tie"] <= float(diff.get(-offset, 0) + missing) + 1e-15


@pytest.mark.parametrize("kind", ["opposed_one_roll", "opposed_two_rolls"])
def test_opposition_actions_are_checked_and_the_old_field_refused(kind):
    """The spec names each side's count; `simultaneous_actions` is not an opposition field."""
    base = req(kind, actor_skill_level=0, opponent_skill_level=0)
    for field in ("actor_simultaneous_actions", "opponent_simultaneous_actions"):
        for bad in (0, 11):
            for fn in (odds, check):
                with pytest.raises(RequestError) as err:
                    fn(dict(base, **{field: bad}))
                assert err.value.field == field and "1 to 10" in str(err.value)
    for fn in (odds, check):
        with pytest.raises(RequestError) as err:
            fn(dict(base, simultaneous_actions=2))
        assert err.value.field == "simultaneous_actions" and err.value.code == "unknown_field"


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["simple", "opposed_one_roll", "opposed_two_rolls", "confrontation"]),
       st.integers(-30, 30), st.integers(-30, 30), st.integers(-30, 30), st.booleans(), st.booleans(),
       st.integers(1, 10))
def test_odds_sum_to_one(kind, a, b, c, open_roll, parry, actions):
    fields = {"open_roll": open_roll}
    if kind == "simple":
        fields.update(difficulty=a, skill_level=b, simultaneous_actions=actions)
    elif kind == "confrontation":
        fields.update(difficulty=a, actor_skill_level=b, opponent_skill_level=c, parry=parry,
                      simultaneous_actions=actions)
    else:
        fields.update(actor_skill_level=a, opponent_skill_level=b, actor_simultaneous_actions=actions,
                      opponent_simultaneous_actions=11 - actions)
    got = odds(req(kind, **fields))
    probs = got["winner"] if "winner" in got else got["outcome"]
    assert set(probs) == ({"actor", "opponent", "tie"} if "winner" in got else {"success", "failure"})
    assert all(0 <= p <= 1 for p in probs.values())
    assert math.isclose(sum(probs.values()), 1.0, abs_tol=1e-12)


# ---------------------------------------------------------------- forced dice: properties


def chain(open_roll: bool):
    if not open_roll:
        return st.integers(1, 10).map(lambda f: [f])
    return st.tuples(st.integers(0, 3), st.integers(1, 9)).map(lambda t: [10] * t[0] + [t[1]])


@settings(max_examples=200, deadline=None)
@given(st.booleans().flatmap(lambda o: st.tuples(st.just(o), chain(o), chain(o))),
       st.integers(-30, 30), st.integers(-30, 30), st.integers(1, 10))
def test_simple_properties(dice, difficulty, skill, actions):
    open_roll, chance, malchance = dice
    out = resolve(req("simple", difficulty=difficulty, skill_level=skill, simultaneous_actions=actions,
                      open_roll=open_roll, chance_dice=chance, malchance_dice=malchance))
    final = difficulty + skill - 3 * (actions - 1)
    assert out["final_difficulty"] == final
    assert (out["chance"], out["malchance"]) == (sum(chance), sum(malchance))
    assert out["roll"] == sum(chance) - sum(malchance)
    assert out["margin"] == final + sum(chance) - sum(malchance)
    assert out["outcome"] == ("success" if out["margin"] >= 0 else "failure")
    assert (out["chance_dice"], out["malchance_dice"]) == (chance, malchance)
    words = SYSTEM.describe(out)
    assert words.good == (out["outcome"] == "success")
    chance_group, malchance_group = words.groups
    assert malchance_group.label == "dé de malchance" and malchance_group.total == sum(malchance)
    assert [d.status for d in chance_group.dice] == ["exploded"] * (len(chance) - 1) + ["counted"]
    assert [d.status for d in malchance_group.dice] == ["exploded"] * (len(malchance) - 1) + ["plain"]


@settings(max_examples=200, deadline=None)
@given(st.booleans().flatmap(lambda o: st.tuples(st.just(o), chain(o), chain(o), chain(o), chain(o))),
       st.integers(-30, 30), st.integers(-30, 30))
def test_opposition_properties(dice, actor, opponent):
    open_roll, ac, am, oc, om = dice
    one = resolve(req("opposed_one_roll", actor_skill_level=actor, opponent_skill_level=opponent,
                      open_roll=open_roll, chance_dice=ac, malchance_dice=am))
    assert one["difficulty"] == actor - opponent
    assert one["margin"] == actor - opponent + sum(ac) - sum(am)
    assert one["winner"] == ("actor" if one["margin"] > 0 else "opponent" if one["margin"] < 0 else "tie")
    two = resolve(req("opposed_two_rolls", actor_skill_level=actor, opponent_skill_level=opponent,
                      open_roll=open_roll, actor_chance_dice=ac, actor_malchance_dice=am,
                      opponent_chance_dice=oc, opponent_malchance_dice=om))
    assert two["actor_margin"] == actor + sum(ac) - sum(am)
    assert two["opponent_margin"] == opponent + sum(oc) - sum(om)
    assert two["margin"] == two["actor_margin"] - two["opponent_margin"]
    assert two["winner"] == ("actor" if two["margin"] > 0 else "opponent" if two["margin"] < 0 else "tie")
    assert len(SYSTEM.describe(two).groups) == 4


@settings(max_examples=200, deadline=None)
@given(st.booleans().flatmap(lambda o: st.tuples(st.just(o), chain(o), chain(o), chain(o), chain(o))),
       st.integers(-30, 30), st.integers(-30, 30), st.integers(-30, 30), st.booleans(), st.integers(1, 10))
def test_confrontation_properties(dice, difficulty, actor, opponent, parry, actions):
    open_roll, ac, am, oc, om = dice
    fields = dict(difficulty=difficulty, actor_skill_level=actor, opponent_skill_level=opponent, parry=parry,
                  simultaneous_actions=actions, open_roll=open_roll, actor_chance_dice=ac, actor_malchance_dice=am)
    final = difficulty + actor - 3 * (actions - 1)
    margin = final + sum(ac) - sum(am)
    needs_parry = margin >= 0 and parry
    given_parry = dict(fields, opponent_chance_dice=oc, opponent_malchance_dice=om)
    if needs_parry:
        with pytest.raises(RequestError) as err:
            resolve(req("confrontation", **fields))
        assert err.value.field == "opponent_chance_dice"
        out = resolve(req("confrontation", **given_parry))
        assert out["defender_final_difficulty"] == difficulty + opponent       # R11: the base difficulty
        assert out["defender_margin"] == difficulty + opponent + sum(oc) - sum(om)
        assert out["parried"] == (out["defender_margin"] >= 0)
    else:
        with pytest.raises(RequestError) as err:
            resolve(req("confrontation", **given_parry))
        assert err.value.field == "opponent_chance_dice"
        out = resolve(req("confrontation", **fields, opponent_chance_dice=[], opponent_malchance_dice=[]))
        assert out["defender_margin"] is None and out["defender_final_difficulty"] is None
        assert out["parried"] is False and out["opponent_chance_dice"] == []
    assert out["actor_margin"] == margin and out["actor_final_difficulty"] == final
    assert out["parry_rolled"] is needs_parry
    assert out["outcome"] == ("success" if margin >= 0 and not out["parried"] else "failure")
    assert SYSTEM.describe(out).good == (out["outcome"] == "success")


# ---------------------------------------------------------------- forced dice: errors


@pytest.mark.parametrize("fields, field, words", [
    ({"chance_dice": [10, 10]}, "chance_dice", "too few"),
    ({"chance_dice": [10, 3, 10, 4]}, "chance_dice", "too many"),
    ({"chance_dice": []}, "chance_dice", "at least one"),
    ({"malchance_dice": [10, 11]}, "malchance_dice", "impossible face 11"),
    ({"chance_dice": [4], "open_roll": 1}, "open_roll", "true or false"),
    ({"simultaneous_actions": 11}, "simultaneous_actions", "1 to 10"),
    ({"skill_level": -31}, "skill_level", "-30 to 30"),
])
def test_bad_forced_dice_name_the_field(fields, field, words):
    request = req("simple", difficulty=0, skill_level=0, open_roll=True, chance_dice=[4], malchance_dice=[5])
    request.update(fields)
    with pytest.raises(RequestError) as err:
        resolve(request)
    assert err.value.field == field and words in str(err.value)


def test_parry_dice_refused_when_parry_is_false():
    with pytest.raises(RequestError) as err:
        resolve(req("confrontation", difficulty=0, actor_skill_level=5, opponent_skill_level=0, parry=False,
                    actor_chance_dice=[5], actor_malchance_dice=[5], opponent_chance_dice=[1],
                    opponent_malchance_dice=[1]))
    assert err.value.field == "opponent_chance_dice" and "parry = false" in str(err.value)
    with pytest.raises(RequestError) as err:
        resolve(req("confrontation", difficulty=0, actor_skill_level=5, opponent_skill_level=0,
                    actor_chance_dice=[5], actor_malchance_dice=[5], opponent_chance_dice=[1]))
    assert err.value.field == "opponent_malchance_dice"


def test_odds_refuse_dice_and_unknown_fields():
    with pytest.raises(RequestError) as err:
        odds(req("simple", difficulty=0, skill_level=0, chance_dice=[3]))
    assert err.value.field == "chance_dice"
    with pytest.raises(RequestError) as err:
        odds(req("opposed_two_rolls", actor_skill_level=0, opponent_skill_level=0, parry=True))
    assert err.value.field == "parry"


# ---------------------------------------------------------------- random mode


ALL_DICE = ("chance_dice", "malchance_dice", "actor_chance_dice", "actor_malchance_dice",
            "opponent_chance_dice", "opponent_malchance_dice")
KIND_FIELDS = {
    "simple": {"difficulty": -2, "skill_level": 3},
    "opposed_one_roll": {"actor_skill_level": 2, "opponent_skill_level": 1},
    "opposed_two_rolls": {"actor_skill_level": 2, "opponent_skill_level": 3},
    "confrontation": {"difficulty": -1, "actor_skill_level": 3, "opponent_skill_level": 1},
}


@pytest.mark.parametrize("kind", list(KIND_FIELDS))
@pytest.mark.parametrize("open_roll", [False, True])
def test_random_results_replay_as_forced_dice(kind, open_roll):
    for seed in range(60):
        request = req(kind, open_roll=open_roll, **KIND_FIELDS[kind])
        rolled = resolve(request, seed=seed)
        assert rolled == resolve(request, seed=seed)
        forced = dict(request, **{name: rolled[name] for name in ALL_DICE if name in rolled})
        assert resolve(forced) == rolled


@pytest.mark.parametrize("kind", list(KIND_FIELDS))
def test_monte_carlo_agrees_with_odds(kind):
    n = 20_000
    fields = dict(KIND_FIELDS[kind], open_roll=kind != "simple")
    probabilities = odds(req(kind, **fields))
    key = "winner" if "winner" in probabilities else "outcome"
    rng = random.Random(777)
    resolver = SYSTEM.kinds[kind].resolve
    counts: dict[str, int] = {}
    for _ in range(n):
        value = resolver(Reader(fields), rng)[key]
        counts[value] = counts.get(value, 0) + 1
    for name, p in probabilities[key].items():
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(counts.get(name, 0) / n - p) <= 4 * sigma, (name, counts.get(name, 0) / n, p)


def test_random_open_rolls_explode():
    longest = 0
    for seed in range(400):
        out = resolve(req("simple", difficulty=0, skill_level=0, open_roll=True), seed=seed)
        for faces in (out["chance_dice"], out["malchance_dice"]):
            assert all(f == 10 for f in faces[:-1]) and faces[-1] < 10
            longest = max(longest, len(faces))
    assert longest >= 2


# ---------------------------------------------------------------- system and description


def test_system_description():
    assert SYSTEM.id == "arpeges" and SYSTEM.difficulty_field == "difficulty"
    assert set(SYSTEM.kinds) == {"simple", "opposed_one_roll", "opposed_two_rolls", "confrontation"}
    assert SYSTEM.kinds["confrontation"].policy == "parry"
    for kind in SYSTEM.kinds.values():
        assert set(kind.dice_fields) <= {f.name for f in kind.fields}
    assert [d.value for d in SYSTEM.difficulties] == [5, 3, 0, -3, -5, -6]


def test_describe_words():
    tie = SYSTEM.describe(resolve(req("opposed_one_roll", actor_skill_level=3, opponent_skill_level=1,
                                      chance_dice=[4], malchance_dice=[6])))
    assert tie.headline == "égalité" and tie.good is None
    lost = SYSTEM.describe(resolve(req("opposed_two_rolls", actor_skill_level=-2, opponent_skill_level=-1,
                                       actor_chance_dice=[1], actor_malchance_dice=[5],
                                       opponent_chance_dice=[2], opponent_malchance_dice=[4])))
    assert lost.headline == "l'opposant l'emporte" and lost.good is False and "écart −3" in lost.detail
    failed = SYSTEM.describe(resolve(req("confrontation", difficulty=-3, actor_skill_level=4,
                                         opponent_skill_level=5, actor_chance_dice=[1], actor_malchance_dice=[8])))
    assert failed.headline == "échec" and len(failed.groups) == 2
    exploded = SYSTEM.describe(resolve(req("simple", difficulty=-15, skill_level=0, open_roll=True,
                                           chance_dice=[10, 10, 4], malchance_dice=[3])))
    assert [d.status for d in exploded.groups[0].dice] == ["exploded", "exploded", "counted"]
    assert exploded.groups[0].total == 24
