"""Shared plumbing of the rules core: request reading, dice sources, system descriptions.

Every system module builds on these pieces so that a bad request is refused the same
way everywhere (one `RequestError` naming the key) and forced dice are consumed exactly.
"""

from __future__ import annotations

import abc
import builtins
import random
from dataclasses import field
from typing import Any, Callable, Iterable, Mapping, Sequence

from .errors import RequestError  # a code and its parameters
from .records import record

_REQUIRED = object()


class Reader:
    """Reads typed, range-checked fields from a request and remembers which keys were used.

    `Reader.sub("actor_")` reads prefixed fields into the same bookkeeping, so `finish()`
    can report the first key nobody asked for.
    """

    def __init__(self, request: Mapping[str, Any], prefix: str = "", _used: set[str] | None = None):
        if not isinstance(request, Mapping):
            raise RequestError("request", "expected_table", value=request)
        self.request: Mapping[Any, Any] = request     # (a Python caller's keys may be anything)
        self.prefix = prefix
        self.used: set[str] = _used if _used is not None else set()

    def sub(self, prefix: str) -> "Reader":
        return Reader(self.request, self.prefix + prefix, self.used)

    def key(self, name: str) -> str:
        return self.prefix + name

    def has(self, name: str) -> bool:
        return self.key(name) in self.request

    def raw(self, name: str, default: Any = None) -> Any:
        key = self.key(name)
        self.used.add(key)
        return self.request.get(key, default)

    def int(self, name: str, lo: int, hi: int, default: Any = _REQUIRED) -> int:
        key = self.key(name)
        self.used.add(key)
        if key not in self.request:
            if default is _REQUIRED:
                raise RequestError(key, "required_int", lo=lo, hi=hi)
            return default
        value = self.request[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise RequestError(key, "expected_int", lo=lo, hi=hi, value=value)
        if not lo <= value <= hi:
            raise RequestError(key, "out_of_range", lo=lo, hi=hi, value=value)
        return value

    def bool(self, name: str, default: bool | None = None) -> bool:
        key = self.key(name)
        self.used.add(key)
        if key not in self.request:
            if default is None:
                raise RequestError(key, "required_bool")
            return default
        value = self.request[key]
        if not isinstance(value, bool):
            raise RequestError(key, "expected_bool", value=value)
        return value

    def choice(self, name: str, choices: Sequence[Any], default: Any = _REQUIRED, of: type = str) -> Any:
        """One of `choices`, each of type `of` (str words, or int die sizes: a bool is never one)."""
        key = self.key(name)
        self.used.add(key)
        if key not in self.request:
            if default is _REQUIRED:
                raise RequestError(key, "required_choice", choices=tuple(choices))
            return default
        value = self.request[key]
        if isinstance(value, bool) or not isinstance(value, of) or value not in choices:
            raise RequestError(key, "expected_choice", choices=tuple(choices), value=value)
        return value

    # (below, `int` in a signature would name the method above: hence `builtins.int`)
    def int_list(self, name: str, lo: builtins.int, hi: builtins.int, min_len: builtins.int = 0,
                 max_len: builtins.int = 100, default: Any = _REQUIRED) -> list[builtins.int]:
        key = self.key(name)
        self.used.add(key)
        if key not in self.request:
            if default is _REQUIRED:
                raise RequestError(key, "required_int_list", min_len=min_len, max_len=max_len, lo=lo, hi=hi)
            return list(default)
        value = self.request[key]
        if not isinstance(value, (list, tuple)):
            raise RequestError(key, "expected_int_list", value=value)
        if not min_len <= len(value) <= max_len:
            raise RequestError(key, "list_length", min_len=min_len, max_len=max_len, got=len(value))
        for item in value:
            if isinstance(item, bool) or not isinstance(item, int) or not lo <= item <= hi:
                raise RequestError(key, "expected_list_items", lo=lo, hi=hi, value=item)
        return list(value)

    def dice(self, name: str, max_len: builtins.int = 1000) -> list[builtins.int] | None:
        """A forced dice list (faces checked later by `ForcedDice`), or None when absent."""
        key = self.key(name)
        self.used.add(key)
        if key not in self.request:
            return None
        value = self.request[key]
        if not isinstance(value, (list, tuple)):
            raise RequestError(key, "expected_dice", value=value)
        if len(value) > max_len:
            raise RequestError(key, "dice_limit", max=max_len, got=len(value))
        for item in value:
            if isinstance(item, bool) or not isinstance(item, int):
                raise RequestError(key, "expected_face", value=item)
        return list(value)

    def dice_lists(self, name: str, max_lists: builtins.int = 100,
                   max_len: builtins.int = 100) -> list[list[builtins.int]] | None:
        """A list of forced dice lists (MIR `rolls`, `helper_dice`), or None when absent."""
        key = self.key(name)
        self.used.add(key)
        if key not in self.request:
            return None
        value = self.request[key]
        if not isinstance(value, (list, tuple)) or len(value) > max_lists:
            raise RequestError(key, "expected_dice_lists", max=max_lists)
        out = []
        for sub in value:
            if not isinstance(sub, (list, tuple)) or len(sub) > max_len:
                raise RequestError(key, "expected_dice_list", value=sub)
            for item in sub:
                if isinstance(item, bool) or not isinstance(item, int):
                    raise RequestError(key, "expected_list_face", value=item)
            out.append(list(sub))
        return out

    def forbid(self, *names: str, code: str, **params: Any) -> None:
        """Refuse keys that must not appear in this situation (first one present is named)."""
        for name in names:
            key = self.key(name)
            if key in self.request:
                raise RequestError(key, code, **params)

    def finish(self) -> None:
        """Refuse any key that no reader asked for."""
        for key in self.request:
            if key not in self.used:
                raise RequestError(key, "unknown_field")


# ---------------------------------------------------------------- dice sources


class DiceSource(abc.ABC):
    """Where faces come from: `roll(sides, low)` returns one face from low to low+sides-1."""

    @abc.abstractmethod
    def roll(self, sides: int, low: int = 1) -> int:
        """One face, from `low` to `low + sides - 1`."""

    def done(self) -> None:
        """Called once the resolution is over: forced sources refuse leftover dice."""


class RandomDice(DiceSource):
    """Seeded or fresh `random.Random`; every face it gives is recorded in `faces`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.faces: list[int] = []

    def roll(self, sides: int, low: int = 1) -> int:
        face = low + int(self.rng.random() * sides)
        self.faces.append(face)
        return face


class ForcedDice(DiceSource):
    """Faces typed in by the GM or given by a test, consumed exactly, in order.

    Too few faces, too many faces, or a face the die cannot show raise `RequestError`
    naming `field`.
    """

    def __init__(self, faces: Sequence[int], field: str) -> None:
        self.faces = list(faces)
        self.field = field
        self.pos = 0

    def roll(self, sides: int, low: int = 1) -> int:
        if self.pos >= len(self.faces):
            raise RequestError(self.field, "too_few_dice", given=len(self.faces))
        face = self.faces[self.pos]
        high = low + sides - 1
        if not low <= face <= high:
            raise RequestError(self.field, "impossible_face", face=face, lo=low, hi=high)
        self.pos += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.pos

    def done(self) -> None:
        if self.pos != len(self.faces):
            raise RequestError(self.field, "too_many_dice", given=len(self.faces), used=self.pos)

    @property
    def used(self) -> list[int]:
        return self.faces[: self.pos]


def make_rng(seed: int | None) -> random.Random:
    return random.Random(seed)


# ---------------------------------------------------------------- descriptions for the screen


@record(frozen=True)
class Stat:
    """One value on a character sheet (a Voie, a skill, a characteristic die, a resource)."""

    key: str                      # ASCII slug used in files and requests ("heritage")
    label: str                    # French name shown on screen ("Héritage")
    lo: int = 0
    hi: int = 0
    choices: tuple[int, ...] = ()  # allowed values when not a plain range (Te Deum dice)
    default: int = 0
    parent: str | None = None     # key of the stat this one depends on (MIR skill -> Voie)
    gloss: str = ""               # short English gloss for help screens

    def allows(self, value: int) -> bool:
        if self.choices:
            return value in self.choices
        return self.lo <= value <= self.hi

    def expected(self) -> str:
        if self.choices:
            return "one of " + ", ".join(str(c) for c in self.choices)
        return f"an integer from {self.lo} to {self.hi}"


@record(frozen=True)
class StatGroup:
    """A block of the sheet. Fixed groups list their stats; free groups take any names.

    A free group with `parent_group` is stored as one sub-table per parent key
    (Te Deum: skills under the characteristic they depend on).
    """

    key: str                          # "voies", "skills", "characteristics", "resources", ...
    label: str                        # French heading
    stats: tuple[Stat, ...] = ()
    free: Stat | None = None          # template (range, default) for free-named entries
    parent_group: str | None = None   # free entries are grouped under keys of this group
    required: bool = True             # fixed groups: every stat must be given


@record(frozen=True)
class Difficulty:
    """One row of the system's difficulty table: its label in the rules' own (French) words;
    its note, and an extra table's labels, English msgids said with `_` where shown."""

    label: str
    value: int | None          # None: no roll (MIR Triviale is value 0 with note)
    note: str = ""


@record(frozen=True)
class FieldSpec:
    """One request field of a kind, for the screen's forms, help and CLI flags."""

    name: str
    type: str                  # "int", "bool", "str", "dice", "int_list", "dice_lists"
    lo: int | None = None
    hi: int | None = None
    choices: tuple[Any, ...] = ()
    default: Any = None        # None with required=True means required
    required: bool = False
    help: str = ""


@record(frozen=True)
class Kind:
    """One test kind of a system: how to resolve it, how to compute its odds, its fields."""

    name: str
    label: str                                  # English msgid ("simple test"), said with `_`
    resolve: Callable[[Reader, random.Random], dict]
    odds: Callable[[Reader], dict]
    fields: tuple[FieldSpec, ...]
    dice_fields: tuple[str, ...]                # every forced-dice field, main and conditional
    contest: bool = False                       # reports `winner` rather than `outcome`
    policy: str | None = None                   # name of the choice policy field, if any
    # Reads every field exactly as `odds` does (same errors, same order) and computes nothing:
    # `gmscreen.rules.check` validates a line on each keystroke with it. None (a kind that
    # does not split its reading out): `check` computes the odds instead.
    check: Callable[[Reader], object] | None = None
    # Reads the request (no dice) as `odds` does and returns the function that gives a resolved
    # outcome its `luck` (None for an outcome rolled with no die), or a `gmscreen.rules.luck.Luck`
    # holding that and the opponent's (`opponent_luck`); None: the kind's outcomes carry no luck.
    # The order each kind uses, over the whole roll under its policy: gmscreen/docs/luck.md.
    luck: Callable[[Reader], Any] | None = None


@record(frozen=True)
class System:
    id: str
    game: str                 # "MIR", "Éclats", ...
    dice: str                 # short description of the die mechanic (English msgid, said with `_`)
    gm: str                   # what the GM is called
    kinds: Mapping[str, Kind]
    sheet: tuple[StatGroup, ...]
    difficulties: tuple[Difficulty, ...]
    difficulty_field: str     # request field the difficulty table sets ("difficulty", "threshold")
    # outcome -> its words: English msgids said with `_` where shown (a plugin's own words stay as given)
    outcome_words: Mapping[str, str] = field(default_factory=dict)
    extra_tables: tuple[tuple[str, tuple[Difficulty, ...]], ...] = ()  # e.g. MIR Temporalité
    describe: Callable[[dict], "Description"] | None = None   # outcome mapping -> words and dice
    # How the game words a described result (gmscreen.play.render): a die status -> the game's
    # own word where it has one ("success" for a counted MIR die, said with pgettext("die")), the
    # unit after a group's total (" successes", pgettext("total unit")), and what the table calls
    # the difficulty ("SD", "seuil": the game's own word, never translated).
    die_words: Mapping[str, str] = field(default_factory=dict)
    total_unit: str = ""
    total_unit_one: str = ""       # the unit after a total of ±1 (" success"); "": `total_unit`
    difficulty_word: str = "seuil"
    # Initiative has no rule in any of the five seeds: it is the GM's setting. The default only
    # rolls the system's own die once.
    initiative: str = "1d10"
    # Rule options a campaign may preset ("keep the alternative as an option"): option ->
    # allowed values, the default first.
    rule_options: Mapping[str, tuple] = field(default_factory=dict)
    # Timers that run one of this system's tests: timer kind -> request kind.
    test_timers: Mapping[str, str] = field(default_factory=dict)
    # Keys a GM may write on a sheet that the system derives itself -> why they are refused.
    derived_keys: Mapping[str, str] = field(default_factory=dict)
    # The request and result fields that tell a hidden difficulty (MIR R8, Éclats R10): the
    # difficulty itself, what it became, a margin against it. The players never see them while
    # it is secret (`gmscreen.play.public`); `difficulty_field` and `luck` are always among them.
    difficulty_fields: frozenset[str] = frozenset()

    @classmethod
    def of_module(cls, names: Mapping[str, Any], **own: Any) -> "System":
        """The system a rules module declares (`System.of_module(globals(), game=...)`): its id is the
        module's own name, as the registry finds it, and its parts are the names every system module
        defines (KINDS, SHEET, DIFFICULTIES, OUTCOME_WORDS, describe), so a module writes only what
        is its own and no two modules repeat the wiring."""
        return cls(id=names["__name__"].rpartition(".")[2], kinds=names["KINDS"], sheet=names["SHEET"],
                   difficulties=names["DIFFICULTIES"], outcome_words=names["OUTCOME_WORDS"],
                   describe=names["describe"], **own)

    def group(self, key: str) -> StatGroup | None:
        for g in self.sheet:
            if g.key == key:
                return g
        return None


def forced_mode(reader: Reader, dice_fields: Iterable[str]) -> bool:
    """True when any of the kind's dice fields is present (README: forced mode)."""
    return any(reader.has(name) for name in dice_fields)


# ---------------------------------------------------------------- describing a result


@record(frozen=True)
class Die:
    """One face as the screen shows it. `status` says what the rules did with it:
    "counted" (gave a success / counts), "critical" (a 12 in MIR, a natural 20...),
    "fumble" (a natural 1, a 0 on a third Éclats roll...), "exploded" (open die, rolled again),
    "rerolled" (replaced by a later roll), "kept" (the die that stands), "plain" (no effect)."""

    face: int
    sides: int
    status: str = "plain"
    low: int = 1


@record(frozen=True)
class DiceGroup:
    label: str                 # "Alexis", "dé de chance", "Providence", "aide 1"...
    dice: tuple[Die, ...]
    total: int | None = None   # the group's value when meaningful (sum, successes)


@record(frozen=True)
class Description:
    """A resolved test in the game's own words; the one renderer (`gmscreen.rules.render`) walks
    it into the CLI's, the log's and the export's text, and the dice tray's styled lines."""

    headline: str              # "réussite critique", "Alexis l'emporte", "échec automatique"
    detail: str                # "3 succès contre SD 2, marge +1"
    groups: tuple[DiceGroup, ...] = ()
    good: bool | None = None   # True: success for the actor; False: failure; None: tie/pending
