"""Where gmscreen leans on Textual's (and Rich's) private insides, and only here.

Everything the screen does beyond Textual's public API lives in this package: bug fixes
Textual has no public way for (the input thread spinning on stdin's end, two stale resizes
answering each other, browser sizes out of order, keys of a burst landing on the wrong
widget, a blocked pipe after a browser tab is gone) and tuning that buys bytes on the wire
or milliseconds before the first frame (cells sent from the first one changed, repaints of
hidden panes forgotten, a footer rebuilt only when its keys change). Nothing outside this
package names a private Textual or Rich name; `tests/ui/test_textual_contract.py` checks
that each internal used here still exists with the shape assumed, so a Textual upgrade that
moves one fails in that one test.

`GMSCREEN_PLAIN_TEXTUAL=1` runs the screen on stock Textual, for a user stuck on an upgrade
that broke one of these: none of Textual's private modules is imported and nothing of
Textual's is patched or overridden (the drivers and the wire, the repaint shortcuts, the
steady resizes, the toasts' rack, the palette's words, the odds table's sizes and the quiet
footer fall back to Textual's own). What stays needs no private name (the key gate, the
start slices, the exit guard, the quick switches) or has no public way at all: the choice
prompt's keys (`bindings`), a map Textual builds once per widget.
"""

from __future__ import annotations

import os
from typing import Any

PLAIN_SWITCH = "GMSCREEN_PLAIN_TEXTUAL"


def plain() -> bool:
    """The user asked for stock Textual (read each time: tests set it)."""
    return os.environ.get(PLAIN_SWITCH, "").strip() not in ("", "0")


TUNED = not plain()
"""Read once, when the screen's classes are made: the overrides below are defined or not."""


def driver_class(default: Any) -> Any:
    """The driver for this run: under textual-serve, a web driver whose session ends with its
    client; on a Linux/macOS terminal, one that notices standard input's end; otherwise (or
    plain) `default`, Textual's own."""
    from textual import constants

    if not TUNED:
        return default
    if constants.DRIVER == "textual.drivers.web_driver:WebDriver":
        from .web_driver import ClientAwareWebDriver

        return ClientAwareWebDriver
    if constants.DRIVER is not None or os.name == "nt":
        return default
    from .driver import EOFAwareDriver

    return EOFAwareDriver
