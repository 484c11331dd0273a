"""The panes of the main screen, built in one place (ids, classes and titles side by side).

A pane's module is imported when the pane is first built: at 80×24 the first frame shows
one main pane, and the others are built once it is on screen.
"""

from __future__ import annotations

import weakref
from importlib import import_module

from textual.widget import Widget

from gmscreen.i18n import N_, _

# id -> title shown on the pane's border (its English msgid: shown through `pane_title`)
PANES: dict[str, str] = {
    "roster": N_("Characters"),
    "initiative": N_("Initiative"),
    "difficulty": N_("Difficulties"),
    "log": N_("Roll log"),
    "dice-tray": N_("Dice"),
}

# id -> (module under gmscreen.ui.widgets, class)
_CLASSES: dict[str, tuple[str, str]] = {
    "roster": ("roster.pane", "RosterPane"),
    "initiative": ("initiative.pane", "InitiativePane"),
    "difficulty": ("difficulty.pane", "DifficultyPane"),
    "log": ("log.roll_log", "RollLog"),
    "dice-tray": ("tray.dice_tray", "DiceTray"),
}

# The main panes, in the order of the keys 1-4; the dice tray is always shown.
MAIN_PANES = ("roster", "initiative", "difficulty", "log")

# From this terminal size up, the four main panes share the screen (2×2 grid, the left
# column 3/5 of the width); below it, one at a time above the dice tray.
WIDE_WIDTH, WIDE_HEIGHT = 120, 32

# The panes `make_pane` titled (retitled when the language changes, by `retitle`).
_DEFAULT_TITLED: weakref.WeakSet[Widget] = weakref.WeakSet()


def is_wide(width: int, height: int) -> bool:
    return width >= WIDE_WIDTH and height >= WIDE_HEIGHT


def pane_class(pane_id: str) -> type[Widget]:
    module, name = _CLASSES[pane_id]
    return getattr(import_module(f"{__package__}.widgets.{module}"), name)


def pane_title(pane_id: str) -> str:
    """The pane's title in the language spoken now."""
    return _(PANES[pane_id])


def make_pane(pane_id: str, *, current: bool = False) -> Widget:
    """A pane, with its classes from the start (added later, each restyles it once more)."""
    widget = pane_class(pane_id)(id=pane_id, classes="pane -current" if current else "pane")
    if not widget.border_title:
        widget.border_title = pane_title(pane_id)
        _DEFAULT_TITLED.add(widget)
    return widget


def set_title(widget: Widget, title: str) -> None:
    """Set a border title only when it changes: Textual repaints the whole widget (a pane, every
    row of it) on each assignment, even of the same title."""
    if widget.border_title != title:
        widget.border_title = title


def retitle(widget: Widget) -> None:
    """A pane titled by `make_pane`, in the language spoken now (the others title themselves
    when the campaign is shown again)."""
    if widget in _DEFAULT_TITLED and widget.id in PANES:
        set_title(widget, pane_title(widget.id))
