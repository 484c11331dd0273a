"""Te Deum pour un massacre: an open characteristic die D4–D20 + skill, Providence, negative die.

Rules: shared spec `tedeum.md`, R1–R18. Kinds: simple, opposed, attack.

Odds are exact rationals. An open die's tail is geometric: the chance that its first k
faces all show the maximum is d^-k, so a chain is only expanded as far as a threshold
needs (the tail beyond is one closed-form term), and a contest between two open totals is
a periodic series summed in closed form (see `_pair_sum`).
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import lcm
from typing import Any, Iterable, Mapping

from gmscreen.i18n import N_, _, pgettext

from ._base import (
    DiceGroup, Description, Die, Difficulty, FieldSpec, Kind, RandomDice, Reader, RequestError, Stat,
    StatGroup, System, forced_mode)
from .luck import Luck, LuckOf, probability
from .records import record
from .render import margin

DICE = (4, 6, 8, 10, 12, 20)
NEGATIVE_DICE = (4, 6, 8, 10, 12)
PROVIDENCE_DICE = (0, 4, 6, 8, 10, 12)
PROVIDENCE_LEVELS = {0: "Brebis égarée", 4: "Pauvre pécheur", 6: "Fils prodigue"}
# The same levels said of a woman (tedeum.md: "Pauvre pécheur / pécheresse", "Fils / Fille prodigue").
PROVIDENCE_LEVELS_FEMININE = {0: "Brebis égarée", 4: "Pauvre pécheresse", 6: "Fille prodigue"}


def providence_level(die: int, gender: str | None = None) -> str:
    """The name of the Providence level a die gives, in the bearer's gender ("f": "Fille
    prodigue"; otherwise as the rules name it first); "" for a level the rules leave unnamed."""
    levels = PROVIDENCE_LEVELS_FEMININE if gender == "f" else PROVIDENCE_LEVELS
    return levels.get(die, "")

_CHARS = (
    ("puissance", "Puissance", "might"),
    ("complexion", "Complexion", "constitution"),
    ("adresse", "Adresse", "dexterity"),
    ("sensibilite", "Sensibilité", "sensitivity"),
    ("savoir", "Savoir", "learning"),
    ("entregent", "Entregent", "social ease"),
)

SHEET = (
    StatGroup("characteristics", "Caractéristiques",
              tuple(Stat(k, label, choices=DICE, default=8, gloss=g) for k, label, g in _CHARS)),
    StatGroup("negative_dice", "Dés négatifs",
              tuple(Stat(k, label, choices=NEGATIVE_DICE, default=6, gloss=g) for k, label, g in _CHARS)),
    # Skills are stored under the characteristic they depend on (skills.entregent.Charme = 5).
    StatGroup("skills", "Compétences", free=Stat("", "Compétence", 0, 20, default=0),
              parent_group="characteristics", required=False),
    StatGroup("resources", "Providence", (
        Stat("providence", "Providence", choices=PROVIDENCE_DICE, default=0,
             gloss="Providence die: 0 Brebis égarée, 4 Pauvre pécheur, 6 Fils prodigue, 8–12 higher"),
    ), required=False),
    StatGroup("xp", "Expérience", tuple(Stat(k, label, 0, 999, default=0) for k, label, _ in _CHARS),
              required=False),
)

DIFFICULTIES = (
    Difficulty("Facile", 5),
    Difficulty("Par défaut", 7),
    Difficulty("Malaisé", 9),
    Difficulty("Périlleux", 13),
)

PAR_DEFAUT = 7          # R8, R9, R14: the Par défaut difficulty
ATTACK_CRITICAL = 2 * PAR_DEFAUT   # R10: a hit at 14 or more is critical
MAX_DIFFICULTY = 40

# R12: using Providence costs one level at once.
PROVIDENCE_AFTER = {12: 10, 10: 8, 8: 6, 6: 4, 4: 0}

OUTCOMES = ("critical_success", "success", "failure", "automatic_failure", "critical_failure")
WINNERS = ("actor", "tie", "opponent")

# Outcome -> its words (English msgids: shown through `_`, in the language spoken).
OUTCOME_WORDS = {
    "critical_success": N_("critical success"),
    "success": N_("success"),
    "failure": N_("failure"),
    "automatic_failure": N_("automatic failure"),
    "critical_failure": N_("critical failure"),
    "actor": N_("the actor wins"),
    "opponent": N_("the opponent wins"),
    "tie": N_("tie"),
}


def effective_die(die: int, shift: int) -> int:
    """R3, R4: Bonus and Malus steps add up; the die stays within D4..D20."""
    index = DICE.index(die) + shift
    return DICE[min(max(index, 0), len(DICE) - 1)]


def difficulty_label(value: int) -> str | None:
    for row in DIFFICULTIES:
        if row.value == value:
            return row.label
    return None


# ---------------------------------------------------------------- request fields

_ROLLER_SPECS = (
    FieldSpec("die", "int", choices=DICE, required=True,
              help="characteristic die (faces)"),
    FieldSpec("die_shift", "int", -5, 5, default=0,
              help="Bonus (+1 each) and Malus (−1 each) steps; the die stays within D4..D20"),
    FieldSpec("skill", "int", 0, 20, default=0, help="skill score added to the die"),
    FieldSpec("negative_die", "int", choices=NEGATIVE_DICE, required=True,
              help="the characteristic's negative die, rolled after an initial 1"),
    FieldSpec("providence_die", "int", choices=PROVIDENCE_DICE, default=0,
              help="current Providence die (0 = Brebis égarée)"),
    FieldSpec("use_providence", "bool", default=False,
              help="call on Providence: its die is added, and it drops one level"),
)
_ROLLER_DICE = (
    FieldSpec("dice", "dice", 1, 20,
              help="characteristic die then each open reroll (every entry but the last at the maximum)"),
    FieldSpec("providence_dice", "dice", 1, 12, help="the Providence die, when Providence is used"),
    FieldSpec("negative_dice", "dice", 1, 12, help="the negative die, when the initial die shows 1"),
)
_OPEN_NEGATIVE = FieldSpec("open_negative_die", "bool", default=False,
                           help="rule option (R18): the negative die is open like the characteristic die")


def _prefixed(specs: Iterable[FieldSpec], prefix: str, who: str) -> tuple[FieldSpec, ...]:
    return tuple(
        FieldSpec(prefix + s.name, s.type, s.lo, s.hi, s.choices, s.default, s.required, f"{who}: {s.help}")
        for s in specs
    )


@record(frozen=True)
class _Roller:
    """One side's request fields (R1–R4, R11)."""

    prefix: str
    die: int
    die_shift: int
    effective_die: int
    skill: int
    negative_die: int
    providence_die: int
    use_providence: bool


def _read_roller(reader: Reader) -> _Roller:
    die = reader.choice("die", DICE, of=int)
    shift = reader.int("die_shift", -5, 5, 0)
    skill = reader.int("skill", 0, 20, 0)
    negative = reader.choice("negative_die", NEGATIVE_DICE, of=int)
    providence = reader.choice("providence_die", PROVIDENCE_DICE, 0, of=int)
    use = reader.bool("use_providence", False)
    if use and providence == 0:
        raise RequestError(reader.key("use_providence"), "no_providence")
    return _Roller(reader.prefix, die, shift, effective_die(die, shift), skill, negative, providence, use)


# ---------------------------------------------------------------- dice of one side


@record(frozen=True)
class _Roll:
    """One side's test once the dice are known."""

    roller: _Roller
    dice: list[int]
    providence_dice: list[int]
    negative_dice: list[int]
    open_negative: bool

    @property
    def fumble(self) -> bool:
        """R15: the initial characteristic die shows 1 (a 1 on an open reroll does not count)."""
        return self.dice[0] == 1

    @property
    def die_total(self) -> int:
        return sum(self.dice)

    @property
    def providence_roll(self) -> int | None:
        return self.providence_dice[0] if self.providence_dice else None

    @property
    def negative_roll(self) -> int | None:
        return sum(self.negative_dice) if self.negative_dice else None

    @property
    def total(self) -> int:
        return self.die_total + self.roller.skill + (self.providence_roll or 0)

    @property
    def failure(self) -> str:
        """R15, R16: `automatic` after an initial 1, `critical` when the negative roll beats the skill."""
        if not self.fumble:
            return "none"
        return "critical" if (self.negative_roll or 0) > self.roller.skill else "automatic"

    @property
    def providence_die_after(self) -> int:
        r = self.roller
        return PROVIDENCE_AFTER[r.providence_die] if r.use_providence else r.providence_die

    def fields(self, out_prefix: str) -> dict[str, Any]:
        """Outcome fields common to every kind (prefixed for the two sides of a contest)."""
        r = self.roller
        p = out_prefix
        return {
            f"{p}effective_die": r.effective_die,
            f"{p}die_total": self.die_total,
            f"{p}explosions": len(self.dice) - 1,
            f"{p}providence_roll": self.providence_roll,
            f"{p}negative_roll": self.negative_roll,
            f"{p}skill": r.skill,
            f"{p}negative_die": r.negative_die,
            f"{p}providence_die": r.providence_die,
            f"{p}providence_die_after": self.providence_die_after,
            f"{p}dice": list(self.dice),
            f"{p}providence_dice": list(self.providence_dice),
            f"{p}negative_dice": list(self.negative_dice),
        }


# How an error names a die that is never shifted (`what` of the checks below).
_PLAIN_DIE = {name: {"die": name, "base": 0, "shift": 0} for name in ("providence", "negative")}


def _check_chain(field: str, faces: list[int], sides: int, what: dict) -> None:
    """R2: an open die is its first face then each reroll; only a maximum is rolled again.
    `what` names the die for the error (`die`, and `base`/`shift` for a shifted one)."""
    if not faces:
        raise RequestError(field, "open_die_missing", sides=sides, **what)
    for face in faces:
        if not 1 <= face <= sides:
            raise RequestError(field, "impossible_die_face", face=face, sides=sides, **what)
    for i, face in enumerate(faces[:-1]):
        if face != sides:
            raise RequestError(field, "open_die_stops", index=i + 1, face=face, sides=sides,
                               extra=len(faces) - i - 1)
    if faces[-1] == sides:
        raise RequestError(field, "open_die_continues", sides=sides)


def _check_single(field: str, faces: list[int], sides: int, what: dict) -> None:
    if not faces:
        raise RequestError(field, "one_face_missing", sides=sides, **what)
    if len(faces) > 1:
        raise RequestError(field, "one_face_only", sides=sides, got=len(faces), **what)
    if not 1 <= faces[0] <= sides:
        raise RequestError(field, "impossible_die_face", face=faces[0], sides=sides, **what)


def _check_absent(field: str, faces: list[int] | None, code: str) -> None:
    if faces:
        raise RequestError(field, code, key=field)


def _read_dice(reader: Reader) -> tuple[list[int] | None, list[int] | None, list[int] | None]:
    return reader.dice("dice"), reader.dice("providence_dice"), reader.dice("negative_dice")


def _forced_roll(reader: Reader, roller: _Roller, open_negative: bool) -> _Roll:
    """Validate one side's forced dice: main chain, then the conditional Providence and negative dice."""
    dice, providence, negative = _read_dice(reader)
    key = reader.key
    if dice is None:
        raise RequestError(key("dice"), "required_characteristic_dice")
    eff = roller.effective_die
    _check_chain(key("dice"), dice, eff, {"die": "characteristic", "base": roller.die, "shift": roller.die_shift})
    if roller.use_providence:
        if providence is None:
            providence = []
        _check_single(key("providence_dice"), providence, roller.providence_die, _PLAIN_DIE["providence"])
    else:
        _check_absent(key("providence_dice"), providence, "providence_unused")
        providence = []
    if dice[0] == 1:
        if negative is None:
            negative = []
        if open_negative:
            _check_chain(key("negative_dice"), negative, roller.negative_die, _PLAIN_DIE["negative"])
        else:
            _check_single(key("negative_dice"), negative, roller.negative_die, _PLAIN_DIE["negative"])
    else:
        _check_absent(key("negative_dice"), negative, "negative_unused")
        negative = []
    return _Roll(roller, dice, providence, negative, open_negative)


def _open_chain(source: RandomDice, sides: int) -> list[int]:
    faces = [source.roll(sides)]
    while faces[-1] == sides:
        faces.append(source.roll(sides))
    return faces


def _random_roll(rng: random.Random, roller: _Roller, open_negative: bool) -> _Roll:
    source = RandomDice(rng)
    dice = _open_chain(source, roller.effective_die)
    providence = [source.roll(roller.providence_die)] if roller.use_providence else []
    negative: list[int] = []
    if dice[0] == 1:
        if open_negative:
            negative = _open_chain(source, roller.negative_die)
        else:
            negative = [source.roll(roller.negative_die)]
    return _Roll(roller, dice, providence, negative, open_negative)


def _roll_side(reader: Reader, roller: _Roller, rng: random.Random, forced: bool, open_negative: bool) -> _Roll:
    if forced:
        return _forced_roll(reader, roller, open_negative)
    return _random_roll(rng, roller, open_negative)


# ---------------------------------------------------------------- kind: simple


def _simple_outcome(roll: _Roll, difficulty: int) -> str:
    """R1, R13, R15, R16."""
    if roll.fumble:
        return "critical_failure" if roll.failure == "critical" else "automatic_failure"
    if roll.total >= 2 * difficulty:
        return "critical_success"
    return "success" if roll.total >= difficulty else "failure"


def _xp(outcome: str, difficulty: int) -> int:
    """R14, R17."""
    if outcome == "critical_failure":
        return 1
    return 1 if outcome == "critical_success" and difficulty >= PAR_DEFAUT else 0


def _read_simple(reader: Reader) -> tuple[_Roller, int, bool]:
    roller = _read_roller(reader)
    difficulty = reader.int("difficulty", 1, MAX_DIFFICULTY)
    return roller, difficulty, reader.bool("open_negative_die", False)


def _resolve_simple(reader: Reader, rng: random.Random) -> dict:
    roller, difficulty, open_negative = _read_simple(reader)
    forced = forced_mode(reader, SIMPLE_DICE)
    roll = _roll_side(reader, roller, rng, forced, open_negative)
    outcome = _simple_outcome(roll, difficulty)
    fields = roll.fields("")
    return {
        "outcome": outcome,
        "total": roll.total,
        "die_total": roll.die_total,
        "providence_roll": roll.providence_roll,
        "negative_roll": roll.negative_roll,
        "margin": roll.total - difficulty,
        "effective_die": roller.effective_die,
        "explosions": len(roll.dice) - 1,
        "xp": _xp(outcome, difficulty),
        "providence_die_after": roll.providence_die_after,
        "dice": fields["dice"],
        "providence_dice": fields["providence_dice"],
        "negative_dice": fields["negative_dice"],
        "difficulty": difficulty,
        "skill": roller.skill,
        "negative_die": roller.negative_die,
        "providence_die": roller.providence_die,
        "open_negative_die": open_negative,
    }


# ---------------------------------------------------------------- kind: opposed


def _read_opposed(reader: Reader) -> tuple[Reader, Reader, _Roller, _Roller, bool]:
    actor_reader, opp_reader = reader.sub("actor_"), reader.sub("opponent_")
    actor = _read_roller(actor_reader)
    opponent = _read_roller(opp_reader)
    return actor_reader, opp_reader, actor, opponent, reader.bool("open_negative_die", False)


def _resolve_opposed(reader: Reader, rng: random.Random) -> dict:
    actor_reader, opp_reader, actor, opponent, open_negative = _read_opposed(reader)
    forced = forced_mode(reader, OPPOSED_DICE)
    a = _roll_side(actor_reader, actor, rng, forced, open_negative)
    o = _roll_side(opp_reader, opponent, rng, forced, open_negative)
    winner = _winner(a, o)
    return {
        "winner": winner,
        "actor_total": a.total,
        "opponent_total": o.total,
        "margin": a.total - o.total,
        "actor_failure": a.failure,
        "opponent_failure": o.failure,
        "actor_xp": 1 if a.failure == "critical" else 0,
        "opponent_xp": 1 if o.failure == "critical" else 0,
        **a.fields("actor_"),
        **o.fields("opponent_"),
        "open_negative_die": open_negative,
    }


def _winner(a: _Roll, o: _Roll) -> str:
    """R5–R7: higher total wins; an initial 1 loses; two initial 1s or equal totals tie."""
    if a.fumble or o.fumble:
        if a.fumble and o.fumble:
            return "tie"
        return "opponent" if a.fumble else "actor"
    if a.total == o.total:
        return "tie"
    return "actor" if a.total > o.total else "opponent"


# ---------------------------------------------------------------- kind: attack


def _read_attack(reader: Reader) -> tuple[_Roller, _Roller | None, bool]:
    actor = _read_roller(reader.sub("actor_"))
    reacts = reader.bool("defender_reacts", True)
    opponent = None
    if reacts:
        opponent = _read_roller(reader.sub("opponent_"))
    else:
        for key in reader.request:
            if isinstance(key, str) and key.startswith("opponent_"):
                raise RequestError(key, "defender_passive")
    open_negative = reader.bool("open_negative_die", False)
    return actor, opponent, open_negative


def _attack_outcome(a: _Roll, o: _Roll | None) -> tuple[str, bool]:
    """R8–R10: reach 7 and exceed an active defender; a defender's initial 1 only needs the 7."""
    if a.fumble:
        return ("critical_failure" if a.failure == "critical" else "automatic_failure"), False
    hit = a.total >= PAR_DEFAUT and (o is None or o.fumble or a.total > o.total)
    if not hit:
        return "failure", False
    return ("critical_success" if a.total >= ATTACK_CRITICAL else "success"), True


def _resolve_attack(reader: Reader, rng: random.Random) -> dict:
    actor, opponent, open_negative = _read_attack(reader)
    forced = forced_mode(reader, ACTOR_DICE if opponent is None else OPPOSED_DICE)
    a = _roll_side(reader.sub("actor_"), actor, rng, forced, open_negative)
    o = _roll_side(reader.sub("opponent_"), opponent, rng, forced, open_negative) if opponent else None
    outcome, hit = _attack_outcome(a, o)
    opp_fields = o.fields("opponent_") if o else {
        "opponent_effective_die": None, "opponent_die_total": None, "opponent_explosions": None,
        "opponent_providence_roll": None, "opponent_negative_roll": None, "opponent_skill": None,
        "opponent_negative_die": None, "opponent_providence_die": None,
        "opponent_providence_die_after": None,
        "opponent_dice": [], "opponent_providence_dice": [], "opponent_negative_dice": [],
    }
    return {
        "outcome": outcome,
        "hit": hit,
        "actor_total": a.total,
        "opponent_total": o.total if o else None,
        "actor_failure": a.failure,
        "opponent_failure": o.failure if o else "none",
        "actor_xp": 1 if outcome in ("critical_success", "critical_failure") else 0,
        "opponent_xp": 1 if o and o.failure == "critical" else 0,
        "defender_reacts": opponent is not None,
        **a.fields("actor_"),
        **opp_fields,
        "open_negative_die": open_negative,
    }


# ---------------------------------------------------------------- exact odds
#
# A side's total, when its initial die is not a 1, is T = X + skill + Q: X the open die with
# its first face in 2..d, Q the Providence die (uniform 1..p) or 0. Everything is kept as
# integer numerators over a common denominator and turned into a Fraction at the end.


class _Side:
    """Exact distribution of one side's non-fumble total, as integer numerators."""

    __slots__ = ("d", "skill", "p", "qs", "v0", "lo")

    def __init__(self, roller: _Roller) -> None:
        self.d = roller.effective_die
        self.skill = roller.skill
        self.p = roller.providence_die if roller.use_providence else 0
        self.qs = range(1, self.p + 1) if self.p else range(0, 1)
        # From v0 on, every Providence face leaves an open-die value of 2 or more, where both the
        # pmf and the survival obey f(v + d) = f(v) / d (one more maximum to roll first).
        self.v0 = self.skill + self.qs[-1] + 2
        self.lo = self.skill + self.qs[0] + 2       # lowest non-fumble total

    def levels(self, v_max: int) -> int:
        """Open-die depth K so that every value up to v_max is expressed over d^(K+1)."""
        u = v_max - self.skill - self.qs[0]
        return max(0, (u - 1) // self.d)

    def den(self, k: int) -> int:
        return self.d ** (k + 1) * len(self.qs)

    def _x_pmf(self, u: int, k: int) -> int:
        """Numerator over d^(k+1) of P(X = u, first face not 1)."""
        d = self.d
        return d ** (k - u // d) if u >= 2 and u % d else 0

    def _x_surv(self, u: int, k: int) -> int:
        """Numerator over d^(k+1) of P(X >= u, first face not 1): the first j faces at the maximum."""
        d = self.d
        if u <= 2:
            return (d - 1) * d ** k
        j = (u - 1) // d
        return (d - (u - j * d) + 1) * d ** (k - j)

    def surv(self, t: int, k: int) -> int:
        """Numerator of P(T >= t, no initial 1) over den(k)."""
        base = t - self.skill
        return sum(self._x_surv(base - q, k) for q in self.qs)

    def window(self, lo: int, hi: int, k: int, which: str) -> list[int]:
        """Numerators of the pmf ("pmf") or survival ("surv") of T for v in [lo, hi), over den(k).

        The Providence die is a window sum over the open die's values (prefix sums).
        """
        q0, q1 = self.qs[0], self.qs[-1]
        u_lo, u_hi = lo - self.skill - q1, hi - self.skill - q0       # open-die values needed
        x = self._x_pmf if which == "pmf" else self._x_surv
        prefix = [0]
        acc = 0
        for u in range(u_lo, u_hi):
            acc += x(u, k)
            prefix.append(acc)
        width = q1 - q0 + 1
        # v = lo + i needs u in [lo + i - s - q1, lo + i - s - q0] = prefix indices [i, i + width).
        return [prefix[i + width] - prefix[i] for i in range(hi - lo)]

    def surv_exact(self, t: int) -> Fraction:
        k = self.levels(t)
        return Fraction(self.surv(t, k), self.den(k))


def _pair_sum(b: _Side, a: _Side, start: int, shift: int, mode: str) -> Fraction:
    """Σ_{v ≥ start} P(B = v) · H_A(v + shift), H = survival ("surv") or pmf ("pmf") of A.

    Past v0 both factors shrink by a fixed ratio per lcm(d_a, d_b) steps, so the infinite sum
    is the sum up to the first full period plus that period over (1 − ratio): exact.
    """
    start = max(start, b.lo)
    # From `first` on, both factors are periodic: B's value past its v0, A's argument v + shift past its own.
    a_start = a.v0 - shift if mode == "surv" else a.v0 - min(shift, 0)
    first = max(start, b.v0, a_start)
    period = lcm(a.d, b.d)
    end = first + period
    kb = b.levels(end)
    ka = a.levels(end + shift)
    fb = b.window(start, end, kb, "pmf")
    ha = a.window(start + shift, end + shift, ka, mode)
    split = first - start
    head = sum(x * y for x, y in zip(fb[:split], ha[:split]))
    tail = sum(x * y for x, y in zip(fb[split:], ha[split:]))
    den = b.den(kb) * a.den(ka)
    big = a.d ** (period // a.d) * b.d ** (period // b.d)     # 1 / ratio
    return Fraction(head * (big - 1) + tail * big, den * (big - 1))


def _below(b: _Side, t: int) -> Fraction:
    """P(B <= t, no initial 1)."""
    return Fraction(b.d - 1, b.d) - b.surv_exact(t + 1)


def _negative_beats(negative_die: int, skill: int, open_negative: bool) -> Fraction:
    """R16, R18: chance that the negative roll is above the skill."""
    n = negative_die
    if not open_negative:
        return Fraction(max(0, n - skill), n)
    u = skill + 1                  # open die, any first face: P(Y >= u) = n^-j (n - r + 1) / n
    j = (u - 1) // n
    return Fraction(n - (u - j * n) + 1, n ** (j + 1))


def _fumble_split(roller: _Roller, open_negative: bool) -> tuple[Fraction, Fraction]:
    """(critical_failure, automatic_failure) probabilities of one side."""
    fumble = Fraction(1, roller.effective_die)
    critical = fumble * _negative_beats(roller.negative_die, roller.skill, open_negative)
    return critical, fumble - critical


def simple_odds_exact(roller: _Roller, difficulty: int, open_negative: bool = False) -> dict[str, Fraction]:
    crit_fail, auto_fail = _fumble_split(roller, open_negative)
    side = _Side(roller)
    reach = side.surv_exact(difficulty)
    crit = side.surv_exact(2 * difficulty)
    clean = Fraction(side.d - 1, side.d)
    return {
        "critical_success": crit,
        "success": reach - crit,
        "failure": clean - reach,
        "automatic_failure": auto_fail,
        "critical_failure": crit_fail,
    }


def opposed_odds_exact(actor: _Roller, opponent: _Roller) -> dict[str, Fraction]:
    a, o = _Side(actor), _Side(opponent)
    fa, fo = Fraction(1, a.d), Fraction(1, o.d)
    win = (1 - fa) * fo + _pair_sum(o, a, o.lo, 1, "surv")
    lose = fa * (1 - fo) + _pair_sum(a, o, a.lo, 1, "surv")
    tie = fa * fo + _pair_sum(o, a, o.lo, 0, "pmf")
    return {"actor": win, "tie": tie, "opponent": lose}


def attack_odds_exact(actor: _Roller, opponent: _Roller | None,
                      open_negative: bool = False) -> dict[str, Fraction]:
    crit_fail, auto_fail = _fumble_split(actor, open_negative)
    a = _Side(actor)
    clean = Fraction(a.d - 1, a.d)

    def hits(m: int) -> Fraction:
        """P(no initial 1, A >= m and the attack beats the defence)."""
        if opponent is None:
            return a.surv_exact(m)
        o = _Side(opponent)
        fo = Fraction(1, o.d)
        # A defender's initial 1 needs only the threshold (R10); else A > B as well (R8).
        beaten = _below(o, m - 2) * a.surv_exact(m) + _pair_sum(o, a, m - 1, 1, "surv")
        return fo * a.surv_exact(m) + beaten

    hit = hits(PAR_DEFAUT)
    crit = hits(ATTACK_CRITICAL)
    return {
        "critical_success": crit,
        "success": hit - crit,
        "failure": clean - hit,
        "automatic_failure": auto_fail,
        "critical_failure": crit_fail,
    }


def _policy(*rollers: _Roller) -> str:
    """The Providence choice used for random rolls and odds (as given in the request)."""
    def word(r: _Roller) -> str:
        return "providence" if r.use_providence else "no providence"
    if len(rollers) == 1:
        return word(rollers[0])
    return "; ".join(f"{name}: {word(r)}" for name, r in zip(("actor", "opponent"), rollers))


def _floats(probs: Mapping[str, Fraction]) -> dict[str, float]:
    return {k: float(v) for k, v in probs.items()}


def _odds_simple(reader: Reader) -> dict:
    roller, difficulty, open_negative = _read_simple(reader)
    return {"outcome": _floats(simple_odds_exact(roller, difficulty, open_negative)),
            "policy": _policy(roller)}


def _odds_opposed(reader: Reader) -> dict:
    _, _, actor, opponent, _ = _read_opposed(reader)     # R18 changes nothing of who wins (R7)
    return {"winner": _floats(opposed_odds_exact(actor, opponent)), "policy": _policy(actor, opponent)}


def _odds_attack(reader: Reader) -> dict:
    actor, opponent, open_negative = _read_attack(reader)
    policy = _policy(actor, opponent) if opponent else _policy(actor)
    return {"outcome": _floats(attack_odds_exact(actor, opponent, open_negative)), "policy": policy}


# ---------------------------------------------------------------- luck (the chance of doing at least as well)
#
# Providence is used or not as the request says (the choice made). An initial 1 is worse than
# any total: a critical failure (R16) below an automatic one (R15).


def _luck_simple(reader: Reader) -> LuckOf:
    """Skill test: a higher total is luckier; an initial 1 is worse than any total, a critical
    failure worst. Providence as the request uses it (the choice made)."""
    roller, _difficulty, open_negative = _read_simple(reader)
    critical, _automatic = _fumble_split(roller, open_negative)
    side = _Side(roller)

    def luck(result: Mapping) -> float:
        if result["outcome"] == "critical_failure":
            return 1.0
        if result["outcome"] == "automatic_failure":
            return probability(1 - critical)
        return probability(side.surv_exact(result["total"]))

    return luck


def _luck_opposed(reader: Reader) -> Luck:
    """Opposition: who wins first (R5–R7). The actor's initial 1 alone is the worst, a critical
    failure (R16) below an automatic one; the opponent's alone the best, its critical failure
    above its automatic one. Otherwise (neither or both initial 1s) the margin, two initial 1s
    standing as a margin of 0 with the worse failure for the one whose negative die beat the skill.
    Each side's Providence as the request uses it (the choice made). The opponent's luck reverses
    the order."""
    _, _, actor, opponent, open_negative = _read_opposed(reader)
    a, o = _Side(actor), _Side(opponent)
    fa, fo = Fraction(1, a.d), Fraction(1, o.d)
    a_crit, _ = _fumble_split(actor, open_negative)
    o_crit, _ = _fumble_split(opponent, open_negative)
    a_auto, o_auto = fa - a_crit, fo - o_crit
    # Two initial 1s, by who failed worse: (opponent critical) - (actor critical), -1..1.
    both = {-1: a_crit * o_auto, 0: a_crit * o_crit + a_auto * o_auto, 1: a_auto * o_crit}
    top = {0: (1 - fa) * o_auto, 1: (1 - fa) * o_crit}          # the opponent's initial 1 alone
    bottom = {0: a_crit * (1 - fo), 1: a_auto * (1 - fo)}       # the actor's initial 1 alone
    known: dict[tuple[int, int, int], tuple[Fraction, Fraction]] = {}

    def key(result: Mapping) -> tuple[int, int, int]:
        a1, o1 = result["actor_dice"][0] == 1, result["opponent_dice"][0] == 1
        a_worse = int(result["actor_failure"] == "critical")
        o_worse = int(result["opponent_failure"] == "critical")
        if a1 and not o1:
            return 0, 1 - a_worse, 0
        if o1 and not a1:
            return 2, o_worse, 0
        if a1:
            return 1, 0, o_worse - a_worse
        return 1, result["margin"], 0

    def at_least(k: tuple[int, int, int]) -> Fraction:
        """P(a result at least as good as key k)."""
        level, value, sub = k
        if level == 2:
            return sum((p for v, p in top.items() if v >= value), Fraction(0))
        upper = sum(top.values(), Fraction(0))
        if level == 0:
            return upper + (1 - fa) * (1 - fo) + sum(both.values(), Fraction(0)) + \
                sum((p for v, p in bottom.items() if v >= value), Fraction(0))
        # Neither fumbles and A - O >= value (strictly above when sub > 0); both fumble: margin 0.
        clean = _pair_sum(o, a, o.lo, value + (1 if sub > 0 else 0), "surv")
        if value < 0:
            doubled = sum(both.values(), Fraction(0))
        elif value == 0:
            doubled = sum((p for v, p in both.items() if v >= sub), Fraction(0))
        else:
            doubled = Fraction(0)
        return upper + clean + doubled

    def mass(k: tuple[int, int, int]) -> Fraction:
        """P(a result whose key is k)."""
        level, value, sub = k
        if level == 2:
            return top[value]
        if level == 0:
            return bottom[value]
        same = _pair_sum(o, a, o.lo, value, "pmf") if sub == 0 else Fraction(0)
        return same + (both[sub] if value == 0 else Fraction(0))

    def both_sides(result: Mapping) -> tuple[Fraction, Fraction]:
        k = key(result)
        if k not in known:
            up = at_least(k)
            known[k] = (up, 1 - up + mass(k))
        return known[k]

    return Luck(lambda result: probability(both_sides(result)[0]), lambda result: probability(both_sides(result)[1]))


_ATTACK_RANK = {"critical_failure": 0, "automatic_failure": 1, "failure": 2, "success": 3, "critical_success": 4}


def _luck_attack(reader: Reader) -> Luck:
    """Attack: the outcome first (critical hit, hit, miss, automatic then critical failure), then
    the attacker's total. Providence as the request uses it (the choice made). A defender who
    reacts rolled dice too: their luck is the same order reversed (none without reaction)."""
    actor, opponent, open_negative = _read_attack(reader)
    critical, _automatic = _fumble_split(actor, open_negative)
    a = _Side(actor)
    o = _Side(opponent) if opponent is not None else None
    known: dict[int, Fraction] = {}

    def hits(m: int) -> Fraction:
        """P(no initial 1, total >= m and the attack beats the defence), as attack_odds_exact."""
        if m not in known:
            if o is None:
                known[m] = a.surv_exact(m)
            else:
                beaten = _below(o, m - 2) * a.surv_exact(m) + _pair_sum(o, a, m - 1, 1, "surv")
                known[m] = Fraction(1, o.d) * a.surv_exact(m) + beaten
        return known[m]

    def at_least(outcome: str, total: int) -> Fraction:
        if outcome == "critical_failure":
            return Fraction(1)
        if outcome == "automatic_failure":
            return 1 - critical
        if outcome in ("success", "critical_success"):
            return hits(total)
        return hits(PAR_DEFAUT) + a.surv_exact(total) - hits(max(total, PAR_DEFAUT))

    def mass(outcome: str, total: int) -> Fraction:
        if outcome == "critical_failure":
            return critical
        if outcome == "automatic_failure":
            return Fraction(1, a.d) - critical
        hit = hits(total) - hits(total + 1) if total >= PAR_DEFAUT else Fraction(0)   # below 7: no hit
        if outcome in ("success", "critical_success"):
            return hit
        return a.surv_exact(total) - a.surv_exact(total + 1) - hit

    def luck(result: Mapping) -> float:
        return probability(at_least(result["outcome"], result["actor_total"]))

    def defender(result: Mapping) -> float | None:
        if o is None:
            return None
        outcome, total = result["outcome"], result["actor_total"]
        return probability(1 - at_least(outcome, total) + mass(outcome, total))

    return Luck(luck, defender)


# ---------------------------------------------------------------- describe


def _difficulty_words(value: int) -> str:
    label = difficulty_label(value)        # the game's own label ("Moyenne"), in every language
    return (_("threshold {value} ({label})").format(value=value, label=label) if label
            else _("threshold {value}").format(value=value))


def _side_groups(result: Mapping[str, Any], p: str, who: str) -> list[DiceGroup]:
    """The characteristic die chain, the Providence die and the negative die of one side."""
    groups: list[DiceGroup] = []
    dice = result.get(f"{p}dice") or []
    sides = result.get(f"{p}effective_die") or (max(dice) if dice else 0)
    skill = result.get(f"{p}skill") or 0
    if dice:
        faces = []
        for i, face in enumerate(dice):
            if i == 0 and face == 1:
                status = "fumble"
            elif face == sides:
                status = "exploded"
            else:
                status = "counted"
            faces.append(Die(face, sides, status))
        label = f"{who} D{sides}" if who else pgettext("dice group", "characteristic die D{sides}").format(sides=sides)
        groups.append(DiceGroup(label, tuple(faces), sum(dice)))
    prov = result.get(f"{p}providence_dice") or []
    if prov:
        prov_sides = result.get(f"{p}providence_die") or max(prov)
        label = f"{who} Providence D{prov_sides}" if who else f"Providence D{prov_sides}"
        groups.append(DiceGroup(label, tuple(Die(f, prov_sides, "counted") for f in prov), sum(prov)))
    neg = result.get(f"{p}negative_dice") or []
    if neg:
        neg_sides = result.get(f"{p}negative_die") or max(neg)
        critical = sum(neg) > skill
        last = len(neg) - 1
        neg_faces = tuple(
            Die(f, neg_sides, "exploded" if (i < last and f == neg_sides) else ("fumble" if critical else "plain"))
            for i, f in enumerate(neg)
        )
        label = (pgettext("dice group", "{who} negative die D{sides}").format(who=who, sides=neg_sides) if who
                 else pgettext("dice group", "negative die D{sides}").format(sides=neg_sides))
        groups.append(DiceGroup(label, neg_faces, sum(neg)))
    return groups


def _sum_words(result: Mapping[str, Any], p: str) -> str:
    """'7 + 2 (Providence) + 5 = 14'."""
    parts = [str(result.get(f"{p}die_total"))]
    prov = result.get(f"{p}providence_roll")
    if prov is not None:
        parts.append(f"{prov} (Providence)")
    parts.append(str(result.get(f"{p}skill", 0)))
    return " + ".join(parts) + f" = {result.get(f'{p}total', result.get('total'))}"


def _failure_words(result: Mapping[str, Any], p: str) -> str:
    failure = result.get(f"{p}failure", "none")
    skill = result.get(f"{p}skill", 0)
    neg = result.get(f"{p}negative_roll")
    if failure == "critical":
        return _("initial 1, negative die {roll} > {skill}: critical failure").format(roll=neg, skill=skill)
    if failure == "automatic":
        return _("initial 1, negative die {roll} ≤ {skill}: automatic failure").format(roll=neg, skill=skill)
    return ""


def describe(result: dict) -> Description:
    """The roll in the game's words: headline, one-line detail, every die with its status."""
    kind = result.get("kind") or ("opposed" if "winner" in result else "attack" if "hit" in result else "simple")
    if kind == "opposed":
        return _describe_opposed(result)
    if kind == "attack":
        return _describe_attack(result)
    return _describe_simple(result)


def _describe_simple(result: Mapping[str, Any]) -> Description:
    outcome = result["outcome"]
    difficulty = result.get("difficulty", result["total"] - result["margin"])
    sums = " + ".join(
        [str(result["die_total"])]
        + ([f"{result['providence_roll']} (Providence)"] if result.get("providence_roll") is not None else [])
        + [str(result.get("skill", result["total"] - result["die_total"] - (result.get("providence_roll") or 0)))]
    )
    detail = _("{sums} = {total} against {difficulty} · margin {margin}").format(
        sums=sums, total=result["total"], difficulty=_difficulty_words(difficulty), margin=margin(result["margin"]))
    if result.get("negative_roll") is not None:
        skill = result.get("skill", 0)
        sign = ">" if outcome == "critical_failure" else "≤"
        detail += " · " + _("initial 1, negative die {roll} {sign} {skill}").format(
            roll=result["negative_roll"], sign=sign, skill=skill)
    if result.get("xp"):
        detail += " · +1 XP"
    if result.get("providence_roll") is not None:
        detail += " · " + _("Providence goes from D{before} to {after}").format(
            before=result.get("providence_die", "?"),
            after=_providence_name(result["providence_die_after"], result.get("gender")))
    return Description(
        headline=_(OUTCOME_WORDS[outcome]),
        detail=detail,
        groups=tuple(_side_groups(result, "", "")),
        good=outcome in ("success", "critical_success"),
    )


def _providence_name(die: int, gender: str | None = None) -> str:
    """"D4 (Pauvre pécheur)", in the bearer's gender when the table says it (`gender` = "f", a
    key the table adds to the result it logs: "D4 (Pauvre pécheresse)")."""
    name = providence_level(die, gender if isinstance(gender, str) else None)
    return f"D{die} ({name})" if die and name else (name or f"D{die}")


def _describe_opposed(result: Mapping[str, Any]) -> Description:
    winner = result["winner"]
    actor, opponent = pgettext("dice group", "actor"), pgettext("dice group", "opponent")
    detail = _("actor {actor} against opponent {opponent} · margin {margin}").format(
        actor=_sum_words(result, "actor_"), opponent=_sum_words(result, "opponent_"), margin=margin(result["margin"]))
    for p, who in (("actor_", actor), ("opponent_", opponent)):
        words = _failure_words(result, p)
        if words:
            detail += " · " + _("{who}: {words}").format(who=who, words=words)
        if result.get(f"{p}xp"):
            detail += f" · {who} +1 XP"
    groups = _side_groups(result, "actor_", actor) + _side_groups(result, "opponent_", opponent)
    good = {"actor": True, "opponent": False}.get(winner)
    return Description(_(OUTCOME_WORDS[winner]), detail, tuple(groups), good)


_ATTACK_WORDS = {
    "critical_success": N_("hit (critical success)"),
    "success": N_("hit"),
    "failure": N_("miss"),
    "automatic_failure": N_("miss (automatic failure)"),
    "critical_failure": N_("miss (critical failure)"),
}


def _describe_attack(result: Mapping[str, Any]) -> Description:
    outcome = result["outcome"]
    attack = _sum_words(result, "actor_")
    if result.get("opponent_total") is None:
        detail = _("attack {attack} · defender does not react: {needed} needed").format(
            attack=attack, needed=PAR_DEFAUT)
    else:
        detail = _("attack {attack} against defence {defence}").format(
            attack=attack, defence=_sum_words(result, "opponent_"))
        if result.get("opponent_failure", "none") != "none":
            detail += " · " + _("defence: {words}, {needed} is enough").format(
                words=_failure_words(result, "opponent_"), needed=PAR_DEFAUT)
        else:
            detail += " · " + _("{needed} needed and more than the defence").format(needed=PAR_DEFAUT)
    words = _failure_words(result, "actor_")
    if words:
        detail += " · " + _("attack: {words}").format(words=words)
    if result.get("actor_xp"):
        detail += " · " + _("attacker +1 XP")
    if result.get("opponent_xp"):
        detail += " · " + _("defender +1 XP")
    groups = (_side_groups(result, "actor_", pgettext("dice group", "attack"))
              + _side_groups(result, "opponent_", pgettext("dice group", "defence")))
    return Description(_(_ATTACK_WORDS[outcome]), detail, tuple(groups), bool(result.get("hit")))


# ---------------------------------------------------------------- the system

SIMPLE_DICE = ("dice", "providence_dice", "negative_dice")
ACTOR_DICE = tuple("actor_" + f for f in SIMPLE_DICE)
OPPONENT_DICE = tuple("opponent_" + f for f in SIMPLE_DICE)
OPPOSED_DICE = ACTOR_DICE + OPPONENT_DICE

_SIMPLE_FIELDS = _ROLLER_SPECS + (
    FieldSpec("difficulty", "int", 1, MAX_DIFFICULTY, required=True,
              help="difficulty threshold: Facile 5, Par défaut 7, Malaisé 9, Périlleux 13"),
    _OPEN_NEGATIVE,
) + _ROLLER_DICE

_OPPOSED_FIELDS = (
    _prefixed(_ROLLER_SPECS, "actor_", "actor")
    + _prefixed(_ROLLER_SPECS, "opponent_", "opponent")
    + (_OPEN_NEGATIVE,)
    + _prefixed(_ROLLER_DICE, "actor_", "actor")
    + _prefixed(_ROLLER_DICE, "opponent_", "opponent")
)

_ATTACK_FIELDS = (
    _prefixed(_ROLLER_SPECS, "actor_", "attacker")
    + (FieldSpec("defender_reacts", "bool", default=True,
                 help="false: defender without reaction (no opponent_ field then)"),)
    + _prefixed(_ROLLER_SPECS, "opponent_", "defender (when reacting)")
    + (_OPEN_NEGATIVE,)
    + _prefixed(_ROLLER_DICE, "actor_", "attacker")
    + _prefixed(_ROLLER_DICE, "opponent_", "defender")
)

KINDS = {
    "simple": Kind("simple", "skill test", _resolve_simple, _odds_simple, _SIMPLE_FIELDS,
                   SIMPLE_DICE, policy="use_providence", check=_read_simple,
                   luck=_luck_simple),
    "opposed": Kind("opposed", "opposed test", _resolve_opposed, _odds_opposed, _OPPOSED_FIELDS,
                    OPPOSED_DICE, contest=True, policy="use_providence", check=_read_opposed,
                    luck=_luck_opposed),
    "attack": Kind("attack", "attack", _resolve_attack, _odds_attack, _ATTACK_FIELDS,
                   OPPOSED_DICE, policy="use_providence", check=_read_attack,
                   luck=_luck_attack),
}

SYSTEM = System.of_module(globals(), game="Te Deum pour un massacre", gm="MJ",
    dice="open characteristic die D4–D20 + skill ≥ threshold; Providence die; negative die after a 1",
    difficulty_field="difficulty",
    difficulty_fields=frozenset({"difficulty", "margin"}),
    rule_options={"open_negative_die": (False, True)},
)
