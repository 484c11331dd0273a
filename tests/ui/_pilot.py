"""Waiting for the screen in Pilot tests: one definition of "ready" (and of "refused to open")
for every test file, and the GM colours a bare test host lacks."""

from __future__ import annotations

from typing import Any

from gmscreen.ui.panes import PANES
from gmscreen.ui.screens.load_error import LoadErrorScreen

# The theme variables gmscreen's styles use, for a test host that loads no theme.
GM_COLOURS = {"gm-good": "#4EBF71", "gm-bad": "#E05252", "gm-crit": "#FFB454", "gm-fumble": "#FF6E6E",
              "gm-hidden": "#9E9EAE", "gm-current": "#FFB454"}


async def ready(app: Any, pilot: Any) -> None:
    """Wait until the campaign is open, every pane is built (those hidden at start are built
    after the first frame), one of them has the focus and the roll log (read a moment after the
    first frame) is in."""
    for _ in range(100):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if (app.session is not None and app.focused is not None and all(app.pane(p) is not None for p in PANES)
                and app.session.rolls_loaded and not app.workers):
            return
    raise AssertionError("the campaign never opened")


async def press(pilot: Any, *keys: str) -> None:
    """Press `keys` (real key presses), then let the screen answer them."""
    await pilot.press(*keys)
    await pilot.pause()


async def load_error_shown(app: Any, pilot: Any) -> LoadErrorScreen:
    """Wait until the campaign has failed to open and the load error screen is up."""
    for _ in range(20):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if isinstance(app.screen, LoadErrorScreen):
            return app.screen
    raise AssertionError(f"no load error screen; the screen shown is {app.screen!r}")


def burst(app: Any, *keys: str) -> None:
    """Send keys the way a laggy SSH link does: all at once, with no pause between them
    (Pilot's `press` waits for the screen to settle after every key). Keys are named as for
    `press`."""
    import unicodedata

    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        original = REPLACED_KEYS.get(key, key)
        try:
            char: str | None = unicodedata.lookup(_get_unicode_name_from_key(original))
        except KeyError:
            char = key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)
