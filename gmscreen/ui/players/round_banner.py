"""The round in large digits and whose turn it is, in bold: read from across the table."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Digits, Static

from gmscreen.i18n import _
from gmscreen.i18n.typography import Name
from gmscreen.play.player_view import PlayerState

from ..sanitize import literal


class RoundBanner(Horizontal):
    """'ROUND 3 · au tour de Alexis', the number in Digits (plain in --ascii)."""

    def compose(self) -> ComposeResult:
        yield Static("", id="round-word", markup=False)
        yield Digits("", id="round-digits")
        yield Static("", id="turn-of", markup=False)

    def show(self, state: PlayerState) -> None:
        word = self.query_one("#round-word", Static)
        digits = self.query_one("#round-digits", Digits)
        turn = self.query_one("#turn-of", Static)
        if state.round <= 0:
            word.update(_("No fight under way"))
            digits.update("")
            turn.update("")
            return
        ascii = self.app.has_class("-ascii")
        word.update(_("Round") if not ascii else _("Round {n}").format(n=state.round))
        digits.update(str(state.round))
        turn.update(literal(_("{name}'s turn").format(name=Name(state.current)) if state.current
                            else _("nobody's turn")))
