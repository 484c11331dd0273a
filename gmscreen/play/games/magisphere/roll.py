"""Magisphère inside a roll: a failing (or losing) side may spend 1 Impulsion to reroll (R6,
R7), `dice = [5, 14]`; the points spent come off the sheet. An extended opposition starts
with one exchange of d20s."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen.i18n import _, ngettext
from gmscreen.rules import RequestError, get_system, resolve

from ...exchange import KEEP, keep_option
from ...quickroll.choices import Option, Prompt
from ...roll_rules import RollRules

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from ...choice_odds import Assumed

    from ...exchange import Flow
    from ...quickroll.grammar import Draft, Spend

_FAILING = ("failure", "critical_failure")


def _reroll(reroll: float | None = None, keep: float | None = None) -> tuple[Option, ...]:
    """The options of a reroll, in the language spoken when it is asked, each with the chance
    it leaves when given (None: not told)."""
    return (Option("r", _("reroll (1 Impulsion)"), "reroll", reroll, _("reroll")),
            keep_option(_("keep"), keep if reroll is not None else None))


class MagisphereRoll(RollRules):
    def start(self, flow: Flow) -> None:
        if self._ask_help(flow):
            return
        self._first_dice(flow)

    def plain(self, flow: Flow) -> None:
        """Typed dice, or nobody with Impulsion to reroll: the GM's bonus for each helper of a
        test no skill fits first (R24), then the roll, then the reward of a natural 20 (R10)."""
        if self._ask_help(flow):
            return
        flow.resolve_random()
        self._offer_reward(flow)

    def choose(self, flow: Flow, action: str) -> None:
        if action.startswith("help_bonus:"):
            key = "bonus" if flow.draft.kind == "simple" else "actor_bonus"
            bonus = int(action.split(":", 1)[1])
            if bonus:
                flow.request[key] = flow.request.get(key, 0) + bonus
            flow.declined.add(flow.asking)
            if not self._ask_help(flow):
                if flow.draft.forced:           # `plain`: the typed dice
                    flow.resolve_random()
                    self._offer_reward(flow)
                else:                           # `start`: dice rolled one by one, rerolls asked
                    self._first_dice(flow)
        elif action in ("reward_impulsion", "reward_other"):
            if action == "reward_impulsion":
                gain = self._gain(flow, flow.asking.split(":", 1)[1])
                if gain is not None:
                    flow.gains.append(gain)
            flow.declined.add(flow.asking)
            self._offer_reward(flow)
        elif action == "reroll":
            name = "dice" if flow.draft.kind == "simple" else flow.asking + "dice"
            flow.request[name] = flow.request[name] + [flow.face(20)]
            self._after_dice(flow)
        elif action == "keep" and flow.draft.kind != "simple":
            flow.declined.add(flow.asking)
            self._after_dice(flow)
        elif action == "keep":
            self._offer_reward(flow)

    def policy_key(self, flow: Flow) -> str:
        """The odds' policy: a side rerolls while it fails (a simple test) or while it loses
        (an opposition; a tie stands), as long as it has points. The GM's bonus and a natural
        20's reward take the prompt's default (the odds assume neither)."""
        if flow.asking.startswith(("help:", "reward:")):
            return "enter"
        result = flow.result or {}
        if flow.draft.kind == "simple":
            return "r" if result.get("outcome") in _FAILING else KEEP
        other = "opponent" if flow.asking == "actor_" else "actor"
        return "r" if result.get("winner") == other else KEEP

    def _first_dice(self, flow: Flow) -> None:
        if flow.draft.kind == "simple":
            flow.request["dice"] = [flow.face(20)]
        else:
            flow.request["actor_dice"] = [flow.face(20)]
            flow.request["opponent_dice"] = [flow.face(20)]
        self._after_dice(flow)

    @staticmethod
    def _ask_help(flow: Flow) -> bool:
        """R24: when no skill fits the action, each helper gives the bonus the GM sets; asked once
        for each, before the dice, with the values R2 names (usually 1 to 3), each priced with the
        chance it leaves. Enter gives +0, the bonus the odds shown while typing assume."""
        data = flow.draft.choice.data if flow.draft.choice else {}
        for name in data.get("gm_help", []):
            token = "help:" + name
            if token in flow.declined:
                continue
            flow.asking = token
            flow.prompt = Prompt(
                _("{helper} helps where no skill fits the action: the GM's cooperation bonus? (R24)")
                .format(helper=name),
                tuple(Option(str(n), f"+{n}", f"help_bonus:{n}", _bonus_chance(flow, n)) for n in range(4)), "0")
            return True
        return False

    def _offer_reward(self, flow: Flow) -> None:
        """R10: a natural 20 brings something good besides. Offered to each side that rolled it
        and keeps Impulsion on its sheet: one more point, or another reward the GM tells."""
        result = flow.result or {}
        prefixes = ("",) if flow.draft.kind == "simple" else ("actor_", "opponent_")
        for n, prefix in enumerate(prefixes):
            token = "reward:" + prefix
            if token in flow.declined or result.get(prefix + "natural") != 20 or n >= len(flow.draft.sides):
                continue
            gain = self._gain(flow, prefix)
            if gain is None:
                continue
            side = flow.draft.sides[n]
            flow.asking = token
            flow.prompt = Prompt(
                _("{name}: natural 20 (R10)! Impulsion {before} → {after}, or another reward (friendly NPC, "
                  "hidden cache…)?")
                .format(name=side.name, before=gain.before, after=gain.after),
                (Option("i", _("+1 Impulsion"), "reward_impulsion"), Option("a", _("another reward"), "reward_other")),
                "i")
            return

    @staticmethod
    def _gain(flow: Flow, prefix: str) -> Spend | None:
        """One Impulsion more on the side's sheet, after what the roll spends (None: no
        Impulsion on that sheet, or already at its maximum)."""
        from ...quickroll.grammar import Spend

        n = 0 if prefix in ("", "actor_") else 1
        if n >= len(flow.draft.sides):
            return None
        side = flow.draft.sides[n]
        res = side.sheet("resources")
        if side.index is None or "impulsion" not in res:
            return None
        spent = (flow.result or {}).get(prefix + "impulsions_spent", 0) or 0
        before = max(0, int(res["impulsion"] or 0) - spent)
        most = res.get("impulsion_max")
        if isinstance(most, int) and before >= most:
            return None
        return Spend(("characters", side.index, "sheet", "resources", "impulsion"), before, before + 1,
                     f"Impulsion +1 → {side.name} (20)")

    def first_interval(self, flow: Flow) -> None:
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
    def _can_reroll(flow: Flow, prefix: str) -> tuple[bool, int]:
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

    @staticmethod
    def _reroll_chance(flow: Flow, prefix: str, left: int) -> float | None:
        """The asking side's exact chance if it rerolls now. A test: the new d20 without the +3,
        then rerolls while failing with the points left (`rules.odds` of that test, memoised).
        An opposition: the chance the new d20 wins against the other side's kept die, before
        any answer (the 20 faces resolved)."""
        from ...chances import chance

        if flow.request.get("hidden"):
            return None                 # a hidden threshold: a chance would tell it to the table
        if flow.draft.kind == "simple":
            limit = flow.request.get("reroll_limit", "unlimited")
            request = {k: v for k, v in flow.request.items() if k != "dice"}
            request.update(impulse_bonus=False, impulsions=0 if limit == "one" else left - 1)
            return chance(request)
        role = prefix[:-1]
        dice = flow.request[prefix + "dice"]
        wins = sum(resolve(dict(flow.request, **{prefix + "dice": dice + [face]}))["winner"] == role
                   for face in range(1, 21))
        return wins / 20

    def _after_dice(self, flow: Flow) -> None:
        result = flow.result = resolve(flow.request)
        if flow.draft.kind == "simple":
            ok, left = self._can_reroll(flow, "")
            if ok and result["outcome"] in _FAILING:
                flow.asking = ""
                flow.prompt = Prompt(
                    _("{name}: natural {natural}, score {score} against {target} — spend 1 Impulsion to reroll? "
                      "({left} left)").format(name=flow.draft.who, natural=result["natural"], score=result["score"],
                                              target=result["target"], left=left),
                    _reroll(self._reroll_chance(flow, "", left), 0.0), self.policy_key(flow),   # Enter: the odds' own
                    settles=KEEP)
            else:
                self._offer_reward(flow)
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
                            left=left), _reroll(self._reroll_chance(flow, prefix, left), 0.0),
                    self.policy_key(flow), settles=KEEP)   # Enter: the odds' own (reroll a loss, keep a tie)
                return
        self._offer_reward(flow)

    def assumed(self, draft: Draft) -> Assumed | None:
        """The odds let a losing side reroll while it has points (R6, R7): say how many, and
        give the same test with none."""
        from ...choice_odds import Assumed

        request = draft.odds_request
        if draft.kind not in ("simple", "opposed"):
            return None
        prefixes = ("",) if draft.kind == "simple" else ("actor_", "opponent_")
        limit = request.get("reroll_limit", "unlimited")
        other, budgets = dict(request), []
        for prefix, side in zip(prefixes, draft.sides):
            points = request.get(prefix + "impulsions")
            if points is None:
                continue
            bought = int(bool(request.get(prefix + "impulse_bonus")))
            budget = max(0, points - bought)
            budget = min(budget, 1) if limit == "one" else budget
            other[prefix + "impulsions"] = bought
            if budget:
                budgets.append((side.name, budget))
        if not budgets:
            return None
        total = sum(n for _name, n in budgets)
        if draft.kind == "simple":
            words = ngettext("with {n} Impulsion reroll", "with {n} Impulsion rerolls", total).format(n=total)
        elif len(budgets) == 1:
            words = ngettext("with {n} Impulsion reroll for {name}", "with {n} Impulsion rerolls for {name}",
                             total).format(n=total, name=budgets[0][0])
        else:
            words = _("with Impulsion rerolls: {sides}").format(sides=", ".join(f"{name} {n}" for name, n in budgets))
        short = ngettext("{n} reroll", "{n} rerolls", total).format(n=total)
        return Assumed(words, short, _("without"), other)


def _bonus_chance(flow: Flow, bonus: int) -> float | None:
    """The chance of success (of the actor winning) if the GM grants `bonus` more (R24), as the
    odds line prices the roll (Impulsion rerolls while failing); with typed dice, what they then
    give (1 or 0). None with the threshold hidden: a chance would tell it."""
    from ...chances import chance

    request = dict(flow.request)
    if request.get("hidden"):
        return None
    key = "bonus" if flow.draft.kind == "simple" else "actor_bonus"
    request[key] = request.get(key, 0) + bonus
    if flow.draft.forced:
        try:
            result = resolve(request)
        except RequestError:
            return None
        return 1.0 if result.get("outcome", result.get("winner")) in ("success", "critical_success", "actor") else 0.0
    kind = get_system(flow.draft.system).kinds[flow.draft.kind]
    try:
        return chance({k: v for k, v in request.items() if k not in kind.dice_fields})
    except RequestError:
        return None


ROLL = MagisphereRoll()
