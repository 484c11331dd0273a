"""Magisphère: 1d20 + statistic + skill + bonuses against threshold + maluses; Impulsion.

Rules: shared spec `magisphere.md`, R1–R25. Kinds: simple, opposed, extended_opposed.
"""

from __future__ import annotations

import random
import threading
from bisect import bisect_left, bisect_right
from itertools import accumulate
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import Mapping

from gmscreen.i18n import N_, _, ngettext, pgettext
from gmscreen.i18n.typography import signed

from ._base import (
    DiceGroup, Description, Die, Difficulty, FieldSpec, ForcedDice, Kind, RandomDice, Reader, RequestError,
    Stat, StatGroup, System, forced_mode)
from .luck import Ladder, Luck, LuckOf, probability
from .records import record
from .render import margin

# Statistics and skills are not listed by the seed: free names. Skills are stored under
# the statistic they use (skills.PRE.Négociation = 3).
SHEET = (
    StatGroup("stats", "Statistiques", free=Stat("", "Statistique", 0, 30, default=10)),
    StatGroup("skills", "Compétences", free=Stat("", "Compétence", 0, 20, default=0),
              parent_group="stats", required=False),
    StatGroup("resources", "Ressources", (
        Stat("impulsion", "Impulsion", 0, 99, default=0),
        Stat("impulsion_max", "Impulsion max.", 0, 99, default=0),
    ), required=False),
)

DIFFICULTIES = (
    Difficulty("Très facile", 15),
    Difficulty("Facile", 18),
    Difficulty("Standard", 20),
    Difficulty("Difficile", 22),
    Difficulty("Très difficile", 25),
)

OPPOSITIONS = (
    Difficulty("Opposition brève", 2),
    Difficulty("Opposition tendue", 3),
    Difficulty("Opposition majeure", 5),
)

D20 = 20
IMPULSE_BONUS = 3            # R5
MAX_DICE = 100               # a first roll and at most 99 rerolls (impulsions <= 99)
REROLL_LIMITS = ("unlimited", "one")   # R7 and its alternative
_FAILING = ("failure", "critical_failure")


# ---------------------------------------------------------------- reading a roller


@record(frozen=True)
class _Roller:
    """One side of a test: the fixed part of its score and its Impulsion."""

    stat: int
    skill: int
    bonus: int
    helpers: tuple[int, ...]
    impulse_bonus: bool
    impulsions: int | None
    impulsions_key: str

    @property
    def cooperation(self) -> int:
        """R23: each helper gives half its skill bonus, rounded down."""
        return sum(h // 2 for h in self.helpers)

    @property
    def base(self) -> int:
        """Score without the die (R13) and without the Impulsion bonus."""
        return self.stat + self.skill + self.bonus + self.cooperation

    def score(self, natural: int, rerolled: bool) -> int:
        """R1, R5, R6: the +3 bought before the roll is lost once the test is rerolled."""
        bonus = IMPULSE_BONUS if self.impulse_bonus and not rerolled else 0
        return natural + self.base + bonus

    def reroll_budget(self, limit: str) -> int:
        """Rerolls the random-mode policy may buy: points left after the +3, capped by R7."""
        available = 0 if self.impulsions is None else self.impulsions - int(self.impulse_bonus)
        return min(available, 1) if limit == "one" else available

    def check_spent(self, rerolls: int) -> None:
        spent = rerolls + int(self.impulse_bonus)
        if self.impulsions is not None and spent > self.impulsions:
            raise RequestError(self.impulsions_key, "impulsion_spent", spent=spent, rerolls=rerolls,
                               bonus=bool(self.impulse_bonus), available=self.impulsions)


def _read_roller(reader: Reader, impulsion: bool = True) -> _Roller:
    stat = reader.int("stat", 0, 30)
    skill = reader.int("skill", 0, 20, 0)
    bonus = reader.int("bonus", 0, 20, 0)
    helpers = tuple(reader.int_list("helper_skills", 0, 20, 0, 2, default=()))   # R25
    if impulsion:
        impulse_bonus = reader.bool("impulse_bonus", False)
        impulsions = reader.int("impulsions", 0, 99, None)
    else:
        reader.forbid(
            "impulse_bonus", "impulsions",
            code="no_impulsion_extended",
        )
        impulse_bonus, impulsions = False, None
    roller = _Roller(stat, skill, bonus, helpers, impulse_bonus, impulsions, reader.key("impulsions"))
    roller.check_spent(0)
    return roller


def _read_limit(reader: Reader) -> str:
    return reader.choice("reroll_limit", REROLL_LIMITS, "unlimited")


def _forced_faces(reader: Reader, name: str, roller: _Roller | None, limit: str) -> list[int]:
    """A forced list of d20 faces: the first roll, then each reroll in order."""
    key = reader.key(name)
    faces = reader.dice(name, max_len=MAX_DICE)
    if faces is None:
        raise RequestError(key, "required_d20_faces")
    source = ForcedDice(faces, key)
    for _ in faces:
        source.roll(D20)
    source.done()
    if roller is not None:
        if not faces:
            raise RequestError(key, "no_d20_face")
        if limit == "one" and len(faces) > 2:
            raise RequestError(key, "one_reroll", got=len(faces))
        roller.check_spent(len(faces) - 1)
    return faces


# ---------------------------------------------------------------- judging


def _judge(natural: int, score: int, target: int) -> str:
    """R1, R10, R11: a natural 20 always succeeds, a natural 1 always fails."""
    if natural == 20:
        return "critical_success"
    if natural == 1:
        return "critical_failure"
    return "success" if score >= target else "failure"


def _contest(a_nat: int, a_score: int, o_nat: int, o_score: int) -> tuple[str, str, int, int]:
    """R14–R17 and the round points of R19–R21: (winner, decided_by, actor points, opponent points)."""
    if a_nat == 20 and o_nat == 20:                      # R16, R20
        if a_score > o_score:
            return "actor", "score", 2, 0
        if a_score < o_score:
            return "opponent", "score", 0, 2
        return "tie", "score", 1, 1
    if a_nat == 20:                                      # R16, R19 (+1 for the other's natural 1)
        return "actor", "critical", 3 if o_nat == 1 else 2, 0
    if o_nat == 20:
        return "opponent", "critical", 0, 3 if a_nat == 1 else 2
    if a_nat == 1 and o_nat == 1:                        # R17, R21
        return "tie", "critical_failure", 1, 1
    if a_nat == 1:                                       # R17, R19
        return "opponent", "critical_failure", 0, 2
    if o_nat == 1:
        return "actor", "critical_failure", 2, 0
    if a_score > o_score:                                # R14
        return "actor", "score", 1, 0
    if a_score < o_score:
        return "opponent", "score", 0, 1
    return "tie", "score", 0, 0                          # R15, R21


def _key(natural: int, score: int) -> tuple[int, int]:
    """Strength of a kept roll in an opposition: comparing keys gives exactly R14–R17."""
    if natural == 1:
        return (0, 0)
    if natural == 20:
        return (2, score)
    return (1, score)


def _keys(base: int) -> list[tuple[int, int]]:
    """Keys of faces 1..20 for a side whose score without the die is `base` (sorted by face)."""
    return [_key(face, face + base) for face in range(1, D20 + 1)]


def _policy_text(budget: int) -> str:
    if budget <= 0:
        return "no reroll (no Impulsion point to spend)"
    return f"reroll while failing, at most {budget} reroll{'s' if budget > 1 else ''}"


# ---------------------------------------------------------------- kind simple


def _simple_inputs(reader: Reader) -> tuple[_Roller, int, str]:
    roller = _read_roller(reader)
    threshold = reader.int("threshold", 1, 50)
    malus = reader.int("malus", 0, 20, 0)
    limit = _read_limit(reader)
    return roller, threshold + malus, limit


def _resolve_simple(reader: Reader, rng: random.Random) -> dict:
    roller, target, limit = _simple_inputs(reader)
    if forced_mode(reader, ("dice",)):
        faces = _forced_faces(reader, "dice", roller, limit)
    else:
        dice = RandomDice(rng)
        budget = roller.reroll_budget(limit)
        faces = [dice.roll(D20)]
        # Policy (R6): reroll while the kept roll fails, a natural 1 included, and points remain.
        while budget > 0 and _judge(faces[-1], roller.score(faces[-1], len(faces) > 1), target) in _FAILING:
            faces.append(dice.roll(D20))
            budget -= 1
    natural, rerolls = faces[-1], len(faces) - 1
    score = roller.score(natural, rerolls > 0)
    return {
        "outcome": _judge(natural, score, target),
        "score": score,
        "target": target,
        "margin": score - target,
        "natural": natural,
        "rerolls": rerolls,
        "impulsions_spent": rerolls + int(roller.impulse_bonus),
        "impulse_bonus_applied": roller.impulse_bonus and rerolls == 0,
        "cooperation_bonus": roller.cooperation,
        "no_roll_needed": roller.base >= target,          # R13: the die counts 0
        "dice": faces,
    }


def _face_counts(base: int, target: int) -> tuple[int, int, int, int]:
    """Faces (of 20) giving critical_success, critical_failure, success, failure."""
    success = sum(1 for face in range(2, 20) if face + base >= target)
    return 1, 1, success, 18 - success


def _odds_simple(reader: Reader) -> dict:
    roller, target, limit = _simple_inputs(reader)
    budget = roller.reroll_budget(limit)
    first = _face_counts(roller.base + IMPULSE_BONUS * roller.impulse_bonus, target)
    later = _face_counts(roller.base, target)
    names = ("critical_success", "critical_failure", "success", "failure")
    if budget == 0:
        counts, denominator = first, D20
    else:
        # The first roll fails with F1/20; each reroll fails again with q/20 (never 20/20: a
        # natural 20 succeeds). A success at reroll j has weight q^(j-1); failure stands only
        # on the last reroll. Integer numerators over 20^(k+1).
        k = budget
        fail_first = first[1] + first[3]
        q = later[1] + later[3]
        geometric = (D20 ** k - q ** k) // (D20 - q)          # sum of q^j 20^(k-1-j), j < k
        last = fail_first * q ** (k - 1)
        counts = (
            first[0] * D20 ** k + fail_first * later[0] * geometric,
            last * later[1],
            first[2] * D20 ** k + fail_first * later[2] * geometric,
            last * later[3],
        )
        denominator = D20 ** (k + 1)
    return {
        "outcome": {name: count / denominator for name, count in zip(names, counts)},
        "policy": _policy_text(budget),
    }


# ---------------------------------------------------------------- kind opposed


def _opposed_inputs(reader: Reader) -> tuple[Reader, Reader, _Roller, _Roller, str]:
    actor_reader, opponent_reader = reader.sub("actor_"), reader.sub("opponent_")
    actor = _read_roller(actor_reader)
    opponent = _read_roller(opponent_reader)
    return actor_reader, opponent_reader, actor, opponent, _read_limit(reader)


def _resolve_opposed(reader: Reader, rng: random.Random) -> dict:
    actor_reader, opponent_reader, actor, opponent, limit = _opposed_inputs(reader)
    if forced_mode(reader, ("actor_dice", "opponent_dice")):
        a_faces = _forced_faces(actor_reader, "dice", actor, limit)
        o_faces = _forced_faces(opponent_reader, "dice", opponent, limit)
    else:
        dice = RandomDice(rng)
        a_faces, o_faces = [dice.roll(D20)], [dice.roll(D20)]
        a_budget, o_budget = actor.reroll_budget(limit), opponent.reroll_budget(limit)
        # Policy: the side whose kept roll loses rerolls while it has points; a tie stops.
        while True:
            winner = _contest(a_faces[-1], actor.score(a_faces[-1], len(a_faces) > 1),
                              o_faces[-1], opponent.score(o_faces[-1], len(o_faces) > 1))[0]
            if winner == "opponent" and a_budget > 0:
                a_faces.append(dice.roll(D20))
                a_budget -= 1
            elif winner == "actor" and o_budget > 0:
                o_faces.append(dice.roll(D20))
                o_budget -= 1
            else:
                break
    a_nat, o_nat = a_faces[-1], o_faces[-1]
    a_score = actor.score(a_nat, len(a_faces) > 1)
    o_score = opponent.score(o_nat, len(o_faces) > 1)
    winner, decided_by, a_points, o_points = _contest(a_nat, a_score, o_nat, o_score)
    return {
        "winner": winner,
        "decided_by": decided_by,
        "actor_score": a_score,
        "opponent_score": o_score,
        "margin": a_score - o_score,
        "actor_natural": a_nat,
        "opponent_natural": o_nat,
        "actor_points": a_points,
        "opponent_points": o_points,
        "actor_impulsions_spent": len(a_faces) - 1 + int(actor.impulse_bonus),
        "opponent_impulsions_spent": len(o_faces) - 1 + int(opponent.impulse_bonus),
        "actor_dice": a_faces,
        "opponent_dice": o_faces,
    }


def _suffix_sums(values: list[int]) -> list[int]:
    """out[i] = sum(values[i:]), with out[len] = 0."""
    out = list(accumulate(reversed(values)))
    out.reverse()
    out.append(0)
    return out


def _phase_tables(loser_keys: list[tuple[int, int]], leader_keys: list[tuple[int, int]]):
    """For each leader key: loser faces still losing to it, and the first face beating it.

    The faces in between tie, and a tie ends the test (it adds nothing to either side's wins).
    """
    below = [bisect_left(loser_keys, key) for key in leader_keys]
    first_above = [bisect_right(loser_keys, key) for key in leader_keys]
    return below, first_above


def _opposed_exact(actor: _Roller, opponent: _Roller, a_budget: int, o_budget: int) -> tuple[int, int, int]:
    """Exact winner odds under the loser-rerolls policy: (actor, opponent, denominator) integers.

    The side that loses rerolls (one point each) until it ties, wins or runs out, then the
    other side may answer. The leader never rerolls, so a state is (leader, its kept face,
    points left on each side). Values are integer numerators over 20^(points left); the
    actor's and the opponent's wins are packed into one integer (every operation is a
    non-negative linear one, so the two parts never mix). A tie is what is left.
    """
    ka, ko = _keys(actor.base), _keys(opponent.base)
    ka0 = _keys(actor.base + IMPULSE_BONUS * actor.impulse_bonus)      # first rolls keep the +3
    ko0 = _keys(opponent.base + IMPULSE_BONUS * opponent.impulse_bonus)
    shift = 5 * (a_budget + o_budget) + 12
    win = 1 << shift                                       # the actor's part of a packed value
    p20 = [D20 ** i for i in range(a_budget + o_budget + 1)]

    # Actor answering the opponent's reroll face g; opponent answering the actor's face f.
    a_below, a_above = _phase_tables(ka, ko)
    o_below, o_above = _phase_tables(ko, ka)

    # GO[b][g]: opponent leads with reroll face g, actor to reroll with a points, opponent b.
    # GA[b][f]: actor leads with reroll face f. Row a is built from row a - 1. With no point on
    # one side the leader changes at most once and the starting tables below are already final.
    last_row_go = [[p20[b]] * D20 for b in range(o_budget + 1)]            # GO at (a_budget, b)
    last_column_ga = [[p20[a] * win] * D20 for a in range(a_budget + 1)]   # GA at (a, o_budget)
    if a_budget and o_budget:
        last_column_ga = []
        prev_go: list[list[int]] = []
        prev_ga: list[list[int]] = []
        for a in range(a_budget + 1):
            row_go: list[list[int]] = []
            row_ga: list[list[int]] = []
            for b in range(o_budget + 1):
                if a == 0:
                    go = [p20[b]] * D20                      # the actor cannot answer: opponent wins
                else:
                    above = _suffix_sums(prev_ga[b])
                    go = [r * o + above[i] for r, i, o in zip(a_below, a_above, prev_go[b])]
                if b == 0:
                    ga = [p20[a] * win] * D20                # the opponent cannot answer: actor wins
                else:
                    above = _suffix_sums(row_go[b - 1])
                    ga = [r * o + above[i] for r, i, o in zip(o_below, o_above, row_ga[b - 1])]
                row_go.append(go)
                row_ga.append(ga)
            last_column_ga.append(row_ga[o_budget])
            prev_go, prev_ga = row_go, row_ga
        last_row_go = prev_go

    # The first rolls: a leader keeps its +3 face; the loser answers against that key.
    row_above = [_suffix_sums(go) for go in last_row_go[:o_budget]]
    column_above = [_suffix_sums(ga) for ga in last_column_ga[:a_budget]]
    lead_a = []
    for key in ka0:
        below, past = bisect_left(ko, key), bisect_right(ko, key)
        value = p20[a_budget] * win
        for b in range(o_budget):
            value = below * value + row_above[b][past]
        lead_a.append(value)
    lead_o = []
    for key in ko0:
        below, past = bisect_left(ka, key), bisect_right(ka, key)
        value = p20[o_budget]
        for a in range(a_budget):
            value = below * value + column_above[a][past]
        lead_o.append(value)
    lead_o_above = _suffix_sums(lead_o)
    total = 0
    for key, value in zip(ka0, lead_a):
        total += bisect_left(ko0, key) * value + lead_o_above[bisect_right(ko0, key)]
    return total >> shift, total & (win - 1), D20 * D20 * p20[a_budget + o_budget]


def _odds_opposed(reader: Reader) -> dict:
    _, _, actor, opponent, limit = _opposed_inputs(reader)
    a_budget, o_budget = actor.reroll_budget(limit), opponent.reroll_budget(limit)
    actor_wins, opponent_wins, denominator = _opposed_exact(actor, opponent, a_budget, o_budget)
    if a_budget == 0 and o_budget == 0:
        policy = "no reroll (no Impulsion point to spend)"
    else:
        policy = (f"the losing side rerolls while it loses and has points: actor at most {a_budget}, "
                  f"opponent at most {o_budget} reroll{'s' if o_budget > 1 else ''}")
    return {
        "winner": {
            "actor": actor_wins / denominator,
            "opponent": opponent_wins / denominator,
            "tie": (denominator - actor_wins - opponent_wins) / denominator,
        },
        "policy": policy,
    }


# ---------------------------------------------------------------- kind extended_opposed


def _extended_inputs(reader: Reader) -> tuple[Reader, Reader, _Roller, _Roller, int]:
    target = reader.int("target", 1, 10)
    actor_reader, opponent_reader = reader.sub("actor_"), reader.sub("opponent_")
    actor = _read_roller(actor_reader, impulsion=False)
    opponent = _read_roller(opponent_reader, impulsion=False)
    _read_limit(reader)          # accepted for campaign defaults; no reroll in this kind
    return actor_reader, opponent_reader, actor, opponent, target


def _decided(a_points: int, o_points: int, target: int) -> str | None:
    """R18, R22: first to the target wins; both at once: more réussites, equal is a tie."""
    a_done, o_done = a_points >= target, o_points >= target
    if a_done and o_done:
        return "actor" if a_points > o_points else "opponent" if o_points > a_points else "tie"
    if a_done:
        return "actor"
    if o_done:
        return "opponent"
    return None


def _resolve_extended(reader: Reader, rng: random.Random) -> dict:
    actor_reader, opponent_reader, actor, opponent, target = _extended_inputs(reader)
    forced = forced_mode(reader, ("actor_dice", "opponent_dice"))
    a_points = o_points = rounds = 0
    winner: str | None = None
    a_faces: list[int] = []
    o_faces: list[int] = []
    a_list: list[int] = []
    o_list: list[int] = []
    source = RandomDice(rng)                    # (not asked when the dice are forced)
    if forced:
        a_list = _forced_faces(actor_reader, "dice", None, "unlimited")
        o_list = _forced_faces(opponent_reader, "dice", None, "unlimited")
        if len(a_list) != len(o_list):
            raise RequestError("opponent_dice", "rounds_mismatch", actor=len(a_list), got=len(o_list))
    rounds_given = len(a_list)
    while winner is None:
        if forced:
            if rounds == rounds_given:
                break
            a_nat, o_nat = a_list[rounds], o_list[rounds]
        else:
            a_nat, o_nat = source.roll(D20), source.roll(D20)
        _, _, a_gain, o_gain = _contest(a_nat, actor.score(a_nat, False), o_nat, opponent.score(o_nat, False))
        a_faces.append(a_nat)
        o_faces.append(o_nat)
        a_points += a_gain
        o_points += o_gain
        rounds += 1
        winner = _decided(a_points, o_points, target)
    if forced and rounds < rounds_given:
        raise RequestError("actor_dice", "opposition_decided", rounds=rounds, given=rounds_given)
    return {
        "winner": winner if winner is not None else "pending",
        "actor_points": a_points,
        "opponent_points": o_points,
        "rounds": rounds,
        "target": target,
        "actor_dice": a_faces,
        "opponent_dice": o_faces,
    }


def _round_points(actor: _Roller, opponent: _Roller) -> dict[tuple[int, int], int]:
    """How many of the 400 face pairs give each (actor, opponent) point pair (R19–R21 table)."""
    delta = actor.base - opponent.base
    out: dict[tuple[int, int], int] = {}

    def add(points: tuple[int, int], count: int) -> None:
        if count:
            out[points] = out.get(points, 0) + count

    both20 = (2, 0) if delta > 0 else (0, 2) if delta < 0 else (1, 1)
    add(both20, 1)
    add((3, 0), 1)                # actor 20, opponent 1
    add((0, 3), 1)                # actor 1, opponent 20
    add((1, 1), 1)                # both 1
    add((2, 0), 18 + 18)          # actor 20 or opponent 1, the other an ordinary face
    add((0, 2), 18 + 18)
    for a_nat in range(2, 20):    # ordinary faces: opponent faces 2..19 below, equal, above
        pivot = a_nat + delta     # the opponent face that ties
        below = min(max(pivot - 2, 0), 18)
        equal = 1 if 2 <= pivot <= 19 else 0
        add((1, 0), below)
        add((0, 0), equal)
        add((0, 1), 18 - below - equal)
    return out


def _extended_exact(actor: _Roller, opponent: _Roller, target: int) -> tuple[int, int, int]:
    """Exact (actor, tie, denominator) of an extended opposition.

    A round giving no point leaves the state unchanged; summing the geometric series of that
    self-loop divides every other round by n = 400 - (pairs giving 0-0). From (pa, pb) at most
    d = 2*target - 1 - pa - pb scoring rounds remain, so V(s) = P(s) * n^d(s) is an integer
    and V(s) = sum c * V(s') * n^(x + y - 1) over scoring rounds (x, y) counted c times.
    """
    counts = _round_points(actor, opponent)
    n = D20 * D20 - counts.pop((0, 0), 0)
    moves = sorted(counts.items())
    depth = 2 * target - 1
    shift = 9 * depth + 16
    win = 1 << shift
    powers = [n ** i for i in range(depth + 3)]
    values: dict[tuple[int, int], int] = {}
    for pa in range(target - 1, -1, -1):
        for pb in range(target - 1, -1, -1):
            d = depth - pa - pb
            total = 0
            for (x, y), c in moves:
                na, nb = pa + x, pb + y
                result = _decided(na, nb, target)
                if result is None:
                    total += c * values[(na, nb)] * powers[x + y - 1]
                elif result == "actor":
                    total += c * win * powers[d - 1]
                elif result == "tie":
                    total += c * powers[d - 1]
            values[(pa, pb)] = total
    start = values[(0, 0)]
    return start >> shift, start & (win - 1), powers[depth]


def _odds_extended(reader: Reader) -> dict:
    _, _, actor, opponent, target = _extended_inputs(reader)
    actor_wins, ties, denominator = _extended_exact(actor, opponent, target)
    return {
        "winner": {
            "actor": actor_wins / denominator,
            "opponent": (denominator - actor_wins - ties) / denominator,
            "tie": ties / denominator,
        }
    }


# ---------------------------------------------------------------- luck (the chance of doing at least as well)
#
# Every luck here is over the whole roll as the policy plays it (R6, R7: the losing or failing
# side rerolls while it has points), the dice rerolled away included: the chance that the roll,
# from its first die, ends at least as well. gmscreen/docs/luck.md states each order.

_RANK = {"critical_failure": 0, "failure": 1, "success": 2, "critical_success": 3}
_WINNER_RANK = {"opponent": 0, "tie": 1, "actor": 2}


def _simple_key(roller: _Roller, natural: int, rerolled: bool, target: int) -> tuple[int, int]:
    score = roller.score(natural, rerolled)
    return _RANK[_judge(natural, score, target)], score


@lru_cache(maxsize=256)
def _simple_ladder(roller: _Roller, target: int, budget: int) -> Ladder:
    """Ways to each final (outcome, score) out of 20**(budget + 1): the first roll stands unless
    it fails; each reroll stands unless it fails and points remain; the last one stands."""
    first = [_simple_key(roller, face, False, target) for face in range(1, D20 + 1)]
    later = [_simple_key(roller, face, True, target) for face in range(1, D20 + 1)]
    failing = {_RANK[name] for name in _FAILING}
    ways: dict[tuple[int, int], int] = {}

    def add(key: tuple[int, int], weight: int) -> None:
        ways[key] = ways.get(key, 0) + weight

    if budget == 0:
        for key in first:
            add(key, 1)
        return Ladder(ways, D20)
    fail_first = sum(1 for key in first if key[0] in failing)
    q = sum(1 for key in later if key[0] in failing)     # below 20: a natural 20 never fails
    geometric = (D20 ** budget - q ** budget) // (D20 - q)        # sum of q^j 20^(budget-1-j), j < budget
    for key in first:
        if key[0] not in failing:
            add(key, D20 ** budget)
    for key in later:
        add(key, fail_first * (q ** (budget - 1) if key[0] in failing else geometric))
    return Ladder(ways, D20 ** (budget + 1))


def _luck_simple(reader: Reader) -> LuckOf:
    """The kept d20's outcome (natural 20 first, natural 1 last), then the score; over the whole
    roll, the first die and each reroll the policy buys with Impulsion (R5–R7, R12)."""
    roller, target, limit = _simple_inputs(reader)
    ladder = _simple_ladder(replace(roller, impulsions_key=""), target, roller.reroll_budget(limit))
    return lambda result: ladder.at_least((_RANK[result["outcome"]], result["score"]))


def _contest_key(a_nat: int, a_score: int, o_nat: int, o_score: int) -> tuple[int, int, int]:
    """How well the actor did in one exchange: who wins (R14–R17), then the réussites the exchange
    gives each side (R19–R21: a natural 20 two, three against a natural 1, a natural 1 one to the
    other), then the score margin."""
    winner, _by, a_points, o_points = _contest(a_nat, a_score, o_nat, o_score)
    return _WINNER_RANK[winner], a_points - o_points, a_score - o_score


class _Lead:
    """The states of an opposition after some rerolls, with `a` and `b` points left: the side
    that leads, its kept face, whether it was rerolled; the other side rerolls next. Masses
    are numerators over 20**(rolls so far); faces reached by a range of rerolls wait in `rise`
    (added to every face from an index up)."""

    __slots__ = ("actor", "opponent", "rise_actor", "rise_opponent")

    def __init__(self) -> None:
        self.actor = {False: [0] * D20, True: [0] * D20}        # the actor leads, the opponent rerolls
        self.opponent = {False: [0] * D20, True: [0] * D20}     # the opponent leads, the actor rerolls
        self.rise_actor = [0] * (D20 + 1)
        self.rise_opponent = [0] * (D20 + 1)

    def settle(self) -> None:
        for rise, lead in ((self.rise_actor, self.actor[True]), (self.rise_opponent, self.opponent[True])):
            acc = 0
            for i in range(D20):
                acc += rise[i]
                lead[i] += acc


@lru_cache(maxsize=256)
def _opposed_finals(actor: _Roller, opponent: _Roller, a_budget: int, o_budget: int) -> dict[tuple, int]:
    """Ways to end on each (actor face, actor rerolled, opponent face, opponent rerolled), out of
    20**(2 + a_budget + o_budget), the losing side rerolling while it loses and has points and a
    tie stopping (the random-mode policy). Faces sorted by face are sorted by strength (`_key`),
    so the rerolls that tie or beat the leader are one run of faces: each state costs O(1)."""
    keys = {("a", rr): [_key(f, actor.score(f, rr)) for f in range(1, D20 + 1)] for rr in (False, True)}
    keys.update({("o", rr): [_key(f, opponent.score(f, rr)) for f in range(1, D20 + 1)] for rr in (False, True)})
    # For a leader's face: the other side's rerolls below it (lo of them) and up to a tie (hi).
    cuts = {(side, rr): [(bisect_left(keys[(other, True)], k), bisect_right(keys[(other, True)], k))
                         for k in keys[(side, rr)]]
            for side, other in (("a", "o"), ("o", "a")) for rr in (False, True)}
    finals: dict[tuple, int] = {}
    levels: list[list[_Lead | None]] = [[None] * (o_budget + 1) for _ in range(a_budget + 1)]

    def level(a: int, b: int) -> _Lead:
        here = levels[a][b]
        if here is None:
            here = levels[a][b] = _Lead()
        return here

    start = level(a_budget, o_budget)
    first_ends: dict[tuple, int] = {}
    for af, ka in enumerate(keys[("a", False)], start=1):
        for of, ko in enumerate(keys[("o", False)], start=1):
            if ka > ko and o_budget:
                start.actor[False][af - 1] += 1
            elif ko > ka and a_budget:
                start.opponent[False][of - 1] += 1
            else:
                k = (af, False, of, False)
                first_ends[k] = first_ends.get(k, 0) + 1
    full = D20 ** (a_budget + o_budget)
    for k, w in first_ends.items():
        finals[k] = w * full
    for total in range(a_budget + o_budget, 0, -1):
        for a in range(min(a_budget, total), max(0, total - o_budget) - 1, -1):
            b = total - a
            here = levels[a][b]
            if here is None:
                continue
            here.settle()
            ends: dict[tuple, int] = {}          # numerators over 20**(rolls so far + 1)
            for rr in (False, True):
                # The actor leads with face f: the opponent rerolls (b >= 1 here).
                masses, cut = here.actor[rr], cuts[("a", rr)]
                for f in range(1, D20 + 1):
                    m = masses[f - 1]
                    if not m:
                        continue
                    lo, hi = cut[f - 1]
                    if b > 1:
                        level(a, b - 1).actor[rr][f - 1] += m * lo
                        first = lo + 1
                    else:
                        first = 1
                    last = D20 if not a else hi
                    if hi < D20 and a:
                        level(a, b - 1).rise_opponent[hi] += m
                    for g in range(first, last + 1):
                        k = (f, rr, g, True)
                        ends[k] = ends.get(k, 0) + m
                # The opponent leads with face g: the actor rerolls (a >= 1 here).
                masses, cut = here.opponent[rr], cuts[("o", rr)]
                for g in range(1, D20 + 1):
                    m = masses[g - 1]
                    if not m:
                        continue
                    lo, hi = cut[g - 1]
                    if a > 1:
                        level(a - 1, b).opponent[rr][g - 1] += m * lo
                        first = lo + 1
                    else:
                        first = 1
                    last = D20 if not b else hi
                    if hi < D20 and b:
                        level(a - 1, b).rise_actor[hi] += m
                    for f in range(first, last + 1):
                        k = (f, True, g, rr)
                        ends[k] = ends.get(k, 0) + m
            levels[a][b] = None
            scale = D20 ** (total - 1)          # from 20**(rolls so far + 1) to the common 20**(2 + budgets)
            for k, w in ends.items():
                finals[k] = finals.get(k, 0) + w * scale
    return finals


def _opposed_ladder(actor: _Roller, opponent: _Roller, limit: str) -> Ladder:
    a_budget, o_budget = actor.reroll_budget(limit), opponent.reroll_budget(limit)
    ways: dict[tuple[int, int, int], int] = {}
    for (af, arr, of, orr), w in _opposed_finals(actor, opponent, a_budget, o_budget).items():
        key = _contest_key(af, actor.score(af, arr), of, opponent.score(of, orr))
        ways[key] = ways.get(key, 0) + w
    return Ladder(ways, D20 ** (2 + a_budget + o_budget))


def _luck_opposed(reader: Reader) -> Luck:
    """Who wins, then the réussites the exchange gives (`_contest_key`), then the score margin;
    over the whole exchange, each side's rerolls as the policy buys them. The opponent's luck is
    the same order reversed: the actor doing at most as well."""
    _, _, actor, opponent, limit = _opposed_inputs(reader)
    ladder = _opposed_ladder(replace(actor, impulsions_key=""), replace(opponent, impulsions_key=""), limit)

    def key(result: Mapping) -> tuple[int, int, int]:
        return _contest_key(result["actor_natural"], result["actor_score"],
                            result["opponent_natural"], result["opponent_score"])

    return Luck(lambda result: ladder.at_least(key(result)), lambda result: ladder.at_most(key(result)))


# -- extended opposition


def _final_key(winner: str, a_points: int, o_points: int, rounds: int) -> tuple[int, int, int]:
    """How an extended opposition ended, for the actor: who won (R18, R22), then the réussites'
    margin, then the rounds: a win sooner is better, a loss later is better (held out longer)."""
    rank = _WINNER_RANK[winner]
    return rank, a_points - o_points, -rounds if rank == 2 else rounds if rank == 0 else 0


_RUNNING = 1          # a running opposition ranks with a tie: between every win and every loss


class _Opposition:
    """Every way an extended opposition can go (R18–R22), each round's point pairs as its sides
    play it: `rounds`, the moves of the rounds with their own settings (R18), in order; `later`,
    those of every round after them. After j rounds: `running[j]`, ways by points still
    undecided, and `ended[j]`, ways by (winner rank, margin) of those ended at round j, both over
    400**j; `totals`, the exact chance of ending in each (winner rank, margin), over all rounds."""

    def __init__(self, rounds: tuple[tuple, ...], later: tuple, target: int) -> None:
        self.rounds, self.later, self.target = rounds, later, target
        self.running: list[dict[tuple[int, int], int]] = [{(0, 0): 1}]
        self.ended: list[dict[tuple[int, int], int]] = [{}]
        self.lock = threading.Lock()
        self._totals: dict[tuple[int, int], Fraction] | None = None

    def _moves(self, j: int) -> tuple:
        """The moves of round j + 1."""
        return self.rounds[j] if j < len(self.rounds) else self.later

    def _class(self, a_points: int, o_points: int) -> tuple[int, int] | None:
        winner = _decided(a_points, o_points, self.target)
        return None if winner is None else (_WINNER_RANK[winner], a_points - o_points)

    def upto(self, j: int) -> None:
        with self.lock:
            while len(self.running) <= j:
                moves = self._moves(len(self.running) - 1)
                running: dict[tuple[int, int], int] = {}
                ended: dict[tuple[int, int], int] = {}
                for (pa, pb), w in self.running[-1].items():
                    for (x, y), c in moves:
                        state = (pa + x, pb + y)
                        cls = self._class(*state)
                        into = running if cls is None else ended
                        k = state if cls is None else cls
                        into[k] = into.get(k, 0) + w * c
                self.running.append(running)
                self.ended.append(ended)

    def totals(self) -> dict[tuple[int, int], Fraction]:
        """Chance of each (winner rank, margin) over every way the opposition ends: the rounds
        with their own settings step by step, then every later round's absorbing chain solved
        exactly (a round giving no point loops: the others are divided by n = 400 - its ways)."""
        if self._totals is not None:
            return self._totals
        fixed = len(self.rounds)
        self.upto(fixed)
        out: dict[tuple[int, int], Fraction] = {}
        for j in range(fixed + 1):
            for cls, w in self.ended[j].items():
                out[cls] = out.get(cls, 0) + Fraction(w, 400 ** j)
        moves = [(xy, c) for xy, c in self.later if xy != (0, 0)]
        n = sum(c for _xy, c in moves)
        depth = 2 * self.target - 1
        values: dict[tuple[int, int], dict[tuple[int, int], int]] = {}   # P * n**(depth - pa - pb)
        for pa in range(self.target - 1, -1, -1):
            for pb in range(self.target - 1, -1, -1):
                d = depth - pa - pb
                value: dict[tuple[int, int], int] = {}
                for (x, y), c in moves:
                    ended = self._class(pa + x, pb + y)
                    if ended is None:
                        for k, v in values[(pa + x, pb + y)].items():
                            value[k] = value.get(k, 0) + c * v * n ** (x + y - 1)
                    else:
                        value[ended] = value.get(ended, 0) + c * n ** (d - 1)
                values[(pa, pb)] = value
        for (pa, pb), w in self.running[fixed].items():
            scale = Fraction(w, 400 ** fixed * n ** (depth - pa - pb))
            for cls, v in values[(pa, pb)].items():
                out[cls] = out.get(cls, 0) + v * scale
        self._totals = out
        return out

    def _ended_by(self, cls: tuple[int, int], rounds: int) -> Fraction:
        """Chance of ending in `cls` within `rounds` rounds."""
        self.upto(rounds)
        return sum((Fraction(self.ended[j].get(cls, 0), 400 ** j) for j in range(rounds + 1)), Fraction(0))

    def better(self, result: Mapping, strictly: bool) -> Fraction:
        """Chance of a standing better than the result's (or as good, unless `strictly`): over every
        way to end for a decided opposition, over every standing after as many rounds for one
        still running (an opposition decided before stays as it ended)."""
        j, a, o = result["rounds"], result["actor_points"], result["opponent_points"]
        if result["winner"] == "pending":
            mine = (_RUNNING, a - o, 0)
            self.upto(j)
            ways = sum(w * 400 ** (j - i) for i in range(j + 1) for (rank, m), w in self.ended[i].items()
                       if _beats((rank, m, _final_key_rounds(rank, i)), mine, strictly))
            ways += sum(w for (pa, pb), w in self.running[j].items() if _beats((_RUNNING, pa - pb, 0), mine, strictly))
            return Fraction(ways, 400 ** j)
        mine = _final_key(result["winner"], a, o, j)
        cls = mine[:2]
        out = sum((p for c, p in self.totals().items() if c > cls), Fraction(0))
        rank = cls[0]
        if rank == _WINNER_RANK["actor"]:          # as good: as soon or sooner
            out += self._ended_by(cls, j - 1 if strictly else j)
        elif rank == _WINNER_RANK["opponent"]:     # as good: as late or later
            out += self.totals().get(cls, Fraction(0)) - self._ended_by(cls, j if strictly else j - 1)
        elif not strictly:
            out += self.totals().get(cls, Fraction(0))
        return out


def _final_key_rounds(rank: int, rounds: int) -> int:
    return -rounds if rank == _WINNER_RANK["actor"] else rounds if rank == _WINNER_RANK["opponent"] else 0


def _beats(key: tuple, mine: tuple, strictly: bool) -> bool:
    return key > mine if strictly else key >= mine


def _moves(actor: _Roller, opponent: _Roller) -> tuple:
    return tuple(sorted(_round_points(actor, opponent).items()))


@lru_cache(maxsize=64)
def _opposition(rounds: tuple[tuple, ...], later: tuple, target: int) -> _Opposition:
    return _Opposition(rounds, later, target)


def _opposition_luck(opposition: _Opposition) -> Luck:
    def actor(result: Mapping) -> float | None:
        return probability(opposition.better(result, False)) if result["rounds"] else None

    def opponent(result: Mapping) -> float | None:
        return probability(1 - opposition.better(result, True)) if result["rounds"] else None

    return Luck(actor, opponent)


def _luck_extended(reader: Reader) -> Luck:
    """Decided: who won, then the réussites' margin, then the rounds (`_final_key`), over every way
    the opposition can end, however many rounds it takes. Still running: its standing (a running
    opposition ranks with a tie, then by its margin) against every way of standing after as many
    rounds. The opponent's luck reverses the order. No round played: no luck."""
    _, _, actor, opponent, target = _extended_inputs(reader)
    return _opposition_luck(_opposition((), _moves(actor, opponent), target))


def extended_luck(request: Mapping, round_sides: "tuple[Mapping, ...] | list[Mapping]" = ()) -> Luck:
    """The luck of an extended opposition whose rounds are played with their own statistics and
    skills (R18): round i with the request's sides changed by `round_sides[i]` (roller fields
    with their `actor_`/`opponent_` prefix; an empty mapping: as the request), every round after
    those as the request says. Read as the kind reads its request (same errors)."""
    plain = {k: v for k, v in request.items() if k not in ("actor_dice", "opponent_dice", "hidden", "system", "kind")}
    reader = Reader(plain)
    _, _, actor, opponent, target = _extended_inputs(reader)
    reader.finish()
    rounds = []
    for own in round_sides:
        sides = Reader({**plain, **own})
        _, _, a, o, _ = _extended_inputs(sides)
        sides.finish()
        rounds.append(_moves(a, o))
    later = _moves(actor, opponent)
    while rounds and rounds[-1] == later:
        rounds.pop()
    return _opposition_luck(_opposition(tuple(rounds), later, target))


# ---------------------------------------------------------------- describe

# Outcome -> its words (English msgids: shown through `_`, in the language spoken).
OUTCOME_WORDS = {
    "critical_success": N_("critical success"),
    "critical_failure": N_("critical failure"),
    "success": N_("success"),
    "failure": N_("failure"),
    "actor": N_("the actor wins"),
    "opponent": N_("the opponent wins"),
    "tie": N_("tie"),
    "pending": N_("pending"),
}

_DECIDED_WORDS = {"critical": N_("a natural 20 decides"), "critical_failure": N_("a natural 1 decides"),
                  "score": N_("scores compared")}


def _d20_group(label: str, faces: list[int], total: int | None) -> DiceGroup:
    dice = []
    for i, face in enumerate(faces):
        if i < len(faces) - 1:
            status = "rerolled"
        elif face == 20:
            status = "critical"
        elif face == 1:
            status = "fumble"
        else:
            status = "kept"
        dice.append(Die(face, D20, status))
    return DiceGroup(label, tuple(dice), total)


def _round_group(label: str, faces: list[int]) -> DiceGroup:
    dice = tuple(Die(f, D20, "critical" if f == 20 else "fumble" if f == 1 else "kept") for f in faces)
    return DiceGroup(label, dice, None)


def _winner_good(winner: str) -> bool | None:
    return True if winner == "actor" else False if winner == "opponent" else None


def describe(result: dict) -> Description:
    """The result in the MJ's words (in the language spoken), with each d20 marked rerolled,
    kept, critical or fumble."""
    kind = result.get("kind")
    if kind == "simple":
        outcome = result["outcome"]
        detail = _("score {score} against threshold {target} · margin {margin}").format(
            score=result["score"], target=result["target"], margin=margin(result["margin"]))
        if result["rerolls"]:
            detail += " · " + ngettext("{n} reroll", "{n} rerolls", result["rerolls"]).format(n=result["rerolls"])
        if result["impulse_bonus_applied"]:
            detail += " · " + _("Impulsion +3")
        if result["cooperation_bonus"]:
            detail += " · " + _("cooperation {bonus}").format(bonus=signed(result["cooperation_bonus"]))
        if result["no_roll_needed"]:
            detail += " · " + _("optional roll")
        return Description(
            _(OUTCOME_WORDS[outcome]), detail, (_d20_group("d20", result["dice"], result["natural"]),),
            outcome in ("success", "critical_success"),
        )
    if kind == "opposed":
        winner = result["winner"]
        detail = _("score {actor} against {opponent} · margin {margin} · {decided} · successes {points}").format(
            actor=result["actor_score"], opponent=result["opponent_score"], margin=margin(result["margin"]),
            decided=_(_DECIDED_WORDS[result["decided_by"]]),
            points=f"{result['actor_points']}–{result['opponent_points']}")
        groups = (_d20_group(pgettext("dice group", "actor"), result["actor_dice"], result["actor_natural"]),
                  _d20_group(pgettext("dice group", "opponent"), result["opponent_dice"], result["opponent_natural"]))
        return Description(_(OUTCOME_WORDS[winner]), detail, groups, _winner_good(winner))
    if kind == "extended_opposed":
        winner = result["winner"]
        rounds = result["rounds"]
        detail = ngettext("successes {actor} to {opponent} for {target} · {rounds} round",
                          "successes {actor} to {opponent} for {target} · {rounds} rounds", rounds).format(
            actor=result["actor_points"], opponent=result["opponent_points"], target=result["target"], rounds=rounds)
        groups = (_round_group(pgettext("dice group", "actor"), result["actor_dice"]),
                  _round_group(pgettext("dice group", "opponent"), result["opponent_dice"]))
        return Description(_(OUTCOME_WORDS[winner]), detail, groups, _winner_good(winner))
    raise RequestError("kind", "expected_kind", choices=("simple", "opposed", "extended_opposed"), value=kind)


# ---------------------------------------------------------------- system

_ROLLER_SPECS = (
    ("stat", "int", 0, 30, None, True, "stat"),
    ("skill", "int", 0, 20, 0, False, "skill bonus (Doué = 4)"),
    ("bonus", "int", 0, 20, 0, False, "sum of the GM's bonuses (R2, R3, R24)"),
    ("helper_skills", "int_list", 0, 20, (), False,
     "each helper's skill, 2 at most: + half of it, rounded down"),
)
_IMPULSION_SPECS = (
    ("impulse_bonus", "bool", None, None, False, False,
     "Impulsion spent before the roll: +3, lost on a reroll"),
    ("impulsions", "int", 0, 99, None, False, "Impulsion points available; random rolls: the rerolls allowed"),
)
_LIMIT = FieldSpec("reroll_limit", "str", choices=REROLL_LIMITS, default="unlimited",
                   help="rerolls per test: unlimited (R7) or only one")


def _specs(rows, prefix: str = "") -> tuple[FieldSpec, ...]:
    return tuple(
        FieldSpec(prefix + name, kind, lo, hi, default=default, required=required, help=text)
        for name, kind, lo, hi, default, required, text in rows
    )


_SIMPLE_FIELDS = (
    _specs(_ROLLER_SPECS + _IMPULSION_SPECS)
    + (
        FieldSpec("threshold", "int", 1, 50, required=True, help="success threshold"),
        FieldSpec("malus", "int", 0, 20, default=0, help="sum of the maluses, added to the threshold"),
        _LIMIT,
        FieldSpec("dice", "dice", 1, 20, help="forced d20s: the first roll, then each reroll"),
    )
)
_OPPOSED_FIELDS = (
    _specs(_ROLLER_SPECS + _IMPULSION_SPECS, "actor_")
    + _specs(_ROLLER_SPECS + _IMPULSION_SPECS, "opponent_")
    + (
        _LIMIT,
        FieldSpec("actor_dice", "dice", 1, 20, help="the actor's d20s: the first roll, then the rerolls"),
        FieldSpec("opponent_dice", "dice", 1, 20, help="the opponent's d20s: the first roll, then the rerolls"),
    )
)
_EXTENDED_FIELDS = (
    (FieldSpec("target", "int", 1, 10, required=True, help="successes to reach: brève 2, tendue 3, majeure 5"),)
    + _specs(_ROLLER_SPECS, "actor_")
    + _specs(_ROLLER_SPECS, "opponent_")
    + (
        _LIMIT,
        FieldSpec("actor_dice", "dice", 1, 20, help="one d20 a round for the actor"),
        FieldSpec("opponent_dice", "dice", 1, 20, help="one d20 a round for the opponent"),
    )
)

KINDS = {
    "simple": Kind("simple", "skill test", _resolve_simple, _odds_simple, _SIMPLE_FIELDS,
                   ("dice",), policy="impulsions", check=_simple_inputs, luck=_luck_simple),
    "opposed": Kind("opposed", "opposition", _resolve_opposed, _odds_opposed, _OPPOSED_FIELDS,
                    ("actor_dice", "opponent_dice"), contest=True, policy="actor_impulsions",
                    check=_opposed_inputs, luck=_luck_opposed),
    "extended_opposed": Kind("extended_opposed", "extended opposition", _resolve_extended, _odds_extended,
                             _EXTENDED_FIELDS, ("actor_dice", "opponent_dice"), contest=True,
                             check=_extended_inputs, luck=_luck_extended),
}

SYSTEM = System.of_module(globals(), game="Magisphère", gm="MJ",
    dice="1d20 + stat + skill + bonuses ≥ threshold + maluses; natural 20 and 1 are criticals; Impulsion",
    difficulty_field="threshold",
    difficulty_fields=frozenset({"threshold", "target", "margin", "malus", "no_roll_needed"}),
    extra_tables=((N_("Extended oppositions (successes to reach)"), OPPOSITIONS),),
    initiative="1d20",
    rule_options={"reroll_limit": ("unlimited", "one")},
    test_timers={"opposition": "extended_opposed"},
)
