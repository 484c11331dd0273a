"""MIR in a fight: its extended tests run as timers (R19, R20)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...fight_rules import FightRules

if TYPE_CHECKING:
    from ...timers import TimedTest


class MirFight(FightRules):
    def timed_tests(self) -> tuple[TimedTest, ...]:
        from .timers import EXTENDED

        return (EXTENDED,)


FIGHT = MirFight()
