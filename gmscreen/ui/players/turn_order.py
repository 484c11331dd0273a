"""The turn order as players see it (the current actor marked, public conditions), then the
countdowns and extended tests in progress."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from gmscreen.i18n import _
from gmscreen.play.player_view import PlayerState

from ..sanitize import literal


class TurnOrder(Static):
    """One line a fighter, one line a timer; nothing the GM hides."""

    def on_mount(self) -> None:
        self.border_title = _("Turn order")

    def show(self, state: PlayerState) -> None:
        self.border_title = _("Turn order")
        ascii = self.app.has_class("-ascii")
        lines: list[Content] = []
        for entry in state.order:
            mark = (">" if ascii else "▶") if entry.current else " "
            state_word = (_("waits") if entry.delayed else (_("acted") if ascii else "✓") if entry.acted else "")
            style = "bold reverse" if entry.current else ("dim" if entry.acted else "")
            parts: list[Content | tuple[str, str] | str] = [
                (f"{mark} ", "bold"), (f"{entry.initiative:>3}  ", "bold" if entry.current else ""),
                literal(entry.name, style)]
            if state_word:
                parts.append((f"  {state_word}", "italic $text-muted"))
            if entry.conditions:
                parts.append(("  ", ""))
                parts.append(literal(" · ".join(entry.conditions), "italic $warning"))
            lines.append(Content.assemble(*parts))
        if not state.order:
            lines.append(Content.assemble((_("Nobody in the fight"), "$text-muted")))
        for timer in state.timers:
            mark = ("~" if ascii else "⧗") if timer.running else " "
            lines.append(Content.assemble((f"{mark} ", ""), literal(timer.label, "bold" if timer.running else "dim"),
                                          ("  " + timer.status + "  ", "italic"), literal(timer.progress)))
        self.update(Content("\n").join(lines))
