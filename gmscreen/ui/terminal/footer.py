"""The footer: Textual's, redrawn only when what it shows changes.

Textual's Footer rebuilds every key of the bar each time the bindings may have changed: a
focus move, a roll (undo becomes possible), a cursor step in the log. With twenty-odd keys
that is most of the work a quick roll costs, and bytes a slow SSH link pays for a bar
that looks the same. This one compares what the bar would show and keeps it if equal.

Descriptions are English msgids (Textual's own too): the bar shows them in the language
spoken, and is rebuilt when the language changes (`relabel`).

The bar never runs off its right end: the keys of the focused pane come in their order (its
`BINDINGS`: the keys of play first), after the essential ones and before the app's others; each
shows its full words where there is room, its short ones (`short_word`) where not, and the
keys there is no room for are left to `?`, which always shows (`fit_keys`), as do the options
of a choice.

Its keys are Textual's private `FooterKey`, `FooterLabel` and `KeyGroup` (checked by
`tests/ui/test_textual_contract.py`); on plain Textual (`GMSCREEN_PLAIN_TEXTUAL=1`) the footer
is Textual's own (`StockFooter`).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from gmscreen.i18n import language

from gmscreen.ui.binding_words import short_word, tr

from . import TUNED

if TUNED or TYPE_CHECKING:
    from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup


# The keys a GM needs whatever has the focus (a quick roll, the next turn, undo): first on the
# bar, so that at 80 columns the keys of a busy pane never push them off its right end.
ESSENTIAL_ACTIONS = ("focus_quick_roll", "next_turn", "undo")


# Shown whatever the room: the way to every other key.
KEYS_ACTION = "keys"


def essentials_first(by_action: dict[str, list]) -> list[list]:
    """The footer's keys grouped by action, the essential ones first (in their order), then the
    others as they came (the focused pane's own, then the app's), `?` last."""
    first = [by_action[a] for a in ESSENTIAL_ACTIONS if a in by_action]
    rest = [keys for action, keys in by_action.items() if action not in ESSENTIAL_ACTIONS + (KEYS_ACTION,)]
    return first + rest + ([by_action[KEYS_ACTION]] if KEYS_ACTION in by_action else [])


# How much a slot of the bar holds on: dropped first, then the essential ones, never.
OTHER, ESSENTIAL, ALWAYS = 0, 1, 2


def fit_keys(widths: list[tuple[int, int]], ranks: list[int], room: int) -> list[bool | None]:
    """Which slots of the bar show, and how: for each (full width, short width), in priority
    order, True (full words), False (short words) or None (no room). All short while they fit,
    left out from the last one up: the `OTHER` slots first, then the `ESSENTIAL` ones, never the
    `ALWAYS` ones; then full words go to the first ones while room is left."""
    shown: list[bool | None] = [False] * len(widths)
    used = sum(short for _full, short in widths)
    for rank in (OTHER, ESSENTIAL):
        for index in reversed(range(len(widths))):
            if used <= room:
                break
            if ranks[index] == rank:
                shown[index] = None
                used -= widths[index][1]
    for index, (full, short) in enumerate(widths):
        if shown[index] is False and (full == short or used + full - short <= room):
            shown[index] = True
            used += full - short
    return shown


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
        return (self.size.width or app.size.width, self.compact, self.show_command_palette, language(), shown)

    def relabel(self) -> None:
        """The language changed: every label again."""
        self._shown = None
        if self.is_attached and self._bindings_ready:
            self.call_later(self.recompose)        # in the footer's own context (its compose binds data)

    def _room(self) -> int:
        """Cells the keys may take: the bar's width less the palette key's, docked right."""
        width = self.size.width or self.app.size.width
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if found is None or not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return width
        binding = found[1]
        key = cell_len(self.app.get_key_display(binding))
        return width - (key + cell_len(tr(binding.description)) + (2 if self.compact else 3))

    def _key_width(self, display: str, description: str) -> int:
        """A FooterKey's cells, as Textual's styles pad it (compact or not) with its margin."""
        if self.compact:
            return cell_len(display) + (cell_len(description) + 1 if description else 0) + 1
        return cell_len(display) + 2 + (cell_len(description) + 1 if description else 0)

    def _slots(self, by_action: dict[str, list]) -> list[tuple[Any, list]]:
        """The bar's slots in priority order: a group of keys shown as one (the panes' `1234`),
        or one action's key; as (group or None, [(binding, enabled, tooltip), …])."""
        slots: list[tuple[Any, list]] = []
        for group, members in groupby(essentials_first(by_action), lambda each: each[0][0].group):
            multi = list(members)
            if group is not None and len(multi) > 1:
                slots.append((group, [each[0] for each in multi]))
            else:
                slots.extend((None, [each[0]]) for each in multi)
        return slots

    def _slot_widths(self, group: Any, keys: list) -> tuple[int, int]:
        app = self.app
        if group is not None:
            displays = sum(cell_len(app.get_key_display(binding)) for binding, _e, _t in keys)
            width = displays + cell_len(tr(group.description)) + 3
            return width, width
        binding = keys[0][0]
        display = app.get_key_display(binding)
        return (self._key_width(display, tr(binding.description)),
                self._key_width(display, short_word(binding)))

    def compose(self) -> ComposeResult:
        """Textual's Footer.compose, each description and group title in the language spoken, the
        keys fitted to the bar's width (`fit_keys`)."""
        if not self._bindings_ready:
            return
        active_bindings = self.screen.active_bindings
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for _key, binding, enabled, tooltip in sorted(active_bindings.values(), key=_declared_order()):
            if binding.show:
                by_action[binding.action].append((binding, enabled, tooltip))
        app = self.app
        slots = self._slots(by_action)
        # `?` always, and the keys a focused widget was given for the moment (a choice's options:
        # the keys the GM must press now); its class's own keys as the essential ones.
        focused = self.screen.focused
        declared = {each.action for each in getattr(type(focused), "BINDINGS", ()) if isinstance(each, Binding)}
        given = {each.action for bindings in focused._bindings.key_to_bindings.values() for each in bindings
                 if each.show} - declared if focused is not None else set()
        ranks = [OTHER if group is not None else
                 ALWAYS if keys[0][0].action in (KEYS_ACTION, *given) else
                 ESSENTIAL if keys[0][0].action in (*ESSENTIAL_ACTIONS, *declared) else OTHER
                 for group, keys in slots]
        fitted = fit_keys([self._slot_widths(*slot) for slot in slots], ranks, self._room())
        self.styles.grid_size_columns = sum(1 for full in fitted if full is not None)
        for (group, keys), full in zip(slots, fitted):
            if full is None:
                continue
            if group is not None:
                with KeyGroup(classes="-compact" if group.compact else ""):
                    for binding, enabled, tooltip in keys:
                        yield FooterKey(binding.key, app.get_key_display(binding), "", binding.action,
                                        disabled=not enabled, tooltip=tr(tooltip or binding.description),
                                        classes="-grouped").data_bind(compact=Footer.compact)
                yield FooterLabel(tr(group.description))
                continue
            binding, enabled, tooltip = keys[0]
            words = tr(binding.description) if full else short_word(binding)
            yield FooterKey(binding.key, app.get_key_display(binding), words, binding.action,
                            disabled=not enabled,
                            tooltip=tr(tooltip) or (tr(binding.description) if not full else "")
                            ).data_bind(compact=Footer.compact)
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = active_bindings.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _node, binding, enabled, _tooltip = found
                yield FooterKey(binding.key, app.get_key_display(binding), tr(binding.description),
                                binding.action, classes="-command-palette", disabled=not enabled,
                                tooltip=tr(binding.tooltip or binding.description))

    def on_resize(self, event: events.Resize) -> None:
        """Another width, maybe other keys or words: fitted again (if anything changes)."""
        if self._shown is not None and self._shown[0] != event.size.width:
            self.call_later(self.recompose)

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
        if signature[:4] != shown[:4] or len(signature[4]) != len(shown[4]):
            return False
        enabled: dict[str, bool] = {}
        for before, now in zip(shown[4], signature[4]):
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


def _declared_order() -> Any:
    """A sort key for the screen's active bindings: by node as they come (the focused one
    first), then in the order each node declares them (a priority key, which Textual lists
    first, keeps its place; a choice's keys come in its options' order)."""
    nodes: dict[int, int] = {}

    def key(entry: Any) -> tuple[int, int]:
        node, binding = entry[0], entry[1]
        rank = nodes.setdefault(id(node), len(nodes))
        actions = [each.action for bindings in node._bindings.key_to_bindings.values() for each in bindings]
        return rank, actions.index(binding.action) if binding.action in actions else len(actions)

    return key


async def _nothing() -> None:
    """An awaitable that does nothing (a recompose found unnecessary)."""


class StockFooter(Footer):
    """Textual's own footer (plain Textual, `GMSCREEN_PLAIN_TEXTUAL=1`): every key as Textual
    lays it out, its words in English."""

    def relabel(self) -> None:
        """The language changed: the bar again."""
        if self.is_attached:
            self.call_later(self.recompose)


if not TUNED:
    QuietFooter = StockFooter  # type: ignore[misc,assignment]
