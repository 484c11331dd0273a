"""The newest public roll, large: who, the outcome in the game's words on a coloured band,
the dice, the detail."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from gmscreen.i18n import _
from gmscreen.play.player_view import PlayerState

from ..sanitize import literal

TONES = ("good", "bad", "crit", "fumble", "plain")


class LatestRoll(Vertical):
    """Shows `state.rolls[-1]`; a GM's secret roll shows its mark and nothing else."""

    def compose(self) -> ComposeResult:
        yield Static("", id="latest-who", markup=False)
        yield Static("", id="latest-outcome", markup=False)
        yield Static("", id="latest-dice", markup=False)
        yield Static("", id="latest-detail", markup=False)

    def on_mount(self) -> None:
        self.border_title = _("Last roll")

    def show(self, state: PlayerState) -> None:
        self.border_title = _("Last roll")
        who = self.query_one("#latest-who", Static)
        outcome = self.query_one("#latest-outcome", Static)
        dice = self.query_one("#latest-dice", Static)
        detail = self.query_one("#latest-detail", Static)
        for tone in TONES:
            outcome.remove_class(f"-{tone}")
        if not state.rolls:
            who.update(_("No roll yet"))
            for each in (outcome, dice, detail):
                each.update("")
            outcome.add_class("-plain")
            return
        roll = state.rolls[-1]
        head = " · ".join(part for part in (roll.time, roll.who, roll.test) if part)
        who.update(literal(head))
        outcome.update(literal(roll.outcome.upper()))
        outcome.add_class(f"-{roll.tone}" if roll.tone in TONES else "-plain")
        dice.update(literal(roll.dice))
        detail.update(literal(roll.detail))
