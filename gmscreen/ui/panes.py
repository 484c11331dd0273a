"""The panes of the main screen, built in one place (ids, classes and titles side by side).

A pane's module is imported when the pane is first built: at 80×24 the first frame shows
one main pane, and the others are built once it is on screen.
"""

from __future__ import annotations

from importlib import import_module

from textual.widget import Widget

# id -> title shown on the pane's border
PANES: dict[str, str] = {
    "roster": "Personnages",
    "initiative": "Initiative",
    "difficulty": "Difficultés",
    "log": "Journal des jets",
    "dice-tray": "Dés",
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


def is_wide(width: int, height: int) -> bool:
    return width >= WIDE_WIDTH and height >= WIDE_HEIGHT


def pane_class(pane_id: str) -> type[Widget]:
    module, name = _CLASSES[pane_id]
    return getattr(import_module(f"{__package__}.widgets.{module}"), name)


def make_pane(pane_id: str) -> Widget:
    widget = pane_class(pane_id)(id=pane_id)
    widget.add_class("pane")
    if not widget.border_title:
        widget.border_title = PANES[pane_id]
    return widget
