"""Who holds which keys, for the keys screen (`?`) and the palette: the app, its main screen,
each pane and the pane's widgets that declare keys, each under its group's title."""

from __future__ import annotations

from typing import Any, Iterable

from textual.app import App

from gmscreen.i18n import N_

from .panes import MAIN_PANES, PANES
from .terminal.bindings import has_bindings

# The group of the app's own keys (keys screen, palette); the panes' groups are their titles.
SCREEN_GROUP = N_("Screen")


def binding_owners(app: App[Any]) -> Iterable[tuple[str, Any]]:
    """(group title, node) for the app and every pane built; the titles are msgids (English),
    translated where they are shown."""
    yield SCREEN_GROUP, app
    main = app.screen_stack[0] if app.screen_stack else None
    if main is None:
        return
    yield SCREEN_GROUP, main
    for pane_id in MAIN_PANES + ("dice-tray",):
        found = main.query(f"#{pane_id}")
        pane = found.first() if found else None
        if pane is None:
            continue
        title = PANES[pane_id]
        yield title, pane
        for child in pane.query("*"):
            if type(child).BINDINGS and has_bindings(child):
                yield title, child
