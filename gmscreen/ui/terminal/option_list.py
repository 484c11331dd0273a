"""An option list laid out and measured only when its sizes change.

Textual's ScrollView compares the container size it is given with one it computes otherwise,
so every layout of the screen (a status line updated) redrew an option list's scrollbar and
sent it down the wire: nothing changed, nothing is redrawn. And an option list measures its
lines again on each Resize, its first showing included, where the frame that laid it out
has measured them at that width already. Both are Textual's private `_size_updated`,
`_update_lines`, `_line_cache` and `_on_resize`, checked by
`tests/ui/test_textual_contract.py`; plain Textual (`GMSCREEN_PLAIN_TEXTUAL=1`) keeps its own.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from . import TUNED


class SteadyOptionList(OptionList):
    """An OptionList redrawn and measured only when its sizes change."""

    _laid_out: tuple | None = None
    _lines_width: int | None = None

    if TUNED:
        def _size_updated(self, size: Any, virtual_size: Any, container_size: Any, layout: bool = True) -> bool:
            sizes = (size, virtual_size, container_size)
            if sizes == self._laid_out:
                return False
            self._laid_out = sizes
            return super()._size_updated(size, virtual_size, container_size, layout)

        def _update_lines(self) -> None:
            super()._update_lines()
            if self._line_cache.lines:
                self._lines_width = self.scrollable_content_region.width

        def _on_resize(self) -> None:
            """Its lines measured at this width already (its first showing: by the frame that
            laid it out): not measured and sent again."""
            if self._lines_width is not None and self._lines_width == self.scrollable_content_region.width:
                return
            super()._on_resize()
