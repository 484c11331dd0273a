"""The rolls before the last one, newest first: one line each, as players may see them."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from gmscreen.i18n import _
from gmscreen.play.player_view import PlayerState

from ..sanitize import literal

TONE_STYLES = {"good": "$success", "bad": "$error", "crit": "bold $success", "fumble": "bold $error", "plain": ""}
SHOWN = 6


class RollList(Static):
    def on_mount(self) -> None:
        self.border_title = _("Rolls")

    def show(self, state: PlayerState) -> None:
        self.border_title = _("Rolls")
        lines = []
        for roll in reversed(state.rolls[-SHOWN - 1:-1]):
            parts: list[Content | tuple[str, str]] = [(roll.time + "  ", "$text-muted")]
            if roll.who:
                parts += [literal(roll.who, "bold"), ("  ", "")]
            if roll.test:
                parts += [literal(roll.test, "italic"), ("  ", "")]
            if roll.dice:
                parts += [literal(roll.dice), ("  ", "")]
            parts.append(literal(roll.outcome, TONE_STYLES.get(roll.tone, "")))
            lines.append(Content.assemble(*parts))
        self.update(Content("\n").join(lines) if lines else Content(""))
        self.display = bool(lines)
