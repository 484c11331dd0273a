"""MIR: odds against brute force and icepool, random rolls against odds, rules as properties.

The brute force here is written from the rules text (R1, R12, R13, R16–R18) independently
of `gmscreen.rules.mir`; icepool is the outside reference for pools too big to enumerate.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.rules import RequestError, get_system, odds, resolve
from gmscreen.i18n import _
from gmscreen.rules import mir

FACES = range(1, 13)


def req(kind: str, **fields) -> dict:
    return {"system": "mir", "kind": kind, **fields}


def successes_of(face: int) -> int:
    return 2 if face == 12 else 1 if face >= 7 else 0


@cache
def brute_hist(n: int) -> dict[tuple[int, bool], int]:
    """Every face of n d12: ways by (successes, two or more 12s)."""
    hist: dict[tuple[int, bool], int] = {}
    for faces in itertools.product(FACES, repeat=n):
        key = (sum(successes_of(f) for f in faces), faces.count(12) >= 2)
        hist[key] = hist.get(key, 0) + 1
    return hist


def brute_successes(n: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (s, _crit), ways in brute_hist(n).items():
        out[s] = out.get(s, 0) + Fraction(ways, 12 ** n)
    return out


def brute_at_least(n: int, sd: int) -> Fraction:
    return sum((p for s, p in brute_successes(n).items() if s >= sd), Fraction(0))


SUCCESS_DIE = icepool.d12.map(successes_of)
JOINT_DIE = icepool.Die({icepool.Vector((0, 0)): 6, icepool.Vector((1, 0)): 5, icepool.Vector((2, 1)): 1})


def close(a: float, b) -> bool:
    return abs(a - float(b)) <= 1e-12


# ---------------------------------------------------------------- distributions


@pytest.mark.parametrize("n", range(0, 31))
def test_successes_distribution_matches_icepool_exactly(n: int) -> None:
    ways = mir._successes_distribution(n)
    assert sum(ways) == 12 ** n
    assert len(ways) == 2 * n + 1
    if n == 0:
        assert ways == (1,)
        return
    reference = n @ SUCCESS_DIE
    for s, count in enumerate(ways):
        assert Fraction(count, 12 ** n) == reference.probability(s)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 12, 20])
def test_joint_distribution_counts_twelves(n: int) -> None:
    reference = (n @ JOINT_DIE).map(lambda v: (v[0], min(v[1], 2)))
    joint = mir._joint_distribution(n)
    for c in range(3):
        for s, count in enumerate(joint[c]):
            assert Fraction(count, 12 ** n) == reference.probability((s, c)), (c, s)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_joint_distribution_matches_brute_force(n: int) -> None:
    plain, crit = mir._crit_split(n)
    for (s, is_crit), ways in brute_hist(n).items():
        assert (crit if is_crit else plain)[s] == ways


# ---------------------------------------------------------------- simple odds


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("sd", range(1, 8))
def test_simple_odds_match_brute_force(n: int, sd: int) -> None:
    result = odds(req("simple", pool=n, difficulty=sd))
    expected = brute_at_least(n, sd)
    assert close(result["outcome"]["success"], expected)
    assert close(result["outcome"]["failure"], 1 - expected)


@pytest.mark.parametrize("pool,modifier,penalty", [(12, 2, 0), (12, 0, 0), (9, -1, 0), (6, 1, 3), (0, -2, 5), (10, 2, 1)])
@pytest.mark.parametrize("sd", range(0, 8))
def test_simple_odds_match_icepool(pool: int, modifier: int, penalty: int, sd: int) -> None:
    result = odds(req("simple", pool=pool, modifier=modifier, penalty=penalty, difficulty=sd))
    n = max(1, pool + modifier - penalty)
    expected = 1 if sd == 0 else (n @ SUCCESS_DIE).probability(">=", sd)
    assert close(result["outcome"]["success"], expected)
    assert result["chance"] == result["outcome"]["success"]


@pytest.mark.parametrize("n", [13, 18, 24, 30])
@pytest.mark.parametrize("sd", [1, 4, 7, 15])
def test_large_pools_through_the_internal_helper(n: int, sd: int) -> None:
    """The benchmark asks pools to 30, beyond the request range (pool 0–12 + 2)."""
    assert close(mir._simple_chance(n, sd), (n @ SUCCESS_DIE).probability(">=", sd))


def test_trivial_action_always_succeeds() -> None:
    assert odds(req("simple", pool=0, penalty=4, difficulty=0))["outcome"] == {"success": 1.0, "failure": 0.0}


def test_odds_refuse_forced_dice() -> None:
    with pytest.raises(RequestError) as caught:
        odds(req("simple", pool=2, difficulty=1, dice=[7, 7]))
    assert caught.value.field == "dice"


# ---------------------------------------------------------------- group odds


def brute_group(skill: int, base: int, modifier: int, penalty: int, helpers: list[int], sd: int) -> Fraction:
    """Every face of every helper, then every face of the helped roll (R9–R11)."""
    counts = [max(1, h) for h in helpers]
    total = Fraction(0)
    for faces in itertools.product(FACES, repeat=sum(counts)):
        help_dice = min(sum(successes_of(f) for f in faces), max(skill, 1))
        n = max(1, base + modifier - penalty + help_dice)
        total += Fraction(1, 12 ** len(faces)) * brute_at_least(n, sd)
    return total


@pytest.mark.parametrize("skill,voie,modifier,penalty,helpers,sd", [
    (1, 1, 0, 0, [1], 2),
    (2, 1, 0, 0, [2], 3),
    (0, 1, 0, 0, [1, 1], 1),
    (3, 1, -2, 0, [1, 2], 2),
    (1, 1, 0, 4, [0], 1),
    (2, 2, 0, 4, [1, 0], 2),
])
def test_group_odds_match_brute_force(skill, voie, modifier, penalty, helpers, sd) -> None:
    result = odds(req("group", skill=skill, voie=voie, modifier=modifier, penalty=penalty,
                      helper_pools=helpers, difficulty=sd))
    expected = brute_group(skill, skill + voie, modifier, penalty, helpers, sd)
    assert close(result["outcome"]["success"], expected)
    assert close(result["outcome"]["failure"], 1 - expected)


@pytest.mark.parametrize("skill,pool,modifier,penalty,helpers,sd", [
    (6, 12, 2, 0, [12, 12], 7),
    (3, 8, 0, 2, [6, 4], 5),
    (0, 2, -2, 0, [5], 1),
    (4, 6, 1, 0, [9], 6),
])
def test_group_odds_match_icepool(skill, pool, modifier, penalty, helpers, sd) -> None:
    helped = sum((max(1, h) @ SUCCESS_DIE for h in helpers[1:]), max(1, helpers[0]) @ SUCCESS_DIE)
    cap = max(skill, 1)
    expected = helped.map(lambda h: (max(1, pool + modifier - penalty + min(h, cap)) @ SUCCESS_DIE) >= sd)
    result = odds(req("group", skill=skill, pool=pool, modifier=modifier, penalty=penalty,
                      helper_pools=helpers, difficulty=sd))
    assert close(result["outcome"]["success"], expected.probability(True))


# ---------------------------------------------------------------- opposed odds


def actor_wins(a: tuple[int, bool], o: tuple[int, bool], initiator: str) -> bool:
    (a_s, a_c), (o_s, o_c) = a, o
    if a_c != o_c:
        return a_c                      # R13: a lone réussite critique wins
    if a_s != o_s:
        return a_s > o_s                # R12: more successes
    return initiator == "actor"         # R12: the initiator wins ties


@pytest.mark.parametrize("n_actor,n_opponent", [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (3, 3), (4, 2)])
@pytest.mark.parametrize("initiator", ["actor", "opponent"])
def test_opposed_odds_match_brute_force(n_actor: int, n_opponent: int, initiator: str) -> None:
    expected = Fraction(0)
    for a, a_ways in brute_hist(n_actor).items():
        for o, o_ways in brute_hist(n_opponent).items():
            if actor_wins(a, o, initiator):
                expected += Fraction(a_ways * o_ways, 12 ** (n_actor + n_opponent))
    result = odds(req("opposed", actor_pool=n_actor, opponent_pool=n_opponent, initiator=initiator))
    assert close(result["winner"]["actor"], expected)
    assert close(result["winner"]["opponent"], 1 - expected)
    assert result["winner"]["tie"] == 0.0


@pytest.mark.parametrize("actor,opponent,initiator", [
    ({"actor_pool": 12, "actor_modifier": 2}, {"opponent_pool": 12, "opponent_modifier": 2}, "actor"),
    ({"actor_pool": 3}, {"opponent_pool": 10}, "opponent"),
    ({"actor_skill": 4, "actor_voie": 5}, {"opponent_pool": 6, "opponent_penalty": 2}, "actor"),
    ({"actor_pool": 1, "actor_penalty": 3}, {"opponent_pool": 8}, "opponent"),
])
def test_opposed_odds_match_icepool(actor: dict, opponent: dict, initiator: str) -> None:
    def dice(side: dict, prefix: str) -> int:
        base = side.get(prefix + "pool", side.get(prefix + "skill", 0) + side.get(prefix + "voie", 0))
        return max(1, base + side.get(prefix + "modifier", 0) - side.get(prefix + "penalty", 0))

    def side_die(n: int):
        return (n @ JOINT_DIE).map(lambda v: (v[0], v[1] >= 2))

    expected = icepool.map(lambda a, o: actor_wins(a, o, initiator),
                           side_die(dice(actor, "actor_")), side_die(dice(opponent, "opponent_")))
    result = odds(req("opposed", initiator=initiator, **actor, **opponent))
    assert close(result["winner"]["actor"], expected.probability(True))


# ---------------------------------------------------------------- extended odds


def reference_extended(n: int, threshold: int, max_tests: int) -> Fraction:
    """Markov chain over (total, tests made), from the rules text, with brute-force test odds."""
    per_test = brute_successes(n) if n <= 3 else {
        s: Fraction(p) for s, p in zip((n @ SUCCESS_DIE).outcomes(), (n @ SUCCESS_DIE).probabilities())}

    @cache
    def win(total: int, tests: int) -> Fraction:
        if total >= threshold:
            return Fraction(1)                       # R16
        if max_tests and tests >= max_tests:
            return Fraction(0)                       # R18
        return sum((p * win(total + s, tests + 1) for s, p in per_test.items() if s > 0),
                   Fraction(0))                      # R17: a test without success fails

    return win(0, 0)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 9])
@pytest.mark.parametrize("threshold,max_tests", [(1, 0), (2, 0), (3, 1), (5, 0), (5, 2), (8, 3), (12, 0),
                                                 (12, 4), (20, 30), (30, 10)])
def test_extended_odds_match_markov_chain(n: int, threshold: int, max_tests: int) -> None:
    result = odds(req("extended", pool=n, threshold=threshold, max_tests=max_tests))
    expected = reference_extended(n, threshold, max_tests)
    assert close(result["outcome"]["success"], expected)
    assert close(result["outcome"]["failure"], 1 - expected)


@pytest.mark.parametrize("threshold,max_tests", [(3, 0), (3, 2), (4, 3)])
def test_extended_odds_match_every_sequence_of_faces(threshold: int, max_tests: int) -> None:
    """One die per test: walk every sequence of faces through `resolve` until it is decided."""
    totals = {"success": Fraction(0), "failure": Fraction(0)}

    def walk(rolls: list[list[int]], weight: Fraction) -> None:
        result = resolve(req("extended", pool=1, threshold=threshold, max_tests=max_tests, rolls=rolls))
        if result["outcome"] != "pending":
            totals[result["outcome"]] += weight
            return
        for face in FACES:
            walk(rolls + [[face]], weight / 12)

    walk([], Fraction(1))
    result = odds(req("extended", pool=1, threshold=threshold, max_tests=max_tests))
    assert close(result["outcome"]["success"], totals["success"])
    assert close(result["outcome"]["failure"], totals["failure"])


@pytest.mark.parametrize("n,threshold,max_tests", [(4, 8, 3), (6, 10, 0), (2, 6, 4)])
def test_extended_odds_match_icepool_markov(n: int, threshold: int, max_tests: int) -> None:
    def step(state):
        total, tests, status = state
        if status:
            return state

        def after(s):
            if s == 0:
                return (total, tests + 1, 2)
            if total + s >= threshold:
                return (total + s, tests + 1, 1)
            if max_tests and tests + 1 >= max_tests:
                return (total + s, tests + 1, 2)
            return (total + s, tests + 1, 0)

        return (n @ SUCCESS_DIE).map(after)

    final = icepool.Die([(0, 0, 0)]).map(step, repeat=threshold)
    expected = sum((p for o, p in zip(final.outcomes(), final.probabilities()) if o[2] == 1), Fraction(0))
    result = odds(req("extended", pool=n, threshold=threshold, max_tests=max_tests))
    assert close(result["outcome"]["success"], expected)


# ---------------------------------------------------------------- extended: the dice at each test (test_modifiers)


def dice_at(pool: int, changes: list[int], test: int) -> int:
    """R5 with the change of test `test` (0 = the first); tests past the list none changed."""
    return max(1, pool + (changes[test] if test < len(changes) else 0))


def representative(n: int, s: int) -> list[int]:
    """n faces that give s successes (12s first where sevens cannot reach s)."""
    twelves = max(0, s - n)
    sevens = s - 2 * twelves
    return [12] * twelves + [7] * sevens + [1] * (n - twelves - sevens)


@pytest.mark.parametrize("pool,threshold,max_tests,changes", [
    (2, 4, 0, [-1, 0, 1]), (3, 5, 3, [0, -2]), (1, 3, 0, [2, -1, 0, 1])])
def test_extended_odds_follow_the_dice_of_each_test(pool, threshold, max_tests, changes) -> None:
    """Markov chain over (total, tests made) with each test's own dice, from the rules text."""
    @cache
    def win(total: int, tests: int) -> Fraction:
        if total >= threshold:
            return Fraction(1)                                           # R16
        if max_tests and tests >= max_tests:
            return Fraction(0)                                           # R18
        per_test = brute_successes(dice_at(pool, changes, tests))
        return sum((p * win(total + k, tests + 1) for k, p in per_test.items() if k > 0), Fraction(0))  # R17

    result = odds(req("extended", pool=pool, threshold=threshold, max_tests=max_tests, test_modifiers=changes))
    assert close(result["outcome"]["success"], win(0, 0))
    assert close(result["outcome"]["failure"], 1 - win(0, 0))


@pytest.mark.parametrize("pool,threshold,max_tests,changes,horizon", [
    (2, 4, 0, [-1, 0, 1], 4), (2, 4, 3, [1, -1], 3), (3, 5, 0, [0, -2, 1], 3)])
def test_extended_luck_is_over_the_dice_each_test_rolled(pool, threshold, max_tests, changes, horizon) -> None:
    """After j tests, a result's luck is the mass of every way of standing at least as well
    (success sooner, then running by total, then failure by total), each test weighed by its
    own dice: every success count of each test walked, one list of faces standing for it."""
    def key(result: dict) -> tuple[int, int]:
        if result["outcome"] == "success":
            return 2, -result["tests"]
        return (1 if result["outcome"] == "pending" else 0), result["total_successes"]

    request = req("extended", pool=pool, threshold=threshold, max_tests=max_tests, test_modifiers=changes)
    frontier = [([], Fraction(1))]
    ended: list[tuple[dict, Fraction]] = []
    for j in range(1, horizon + 1):
        n = dice_at(pool, changes, j - 1)
        now = []
        for rolls, p in frontier:
            for k, q in brute_successes(n).items():
                result = resolve({**request, "rolls": rolls + [representative(n, k)]})
                assert result["dice_per_test_made"][-1] == n
                now.append((result, rolls + [representative(n, k)], p * q))
        standing = [(key(r), p) for r, _rolls, p in now] + [(key(r), p) for r, p in ended]
        assert sum(p for _k, p in standing) == 1
        for result, _rolls, _p in now:
            expected = sum((p for k, p in standing if k >= key(result)), Fraction(0))
            assert close(result["luck"], expected), (j, key(result))
        ended += [(r, p) for r, _rolls, p in now if r["outcome"] != "pending"]
        frontier = [(rolls, p) for r, rolls, p in now if r["outcome"] == "pending"]


def test_extended_random_rolls_use_the_dice_of_each_test() -> None:
    for seed in range(40):
        result = resolve(req("extended", pool=4, threshold=12, test_modifiers=[-2, 1, 0, -3]), seed=seed)
        expected = [dice_at(4, [-2, 1, 0, -3], i) for i in range(result["tests"])]
        assert result["dice_per_test_made"] == expected == [len(r) for r in result["rolls"]]
        assert result["dice_per_test"] == 2


def test_countdown_at_or_above_the_threshold_never_binds() -> None:
    free = odds(req("extended", pool=3, threshold=6))["outcome"]
    for cap in (6, 7, 50):
        assert odds(req("extended", pool=3, threshold=6, max_tests=cap))["outcome"] == free
    assert odds(req("extended", pool=3, threshold=6, max_tests=5))["outcome"]["success"] < free["success"]


# ---------------------------------------------------------------- every mapping sums to 1


GRID = [
    req("simple", pool=p, modifier=m, penalty=k, difficulty=d)
    for p in (0, 3, 12) for m in (-2, 0, 2) for k in (0, 5) for d in (0, 1, 4, 7)
] + [
    req("group", skill=s, voie=v, helper_pools=h, difficulty=d)
    for s in (0, 3, 6) for v in (1, 6) for h in ([0], [4, 12]) for d in (1, 7)
] + [
    req("opposed", actor_pool=a, opponent_pool=o, initiator=i)
    for a in (0, 5, 12) for o in (1, 12) for i in ("actor", "opponent")
] + [
    req("extended", pool=p, threshold=t, max_tests=c)
    for p in (0, 4, 12) for t in (1, 9, 40) for c in (0, 1, 6)
]


@pytest.mark.parametrize("request_", GRID, ids=lambda r: "-".join(f"{v}" for v in list(r.values())[1:]))
def test_every_mapping_sums_to_one(request_: dict) -> None:
    result = odds(request_)
    probs = result["outcome"] if "outcome" in result else result["winner"]
    expected_keys = {"actor", "opponent", "tie"} if request_["kind"] == "opposed" else {"success", "failure"}
    assert set(probs) == expected_keys
    assert all(0.0 <= p <= 1.0 for p in probs.values())
    assert math.isclose(sum(probs.values()), 1.0, abs_tol=1e-12)
    assert result["policy"] is None


# ---------------------------------------------------------------- random rolls against odds


MC_REQUESTS = [
    req("simple", pool=5, modifier=1, difficulty=3),
    req("group", skill=2, voie=2, helper_pools=[3, 1], difficulty=4),
    req("opposed", actor_pool=4, opponent_pool=5, initiator="actor"),
    req("extended", pool=4, threshold=7, max_tests=3),
]


@pytest.mark.parametrize("request_", MC_REQUESTS, ids=lambda r: r["kind"])
def test_seeded_rolls_agree_with_odds(request_: dict) -> None:
    rolls = 20_000
    expected = odds(request_)
    if request_["kind"] == "opposed":
        p = expected["winner"]["actor"]
        hits = sum(resolve(request_, seed=seed)["winner"] == "actor" for seed in range(rolls))
    else:
        p = expected["outcome"]["success"]
        hits = sum(resolve(request_, seed=seed)["outcome"] == "success" for seed in range(rolls))
    sigma = math.sqrt(p * (1 - p) / rolls)
    assert abs(hits / rolls - p) <= 4 * sigma


def test_random_extended_test_always_ends() -> None:
    for seed in range(300):
        result = resolve(req("extended", pool=0, penalty=3, threshold=99), seed=seed)
        assert result["outcome"] in ("success", "failure")
        assert result["tests"] == len(result["rolls"]) == len(result["test_successes"])


# ---------------------------------------------------------------- replay


REPLAY = {
    "simple": (req("simple", skill=3, voie=2, modifier=-1, difficulty=2), ("dice",)),
    "trivial": (req("simple", pool=3, difficulty=0), ("dice",)),
    "group": (req("group", skill=1, voie=3, penalty=1, helper_pools=[2, 0], difficulty=3),
              ("helper_dice", "dice")),
    "opposed": (req("opposed", actor_pool=3, opponent_skill=2, opponent_voie=2, initiator="opponent"),
                ("actor_dice", "opponent_dice")),
    "extended": (req("extended", pool=3, threshold=9, max_tests=5, interval="heure"), ("rolls",)),
}


@pytest.mark.parametrize("name", REPLAY)
def test_random_roll_replays_as_forced_dice(name: str) -> None:
    request_, dice_fields = REPLAY[name]
    for seed in range(60):
        rolled = resolve(request_, seed=seed)
        forced = dict(request_, **{f: rolled[f] for f in dice_fields})
        assert resolve(forced) == rolled
        assert resolve(request_, seed=seed) == rolled


# ---------------------------------------------------------------- properties with forced dice


def dice_count(base: int, modifier: int, penalty: int, help_dice: int = 0) -> int:
    return max(1, base + modifier - penalty + help_dice)


faces = st.integers(1, 12)


@settings(max_examples=200, deadline=None)
@given(pool=st.integers(0, 12), modifier=st.integers(-2, 2), penalty=st.integers(0, 12),
       difficulty=st.integers(1, 7), data=st.data())
def test_simple_counts_every_die(pool, modifier, penalty, difficulty, data) -> None:
    n = dice_count(pool, modifier, penalty)
    dice = data.draw(st.lists(faces, min_size=n, max_size=n))
    result = resolve(req("simple", pool=pool, modifier=modifier, penalty=penalty, difficulty=difficulty, dice=dice))
    successes = sum(successes_of(f) for f in dice)
    assert result["successes"] == successes
    assert result["margin"] == successes - difficulty
    assert result["criticals"] == dice.count(12)
    assert result["dice_rolled"] == n
    assert result["outcome"] == ("success" if successes >= difficulty else "failure")


@settings(max_examples=200, deadline=None)
@given(skill=st.integers(0, 6), voie=st.integers(1, 6), penalty=st.integers(0, 6),
       helpers=st.lists(st.integers(0, 4), min_size=1, max_size=2), difficulty=st.integers(1, 7), data=st.data())
def test_group_help_is_capped_and_added(skill, voie, penalty, helpers, difficulty, data) -> None:
    helper_dice = [data.draw(st.lists(faces, min_size=max(1, h), max_size=max(1, h))) for h in helpers]
    help_successes = [sum(successes_of(f) for f in hd) for hd in helper_dice]
    help_dice = min(sum(help_successes), max(skill, 1))
    n = dice_count(skill + voie, 0, penalty, help_dice)
    dice = data.draw(st.lists(faces, min_size=n, max_size=n))
    result = resolve(req("group", skill=skill, voie=voie, penalty=penalty, helper_pools=helpers,
                         difficulty=difficulty, helper_dice=helper_dice, dice=dice))
    assert result["help_successes"] == help_successes
    assert result["help_cap"] == max(skill, 1)
    assert result["help_dice"] == help_dice
    assert result["dice_rolled"] == n
    assert result["successes"] == sum(successes_of(f) for f in dice)
    assert result["margin"] == result["successes"] - difficulty


@settings(max_examples=200, deadline=None)
@given(a_pool=st.integers(0, 6), o_pool=st.integers(0, 6), initiator=st.sampled_from(["actor", "opponent"]),
       data=st.data())
def test_opposed_decided_by_is_consistent(a_pool, o_pool, initiator, data) -> None:
    # Dice weighted towards 12 so that réussites critiques show up often.
    face = st.one_of(st.just(12), faces)
    a_dice = data.draw(st.lists(face, min_size=max(1, a_pool), max_size=max(1, a_pool)))
    o_dice = data.draw(st.lists(face, min_size=max(1, o_pool), max_size=max(1, o_pool)))
    result = resolve(req("opposed", actor_pool=a_pool, opponent_pool=o_pool, initiator=initiator,
                         actor_dice=a_dice, opponent_dice=o_dice))
    a = sum(successes_of(f) for f in a_dice)
    o = sum(successes_of(f) for f in o_dice)
    a_crit, o_crit = a_dice.count(12) >= 2, o_dice.count(12) >= 2
    assert (result["actor_successes"], result["opponent_successes"]) == (a, o)
    assert (result["actor_critical"], result["opponent_critical"]) == (a_crit, o_crit)
    assert result["margin"] == a - o
    assert result["winner"] in ("actor", "opponent")
    if a_crit != o_crit:
        assert result["decided_by"] == "critical"
        assert result["winner"] == ("actor" if a_crit else "opponent")
    elif a != o:
        assert result["decided_by"] == "successes"
        assert result["winner"] == ("actor" if a > o else "opponent")
    else:
        assert result["decided_by"] == "initiator"
        assert result["winner"] == initiator


@settings(max_examples=200, deadline=None)
@given(pool=st.integers(0, 4), threshold=st.integers(1, 12), max_tests=st.integers(0, 5),
       tests=st.integers(0, 8), data=st.data())
def test_extended_sums_tests_and_stops_when_decided(pool, threshold, max_tests, tests, data) -> None:
    n = max(1, pool)
    rolls = []
    total = 0
    decided = None
    for _ in range(tests):
        if decided:
            break
        roll = data.draw(st.lists(faces, min_size=n, max_size=n))
        rolls.append(roll)
        s = sum(successes_of(f) for f in roll)
        total += s
        if s == 0:
            decided = ("failure", "no_success")
        elif total >= threshold:
            decided = ("success", "")
        elif max_tests and len(rolls) >= max_tests:
            decided = ("failure", "countdown")
    result = resolve(req("extended", pool=pool, threshold=threshold, max_tests=max_tests, rolls=rolls))
    assert result["total_successes"] == total == sum(result["test_successes"])
    assert result["tests"] == len(rolls)
    assert (result["outcome"], result["failure_reason"]) == (decided or ("pending", ""))
    if decided:
        with pytest.raises(RequestError) as caught:
            resolve(req("extended", pool=pool, threshold=threshold, max_tests=max_tests, rolls=rolls + [[7] * n]))
        assert caught.value.field == "rolls"


# ---------------------------------------------------------------- request errors


@pytest.mark.parametrize("request_,field", [
    (req("simple", difficulty=1), "pool"),
    (req("simple", voie=2, difficulty=1), "skill"),
    (req("simple", pool=2), "difficulty"),
    (req("simple", pool=2, penalty=13, difficulty=1), "penalty"),
    (req("simple", pool=2, difficulty=1, dice=[7, "8"]), "dice"),
    (req("group", skill=1, voie=1, difficulty=1, helper_pools=[1], dice=[7, 7]), "helper_dice"),
    (req("group", skill=1, voie=1, difficulty=1, helper_pools=[1], helper_dice=[[7]]), "dice"),
    (req("group", skill=1, voie=1, difficulty=1, helper_pools=[1, 1], helper_dice=[[7]], dice=[7, 7]),
     "helper_dice"),
    (req("group", skill=1, voie=1, difficulty=1, helper_pools=[1], helper_dice=[[13]], dice=[7, 7]),
     "helper_dice"),
    (req("group", skill=1, voie=1, difficulty=1, helper_pools=[]), "helper_pools"),
    (req("opposed", actor_pool=13, opponent_pool=1), "actor_pool"),
    (req("opposed", actor_pool=1, opponent_pool=1, opponent_voie=2), "opponent_voie"),
    (req("opposed", actor_pool=1, opponent_skill=1), "opponent_voie"),
    (req("opposed", actor_pool=1, opponent_pool=1, opponent_dice=[7]), "actor_dice"),
    (req("opposed", actor_pool=1, opponent_pool=1, actor_dice=[7], opponent_dice=[7, 7]), "opponent_dice"),
    (req("extended", pool=1, threshold=100), "threshold"),
    (req("extended", pool=1, threshold=5, max_tests=-1), "max_tests"),
    (req("extended", pool=1, threshold=5, interval="mois"), "interval"),
    (req("extended", pool=1, threshold=5, rolls=[[7], [0]]), "rolls"),
    (req("extended", pool=1, threshold=5, rolls=[7, 8]), "rolls"),
    (req("simple", pool=2, difficulty=1, actor_pool=2), "actor_pool"),
])
def test_errors_name_the_field(request_: dict, field: str) -> None:
    with pytest.raises(RequestError) as caught:
        resolve(request_)
    assert caught.value.field == field
    assert field in str(caught.value)


# ---------------------------------------------------------------- describe and the seed's examples


def test_alexis_in_words(vectors) -> None:
    case = vectors.case("mir", "seed example: Alexis 6D12 facile")
    words = mir.describe(resolve(case["request"]))
    assert words.headline == "réussite"
    assert words.detail == "3 succès pour SD 2 · marge +1"
    assert words.good is True
    (group,) = words.groups
    assert [d.status for d in group.dice] == ["plain", "plain", "plain", "plain", "counted", "critical"]
    assert [d.face for d in group.dice] == [1, 5, 4, 6, 11, 12]
    assert group.total == 3 and all(d.sides == 12 for d in group.dice)


def test_loriane_rolls_skill_plus_voie(vectors) -> None:
    case = vectors.case("mir", "seed example: Loriane Eloquence 3 + Voie de l'Espoir 2 = 5 dice")
    result = resolve(case["request"])
    assert result["dice_rolled"] == 5 == result["pool"]
    random_roll = resolve({k: v for k, v in case["request"].items() if k != "dice"}, seed=7)
    assert len(random_roll["dice"]) == 5


def test_diane_in_words(vectors) -> None:
    case = vectors.case("mir", "seed example: Diane (Callia) Infiltration against the guard's Instinct")
    words = mir.describe(resolve(case["request"]))
    assert words.headline == "l'acteur l'emporte"
    assert words.detail == "3 succès contre 1 · plus de succès"
    assert [g.label for g in words.groups] == ["acteur", "opposant"]
    assert words.good is True


@pytest.mark.parametrize("dice,headline,how", [
    (([12, 12], [7, 8, 9, 10, 11]), "l'acteur l'emporte", "réussite critique (deux 12)"),
    (([7, 1], [1, 8, 1, 1, 1]), "l'acteur l'emporte", "l'initiateur l'emporte à égalité"),
    (([1, 1], [8, 1, 1, 1, 1]), "l'opposant l'emporte", "plus de succès"),
])
def test_opposed_decided_by_in_words(dice, headline, how) -> None:
    words = mir.describe(resolve(req("opposed", actor_pool=2, opponent_pool=5,
                                     actor_dice=dice[0], opponent_dice=dice[1])))
    assert words.headline == headline
    assert words.detail.endswith(how)
    assert words.good is (headline == "l'acteur l'emporte")


def test_healing_extended_in_words(vectors) -> None:
    case = vectors.case("mir", "seed example: healing, Guerison (Heritage) (1 jour) 8 succes")
    words = mir.describe(resolve(case["request"]))
    assert words.headline == "réussite"
    assert words.detail == "2 + 3 + 4 = 9 succès en 3 tests pour 8 · 1 jour par test"
    assert [g.label for g in words.groups] == ["test 1", "test 2", "test 3"]
    assert [g.total for g in words.groups] == [2, 3, 4]


@pytest.mark.parametrize("rolls,max_tests,headline,good", [
    ([[7, 8, 2, 3], [9, 1, 2, 3], [7, 7, 1, 1]], 3, "échec (compte à rebours)", False),
    ([[7, 8, 2, 3], [1, 2, 3, 4]], 0, "échec (aucun succès)", False),
    ([[7, 8, 2, 3]], 0, "en cours", None),
])
def test_extended_headlines(rolls, max_tests, headline, good) -> None:
    words = mir.describe(resolve(req("extended", pool=4, threshold=8, max_tests=max_tests, rolls=rolls)))
    assert words.headline == headline
    assert words.good is good


def test_group_and_trivial_in_words() -> None:
    words = mir.describe(resolve(req("group", skill=2, voie=3, difficulty=3, helper_pools=[3],
                                     helper_dice=[[7, 12, 2]], dice=[1, 2, 3, 4, 5, 6, 7])))
    assert words.headline == "échec"
    assert words.detail == "1 succès pour SD 3 · marge −2 · aide 2 dés"
    assert [g.label for g in words.groups] == ["dés", "aide 1"]
    assert [d.status for d in words.groups[1].dice] == ["counted", "critical", "plain"]
    trivial = mir.describe(resolve(req("simple", pool=2, difficulty=0)))
    assert (trivial.headline, trivial.good, trivial.groups) == ("réussite", True, ())


def test_system_description() -> None:
    system = get_system("mir")
    assert set(system.kinds) == {"simple", "group", "opposed", "extended"}
    assert system.kinds["opposed"].contest and not system.kinds["simple"].contest
    assert system.difficulty_field == "difficulty"
    assert [d.value for d in system.difficulties] == list(range(8))
    assert _(system.outcome_words["success"]) == "réussite"      # English msgid, said in French
    assert system.describe is mir.describe
    for kind in system.kinds.values():
        names = {f.name for f in kind.fields}
        assert set(kind.dice_fields) <= names
