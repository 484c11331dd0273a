"""The one-line status bar: where the GM is and what the last change was."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.geometry import Region
from textual.widgets import Static

from gmscreen.play.public import public_label
from gmscreen.i18n import _

from .terminal.repaint import no_refresh, same_start
from .sanitize import literal

if TYPE_CHECKING:
    from gmscreen.campaign.session import CampaignSession


class StatusLine(Static):
    """Campaign, system, session, round, last change, READ-ONLY, save state."""

    DEFAULT_CSS = """
    StatusLine {
        dock: top;
        height: 1;
        width: 1fr;
        background: $panel;
        color: $foreground;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def __init__(self, *, id: str = "status") -> None:
        super().__init__("", id=id, markup=False)
        self.campaign_file = ""
        self.save_state = ""          # "", "saving…", "saved", "unsaved", "save failed" (msgids)
        self.loading_text = ""        # text shown while the campaign loads (not Widget.loading)
        self.notice = ""              # what undo/redo did, shown until the next change
        self.notice_public = False    # said while players watched: as they may see it
        self._shown: Content | None = None

    def show_loading(self, text: str) -> None:
        self.loading_text = text
        self._show(literal(text, "italic"))

    def show_session(self, session: CampaignSession | None, *, ascii: bool = False) -> None:
        self.loading_text = ""
        if session is None:
            self._show(Content(""))
            return
        self._show(self.describe(session, ascii=ascii))

    def _show(self, content: Content) -> None:
        """Redrawn only when it says something new, and never laid out again (one row, the
        screen's width): a layout of the screen sends a frame of its own down the wire."""
        if content == self._shown:
            return
        before, self._shown = self._shown, content
        start = same_start(before, content) if before is not None else 0
        if not start or not self.size.width:
            self.update(content, layout=False)
            return
        # Only the cells from the first one that differs go down the wire ("saved" after
        # "unsaved", a new round's number): the start of the line is the same.
        # shadowed for this one update (its return value unused), then deleted below
        self.refresh = no_refresh  # type: ignore[method-assign, assignment]
        try:
            self.update(content, layout=False)
        finally:
            del self.refresh
        self.refresh(Region(start, 0, max(self.size.width - start, 1), 1))

    def describe(self, session: CampaignSession, *, ascii: bool = False) -> Content:
        sep = (" | ", "dim") if ascii else (" · ", "dim")
        campaign = session.campaign
        parts: list[Content | tuple[str, str] | str] = []
        if session.read_only:
            parts += [Content.styled(" {} ".format(_("READ-ONLY")), "bold reverse $error"), " "]
        watching = bool(getattr(self.app, "players_watching", False))
        if watching:
            parts += [watching_mark(ascii), " "]
        parts.append(literal(campaign.name or session.path.name, "bold"))
        parts += [sep, literal(session.system.game)]
        parts += [sep, _("session {n}").format(n=campaign.session)]
        if campaign.encounter.round:
            parts += [sep, _("round {n}").format(n=campaign.encounter.round)]
        # While players watch, the change ctrl+z takes back is named as they may see it (a GM-only
        # test's timer, a hidden threshold, a hidden character: a word in its place).
        label = session.last_label if not watching else public_label(session.last_change, campaign)
        if self.notice and (self.notice_public or not watching):  # what undo/redo did (said as players may see it)
            parts += [sep, literal(self.notice, "bold")]
        elif label:
            arrow = _("undo:") + " " if ascii else "↶ "
            parts += [sep, Content.assemble((arrow, "dim"), literal(label))]
        if self.save_state:
            style = "$error bold" if self.save_state == "save failed" else "dim"
            parts += [sep, (_(self.save_state), style)]
        return Content.assemble(*parts)


def watching_mark(ascii: bool = False) -> Content:
    """First on the status line while players watch the screen: secrets are masked."""
    return Content.styled(" {} ".format(_("PLAYERS WATCHING")), "bold reverse $warning")
