"""MIR conditions: dice taken from (or given to) the pool, "−1 dé", "-2 dés" (R3–R5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gmscreen.i18n import N_

from ...effect_rules import Effect, EffectRules, side_prefix, signed_amount, word_amount

if TYPE_CHECKING:
    from ...quickroll.grammar import Side

_DICE = r"d|de|des|d12"


class MirEffects(EffectRules):
    """A die fewer is a die removed (`penalty`, as `malus N`); a die more, a situation die."""

    accepted = N_("“−1 dé”, “-2 dés”, “+1 dé”, “malus 2” (dice removed)")

    def parse(self, core: str, shown: str) -> Effect | None:
        amount = signed_amount(core, _DICE)
        if amount is None:
            malus = word_amount(core, "malus")
            amount = -malus if malus is not None else None
        if amount is None or amount == 0:
            return None
        return Effect(shown, amount)

    def apply(self, effect: Effect, request: dict[str, Any], fields: set[str], role: str,
              side: Side) -> bool | None:
        field = "penalty" if effect.amount < 0 else "modifier"
        key = side_prefix(fields, role, field)
        if key is None:
            return False
        request[key] = request.get(key, 0) + abs(effect.amount)
        return True

    def apply_helper(self, effect: Effect, request: dict[str, Any], fields: set[str], position: int) -> bool | None:
        """A helper's pool is given "after their own modifiers" (R10): their dice fewer or more."""
        pools = request.get("helper_pools")
        if not isinstance(pools, list) or position >= len(pools):
            return None
        request["helper_pools"] = [max(0, min(12, p + effect.amount)) if n == position else p
                                   for n, p in enumerate(pools)]
        return True


EFFECTS = MirEffects()
