"""Éclats inside a roll: each die may be rerolled while the characteristic allows more rolls,
the new die replacing the old (R3, R4). `dice = [3, 0]` is "rolled 3, rerolled, got 0"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.i18n import _, ngettext
from gmscreen.rules import resolve

from ...quickroll.choices import Option, Prompt
from ...roll_rules import RollRules

if TYPE_CHECKING:
    from ...quickroll.choices import RollFlow


class EclatsRoll(RollRules):
    def start(self, flow: RollFlow) -> None:
        flow.request["dice"] = [flow.face(10, 0)]
        self._after_die(flow)

    def choose(self, flow: RollFlow, action: str) -> None:
        if action == "reroll":
            flow.request["dice"] = flow.request["dice"] + [flow.face(10, 0)]
            self._after_die(flow)

    def policy_key(self, flow: RollFlow) -> str:
        """The odds' "best" policy: roll again while stopping would not succeed (R4)."""
        return "g" if (flow.result or {}).get("outcome") == "success" else "r"

    @staticmethod
    def _after_die(flow: RollFlow) -> None:
        flow.result = resolve(flow.request)
        level = flow.request["characteristic"]
        dice = flow.request["dice"]
        if len(dice) < level:
            left = level - len(dice)
            question = (_("{name}: die {die}, result {result} — reroll?").format(
                name=flow.draft.who, die=dice[-1], result=flow.result["result"]) + " "
                + ngettext("({n} more roll, the new die replaces the old one)",
                           "({n} more rolls, the new die replaces the old one)", left).format(n=left))
            # R10: with the threshold hidden the player still sees the die and decides on it.
            flow.prompt = Prompt(question, (Option("r", _("reroll"), "reroll"), Option("g", _("keep"), "keep")), "g",
                                 public=question)


ROLL = EclatsRoll()
