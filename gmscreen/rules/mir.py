"""MIR (Little Dusha): pools of d12, 7–11 one success, 12 two; the Exarch sets the SD.

Rules: shared spec `mir.md`, R1–R21. Kinds: simple, group, opposed, extended.
"""

from __future__ import annotations

import random
import threading
from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import Any, Mapping, Sequence

from gmscreen.i18n import N_, _, ngettext, pgettext

from ._base import (
    DiceGroup, DiceSource, Description, Die, Difficulty, FieldSpec, ForcedDice, Kind, RandomDice, Reader, RequestError,
    Stat, StatGroup, System, forced_mode)
from .luck import Luck, LuckOf, probability
from .records import record
from .render import margin

VOIES = (
    Stat("heritage", "Héritage", 1, 6, default=1, gloss="Heritage"),
    Stat("secret", "Secret", 1, 6, default=1, gloss="Secret"),
    Stat("espoir", "Espoir", 1, 6, default=1, gloss="Hope"),
    Stat("peur", "Peur", 1, 6, default=1, gloss="Fear"),
    Stat("dogme", "Dogme", 1, 6, default=1, gloss="Dogma"),
    Stat("mensonge", "Mensonge", 1, 6, default=1, gloss="Lie"),
)

_SKILLS = {
    "heritage": [("animaux", "Animaux"), ("erudition", "Érudition"), ("guerison", "Guérison"),
                 ("langues", "Langues"), ("metiers", "Métiers")],
    "secret": [("corruption", "Corruption"), ("instinct", "Instinct"), ("investigation", "Investigation"),
               ("mythes", "Mythes de la Catastrophe"), ("survie", "Survie")],
    "espoir": [("arts", "Arts"), ("eloquence", "Éloquence"), ("empathie", "Empathie"),
               ("etiquette", "Étiquette"), ("resilience", "Résilience")],
    "peur": [("combat", "Combat"), ("force", "Force"), ("intimidation", "Intimidation"),
             ("mains_nues", "Mains nues"), ("tir", "Tir")],
    "dogme": [("autorite", "Autorité"), ("foi", "Foi"), ("mir", "MIR"), ("pistage", "Pistage"), ("zele", "Zèle")],
    "mensonge": [("dexterite", "Dextérité"), ("infiltration", "Infiltration"), ("manipulation", "Manipulation"),
                 ("politique", "Politique"), ("reseaux", "Réseaux clandestins")],
}

SKILLS = tuple(
    Stat(key, label, 0, 6, default=0, parent=voie) for voie, skills in _SKILLS.items() for key, label in skills
)

SHEET = (
    StatGroup("voies", "Voies", VOIES),
    StatGroup("skills", "Compétences", SKILLS, required=False),
    StatGroup("state", "État", (Stat("blessures", "Blessures", 0, 12, default=0,
                                     gloss="dice removed by negative antecedents (R4)"),), required=False),
)

DIFFICULTIES = (
    Difficulty("Triviale", 0, N_("automatic success")),
    Difficulty("Très facile", 1),
    Difficulty("Facile", 2),
    Difficulty("Moyenne", 3),
    Difficulty("Difficile", 4),
    Difficulty("Très difficile", 5),
    Difficulty("Improbable", 6),
    Difficulty("Presque impossible", 7),
)

TEMPORALITE = (
    Difficulty(N_("Simple (extended skill test)"), None, N_("a round")),
    Difficulty(N_("Moyenne (needs continuous attention)"), None, N_("an hour")),
    Difficulty(N_("Compliquée (specific preparation or equipment)"), None, N_("a day")),
    Difficulty(N_("Très compliquée (preparation needed, rare ingredients)"), None, N_("a week")),
)

# ---------------------------------------------------------------- dice arithmetic

SIDES = 12
INTERVALS = ("", "tour", "heure", "jour", "semaine")
INTERVAL_WORDS = {"tour": "1 tour", "heure": "1 heure", "jour": "1 jour", "semaine": "1 semaine"}


def die_successes(face: int) -> int:
    """R1: 7–11 give one success, a 12 (succès critique) gives two, 1–6 none."""
    return 2 if face == 12 else 1 if face >= 7 else 0


def count_successes(faces: Sequence[int]) -> int:
    return sum(die_successes(f) for f in faces)


def die_status(face: int) -> str:
    """How the screen marks a MIR die: a 12 is critical, 7–11 counted, the rest plain."""
    return "critical" if face == 12 else "counted" if face >= 7 else "plain"


# Exact distributions, built once per dice count and shared by every odds request. Counts are
# integers over 12**n, so probabilities are exact until the final division.
_LOCK = threading.Lock()
_JOINT: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = [((1,), (0,), (0,))]
_MARGINAL: dict[int, tuple[int, ...]] = {}
_TAILS: dict[int, tuple[int, ...]] = {}
_CRIT_SPLIT: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _joint_distribution(n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Ways for n d12 to give s successes with 0, 1, or 2+ twelves: `joint[c][s]`, s = 0..2n.

    The opposed test needs the number of 12s (R13) next to the successes; grown one die at a
    time from the previous count and cached, so any n costs one step once.
    """
    if n < 0:
        raise ValueError(f"dice count must be at least 0, got {n}")
    if n >= len(_JOINT):
        with _LOCK:
            while len(_JOINT) <= n:
                a0, a1, a2 = _JOINT[-1]
                p0, p1, p2 = (list(a) + [0, 0] for a in (a0, a1, a2))
                s0, s1, s2 = ([0] + p[:-1] for p in (p0, p1, p2))   # one more success
                t0, t1, t2 = ([0, 0] + p[:-2] for p in (p0, p1, p2))  # a 12: two more successes
                _JOINT.append((
                    tuple(6 * x + 5 * y for x, y in zip(p0, s0)),
                    tuple(6 * x + 5 * y + z for x, y, z in zip(p1, s1, t0)),
                    tuple(6 * x + 5 * y + z + w for x, y, z, w in zip(p2, s2, t1, t2)),
                ))
    return _JOINT[n]


def _successes_distribution(n: int) -> tuple[int, ...]:
    """Ways for n d12 to give each number of successes (index = successes), out of 12**n."""
    dist = _MARGINAL.get(n)
    if dist is None:
        a0, a1, a2 = _joint_distribution(n)
        dist = _MARGINAL[n] = tuple(x + y + z for x, y, z in zip(a0, a1, a2))
    return dist


def _tails(n: int) -> tuple[int, ...]:
    """`tails[s]`: ways to get at least s successes with n d12, for s = 0..2n+1."""
    tails = _TAILS.get(n)
    if tails is None:
        acc = 0
        out = [0]
        for ways in reversed(_successes_distribution(n)):
            acc += ways
            out.append(acc)
        tails = _TAILS[n] = tuple(reversed(out))
    return tails


def _ways_at_least(n: int, sd: int) -> int:
    tails = _tails(n)
    if sd <= 0:
        return tails[0]
    return tails[sd] if sd < len(tails) else 0


def _simple_chance(n: int, sd: int) -> float:
    """P(at least `sd` successes on n d12), exact; any n, so the benchmark can ask pools to 30."""
    return _ways_at_least(n, sd) / SIDES ** n


def _crit_split(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ways by successes without and with a réussite critique (two or more 12s, R13)."""
    split = _CRIT_SPLIT.get(n)
    if split is None:
        a0, a1, a2 = _joint_distribution(n)
        split = _CRIT_SPLIT[n] = (tuple(x + y for x, y in zip(a0, a1)), a2)
    return split


def _convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


# ---------------------------------------------------------------- reading a roller


@record(frozen=True)
class _Roller:
    """One side's pool as the rules build it (R2–R5)."""

    pool: int
    skill: int | None
    modifier: int
    penalty: int

    def dice(self, help_dice: int = 0) -> int:
        """R5/R11: at least one die, after every modifier and the help (or, in an extended
        test, the change of that test: `test_modifiers`)."""
        return max(1, self.pool + self.modifier - self.penalty + help_dice)

    def formula(self, help_dice: int = 0, change: int = 0) -> RequestError:
        """Where the dice count comes from, for a refusal of the dice typed: "pool 3, situation
        +1, help +2" (and "at least 1 die" when they come to less). `help_dice` is a group test's
        help (R11), `change` an extended test's change of that test (`test_modifiers`)."""
        extra = help_dice + change
        return RequestError("", "pool_dice", pool=self.pool, modifier=self.modifier, penalty=self.penalty,
                            help=help_dice, change=change,
                            least=self.pool + self.modifier - self.penalty + extra < 1)


def dice_count(request: Mapping[str, Any], prefix: str = "", help_dice: int = 0) -> int:
    """R5/R11: the dice a roller of `request` throws (at least one), for those who must know it
    before any die is rolled: the quick-roll line cutting typed faces, an extended test's first
    interval. `prefix` names the side ("actor_", "opponent_"); fields are taken as given."""
    pool = request.get(prefix + "pool")
    if pool is None:
        pool = request.get(prefix + "skill", 0) + request.get(prefix + "voie", 0)
    return _Roller(pool, None, request.get(prefix + "modifier", 0), request.get(prefix + "penalty", 0)).dice(help_dice)


@record(frozen=True)
class _GroupRoller(_Roller):
    """A group test's roller (R9–R11): its skill caps the help, so it has one."""

    skill: int


def _read_roller(reader: Reader, *, need_skill: bool = False) -> _Roller:
    """Pool from `pool`, or from `skill` + `voie` (never `pool` with `voie`)."""
    skill = reader.int("skill", 0, 6, default=None)
    if reader.has("pool"):
        pool = reader.int("pool", 0, 12)
        reader.forbid("voie", code="not_with_pool")
    else:
        voie = reader.int("voie", 1, 6, default=None)
        if skill is None and voie is None:
            raise RequestError(reader.key("pool"), "required_pool", lo=0, hi=12)
        if voie is None:
            raise RequestError(reader.key("voie"), "required_voie", lo=1, hi=6)
        if skill is None:
            raise RequestError(reader.key("skill"), "required_skill", lo=0, hi=6)
        pool = skill + voie
    if need_skill and skill is None:
        raise RequestError(reader.key("skill"), "group_skill", lo=0, hi=6)
    modifier = reader.int("modifier", -2, 2, 0)
    penalty = reader.int("penalty", 0, 12, 0)
    if need_skill and skill is not None:
        return _GroupRoller(pool, skill, modifier, penalty)
    return _Roller(pool, skill, modifier, penalty)


def _take(forced: list[int] | None, field: str, n: int, rng: random.Random, why: RequestError | None) -> list[int]:
    """n d12, rolled or taken from the forced list, which must hold exactly n valid faces
    (`why`: where n comes from, said when they are not n)."""
    source: DiceSource
    if forced is None:
        source = RandomDice(rng)
    else:
        if len(forced) != n:
            raise RequestError(field, "exact_dice", n=n, why=why, got=len(forced))
        source = ForcedDice(forced, field)
    faces = [source.roll(SIDES) for _ in range(n)]
    source.done()
    return faces


def _require_all(reader: Reader, names: Sequence[str]) -> bool:
    """Forced mode needs every main dice field: name the first one missing."""
    if not forced_mode(reader, names):
        return False
    for name in names:
        if not reader.has(name):
            raise RequestError(reader.key(name), "forced_all", lo=1, hi=SIDES)
    return True


# ---------------------------------------------------------------- simple (R1–R8)


def _simple_result(roller: _Roller, difficulty: int, faces: list[int]) -> dict:
    successes = count_successes(faces)
    return {
        "outcome": "success" if successes >= difficulty else "failure",
        "successes": successes,
        "margin": successes - difficulty,
        "dice_rolled": len(faces),
        "criticals": faces.count(12),
        "pool": roller.pool,
        "dice": faces,
    }


def _read_simple(reader: Reader) -> tuple[_Roller, int]:
    return _read_roller(reader), reader.int("difficulty", 0, 7)


def _resolve_simple(reader: Reader, rng: random.Random) -> dict:
    roller, difficulty = _read_simple(reader)
    forced = reader.dice("dice")
    if difficulty == 0:
        # R6: a Triviale action is not rolled.
        if forced:
            raise RequestError(reader.key("dice"), "trivial_not_rolled")
        return _simple_result(roller, 0, [])
    faces = _take(forced, reader.key("dice"), roller.dice(), rng, roller.formula())
    return _simple_result(roller, difficulty, faces)


def _odds_simple(reader: Reader) -> dict:
    roller, difficulty = _read_simple(reader)
    if difficulty == 0:
        return {"outcome": {"success": 1.0, "failure": 0.0}}
    n = roller.dice()
    num, den = _ways_at_least(n, difficulty), SIDES ** n
    return {"outcome": {"success": num / den, "failure": (den - num) / den}}


# ---------------------------------------------------------------- group (R9–R11)


def _read_group(reader: Reader) -> tuple[_GroupRoller, int, list[int]]:
    roller = _read_roller(reader, need_skill=True)
    assert isinstance(roller, _GroupRoller)         # (need_skill made one, or refused)
    difficulty = reader.int("difficulty", 1, 7)
    helper_pools = reader.int_list("helper_pools", 0, 12, 1, 2)
    return roller, difficulty, helper_pools


def _resolve_group(reader: Reader, rng: random.Random) -> dict:
    roller, difficulty, helper_pools = _read_group(reader)
    forced = _require_all(reader, ("helper_dice", "dice"))
    helper_forced = reader.dice_lists("helper_dice", max_lists=2)
    main_forced = reader.dice("dice")
    helper_key = reader.key("helper_dice")
    if forced and helper_forced is not None and len(helper_forced) != len(helper_pools):
        raise RequestError(helper_key, "helper_lists", n=len(helper_pools), got=len(helper_forced))
    helper_dice = []
    for i, hpool in enumerate(helper_pools):
        n = max(1, hpool)
        try:
            faces = _take(helper_forced[i] if forced and helper_forced is not None else None, helper_key, n, rng,
                          RequestError("", "helper_pool_dice", index=i + 1, pool=hpool, least=hpool < 1))
        except RequestError as exc:
            if exc.code == "exact_dice":
                raise
            raise RequestError(helper_key, "in_helper", index=i + 1, cause=exc) from None
        helper_dice.append(faces)
    help_successes = [count_successes(f) for f in helper_dice]
    help_cap = max(roller.skill, 1)
    help_dice = min(sum(help_successes), help_cap)
    faces = _take(main_forced, reader.key("dice"), roller.dice(help_dice), rng, roller.formula(help_dice))
    result = _simple_result(roller, difficulty, faces)
    result.update(help_successes=help_successes, help_cap=help_cap, help_dice=help_dice,
                  helper_dice=helper_dice)
    return result


def _odds_group(reader: Reader) -> dict:
    roller, difficulty, helper_pools = _read_group(reader)
    help_ways = [1]
    helper_count = 0
    for hpool in helper_pools:
        n = max(1, hpool)
        helper_count += n
        help_ways = _convolve(help_ways, _successes_distribution(n))
    cap = max(roller.skill, 1)
    capped = [0] * (cap + 1)
    for h, ways in enumerate(help_ways):
        capped[min(h, cap)] += ways
    top = max(roller.dice(h) for h in range(cap + 1))
    num = 0
    for h, ways in enumerate(capped):
        n = roller.dice(h)
        num += ways * _ways_at_least(n, difficulty) * SIDES ** (top - n)
    den = SIDES ** (helper_count + top)
    return {"outcome": {"success": num / den, "failure": (den - num) / den}}


# ---------------------------------------------------------------- opposed (R12–R13)


def _winner(actor: list[int], opponent: list[int], initiator: str) -> tuple[str, str]:
    a_crit, o_crit = actor.count(12) >= 2, opponent.count(12) >= 2
    if a_crit != o_crit:
        return ("actor" if a_crit else "opponent"), "critical"
    a, o = count_successes(actor), count_successes(opponent)
    if a != o:
        return ("actor" if a > o else "opponent"), "successes"
    return initiator, "initiator"


def _read_opposed(reader: Reader) -> tuple[str, _Roller, _Roller]:
    initiator = reader.choice("initiator", ("actor", "opponent"), "actor")
    return initiator, _read_roller(reader.sub("actor_")), _read_roller(reader.sub("opponent_"))


def _resolve_opposed(reader: Reader, rng: random.Random) -> dict:
    initiator, actor, opponent = _read_opposed(reader)
    sides = {"actor": actor, "opponent": opponent}
    forced = _require_all(reader, ("actor_dice", "opponent_dice"))
    faces = {}
    for side, roller in sides.items():
        key = f"{side}_dice"
        faces[side] = _take(reader.dice(key) if forced else None, key, roller.dice(), rng, roller.formula())
    winner, decided_by = _winner(faces["actor"], faces["opponent"], initiator)
    a, o = count_successes(faces["actor"]), count_successes(faces["opponent"])
    return {
        "winner": winner,
        "decided_by": decided_by,
        "initiator": initiator,
        "actor_successes": a,
        "opponent_successes": o,
        "actor_critical": faces["actor"].count(12) >= 2,
        "opponent_critical": faces["opponent"].count(12) >= 2,
        "margin": a - o,
        "actor_dice_rolled": len(faces["actor"]),
        "opponent_dice_rolled": len(faces["opponent"]),
        "actor_pool": sides["actor"].pool,
        "opponent_pool": sides["opponent"].pool,
        "actor_dice": faces["actor"],
        "opponent_dice": faces["opponent"],
    }


def _opposed_actor_ways(n_actor: int, n_opponent: int, initiator: str) -> tuple[int, int]:
    """Ways the actor wins, out of 12**(n_actor + n_opponent) (R12, R13)."""
    a_plain, a_crit = _crit_split(n_actor)
    o_plain, o_crit = _crit_split(n_opponent)
    wins = sum(a_crit) * sum(o_plain)  # only the actor has a réussite critique
    ties_to_actor = initiator == "actor"
    for a_side, o_side in ((a_plain, o_plain), (a_crit, o_crit)):
        below = 0  # ways the opponent scores fewer than s successes
        for s, ways in enumerate(a_side):
            level = o_side[s] if s < len(o_side) else 0
            if ways:
                wins += ways * (below + level if ties_to_actor else below)
            below += level
    return wins, SIDES ** (n_actor + n_opponent)


def _odds_opposed(reader: Reader) -> dict:
    initiator, actor, opponent = _read_opposed(reader)
    wins, den = _opposed_actor_ways(actor.dice(), opponent.dice(), initiator)
    return {"winner": {"actor": wins / den, "opponent": (den - wins) / den, "tie": 0.0}}


# ---------------------------------------------------------------- extended (R15–R18)


@record(frozen=True)
class _Extended:
    """An extended test as the Exarch set it (R15–R18), with the change of each test made so far
    (`test_modifiers`: the situation as it stood when that test was rolled)."""

    roller: _Roller
    threshold: int
    max_tests: int
    interval: str
    changes: tuple[int, ...] = ()

    def change(self, test: int) -> int:
        """The change to the dice count of test `test` (0 = the first); none past the list."""
        return self.changes[test] if test < len(self.changes) else 0

    def dice(self, test: int) -> int:
        """R5: the dice test `test` rolls, at least one."""
        return self.roller.dice(self.change(test))

    def counts(self) -> tuple[int, ...]:
        """The dice of each test the list names, then of every test after (the last entry)."""
        return tuple(self.dice(i) for i in range(len(self.changes))) + (self.roller.dice(),)


def _read_extended(reader: Reader) -> _Extended:
    roller = _read_roller(reader)
    threshold = reader.int("threshold", 1, 99)
    max_tests = reader.int("max_tests", 0, 99, 0)
    interval = reader.choice("interval", INTERVALS, "")
    changes = reader.int_list("test_modifiers", -12, 12, 0, 99, default=())
    return _Extended(roller, threshold, max_tests, interval, tuple(changes))


def _resolve_extended(reader: Reader, rng: random.Random) -> dict:
    test = _read_extended(reader)
    roller, threshold, max_tests = test.roller, test.threshold, test.max_tests
    forced = reader.dice_lists("rolls", max_lists=99)
    key = reader.key("rolls")
    rolls: list[list[int]] = []
    test_successes: list[int] = []
    total = 0
    outcome, reason = "pending", ""

    def play(faces: list[int]) -> None:
        nonlocal total, outcome, reason
        s = count_successes(faces)
        rolls.append(faces)
        test_successes.append(s)
        total += s
        if s == 0:
            outcome, reason = "failure", "no_success"      # R17, first test included
        elif total >= threshold:
            outcome = "success"                             # R16
        elif max_tests and len(rolls) >= max_tests:
            outcome, reason = "failure", "countdown"        # R18

    if forced is None:
        # Always ends: every test adds at least one success or fails the extended test.
        while outcome == "pending":
            play(_take(None, key, test.dice(len(rolls)), rng, None))
    else:
        for i, faces in enumerate(forced, start=1):
            if outcome != "pending":
                raise RequestError(key, "extended_decided", tests=len(rolls), given=len(forced))
            n = len(rolls)
            try:
                play(_take(faces, key, test.dice(n), rng, roller.formula(change=test.change(n))))
            except RequestError as exc:
                raise RequestError(key, "in_test", index=i, cause=exc) from None
    return {
        "outcome": outcome,
        "total_successes": total,
        "tests": len(rolls),
        "test_successes": test_successes,
        "failure_reason": reason,
        "dice_per_test": test.dice(0),
        "dice_per_test_made": [len(faces) for faces in rolls],
        "interval": test.interval,
        "threshold": threshold,
        "max_tests": max_tests,
        "pool": roller.pool,
        "rolls": rolls,
    }


def _extended_success_ways(n: int, threshold: int, max_tests: int) -> tuple[int, int]:
    """Exact P(success) of an extended test as (numerator, denominator).

    Each test adds at least one success or ends the series (R17), so at most `threshold`
    tests are made and a countdown at or above the threshold never binds.
    """
    ways = _successes_distribution(n)
    tails = _tails(n)
    per_test = SIDES ** n
    K = len(ways) - 1

    def tail(need: int) -> int:
        return tails[need] if need <= K else 0

    if max_tests == 0 or max_tests >= threshold:
        # H[t] = (ways to stand undecided at t) * per_test**t, so every path shares one scale.
        weight = [0] + [ways[k] * per_test ** (k - 1) for k in range(1, K + 1)]
        H = [1] + [0] * (threshold - 1)
        for t in range(1, threshold):
            H[t] = sum(H[t - k] * weight[k] for k in range(1, min(t, K) + 1))
        num = sum(H[t] * tail(threshold - t) * per_test ** (threshold - 1 - t) for t in range(threshold))
        return num, per_test ** threshold
    M, P = max_tests, per_test
    if K == 0 or M * min(threshold, M * K) <= 5 * threshold:
        # A short countdown (its states stay few): step through the tests; all states after m
        # tests share P**m. Measured: below this bound it beats the series division below.
        states = {0: 1}
        num = 0
        for _ in range(M):
            num = num * P + sum(w * tail(threshold - t) for t, w in states.items())
            nxt: dict[int, int] = {}
            for t, w in states.items():
                for k in range(1, min(K, threshold - 1 - t) + 1):
                    nxt[t + k] = nxt.get(t + k, 0) + w * ways[k]
            states = nxt
        return num, P ** M
    # A longer countdown M < threshold, in O(threshold * K) steps rather than O(M * threshold * K).
    # With A(x) = sum of ways[k] x^k over k >= 1 (a test adding k), [x^t] A^j counts the ways to
    # stand undecided at t after j tests, and
    #   num = sum over t of tail(threshold - t) [x^t] C,  C = sum of P^(M-1-j) A^j for j < M,
    # over P^M. C (P - A) = P^M - A^M: one series division, and A^M = x^M B^M one power of
    # B = A / x (J. C. P. Miller's recurrence). Every division is exact: integers throughout.
    b = ways[1:]
    power = [b[0] ** M]                              # [x^k] B^M, up to the degree that counts
    for k in range(1, threshold - M):
        acc = sum(((M + 1) * i - k) * b[i] * power[k - i] for i in range(1, min(k, K - 1) + 1))
        power.append(acc // (k * b[0]))
    rhs = [P ** M] + [0] * (threshold - 1)          # P^M - A^M below x^threshold
    for i, p in enumerate(power):
        rhs[M + i] -= p
    C: list[int] = []
    for t in range(threshold):
        C.append((rhs[t] + sum(ways[k] * C[t - k] for k in range(1, min(t, K) + 1))) // P)
    return sum(C[t] * tail(threshold - t) for t in range(threshold)), P ** M


def _odds_extended(reader: Reader) -> dict:
    test = _read_extended(reader)
    counts = test.counts()
    if len(set(counts)) == 1:
        num, den = _extended_success_ways(counts[0], test.threshold, test.max_tests)
    else:
        # The dice change from test to test (`test_modifiers`): the series step by step. At
        # most `threshold` tests are made (each adds a success or ends it), fewer with a countdown.
        last = min(test.threshold, test.max_tests) if test.max_tests else test.threshold
        steps = _extended_steps(counts, test.threshold, test.max_tests)
        num, _running, _failed = steps.step(last)
        den = steps.scale(last)
    return {"outcome": {"success": num / den, "failure": (den - num) / den}}


# ---------------------------------------------------------------- luck (the chance of doing at least as well)


def _luck_simple(reader: Reader) -> LuckOf:
    """Simple test: more successes is luckier (a Triviale action rolls nothing: no luck)."""
    roller, difficulty = _read_simple(reader)
    if difficulty == 0:
        return lambda result: None
    n = roller.dice()
    return lambda result: probability(_ways_at_least(n, result["successes"]), SIDES ** n)


def _luck_group(reader: Reader) -> LuckOf:
    """Group test: more successes on the roller's own dice is luckier, over the helpers' dice
    and the help they give (R9–R11) as well as the roller's."""
    roller, difficulty, helper_pools = _read_group(reader)
    help_ways = [1]
    helper_count = 0
    for hpool in helper_pools:
        helper_count += max(1, hpool)
        help_ways = _convolve(help_ways, _successes_distribution(max(1, hpool)))
    cap = max(roller.skill, 1)
    capped = [0] * (cap + 1)
    for h, ways in enumerate(help_ways):
        capped[min(h, cap)] += ways
    top = max(roller.dice(h) for h in range(cap + 1))
    den = SIDES ** (helper_count + top)
    known: dict[int, float] = {}

    def luck(result: Mapping) -> float:
        s = result["successes"]
        if s not in known:
            known[s] = probability(sum(ways * _ways_at_least(roller.dice(h), s) * SIDES ** (top - roller.dice(h))
                                       for h, ways in enumerate(capped)), den)
        return known[s]

    return luck


def _contest_class(actor_critical: bool, opponent_critical: bool) -> int:
    """R13 first: a réussite critique on the actor's side only (2), on neither or both (1), on the
    opponent's only (0)."""
    return 1 + int(actor_critical) - int(opponent_critical)


def _luck_opposed(reader: Reader) -> Luck:
    """Opposed test: the actor winning by at least as much; by R13 a réussite critique on one
    side only outranks any count, then the successes' margin orders (the initiator, fixed by the
    request, changes no order). The opponent's luck: the actor doing at most as well."""
    _initiator, actor, opponent = _read_opposed(reader)
    n_actor, n_opponent = actor.dice(), opponent.dice()
    a_plain, a_crit = _crit_split(n_actor)
    o_plain, o_crit = _crit_split(n_opponent)
    ways: dict[tuple[int, int], int] = {}
    for a_side, a_is_crit in ((a_plain, False), (a_crit, True)):
        for o_side, o_is_crit in ((o_plain, False), (o_crit, True)):
            cls = _contest_class(a_is_crit, o_is_crit)
            for s, wa in enumerate(a_side):
                if wa:
                    for t, wo in enumerate(o_side):
                        if wo:
                            ways[(cls, s - t)] = ways.get((cls, s - t), 0) + wa * wo
    keys = sorted(ways)
    above = [0] * (len(keys) + 1)
    for i in range(len(keys) - 1, -1, -1):
        above[i] = above[i + 1] + ways[keys[i]]
    den = SIDES ** (n_actor + n_opponent)

    def key(result: Mapping) -> tuple[int, int]:
        return _contest_class(result["actor_critical"], result["opponent_critical"]), result["margin"]

    def actor_luck(result: Mapping) -> float:
        return probability(above[bisect_left(keys, key(result))], den)

    def opponent_luck(result: Mapping) -> float:
        return probability(den - above[bisect_right(keys, key(result))], den)

    return Luck(actor_luck, opponent_luck)


class _ExtendedSteps:
    """Where an extended test stands after each test (R15–R18), as integer ways over the product
    of 12**n for the dice n of each test made: successes reached by then, running totals,
    failures by their total. `counts` gives the dice of each test, its last entry those of every
    test after (the dice counts actually used, `test_modifiers`). Grown on demand."""

    def __init__(self, counts: tuple[int, ...], threshold: int, max_tests: int) -> None:
        self.counts = counts
        self.threshold = threshold
        self.max_tests = max_tests
        # One entry per number of tests: (success ways, running ways by total, failure ways by total).
        self.steps: list[tuple[int, list[int], list[int]]] = [(0, [1] + [0] * (threshold - 1), [0] * threshold)]
        self.scales = [1]
        self.lock = threading.Lock()

    def dice(self, test: int) -> int:
        """The dice of test `test` (0 = the first)."""
        return self.counts[min(test, len(self.counts) - 1)]

    def step(self, j: int) -> tuple[int, list[int], list[int]]:
        with self.lock:
            while len(self.steps) <= j:
                self._grow()
        return self.steps[j]

    def scale(self, j: int) -> int:
        """The denominator of every way after j tests: the faces of the dice those tests roll."""
        self.step(j)
        return self.scales[j]

    def _grow(self) -> None:
        success, running, failed = self.steps[-1]
        j = len(self.steps)                 # the test being made
        n = self.dice(j - 1)
        ways, tails, P = _successes_distribution(n), _tails(n), SIDES ** n
        threshold = self.threshold
        countdown = bool(self.max_tests) and j >= self.max_tests
        new_success = success * P
        new_running = [0] * threshold
        new_failed = [w * P for w in failed]
        for t, w in enumerate(running):
            if not w:
                continue
            need = threshold - t
            new_success += w * (tails[need] if need < len(tails) else 0)
            new_failed[t] += w * ways[0]                                    # R17: no success
            for k in range(1, min(len(ways) - 1, need - 1) + 1):
                (new_failed if countdown else new_running)[t + k] += w * ways[k]   # R18 or on
        self.steps.append((new_success, new_running, new_failed))
        self.scales.append(self.scales[-1] * P)


@lru_cache(maxsize=64)
def _extended_steps(counts: tuple[int, ...], threshold: int, max_tests: int) -> _ExtendedSteps:
    return _ExtendedSteps(counts, threshold, max_tests)


def _luck_extended(reader: Reader) -> LuckOf:
    """Extended test, after the tests made (j): success sooner is luckiest, then a running test by
    its total, then a failure by the total it reached. Luck compares with every way of standing
    after j tests (a series decided earlier stays as it ended), over the dice each test actually
    rolled (`test_modifiers`: a die fewer at one test, a die more at another)."""
    test = _read_extended(reader)
    threshold = test.threshold
    steps = _extended_steps(test.counts(), threshold, test.max_tests)

    def luck(result: Mapping) -> float | None:
        j = result["tests"]
        if j == 0:
            return None             # no test made: no die rolled, no luck
        success, running, failed = steps.step(j)
        total = min(result["total_successes"], threshold)
        if result["outcome"] == "success":
            num = success
        elif result["outcome"] == "pending":
            num = success + sum(running[total:])
        else:
            num = success + sum(running) + sum(failed[total:])
        return probability(num, steps.scale(j))

    return luck


# ---------------------------------------------------------------- describe


def _dice_group(label: str, faces: Sequence[int]) -> DiceGroup:
    return DiceGroup(label, tuple(Die(f, SIDES, die_status(f)) for f in faces), count_successes(faces))


def _infer_kind(result: Mapping) -> str:
    if "winner" in result:
        return "opposed"
    if "test_successes" in result:
        return "extended"
    if "help_dice" in result:
        return "group"
    return "simple"


def describe(result: Mapping) -> Description:
    """A MIR result in the Exarch's words: réussite/échec, who prevails, and every die's part
    (in the language spoken; SD, Voies and the Temporalité stay the game's words)."""
    kind = result.get("kind") or _infer_kind(result)
    if kind == "opposed":
        winner = result["winner"]
        how = {
            "critical": _("critical success (two 12s)"),
            "successes": _("more successes"),
            "initiator": _("the initiator wins a tie"),
        }[result["decided_by"]]
        detail = ngettext("{actor} success against {opponent} · {how}", "{actor} successes against {opponent} · {how}",
                          result["actor_successes"]).format(actor=result["actor_successes"],
                                                            opponent=result["opponent_successes"], how=how)
        groups: tuple[DiceGroup, ...] = (_dice_group(pgettext("dice group", "actor"), result["actor_dice"]),
                                         _dice_group(pgettext("dice group", "opponent"), result["opponent_dice"]))
        return Description(_(OUTCOME_WORDS[winner]), detail, groups, winner == "actor")
    if kind == "extended":
        outcome = result["outcome"]
        headline = {
            "success": _(OUTCOME_WORDS["success"]),
            "pending": _(OUTCOME_WORDS["pending"]),
            "failure": _("failure (no success)") if result["failure_reason"] == "no_success"
            else _("failure (countdown)"),
        }[outcome]
        steps = " + ".join(str(s) for s in result["test_successes"]) or "0"
        tests = result["tests"]
        total = ngettext("{n} success", "{n} successes", result["total_successes"]).format(n=result["total_successes"])
        detail = ngettext("{steps} = {total} in {tests} test", "{steps} = {total} in {tests} tests",
                          tests).format(steps=steps, total=total, tests=tests)
        if "threshold" in result:
            detail = _("{done} for {threshold}").format(done=detail, threshold=result["threshold"])
            if result.get("max_tests"):
                detail = _("{done} ({max} max.)").format(done=detail, max=result["max_tests"])
        if result.get("interval"):
            detail += " · " + _("{interval} per test").format(interval=INTERVAL_WORDS[result["interval"]])
        groups = tuple(_dice_group(pgettext("dice group", "test {n}").format(n=i), faces)
                       for i, faces in enumerate(result["rolls"], start=1))
        good = True if outcome == "success" else False if outcome == "failure" else None
        return Description(headline, detail, groups, good)
    outcome = result["outcome"]
    if result["dice_rolled"] == 0:
        return Description(_(OUTCOME_WORDS["success"]), _("trivial action: automatic success"), (), True)
    difficulty = result["successes"] - result["margin"]
    detail = ngettext("{successes} success for SD {difficulty} · margin {margin}",
                      "{successes} successes for SD {difficulty} · margin {margin}", result["successes"]).format(
        successes=result["successes"], difficulty=difficulty, margin=margin(result["margin"]))
    listed: list[DiceGroup] = []
    if kind == "group":
        detail += " · " + ngettext("help {n} die", "help {n} dice", result["help_dice"]).format(n=result["help_dice"])
        listed = [_dice_group(pgettext("dice group", "help {n}").format(n=i), faces)
                  for i, faces in enumerate(result["helper_dice"], start=1)]
    listed.insert(0, _dice_group(pgettext("dice group", "dice"), result["dice"]))
    return Description(_(OUTCOME_WORDS[outcome]), detail, tuple(listed), outcome == "success")


# ---------------------------------------------------------------- the system


def _roller_fields(prefix: str = "", *, skill_required: bool = False) -> tuple[FieldSpec, ...]:
    return (
        FieldSpec(prefix + "pool", "int", 0, 12, help="base pool: skill + Voie (or give skill and voie)"),
        FieldSpec(prefix + "skill", "int", 0, 6, required=skill_required, help="skill level (Compétence)"),
        FieldSpec(prefix + "voie", "int", 1, 6, help="Voie level; with skill, instead of pool"),
        FieldSpec(prefix + "modifier", "int", -2, 2, default=0, help="situation dice, −2 to +2 (R3)"),
        FieldSpec(prefix + "penalty", "int", 0, 12, default=0, help="dice removed by negative antecedents (R4)"),
    )


_DICE_HELP = "forced faces 1–12, exactly the dice rolled"

# Outcome -> its words (English msgids: shown through `_`, in the language spoken).
OUTCOME_WORDS = {
    "success": N_("success"),
    "failure": N_("failure"),
    "pending": N_("pending"),
    "actor": N_("the actor wins"),
    "opponent": N_("the opponent wins"),
    "tie": N_("tie"),
}

KINDS = {
    "simple": Kind(
        "simple", "simple test", _resolve_simple, _odds_simple,
        _roller_fields() + (
            FieldSpec("difficulty", "int", 0, 7, required=True, help="SD: successes needed; 0 = Triviale, no roll"),
            FieldSpec("dice", "dice", 1, 12, help=_DICE_HELP),
        ),
        ("dice",),
        check=_read_simple,
        luck=_luck_simple,
    ),
    "group": Kind(
        "group", "group test", _resolve_group, _odds_group,
        _roller_fields(skill_required=True) + (
            FieldSpec("difficulty", "int", 1, 7, required=True, help="SD: successes needed"),
            FieldSpec("helper_pools", "int_list", 0, 12, required=True,
                      help="one or two helpers' pools; each rolls their pool, at least 1 die"),
            FieldSpec("helper_dice", "dice_lists", 1, 12, help="forced faces, one list per helper"),
            FieldSpec("dice", "dice", 1, 12, help=_DICE_HELP + ", help included"),
        ),
        ("helper_dice", "dice"),
        check=_read_group,
        luck=_luck_group,
    ),
    "opposed": Kind(
        "opposed", "opposed test", _resolve_opposed, _odds_opposed,
        _roller_fields("actor_") + _roller_fields("opponent_") + (
            FieldSpec("initiator", "str", choices=("actor", "opponent"), default="actor",
                      help="who started the test: wins ties"),
            FieldSpec("actor_dice", "dice", 1, 12, help=_DICE_HELP + " by the actor"),
            FieldSpec("opponent_dice", "dice", 1, 12, help=_DICE_HELP + " by the opponent"),
        ),
        ("actor_dice", "opponent_dice"),
        contest=True,
        check=_read_opposed,
        luck=_luck_opposed,
    ),
    "extended": Kind(
        "extended", "extended test", _resolve_extended, _odds_extended,
        _roller_fields() + (
            FieldSpec("threshold", "int", 1, 99, required=True, help="total successes to reach"),
            FieldSpec("max_tests", "int", 0, 99, default=0, help="countdown: most tests allowed; 0 = no limit"),
            FieldSpec("interval", "str", choices=INTERVALS, default="", help="Temporalité, echoed"),
            FieldSpec("rolls", "dice_lists", 1, 12, help="forced faces, one list per test"),
            FieldSpec("test_modifiers", "int_list", -12, 12, default=(),
                      help="change to the dice of each test made, in order (the situation when it was rolled)"),
        ),
        ("rolls",),
        check=_read_extended,
        luck=_luck_extended,
    ),
}

SYSTEM = System.of_module(globals(), game="MIR", gm="Exarch",
    dice="pool of d12s (skill + Voie): 7–11 = 1 success, 12 = 2 successes; SD 1–7",
    difficulty_field="difficulty",
    difficulty_fields=frozenset({"difficulty", "threshold", "margin"}),
    extra_tables=(("Temporalité", TEMPORALITE),),
    die_words={"counted": "success", "critical": "critical success = 2"},   # English: said through pgettext("die")
    total_unit=" successes",                                               # pgettext("total unit")
    total_unit_one=" success",                                             # pgettext("total unit")
    difficulty_word="SD",
    initiative="1d12",
    test_timers={"extended": "extended"},
    derived_keys={
        "trauma": "Trauma is derived (the weakest Voie), never written: remove this key",
        "mensonge": "Mensonge (the defence mechanism) is derived (the strongest Voie), never written: remove this "
                    "key (the Voie du Mensonge is voies.mensonge)",
    },
)
