"""Éclats: odds against every sequence of faces, random rolls against odds, rules as properties.

The reference below re-reads the rules (R2–R9) and the two policies independently of
`gmscreen.rules.eclats`, and walks every face of every roll the policy makes.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.i18n import _
from gmscreen.rules import RequestError, get_system, odds, resolve
from gmscreen.rules import eclats

OUTCOMES = ("success", "failure", "automatic_failure", "critical_failure")
OPTIONS = [
    {},
    {"level3_second_zero": "none"},
    {"single_zero": "automatic_failure"},
    {"level3_second_zero": "none", "single_zero": "automatic_failure"},
]


def req(**fields) -> dict:
    return {"system": "eclats", "kind": "simple", **fields}


def stop_outcome(characteristic: int, skill: int, threshold: int, dice: list[int], options: dict) -> str:
    """What happens when the player stops with these dice (R2, R6, R7, R9 and the options)."""
    if dice and dice[-1] == 0:
        if len(dice) == 3:
            return "critical_failure"
        if len(dice) == 2 and (characteristic == 2 or options.get("level3_second_zero") != "none"):
            return "automatic_failure"
        if len(dice) == 1 and options.get("single_zero") == "automatic_failure":
            return "automatic_failure"
    return "success" if (dice[-1] if dice else 0) + skill >= threshold else "failure"


def reference_odds(characteristic: int, skill: int, threshold: int, policy: str, options: dict) -> dict:
    """Walk every face sequence of length `characteristic`; the policy reads them in order."""
    counts = dict.fromkeys(OUTCOMES, Fraction(0))
    sequences = list(itertools.product(range(10), repeat=characteristic))
    for faces in sequences:
        dice: list[int] = []
        if characteristic and not (policy == "best" and skill >= threshold):
            for face in faces[: 1 if policy == "single" else characteristic]:
                dice.append(face)
                if stop_outcome(characteristic, skill, threshold, dice, options) == "success":
                    break
        counts[stop_outcome(characteristic, skill, threshold, dice, options)] += Fraction(1, len(sequences))
    return counts


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o.values()) or "defaults")
@pytest.mark.parametrize("policy", ["best", "single"])
@pytest.mark.parametrize("characteristic", [0, 1, 2, 3])
def test_odds_match_every_sequence_of_faces(characteristic: int, policy: str, options: dict) -> None:
    for skill in (0, 2, 5):
        for threshold in (1, 3, 5, 7, 9, 12, 15):
            result = odds(req(characteristic=characteristic, skill=skill, threshold=threshold,
                              policy=policy, **options))
            expected = reference_odds(characteristic, skill, threshold, policy, options)
            assert set(result["outcome"]) == set(OUTCOMES)
            for name in OUTCOMES:
                assert abs(result["outcome"][name] - float(expected[name])) <= 1e-12, (skill, threshold, name)
            assert result["policy"] == policy
            assert result["chance"] == result["outcome"]["success"]


@pytest.mark.parametrize("skill,threshold", [(0, 5), (3, 9), (5, 14), (1, 10)])
def test_single_policy_matches_icepool(skill: int, threshold: int) -> None:
    die = icepool.Die(range(10)) + skill
    result = odds(req(characteristic=2, skill=skill, threshold=threshold, policy="single"))
    assert abs(result["outcome"]["success"] - float(die.probability(">=", threshold))) <= 1e-12


@pytest.mark.parametrize("skill,threshold", [(0, 5), (2, 8), (4, 13)])
def test_best_policy_level_3_matches_icepool(skill: int, threshold: int) -> None:
    """icepool as a chain: each roll stops on success, else (rolls left) rolls again."""
    def roll(stage: int):
        def after(face: int):
            if stage == 3:
                return "critical_failure" if face == 0 else "success" if face + skill >= threshold else "failure"
            if face + skill >= threshold and not (stage == 2 and face == 0):
                return "success"
            return roll(stage + 1)
        return icepool.Die(range(10)).map(after)

    chain = roll(1)
    result = odds(req(characteristic=3, skill=skill, threshold=threshold))
    for name in OUTCOMES:
        assert abs(result["outcome"][name] - float(chain.probability(name))) <= 1e-12


def test_seed_table_of_zeros() -> None:
    """With an unreachable threshold the best policy uses every roll: the last is 0 one time in ten."""
    result = odds(req(characteristic=3, threshold=15))
    assert result["outcome"]["critical_failure"] == pytest.approx(0.1, abs=1e-12)
    result = odds(req(characteristic=2, threshold=15))
    assert result["outcome"]["automatic_failure"] == pytest.approx(0.1, abs=1e-12)


def test_best_policy_never_does_worse_than_single() -> None:
    for characteristic, skill, threshold in itertools.product(range(4), range(6), range(1, 16)):
        best = odds(req(characteristic=characteristic, skill=skill, threshold=threshold))["chance"]
        single = odds(req(characteristic=characteristic, skill=skill, threshold=threshold, policy="single"))["chance"]
        assert best >= single - 1e-15


@pytest.mark.parametrize("characteristic", [0, 1, 2, 3])
def test_every_mapping_sums_to_one(characteristic: int) -> None:
    for skill, threshold, policy, options in itertools.product(range(6), range(1, 16), ("best", "single"), OPTIONS):
        probs = odds(req(characteristic=characteristic, skill=skill, threshold=threshold,
                         policy=policy, **options))["outcome"]
        assert set(probs) == set(OUTCOMES)
        assert all(0.0 <= p <= 1.0 for p in probs.values())
        assert math.isclose(sum(probs.values()), 1.0, abs_tol=1e-12)


# ---------------------------------------------------------------- random rolls


@pytest.mark.parametrize("request_", [
    req(characteristic=3, skill=2, threshold=8),
    req(characteristic=2, skill=1, threshold=7),
    req(characteristic=3, skill=1, threshold=9, policy="single"),
    req(characteristic=3, skill=0, threshold=12, level3_second_zero="none"),
], ids=["best-3", "best-2", "single-3", "best-3-none"])
def test_seeded_rolls_agree_with_odds(request_: dict) -> None:
    rolls = 20_000
    probs = odds(request_)["outcome"]
    seen = dict.fromkeys(OUTCOMES, 0)
    for seed in range(rolls):
        seen[resolve(request_, seed=seed)["outcome"]] += 1
    for name, p in probs.items():
        sigma = math.sqrt(p * (1 - p) / rolls)
        assert abs(seen[name] / rolls - p) <= 4 * sigma + 1e-12, name


def test_best_policy_does_not_roll_when_the_skill_suffices() -> None:
    for seed in range(50):
        result = resolve(req(characteristic=3, skill=5, threshold=5), seed=seed)
        assert (result["rolls"], result["kept_die"], result["dice"], result["outcome"]) == (0, None, [], "success")


def test_best_policy_rerolls_only_failures() -> None:
    for seed in range(300):
        result = resolve(req(characteristic=3, skill=1, threshold=8), seed=seed)
        dice = result["dice"]
        assert 1 <= len(dice) <= 3
        for i in range(len(dice) - 1):
            assert stop_outcome(3, 1, 8, dice[: i + 1], {}) != "success"
        if len(dice) < 3:
            assert result["outcome"] == "success"


def test_single_policy_rolls_once() -> None:
    for seed in range(100):
        assert resolve(req(characteristic=3, skill=5, threshold=2, policy="single"), seed=seed)["rolls"] == 1
        assert resolve(req(characteristic=0, skill=2, threshold=2, policy="single"), seed=seed)["rolls"] == 0


@pytest.mark.parametrize("request_", [
    req(characteristic=3, skill=1, threshold=9),
    req(characteristic=2, skill=4, threshold=6, policy="single"),
    req(characteristic=3, skill=0, threshold=13, level3_second_zero="none", single_zero="automatic_failure"),
    req(characteristic=0, skill=3, threshold=2),
])
def test_random_roll_replays_as_forced_dice(request_: dict) -> None:
    for seed in range(100):
        rolled = resolve(request_, seed=seed)
        assert resolve(dict(request_, dice=rolled["dice"])) == rolled


# ---------------------------------------------------------------- properties with forced dice


@settings(max_examples=200, deadline=None)
@given(characteristic=st.integers(0, 3), skill=st.integers(0, 5), threshold=st.integers(1, 15),
       data=st.data(), options=st.sampled_from(OPTIONS))
def test_result_is_the_kept_die_plus_skill(characteristic, skill, threshold, data, options) -> None:
    face = st.one_of(st.just(0), st.integers(0, 9))
    dice = data.draw(st.lists(face, max_size=characteristic))
    result = resolve(req(characteristic=characteristic, skill=skill, threshold=threshold, dice=dice, **options))
    kept = dice[-1] if dice else None
    assert result["kept_die"] == kept
    assert result["result"] == (kept or 0) + skill
    assert result["margin"] == result["result"] - threshold
    assert result["rolls"] == len(dice)
    assert result["zeros_before"] == dice[:-1].count(0)
    assert result["dice"] == dice
    outcome = result["outcome"]
    if outcome == "critical_failure":
        assert len(dice) == 3 and kept == 0                                    # R7 only
    elif outcome == "automatic_failure":
        assert kept == 0 and (
            (len(dice) == 2 and (characteristic == 2 or options.get("level3_second_zero") != "none"))
            or (len(dice) == 1 and options.get("single_zero") == "automatic_failure"))  # R6, R9 option
    else:
        assert outcome == ("success" if result["result"] >= threshold else "failure")
    assert outcome == stop_outcome(characteristic, skill, threshold, dice, options)


# ---------------------------------------------------------------- options and errors


def test_level3_second_zero_option() -> None:
    dice = [5, 0]
    assert resolve(req(characteristic=3, skill=4, threshold=4, dice=dice))["outcome"] == "automatic_failure"
    assert resolve(req(characteristic=3, skill=4, threshold=4, dice=dice,
                       level3_second_zero="none"))["outcome"] == "success"
    # Characteristic 2: the seed makes the second 0 fatal whatever the option.
    assert resolve(req(characteristic=2, skill=4, threshold=4, dice=dice,
                       level3_second_zero="none"))["outcome"] == "automatic_failure"


def test_single_zero_option() -> None:
    assert resolve(req(characteristic=1, skill=4, threshold=4, dice=[0]))["outcome"] == "success"
    assert resolve(req(characteristic=1, skill=4, threshold=4, dice=[0],
                       single_zero="automatic_failure"))["outcome"] == "automatic_failure"
    assert resolve(req(characteristic=3, skill=4, threshold=4, dice=[0],
                       single_zero="automatic_failure"))["outcome"] == "automatic_failure"


@pytest.mark.parametrize("request_,field", [
    (req(characteristic=2, threshold=5, level3_second_zero="critical"), "level3_second_zero"),
    (req(characteristic=2, threshold=5, single_zero=True), "single_zero"),
    (req(characteristic=2, threshold=5, policy=1), "policy"),
    (req(characteristic="2", threshold=5), "characteristic"),
    (req(characteristic=2, threshold=5, dice=[3, 2.5]), "dice"),
    (req(characteristic=2, threshold=5, dice="3"), "dice"),
    (req(threshold=5), "characteristic"),
])
def test_errors_name_the_field(request_: dict, field: str) -> None:
    with pytest.raises(RequestError) as caught:
        resolve(request_)
    assert caught.value.field == field
    assert field in str(caught.value)


def test_odds_refuse_dice() -> None:
    with pytest.raises(RequestError) as caught:
        odds(req(characteristic=2, threshold=5, dice=[3]))
    assert caught.value.field == "dice"


# ---------------------------------------------------------------- describe


def test_reroll_to_zero_in_words(vectors) -> None:
    case = vectors.case("eclats", "characteristic 2: rolled 3, rerolled, got 0: automatic failure despite the skill")
    words = eclats.describe(resolve(case["request"]))
    assert words.headline == "échec automatique"
    assert words.good is False
    (group,) = words.groups
    assert [(d.face, d.status, d.low, d.sides) for d in group.dice] == [(3, "rerolled", 0, 10), (0, "fumble", 0, 10)]


def test_critical_failure_counts_earlier_zeros(vectors) -> None:
    case = vectors.case("eclats", "characteristic 3: three zeros, the worst critical failure")
    words = eclats.describe(resolve(case["request"]))
    assert words.headline == "échec critique"
    assert words.detail.endswith("· 2 zéros avant")
    assert [d.status for d in words.groups[0].dice] == ["rerolled", "rerolled", "fumble"]


@pytest.mark.parametrize("fields,headline,detail,statuses", [
    ({"characteristic": 1, "skill": 2, "threshold": 7, "dice": [5]}, "réussite",
     "dé 5 + compétence 2 = 7 pour un seuil de 7 · marge +0", ["kept"]),
    ({"characteristic": 2, "skill": 1, "threshold": 6, "dice": [4, 2]}, "échec",
     "dé 2 + compétence 1 = 3 pour un seuil de 6 · marge −3", ["rerolled", "kept"]),
    ({"characteristic": 1, "skill": 4, "threshold": 4, "dice": [0]}, "réussite",
     "dé 0 + compétence 4 = 4 pour un seuil de 4 · marge +0", ["kept"]),
    ({"characteristic": 3, "skill": 5, "threshold": 5, "dice": []}, "réussite",
     "sans dé : compétence 5 = 5 pour un seuil de 5 · marge +0", []),
])
def test_describe(fields, headline, detail, statuses) -> None:
    words = eclats.describe(resolve(req(**fields)))
    assert (words.headline, words.detail) == (headline, detail)
    assert [d.status for g in words.groups for d in g.dice] == statuses
    assert words.good is (headline == "réussite")


def test_system_description() -> None:
    system = get_system("eclats")
    assert list(system.kinds) == ["simple"]
    kind = system.kinds["simple"]
    assert kind.policy == "policy" and kind.dice_fields == ("dice",)
    assert {"level3_second_zero", "single_zero", "policy"} <= {f.name for f in kind.fields}
    assert system.difficulty_field == "threshold"
    assert [d.value for d in system.difficulties] == list(range(1, 16))
    assert {_(system.outcome_words[o]) for o in OUTCOMES} == {     # English msgids, said in French
        "réussite", "échec", "échec automatique", "échec critique"}
    assert system.describe is eclats.describe
