"""Actions declared for the round, and the Arpèges R12 malus for acting several times at once.

The initiative pane records the declarations and shows the malus each action takes; the
rule is kept here, free of Textual, so it reads (and can be checked) apart from the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.rules.arpeges import SIMULTANEOUS_PENALTY as ARPEGES_STEP   # R12: −3 per extra action

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign


def simultaneous_actions(campaign: Campaign, character_id: str) -> int:
    """Actions the character declared for this round (≥ 1): Arpèges R12 takes −3 per extra one."""
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


def simultaneous_malus(system_id: str, count: int) -> int:
    """The malus to each of `count` simultaneous actions: Arpèges R12 only, 0 for one action."""
    return ARPEGES_STEP * (count - 1) if system_id == "arpeges" and count > 1 else 0
