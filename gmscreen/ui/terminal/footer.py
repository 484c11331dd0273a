"""The footer: Textual's, redrawn only when what it shows changes.

Textual's Footer rebuilds every key of the bar each time the bindings may have changed: a
focus move, a roll (undo becomes possible), a cursor step in the log. With twenty-odd keys
that is most of the work a quick roll costs, and bytes a slow SSH link pays for a bar
that looks the same. This one compares what the bar would show and keeps it if equal.

Descriptions are English msgids (Textual's own too): the bar shows them in the language
spoken, and is rebuilt when the language changes (`relabel`).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup

from gmscreen.i18n import language

from gmscreen.ui.binding_words import tr


# The keys a GM needs whatever has the focus (a quick roll, the next turn, undo): first on the
# bar, so that at 80 columns the keys of a busy pane never push them off its right end.
ESSENTIAL_ACTIONS = ("focus_quick_roll", "next_turn", "undo")


def essentials_first(by_action: dict[str, list]) -> list[list]:
    """The footer's keys grouped by action, the essential ones first (in their order), then the
    others as they came (the focused pane's own, then the app's)."""
    first = [by_action[a] for a in ESSENTIAL_ACTIONS if a in by_action]
    return first + [keys for action, keys in by_action.items() if action not in ESSENTIAL_ACTIONS]


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
        return (self.compact, self.show_command_palette, language(), shown)

    def relabel(self) -> None:
        """The language changed: every label again."""
        self._shown = None
        if self.is_attached and self._bindings_ready:
            self.call_later(self.recompose)        # in the footer's own context (its compose binds data)

    def compose(self) -> ComposeResult:
        """Textual's Footer.compose, each description and group title in the language spoken."""
        if not self._bindings_ready:
            return
        active_bindings = self.screen.active_bindings
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for _key, binding, enabled, tooltip in active_bindings.values():
            if binding.show:
                by_action[binding.action].append((binding, enabled, tooltip))
        self.styles.grid_size_columns = len(by_action)
        app = self.app
        for group, members in groupby(essentials_first(by_action), lambda each: each[0][0].group):
            multi = list(members)
            if group is not None and len(multi) > 1:
                with KeyGroup(classes="-compact" if group.compact else ""):
                    for binding, enabled, tooltip in (each[0] for each in multi):
                        yield FooterKey(binding.key, app.get_key_display(binding), "", binding.action,
                                        disabled=not enabled, tooltip=tr(tooltip or binding.description),
                                        classes="-grouped").data_bind(compact=Footer.compact)
                yield FooterLabel(tr(group.description))
            else:
                for binding, enabled, tooltip in (each[0] for each in multi):
                    yield FooterKey(binding.key, app.get_key_display(binding), tr(binding.description),
                                    binding.action, disabled=not enabled,
                                    tooltip=tr(tooltip)).data_bind(compact=Footer.compact)
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = active_bindings.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _node, binding, enabled, _tooltip = found
                yield FooterKey(binding.key, app.get_key_display(binding), tr(binding.description),
                                binding.action, classes="-command-palette", disabled=not enabled,
                                tooltip=tr(binding.tooltip or binding.description))

    def bindings_changed(self, screen: Screen) -> None:
        if self._shown is not None and self.is_attached and screen is self.screen:
            signature = self._signature(screen)
            if signature == self._shown or self._enable_in_place(signature):
                return
        super().bindings_changed(screen)

    def _enable_in_place(self, signature: tuple) -> bool:
        """Only keys' enabled state changed (undo after the first change, redo after an undo):
        those keys are restyled where they are, not the whole bar rebuilt (two frames of it)."""
        shown = self._shown
        assert shown is not None
        if signature[:3] != shown[:3] or len(signature[3]) != len(shown[3]):
            return False
        enabled: dict[str, bool] = {}
        for before, now in zip(shown[3], signature[3]):
            if before[:4] != now[:4] or before[5:] != now[5:]:
                return False
            if before[4] != now[4]:
                enabled[now[0]] = now[4]
        keys = [key for key in self.query(FooterKey) if key.key in enabled]
        if len(keys) != len(enabled):
            return False            # a key not drawn as such (a group's): rebuilt
        for key in keys:                    # as FooterKey's constructor marks it
            key._disabled = not enabled[key.key]
            key.set_class(key._disabled, "-disabled")
            key.refresh()
        self._shown = signature
        return True

    def recompose(self) -> Any:
        if self.is_attached and self._bindings_ready:
            signature = self._signature(self.screen)
            if signature == self._shown:
                # One action often changes the bindings twice (the app's refresh_bindings and
                # Textual's own, on a focus move): the second queued rebuild has nothing to do.
                return _nothing()
            self._shown = signature
        return super().recompose()


async def _nothing() -> None:
    """An awaitable that does nothing (a recompose found unnecessary)."""
