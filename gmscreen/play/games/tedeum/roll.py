"""Te Deum inside a roll: Providence is called before the roll (R11) and its die drops a step
once used; a roll may earn XP in the characteristic it tested. Both go onto the sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen.i18n import _
from gmscreen.i18n.typography import Name, percent

from ...chances import chance
from ...quickroll.choices import Option, Prompt
from ...roll_rules import RollRules

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from ...quickroll.choices import RollFlow
    from ...quickroll.grammar import Draft, Side, Spend



def _after_use(die: int, gender: str | None = None) -> str:
    """The Providence die once used, one step lower (R11: a D4 used is gone), named as the rules
    name it: "D6 (Fils prodigue)", "Brebis égarée" (in the bearer's gender)."""
    from gmscreen.rules.tedeum import PROVIDENCE_AFTER

    after = PROVIDENCE_AFTER.get(die)
    return "?" if after is None else level_name(after, gender)


def level_name(die: int, gender: str | None = None) -> str:
    """A Providence die as the rules' detail says it: "D6 (Fils prodigue)", "D8", "Brebis égarée"."""
    from gmscreen.rules.tedeum import providence_level

    name = providence_level(die, gender)
    return f"D{die} ({name})" if die and name else (name or f"D{die}")


class TedeumRoll(RollRules):
    def start(self, flow: RollFlow) -> None:
        """Asked before any die: the chance without and with Providence, and what it costs."""
        data = flow.draft.choice.data if flow.draft.choice else {}
        prefix, die = data.get("prefix", ""), data.get("providence", 0)
        without = chance(flow.draft.odds_request)       # the memo: the tray priced it already
        with_prov = chance(dict(flow.draft.odds_request, **{prefix + "use_providence": True}))
        actor = flow.draft.sides[0].character if flow.draft.sides else None
        gender = getattr(actor, "gender", None)
        flow.prompt = Prompt(
            _("{name} calls on Providence? D{die} ({without} → {with_providence}), then it drops to {after}")
            .format(name=Name(flow.draft.who), die=die, without=percent(without), with_providence=percent(with_prov),
                    after=_after_use(die, gender)),
            (Option("p", "Providence", "providence"), Option("n", _("without"), "no_providence")), "n")

    def choose(self, flow: RollFlow, action: str) -> None:
        if action == "providence":
            prefix = flow.draft.choice.data["prefix"] if flow.draft.choice else ""
            flow.request[prefix + "use_providence"] = True
            flow.resolve_random()
        elif action == "no_providence":
            flow.resolve_random()

    def spending(self, draft: Draft, result: dict[str, Any], campaign: Campaign) -> list[Spend]:
        """The Providence die after the roll, and the XP earned in the characteristic tested."""
        from ...quickroll.grammar import Spend

        out: list[Spend] = []
        prefixes = [""] if draft.kind == "simple" else ["actor_", "opponent_"]
        for side, prefix in zip(draft.sides, prefixes):
            if side.index is None:
                continue
            after = result.get(prefix + "providence_die_after")
            res = side.sheet("resources")
            before = int(res.get("providence", 0) or 0)
            if after is not None and "providence" in res and after != before:
                gender = getattr(side.character, "gender", None)
                out.append(Spend(("characters", side.index, "sheet", "resources", "providence"), before, after,
                                 f"Providence D{before} → {f'D{after}' if after else level_name(0, gender)} ({side.name})"))
            xp = result.get("xp" if prefix == "" else prefix + "xp", 0) or 0
            key = _characteristic_of(side)
            if xp and key is not None:
                text = f"XP +{xp} {key} ({side.name})"
                if isinstance(side.character.sheet.get("xp"), dict):  # type: ignore[union-attr]
                    old = int(side.sheet("xp").get(key, 0) or 0)
                    out.append(Spend(("characters", side.index, "sheet", "xp", key), old, old + xp, text))
                else:
                    out.append(Spend(("characters", side.index, "sheet", "xp"), None, {key: xp}, text))
        return out


def _characteristic_of(side: Side) -> str | None:
    """The characteristic a side tested: named itself, else the one its skill goes with."""
    for cand, _tok in side.traits:
        if isinstance(cand.value, tuple) and cand.value[0] == "char":
            return str(cand.value[1])
    for cand, _tok in side.traits:
        if isinstance(cand.value, tuple) and cand.value[0] == "skill" and len(cand.value) > 3:
            return str(cand.value[3])
    return None


ROLL = TedeumRoll()
