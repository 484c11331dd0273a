"""Éclats conditions: a characteristic rolled with fewer rolls, "FOR −1 (un lancer de moins)"
(the characteristic level is the number of rolls allowed, R3), or a reminder; read in French or
English ("FOR −1", "strength −1", "−1 roll", "can't act"), whatever the UI language."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from gmscreen.i18n import N_, ngettext
from gmscreen.i18n.typography import signed

from ...effect_rules import CANNOT_ACT, Effect, EffectRules, signed_amount

if TYPE_CHECKING:
    from ...quickroll.grammar import Choice, Side

_ROLLS = r"lancers?|jets?|rolls?"


class EclatsEffects(EffectRules):
    """"FOR −1" takes one roll from tests of FORce (the three letters, the key or the full
    name); "−1 lancer" from every test. "ne peut pas agir" is a reminder: Éclats has no number
    for it, the GM decides whether the character acts at all."""

    accepted = N_("“FOR −1” (a characteristic, one roll fewer), “−1 roll”, “can't act” (reminder)")
    reminders = CANNOT_ACT | {"hors de combat", "inconscient", "inconsciente",
                              "out of action", "out of the fight", "unconscious"}

    def parse(self, core: str, shown: str) -> Effect | None:
        amount = signed_amount(core, _ROLLS)
        if amount:
            return Effect(shown, amount)
        m = re.fullmatch(r"([a-z]+)\s*([+\-]\d{1,2})(?:\s*(?:" + _ROLLS + r"))?", core)
        if m is None:
            return None
        key = self._characteristic(m.group(1))
        amount = signed_amount(m.group(2))
        return Effect(shown, amount, key) if key and amount else None

    @staticmethod
    def _characteristic(word: str) -> str | None:
        from gmscreen.rules.eclats import CHARACTERISTICS

        from ...effect_rules import fold

        for stat in CHARACTERISTICS:
            if word in (stat.key, fold(stat.label)[:3], fold(stat.label), fold(stat.gloss or "")):
                return stat.key
        return None

    def said(self, effect: Effect) -> str:
        count, amount = abs(effect.amount), signed(effect.amount)
        if not effect.target:
            return ngettext("{amount} roll", "{amount} rolls", count).format(amount=amount)
        what = (ngettext("{n} roll fewer", "{n} rolls fewer", count) if effect.amount < 0
                else ngettext("{n} roll more", "{n} rolls more", count)).format(n=count)
        return f"{effect.target.upper()} {amount} ({what})"

    def apply(self, effect: Effect, request: dict[str, Any], fields: set[str], role: str,
              side: Side) -> bool | None:
        if effect.target:
            named = [c.value for c, _t in side.traits if isinstance(c.value, tuple) and c.value[0] == "char"]
            if not named or named[0][1] != effect.target:
                return None             # a test of another characteristic: not this roll
        request["characteristic"] = max(0, min(3, request["characteristic"] + effect.amount))
        return True

    def choice_after(self, choice: Choice | None, request: dict[str, Any]) -> Choice | None:
        if choice is None:
            return None
        if request["characteristic"] <= 0:
            return None
        return type(choice)(choice.kind, {**choice.data, "characteristic": request["characteristic"]})


EFFECTS = EclatsEffects()
