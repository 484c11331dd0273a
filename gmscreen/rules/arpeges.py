"""Les Arpèges (Harmonies): ±d10, dé de chance − dé de malchance, + final difficulty = margin.

Rules: shared spec `arpeges.md`, R1–R12. Kinds: simple, opposed_one_roll,
opposed_two_rolls, confrontation.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Callable, Mapping

from gmscreen.i18n import N_, _, pgettext

from ._base import (
    DiceGroup, Description, DiceSource, Die, Difficulty, FieldSpec, ForcedDice, Kind, RandomDice, Reader,
    RequestError, Stat, StatGroup, System, forced_mode)
from .luck import Luck, LuckOf, probability
from .render import margin

CARACTERISTIQUES = (
    Stat("corps", "Corps", -10, 10, gloss="body"),
    Stat("agilite", "Agilité", -10, 10, gloss="agility"),
    Stat("intuition", "Intuition", -10, 10, gloss="intuition"),
    Stat("intelligence", "Intelligence", -10, 10, gloss="intelligence"),
)
MOYENS = (
    Stat("puissance", "Puissance", -10, 10, gloss="power"),
    Stat("resistance", "Résistance", -10, 10, gloss="resistance"),
    Stat("manoeuvre", "Manœuvre", -10, 10, gloss="manoeuvre"),
    Stat("precision", "Précision", -10, 10, gloss="precision"),
)

SHEET = (
    StatGroup("caracteristiques", "Caractéristiques", CARACTERISTIQUES),
    StatGroup("moyens", "Moyens", MOYENS),
    StatGroup("skills", "Compétences", free=Stat("", "Compétence", -10, 10, default=0), required=False),
)

# No table in the seed: signed difficulties. The published rules (sactions.html) give
# 0 = an average character's even chance, 3 points per doubling of the difficulty and
# 5 points for a factor of three. The rows below state exactly that, nothing more.
DIFFICULTIES = (
    Difficulty("Trois fois plus facile", 5),
    Difficulty("Deux fois plus facile", 3),
    Difficulty("Moyenne (chance égale)", 0),
    Difficulty("Deux fois plus dure", -3),
    Difficulty("Trois fois plus dure", -5),
    Difficulty("Quatre fois plus dure", -6),
)

D10 = 10
SIMULTANEOUS_PENALTY = 3          # R12: per extra simultaneous action
MAX_CHAIN = 1000                  # forced open rolls: at most this many faces in one list


# ---------------------------------------------------------------- dice


def _chain(source: DiceSource, open_roll: bool) -> list[int]:
    """One die of the roll; R2: in an open roll a 10 is rolled again and added."""
    faces = [source.roll(D10)]
    while open_roll and faces[-1] == D10:
        faces.append(source.roll(D10))
    return faces


def _forced_chain(reader: Reader, name: str, open_roll: bool, required: bool = True) -> list[int]:
    """A forced die list, checked against R1/R2: one face, or 10s then a face below 10.

    A conditional list (`required` false) may be absent or empty: it then gives [].
    """
    key = reader.key(name)
    faces = reader.dice(name, max_len=MAX_CHAIN)
    if faces is None or not faces:
        if required:
            raise RequestError(key, "required_d10_faces" if faces is None else "required_d10_face")
        return []
    for face in faces:
        if not 1 <= face <= D10:
            raise RequestError(key, "impossible_d10_face", face=face)
    if not open_roll and len(faces) > 1:
        raise RequestError(key, "closed_die_one_face", got=len(faces))
    if open_roll:
        for face in faces[:-1]:
            if face != D10:
                raise RequestError(key, "open_roll_stops", face=face)
        if faces[-1] == D10:
            raise RequestError(key, "open_roll_continues")
    source = ForcedDice(faces, key)
    used = _chain(source, open_roll)
    source.done()
    return used


class _Roller:
    """Rolls the request's dice lists: forced lists consumed exactly, or random chains."""

    def __init__(self, reader: Reader, forced: bool, open_roll: bool, rng: random.Random) -> None:
        self.reader = reader
        self.forced = forced
        self.open_roll = open_roll
        self.random = RandomDice(rng)

    def roll(self, name: str) -> list[int]:
        if self.forced:
            return _forced_chain(self.reader, name, self.open_roll)
        return _chain(self.random, self.open_roll)

    def roll_pair(self, prefix: str = "") -> tuple[list[int], list[int]]:
        return self.roll(prefix + "chance_dice"), self.roll(prefix + "malchance_dice")


# ---------------------------------------------------------------- exact laws of the roll
#
# One die of an open roll is 10k + r: k tens (P = 10^-k * 9/10) then r in 1..9, independent.
# So chance - malchance = 10 J + e with J = k_c - k_m, P(J = j) = 9/11 * 10^-|j|, and
# e = r_c - r_m, triangular on -8..8 (out of 81). Two rolls subtracted give 10 L + E with
# L = J_a - J_o, P(L = l) = 81 (99|l| + 101) / (11979 * 10^|l|), E triangular squared on
# -16..16 (out of 6561). Only the few L values where E decides are expanded; every longer
# chain lands in the same outcome and is summed by its exact tail mass.


class _Law:
    """Z = 10 L + E, L on the integers with exact pmf and tails, E finite (integer counts)."""

    def __init__(self, pmf: Callable[[int], Fraction], tail: Callable[[int], Fraction],
                 counts: dict[int, int]) -> None:
        self.pmf = pmf
        self.tail = tail                          # tail(n) = P(L >= n)
        self.span = max(abs(e) for e in counts)
        self.total = sum(counts.values())
        self.counts = counts
        self.at_least = {}
        acc = 0
        for e in range(self.span, -self.span - 1, -1):
            acc += counts.get(e, 0)
            self.at_least[e] = acc

    def _e_at_least(self, y: int) -> int:
        if y <= -self.span:
            return self.total
        if y > self.span:
            return 0
        return self.at_least[y]

    def ge(self, x: int) -> Fraction:
        """P(Z >= x)."""
        certain = -((-(x + self.span)) // D10)            # from this L on, every E reaches x
        first = -((-(x - self.span)) // D10)              # below this L, no E reaches x
        p = self.tail(certain)
        for level in range(first, certain):
            p += self.pmf(level) * Fraction(self._e_at_least(x - D10 * level), self.total)
        return p

    def eq(self, x: int) -> Fraction:
        """P(Z == x)."""
        first = -((-(x - self.span)) // D10)
        p = Fraction(0)
        for level in range(first, (x + self.span) // D10 + 1):
            count = self.counts.get(x - D10 * level, 0)
            if count:
                p += self.pmf(level) * Fraction(count, self.total)
        return p


def _difference(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """Counts of x - y for independent x ~ a, y ~ b (counts multiply)."""
    out: dict[int, int] = {}
    for x, cx in a.items():
        for y, cy in b.items():
            out[x - y] = out.get(x - y, 0) + cx * cy
    return out


def _point(level: int) -> Fraction:
    return Fraction(1 if level == 0 else 0)


def _point_tail(n: int) -> Fraction:
    return Fraction(1 if n <= 0 else 0)


def _j_pmf(j: int) -> Fraction:
    return Fraction(9, 11 * 10 ** abs(j))


def _j_tail(n: int) -> Fraction:
    if n >= 1:
        return Fraction(10, 11 * 10 ** n)
    return 1 - Fraction(10, 11 * 10 ** (1 - n))


def _l_pmf(level: int) -> Fraction:
    m = abs(level)
    return Fraction(81 * (99 * m + 101), 11979 * 10 ** m)


def _l_tail(n: int) -> Fraction:
    if n >= 1:
        return Fraction(8910 * n + 10080, 11979 * 10 ** n)
    return 1 - _l_tail(1 - n)


_FACES = {face: 1 for face in range(1, D10 + 1)}
_REMAINDERS = {r: 1 for r in range(1, D10)}
_ROLL = _difference(_FACES, _FACES)                      # -9..9 out of 100
_ROLL_DIFF = _difference(_ROLL, _ROLL)                   # -18..18 out of 10^4
_OPEN_E = _difference(_REMAINDERS, _REMAINDERS)          # -8..8 out of 81
_OPEN_E_DIFF = _difference(_OPEN_E, _OPEN_E)             # -16..16 out of 6561

LAWS = {
    # (open roll, two rolls subtracted) -> law of the roll (or of actor roll - opponent roll)
    (False, False): _Law(_point, _point_tail, _ROLL),
    (False, True): _Law(_point, _point_tail, _ROLL_DIFF),
    (True, False): _Law(_j_pmf, _j_tail, _OPEN_E),
    (True, True): _Law(_l_pmf, _l_tail, _OPEN_E_DIFF),
}


# ---------------------------------------------------------------- reading


def _final_difficulty(difficulty: int, skill_level: int, simultaneous: int) -> int:
    """R3, R12: difficulty + skill level, −3 per extra simultaneous action."""
    return difficulty + skill_level - SIMULTANEOUS_PENALTY * (simultaneous - 1)


def _simple_inputs(reader: Reader) -> tuple[int, int, bool]:
    difficulty = reader.int("difficulty", -30, 30)
    skill_level = reader.int("skill_level", -30, 30)
    simultaneous = reader.int("simultaneous_actions", 1, 10, 1)
    open_roll = reader.bool("open_roll", False)
    return _final_difficulty(difficulty, skill_level, simultaneous), skill_level, open_roll


def _levels(reader: Reader) -> tuple[int, int, bool]:
    """Both sides' skill levels in an opposition, each after its own R12 malus."""
    actor = reader.int("actor_skill_level", -30, 30)
    opponent = reader.int("opponent_skill_level", -30, 30)
    actor_actions = reader.int("actor_simultaneous_actions", 1, 10, 1)
    opponent_actions = reader.int("opponent_simultaneous_actions", 1, 10, 1)
    return (_final_difficulty(0, actor, actor_actions), _final_difficulty(0, opponent, opponent_actions),
            reader.bool("open_roll", False))


def _winner(margin: int) -> str:
    return "actor" if margin > 0 else "opponent" if margin < 0 else "tie"


def _faces(prefix: str, chance: list[int], malchance: list[int]) -> dict[str, list[int]]:
    """The faces a result shows, under the names of the request fields that force them."""
    return {prefix + "chance_dice": chance, prefix + "malchance_dice": malchance}


# ---------------------------------------------------------------- kind simple (R1–R5, R12)

_SIMPLE_DICE = ("chance_dice", "malchance_dice")


def _resolve_simple(reader: Reader, rng: random.Random) -> dict:
    final, _, open_roll = _simple_inputs(reader)
    roller = _Roller(reader, forced_mode(reader, _SIMPLE_DICE), open_roll, rng)
    chance_dice, malchance_dice = roller.roll_pair()
    chance, malchance = sum(chance_dice), sum(malchance_dice)
    margin = final + chance - malchance                       # R4
    return {
        "outcome": "success" if margin >= 0 else "failure",   # R5
        "margin": margin,
        "final_difficulty": final,
        "roll": chance - malchance,
        "chance": chance,
        "malchance": malchance,
        **_faces("", chance_dice, malchance_dice),
    }


def _odds_simple(reader: Reader) -> dict:
    final, _, open_roll = _simple_inputs(reader)
    p = LAWS[(open_roll, False)].ge(-final)
    return {"outcome": {"success": float(p), "failure": float(1 - p)}}


# ---------------------------------------------------------------- kind opposed_one_roll (R6, R8, R12)


def _resolve_one_roll(reader: Reader, rng: random.Random) -> dict:
    actor, opponent, open_roll = _levels(reader)
    roller = _Roller(reader, forced_mode(reader, _SIMPLE_DICE), open_roll, rng)
    chance_dice, malchance_dice = roller.roll_pair()
    difficulty = actor - opponent
    roll = sum(chance_dice) - sum(malchance_dice)
    margin = difficulty + roll
    return {
        "winner": _winner(margin),
        "margin": margin,
        "difficulty": difficulty,
        "roll": roll,
        **_faces("", chance_dice, malchance_dice),
    }


def _winner_odds(law: _Law, offset: int) -> dict:
    """Winner of margin = offset + Z: above 0 the actor, below the opponent, 0 a tie."""
    actor = law.ge(1 - offset)
    tie = law.eq(-offset)
    return {"actor": float(actor), "opponent": float(1 - actor - tie), "tie": float(tie)}


def _odds_one_roll(reader: Reader) -> dict:
    actor, opponent, open_roll = _levels(reader)
    return {"winner": _winner_odds(LAWS[(open_roll, False)], actor - opponent)}


# ---------------------------------------------------------------- kind opposed_two_rolls (R6, R7, R12)

_TWO_ROLL_DICE = ("actor_chance_dice", "actor_malchance_dice", "opponent_chance_dice", "opponent_malchance_dice")


def _resolve_two_rolls(reader: Reader, rng: random.Random) -> dict:
    actor, opponent, open_roll = _levels(reader)
    roller = _Roller(reader, forced_mode(reader, _TWO_ROLL_DICE), open_roll, rng)
    a_chance, a_malchance = roller.roll_pair("actor_")
    o_chance, o_malchance = roller.roll_pair("opponent_")
    a_roll = sum(a_chance) - sum(a_malchance)
    o_roll = sum(o_chance) - sum(o_malchance)
    a_margin, o_margin = actor + a_roll, opponent + o_roll       # R7: difficulty 0 each
    margin = a_margin - o_margin
    return {
        "winner": _winner(margin),
        "actor_margin": a_margin,
        "opponent_margin": o_margin,
        "margin": margin,
        "actor_roll": a_roll,
        "opponent_roll": o_roll,
        **_faces("actor_", a_chance, a_malchance),
        **_faces("opponent_", o_chance, o_malchance),
    }


def _odds_two_rolls(reader: Reader) -> dict:
    actor, opponent, open_roll = _levels(reader)
    return {"winner": _winner_odds(LAWS[(open_roll, True)], actor - opponent)}


# ---------------------------------------------------------------- kind confrontation (R9–R12)


def _confrontation_inputs(reader: Reader) -> tuple[int, int, bool, bool]:
    difficulty = reader.int("difficulty", -30, 30)
    actor = reader.int("actor_skill_level", -30, 30)
    opponent = reader.int("opponent_skill_level", -30, 30)
    parry = reader.bool("parry", True)
    simultaneous = reader.int("simultaneous_actions", 1, 10, 1)
    open_roll = reader.bool("open_roll", False)
    actor_final = _final_difficulty(difficulty, actor, simultaneous)
    defender_final = difficulty + opponent                        # R10, R11: the base difficulty
    return actor_final, defender_final, open_roll, parry


def _resolve_confrontation(reader: Reader, rng: random.Random) -> dict:
    actor_final, defender_final, open_roll, parry = _confrontation_inputs(reader)
    forced = forced_mode(reader, _TWO_ROLL_DICE)
    roller = _Roller(reader, forced, open_roll, rng)
    a_chance, a_malchance = roller.roll_pair("actor_")
    a_margin = actor_final + sum(a_chance) - sum(a_malchance)
    parry_rolled = a_margin >= 0 and parry                        # R9: a failed action needs no parry
    o_chance: list[int] = []
    o_malchance: list[int] = []
    if parry_rolled:
        o_chance, o_malchance = roller.roll_pair("opponent_")
    elif forced:
        why = "no_parry_failed" if a_margin < 0 else "no_parry"
        for name in ("opponent_chance_dice", "opponent_malchance_dice"):
            if _forced_chain(reader, name, open_roll, required=False):
                raise RequestError(name, why)
    defender_margin = defender_final + sum(o_chance) - sum(o_malchance) if parry_rolled else None
    parried = defender_margin is not None and defender_margin >= 0
    return {
        "outcome": "success" if a_margin >= 0 and not parried else "failure",
        "actor_margin": a_margin,
        "actor_final_difficulty": actor_final,
        "parry_rolled": parry_rolled,
        "parried": parried,
        "defender_final_difficulty": defender_final if parry_rolled else None,
        "defender_margin": defender_margin,
        **_faces("actor_", a_chance, a_malchance),
        **_faces("opponent_", o_chance, o_malchance),
    }


def _odds_confrontation(reader: Reader) -> dict:
    actor_final, defender_final, open_roll, parry = _confrontation_inputs(reader)
    law = LAWS[(open_roll, False)]
    p = law.ge(-actor_final)
    if parry:
        p *= 1 - law.ge(-defender_final)
    return {
        "outcome": {"success": float(p), "failure": float(1 - p)},
        "policy": "parry" if parry else "no parry",
    }


# ---------------------------------------------------------------- luck (the chance of doing at least as well)


def _luck_roll(law: _Law, roll_key: str) -> LuckOf:
    """The margin is a fixed offset plus the roll: a higher roll is luckier, P(Z >= roll)."""
    known: dict[int, float] = {}

    def luck(result: Mapping) -> float:
        roll = result[roll_key]
        if roll not in known:
            known[roll] = probability(law.ge(roll))
        return known[roll]

    return luck


def _luck_simple(reader: Reader) -> LuckOf:
    """Simple action: a higher margin is luckier."""
    _final, _, open_roll = _simple_inputs(reader)
    return _luck_roll(LAWS[(open_roll, False)], "roll")


def _luck_one_roll(reader: Reader) -> LuckOf:
    """Opposition in one roll: the actor winning by at least this margin."""
    _actor, _opponent, open_roll = _levels(reader)
    return _luck_roll(LAWS[(open_roll, False)], "roll")


def _luck_two_rolls(reader: Reader) -> Luck:
    """Opposition in two rolls: the actor's margin over the opponent's, at least this gap; the
    opponent's luck, at most this gap (both rolled their dice)."""
    _actor, _opponent, open_roll = _levels(reader)
    law = LAWS[(open_roll, True)]
    known: dict[int, tuple[float, float]] = {}

    def both(result: Mapping) -> tuple[float, float]:
        gap = result["actor_roll"] - result["opponent_roll"]
        if gap not in known:
            known[gap] = (probability(law.ge(gap)), probability(1 - law.ge(gap + 1)))
        return known[gap]

    return Luck(lambda result: both(result)[0], lambda result: both(result)[1])


def _luck_confrontation(reader: Reader) -> Luck:
    """Confrontation: a success beats a failure, then the actor's margin orders (a parried action
    with a high margin is luckier than a missed one). The parry is the defender's choice as the
    request states it (R9: only a successful action is parried). The defender, who rolls only to
    parry, has the reversed order's luck among the actions they parried or not: given the parry
    was rolled; none when it was not."""
    actor_final, defender_final, open_roll, parry = _confrontation_inputs(reader)
    law = LAWS[(open_roll, False)]
    unparried = 1 - law.ge(-defender_final) if parry else Fraction(1)

    def reach(m: int) -> Fraction:
        return law.ge(m - actor_final)                   # P(actor margin >= m)

    def luck(result: Mapping) -> float:
        m = result["actor_margin"]
        if result["outcome"] == "success":
            return probability(reach(m) * unparried)
        return probability(reach(0) * unparried + reach(m) - reach(max(m, 0)) * unparried)

    def defender(result: Mapping) -> float | None:
        if not result["parry_rolled"]:
            return None
        m = result["actor_margin"]                       # >= 0: the parry is rolled on a success
        up_to = (reach(0) - reach(m + 1)) / reach(0)     # P(actor margin <= m | a success)
        if result["outcome"] == "success":
            return probability((1 - unparried) + unparried * up_to)
        return probability((1 - unparried) * up_to)

    return Luck(luck, defender)


# ---------------------------------------------------------------- describe

# Outcome -> its words (English msgids: shown through `_`, in the language spoken).
OUTCOME_WORDS = {
    "success": N_("success"),
    "failure": N_("failure"),
    "actor": N_("the actor wins"),
    "opponent": N_("the opponent wins"),
    "tie": N_("tie"),
}


def _die_groups(chance: list[int], malchance: list[int], who: str = "") -> tuple[DiceGroup, DiceGroup]:
    """The chance die counts for the roller; the malchance die is shown in its own group."""
    suffix = f" ({who})" if who else ""

    def group(label: str, faces: list[int], last: str) -> DiceGroup:
        dice = tuple(Die(face, D10, "exploded" if i < len(faces) - 1 else last) for i, face in enumerate(faces))
        return DiceGroup(label + suffix, dice, sum(faces))

    return (group(pgettext("dice group", "chance die"), chance, "counted"),
            group(pgettext("dice group", "malchance die"), malchance, "plain"))


def _good(winner: str) -> bool | None:
    return True if winner == "actor" else False if winner == "opponent" else None


def describe(result: dict) -> Description:
    """The result in the Meneur du Jeu's words (in the language spoken): margins, and each
    die's chain of faces."""
    kind = result.get("kind")
    groups: tuple[DiceGroup, ...]
    if kind == "simple":
        detail = _("final difficulty {difficulty} · roll {roll} ({chance} − {malchance}) · margin {margin}").format(
            difficulty=margin(result["final_difficulty"]), roll=margin(result["roll"]), chance=result["chance"],
            malchance=result["malchance"], margin=margin(result["margin"]))
        return Description(_(OUTCOME_WORDS[result["outcome"]]), detail,
                           _die_groups(result["chance_dice"], result["malchance_dice"]),
                           result["outcome"] == "success")
    if kind == "opposed_one_roll":
        detail = _("difficulty {difficulty} · roll {roll} · margin {margin}").format(
            difficulty=margin(result["difficulty"]), roll=margin(result["roll"]), margin=margin(result["margin"]))
        return Description(_(OUTCOME_WORDS[result["winner"]]), detail,
                           _die_groups(result["chance_dice"], result["malchance_dice"]),
                           _good(result["winner"]))
    if kind == "opposed_two_rolls":
        detail = _("actor's margin {actor} against {opponent} · gap {gap}").format(
            actor=margin(result["actor_margin"]), opponent=margin(result["opponent_margin"]),
            gap=margin(result["margin"]))
        groups = (_die_groups(result["actor_chance_dice"], result["actor_malchance_dice"],
                              pgettext("dice group", "actor"))
                  + _die_groups(result["opponent_chance_dice"], result["opponent_malchance_dice"],
                                pgettext("dice group", "opponent")))
        return Description(_(OUTCOME_WORDS[result["winner"]]), detail, groups, _good(result["winner"]))
    if kind == "confrontation":
        detail = _("margin {margin} (final difficulty {difficulty})").format(
            margin=margin(result["actor_margin"]), difficulty=margin(result["actor_final_difficulty"]))
        groups = _die_groups(result["actor_chance_dice"], result["actor_malchance_dice"],
                             pgettext("dice group", "actor"))
        if result["parry_rolled"]:
            headline = _("parry succeeds") if result["parried"] else _(OUTCOME_WORDS["success"])
            detail += " · " + _("parry: margin {margin} (final difficulty {difficulty})").format(
                margin=margin(result["defender_margin"]), difficulty=margin(result["defender_final_difficulty"]))
            groups += _die_groups(result["opponent_chance_dice"], result["opponent_malchance_dice"],
                                  pgettext("dice group", "parry"))
        elif result["actor_margin"] < 0:
            headline = _(OUTCOME_WORDS["failure"])
            detail += " · " + _("no parry")
        else:
            headline = _(OUTCOME_WORDS["success"])
            detail += " · " + _("unparried")
        return Description(headline, detail, groups, result["outcome"] == "success")
    raise RequestError("kind", "expected_kind", choices=("simple", "opposed_one_roll", "opposed_two_rolls",
                                                         "confrontation"), value=kind)


# ---------------------------------------------------------------- system

_OPEN = FieldSpec("open_roll", "bool", default=False, help="open roll (±d10°): a 10 is rerolled and added")


def _dice_spec(name: str, help_text: str) -> FieldSpec:
    return FieldSpec(name, "dice", 1, 10, help=help_text)


_SIMPLE_FIELDS = (
    FieldSpec("difficulty", "int", -30, 30, required=True, help="the action's difficulty, circumstances included"),
    FieldSpec("skill_level", "int", -30, 30, required=True,
              help="Niveau de Compétence: Caractéristique + Moyen + Compétence"),
    FieldSpec("simultaneous_actions", "int", 1, 10, default=1, help="simultaneous actions: −3 for each action beyond the first"),
    _OPEN,
    _dice_spec("chance_dice", "forced luck die, with its rerolls of 10"),
    _dice_spec("malchance_dice", "forced bad-luck die, with its rerolls of 10"),
)
_LEVELS = (
    FieldSpec("actor_skill_level", "int", -30, 30, required=True, help="the actor's Niveau de Compétence"),
    FieldSpec("opponent_skill_level", "int", -30, 30, required=True, help="the opponent's Niveau de Compétence"),
    FieldSpec("actor_simultaneous_actions", "int", 1, 10, default=1,
              help="the actor's simultaneous actions: −3 to its level for each action beyond the first"),
    FieldSpec("opponent_simultaneous_actions", "int", 1, 10, default=1,
              help="the opponent's simultaneous actions: −3 to its level for each action beyond the first"),
    _OPEN,
)
_ONE_ROLL_FIELDS = _LEVELS + (
    _dice_spec("chance_dice", "luck die of the single roll"),
    _dice_spec("malchance_dice", "bad-luck die of the single roll"),
)
_TWO_ROLL_FIELDS = _LEVELS + (
    _dice_spec("actor_chance_dice", "the actor's luck die"),
    _dice_spec("actor_malchance_dice", "the actor's bad-luck die"),
    _dice_spec("opponent_chance_dice", "the opponent's luck die"),
    _dice_spec("opponent_malchance_dice", "the opponent's bad-luck die"),
)
_CONFRONTATION_FIELDS = (
    FieldSpec("difficulty", "int", -30, 30, required=True, help="base difficulty chosen by the actor"),
    FieldSpec("actor_skill_level", "int", -30, 30, required=True, help="the actor's Niveau de Compétence"),
    FieldSpec("opponent_skill_level", "int", -30, 30, required=True,
              help="the defender's Niveau de Compétence for the parry"),
    FieldSpec("parry", "bool", default=True, help="the defender tries to parry"),
    FieldSpec("simultaneous_actions", "int", 1, 10, default=1, help="the actor's simultaneous actions"),
    _OPEN,
    _dice_spec("actor_chance_dice", "the actor's luck die"),
    _dice_spec("actor_malchance_dice", "the actor's bad-luck die"),
    _dice_spec("opponent_chance_dice", "luck die of the parry, only when there is one"),
    _dice_spec("opponent_malchance_dice", "bad-luck die of the parry, only when there is one"),
)

KINDS = {
    "simple": Kind("simple", "simple action", _resolve_simple, _odds_simple, _SIMPLE_FIELDS, _SIMPLE_DICE,
                   check=_simple_inputs, luck=_luck_simple),
    "opposed_one_roll": Kind("opposed_one_roll", "opposition in one roll", _resolve_one_roll, _odds_one_roll,
                             _ONE_ROLL_FIELDS, _SIMPLE_DICE, contest=True, check=_levels, luck=_luck_one_roll),
    "opposed_two_rolls": Kind("opposed_two_rolls", "opposition in two rolls", _resolve_two_rolls,
                              _odds_two_rolls, _TWO_ROLL_FIELDS, _TWO_ROLL_DICE, contest=True, check=_levels,
                              luck=_luck_two_rolls),
    "confrontation": Kind("confrontation", "confrontation", _resolve_confrontation, _odds_confrontation,
                          _CONFRONTATION_FIELDS, _TWO_ROLL_DICE, policy="parry", check=_confrontation_inputs,
                          luck=_luck_confrontation),
}

SYSTEM = System.of_module(globals(), game="Les Arpèges", gm="Meneur du Jeu",
    dice="±d10: luck die − bad-luck die, + final difficulty = margin; success if margin ≥ 0",
    difficulty_field="difficulty",
    difficulty_fields=frozenset({"difficulty", "final_difficulty", "margin", "actor_final_difficulty", "actor_margin",
                                  "defender_final_difficulty", "defender_margin", "opponent_margin"}),
    difficulty_word="difficulté",
)
