"""Te Deum inside a roll: Providence is called before the roll (R11) and its die drops a step
once used; a roll may earn XP in the characteristic it tested. Both go onto the sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen.i18n import _
from gmscreen.i18n.typography import Name, percent

from ...chances import chance, opponent_chance
from ...quickroll.choices import Option, Prompt
from ...roll_rules import RollRules

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from ...choice_odds import Assumed

    from ...exchange import Flow
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
    def start(self, flow: Flow) -> None:
        """Asked before any die, each side in turn (the actor, then the defender): the chance
        without and with Providence, and what it costs."""
        self._ask(flow, 0)

    def plain(self, flow: Flow) -> None:
        flow.resolve_random()
        _gendered(flow)

    def choose(self, flow: Flow, action: str) -> None:
        if action not in ("providence", "no_providence"):
            return
        if action == "providence":
            flow.request[flow.asking + "use_providence"] = True
        sides = _asked(flow)
        done = next((n for n, (prefix, _die, _i) in enumerate(sides) if prefix == flow.asking), len(sides))
        self._ask(flow, done + 1)

    def _ask(self, flow: Flow, n: int) -> None:
        """Ask side `n` of those the line leaves to decide, or roll when none is left."""
        sides = _asked(flow)
        if n >= len(sides):
            flow.resolve_random()
            _gendered(flow)
            return
        prefix, die, index = sides[n]
        flow.asking = prefix
        side = flow.draft.sides[index] if index < len(flow.draft.sides) else None
        gender = getattr(side.character, "gender", None) if side is not None else None
        name = side.name if side is not None else flow.draft.who
        request = {k: v for k, v in flow.request.items() if not k.endswith("dice")}   # no die rolled yet
        called = dict(request, **{prefix + "use_providence": True})
        if prefix == "opponent_":
            without, with_prov = opponent_chance(request), opponent_chance(called)     # the defender's own chance
            question = _("{name} defends with Providence? D{die} ({without} → {with_providence}), then {after}") \
                if flow.draft.kind == "attack" else \
                _("{name} calls on Providence? D{die} ({without} → {with_providence}), then it drops to {after}")
        else:
            without, with_prov = chance(request), chance(called)    # the memo: the tray priced it already
            question = _("{name} calls on Providence? D{die} ({without} → {with_providence}), then it drops to {after}")
        flow.prompt = Prompt(
            question.format(name=Name(name), die=die, without=percent(without), with_providence=percent(with_prov),
                            after=_after_use(die, gender)),
            (Option("p", "Providence", "providence"), Option("n", _("without"), "no_providence")), "n")

    def assumed(self, draft: Draft) -> Assumed | None:
        """The odds take Providence as the line says (not called unless typed): said for the
        first side that has a die (the actor, else the defender), with the other choice."""
        from ...choice_odds import Assumed

        request = draft.odds_request
        prefixes = ("",) if draft.kind == "simple" else ("actor_", "opponent_")
        for n, prefix in enumerate(prefixes):
            if not request.get(prefix + "providence_die") or prefix + "die" not in request:
                continue
            used = bool(request.get(prefix + "use_providence"))
            if used and draft.baseline is not None:
                return None                 # typed: the modifier says it already ("42 % → 71 %")
            other = dict(request)
            if used:
                other.pop(prefix + "use_providence")
            else:
                other[prefix + "use_providence"] = True
            if n == 0:
                words = _("with Providence") if used else _("without Providence")
            else:
                name = draft.sides[n].name if n < len(draft.sides) else "?"
                words = (_("{name} with Providence") if used else _("{name} without Providence")).format(name=name)
            short = "Providence" if used else _("no Providence")
            return Assumed(words, short, _("without") if used else _("with"), other)
        return None

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


def _gendered(flow: Flow) -> None:
    """A test's result says the roller's gender when it is a woman's (`gender` = "f"): the
    rules then name the Providence level she drops to as the prompt did ("Pauvre pécheresse")."""
    if flow.result is None or flow.draft.kind != "simple" or not flow.draft.sides:
        return
    character = flow.draft.sides[0].character
    if character is not None and getattr(character, "gender", None) == "f":
        flow.result = {**flow.result, "gender": "f"}


def _asked(flow: Flow) -> list[tuple[str, int, int]]:
    """(prefix, Providence die, side index) of each side the prompt asks, in turn."""
    data = flow.draft.choice.data if flow.draft.choice else {}
    if "sides" in data:
        return [tuple(side) for side in data["sides"]]
    return [(data.get("prefix", ""), data.get("providence", 0), 0)]


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
