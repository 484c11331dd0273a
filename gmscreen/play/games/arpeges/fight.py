"""Arpèges in a fight: several actions declared for one round each take a malus (R12)."""

from __future__ import annotations

from gmscreen.i18n import _
from gmscreen.i18n.typography import signed
from gmscreen.rules.arpeges import SIMULTANEOUS_PENALTY

from ...fight_rules import FightRules


class ArpegesFight(FightRules):
    def simultaneous_malus(self, count: int) -> int:
        """R12: each action beyond the first takes −3 off the difficulty of all of them."""
        return SIMULTANEOUS_PENALTY * (count - 1) if count > 1 else 0

    def declaration_note(self) -> str:
        return _("Arpèges (R12): each extra action takes {penalty} off the difficulty of all of them "
                 "(2 actions: {malus} each).").format(penalty=SIMULTANEOUS_PENALTY,
                                                      malus=signed(-SIMULTANEOUS_PENALTY))


FIGHT = ArpegesFight()
