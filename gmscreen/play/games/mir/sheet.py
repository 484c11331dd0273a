"""MIR's sheet: Voies with their Trauma (weakest) and Mensonge (strongest) marks, and wounds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmscreen.i18n import N_, _

from ...sheet_look import STRONG, FAINT, Glance, Piece, SheetLook, free_int, stat_value

SHORT = {"heritage": "Hé", "secret": "Se", "espoir": "Es", "peur": "Pe", "dogme": "Do", "mensonge": "Me"}
# The Trauma and Mensonge marks after a Voie's value: ascii -> (trauma, mensonge)
MARKS = {False: ("↓", "↑"), True: ("-", "+")}
TRAUMA = N_("Trauma (weakest Voie)")        # shown through _ (the language may change)
LIE = N_("Mensonge (strongest Voie)")


def _short(stat: Any) -> str:
    return SHORT.get(stat.key, stat.label[:2])


class MirSheet(SheetLook):
    resource_key = ("state", "blessures", None)
    glance_title = "Voies {low}Trauma {high}Mensonge"

    def marks(self, system: Any, sheet: Mapping[str, Any]) -> tuple[list[str], list[str]]:
        """Trauma (weakest Voie) and Mensonge (strongest Voie) keys; ties list every Voie concerned."""
        group = system.group("voies")
        if group is None:
            return [], []
        values = {s.key: stat_value(sheet, group, s) for s in group.stats}
        low, high = min(values.values()), max(values.values())
        return [k for k, v in values.items() if v == low], [k for k, v in values.items() if v == high]

    def glance(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[Piece]:
        line = Glance()
        wounds = free_int(sheet, "state", "blessures")
        if wounds:
            line.add("Bl", FAINT)
            line.add(str(wounds), STRONG)
        voies = system.group("voies")
        if voies is not None:
            # Trauma and Mensonge marked on the Voies themselves: the line keeps its width
            # however many Voies tie.
            trauma, lie = self.marks(system, sheet)
            low, high = MARKS[ascii]
            for stat in voies.stats:
                line.stat(_short(stat), str(stat_value(sheet, voies, stat)))
                if stat.key in trauma:
                    line.add(low, STRONG)
                if stat.key in lie:
                    line.add(high, STRONG)
        return line.pieces

    def glance_header(self, *, ascii: bool = False) -> str:
        low, high = MARKS[ascii]
        return self.glance_title.format(low=low, high=high)

    def glance_legend(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[tuple[str, str]]:
        low, high = MARKS[ascii]
        return [("Bl", "Blessures"), *self.group_legend(system, ("voies",), _short), (low, _(TRAUMA)), (high, _(LIE))]

    def group_notes(self, system: Any, group: Any, sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
        if group.key != "voies":
            return []
        trauma, lie = self.marks(system, sheet)
        labels = {s.key: s.label for s in group.stats}
        return [(_(TRAUMA), ", ".join(labels[k] for k in trauma)), (_(LIE), ", ".join(labels[k] for k in lie))]


SHEET = MirSheet()
