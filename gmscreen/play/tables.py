"""The door to every system's play side: `table_for(system_id)`, found through the rules' registry.

The shipped games live in `games/<id>/` (each a `GameTable` named by its `Plugin`), a
third-party game hands its `GameTable` to its `Plugin`. The edges that hold a campaign or a
system id (the `Table`, the CLI's commands, the screen's views, the player view, the tests)
find a game's parts here, never through the `games` package, and hand them to the engines
(the grammar, the flow of a roll, the timers, the effects…), which never look a game up
(tests/play/test_engines_handed_their_game.py). This module imports only `game` (the parts'
base classes, and the records of `exchange`), so the games, which build on the engines, are
imported only when first asked for, and never back by what they import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmscreen.rules import registry

from .game import GameTable

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

_tables: dict[str, tuple[registry.Plugin, GameTable]] = {}


def table_for(system_id: str) -> GameTable:
    """The parts of `system_id` (KeyError when no package provides it)."""
    plugin = registry.plugin(system_id)
    cached = _tables.get(system_id)
    if cached is None or cached[0] is not plugin:      # registered again since: read it anew
        table = plugin.table
        if isinstance(table, str):
            table = registry.load(table)
        cached = _tables[system_id] = (plugin, table if table is not None else GameTable(system_id))
    return cached[1]


def known_table(system_id: str) -> GameTable | None:
    """The parts of `system_id`, or None when no package provides it (an edge's lookup of a
    campaign that may name a system the loader has already refused)."""
    try:
        return table_for(system_id)
    except KeyError:
        return None


def campaign_table(campaign: Campaign | None) -> GameTable | None:
    """The parts of the campaign's game (None without a campaign): what an edge hands with a
    campaign to the engines that read its lines (the log's names, what players may see)."""
    return table_for(campaign.system) if campaign is not None else None
