"""Magisphère's sheet: Impulsion (left/maximum) and the statistics each sheet names itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import N_, _

from ...sheet_look import FAINT, STRONG, Glance, Piece, SheetLook, free_int


class MagisphereSheet(SheetLook):
    resource_key = ("resources", "impulsion", "impulsion_max")
    glance_title = N_("Impulsion · Stats")

    def glance(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[Piece]:
        line = Glance()
        if isinstance(sheet.get("resources"), Mapping):
            cur = free_int(sheet, "resources", "impulsion")
            cap = free_int(sheet, "resources", "impulsion_max")
            line.add("Imp ", FAINT)
            line.add(f"{cur}/{cap}" if cap else str(cur), FAINT if cur == 0 else STRONG)   # no max: uncapped
        stats = sheet.get("stats")
        if isinstance(stats, Mapping):
            for name, value in stats.items():
                line.stat(clean(name)[:3], clean(value))
        return line.pieces

    def glance_legend(self, system: Any, sheet: Mapping[str, Any], *, ascii: bool = False) -> list[tuple[str, str]]:
        """The statistics are named on each sheet: the character's own are listed."""
        out = [("Imp", _("Impulsion (left/maximum)"))]
        stats = sheet.get("stats")
        seen: set[str] = set()
        for name in stats if isinstance(stats, Mapping) else ():
            short = clean(name)[:3]
            if clean(name) != short and short not in seen:
                out.append((short, clean(name)))
                seen.add(short)
        return out

    def sheet_notes(self, system: Any, sheet: Mapping[str, Any]) -> list[str]:
        cap = free_int(sheet, "resources", "impulsion_max")
        cur = free_int(sheet, "resources", "impulsion")
        return [_("Impulsion above its maximum")] if cap and cur > cap else []


SHEET = MagisphereSheet()
