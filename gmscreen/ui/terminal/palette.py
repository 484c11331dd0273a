"""The command palette's "No matches found" in the language spoken.

Textual writes it in English from its private `CommandPalette._start_no_matches_countdown`,
with no public way to give other words: this palette does what Textual's does, the words
translated. Its names are checked by `tests/ui/test_textual_contract.py`; on plain Textual
(`GMSCREEN_PLAIN_TEXTUAL=1`) the palette says it in English.
"""

from __future__ import annotations

from rich.align import Align
from rich.text import Text
from textual.command import CommandList, CommandPalette
from textual.widgets.option_list import Option

from gmscreen.i18n import _

from . import TUNED


class SpokenCommandPalette(CommandPalette):
    """Textual's command palette, "No matches found" translated."""

    if TUNED:
        def _start_no_matches_countdown(self, search_value: str) -> None:
            """Textual's, with "No matches found" translated."""
            self._stop_no_matches_countdown()

            def show_no_matches() -> None:
                if search_value:
                    self.query_one(CommandList).add_option(Option(
                        Align.center(Text(_("No matches found"), style="not bold")), disabled=True,
                        id=self._NO_MATCHES))
                    self._list_visible = True
                else:
                    self._list_visible = False

            self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)
