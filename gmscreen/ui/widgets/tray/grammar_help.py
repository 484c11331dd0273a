"""The quick-roll grammar of the campaign's system, as a screen over the app (`?` in an empty
quick-roll line)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from gmscreen.i18n import N_, _
from gmscreen.ui.sanitize import clean
from gmscreen.ui.terminal.steady import SteadyModalScreen


if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign


class GrammarHelp(SteadyModalScreen[None]):
    """The quick-roll grammar of the campaign's system (`?` in an empty line), laid out again
    for the width it has: at 80×24 long examples put their meaning below, aligned."""

    DEFAULT_CSS = """
    GrammarHelp { align: center middle; }
    GrammarHelp > VerticalScroll {
        width: 96%; max-width: 110; height: 90%; scrollbar-gutter: stable;
        border: round $border; background: $surface; padding: 0 1;
    }
    """
    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", N_("Close"), id="dice-tray.help-close"),
    ]

    def __init__(self, system_id: str, names: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.system_id = system_id
        self.names = names                  # the open campaign's characters, whom the examples type
        self._width = 0

    @classmethod
    def of(cls, campaign: Campaign | None) -> GrammarHelp:
        """The help of `campaign`'s game, its examples typing its people; with no campaign yet,
        of the registry's first game (the help needs one)."""
        if campaign is None:
            from gmscreen.rules.registry import system_ids

            return cls(system_ids()[0])
        return cls(campaign.system, tuple(ch.name for ch in campaign.characters))

    def compose(self) -> ComposeResult:
        from gmscreen.play.quickroll.help import DEFAULT_WIDTH

        with VerticalScroll() as scroll:
            scroll.border_title = _("Quick rolls")
            yield Static(self._text(DEFAULT_WIDTH), id="grammar-text", markup=False)

    def _text(self, width: int) -> Content:
        from gmscreen.play.quickroll import grammar_help

        self._width = width
        return Content(clean(grammar_help(self.system_id, width, self.names), single_line=False))

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()      # ↑ ↓ page up / down scroll the help

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        width = self.query_one(VerticalScroll).scrollable_content_region.width
        if width > 20 and width != self._width:
            self.query_one("#grammar-text", Static).update(self._text(width))

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
