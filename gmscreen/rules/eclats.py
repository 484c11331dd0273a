"""Éclats: one d10 read 0–9, rerolled up to the characteristic level, last die kept, + skill.

Rules: shared spec `eclats.md`, R1–R12. Kind: simple.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Mapping, Sequence

from gmscreen.i18n import N_, _, ngettext, pgettext

from ._base import (
    DiceGroup, Description, Die, Difficulty, FieldSpec, ForcedDice, Kind, RandomDice, Reader, RequestError,
    Stat, StatGroup, System)
from .luck import Ladder, LuckOf
from .records import record
from .render import margin

CHARACTERISTICS = (
    Stat("eve", "ÉVEil", 0, 3, gloss="awakening"),
    Stat("agi", "AGIlité", 0, 3, gloss="agility"),
    Stat("for", "FORce", 0, 3, gloss="strength"),
    Stat("end", "ENDurance", 0, 3, gloss="endurance"),
    Stat("bea", "BEAuté", 0, 3, gloss="beauty"),
    Stat("per", "PERception", 0, 3, gloss="perception"),
    Stat("int", "INTellect", 0, 3, gloss="intellect"),
    Stat("emp", "EMPathie", 0, 3, gloss="empathy"),
    Stat("rus", "RUSe", 0, 3, gloss="cunning"),
    Stat("cha", "CHArisme", 0, 3, gloss="charisma"),
)

SHEET = (
    StatGroup("characteristics", "Caractéristiques", CHARACTERISTICS),
    StatGroup("skills", "Compétences", free=Stat("", "Compétence", 1, 5, default=1), required=False),
)

DIFFICULTIES = (
    Difficulty("Très facile", 1, N_("tie a simple knot")),
    Difficulty("", 2, N_("light a campfire")),
    Difficulty("Facile", 3, N_("handle a common tool")),
    Difficulty("", 4, N_("find the way by the stars")),
    Difficulty("Moyen", 5, N_("step over a small stream")),
    Difficulty("", 6, N_("hide one's tracks")),
    Difficulty("Complexe", 7, N_("hunt game")),
    Difficulty("", 8, N_("lie to a wary person")),
    Difficulty("Difficile", 9, N_("run on sloping roofs")),
    Difficulty("", 10, N_("pick a lock")),
    Difficulty("Très difficile", 11, N_("slip out of tight bonds")),
    Difficulty("", 12, N_("craft a perfect object")),
    Difficulty("Expert", 13, N_("operate on a Profane")),
    Difficulty("Presque impossible", 14, N_("jump into the void and live")),
    Difficulty("Impossible", 15, N_("coax a Hantise")),
)

# ---------------------------------------------------------------- the rules (R1–R9)

SIDES = 10          # R1: a d10 read 0 to 9
POLICIES = ("best", "single")
LEVEL3_SECOND_ZERO = ("automatic_failure", "none")
SINGLE_ZERO = ("counts_zero", "automatic_failure")
OUTCOMES = ("success", "failure", "automatic_failure", "critical_failure")


@record(frozen=True)
class _Test:
    """One Éclats test as the GM set it, with the rule options in force."""

    characteristic: int
    skill: int
    threshold: int
    policy: str = "best"
    level3_second_zero: str = "automatic_failure"
    single_zero: str = "counts_zero"

    def judge(self, dice: Sequence[int]) -> str:
        """The outcome if the player stops with these dice (only the count and the kept die matter)."""
        if dice and dice[-1] == 0:
            rolls = len(dice)
            if rolls == 3:
                return "critical_failure"                                   # R7
            if rolls == 2 and (self.characteristic == 2 or self.level3_second_zero == "automatic_failure"):
                return "automatic_failure"                                  # R6
            if rolls == 1 and self.single_zero == "automatic_failure":
                return "automatic_failure"                                  # R9 alternative
        kept = dice[-1] if dice else 0
        return "success" if kept + self.skill >= self.threshold else "failure"  # R2

    def rolls_nothing(self) -> bool:
        """Random mode and odds: no die when none is allowed, or (best) when the skill suffices (R5)."""
        return self.characteristic == 0 or (self.policy == "best" and self.skill >= self.threshold)

    def max_rolls(self) -> int:
        return 1 if self.policy == "single" else self.characteristic


def _read(reader: Reader) -> _Test:
    return _Test(
        characteristic=reader.int("characteristic", 0, 3),
        skill=reader.int("skill", 0, 5, 0),
        threshold=reader.int("threshold", 1, 15),
        policy=reader.choice("policy", POLICIES, "best"),
        level3_second_zero=reader.choice("level3_second_zero", LEVEL3_SECOND_ZERO, "automatic_failure"),
        single_zero=reader.choice("single_zero", SINGLE_ZERO, "counts_zero"),
    )


def _result(test: _Test, dice: list[int]) -> dict:
    kept = dice[-1] if dice else None
    result = (kept or 0) + test.skill
    return {
        "outcome": test.judge(dice),
        "result": result,
        "kept_die": kept,
        "rolls": len(dice),
        "zeros_before": dice[:-1].count(0),
        "margin": result - test.threshold,
        "dice": dice,
    }


def _resolve(reader: Reader, rng: random.Random) -> dict:
    test = _read(reader)
    forced = reader.dice("dice")
    key = reader.key("dice")
    if forced is not None:
        # The dice say what the player chose: how many rolls, the last one kept (R3, R4).
        if len(forced) > test.characteristic:
            raise RequestError(key, "characteristic_rolls", characteristic=test.characteristic, got=len(forced))
        given = ForcedDice(forced, key)
        faces = [given.roll(SIDES, low=0) for _ in forced]
        given.done()
        return _result(test, faces)
    source = RandomDice(rng)
    dice: list[int] = []
    if not test.rolls_nothing():
        # Policy: roll, and roll again while the stop would fail and rolls remain (R4).
        while len(dice) < test.max_rolls():
            dice.append(source.roll(SIDES, low=0))
            if test.judge(dice) == "success":
                break
    return _result(test, dice)


@lru_cache(maxsize=4096)
def _outcome_ways(test: _Test) -> tuple[tuple[str, int], ...]:
    """Ways to reach each outcome out of SIDES**max_rolls, under the test's policy.

    Whether the player rolls again depends only on the roll number and the face just rolled,
    so each stage is counted once with the number of earlier sequences that reach it.
    """
    ways = dict.fromkeys(OUTCOMES, 0)
    if test.rolls_nothing():
        ways[test.judge([])] = 1
        return tuple(ways.items())
    reaching = 1          # sequences of earlier faces that lead to this roll
    last = test.max_rolls()
    for stage in range(1, last + 1):
        weight = SIDES ** (last - stage)
        going_on = 0
        for face in range(SIDES):
            outcome = test.judge([1] * (stage - 1) + [face])
            if outcome == "success" or stage == last:
                ways[outcome] += reaching * weight
            else:
                going_on += 1
        reaching *= going_on
        if not reaching:
            break
    return tuple(ways.items())


def _odds(reader: Reader) -> dict:
    test = _read(reader)
    ways = _outcome_ways(test)
    total = sum(w for _, w in ways)
    return {"outcome": {name: w / total for name, w in ways}, "policy": test.policy}


# ---------------------------------------------------------------- luck (the chance of doing at least as well)

_RANK = {"critical_failure": 0, "automatic_failure": 1, "failure": 2, "success": 3}


@lru_cache(maxsize=4096)
def _final_ladder(test: _Test) -> Ladder:
    """Ways to each final (outcome, result) out of SIDES**max_rolls, the whole roll played as the
    policy plays it (best: roll again while the stop would not succeed; single: one roll). The
    dice rolled away are part of it. A test whose policy rolls no die (R5: the skill suffices)
    but was rolled all the same is measured as `best` plays it from the first roll."""
    ways: dict[tuple[int, int], int] = {}
    reaching = 1
    last = test.max_rolls()
    for stage in range(1, last + 1):
        weight = SIDES ** (last - stage)
        going_on = 0
        for face in range(SIDES):
            outcome = test.judge([1] * (stage - 1) + [face])
            if outcome == "success" or stage == last:
                key = (_RANK[outcome], face + test.skill)
                ways[key] = ways.get(key, 0) + reaching * weight
            else:
                going_on += 1
        reaching *= going_on
        if not reaching:
            break
    return Ladder(ways, SIDES ** last)


def _luck(reader: Reader) -> LuckOf:
    """The final result, by outcome (success, failure, automatic failure, critical failure), then
    by result (kept die + skill); the chance of one at least as good over the whole roll, every
    reroll the policy makes included (R3, R4). No die rolled: no luck."""
    test = _read(reader)
    ladder = _final_ladder(test) if test.max_rolls() else None

    def luck(result: Mapping) -> float | None:
        if not result["rolls"] or ladder is None:
            return None
        return ladder.at_least((_RANK[result["outcome"]], result["result"]))

    return luck


# ---------------------------------------------------------------- describe

# Outcome -> its words (English msgids: shown through `_`, in the language spoken).
OUTCOME_WORDS = {
    "success": N_("success"),
    "failure": N_("failure"),
    "automatic_failure": N_("automatic failure"),
    "critical_failure": N_("critical failure"),
}


def describe(result: Mapping) -> Description:
    """An Éclats result in the maître de jeu's words (in the language spoken), each die marked
    rerolled, kept or fatal."""
    outcome = result["outcome"]
    dice = list(result["dice"])
    skill = result["result"] - (result.get("kept_die") or 0)     # a logged result drops a null kept_die
    threshold = result["result"] - result["margin"]
    if dice:
        shown = _("die {die} + skill {skill} = {result}").format(die=dice[-1], skill=skill, result=result["result"])
    else:
        shown = _("no die: skill {skill} = {result}").format(skill=skill, result=result["result"])
    detail = _("{shown} against a threshold of {threshold} · margin {margin}").format(
        shown=shown, threshold=threshold, margin=margin(result["margin"]))
    if outcome == "critical_failure" and result["zeros_before"]:
        zeros = result["zeros_before"]
        detail += " · " + ngettext("{n} zero before", "{n} zeros before", zeros).format(n=zeros)
    fatal = outcome in ("automatic_failure", "critical_failure")
    faces = []
    for i, face in enumerate(dice):
        if i < len(dice) - 1:
            status = "rerolled"
        else:
            status = "fumble" if fatal and face == 0 else "kept"
        faces.append(Die(face, SIDES, status, low=0))
    groups = (DiceGroup(pgettext("dice group", "characteristic die"), tuple(faces), result.get("kept_die")),) if dice else ()
    return Description(_(OUTCOME_WORDS[outcome]), detail, groups, outcome == "success")


# ---------------------------------------------------------------- the system

KINDS = {
    "simple": Kind(
        "simple", "resolution", _resolve, _odds,
        (
            FieldSpec("characteristic", "int", 0, 3, required=True, help="characteristic level = rolls allowed"),
            FieldSpec("skill", "int", 0, 5, default=0, help="skill bonus; 0 when no skill applies"),
            FieldSpec("threshold", "int", 1, 15, required=True, help="success threshold"),
            FieldSpec("dice", "dice", 0, 9, help="forced faces 0–9, every roll in order, the last kept; [] = no roll"),
            FieldSpec("policy", "str", choices=POLICIES, default="best",
                      help="random rolls and odds: best = reroll while failing; single = one roll"),
            FieldSpec("level3_second_zero", "str", choices=LEVEL3_SECOND_ZERO, default="automatic_failure",
                      help="characteristic 3 stopping on a second-roll 0 (R6)"),
            FieldSpec("single_zero", "str", choices=SINGLE_ZERO, default="counts_zero",
                      help="a 0 on a single kept roll (R9)"),
        ),
        ("dice",),
        policy="policy",
        check=_read,
        luck=_luck,
    ),
}

SYSTEM = System.of_module(globals(), game="Éclats", gm="maître de jeu",
    dice="one d10 read 0–9, rerolled up to the characteristic (0–3), last die kept + skill ≥ threshold 1–15",
    difficulty_field="threshold",
    difficulty_fields=frozenset({"threshold", "margin"}),
    rule_options={"level3_second_zero": ("automatic_failure", "none"),
                  "single_zero": ("counts_zero", "automatic_failure")},
)
