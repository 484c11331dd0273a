"""What a pane is to the app: a `CampaignView`, drawn through its hooks, reading and asking
its host (`ui/host.py`) through the little the views need (`ViewHost`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from textual.widget import Widget

    from gmscreen.campaign.model import RollRecord
    from gmscreen.campaign.session import CampaignSession, EditBuilder
    from gmscreen.play.events import Event
    from gmscreen.play.table import Table


class ViewHost(Protocol):
    """The host as a view sees it (the `CampaignHost` the app is)."""

    @property
    def ascii(self) -> bool: ...

    @property
    def session(self) -> CampaignSession | None: ...

    @property
    def table(self) -> Table | None: ...

    @property
    def selected_id(self) -> str | None: ...

    @property
    def players_watching(self) -> bool: ...

    def select_character(self, char_id: str | None) -> None: ...

    def toggle_players_watching(self) -> None: ...

    def change(self, label: str, build: Callable[[EditBuilder], None]) -> bool: ...

    def may_edit(self) -> bool: ...

    def warn(self, message: str, severity: str = "warning") -> None: ...

    def pane(self, pane_id: str) -> Widget | None: ...

    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...


class CampaignView:
    """Mixin for widgets that show part of the campaign; the host calls these hooks, and the
    view reads the host's state through `host` (typed, never `getattr(self.app, …)`)."""

    @property
    def host(self) -> ViewHost:
        return self.app  # type: ignore[attr-defined]

    @property
    def live(self) -> Table:
        """The live table, which a view drives: it acts only on an open campaign, which always
        has one."""
        table = self.host.table
        if table is None:
            raise LookupError("no campaign open")
        return table

    @property
    def ascii(self) -> bool:
        """Nothing but ASCII in what the view draws (the host's `--ascii`)."""
        return self.host.ascii

    def show_campaign(self, session: CampaignSession) -> None:
        """The campaign changed (any change, undo, redo, load): redraw from it."""

    def show_roll(self, record: RollRecord) -> None:
        """A roll was recorded (or a GM-only roll revealed: same seq, `revealed` set)."""

    def show_record(self, record: RollRecord) -> None:
        """A logged roll the GM wants to see in full (an interval of a timer): the dice tray shows it."""

    def show_selection(self, char_id: str | None) -> None:
        """The selected character changed."""

    def use_difficulty(self, value: int) -> None:
        """The GM chose a row of the difficulty table."""

    def show_watching(self, watching: bool) -> None:
        """The players can see the screen (or no longer): GM-only rolls not yet revealed are
        masked by every view that shows rolls. Views read `app.players_watching` when drawing."""

    def hear(self, event: Event) -> None:
        """Any other event of the table (the line read, a prompt opened, a roll shown or ended,
        GM-only set): the view that draws it draws it."""


def hand_to(views: list[CampaignView], event: Event) -> None:
    """One event of the table to the hook of each view that draws it."""
    from gmscreen.play import events as ev

    for view in views:
        if isinstance(event, (ev.RollLogged, ev.RollRevealed)):
            view.show_roll(event.record)
        elif isinstance(event, ev.RollShown) and event.draft is None:       # a pane's roll, logged
            if event.record is not None:
                view.show_record(event.record)
        elif isinstance(event, ev.DifficultyChosen):
            view.use_difficulty(event.value)
        elif isinstance(event, ev.SelectionChanged):
            view.show_selection(event.char_id)
        elif isinstance(event, ev.WatchingChanged):
            view.show_watching(event.watching)
        else:
            view.hear(event)
