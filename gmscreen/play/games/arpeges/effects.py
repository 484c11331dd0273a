"""Arpèges conditions: a number added to the difficulty of the bearer's actions (R3, R4), read
in French or English ("−2 à la difficulté", "−2 to difficulty"), whatever the UI language."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from gmscreen.i18n import N_, _
from gmscreen.i18n.typography import signed

from ...effect_rules import CANNOT_ACT, Effect, EffectRules, side_prefix, signed_amount

if TYPE_CHECKING:
    from ...quickroll.grammar import Side

_TAIL = re.compile(r"(?:\s*(?:(?:a|aux?)\s+(?:la\s+)?difficulte|(?:(?:to|on)\s+)?(?:the\s+)?difficulty)\b.*)?")


class ArpegesEffects(EffectRules):
    """"−2 à la difficulté de ses actions" (or "−2"): the action's difficulty in a simple test;
    in an opposition, where the difficulty is the two skill levels, the bearer's skill level
    (the same sum, R8: difficulty = actor level − opponent level)."""

    accepted = N_("“−2 to the difficulty of their actions”, “−2”, “+1”")
    reminders = CANNOT_ACT

    def parse(self, core: str, shown: str) -> Effect | None:
        m = re.fullmatch(r"([+\-]\d{1,2})" + _TAIL.pattern, core)
        amount = signed_amount(m.group(1)) if m else None
        return Effect(shown, amount, brief=shown.split()[0]) if amount else None

    def said(self, effect: Effect) -> str:
        return _("{amount} to the difficulty of their actions").format(amount=signed(effect.amount))

    def apply(self, effect: Effect, request: dict[str, Any], fields: set[str], role: str,
              side: Side) -> bool | None:
        key = "difficulty" if role == "actor" and "skill_level" in fields else side_prefix(
            fields, role, "skill_level")
        if key is None or key == "skill_level":
            return False
        request[key] = max(-30, min(30, request.get(key, 0) + effect.amount))
        return True


EFFECTS = ArpegesEffects()
