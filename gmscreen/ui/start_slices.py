"""The start's work after the first frame, one slice per turn of the event loop, keys first.

What the screen still builds once its first frame is out (the rest of a long roster, the
hidden panes) goes in slices of a few milliseconds, each run straight from the event loop
(a widget's queue hands its messages on without letting the loop turn). A slice whose turn
comes while a key is waiting or still settling (`keygate`) steps aside until it has gone
through: a key typed as the screen appears waits for one slice, not for the whole start.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

KEY_WAIT = 0.01          # seconds a slice steps aside for a key on its way


def next_slice(app: Any, callback: Callable[..., Any], *args: Any) -> None:
    """Run `callback(*args)` on a later turn of the loop, once no key is on its way."""
    loop = asyncio.get_running_loop()

    def run() -> None:
        gate = getattr(app, "key_gate", None)
        if gate is not None and gate.busy and app.is_running:
            loop.call_later(KEY_WAIT, run)
            return
        callback(*args)

    loop.call_soon(run)
