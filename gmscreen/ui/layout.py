"""Where the panes are: the main screen, its two layouts, the current pane and the focus.

The layer above `telling`: all four panes at once from 120×32 (`-wide -tall`), one at a time
with the dice tray below it in 80×24; the first frame mounts only the panes it shows and the
others follow (`_mount_missing_panes`); tab walks the panes, not the widgets (`MainScreen`).
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget

from gmscreen.i18n import N_

from .panes import MAIN_PANES, PANES, is_wide, make_pane
from .status import StatusLine
from .telling import AppTelling
from .terminal.steady import SteadyScreen

CSS = """
Screen { layout: vertical; }
#body { height: 1fr; layout: vertical; }
#panes { height: 1fr; }
.loading { height: 1fr; content-align: center middle; color: $text-muted; }
.pane {
    height: 1fr;
    width: 1fr;
    border: round $border-blurred;
    border-title-color: $text-muted;
}
.pane:focus-within { border: round $border; border-title-color: $text; }
#panes > .pane { display: none; }
#panes > .pane.-current { display: block; }
#dice-tray { height: 7; }
#dice-tray.-maximized, .pane.-maximized { height: 1fr; display: block; }

Screen.-wide.-tall #panes { layout: grid; grid-size: 2 2; grid-columns: 3fr 2fr; }
Screen.-wide.-tall #panes > .pane { display: block; }
Screen.-wide.-tall #dice-tray { height: 9; }

/* The toasts' rack is kept placed, invisible while empty (`terminal.toasts`), and only as
   wide as its toasts (the right half): as it grows and shrinks, the rows it spans are sent again. */
ToastRack { min-height: 1; width: 50%; offset-x: 50%; }
ToastRack Toast { max-width: 100%; }

App.-ascii .pane { border: ascii $border-blurred; }
App.-ascii .pane:focus-within { border: ascii $border; }
App.-ascii Input { border: ascii $border-blurred; }
App.-ascii Input:focus { border: ascii $border; }
App.-ascii Input.-textual-compact, App.-ascii Input.-textual-compact:focus { border: none; }  /* one-line fields */
App.-ascii .dialog { border: ascii $border; }
App.-ascii FooterKey.-command-palette { border-left: ascii $foreground 20%; }
"""


class MainScreen(SteadyScreen):
    """The screen of the panes: tab moves from pane to pane rather than widget to widget."""

    BINDINGS = [
        Binding("tab", "app.cycle_pane(1)", N_("Next pane"), show=False, id="app.next-pane"),
        Binding("shift+tab", "app.cycle_pane(-1)", N_("Previous pane"), show=False, id="app.previous-pane"),
    ]
    # Textual's Screen repaints all of itself on each focus move; the widgets whose look
    # depends on focus restyle (and redraw) themselves, so a pane switch sends what changed.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    @classmethod
    def size_classes(cls, app: App, width: int, height: int) -> dict[str, bool]:
        """The breakpoint classes (`-wide`, `-tall`…) of a terminal that size, as Textual's own
        Resize handler sets them (the highest breakpoint reached, each way)."""
        horizontal = cls.HORIZONTAL_BREAKPOINTS or app.HORIZONTAL_BREAKPOINTS or []
        vertical = cls.VERTICAL_BREAKPOINTS or app.VERTICAL_BREAKPOINTS or []
        classes = {name: False for _, name in (*horizontal, *vertical)}
        for size, breakpoints in ((width, horizontal), (height, vertical)):
            reached = [name for at, name in sorted(breakpoints, reverse=True) if size >= at]
            if reached:
                classes[reached[0]] = True
        return classes

    def on_mount(self) -> None:
        """The size classes from the start: Textual sets them on the first Resize, after the
        screen's first frame, which then went in the one-pane layout and the whole screen again
        in the four-pane one. (Set when the app made the screen, they change nothing here.)"""
        width, height = self.app.size
        if width and height:
            self.update_classes(self.size_classes(self.app, width, height), animate=False)


class AppLayout(AppTelling):
    """The panes laid out for the terminal's size; which one is current, which one has the focus."""

    current_pane: str                  # the main pane shown at 80×24 (and lit at 120×32)

    def get_default_screen(self) -> Screen:
        """The screen of the panes, with its size classes before anything in it is styled (set
        once mounted, they restyled the whole screen a second time before the first frame)."""
        width, height = self.size
        classes = MainScreen.size_classes(self, width, height) if width and height else {}
        return MainScreen(id="_default", classes=" ".join(name for name, on in classes.items() if on))

    @property
    def status(self) -> StatusLine:
        return self.screen_stack[0].query_one(StatusLine)

    @property
    def wide(self) -> bool:
        screen = self.screen_stack[0] if self.screen_stack else None
        return screen is not None and screen.has_class("-wide") and screen.has_class("-tall")

    def _first_panes(self) -> tuple[str, ...]:
        """The panes of the first frame: all four in the wide layout, else only the current one;
        the hidden ones are mounted right after the first frame (`_build_missing_panes`)."""
        if is_wide(*self.size):
            return MAIN_PANES
        return (self.current_pane,)

    async def _build_missing_panes(self) -> None:
        """Mount the main panes the first frame left out, each at its place in the order."""
        for each in self._mount_missing_panes():
            await each

    def _mount_missing_panes(self) -> list[Any]:
        """Start mounting the missing main panes; what to await for them to be mounted."""
        found = self.screen_stack[0].query("#panes") if self.screen_stack else None
        if not found:
            return []
        container = found.first()
        if not container.is_attached:          # already taken down: an exit asked during start-up
            return []
        present = {child.id for child in container.children}
        mounting = []
        for index, pane_id in enumerate(MAIN_PANES):
            if pane_id in present:
                continue
            before = next((p for p in MAIN_PANES[index + 1:] if p in present), None)
            pane = make_pane(pane_id)
            mounting.append(container.mount(pane) if before is None else container.mount(pane, before=f"#{before}"))
            present.add(pane_id)
        if mounting:
            self._mark_current(self.current_pane)
        return mounting

    async def _ensure_pane(self, pane_id: str) -> None:
        """A key for a pane not built yet (pressed as the screen appeared) waits for it."""
        if self.session is not None and self.pane(pane_id) is None:
            await self._build_missing_panes()

    # ------------------------------------------------------------ current pane and focus

    def _pane_of(self, widget: Widget | None) -> Widget | None:
        while widget is not None and isinstance(widget, Widget):
            if widget.id in PANES and widget.has_class("pane"):
                return widget
            widget = widget.parent  # type: ignore[assignment]
        return None

    def _mark_current(self, pane_id: str) -> None:
        self.current_pane = pane_id
        for other in MAIN_PANES:
            widget = self.pane(other)
            if widget is not None:
                widget.set_class(other == pane_id, "-current")

    def _focus_pane(self, pane_id: str) -> None:
        """Focus the pane now, not after the next frame (`Widget.focus` waits for it): the pane
        shown and its border lit go down the wire in one frame, not the pane twice."""
        widget = self.pane(pane_id)
        if widget is None:
            return
        if widget.focusable:
            self._focus_now(widget)
            return
        for child in widget.query("*"):
            if child.focusable:
                self._focus_now(child)
                return

    def _focus_now(self, widget: Widget) -> None:
        screen = self.screen_stack[0] if self.screen_stack else None
        if screen is not None and screen is self.screen and widget.screen is screen:
            screen.set_focus(widget)
        else:
            widget.focus()

    def on_descendant_focus(self, event: Any) -> None:
        pane = self._pane_of(getattr(event, "widget", None))
        if pane is not None and pane.id in MAIN_PANES and pane.id != self.current_pane:
            self._mark_current(pane.id)
