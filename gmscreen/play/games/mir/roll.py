"""MIR inside a roll: an extended test is rolled one interval at a time (R16), its timer
starting with the first interval's pool of d12."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.rules import resolve

from ...roll_rules import RollRules

if TYPE_CHECKING:
    from ...exchange import Flow


class MirRoll(RollRules):
    def first_interval(self, flow: Flow) -> None:
        from gmscreen.rules.mir import dice_count

        request = flow.request
        request["rolls"] = [[flow.face(12) for _ in range(dice_count(request))]]
        flow.result = resolve(request)


ROLL = MirRoll()
