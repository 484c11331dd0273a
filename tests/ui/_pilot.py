"""Waiting for the screen in Pilot tests: one definition of "ready" for every test file."""

from __future__ import annotations

from typing import Any

from gmscreen.ui.panes import PANES


async def ready(app: Any, pilot: Any) -> None:
    """Wait until the campaign is open, every pane is built (those hidden at start are built
    after the first frame) and one of them has the focus."""
    for _ in range(100):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.session is not None and app.focused is not None and all(app.pane(p) is not None for p in PANES):
            return
    raise AssertionError("the campaign never opened")
