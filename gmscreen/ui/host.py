"""The contract between the app and its panes.

Panes never write files and never talk to each other: they read the open
`CampaignSession`, ask the live table (`host.table`, a `gmscreen.play.Table`) for what the GM
does — changes (`change`), rolls, reveals, undo — and the host tells every `CampaignView`
(`ui/view.py`) what the table's events say, through its hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from textual.app import App
from textual.reactive import reactive
from textual.widget import Widget

from gmscreen.i18n import _

from .sanitize import clean
from .view import CampaignView, ViewHost, hand_to

if TYPE_CHECKING:
    from gmscreen.campaign.session import CampaignSession, EditBuilder
    from gmscreen.play.events import Event
    from gmscreen.play.table import Table


class CampaignHost(App[int]):
    """Base of `GMScreenApp`: owns the session and routes changes, rolls and selection.

    Tests of a single pane subclass it with a `compose` that yields only that pane.
    """

    ascii: bool = False
    """Nothing but ASCII in the chrome (`--ascii`, old consoles)."""
    # repaint=False: an App reactive repaints the whole screen on each change, and the views
    # redraw what the change moves themselves (`show_selection`, `show_watching`).
    selected_id: reactive[str | None] = reactive(None, init=False, repaint=False)
    players_watching: reactive[bool] = reactive(False, init=False, repaint=False)
    """The players can see the screen: one state for every pane (the log's `w` toggles it)."""

    def __init__(self, session: CampaignSession | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._session: CampaignSession | None = None
        self.table: Table | None = None
        self._stop_hearing: Callable[[], None] | None = None
        self.session = session

    # ------------------------------------------------------------ the table

    @property
    def session(self) -> CampaignSession | None:
        return self._session

    @session.setter
    def session(self, session: CampaignSession | None) -> None:
        """A campaign opened (or closed): the live `Table` of it, whose events the views hear."""
        from gmscreen.play.table import Table

        if self._stop_hearing is not None:
            self._stop_hearing()
            self._stop_hearing = None
        self._session = session
        self.table = Table(session) if session is not None else None
        if self.table is not None:
            self.table.watching = self.players_watching
            self.table.selected = self.selected_id     # (a lock taken over: the same campaign, a new table)
            self._stop_hearing = self.table.subscribe(self._hear)

    def _hear(self, event: Event) -> None:
        """What the table did, drawn: each event to the views' hooks."""
        from gmscreen.play import events as ev

        if isinstance(event, ev.Notice):
            self.tell(event.text) if event.routine else self.warn(event.text, event.severity)
        elif isinstance(event, ev.CampaignChanged):
            self.after_change()
        else:
            if isinstance(event, ev.SelectionChanged):
                self.selected_id = event.char_id    # (the table moved it: the turn's actor)
            hand_to(self.views(), event)

    # ------------------------------------------------------------ views

    def views(self) -> list[CampaignView]:
        """Every mounted CampaignView of the main screen, in DOM order."""
        screen = self.screen_stack[0] if self.screen_stack else None
        if screen is None:
            return []
        return [w for w in screen.walk_children(Widget) if isinstance(w, CampaignView)]

    def refresh_views(self) -> None:
        """Tell every view that the campaign changed."""
        if self.session is None:
            return
        for view in self.views():
            view.show_campaign(self.session)

    def on_mount(self) -> None:
        self.refresh_views()

    # ------------------------------------------------------------ selection and draft

    def select_character(self, char_id: str | None) -> None:
        self.selected_id = char_id

    def watch_selected_id(self, char_id: str | None) -> None:
        if self.table is not None:
            self.table.select(char_id)          # told back (`SelectionChanged`): the views follow

    def toggle_players_watching(self) -> None:
        self.players_watching = not self.players_watching

    def watch_players_watching(self, watching: bool) -> None:
        if self.table is not None:
            self.table.watch(watching)          # told back (`WatchingChanged`): the views mask
        self.show_status()                      # the status line says that players are watching
        self.warn(_("players watching: GM rolls hidden") if watching else _("GM view: every roll shown"),
                  "information")

    def show_status(self) -> None:
        """Draw the status line again (the app has one; a bare test host has none)."""

    def pane(self, pane_id: str) -> Widget | None:
        """The pane with that id on the main screen, if it is built."""
        screen = self.screen_stack[0] if self.screen_stack else None
        found = screen.query(f"#{pane_id}") if screen is not None else None
        return found.first() if found else None

    # ------------------------------------------------------------ changes

    def change(self, label: str, build: Callable[[EditBuilder], None]) -> bool:
        """Apply one undoable change made by `build(b)` (b.set/insert/delete/move).

        Returns False, after telling the GM why, when the campaign is read-only or
        the change is refused; nothing is half-applied then.
        """
        return self.table is not None and self.table.change(label, build)

    def may_edit(self) -> bool:
        """A campaign is open for changes; else False, after telling the GM why."""
        return self.table is not None and self.table.may_edit()

    def tell(self, message: str) -> None:
        """What a routine action did, said to the GM (the app: on its status line)."""
        self.warn(message, "information")

    def after_change(self) -> None:
        """Redraw the views (the app also saves a moment later: `autosave`)."""
        self.refresh_views()
        self.refresh_bindings()

    # ------------------------------------------------------------ messages to the GM

    def warn(self, message: str, severity: str = "warning") -> None:
        """A notification whose text is shown literally (it may hold names from files)."""
        self.notify(clean(message), severity=severity, markup=False)  # type: ignore[arg-type]


if TYPE_CHECKING:
    def _seen_by_views(host: CampaignHost) -> ViewHost:
        return host             # (mypy: the host is what the views take it for)
