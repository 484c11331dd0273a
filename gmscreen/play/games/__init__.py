"""The play side of the shipped games, one folder each (`mir/`, `eclats/`, …), found through
the rules' registry.

`table_for(system_id)` is the one door (`gmscreen.play.tables`, named here too): a
third-party game hands its `GameTable` to its `Plugin`.
"""

from __future__ import annotations

from ..tables import table_for

__all__ = ["table_for"]
