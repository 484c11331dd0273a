"""What one game system means at the table, beyond its rules.

A `GameTable` gathers a system's parts: the quick-roll line (`line`), how its sheets and
tables read (`sheet`), what a roll may ask and spend (`roll`), and what a fight does
(`fight`). The play core and the screen call these parts and never branch on a system id.
Each part has a base class whose every hook is the plain default, so a new game writes
only what differs. The shipped games keep their parts in `gmscreen/play/games/<id>/`,
one module a part, imported on first use.
"""

from __future__ import annotations

from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any

from .fight_rules import FightRules
from .roll_rules import RollRules
from .sheet_look import SheetLook

if TYPE_CHECKING:   # the quick-roll package loads after the first frame; the roster's glance needs none of it
    from .quickroll.line_rules import LineRules


class GameTable:
    """One system's parts: given as objects, or found as `<package>.<part>.<PART>`."""

    def __init__(self, system_id: str, *, package: str | None = None, line: LineRules | None = None,
                 sheet: SheetLook | None = None, roll: RollRules | None = None,
                 fight: FightRules | None = None) -> None:
        self.system_id = system_id
        self._package = package
        self._given: dict[str, Any] = {"line": line, "sheet": sheet, "roll": roll, "fight": fight}

    def _part(self, name: str, default: type) -> Any:
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

    @cached_property
    def line(self) -> LineRules:
        from .quickroll.line_rules import LineRules

        return self._part("line", LineRules)

    @cached_property
    def sheet(self) -> SheetLook:
        return self._part("sheet", SheetLook)

    @cached_property
    def roll(self) -> RollRules:
        return self._part("roll", RollRules)

    @cached_property
    def fight(self) -> FightRules:
        return self._part("fight", FightRules)
