"""The panes of the main screen, built in one place (ids, classes and titles side by side)."""

from __future__ import annotations

from textual.widget import Widget

from .widgets.dice_tray import DiceTray
from .widgets.difficulty import DifficultyPane
from .widgets.initiative import InitiativePane
from .widgets.roll_log import RollLog
from .widgets.roster import RosterPane

# id -> (class, title shown on the pane's border)
PANES: dict[str, tuple[type[Widget], str]] = {
    "roster": (RosterPane, "Personnages"),
    "initiative": (InitiativePane, "Initiative"),
    "difficulty": (DifficultyPane, "Difficultés"),
    "log": (RollLog, "Journal des jets"),
    "dice-tray": (DiceTray, "Dés"),
}

# The main panes, in the order of the keys 1-4; the dice tray is always shown.
MAIN_PANES = ("roster", "initiative", "difficulty", "log")


def make_pane(pane_id: str) -> Widget:
    cls, title = PANES[pane_id]
    widget = cls(id=pane_id)
    widget.add_class("pane")
    if not widget.border_title:
        widget.border_title = title
    return widget
