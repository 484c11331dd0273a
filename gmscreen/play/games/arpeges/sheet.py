"""Arpèges' sheet: attributes and means are modifiers, written signed everywhere."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...sheet_look import FAINT, Glance, Piece, SheetLook, signed, tone

# Two letters, three for Intuition / Intelligence (they need distinct ones).
SHORT = {"corps": "Co", "agilite": "Ag", "intuition": "Itu", "intelligence": "Itl", "puissance": "Pu",
         "resistance": "Ré", "manoeuvre": "Ma", "precision": "Pr"}
GROUPS = ("caracteristiques", "moyens")


def _short(stat: Any) -> str:
    return SHORT.get(stat.key, stat.label[:2])


class ArpegesSheet(SheetLook):
    glance_title = "Caractéristiques | Moyens"

    def glance(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[Piece]:
        line = Glance()
        for key in GROUPS:
            if system.group(key) is None:
                continue
            if key == "moyens" and line.has_text:
                line.add(" |", FAINT)
            self.group_glance(line, system, sheet, key, _short, signed,
                              lambda value: tone(faint=value == 0, strong=abs(value) >= 3))
        return line.pieces

    def glance_legend(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[tuple[str, str]]:
        return self.group_legend(system, GROUPS, _short)

    def value_text(self, group: Any, stat: Any, value: int) -> str:
        return signed(value)

    def number_text(self, value: int) -> str:
        return signed(value)

    def difficulty_text(self, value: int) -> str:
        return signed(value)


SHEET = ArpegesSheet()
