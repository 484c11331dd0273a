"""The footer: Textual's, redrawn only when what it shows changes.

Textual's Footer rebuilds every key of the bar each time the bindings may have changed: a
focus move, a roll (undo becomes possible), a cursor step in the log. With twenty-odd keys
that is most of the work a quick roll costs, and bytes a slow SSH link pays for a bar
that looks the same. This one compares what the bar would show and keeps it if equal.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


class QuietFooter(Footer):
    """A Footer that recomposes only when its keys, labels or their state change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple | None = None

    def _signature(self, screen: Screen) -> tuple:
        app = self.app
        shown = tuple(
            (key, app.get_key_display(binding), binding.description, binding.action, enabled, tooltip,
             binding.group)
            for key, (_node, binding, enabled, tooltip) in screen.active_bindings.items()
            if binding.show or key == app.COMMAND_PALETTE_BINDING
        )
        return (self.compact, self.show_command_palette, shown)

    def bindings_changed(self, screen: Screen) -> None:
        if (self._shown is not None and self.is_attached and screen is self.screen
                and self._signature(screen) == self._shown):
            return
        super().bindings_changed(screen)

    def recompose(self) -> Any:
        if self.is_attached and self._bindings_ready:
            self._shown = self._signature(self.screen)
        return super().recompose()
