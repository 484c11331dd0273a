"""Te Deum conditions: Bonus and Malus steps of the characteristic die (R3, R4). Malus and
Bonus are the game's own words in either language; "penalty 2" reads as "Malus 2" too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen.i18n import N_, ngettext

from ...effect_rules import CANNOT_ACT, Effect, EffectRules, side_prefix, word_amount

if TYPE_CHECKING:
    from ...quickroll.grammar import Side


class TedeumEffects(EffectRules):
    """"Malus" is one step smaller (a D10 for a D12), "Malus 2" two; "Bonus" one step larger.
    Steps add up and the die stays within D4..D20 (R4): `die_shift` is kept within −5..+5."""

    accepted = N_("“Malus”, “Malus 2”, “Bonus”, “Bonus 2” (steps of the characteristic die)")
    reminders = CANNOT_ACT

    def parse(self, core: str, shown: str) -> Effect | None:
        for word, sign in (("malus|penalty", -1), ("bonus", 1)):
            steps = word_amount(core, word)
            if steps:
                return Effect(shown, sign * steps)
        return None

    def said(self, effect: Effect) -> str:
        steps = abs(effect.amount)
        word = "Malus" if effect.amount < 0 else "Bonus"        # the game's own words, never translated
        typed = word if steps == 1 else f"{word} {steps}"
        what = (ngettext("the die {n} step smaller", "the die {n} steps smaller", steps) if effect.amount < 0
                else ngettext("the die {n} step larger", "the die {n} steps larger", steps))
        return f"{typed} ({what.format(n=steps)})"

    def apply(self, effect: Effect, request: dict[str, Any], fields: set[str], role: str,
              side: Side) -> bool | None:
        key = side_prefix(fields, role, "die_shift")
        if key is None or (role == "opponent" and request.get("defender_reacts") is False):
            return False        # a defender without reaction (R9: surprised) rolls nothing: a reminder
        request[key] = max(-5, min(5, request.get(key, 0) + effect.amount))
        return True


EFFECTS = TedeumEffects()
