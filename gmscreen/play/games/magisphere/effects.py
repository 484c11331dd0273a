"""Magisphère conditions: a malus raises the threshold, a bonus the score (R1, R2). Read in
French or English ("Malus 3", "penalty 3", "Bonus 2"), whatever the UI language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen.i18n import N_, _

from ...effect_rules import CANNOT_ACT, Effect, EffectRules, side_prefix, word_amount

if TYPE_CHECKING:
    from ...quickroll.grammar import Side


class MagisphereEffects(EffectRules):
    """"Malus 3" adds 3 to the threshold (`malus`); "Malus" alone is 1, the least R2 names.
    In an opposition there is no threshold: a malus is a bonus to the other side, as the
    line's `malus` is there; "Bonus 2" adds to the score (`bonus`)."""

    accepted = N_("“penalty 3”, “penalty” (1), “bonus 2”")
    reminders = CANNOT_ACT

    def parse(self, core: str, shown: str) -> Effect | None:
        for word, sign in (("malus|penalty", -1), ("bonus", 1)):
            amount = word_amount(core, word)
            if amount:
                return Effect(shown, sign * amount)
        return None

    def said(self, effect: Effect) -> str:
        said = _("penalty {n}") if effect.amount < 0 else _("bonus {n}")
        return said.format(n=abs(effect.amount))

    def apply(self, effect: Effect, request: dict[str, Any], fields: set[str], role: str,
              side: Side) -> bool | None:
        if effect.amount > 0:
            key = side_prefix(fields, role, "bonus")
        elif "malus" in fields and role == "actor":
            key = "malus"
        else:
            key = side_prefix(fields, "opponent" if role == "actor" else "actor", "bonus")
        if key is None:
            return False
        request[key] = request.get(key, 0) + abs(effect.amount)
        return True


EFFECTS = MagisphereEffects()
