"""What a table tells the GM, kept in a list the test reads (the `Notice` events' texts)."""

from __future__ import annotations

from gmscreen.play import Notice, Table


def notices(table: Table) -> list[str]:
    """The texts of every `Notice` `table` emits from now on, in order."""
    told: list[str] = []
    table.subscribe(lambda event: told.append(event.text) if isinstance(event, Notice) else None)
    return told
