"""What the play engines and a game's parts hand each other: plain records, and the one
interface a part's hook is given (`Flow`, the roll under way).

A line read (`Draft`, its `Side`s, the `Choice` inside it), what a roll uses up (`Spend`),
what it asks (`Prompt`, its `Option`s) and what its odds assume (`Assumed`); the track a game
adds by default (`TrackSpec`), what a new session gives back (`SheetGain`), and the kind of
test a game runs over several rolls (`TimedTest`, each interval an `IntervalRoll`).

The part base classes (`roll_rules`, `fight_rules`, `effect_rules`, `quickroll.line_rules`,
`sheet_look`) and `game` read their types here, and this module imports no engine (the
grammar, the flow, the timers, the games): so no engine, reading its game through
`tables.table_for`, is imported back by the parts it finds there.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from gmscreen.i18n import N_, _, language
from gmscreen.i18n.typography import percent
from gmscreen.rules import get_system
from gmscreen.rules.records import record

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Character, Timer
    from gmscreen.rules._base import System

    from .forms import Form
    from .quickroll.text import Candidate, Token


# ---------------------------------------------------------------- a line read

@record
class Side:
    """One side of the test: a character (or raw dice) and the traits named for it."""

    role: str                              # "actor" or "opponent"
    start: int                             # offset of its first word
    character: Character | None = None
    index: int | None = None               # position in campaign.characters
    implicit: bool = False                 # the selected character, not named in the line
    traits: list[tuple[Candidate, Token]] = field(default_factory=list)
    raw: dict[str, int] = field(default_factory=dict)
    raw_text: str = ""

    @property
    def named(self) -> bool:
        return self.character is not None or bool(self.raw)

    @property
    def name(self) -> str:
        if self.character is not None:
            return self.character.name
        return self.raw_text

    def sheet(self, group: str) -> dict[str, Any]:
        if self.character is None:
            return {}
        value = self.character.sheet.get(group)
        return value if isinstance(value, dict) else {}


@record
class Spend:
    """A resource change the roll makes on a sheet once it is resolved."""

    path: tuple
    before: Any
    after: Any
    text: str


@record
class Choice:
    """What may be decided inside the roll (see `quickroll/choices.py`), and what it needs to know."""

    kind: str                              # "eclats_reroll", "magisphere_reroll", "tedeum_providence", "arpeges_parry"
    data: dict[str, Any] = field(default_factory=dict)


@record
class Draft:
    """A parsed line: a valid request for `gmscreen.rules`, who rolls, and how to show it."""

    line: str
    system: str
    kind: str
    request: dict[str, Any]                # without dice unless the GM typed them (`forced`)
    who: str
    who_id: str | None
    label: str
    gm_only: bool = False
    difficulty_text: str = ""              # the part of `label` that states the difficulty ("SD 3 (Moyenne)")
    forced: bool = False
    missing: str = ""                      # why Enter cannot resolve yet (e.g. no difficulty typed)
    baseline: dict[str, Any] | None = None  # the same test without the modifiers typed
    modifier_text: str = ""                # "+1d, aide Loriane"
    choice: Choice | None = None
    sides: list[Side] = field(default_factory=list)
    difficulty_span: tuple[int, int] | None = None   # where the difficulty sits in the line
    timer: dict[str, Any] | None = None    # extended tests: the timer to start (Timer fields)
    conditions: list[Any] = field(default_factory=list)   # each condition met (`play.effects.ConditionEffect`)
    unconditioned: dict[str, Any] | None = None   # the odds request without the conditions applied
    dice_helpers: list[str] = field(default_factory=list)   # helpers rolling dice of their own (MIR R9)
    # The game that read the line (its `GameTable`, handed to its grammar): the roll's choices,
    # spending and timed test are its parts. Not part of what the draft says (never compared
    # nor shown). Typed `Any`: this module, which the parts import, names no part back.
    game: Any = field(default=None, compare=False, repr=False)

    @property
    def table(self) -> Any:
        """The game that read this line (a draft built by hand must be given its `game`)."""
        if self.game is None:
            raise LookupError(f"a draft of {self.system!r} made without its game")
        return self.game

    @property
    def odds_request(self) -> dict[str, Any]:
        """The request without dice fields, as `rules.odds` wants it."""
        kind = get_system(self.system).kinds[self.kind]
        return {k: v for k, v in self.request.items() if k not in kind.dice_fields}


# ---------------------------------------------------------------- a roll's choices

def priced(label: str, chance: float) -> str:
    """An option of a prompt with the exact chance it leaves: "relancer 75 %"."""
    return _("{option} {chance}").format(option=label, chance=percent(chance))


# The key "garder" was first given: heard in every language (scripts, `--choose g`, habits).
KEEP = "g"


def keep_key() -> str:
    """The key that keeps a roll as it fell, in the language spoken: g (garder) in French, k (keep)
    in English (and in the tests' pseudo-language, English marked). A key is not a word the
    catalog may mark: it is chosen here."""
    return KEEP if language() == "fr" else "k"


@record(frozen=True)
class Option:
    key: str          # the key that picks it, shown beside its words
    label: str        # words shown beside the key, in the language spoken when it was asked
    action: str
    chance: float | None = None   # the exact chance this option leaves, when the game prices it
    brief: str = ""   # the label said before that chance ("reroll": the question says the cost)
    also: tuple[str, ...] = ()    # other keys that pick it, not shown (the French key in English)

    @property
    def text(self) -> str:
        """What the prompt shows beside the key: the label, or its brief form and its chance
        ("relancer 44 %")."""
        if self.chance is None:
            return self.label
        return priced(self.brief or self.label, self.chance)


def keep_option(label: str, chance: float | None = None) -> Option:
    """"Keep" the dice as they fell: its key in the language spoken (`keep_key`), g heard too."""
    key = keep_key()
    return Option(key, label, "keep", chance, also=(KEEP,) if key != KEEP else ())


@record(frozen=True)
class Prompt:
    question: str
    options: tuple[Option, ...]
    default: str      # key taken by Enter: the choice the odds assume
    public: str | None = None   # the question as players may read it when the difficulty is hidden
    # Key taken when the campaign closes with the question open (`RollFlow.settle`): the roll
    # as the table saw it, no new die rolled unseen, nothing spent (a reroll prompt: keep).
    # None: the default.
    settles: str | None = None

    def option(self, key: str) -> Option | None:
        if key == "enter":
            key = self.default
        return next((o for o in self.options if o.key == key), None) or next(
            (o for o in self.options if key in o.also), None)


class Flow(Protocol):
    """The roll under way as a game's `RollRules` hooks see it (`quickroll.choices.RollFlow` is
    the one the engine runs): what it rolls, what it asks, and its steps."""

    draft: Draft
    rng: random.Random
    request: dict[str, Any]
    result: dict[str, Any] | None
    seed: int | None
    prompt: Prompt | None
    declined: set[str]
    asking: str
    gains: list[Spend]

    def face(self, sides: int, low: int = 1) -> int: ...

    def resolve_random(self) -> None: ...


@record(frozen=True)
class Assumed:
    """The choice the odds assume, and the same test without it."""

    words: str                      # "with 2 Impulsion rerolls", in the language spoken
    short: str                      # the same in a word or two: "2 rerolls"
    other: str                      # the other way, said after its chance: "without"
    request: dict[str, Any] = field(default_factory=dict)   # the odds request played the other way


# ---------------------------------------------------------------- a fight

@record(frozen=True)
class TrackSpec:
    """The track a game adds by default: its name, maximum, and the sheet value it stands for."""

    name: str
    max: int = 10
    sheet: tuple[str, str] | None = None    # (group, key) kept equal to the track's value


class SheetGain(NamedTuple):
    """One value a new session sets on a character's sheet."""

    index: int  # type: ignore[assignment]   # the character's place in `campaign.characters` (hides tuple.index)
    path: tuple         # the full campaign path set ("characters", index, "sheet", ...)
    value: Any


@record
class IntervalRoll:
    """One interval of a test timer, rolled: the logged request and result, the timer's dice
    and status after it, and the step's name."""

    request: dict
    result: dict
    dice: dict
    status: str
    step: str
    round_stats: list | None = None     # the rounds' own settings after it (None: unchanged)
    timer_request: dict | None = None   # the timer's request after it (None: unchanged): MIR `test_modifiers`


class TimedTest(ABC):
    """One kind of test a game runs over several rolls (an extended test, an extended
    opposition), kept as a timer: the form that starts it, the timer it makes, when its next
    interval may be rolled, the dice of that interval and its progress in words."""

    kind = ""                 # the `Timer.kind` it makes
    option = ""               # its line in the "New timer" choice (an N_ message, shown with _)
    # Its rounds may each have their own settings (Magisphère R18: `round_fields`, kept in
    # `Timer.round_stats`, added up by `roll_round`). Any other game's timer rolls every interval
    # from its request, whatever a hand edit left in `round_stats`.
    rounds_of_their_own = False
    who_missing = N_("select the character first (roster)")   # said when none is selected (N_)

    @abstractmethod
    def form(self, campaign: Campaign, system: System, character: Character) -> Form:
        """The fields the GM fills in to start one for `character`."""

    @abstractmethod
    def make(self, campaign: Campaign, system: System, character: Character, values: dict[str, str]) -> Timer:
        """The timer (id left empty) the filled-in `form` starts: its label, request and people."""

    def refusal(self, campaign: Campaign, timer: Timer) -> str | None:
        """Why its next interval cannot be rolled now (None: it can)."""
        return None

    @abstractmethod
    def next_dice(self, dice: dict[str, Any], before: dict, rng: random.Random,
                  request: dict[str, Any] | None = None) -> str:
        """Add one interval's dice to `dice` (a copy, changed in place); returns the step's name.
        `request`: the request of this interval (`interval_request`), None: the timer's own."""

    def start_fields(self, request: dict[str, Any], unconditioned: dict[str, Any] | None,
                     result: dict[str, Any]) -> dict[str, Any]:
        """The timer's fields (`request`, `round_stats`) from the roll that started it: its
        request without its dice, the same without the roller's conditions (None: none bit), what
        the rules said of it. A game whose intervals re-read the conditions keeps the request
        without them and what they changed at each interval. Default: the request as rolled."""
        return {"request": request}

    def interval_request(self, campaign: Campaign, timer: Timer) -> tuple[dict[str, Any], list]:
        """The request of the next interval as the table stands now, and what became of each
        condition met (`play.effects.ConditionEffect`): the roller's conditions re-read (a dazzle
        gone, a wound taken), MIR `test_modifiers`. Default: the timer's request, no condition."""
        return timer.request, []

    @abstractmethod
    def progress(self, campaign: Campaign, timer: Timer, result: dict) -> str:
        """Where it stands, from what the rules say of its dice (`result`), plain and cleaned."""

    def round_fields(self, campaign: Campaign, timer: Timer) -> list:
        """Fields (`forms.Field`) the GM may change for the next interval alone (Magisphère R18:
        the round's statistics and skills). Default: none."""
        return []

    def round_fields_changed(self, timer: Timer, values: dict[str, str]) -> bool:
        """The `round_fields` filled in ask for something else than the timer's own request."""
        return False

    def roll_round(self, timer: Timer, values: dict[str, str], faces: str,
                   campaign: Campaign | None = None) -> IntervalRoll:
        """The next interval as `round_fields` set it, with the faces typed (else rolled) and the
        conditions as they stand in `campaign`. Asked only of a game with `rounds_of_their_own`
        (an abstract hook for those alone)."""
        raise NotImplementedError

    def round_of_its_own(self, campaign: Campaign | None, timer: Timer) -> bool:
        """The next round must be played with its own settings even when the GM changes none
        (Magisphère: a side's conditions bite in it). Default: no."""
        return False

    def result_of(self, timer: Timer) -> dict | None:
        """What the timer's dice say so far when the game works it out itself (rounds played with
        their own settings); None: the rules' result of its request and dice."""
        return None
