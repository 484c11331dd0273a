"""Arpèges inside a roll: the parry is decided once the action has succeeded (R9, R10); a
failed action needs none."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.i18n import _
from gmscreen.i18n.typography import signed
from gmscreen.rules import resolve

from ...quickroll.choices import Option, Prompt
from ...roll_rules import RollRules

if TYPE_CHECKING:
    from ...choice_odds import Assumed
    from ...exchange import Flow
    from ...quickroll.grammar import Draft


class ArpegesRoll(RollRules):
    def start(self, flow: Flow) -> None:
        first = dict(flow.request, parry=False)
        out = resolve(first, seed=flow.rng.randrange(2 ** 31))
        flow.request["actor_chance_dice"] = out["actor_chance_dice"]
        flow.request["actor_malchance_dice"] = out["actor_malchance_dice"]
        if out["actor_margin"] >= 0:
            flow.result = out
            flow.prompt = Prompt(
                _("The action succeeds (margin {margin}): does the target parry?")
                .format(margin=signed(out["actor_margin"])),
                _parry_options(flow), "p")
        else:
            flow.result = resolve(flow.request)

    def choose(self, flow: Flow, action: str) -> None:
        if action == "parry":
            # The parry is a simple roll of the same game, its dice moved into the confrontation.
            parry = resolve({"system": flow.draft.system, "kind": "simple", "difficulty": 0, "skill_level": 0,
                             "open_roll": bool(flow.request.get("open_roll"))}, seed=flow.rng.randrange(2 ** 31))
            flow.request["opponent_chance_dice"] = parry["chance_dice"]
            flow.request["opponent_malchance_dice"] = parry["malchance_dice"]
            flow.request.pop("parry", None)
            flow.result = resolve(flow.request)
        elif action == "no_parry":
            flow.request["parry"] = False
            flow.result = resolve(flow.request)


    def assumed(self, draft: Draft) -> Assumed | None:
        """A confrontation's odds assume the target parries (the tray's default) unless the
        line says `sans parade`: said, with the other way."""
        from ...choice_odds import Assumed

        request = draft.odds_request
        if draft.kind != "confrontation":
            return None
        if request.get("parry", True):
            return Assumed(_("if the target parries"), _("with parry"), _("without parry"), dict(request, parry=False))
        return Assumed(_("without parry"), _("no parry"), _("if it parries"), dict(request, parry=True))

def _parry_options(flow: Flow) -> tuple[Option, ...]:
    """Parry or let it through, each with the target's exact chance of stopping the action that
    succeeded (R10: the parry must succeed; the rules' odds with and without it give that
    chance, through the memo), unless the difficulty is hidden from the table."""
    parry, through = _("parry"), _("let it through")
    if flow.request.get("hidden"):
        return (Option("p", parry, "parry"), Option("n", through, "no_parry"))
    from gmscreen.rules import RequestError, get_system

    from ...chances import chance

    dice = get_system(flow.draft.system).kinds[flow.draft.kind].dice_fields
    request = {k: v for k, v in flow.request.items() if k not in dice and k != "parry"}
    try:
        unparried = chance(dict(request, parry=False))
        stops = 1.0 - chance(dict(request, parry=True)) / unparried if unparried else 0.0
    except RequestError:
        return (Option("p", parry, "parry"), Option("n", through, "no_parry"))
    return (Option("p", parry, "parry", stops), Option("n", through, "no_parry", 0.0))


ROLL = ArpegesRoll()
