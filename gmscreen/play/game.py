"""What one game system means at the table, beyond its rules.

A `GameTable` gathers a system's parts: the quick-roll line (`line`), how its sheets and
tables read (`sheet`), what a roll may ask and spend (`roll`), and what a fight does
(`fight`), and what a condition's effect does with the game's condition presets (`effects`):
five parts, each given as an object (`GameTable("yze", effects=YzeEffects(presets=…))`) or
found in the game's package. The play core and the screen call these parts and never branch
on a system id.
Each part has a base class whose every hook is the plain default, so a new game writes
only what differs. The shipped games keep their parts in `gmscreen/play/games/<id>/`,
one module a part, imported on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Callable, Generic, TypeVar, overload

from .fight_rules import FightRules
from .roll_rules import RollRules
from .sheet_look import SheetLook

if TYPE_CHECKING:   # the quick-roll package and the effects load after the first frame; the roster's glance needs neither
    from .effect_rules import EffectRules
    from .quickroll.line_rules import LineRules

P = TypeVar("P")


class _Part(Generic[P]):
    """A part of every table, named by its attribute: found on first read (`GameTable._part`,
    else `default()`, every hook the plain default) and kept on the table."""

    def __init__(self, default: Callable[[], P]) -> None:
        self._default = default
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, table: None, owner: type) -> _Part[P]: ...

    @overload
    def __get__(self, table: GameTable, owner: type) -> P: ...

    def __get__(self, table: GameTable | None, owner: type) -> P | _Part[P]:
        if table is None:
            return self
        part: P = table._part(self._name, self._default)
        table.__dict__[self._name] = part      # read from the table itself from now on
        return part


def _line_rules() -> LineRules:
    from .quickroll.line_rules import LineRules

    return LineRules()


def _effect_rules() -> EffectRules:
    from .effect_rules import EffectRules

    return EffectRules()


class GameTable:
    """One system's parts: given as objects, or found as `<package>.<part>.<PART>`."""

    line = _Part(_line_rules)
    sheet = _Part(SheetLook)
    roll = _Part(RollRules)
    fight = _Part(FightRules)
    effects = _Part(_effect_rules)    # what a condition's effect means, and the game's condition presets

    def __init__(self, system_id: str, *, package: str | None = None, line: LineRules | None = None,
                 sheet: SheetLook | None = None, roll: RollRules | None = None,
                 fight: FightRules | None = None, effects: EffectRules | None = None) -> None:
        self.system_id = system_id
        self._package = package
        self._given: dict[str, Any] = {"line": line, "sheet": sheet, "roll": roll, "fight": fight, "effects": effects}

    def _part(self, name: str, default: Callable[[], Any]) -> Any:
        given = self._given.get(name)
        if given is not None:
            return given
        if self._package is not None:
            module_name = f"{self._package}.{name}"
            try:
                module = import_module(module_name)
            except ModuleNotFoundError as error:
                if error.name != module_name:
                    raise
            else:
                return getattr(module, name.upper())
        return default()
