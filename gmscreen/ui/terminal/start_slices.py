"""The start's work after the first frame, one slice per turn of the event loop, keys first.

What the screen still builds once its first frame is out (the rest of a long roster, the
hidden panes) goes in slices of a few milliseconds, each run straight from the event loop
(a widget's queue hands its messages on without letting the loop turn). A slice whose turn
comes while a key is waiting or still settling (`keygate`) steps aside until it has gone
through: a key typed as the screen appears waits for one slice, not for the whole start.
"""

from __future__ import annotations

import asyncio
from importlib import import_module
from typing import Any, Callable

# What the first key typed in the quick-roll line and the first roll import (left out of the
# first frame): imported a turn each once the panes are up, so the first key costs what any does.
FIRST_ROLL_MODULES = (
    "gmscreen.ui.widgets.tray.roll_odds",
    "gmscreen.ui.widgets.tray.odds_fit",
    "gmscreen.ui.widgets.tray.odds_pricing",
    "gmscreen.play.choice_odds",
    "gmscreen.ui.widgets.tray.roll_result",
)

KEY_WAIT = 0.01          # seconds a slice steps aside for a key on its way
QUEUED_WAITS = 5         # times a slice steps aside for the app's queue (a key just read is in it)


def next_slice(app: Any, callback: Callable[..., Any], *args: Any) -> None:
    """Run `callback(*args)` on a later turn of the loop, once no key is on its way: neither
    one the gate holds or is still settling, nor one the terminal's reader has just put in the
    app's queue (a few turns at most: that queue carries other messages too)."""
    loop = asyncio.get_running_loop()

    def run(waited: int = 0) -> None:
        if app.is_running:
            gate = getattr(app, "key_gate", None)
            if gate is not None and gate.busy:
                loop.call_later(KEY_WAIT, run, waited)
                return
            if waited < QUEUED_WAITS and getattr(app, "message_queue_size", None):
                loop.call_later(KEY_WAIT, run, waited + 1)
                return
        callback(*args)

    loop.call_soon(run)


def warm_up(app: Any, session: Any, index: int = 0) -> None:
    """Import `FIRST_ROLL_MODULES`, one a turn, while `session` is the one shown."""
    if session is not getattr(app, "session", None) or not app.is_running or index >= len(FIRST_ROLL_MODULES):
        return
    import_module(FIRST_ROLL_MODULES[index])
    app.start_slices += 1
    next_slice(app, warm_up, app, session, index + 1)
