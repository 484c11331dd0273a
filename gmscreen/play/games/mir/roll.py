"""MIR inside a roll: an extended test is rolled one interval at a time (R16), its timer
starting with the first interval's pool of d12."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.rules import resolve

from ...roll_rules import RollRules

if TYPE_CHECKING:
    from ...quickroll.choices import RollFlow


class MirRoll(RollRules):
    def first_interval(self, flow: RollFlow) -> None:
        request = flow.request
        base = request.get("pool")
        if base is None:
            base = request.get("skill", 0) + request.get("voie", 0)
        count = max(1, base + request.get("modifier", 0) - request.get("penalty", 0))
        request["rolls"] = [[flow.face(12) for _ in range(count)]]
        flow.result = resolve(request)


ROLL = MirRoll()
