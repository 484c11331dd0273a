"""A view's attribute that is the live table's own: read there, so that the view keeps no game
state (the dice tray's line, draft, roll and flags)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from gmscreen.play.table import Table


class TableView(Protocol):
    @property
    def table(self) -> Table | None: ...


T = TypeVar("T")


class OfTable(Generic[T]):
    """A tray attribute that is the live table's own (read there; `default` with no table open):
    the tray keeps no game state."""

    def __init__(self, default: T) -> None:
        self.default = default
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: TableView, owner: type) -> T:
        table = view.table
        return self.default if table is None else cast(T, getattr(table, self.name))
