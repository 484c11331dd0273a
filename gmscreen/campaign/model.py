"""The campaign model: plain dataclasses that mirror the TOML file one to one.

Sheets stay dictionaries shaped by the system's `StatGroup`s (rules layer), so one model
serves five systems. Conversion to and from plain data (`to_data`, `from_data`) is generic:
it follows the dataclass type hints, which is also what the change journal relies on. (The
hints are evaluated as the classes are made, not as strings: reading them back then costs
no compile, at every start.)
"""

import dataclasses
import types
import typing
from dataclasses import field
from typing import Any, Callable, Union

from gmscreen.rules.records import record

FORMAT = 1
SIDES = ("party", "npc")


@record
class Condition:
    """A state on a character: a name, its effect in the system's terms, rounds left."""

    name: str
    effect: str = ""
    rounds: int | None = None      # rounds left; None = until removed. Ticks at the end of the bearer's turn.


@record
class Track:
    """A damage track: hits taken, counted up from 0; at `max` its bearer is defeated (out
    of the turn order until a hit is healed). One semantics for every game, so that `+` is
    always one more hit, as on MIR's Blessures (see `gmscreen.play.tracks`)."""

    name: str
    value: int = 0                 # hits taken, 0 to max
    max: int = 10                  # the hits that put the bearer down


@record
class Character:
    id: str                        # unique slug, referenced by encounter entries and timers
    name: str
    side: str = "party"            # "party" or "npc"
    sheet: dict[str, Any] = field(default_factory=dict)   # group key -> {stat key -> value}
    conditions: list[Condition] = field(default_factory=list)
    notes: str = ""
    gender: str | None = None      # "f" or "m" where a game's label depends on it (Te Deum)
    # Kept from the players' view (`gmscreen players`); written only when true.
    hidden: bool = field(default=False, metadata={"omit_empty": True})
    # Damage tracks the GM added ([[characters.tracks]]); written only when there is one.
    tracks: list[Track] = field(default_factory=list, metadata={"omit_empty": True})


@record
class Entry:
    """One place in the turn order: a character of the roster or an ad-hoc name."""

    id: str                        # unique within the encounter
    name: str
    character: str | None = None   # Character.id, or None for an ad-hoc entry
    initiative: int = 0
    acted: bool = False
    delayed: bool = False


@record
class Declaration:
    """Actions an entry declared for the round (Arpèges: several at once, −3 each extra)."""

    entry: str                     # Entry.id
    actions: list[str] = field(default_factory=list)


@record
class TickedCondition:
    """A condition an end of turn ticked: its bearer, its place, itself before, rounds after."""

    character: str                 # Character.id
    index: int                     # its place in the bearer's conditions before the tick
    before: Condition
    after: int | None = None       # rounds left after the tick; None: it expired


@record
class TickedCountdown:
    """A countdown a new round ticked: rounds and status before and after."""

    timer: str                     # Timer.id
    rounds: int | None
    status: str
    rounds_after: int = 0
    status_after: str = "running"


# Written only when not empty: a record of a quiet turn stays four lines in the file.
_OMIT_EMPTY = {"omit_empty": True}


@record
class TurnTicks:
    """What one end of turn ticked, kept so that `p` back across it gives exactly that back
    (saved with the encounter: a restart keeps it; see `gmscreen.play.turns`)."""

    round: int                     # the round the ended turn was in
    actor: str | None = None       # entry whose turn ended (None: a new round made by waiting)
    round_after: int = 0
    following: str | None = None   # entry current after the change
    conditions: list[TickedCondition] = field(default_factory=list, metadata=_OMIT_EMPTY)
    countdowns: list[TickedCountdown] = field(default_factory=list, metadata=_OMIT_EMPTY)
    declared: list[Declaration] = field(default_factory=list, metadata=_OMIT_EMPTY)   # cleared by the new round
    order_before: list[str] | None = None     # the order before the new round re-sorted it
    order_after: list[str] | None = None


@record
class Encounter:
    round: int = 0                 # 0: no fight running
    turn: int = 0                  # index into entries of the current actor
    entries: list[Entry] = field(default_factory=list)
    declared: list[Declaration] = field(default_factory=list)
    resort_at: int | None = None   # a mid-round sort left the full order for the end of this round
    ticks: list[TurnTicks] = field(default_factory=list)   # the latest ends of turn, oldest first


@record
class Timer:
    """An extended test or opposition in progress, or a plain countdown in rounds.

    Test timers keep the base `request` (a `gmscreen.rules` request without dice) and the
    dice rolled so far in `dice` (e.g. {"rolls": [[7, 8, 2, 3]]} for a MIR extended test,
    {"actor_dice": [...], "opponent_dice": [...]} for a Magisphère extended opposition);
    their progress is what `resolve` says of request + dice.
    """

    id: str
    label: str
    kind: str = "countdown"        # "extended" (MIR), "opposition" (Magisphère), "countdown"
    who: str | None = None         # Character.id rolling (extended) or the actor (opposition)
    opponent: str | None = None    # Character.id or a name (opposition)
    request: dict[str, Any] = field(default_factory=dict)
    dice: dict[str, Any] = field(default_factory=dict)
    rounds: int | None = None      # countdown: rounds left
    status: str = "running"        # "running", "success", "failure", "actor", "opponent", "tie", "done"
    # Rounds played with their own statistics and skills (Magisphère R18: a chase alternates
    # Agilité, Athlétisme, Natation), one table a round played, {} for a round as `request`.
    round_stats: list[dict[str, Any]] = field(default_factory=list, metadata=_OMIT_EMPTY)
    # What the players may not see of it (`gmscreen.play.public`), decided when it started: a
    # test started from a GM-only line is GM-only; the sides ("actor", "opponent") a character
    # hidden from the players plays. Written only when set.
    gm_only: bool = field(default=False, metadata=_OMIT_EMPTY)
    hidden_sides: list[str] = field(default_factory=list, metadata=_OMIT_EMPTY)


@record
class RollRecord:
    """One roll of the log, as recorded on disk (append-only)."""

    seq: int
    time: str                      # ISO 8601, local time with offset
    session: int
    who: str                       # name shown in the log
    line: str                      # what the GM typed (or a description)
    request: dict[str, Any]
    result: dict[str, Any]         # the outcome mapping of `resolve` (None values dropped)
    gm_only: bool = False
    revealed: bool = False
    seed: int | None = None
    pending: str | None = None     # id of the pending roll (X.pending.toml) this settles


@record
class Campaign:
    name: str
    system: str
    format: int = FORMAT
    session: int = 1
    notes: str = ""
    initiative: str = ""           # dice expression rolled for initiative ("1d10"), "" = typed
    rules: dict[str, Any] = field(default_factory=dict)   # default request fields (rule options)
    characters: list[Character] = field(default_factory=list)
    encounter: Encounter = field(default_factory=Encounter)
    timers: list[Timer] = field(default_factory=list)
    revision: int = 0              # number of changes applied since the campaign was created

    def character(self, char_id: str) -> Character | None:
        for ch in self.characters:
            if ch.id == char_id:
                return ch
        return None


# ---------------------------------------------------------------- generic plain-data conversion

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        hints = {f.name: f.type for f in dataclasses.fields(cls)}
        if any(isinstance(hint, str) for hint in hints.values()):
            hints = typing.get_type_hints(cls)
        _HINTS[cls] = hints
    return _HINTS[cls]


def _omitted(cls: type) -> tuple[tuple[str, bool], ...]:
    """A model class's fields in order, each with whether it is left out when empty."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = tuple((f.name, bool(f.metadata.get("omit_empty"))) for f in dataclasses.fields(cls))
    return plan


_PLANS: dict[type, tuple[tuple[str, bool], ...]] = {}
_PLAIN = (str, int, float, bool)


def to_data(obj: Any) -> Any:
    """Dataclasses to TOML-ready dicts; None values are dropped (TOML has no null)."""
    kind = type(obj)
    if kind in _PLAIN:
        return obj
    plan = _PLANS.get(kind)
    if plan is None and dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        plan = _omitted(kind)
    if plan is not None:
        out = {}
        for name, omit_empty in plan:
            value = getattr(obj, name)
            if value is None or (omit_empty and not value):
                continue
            out[name] = to_data(value)
        return out
    if isinstance(obj, dict):
        return {k: to_data(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, (list, tuple)):
        return [to_data(v) for v in obj]
    return obj


def _strip_optional(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def from_data(tp: Any, data: Any) -> Any:
    """Plain data to the model type `tp` (no validation: see `campaign.validate`)."""
    return _reader(tp)(data)


_READERS: dict[Any, Callable[[Any], Any]] = {}


def _reader(tp: Any) -> Callable[[Any], Any]:
    """The function turning plain data into `tp`, worked out once per type (a roster of 500
    is read field by field with no type inspected again)."""
    found = _READERS.get(tp)
    if found is not None:
        return found
    bare = _strip_optional(tp)
    read: Callable[[Any], Any]
    if isinstance(bare, type) and dataclasses.is_dataclass(bare):
        fields: list[tuple[str, Callable[[Any], Any]]] = []

        def read(data: Any) -> Any:
            if not fields:              # (filled on first use: a type may name itself)
                fields.extend((name, _reader(hint)) for name, hint in _hints(bare).items())
            return bare(**{name: convert(data[name]) for name, convert in fields if name in data})
    elif typing.get_origin(bare) is list:
        (elem,) = typing.get_args(bare)
        item = _reader(elem)

        def read(data: Any) -> Any:
            return [item(v) for v in data]
    elif typing.get_origin(bare) is dict:
        def read(data: Any) -> Any:
            return {k: _copy_plain(v) for k, v in data.items()}
    else:
        read = _copy_plain
    _READERS[tp] = read
    return read


def _copy_plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_plain(v) for v in value]
    return value


def element_type(container_type: Any) -> Any:
    """The element type of a `list[X]` / `dict[str, X]` hint (Any when untyped)."""
    args = typing.get_args(_strip_optional(container_type))
    return args[-1] if args else Any


def type_at(root: type, path: tuple) -> Any:
    """The declared type of the value found at `path` below an object of type `root`."""
    tp: Any = root
    for step in path:
        tp = _strip_optional(tp)
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            tp = _hints(tp)[step]
        elif typing.get_origin(tp) in (list, dict):
            tp = element_type(tp)
        else:
            return Any
    return tp
