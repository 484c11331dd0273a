"""Actions declared for the round, and the malus a game gives for acting several times at once.

The initiative pane records the declarations and shows the malus each action takes; the
rule itself is the game's (`FightRules.simultaneous_malus`, e.g. Arpèges R12), asked here
through the registry, free of Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from .game import GameTable


def simultaneous_actions(campaign: Campaign, character_id: str) -> int:
    """Actions the character declared for this round (≥ 1); a game may give a malus per extra one."""
    entries = {e.id for e in campaign.encounter.entries if e.character == character_id}
    for decl in campaign.encounter.declared:
        if decl.entry in entries:
            return max(1, len(decl.actions))
    return 1


def declared_actions(campaign: Campaign, entry_id: str) -> list[str]:
    """The actions the initiative entry declared this round (a copy; empty: none)."""
    for decl in campaign.encounter.declared:
        if decl.entry == entry_id:
            return list(decl.actions)
    return []


def simultaneous_malus(game: GameTable, count: int) -> int:
    """The malus to each of `count` simultaneous actions, by `game`'s rules (0 for one action)."""
    return game.fight.simultaneous_malus(count) if count > 1 else 0
