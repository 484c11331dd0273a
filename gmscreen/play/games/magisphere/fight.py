"""Magisphère in a fight: extended oppositions run as timers; between sessions, R9."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import _

from ...fight_rules import FightRules
from ...roster_rules import SheetGain

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign
    from gmscreen.rules._base import System

    from ...timers import TimedTest


class MagisphereFight(FightRules):
    def timed_tests(self) -> tuple[TimedTest, ...]:
        from .timers import OPPOSITION

        return (OPPOSITION,)

    def session_gains(self, campaign: Campaign) -> list[SheetGain]:
        """R9: each PC below their maximum Impulsion gets one point back."""
        out = []
        for i, ch in enumerate(campaign.characters):
            if ch.side != "party":
                continue
            res = ch.sheet.get("resources")
            if not isinstance(res, dict):
                continue
            cur, cap = res.get("impulsion", 0), res.get("impulsion_max", 0)
            if isinstance(cur, int) and isinstance(cap, int) and cur < cap:
                out.append(SheetGain(i, ("characters", i, "sheet", "resources", "impulsion"), cur + 1))
        return out

    def session_rule(self, system: System, campaign: Campaign, gains: list[SheetGain]) -> str:
        return _("Each PC gets back 1 missing point of Impulsion (R9): {names}").format(
            names=", ".join(clean(campaign.characters[g.index].name) for g in gains)
            or _("none is missing points"))

    def session_notice(self, campaign: Campaign, gains: list[SheetGain]) -> str | None:
        if not gains:
            return None
        names = ", ".join(clean(campaign.characters[g.index].name) for g in gains)
        return _("Session {n}: +1 Impulsion for {names}").format(n=campaign.session, names=names)


FIGHT = MagisphereFight()
