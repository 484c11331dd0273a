"""Magisphère inside a roll: a failing (or losing) side may spend 1 Impulsion to reroll (R6,
R7), `dice = [5, 14]`; the points spent come off the sheet. An extended opposition starts
with one exchange of d20s."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen.i18n import _
from gmscreen.rules import resolve

from ...quickroll.choices import Option, Prompt
from ...roll_rules import RollRules

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from ...quickroll.choices import RollFlow
    from ...quickroll.grammar import Draft, Spend

_FAILING = ("failure", "critical_failure")


def _reroll() -> tuple[Option, ...]:
    """The options of a reroll, in the language spoken when it is asked."""
    return (Option("r", _("reroll (1 Impulsion)"), "reroll"), Option("g", _("keep"), "keep"))


class MagisphereRoll(RollRules):
    def start(self, flow: RollFlow) -> None:
        if flow.draft.kind == "simple":
            flow.request["dice"] = [flow.face(20)]
        else:
            flow.request["actor_dice"] = [flow.face(20)]
            flow.request["opponent_dice"] = [flow.face(20)]
        self._after_dice(flow)

    def choose(self, flow: RollFlow, action: str) -> None:
        if action == "reroll":
            name = "dice" if flow.draft.kind == "simple" else flow.asking + "dice"
            flow.request[name] = flow.request[name] + [flow.face(20)]
            self._after_dice(flow)
        elif action == "keep" and flow.draft.kind != "simple":
            flow.declined.add(flow.asking)
            self._after_dice(flow)

    def policy_key(self, flow: RollFlow) -> str:
        """The odds' policy: a side rerolls while it fails (a simple test) or while it loses
        (an opposition; a tie stands), as long as it has points."""
        result = flow.result or {}
        if flow.draft.kind == "simple":
            return "r" if result.get("outcome") in _FAILING else "g"
        other = "opponent" if flow.asking == "actor_" else "actor"
        return "r" if result.get("winner") == other else "g"

    def first_interval(self, flow: RollFlow) -> None:
        """An extended opposition: the first exchange only, one d20 a side."""
        flow.request["actor_dice"] = [flow.face(20)]
        flow.request["opponent_dice"] = [flow.face(20)]
        flow.result = resolve(flow.request)

    def spending(self, draft: Draft, result: dict[str, Any], campaign: Campaign) -> list[Spend]:
        """The Impulsion points spent (rerolls, the +3 bought before the roll)."""
        from ...quickroll.grammar import Spend

        out: list[Spend] = []
        prefixes = [""] if draft.kind == "simple" else ["actor_", "opponent_"]
        for side, prefix in zip(draft.sides, prefixes):
            spent = result.get(prefix + "impulsions_spent", 0) or 0
            if spent and side.index is not None:
                res = side.sheet("resources")
                if "impulsion" in res:
                    before = int(res["impulsion"])
                    out.append(Spend(("characters", side.index, "sheet", "resources", "impulsion"), before,
                                     max(0, before - spent), f"Impulsion −{spent} → {side.name}"))
        return out

    # ---------------------------------------------------------------- steps

    @staticmethod
    def _can_reroll(flow: RollFlow, prefix: str) -> tuple[bool, int]:
        data = flow.draft.choice.data if flow.draft.choice else {}
        sides = data.get("sides", {})
        if prefix not in sides:
            return False, 0
        points = sides[prefix][1] or 0
        spent = (flow.result or {}).get(prefix + "impulsions_spent", 0)
        rerolls = len(flow.request.get(prefix + "dice", [])) - 1
        if data.get("limit", "unlimited") == "one" and rerolls >= 1:
            return False, points - spent
        return points - spent > 0, points - spent

    def _after_dice(self, flow: RollFlow) -> None:
        result = flow.result = resolve(flow.request)
        if flow.draft.kind == "simple":
            ok, left = self._can_reroll(flow, "")
            if ok and result["outcome"] in _FAILING:
                flow.asking = ""
                flow.prompt = Prompt(
                    _("{name}: natural {natural}, score {score} against {target} — spend 1 Impulsion to reroll? "
                      "({left} left)").format(name=flow.draft.who, natural=result["natural"], score=result["score"],
                                              target=result["target"], left=left), _reroll(), "g")
            return
        winner = result["winner"]
        for prefix, role in (("actor_", "actor"), ("opponent_", "opponent")):
            if prefix in flow.declined or winner == role:
                continue
            ok, left = self._can_reroll(flow, prefix)
            if ok:
                side = flow.draft.sides[0 if role == "actor" else 1]
                flow.asking = prefix
                flow.prompt = Prompt(
                    _("{name}: natural {natural}, score {score} — spend 1 Impulsion to reroll? ({left} left)")
                    .format(name=side.name, natural=result[prefix + "natural"], score=result[prefix + "score"],
                            left=left), _reroll(), "g")
                return


ROLL = MagisphereRoll()
