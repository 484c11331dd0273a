"""Éclats inside a roll: each die may be rerolled while the characteristic allows more rolls,
the new die replacing the old (R3, R4). `dice = [3, 0]` is "rolled 3, rerolled, got 0".

When the skill alone reaches the threshold the player need not roll at all (R5, 001 l.50): that
is asked before any die, settling for the skill the default (the odds' "best" policy). Every
prompt's default is the choice the odds assume: reroll while the result fails, else keep."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.i18n import _, ngettext
from gmscreen.rules import resolve

from ...exchange import KEEP, keep_option
from ...quickroll.choices import Option, Prompt
from ...roll_rules import RollRules

if TYPE_CHECKING:
    from ...choice_odds import Assumed
    from ...exchange import Flow
    from ...quickroll.grammar import Draft


ASK_ROLL = "roll?"          # `flow.asking` while R5 is asked: roll at all, or settle for the skill


class EclatsRoll(RollRules):
    def start(self, flow: Flow) -> None:
        """R5: with the skill alone reaching the threshold, whether to roll at all is asked
        first (always with the threshold hidden: asking only then would tell it)."""
        request = flow.request
        if _skill_suffices(request) or request.get("hidden"):
            flow.asking = ASK_ROLL
            skill = resolve(dict(request, dice=[]))["result"]
            public = _("{name}: roll the die, or settle for the skill alone ({result})? (R5)").format(
                name=flow.draft.who, result=skill)
            question = _("{name}: the skill alone gives {result} — roll the die anyway? (R5)").format(
                name=flow.draft.who, result=skill) if _skill_suffices(request) else public
            hidden = bool(request.get("hidden"))
            flow.prompt = Prompt(question, (
                Option("n", _("no die"), "no_roll", None if hidden else 1.0 if _skill_suffices(request) else 0.0),
                Option("r", _("roll"), "roll", None if hidden else _chance_from(request, [None]))),
                self._default(flow), public=public, settles="n")
            return
        self._roll(flow)

    def choose(self, flow: Flow, action: str) -> None:
        if action == "no_roll":
            flow.asking = ""
            flow.request["dice"] = []
            flow.result = resolve(flow.request)
        elif action == "roll":
            flow.asking = ""
            self._roll(flow)
        elif action == "reroll":
            flow.request["dice"] = flow.request["dice"] + [flow.face(10, 0)]
            self._after_die(flow)

    def policy_key(self, flow: Flow) -> str:
        """The odds' "best" policy: no die when the skill alone succeeds (R5), then roll again
        while stopping would not succeed (R4)."""
        if flow.asking == ASK_ROLL:
            return "n" if _skill_suffices(flow.request) else "r"
        return KEEP if (flow.result or {}).get("outcome") == "success" else "r"

    def _default(self, flow: Flow) -> str:
        """Enter takes the choice the odds assume (`policy_key`)."""
        return self.policy_key(flow)

    def _roll(self, flow: Flow) -> None:
        flow.request["dice"] = [flow.face(10, 0)]
        self._after_die(flow)

    def _after_die(self, flow: Flow) -> None:
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
            flow.prompt = Prompt(question, _options(flow), self._default(flow), public=question, settles=KEEP)

    def assumed(self, draft: Draft) -> Assumed | None:
        """With two or three rolls allowed, the odds roll again while stopping would fail
        (policy "best", R4) or roll once ("single"): said, with the other way."""
        from ...choice_odds import Assumed

        request = draft.odds_request
        if draft.kind != "simple" or int(request.get("characteristic", 0) or 0) < 2:
            return None
        if request.get("policy", "best") == "best":
            return Assumed(_("rerolling while it fails"), _("rerolls"), _("without rerolling"),
                           dict(request, policy="single"))
        return Assumed(_("without rerolling"), _("no reroll"), _("rerolling"), dict(request, policy="best"))


def _options(flow: Flow) -> tuple[Option, ...]:
    """Reroll or keep, each with the exact chance it leaves, unless the threshold is hidden
    from the table (a chance would tell it: R10)."""
    if flow.request.get("hidden"):
        return (Option("r", _("reroll"), "reroll"), keep_option(_("keep")))
    return (Option("r", _("reroll"), "reroll", _chance_from(flow.request, flow.request["dice"] + [None])),
            keep_option(_("keep"), 1.0 if (flow.result or {}).get("outcome") == "success" else 0.0))


def _skill_suffices(request: dict) -> bool:
    """R5: the default result (no die: it counts 0) already reaches the threshold."""
    return resolve(dict(request, dice=[]))["outcome"] == "success"


def _chance_from(request: dict, dice: list) -> float:
    """The exact chance of success once the last die (None) is rolled, the player then rolling
    again while stopping would fail and rolls remain (the odds' "best" policy, R4): every face
    resolved by the rules, at most 10 × 10 of them."""
    total = 0.0
    for face in range(10):
        rolled = dice[:-1] + [face]
        result = resolve(dict(request, dice=rolled))
        if result["outcome"] == "success":
            total += 1
        elif len(rolled) < request["characteristic"]:
            total += _chance_from(request, rolled + [None])
    return total / 10


ROLL = EclatsRoll()
