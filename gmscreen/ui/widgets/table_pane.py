"""What the roster and the initiative queue share: a pane drawn as one table, whose keys act on
the row under the cursor and edit the campaign through the host, one undoable change a key."""

from __future__ import annotations

from functools import wraps
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, TypeVar

from textual.widget import Widget
from textual.widgets import DataTable

from gmscreen.ui.view import CampaignView

if TYPE_CHECKING:
    from gmscreen.campaign.session import CampaignSession, EditBuilder

Row = TypeVar("Row")


def row_after_removal(before: list[str], gone: str | None, now: list[str],
                      kind: Callable[[str], Any] = lambda key: None) -> str | None:
    """The row the cursor goes to when the row it was on (`gone`) is no longer drawn: the one
    that took its place, or the row above when it was the last; one of the same `kind` first
    (an initiative entry rather than a timer drawn under the entries). None when `gone` is
    still there or was never drawn."""
    if gone is None or gone in now or gone not in before:
        return None
    at = before.index(gone)
    around = [k for k in before[at + 1:] if k in now] + [k for k in reversed(before[:at]) if k in now]
    same = [k for k in around if kind(k) == kind(gone)]
    return next(iter(same or around), None)


def editing(action: Callable[..., None]) -> Callable[..., None]:
    """A key that changes the campaign: `action(self, session, *args)` runs only when a campaign is
    open for changes (else the GM is told why)."""

    @wraps(action)
    def run(self: TablePane[Any], *args: Any) -> None:
        session = self._editing()
        if session is not None:
            action(self, session, *args)

    return run


def editing_row(action: Callable[..., None]) -> Callable[..., None]:
    """A key that changes the item under the cursor: `action(self, session, index, item, *args)`
    runs only when there is one and the campaign is open for changes (else the GM is told why)."""

    @wraps(action)
    def run(self: TablePane[Any], *args: Any) -> None:
        target = self._editable()
        if target is not None:
            action(self, *target, *args)

    return run


def update_row(table: DataTable, row_key: str, cells: Iterable[tuple[str, Any]]) -> None:
    """Put the cells that changed into one row, repainting that row only. `update_cell` repaints
    the whole table for one cell: every visible row down the wire, where one would do."""
    changed = [(column, cell) for column, cell in cells if table.get_cell(row_key, column) != cell]
    if not changed:
        return
    table.refresh = _no_refresh  # type: ignore[method-assign, assignment]  # shadowed; the row is refreshed below
    try:
        for column, cell in changed:
            table.update_cell(row_key, column, cell)
    finally:
        del table.refresh
    table.refresh_row(table.get_row_index(row_key))


def _no_refresh(*_regions: Any, **_options: Any) -> None:
    return None


class TablePane(CampaignView, Widget, Generic[Row]):
    """A pane around the DataTable `#<TABLE_ID>`; `_current()` says which item its cursor is on."""

    TABLE_ID = ""

    @property
    def table(self) -> DataTable:
        return self.query_one(f"#{self.TABLE_ID}", DataTable)

    @property
    def session(self) -> CampaignSession | None:
        return self.host.session

    def focus(self, scroll_visible: bool = True) -> TablePane[Row]:
        """Focusing the pane focuses its table (the app switches panes this way)."""
        self.table.focus(scroll_visible)
        return self

    def _current(self) -> tuple[int, Row] | None:
        """The index in its campaign list and the item of the row under the cursor; None when a
        key cannot act on that row (the GM is told why). Each pane says (an abstract hook: Textual
        widgets take no ABC)."""
        raise NotImplementedError

    def _writable(self) -> bool:
        return self.host.may_edit()

    def _editing(self) -> CampaignSession | None:
        """The session when a key may change it; None (the GM told why) when there is none or
        it is read-only."""
        return self.session if self.host.may_edit() else None

    def _editable(self) -> tuple[CampaignSession, int, Row] | None:
        """The session, index and item an editing key acts on; None (the GM told why) when there
        is none or the campaign is read-only."""
        found = self._current()
        if found is None or not self._writable():
            return None
        assert self.session is not None
        return (self.session, *found)

    def _change(self, label: str, build: Callable[[EditBuilder], None]) -> bool:
        return bool(self.host.change(label, build))
