"""MIR in a fight: its extended tests run as timers (R19, R20); its wounds are its track."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...fight_rules import FightRules

if TYPE_CHECKING:
    from gmscreen.rules._base import System

    from ...timers import TimedTest
    from ...tracks import TrackSpec


class MirFight(FightRules):
    def timed_tests(self) -> tuple[TimedTest, ...]:
        from .timers import EXTENDED

        return (EXTENDED,)

    def default_track(self, system: System) -> TrackSpec:
        """Blessures, the sheet's wounds (`state.blessures`): each one removes a die in a fight
        (R4, the quick line's `blessures`), so a hit on the track is a wound there too. The
        rules set no number that takes a character down: the maximum offered is the sheet's
        (12), for the GM to lower."""
        from ...tracks import TrackSpec

        return TrackSpec("Blessures", _wounds_max(system), ("state", "blessures"))


FIGHT = MirFight()


def _wounds_max(system: System) -> int:
    group = system.group("state")
    stat = next((s for s in group.stats if s.key == "blessures"), None) if group is not None else None
    return stat.hi if stat is not None else 12
