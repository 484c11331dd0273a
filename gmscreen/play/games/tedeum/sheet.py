"""Te Deum's sheet: the Providence die, experience, and characteristics as dice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmscreen.i18n import _, N_
from gmscreen.rules.tedeum import providence_level

from ...sheet_look import FAINT, STRONG, Glance, Piece, SheetLook, free_int, tone

SHORT = {"puissance": "Pu", "complexion": "Co", "adresse": "Ad", "sensibilite": "Se", "savoir": "Sa",
         "entregent": "En"}


def _short(stat: Any) -> str:
    return SHORT.get(stat.key, stat.key[:2])


class TeDeumSheet(SheetLook):
    resource_key = ("resources", "providence", None)
    glance_title = N_("Providence · XP")

    def resource_text(self, value: Any) -> str:
        return f"D{value}" if value else _("none")

    def glance(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[Piece]:
        line = Glance()
        prov = free_int(sheet, "resources", "providence")
        line.add("Prov ", FAINT)
        line.add(f"D{prov}" if prov else "—", STRONG if prov else FAINT)
        xp = sheet.get("xp")
        total = sum(v for v in xp.values() if isinstance(v, int)) if isinstance(xp, Mapping) else 0
        line.stat("XP ", str(total), tone(strong=total > 0))
        self.group_glance(line, system, sheet, "characteristics", _short)
        return line.pieces

    def glance_legend(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[tuple[str, str]]:
        return [("Prov", _("Providence (die)")), ("XP", _("experience (total of the characteristics)")),
                *self.group_legend(system, ("characteristics",), _short)]

    def value_text(self, group: Any, stat: Any, value: int) -> str:
        return self.gendered_value_text(group, stat, value, None)

    def gendered_value_text(self, group: Any, stat: Any, value: int, gender: str | None) -> str:
        """Dice stats read as dice; the Providence die with its level's name, in the
        character's gender ("Fille prodigue" for a woman)."""
        if not stat.choices:
            return super().value_text(group, stat, value)
        if group.key == "resources":
            name = providence_level(value, gender)
            return (f"D{value}" if value else _("no die")) + (f" ({name})" if name else "")
        return f"D{value}"


SHEET = TeDeumSheet()
