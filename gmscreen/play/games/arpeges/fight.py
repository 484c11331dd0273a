"""Arpèges in a fight: several actions declared for one round each take a malus (R12)."""

from __future__ import annotations

from gmscreen.rules.arpeges import SIMULTANEOUS_PENALTY

from ...fight_rules import FightRules


class ArpegesFight(FightRules):
    def simultaneous_malus(self, count: int) -> int:
        """R12: each action beyond the first takes −3 off the difficulty of all of them."""
        return SIMULTANEOUS_PENALTY * (count - 1) if count > 1 else 0

    def declaration_note(self) -> str:
        return (f"Arpèges (R12) : chaque action en plus retire {SIMULTANEOUS_PENALTY} à la difficulté de toutes "
                f"(2 actions : −{SIMULTANEOUS_PENALTY} chacune).")


FIGHT = ArpegesFight()
