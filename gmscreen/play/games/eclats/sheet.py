"""Éclats' sheet: the ten characteristics at a glance, zeros faint and 3+ strong."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...sheet_look import Glance, Piece, SheetLook, tone


def _short(stat: Any) -> str:
    return stat.key.capitalize()[:2]


class EclatsSheet(SheetLook):
    glance_title = "Caractéristiques"

    def glance(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[Piece]:
        line = Glance()
        self.group_glance(line, system, sheet, "characteristics", _short,
                          tone_of=lambda value: tone(faint=value == 0, strong=value >= 3))
        return line.pieces

    def glance_legend(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[tuple[str, str]]:
        return self.group_legend(system, ("characteristics",), _short)


SHEET = EclatsSheet()
