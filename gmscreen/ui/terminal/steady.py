"""Screens that lay out for the terminal's size now, never for a size already replaced.

Textual's `Screen._on_resize` lays the screen out for the size its event carries, and that
layout sends the screen a Resize of its own new size. With two Resizes of different sizes in
its queue (under textual-serve, the size the browser reports overtaken by the driver's
initial one; a window dragged while a screen is pushed) each answers the other. Usually the
queue merges them; once the app is exiting, every layout queues a refresh between them, they
never merge, and the screen lays itself out forever without yielding the event loop: 100 %
CPU, memory growing, no signal handled, the campaign lock held. Laying out for `app.size`,
the last size the terminal reported, ends that at the second event. Every screen of ours
derives from `SteadyScreen` or `SteadyModalScreen`.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.screen import ModalScreen, Screen, ScreenResultType

from . import TUNED


class SteadyResize:
    """Mixin placed before `Screen`: a Resize whose size is no longer the terminal's is laid
    out at the terminal's size instead (plain Textual: Textual's own)."""

    if TUNED:
        async def _on_resize(self, event: events.Resize) -> None:
            size = self.app.size  # type: ignore[attr-defined]
            if event.size == size:
                return                          # Screen._on_resize, next in the MRO, handles it
            event.prevent_default()             # not Screen._on_resize with the stale size...
            event.stop()
            base: Any = super()
            await base._on_resize(events.Resize(size, size))   # ...but with the current one


class SteadyScreen(SteadyResize, Screen[ScreenResultType]):
    """A full screen that never lays out for a stale size."""


class SteadyModalScreen(SteadyResize, ModalScreen[ScreenResultType]):
    """A modal screen that never lays out for a stale size."""
