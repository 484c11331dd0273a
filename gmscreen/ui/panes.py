"""The panes of the main screen, built in one place.

Each pane class comes from its own module (`widgets/roster.py`, ...). While a module is
not in the tree yet, `make_pane` stands a plain placeholder with the right id in its
place, so the shell runs and can be tested on its own.
"""

from __future__ import annotations

from importlib import import_module

from textual.widget import Widget
from textual.widgets import Static

# id -> (module, class, title shown on the pane's border)
PANES: dict[str, tuple[str, str, str]] = {
    "roster": ("gmscreen.ui.widgets.roster", "RosterPane", "Personnages"),
    "initiative": ("gmscreen.ui.widgets.initiative", "InitiativePane", "Initiative"),
    "difficulty": ("gmscreen.ui.widgets.difficulty", "DifficultyPane", "Difficultés"),
    "log": ("gmscreen.ui.widgets.roll_log", "RollLog", "Journal des jets"),
    "dice-tray": ("gmscreen.ui.widgets.dice_tray", "DiceTray", "Dés"),
}

# The main panes, in the order of the keys 1-4; the dice tray is always shown.
MAIN_PANES = ("roster", "initiative", "difficulty", "log")


def make_pane(pane_id: str) -> Widget:
    module_name, class_name, title = PANES[pane_id]
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("gmscreen.ui."):   # a pane module (or one it needs) not written yet
            raise
        placeholder = Static(title, id=pane_id, markup=False)
        placeholder.can_focus = True
        widget: Widget = placeholder
    else:
        widget = getattr(module, class_name)(id=pane_id)
    widget.add_class("pane")
    if not widget.border_title:
        widget.border_title = title
    return widget
