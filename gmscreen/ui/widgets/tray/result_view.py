"""The tray's last roll, kept so that it can be drawn again: masked or not as the players come
and go, revealed from the log, or at a new width (only the cells that changed are sent)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual.widgets import Static

from gmscreen.ui.terminal.repaint import update_lines

if TYPE_CHECKING:
    from gmscreen.campaign.model import RollRecord
    from gmscreen.ui.widgets.tray.roll_result import ShownRoll


class RollResultView(Static):
    """`show` a roll; `redraw` it as the screen now is. `rows`: the rows it takes drawn."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)
        self.shown: ShownRoll | None = None
        self.rows = 0

    def show(self, shown: ShownRoll, *, watching: bool, ascii: bool, room: int) -> None:
        self.shown = shown
        self.redraw(watching=watching, ascii=ascii, room=room)

    def revealed(self, record: RollRecord) -> bool:
        """The roll shown was revealed in the log (same seq): True when it is this one."""
        shown = self.shown
        if shown is None or shown.record is None or shown.record.seq != record.seq:
            return False
        self.shown = replace(shown, record=record)
        return True

    def redraw(self, *, watching: bool, ascii: bool, room: int) -> None:
        """Drawn again (`room`: the width to assume before the first layout)."""
        shown = self.shown
        if shown is None or not self.is_mounted:
            return
        from gmscreen.ui.widgets.tray.roll_result import shown_content

        width = self.size.width or room
        content = shown_content(shown, watching=watching, ascii=ascii, width=width)
        self.rows = len(content.wrap(width))
        update_lines(self, content, width)
