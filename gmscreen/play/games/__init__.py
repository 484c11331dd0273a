"""The play side of every system, found through the rules' registry.

`table_for(system_id)` is the one door: the shipped games live in the folders beside this
module (`mir/`, `eclats/`, …), a third-party game hands its `GameTable` to its `Plugin`.
"""

from __future__ import annotations

from gmscreen.rules import registry

from ..game import GameTable

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
