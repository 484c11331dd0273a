"""The SheetLook part of a game: how one system's sheets, glance columns and tables read.

The base class is every default; a game overrides only what its rules change. Hooks return
plain data — strings, and for the roster's one-line glance `(text, tone)` pieces — and the
screen chooses the styles, so this module stays free of Textual and Rich (the glance is
drawn in the first frame: keep the imports here light).
"""

from __future__ import annotations

from dataclasses import field
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from gmscreen.i18n import N_, _, typography
from gmscreen.rules.records import record

if TYPE_CHECKING:
    from gmscreen.rules import Stat, StatGroup, System

# How much a piece of the glance stands out; the screen maps a tone to its style.
PLAIN, FAINT, STRONG = "", "faint", "strong"

Piece = tuple[str, str]            # (text, tone)


def stat_value(sheet: Mapping[str, Any], group: StatGroup, stat: Stat) -> int:
    """The stat's value on the sheet, its default when missing or not a number."""
    values = sheet.get(group.key)
    if isinstance(values, Mapping):
        value = values.get(stat.key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return stat.default


def free_int(sheet: Mapping[str, Any], group: str, key: str) -> int:
    """A number kept on the sheet outside the system's stats (0 when missing)."""
    values = sheet.get(group)
    if isinstance(values, Mapping):
        value = values.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return 0


def signed(value: int) -> str:
    """+2, −1 (a typographic minus), and a plain 0: a modifier as the rules write it."""
    return typography.signed(value)


def tone(*, faint: bool = False, strong: bool = False) -> str:
    """The tone of a value: faint wins (a zero is never shouted)."""
    return FAINT if faint else (STRONG if strong else PLAIN)


class Glance:
    """A glance line being built, piece by piece."""

    def __init__(self) -> None:
        self.pieces: list[Piece] = []

    def add(self, text: str, tone: str = PLAIN) -> None:
        self.pieces.append((text, tone))

    def stat(self, label: str, value: str, tone: str = PLAIN) -> None:
        """A faint label and its value, a space from what precedes."""
        if self.has_text:
            self.add(" ")
        self.add(label, FAINT)
        self.add(value, tone)

    @property
    def has_text(self) -> bool:
        return any(text for text, _ in self.pieces)


@record(frozen=True)
class Resource:
    """The value the roster's +/- keys adjust for a system."""

    group: str
    key: str
    label: str
    stat: Stat
    max_key: str | None = None     # a cap stored on the sheet (e.g. a maximum Impulsion)
    text: Callable[[Any], str] = field(default=str, compare=False)   # a value in the notice

    def steps(self) -> tuple[int, ...]:
        return self.stat.choices or tuple(range(self.stat.lo, self.stat.hi + 1))


class SheetLook:
    """Defaults shared by every game: plain numbers, no glance, no adjustable resource."""

    # (group, key, max_key) of the value the roster's +/- keys adjust; None: the game keeps none.
    resource_key: tuple[str, str, str | None] | None = None
    # The roster's stats column header (`{low}`/`{high}` may name a game's marks).
    glance_title = N_("Stats")

    # ------------------------------------------------------------ the roster

    def resource(self, system: System) -> Resource | None:
        """The adjustable resource, when the game keeps one on the sheet and the system has it."""
        if self.resource_key is None:
            return None
        group_key, key, max_key = self.resource_key
        group = system.group(group_key)
        for stat in group.stats if group is not None else ():
            if stat.key == key:
                return Resource(group_key, key, stat.label, stat, max_key, self.resource_text)
        return None

    def resource_text(self, value: Any) -> str:
        """The resource's value in the notice of a +/- change."""
        return str(value)

    def glance(self, system: System, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[Piece]:
        """The stats that matter in this game, on one short line: labels two or three letters,
        spelled out by `glance_legend`."""
        return []

    def glance_header(self, *, ascii: bool = False) -> str:
        """The stats column's header: what the line holds, no wider than a usual line."""
        return _(self.glance_title)

    def glance_legend(self, system: System, sheet: Mapping[str, Any], *,
                      ascii: bool = False) -> list[tuple[str, str]]:
        """The abbreviations of `glance` spelled out, in the line's order: [("Hé", "Héritage"), ...]."""
        return []

    # ------------------------------------------------------------ the full sheet

    def value_text(self, group: StatGroup, stat: Stat, value: int) -> str:
        """One stat's value on the full sheet (a typographic minus when negative)."""
        return typography.minus(value)

    def gendered_value_text(self, group: StatGroup, stat: Stat, value: int, gender: str | None) -> str:
        """`value_text` for a character of `gender` ("f", "m", None): a game whose labels
        depend on it (Te Deum's "Fille prodigue") overrides this one."""
        return self.value_text(group, stat, value)

    def number_text(self, value: int) -> str:
        """A number written on the sheet outside the system's stats (a skill, a free stat)."""
        return typography.minus(value)

    def group_notes(self, system: System, group: StatGroup, sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
        """What a group's values mean together, shown under it: [(label, text), ...]."""
        return []

    def sheet_notes(self, system: System, sheet: Mapping[str, Any]) -> list[str]:
        """Remarks on the whole sheet (a value past its maximum), after the groups."""
        return []

    # ------------------------------------------------------------ the difficulty table

    def difficulty_text(self, value: int) -> str:
        """A row's value in the difficulty table."""
        return typography.minus(value)

    # ------------------------------------------------------------ shared by the games' looks

    @staticmethod
    def group_glance(line: Glance, system: System, sheet: Mapping[str, Any], key: str,
                     short: Callable[[Stat], str], shown: Callable[[int], str] = str,
                     tone_of: Callable[[int], str] = lambda value: PLAIN) -> None:
        """Every stat of one group on the line: short label, value, tone."""
        group = system.group(key)
        if group is None:
            return
        for stat in group.stats:
            value = stat_value(sheet, group, stat)
            line.stat(short(stat), shown(value), tone_of(value))

    @staticmethod
    def group_legend(system: System, keys: Iterable[str], short: Callable[[Stat], str]) -> list[tuple[str, str]]:
        """(short label, full label) for every stat of the groups, in order."""
        out: list[tuple[str, str]] = []
        for key in keys:
            group = system.group(key)
            out += [(short(stat), stat.label) for stat in (group.stats if group is not None else ())]
        return out
