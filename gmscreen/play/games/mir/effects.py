"""MIR conditions: situation dice given or taken (R3, "−2 dés", "+1 dé", capped at ±2D with
the typed ones) and dice removed by a negative antecedent (R4, "blessure −1 dé", "préjugé −1
dé", "malus 2"), which bite in a fight or an Intrigue (R5: at least one die stays). Read in
English as well ("−2 dice", "+1 die", "wound −1 die", "prejudice −1 die", "penalty 2"), whatever
the UI language: a GM may type either."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from gmscreen.i18n import N_, _, ngettext
from gmscreen.i18n.typography import signed

from ...effect_rules import (CANNOT_ACT, FIGHT, Effect, EffectRules, effect_core, side_prefix, signed_amount,
                             word_amount)

if TYPE_CHECKING:
    from ...quickroll.grammar import Side

_DICE = r"d|de|des|d12|die|dice"
_PENALTY = r"malus|penalty"
# R4's negative antecedents, as a condition's effect names them before its dice (folded words),
# each with the word the reading names it by.
_WOUND, _PREJUDICE, _ANTECEDENT_OF = "wound", "prejudice", "antecedent"
_ANTECEDENT_KINDS = {"blessure": _WOUND, "blessures": _WOUND, "wound": _WOUND, "wounds": _WOUND,
                     "prejuge": _PREJUDICE, "prejuges": _PREJUDICE, "prejudice": _PREJUDICE,
                     "prejudices": _PREJUDICE,
                     "antecedent": _ANTECEDENT_OF, "antecedents": _ANTECEDENT_OF,
                     "antecedent negatif": _ANTECEDENT_OF, "antecedents negatifs": _ANTECEDENT_OF,
                     "negative antecedent": _ANTECEDENT_OF, "negative antecedents": _ANTECEDENT_OF}
_ANTECEDENT_WORDS = tuple(_ANTECEDENT_KINDS)
_ANTECEDENT = re.compile(rf"({'|'.join(sorted(_ANTECEDENT_WORDS, key=len, reverse=True))})\s+(.+)")
SITUATION, ANTECEDENT = "", "antecedent"      # an effect's target: R3's situation dice, R4's dice removed
INTRIGUE = "intrigue"                           # the line's scene word: the roll is part of an Intrigue (R4)
CAP = 2                                         # R3: « un modificateur maximum de +2D à -2D »


class MirEffects(EffectRules):
    """"−1 dé", "+1 dé": the scene's situation dice (R3: rain, darkness, high ground), added to
    the typed ones and capped with them at ±2D. "blessure −1 dé", "préjugé −1 dé", "malus 2": dice
    removed by a negative antecedent (R4), in a fight or an Intrigue only."""

    accepted = N_("“−1 die”, “+1 die” (situation dice, R3), “wound −1 die”, “prejudice −2 dice”, “penalty 2” "
                  "(dice removed by a negative antecedent, R4)")
    reminders = CANNOT_ACT

    def parse(self, core: str, shown: str) -> Effect | None:
        target = SITUATION
        if core.startswith("situation "):
            core = core[len("situation "):]
        m = _ANTECEDENT.fullmatch(core)
        if m is not None:
            target, core = ANTECEDENT, m.group(2)
        amount = signed_amount(core, _DICE)
        if amount is None:
            malus = word_amount(core, _PENALTY)
            if malus is not None:
                amount, target = -malus, ANTECEDENT
        if amount is None or amount == 0 or (target == ANTECEDENT and amount > 0):
            return None             # R4 only removes dice
        return Effect(shown, amount, target)

    def said(self, effect: Effect) -> str:
        count, amount = abs(effect.amount), signed(effect.amount)
        if effect.target != ANTECEDENT:
            return ngettext("{amount} die", "{amount} dice", count).format(amount=amount)
        core = effect_core(effect.shown)
        if core.startswith("situation "):
            core = core[len("situation "):]
        m = _ANTECEDENT.fullmatch(core)
        kind = _ANTECEDENT_KINDS.get(m.group(1), _ANTECEDENT_OF) if m else None
        if kind == _WOUND:
            words = ngettext("wound {amount} die", "wound {amount} dice", count)
        elif kind == _PREJUDICE:
            words = ngettext("prejudice {amount} die", "prejudice {amount} dice", count)
        elif kind == _ANTECEDENT_OF:
            words = ngettext("antecedent {amount} die", "antecedent {amount} dice", count)
        else:
            words = _("penalty {count}")
        return _("{effect} (negative antecedent, R4: in a fight or an Intrigue)").format(
            effect=words.format(amount=amount, count=count))

    def out_of_scene(self, effect: Effect, scene: frozenset[str]) -> str | None:
        """R4: negative antecedents remove dice « lors d'un combat ou d'une Intrigue »; the GM
        applies them anyway with `intrigue` in the line."""
        if effect.target != ANTECEDENT or scene & {FIGHT, INTRIGUE}:
            return None
        return _("R4: in a fight or an Intrigue; “intrigue” in the line applies it")

    def apply(self, effect: Effect, request: dict[str, Any], fields: set[str], role: str,
              side: Side) -> bool | None:
        field = "penalty" if effect.target == ANTECEDENT else "modifier"
        key = side_prefix(fields, role, field)
        if key is None:
            return False
        request[key] = request.get(key, 0) + (abs(effect.amount) if field == "penalty" else effect.amount)
        return True

    def apply_helper(self, effect: Effect, request: dict[str, Any], fields: set[str], position: int) -> bool | None:
        """A helper's pool is given "after their own modifiers" (R10): their dice fewer or more."""
        pools = request.get("helper_pools")
        if not isinstance(pools, list) or position >= len(pools):
            return None
        request["helper_pools"] = [max(0, min(12, p + effect.amount)) if n == position else p
                                   for n, p in enumerate(pools)]
        return True

    def settle(self, request: dict[str, Any], before: dict[str, Any], fields: set[str],
               applied: Sequence[tuple[str | int, Effect]]) -> dict[int, str]:
        """R3: the situation dice of one roller, typed and from conditions together, stay within
        ±2D; a helper's own situation dice too. Each situation effect the cap cut is noted."""
        notes: dict[int, str] = {}
        cut = _("R3: ±2D at most")
        for where in {w for w, _e in applied}:
            mine = [(n, e) for n, (w, e) in enumerate(applied) if w == where]
            situation = sum(e.amount for _n, e in mine if e.target == SITUATION)
            if isinstance(where, int):
                pools = before.get("helper_pools")
                if not isinstance(pools, list) or where >= len(pools):
                    continue
                removed = sum(e.amount for _n, e in mine if e.target == ANTECEDENT)
                kept = max(-CAP, min(CAP, situation))
                now = list(request["helper_pools"])
                now[where] = max(0, min(12, pools[where] + kept + removed))
                request["helper_pools"] = now
            else:
                key = side_prefix(fields, where, "modifier")
                typed = before.get(key, 0) if key else 0
                if key is None or not situation or not isinstance(typed, int):
                    continue
                if abs(typed) > CAP:
                    request[key] = typed    # out of range as typed: the rules refuse it so
                    continue
                kept = max(-CAP, min(CAP, typed + situation)) - typed
                request[key] = typed + kept
            if kept != situation:
                notes.update({n: cut for n, e in mine if e.target == SITUATION})
        return notes


EFFECTS = MirEffects()
